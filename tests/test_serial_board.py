"""The Pi's side of the sensor board: the serial sensor source and the LED strip, against
the firmware's own logic at the other end of an in-memory port, on one fake clock."""

import dataclasses

import pytest

import firmware_standins as fake
from app.errors import DeviceError, DisconnectError
from firmware import tt_device
from app.hardware import serial_board
from firmware import wire
from app.hardware.profile import load_profile
from app.hardware.devices import open_source
from app.hardware.serial_board import Link, SerialStrip, find_port

#: The shipped board (serial, colour sensing, 14 x 14) on a port of its own, as a maker
#: with the port written in the profile has it (the shipped one finds it: "auto").
BLOKUS = dataclasses.replace(load_profile("blokus-duo"),
                             sensors=dataclasses.replace(load_profile("blokus-duo").sensors,
                                                         port="/dev/ttyACM0"))


class Bench:
    """A device (the firmware's logic, a fake scanner) behind an in-memory port, and the
    host's clock: one millisecond per ``tick``. ``unplug`` makes the port fail like a
    pulled cable; the next port opened is a device that has just started."""

    def __init__(self, rows=14, cols=14, polarity=True, leds=0):
        self.rows, self.cols, self.polarity, self.led_count = rows, cols, polarity, leds
        self.ms = 10_000
        self.plugged = True
        self.opened = []
        self.drop_next = 0  # device frames to lose on the way to the host
        self.silent = False  # a device that hangs
        self.scanner = fake.FakeScanner(rows, cols, polarity)
        self.leds = fake.FakeLeds(leds) if leds else None
        self.device = None

    def now(self):
        return self.ms / 1000

    def sleep(self, seconds):
        self.tick(max(1, round(seconds * 1000)))

    def tick(self, ms=1):
        self.ms += ms

    def open(self, path, baudrate):
        if not self.plugged:
            raise FileNotFoundError(2, "No such file or directory", path)
        self.opened.append(path)
        clock = DeviceClock(self)
        self.link = fake.FakeLink()
        self.device = tt_device.Device(self.scanner, self.link, clock, self.leds)
        self.device.start()
        return Port(self)


class DeviceClock:
    def __init__(self, bench):
        self.bench, self.start = bench, bench.ms - 5  # a device up for 5 ms

    def ms(self):
        return (self.bench.ms - self.start) & 0xFFFFFFFF


class Port:
    def __init__(self, bench):
        self.bench, self.closed = bench, False
        self.device, self.link = bench.device, bench.link

    def write(self, data):
        if self.closed or not self.bench.plugged:
            raise OSError(5, "Input/output error")
        self.link.send(data)

    def read(self, size):
        if self.closed or not self.bench.plugged:
            raise OSError(5, "Input/output error")
        if self.bench.silent:
            self.link.written.clear()
            return b""
        self.device.step()
        data = bytes(self.link.written)
        self.link.written.clear()
        while self.bench.drop_next and b"\x00" in data:
            self.bench.drop_next -= 1
            data = data[data.index(b"\x00") + 1:]
        return data

    def close(self):
        self.closed = True


def sensors(bench, profile=BLOKUS):
    return serial_board.open_serial_sensors(profile, opener=bench.open, clock=bench.now,
                                            sleep=bench.sleep)


def turns(bench, source, ms):
    """The table loop's reads for ``ms`` milliseconds, one a millisecond; the last scan
    (or the DisconnectError of the last read)."""
    last = None
    for _ in range(ms):
        bench.tick()
        try:
            last = source.read()
        except DisconnectError as error:
            last = error
    return last


pytestmark = pytest.mark.usefixtures("no_serial_links_left")


def test_a_serial_profile_reads_the_board_with_colours_and_times():
    bench = Bench()
    bench.scanner.states[0] = 1  # a1 lies there from the start
    source = sensors(bench)
    scan = source.read()
    assert [h for h, on in scan.items() if on] == ["a1"] and scan.colours == {"a1": "b"}
    assert len(source.holes) == 196 and source.colour_sensing
    placed = bench.now()
    bench.scanner.states[14 + 3] = 2  # d2, south pole up: the second colour
    scan = turns(bench, source, 30)
    assert scan["d2"] and scan.colours["d2"] == "w"
    assert placed <= scan.times["d2"] <= placed + 0.006  # the first scan that saw it
    assert [(h, on, c) for t, h, on, c in source.drain()] == [("a1", True, "b"),
                                                              ("d2", True, "w")]
    bench.scanner.states[0] = 0
    scan = turns(bench, source, 30)
    assert not scan["a1"] and "a1" not in scan.colours
    assert bench.opened == ["/dev/ttyACM0"]
    source.close()


def test_an_unchanged_board_gives_the_same_scan_object():
    bench = Bench()
    source = sensors(bench)
    first = source.read()
    assert turns(bench, source, 50) is first


def test_a_fault_reads_empty_and_is_named():
    bench = Bench()
    source = sensors(bench)
    bench.scanner.states[5] = 3
    scan = turns(bench, source, 30)
    assert not scan["f1"] and scan.faults == {"f1"}


def test_lost_frames_make_the_host_ask_for_a_snapshot_and_believe_only_it():
    bench = Bench()
    source = sensors(bench)
    link = source.link
    turns(bench, source, 10)
    bench.drop_next = 1  # the CHANGE of b1 is lost on the line
    bench.scanner.states[1] = 1
    turns(bench, source, 12)
    assert link.decoder.gaps == 0  # nothing after the gap yet
    bench.scanner.states[2] = 1  # c1: its CHANGE shows the gap
    scan = turns(bench, source, 40)
    assert link.decoder.gaps == 1 and link.trusted
    assert scan["b1"] and scan["c1"]
    assert sorted(h for t, h, on, c in source.drain()) == ["b1", "c1"]


def test_an_unplugged_board_is_a_disconnect_until_it_is_back_and_then_the_truth():
    bench = Bench()
    source = sensors(bench)
    bench.scanner.states[0] = 1
    assert turns(bench, source, 30)["a1"]
    bench.plugged = False
    result = turns(bench, source, 1)
    assert isinstance(result, DisconnectError)
    assert "went away" in str(result) and "reconnecting" in str(result)
    # while it is away a piece is lifted and another placed
    bench.scanner.states[0] = 0
    bench.scanner.states[20] = 2
    result = turns(bench, source, 2000)
    assert isinstance(result, DisconnectError) and "No such file" not in str(result)
    attempts = len(bench.opened)
    bench.plugged = True
    scan = turns(bench, source, 6000)  # the back-off is at most 5 s
    assert not isinstance(scan, DisconnectError)
    assert len(bench.opened) == attempts + 1
    assert not scan["a1"] and scan["g2"] and scan.colours == {"g2": "w"}
    changes = [(h, on) for t, h, on, c in source.drain()]
    assert changes[-2:] == [("a1", False), ("g2", True)]


def test_reconnection_backs_off():
    bench = Bench()
    source = sensors(bench)
    bench.plugged = False
    tries = []
    original = source.link._open

    def counting():
        tries.append(bench.ms)
        original()

    source.link._open = counting
    turns(bench, source, 20_000)
    gaps = [b - a for a, b in zip(tries, tries[1:])]
    assert gaps[:5] == [500, 1000, 2000, 4000, 5000] and set(gaps[5:]) == {5000}


def test_a_silent_board_is_lost_after_3_s():
    bench = Bench()
    source = sensors(bench)
    bench.silent = True
    assert not isinstance(turns(bench, source, 2900), DisconnectError)
    result = turns(bench, source, 200)
    assert isinstance(result, DisconnectError) and "no word" in str(result)
    bench.silent = False
    assert not isinstance(turns(bench, source, 1000), DisconnectError)


def test_a_board_that_does_not_answer_or_does_not_fit_is_refused_at_opening():
    bench = Bench()
    bench.silent = True
    with pytest.raises(DeviceError, match="no answer from the sensor board on /dev/ttyACM0"):
        sensors(bench)
    with pytest.raises(DeviceError, match="scans 8 x 8 = 64 channels; the profile reads 196"):
        sensors(Bench(8, 8))
    with pytest.raises(DeviceError, match="does not sense polarity"):
        sensors(Bench(polarity=False))
    unplugged = Bench()
    unplugged.plugged = False
    with pytest.raises(DeviceError, match="cannot open /dev/ttyACM0: no such device"):
        sensors(unplugged)
    assert serial_board._LINKS == {}


def test_a_board_speaking_another_protocol_version_is_refused():
    bench = Bench()
    link = Link("x", opener=bench.open, clock=bench.now)
    link._open()
    link._on_hello(b"\x02\x0e\x0e\x01", bench.now())
    assert "protocol version 2" in link.lost and link.port is None


def test_the_shipped_profile_finds_its_board_by_udev_name_or_usb_id():
    assert load_profile("blokus-duo").sensors.port == "auto"


def test_the_serial_branch_of_open_source_opens_the_profiles_port(monkeypatch):
    monkeypatch.setattr(serial_board, "HELLO_WAIT_S", 0.05)
    with pytest.raises(DeviceError, match=r"profile blokus-duo: sensor board: cannot open "
                                          r"/dev/ttyACM0"):
        open_source(BLOKUS)


def test_ports_are_found_by_udev_name_or_usb_id(monkeypatch, tmp_path):
    class Info:
        def __init__(self, device, vid, pid):
            self.device, self.vid, self.pid = device, vid, pid

    ports = [Info("/dev/ttyUSB0", 0x0403, 0x6001), Info("/dev/ttyACM3", 0x2E8A, 0x0005)]
    import serial.tools.list_ports
    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: ports)
    monkeypatch.setattr(serial_board, "UDEV_NAME", str(tmp_path / "tabletop-sensors"))
    assert find_port("/dev/ttyS1") == "/dev/ttyS1"
    assert find_port("auto") == "/dev/ttyACM3"
    assert find_port("usb:0403:6001") == "/dev/ttyUSB0"
    (tmp_path / "tabletop-sensors").touch()
    assert find_port("auto") == str(tmp_path / "tabletop-sensors")
    with pytest.raises(DeviceError, match="no sensor board found .a USB device 1234:0001"):
        find_port("usb:1234:0001")
    with pytest.raises(DeviceError, match="write usb:VID:PID in hex"):
        find_port("usb:pico")


def test_the_strip_sends_leds_frames_the_device_puts_on_its_chain():
    bench = Bench(leds=400)  # more than one LEDS packet holds
    profile = BLOKUS
    source = sensors(bench, profile)
    strip = SerialStrip(400, source.link, brightness=1.0)
    frame = [(255, 0, 0)] * 399 + [(0, 0, 255)]
    strip.show(frame)
    turns(bench, source, 2)
    shown = bench.leds.shown[-1]
    assert shown[:3] == bytes([0, 255, 0]) and shown[-3:] == bytes([0, 0, 255])
    assert bench.device.errors_sent == 0
    # unplugged and back: the device starts dark and gets the last frame again
    bench.plugged = False
    turns(bench, source, 10)
    strip.show([(0, 255, 0)] * 400)  # sent while away: kept, no error
    bench.leds.buf[:] = bytes(1200)
    bench.plugged = True
    turns(bench, source, 1000)
    assert bench.leds.shown[-1][:3] == bytes([255, 0, 0])  # G R B of green
    strip.close()
    source.close()
    assert serial_board._LINKS == {}


def test_a_strip_on_a_board_that_drives_no_leds_is_refused():
    bench = Bench(leds=0)
    source = sensors(bench)
    with pytest.raises(DeviceError, match="does not drive LEDs"):
        SerialStrip(196, source.link)


def test_the_sensors_and_the_leds_of_one_board_share_one_port():
    bench = Bench(leds=196)
    source = sensors(bench)
    strip = serial_board.open_serial_strip(BLOKUS, opener=bench.open, clock=bench.now,
                                           sleep=bench.sleep)
    assert strip.link is source.link and len(bench.opened) == 1
    source.close()
    assert strip.link.port is not None
    strip.close()
    assert serial_board._LINKS == {}


def test_every_change_keeps_the_order_and_time_the_device_saw():
    bench = Bench()
    source = sensors(bench)
    expected = []
    for i in range(40):
        channel = (i * 37) % 196
        bench.scanner.states[channel] = 1 - bench.scanner.states[channel] % 2
        expected.append((source.holes[channel], bool(bench.scanner.states[channel])))
        turns(bench, source, 25)
    events = source.drain()
    assert [(h, on) for t, h, on, c in events] == expected
    times = [t for t, *_ in events]
    assert times == sorted(times)
    assert wire.PROTO_VERSION == 1


# --- boards of hall sensors: thresholds from the profile, raw readings -------------------

def with_thresholds(profile, thresholds):
    return dataclasses.replace(profile, sensors=dataclasses.replace(
        profile.sensors, thresholds=thresholds))


def test_the_profiles_thresholds_go_to_the_board_after_every_hello():
    from app.hardware.profile import HallThresholds
    bench = Bench()
    bench.scanner = fake.FakeHall(14, 14)
    bench.scanner.readings[0] = 30000  # empty to the board file's thresholds (26768-38768)
    plain = sensors(bench)
    assert turns(bench, plain, 50).colours == {}
    plain.close()
    # magnets glued the other way round: the first player's read high, so 30000, below
    # the calibrated low, is the second player's
    source = sensors(bench, with_thresholds(BLOKUS, HallThresholds(31000, 40000, "high")))
    assert turns(bench, source, 50).colours == {"a1": "w"}
    bench.plugged = False
    turns(bench, source, 10)
    bench.scanner.set_thresholds(26768, 38768, 1)  # a reset Pico has its own again
    bench.plugged = True
    assert turns(bench, source, 3000).colours == {"a1": "w"}
    assert bench.scanner.low == 31000 and bench.device.errors_sent == 0
    source.close()


def test_raw_readings_come_from_an_analog_board_in_the_order_asked():
    bench = Bench()
    bench.scanner = fake.FakeHall(14, 14)
    bench.scanner.readings[3] = 12345
    source = sensors(bench)
    assert source.link.read_raw([3, 0], sleep=bench.sleep) == [12345, 32768]
    assert source.link.raw == [(3, 12345), (0, 32768)]
    with pytest.raises(DeviceError, match="the sensor board says: RAW_REQUEST: channel 196: "
                                          "the board has 196"):
        source.link.read_raw([196], sleep=bench.sleep)
    bench.silent = True
    with pytest.raises(DeviceError, match="no raw readings from the sensor board on "
                                          "/dev/ttyACM0 within 1 s"):
        source.link.read_raw([0], sleep=bench.sleep)
    source.close()


def test_a_board_without_raw_readings_says_so_and_old_firmware_is_named():
    bench = Bench()  # switches
    source = sensors(bench)
    with pytest.raises(DeviceError, match="RAW_REQUEST: this board's sensors give no "
                                          "analog readings"):
        source.link.read_raw([0], sleep=bench.sleep)
    obey = bench.device.obey

    def old_firmware(kind, payload):
        if kind == wire.RAW_REQUEST:
            bench.device.error(wire.ERR_UNKNOWN_TYPE, "unknown type 0x87")
        else:
            obey(kind, payload)

    bench.device.obey = old_firmware
    with pytest.raises(DeviceError, match="unknown type 0x87: the firmware on it is older "
                                          "than this Tabletop.*tabletop firmware flash"):
        source.link.read_raw([0], sleep=bench.sleep)
    bench.plugged = False
    turns(bench, source, 5)
    with pytest.raises(DeviceError, match="went away"):
        source.link.read_raw([0], sleep=bench.sleep)
    source.close()
