"""The firmware's logic under CPython, with stand-ins for the Pico's hardware
(tests/firmware_standins.py): what it sends, when, and what it does with the host's
requests; then each hardware class against a simulated board."""

import os

import pytest

import firmware_standins as fake
from firmware import tt_device, tt_main
from firmware import wire

HOST = wire.host_codec()


class Host:
    """The Pi's end of a fake link: decodes what the device wrote, sends requests."""

    def __init__(self, link):
        self.link = link
        self.decoder = wire.Decoder(HOST)
        self.seq = wire.Counter()
        self.read_upto = 0

    def messages(self):
        data = bytes(self.link.written[self.read_upto:])
        self.read_upto = len(self.link.written)
        return self.decoder.feed(data)

    def kinds(self):
        return [wire.NAMES.get(m.kind, m.kind) for m in self.messages()]

    def send(self, kind, payload=b""):
        self.link.send(wire.frame(HOST, kind, self.seq.next(), payload))


def device(rows=2, cols=3, *, polarity=False, leds=None, debounce_ms=10, scan_hz=200,
           start_ms=0):
    scanner = fake.FakeScanner(rows, cols, polarity)
    link, clock = fake.FakeLink(), fake.FakeClock(start_ms)
    dev = tt_device.Device(scanner, link, clock, leds, debounce_ms=debounce_ms,
                           scan_hz=scan_hz)
    return dev, scanner, clock, Host(link)


def run_for(dev, clock, ms, step_ms=1):
    end = clock.now + ms
    while clock.now < end:
        dev.step()
        clock.advance(step_ms)


def test_it_starts_with_hello_then_a_snapshot_of_what_lies_on_the_board():
    dev, scanner, clock, host = device(14, 14, polarity=True, leds=fake.FakeLeds(196),
                                       start_ms=500)
    scanner.states[33] = 1
    scanner.states[40] = 2
    dev.start()
    hello, snapshot = host.messages()
    assert (hello.kind, hello.seq, snapshot.kind, snapshot.seq) == (wire.HELLO, 0,
                                                                    wire.SNAPSHOT, 1)
    assert wire.parse_hello(hello.payload) == (1, 14, 14, 3, tt_device.VERSION)
    time_ms, states = wire.parse_snapshot(snapshot.payload, 196)
    assert time_ms == 500 and states[33] == 1 and states[40] == 2 and sum(states) == 3


def test_a_change_is_sent_once_it_has_held_for_the_debounce_stamped_when_first_seen():
    dev, scanner, clock, host = device(debounce_ms=10)
    dev.start()
    host.messages()
    clock.advance(100)
    scanner.states[4] = 1
    run_for(dev, clock, 8)
    assert host.kinds() == []
    scanner.states[4] = 0  # a bounce: back before the debounce was over
    run_for(dev, clock, 5)
    scanner.states[4] = 1
    first_seen = clock.now
    run_for(dev, clock, 30)
    changes = [m for m in host.messages() if m.kind == wire.CHANGE]
    ((stamp, channel, state),) = [wire.parse_change(m.payload) for m in changes]
    # stamped by the first scan that saw it (one every 5 ms at 200 scans a second)
    assert (channel, state) == (4, 1) and first_seen <= stamp < first_seen + 5


def test_a_heartbeat_snapshot_goes_out_at_least_once_a_second():
    dev, scanner, clock, host = device()
    dev.start()
    times = [0]
    for _ in range(5000):
        dev.step()
        for m in host.messages():
            if m.kind == wire.SNAPSHOT:
                times.append(wire.parse_snapshot(m.payload, 6)[0])
        clock.advance(1)
    gaps = [b - a for a, b in zip(times, times[1:])]
    assert len(times) >= 6 and max(gaps) <= 1000
    assert max(gaps) == tt_device.HEARTBEAT_MS


def test_the_sequence_numbers_run_on_without_a_gap():
    dev, scanner, clock, host = device()
    dev.start()
    for i in range(300):
        scanner.states[i % 6] ^= 1
        run_for(dev, clock, 12)
    seqs = [m.seq for m in host.messages()]
    assert len(seqs) > 256
    assert all((b - a) % 256 == 1 for a, b in zip(seqs, seqs[1:]))
    assert host.decoder.gaps == 0 and host.decoder.drops == 0


def test_requests_are_answered():
    dev, scanner, clock, host = device()
    dev.start()
    host.messages()
    host.send(wire.PING, wire.token_payload(0xC0FFEE))
    host.send(wire.SNAPSHOT_REQUEST)
    host.send(wire.HELLO_REQUEST)
    dev.step()
    got = host.messages()
    assert [m.kind for m in got] == [wire.PONG, wire.SNAPSHOT, wire.HELLO, wire.SNAPSHOT]
    assert wire.parse_token(got[0].payload) == 0xC0FFEE


def test_a_ctrl_c_or_ctrl_d_inside_a_frame_is_just_data():
    dev, scanner, clock, host = device()
    dev.start()
    host.messages()
    frame = wire.frame(HOST, wire.PING, 3, b"\x03\x04\x03\x01")
    assert b"\x03" in frame
    host.link.send(frame)
    dev.step()
    assert wire.parse_token(host.messages()[0].payload) == 0x01030403


def test_bad_frames_from_the_host_are_dropped_and_unknown_types_answered_with_error():
    dev, scanner, clock, host = device()
    dev.start()
    host.messages()
    good = wire.frame(HOST, wire.PING, 1, wire.token_payload(5))
    host.link.send(b"\x17\x03" + good[:5] + b"\x00" + bytes([good[0] ^ 1]) + good[1:])
    host.send(0x99, b"?")
    host.send(wire.PING, wire.token_payload(6))
    dev.step()
    got = host.messages()
    assert [m.kind for m in got] == [wire.ERROR, wire.PONG]
    assert wire.parse_error(got[0].payload) == (wire.ERR_UNKNOWN_TYPE, "unknown type 0x99")
    assert dev.decoder.drops == 2


def test_leds_frames_go_to_the_chain_in_grb_and_are_shown_once_per_turn():
    leds = fake.FakeLeds(4)
    dev, scanner, clock, host = device(leds=leds)
    dev.start()
    host.messages()
    host.send(wire.LEDS, wire.leds_payload(0, bytes([1, 2, 3, 4, 5, 6])))
    host.send(wire.LEDS, wire.leds_payload(3, bytes([7, 8, 9])))
    dev.step()
    assert leds.shown == [bytes([1, 2, 3, 4, 5, 6, 0, 0, 0, 7, 8, 9])]
    host.send(wire.LEDS, wire.leds_payload(3, bytes(6)))  # one LED too many
    dev.step()
    assert leds.shown[-1] == bytes([1, 2, 3, 4, 5, 6, 0, 0, 0, 0, 0, 0])
    assert [wire.parse_error(m.payload)[0] for m in host.messages()] == [wire.ERR_BAD_VALUE]


def test_a_board_without_leds_says_so():
    dev, scanner, clock, host = device()
    dev.start()
    host.messages()
    host.send(wire.LEDS, wire.leds_payload(0, bytes(3)))
    dev.step()
    assert [wire.parse_error(m.payload)[0] for m in host.messages()] == [wire.ERR_NO_LEDS]
    assert wire.parse_hello(wire.hello_payload(2, 3, 0, "")[:4] + b"")[3] == 0


def test_config_sets_the_debounce_and_the_scan_rate():
    dev, scanner, clock, host = device()
    dev.start()
    host.send(wire.CONFIG, wire.config_payload(0, 1000))
    dev.step()
    assert (dev.debounce_ms, dev.scan_hz) == (0, 1000)
    host.messages()
    scanner.states[2] = 1
    clock.advance(1)
    dev.step()
    assert [m.kind for m in host.messages()] == [wire.CHANGE]
    host.send(wire.CONFIG, wire.config_payload(10, 0))
    dev.step()
    assert [m.kind for m in host.messages()] == [wire.ERROR]
    assert (dev.debounce_ms, dev.scan_hz) == (0, 1000)
    before = scanner.scans
    run_for(dev, clock, 100)
    assert scanner.scans - before in (99, 100)  # 1,000 scans a second


def test_the_clock_wrapping_at_2_to_the_32_neither_stops_scans_nor_debounce():
    dev, scanner, clock, host = device(start_ms=2**32 - 30)
    dev.start()
    host.messages()
    run_for(dev, clock, 25)
    scanner.states[1] = 1
    first_seen = clock.now & 0xFFFFFFFF
    run_for(dev, clock, 40)
    changes = [wire.parse_change(m.payload) for m in host.messages() if m.kind == wire.CHANGE]
    assert changes == [(first_seen, 1, 1)]
    assert clock.now > 2**32


# --- the hardware classes against simulated boards ------------------------------------

@pytest.fixture
def world(monkeypatch):
    return fake.install(monkeypatch)


def test_the_diode_matrix_reads_every_crossing_without_ghosts(world):
    from firmware import tt_hw
    rows, cols = [0, 1, 2], [10, 11, 12, 13]
    world.board = board = fake.MatrixBoard(rows, cols)
    matrix = tt_hw.DiodeMatrix(rows, cols, settle_us=0)
    for channel in (0, 1, 4, 11):  # a1, b1, a2 and the far corner: b2 must stay empty
        board.set(channel, True)
    out = bytearray(12)
    matrix.scan(out)
    assert [i for i, v in enumerate(out) if v] == [0, 1, 4, 11]
    assert all(world.level(p) == 0 for p in rows), "every row low after a scan"
    with pytest.raises(ValueError):
        tt_hw.DiodeMatrix(list(range(17)), cols)


def test_a_chain_of_74hc165s_reads_channel_by_chip_and_input(world):
    from firmware import tt_hw
    world.board = board = fake.ShiftBoard(2, 3, 4, chips=3)
    chain = tt_hw.ShiftChain(2, 3, 4, chips=3)
    for channel in (0, 7, 8, 23):
        board.set(channel, True)
    out = bytearray(24)
    chain.scan(out)
    assert [i for i, v in enumerate(out) if v] == [0, 7, 8, 23]
    assert (chain.rows, chain.cols) == (3, 8)


def test_hall_sensors_tell_north_south_nothing_and_a_dead_sensor(world):
    from firmware import tt_hw
    rows, select = [0, 1], [10, 11, 12, 13]
    world.board = board = fake.HallBoard(rows, select, 26, cols=12)
    hall = tt_hw.HallMatrix(rows, select, 26, cols=12, settle_us=0)
    board.set(0, board.NORTH)
    board.set(13, board.SOUTH)
    board.set(23, 0)  # a sensor reading the ground rail: missing or shorted
    board.set(5, board.MID + 3000)  # a weak field: nothing there
    out = bytearray(24)
    hall.scan(out)
    assert {i: v for i, v in enumerate(out) if v} == {0: 1, 13: 2, 23: 3}
    assert hall.polarity


def test_the_led_chain_goes_through_micropythons_neopixel(world):
    from firmware import tt_hw
    leds = tt_hw.Leds(22, 3)
    leds.write(1, bytes([9, 8, 7]))
    leds.show()
    (strip,) = world.strips
    assert strip.pin.id == 22 and strip.shown == [bytes([0, 0, 0, 9, 8, 7, 0, 0, 0])]


def test_the_usb_link_turns_ctrl_c_off_and_reads_what_is_there(world):
    from firmware import tt_hw
    read_fd, write_fd = os.pipe()
    with os.fdopen(read_fd, "rb", buffering=0) as stdin, \
            os.fdopen(write_fd, "wb", buffering=0) as feeder:
        sink = bytearray()

        class Out:
            write = sink.extend

        link = tt_hw.UsbLink(stdin, Out())
        assert world.kbd_intr == [-1]
        assert link.read() == b""
        feeder.write(b"\x03\x00abc")
        assert link.read() == b"\x03\x00abc"
        link.write(b"xy")
        assert bytes(sink) == b"xy"


def test_the_firmware_starts_from_its_board_file_with_ctrl_c_off_and_a_watchdog(world,
                                                                              monkeypatch):
    board = {"sensors": "matrix", "row_pins": [0, 1], "column_pins": [2, 3], "settle_us": 0,
             "leds_pin": 22, "leds": 4, "watchdog_ms": 3000, "safe_pin": 21}
    world.board = fake.MatrixBoard([0, 1], [2, 3])
    world.board.set(3, True)
    link = fake.FakeLink()
    order = []
    monkeypatch.setattr(link, "read", lambda: order.append(list(world.kbd_intr)) or b"")

    def usb_link():
        from micropython import kbd_intr
        kbd_intr(-1)
        return link

    from firmware import tt_hw
    monkeypatch.setattr(tt_hw, "UsbLink", usb_link)
    dev = tt_main.run(board, turns=20)
    assert order[0] == [-1], "Ctrl-C is off before the first byte is read"
    assert world.watchdogs[0].timeout == 3000 and world.watchdogs[0].feeds == 20
    host = Host(link)
    hello, snapshot = host.messages()[:2]
    assert wire.parse_hello(hello.payload)[1:4] == (2, 2, wire.FLAG_LEDS)
    assert wire.parse_snapshot(snapshot.payload, 4)[1] == [0, 0, 0, 1]
    assert dev.leds.count == 4


def test_holding_the_safe_pin_leaves_the_firmware_stopped(world):
    class Grounded:
        def read(self, pin):
            return 0

    world.board = Grounded()
    assert tt_main.run({"safe_pin": 21, "row_pins": [0], "column_pins": [1]}) is None


def test_the_board_file_ships_a_matrix_the_pico_has_pins_for():
    from firmware import tt_board
    board = tt_board.BOARD
    pico = set(range(23)) | {26, 27, 28}
    used = board["row_pins"] + board["column_pins"] + [board["leds_pin"], board["safe_pin"]]
    assert set(used) <= pico and len(set(used)) == len(used)
    with pytest.raises(ValueError):
        tt_main.scanner({"sensors": "dip-switches"})


# --- analog boards: thresholds and raw readings -------------------------------------------

def hall_device(rows=2, cols=3):
    scanner = fake.FakeHall(rows, cols)
    link, clock = fake.FakeLink(), fake.FakeClock()
    dev = tt_device.Device(scanner, link, clock)
    dev.start()
    host = Host(link)
    host.messages()
    return dev, scanner, clock, host


def test_thresholds_change_how_every_channel_reads_at_once_and_a_snapshot_says_so():
    dev, scanner, clock, host = hall_device()
    scanner.readings[0] = 30000  # empty with the board file's thresholds (26768-38768)
    scanner.readings[1] = 20000  # a north pole there: state 1
    run_for(dev, clock, 30)
    assert [wire.parse_change(m.payload)[1:] for m in host.messages()] == [(1, 1)]
    host.send(wire.THRESHOLDS, wire.thresholds_payload(31000, 40000, 2))
    dev.step()
    (snapshot,) = host.messages()  # no CHANGEs: the new way of reading, all at once
    assert snapshot.kind == wire.SNAPSHOT
    assert wire.parse_snapshot(snapshot.payload, 6)[1] == [2, 2, 0, 0, 0, 0]
    assert list(dev.stable) == [2, 2, 0, 0, 0, 0] and dev.waiting == 0
    run_for(dev, clock, 30)
    assert [m.kind for m in host.messages()] == []


@pytest.mark.parametrize("low, high, below, problem", [
    (40000, 30000, 1, "need 1500 < low < high < 64035, not low 40000, high 30000"),
    (1500, 30000, 1, "need 1500 < low < high < 64035, not low 1500, high 30000"),
    (20000, 64035, 1, "need 1500 < low < high < 64035, not low 20000, high 64035"),
    (20000, 40000, 3, "below must be state 1 or 2, not 3"),
])
def test_thresholds_without_an_empty_band_are_refused_and_the_old_ones_kept(low, high,
                                                                         below, problem):
    dev, scanner, clock, host = hall_device()
    host.send(wire.THRESHOLDS, wire.thresholds_payload(low, high, below))
    dev.step()
    (error,) = host.messages()
    assert wire.parse_error(error.payload) == (wire.ERR_BAD_VALUE, "THRESHOLDS: " + problem)
    assert (scanner.low, scanner.high, scanner.below) == (26768, 38768, 1)


def test_a_raw_request_is_answered_with_one_reading_of_each_channel_asked_for():
    dev, scanner, clock, host = hall_device()
    scanner.readings[5], scanner.readings[0] = 41234, 17
    host.send(wire.RAW_REQUEST, wire.raw_request_payload([5, 0, 5]))
    dev.step()
    (raw,) = host.messages()
    assert raw.kind == wire.RAW and wire.parse_raw(raw.payload) == [(5, 41234), (0, 17),
                                                                    (5, 41234)]
    host.send(wire.RAW_REQUEST, wire.raw_request_payload([1, 6]))
    dev.step()
    (error,) = host.messages()  # nothing read: the whole request is refused
    assert wire.parse_error(error.payload) == (wire.ERR_BAD_VALUE,
                                               "RAW_REQUEST: channel 6: the board has 6")


def test_a_board_of_switches_gives_no_raw_readings_and_takes_no_thresholds():
    dev, scanner, clock, host = device(polarity=True)
    dev.start()
    host.messages()
    host.send(wire.RAW_REQUEST, wire.raw_request_payload([0]))
    host.send(wire.THRESHOLDS, wire.thresholds_payload(20000, 40000, 1))
    dev.step()
    assert [wire.parse_error(m.payload) for m in host.messages()] == [
        (wire.ERR_NOT_ANALOG, "RAW_REQUEST: this board's sensors give no analog readings"),
        (wire.ERR_NOT_ANALOG, "THRESHOLDS: this board's sensors give no analog readings")]


def test_the_hall_matrix_reads_one_sensor_alone_and_takes_new_thresholds(world):
    from firmware import tt_hw
    rows, select = [0, 1], [10, 11, 12, 13]
    world.board = board = fake.HallBoard(rows, select, 26, cols=12)
    hall = tt_main.scanner({"sensors": "hall", "row_pins": rows, "select_pins": select,
                            "adc_pin": 26, "columns": 12})
    assert (hall.low, hall.high, hall.below, hall.rail) == (
        tt_hw.MID - tt_hw.THRESHOLD, tt_hw.MID + tt_hw.THRESHOLD, 1, tt_hw.RAIL)
    board.set(13, 36000)  # the stand-in asserts that exactly one row is powered
    assert hall.read(13) == 36000 and hall.read(0) == board.MID
    assert all(world.level(p) == 0 for p in rows), "every row off after a reading"
    out = bytearray(24)
    hall.scan(out)
    assert out[13] == 0
    assert hall.set_thresholds(30000, 35000, 2) == ""
    hall.scan(out)
    assert out[13] == 1 and out[0] == 0  # above high: the state that is not below's
