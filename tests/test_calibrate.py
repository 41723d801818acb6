"""``tabletop sensors calibrate``: the thresholds it proposes (the rule, and its refusals),
the copy of the profile it writes, the virtual board of hall sensors it is tried on, and
the whole walk: a maker (a scripted standard input) calibrating a board whose magnets
the firmware's own thresholds misread, after which the board reads right and a game is
played on it with the calibrated copy."""

import dataclasses
import random
import time
import tomllib

import pytest

from app.cli import main
from app.cli.sensors import CalibrationError, calibrated_path, propose
from app.games import new_game
from app.hardware.devices import open_source
from app.hardware.leds import SimulatedStrip
from app.hardware.profile import (PROFILE_DIR, HallReadings, HallThresholds, load_profile,
                                  with_thresholds)
from app.hardware.virtual_device import (DEFAULT_LEVELS, DeviceSensors, VirtualDevice,
                                         VirtualHall, VirtualScanner, device_for, hall_levels)
from app.table.loop import Table
from app.table.session import Session
from firmware import tt_hw, wire

pytestmark = pytest.mark.usefixtures("no_serial_links_left")

PIECES = ("a purple piece", "an orange piece")
BLOKUS = load_profile("blokus-duo")
CHANNEL = {name: hole.channel for name, hole in BLOKUS.holes.items()}
#: A board whose magnets went in the other way round, a little off centre: the first
#: player's pieces read high, which the firmware's own thresholds (26768-38768, the first
#: player's below) take for the second player's.
REVERSED = HallReadings(empty=29000, first_piece=41500, second_piece=16000,
                        first_beside=29500, second_beside=28300)


def classify(thresholds: HallThresholds, value: int) -> int:
    """The state the firmware reads ``value`` as with ``thresholds``."""
    below = wire.OCCUPIED if thresholds.first_reads == "low" else wire.SOUTH
    return tt_hw.HallSensors(thresholds.low, thresholds.high, below).state(value)


# --- the rule -----------------------------------------------------------------------------

ONE_HOLE = {"b2": {"empty": [30000, 30010], "first_piece": [18000, 18020],
                   "second_piece": [45000, 45040], "first_beside": [29500],
                   "second_beside": [30400, 30400]}}


def test_thresholds_go_midway_between_the_clusters_widened_by_a_crowd_of_neighbours():
    thresholds, lines = propose(ONE_HOLE, 4, PIECES)
    # a neighbour's piece moved the empty hole by -500 and +400: four of them, by -2000
    # and +1600; the clusters: pieces below 16000-19620, empty 27500-32000, 43000-46640
    assert (thresholds.low, thresholds.high, thresholds.first_reads) == (23560, 37500, "low")
    assert 23560 - 19620 == 27500 - 23560 and 37500 - 32000 == 43000 - 37500
    assert thresholds.measured == HallReadings(30000, 18000, 45000, 29500, 30400)
    assert lines[0] == ("Proposed: below 23560 a purple piece, above 37500 an orange piece, "
                        "in between an empty hole.")
    assert "counting what 4 neighbours' pieces can add (-2000 to +1600)" in lines[1]
    assert "margin: at least 3940" in lines[2] and len(lines) == 3
    for key, values in ONE_HOLE["b2"].items():
        state = {"first_piece": wire.OCCUPIED, "second_piece": wire.SOUTH}.get(key, 0)
        assert {classify(thresholds, v) for v in values} == {state}, key


def test_which_player_reads_low_is_measured_not_assumed():
    swapped = {"b2": {**ONE_HOLE["b2"], "first_piece": ONE_HOLE["b2"]["second_piece"],
                      "second_piece": ONE_HOLE["b2"]["first_piece"]}}
    thresholds, lines = propose(swapped, 4, PIECES)
    assert (thresholds.low, thresholds.high, thresholds.first_reads) == (23560, 37500, "high")
    assert classify(thresholds, 45000) == wire.OCCUPIED and lines[0].startswith(
        "Proposed: below 23560 an orange piece, above 37500 a purple piece")


def test_neighbours_that_move_a_reading_too_far_leave_no_threshold():
    crowded = {"b2": {**ONE_HOLE["b2"], "first_beside": [27000], "second_beside": [33000]}}
    assert propose(crowded, 1, PIECES)[0].low == 22510
    with pytest.raises(CalibrationError) as error:
        propose(crowded, 4, PIECES)
    assert str(error.value).startswith(
        "a purple piece and an empty hole read alike: a purple piece up to 30020, an empty "
        "hole down to 15000, counting 4 neighbours' pieces (which move a reading by -12000 "
        "to +12000): no threshold tells them apart.")


@pytest.mark.parametrize("change, message", [
    ({"second_piece": [31000, 31500]}, "an empty hole and an orange piece read alike: an "
                                       "empty hole up to 32000, an orange piece down to "
                                       "29000"),
    ({"second_piece": [20000]}, "a purple piece and an orange piece both read below an "
                                "empty hole (18000, 20000, empty 30000): one player's "
                                "magnets must face the other way"),
    ({"first_piece": [18000, 900]}, "b2, a purple piece, read 900, within 1500 of the end of "
                                    "the range, where the firmware reads a dead sensor"),
    ({"empty": [30000, 65000]}, "b2, an empty hole, read 65000"),
    # No magnet sensed at all: every reading the same. Neither below nor above an empty
    # hole, where it was said to be "both above", a matter of turning magnets.
    ({"first_piece": [30000, 30010], "second_piece": [30000]},
     "a purple piece and an orange piece read as an empty hole does (30000, 30000; empty "
     "30000 to 30010): no magnet was sensed."),
    ({"second_piece": [30005]}, "an orange piece reads as an empty hole does (30005; "
                                "empty 30000 to 30010): no magnet was sensed."),
])
def test_readings_that_cannot_be_told_apart_are_refused_with_one_line(change, message):
    with pytest.raises(CalibrationError) as error:
        propose({"b2": {**ONE_HOLE["b2"], **change}}, 4, PIECES)
    assert message in str(error.value) and "\n" not in str(error.value)


def test_a_margin_within_the_readings_own_noise_is_said():
    noisy = {"b2": {**ONE_HOLE["b2"], "empty": [30000, 26000, 34000]}}
    thresholds, lines = propose(noisy, 1, PIECES)
    assert "varied by up to 8000" in lines[2] and "expect misreads" in lines[3]


# --- the copy of the profile ----------------------------------------------------------------

CALIBRATED = HallThresholds(23560, 37500, "low", HallReadings(30000, 18000, 45000, 29500,
                                                             30400))


def test_the_copy_is_the_profile_with_its_thresholds_and_loads_back(tmp_path):
    text = BLOKUS.path.read_text(encoding="utf-8")
    copy = with_thresholds(text, BLOKUS.sensors, CALIBRATED, "calibrated on b2")
    assert copy.startswith(text) and "# calibrated on b2\nlow = 23560\n" in copy
    path = tmp_path / "mine.toml"
    path.write_text(copy, encoding="utf-8")
    mine = load_profile(path)
    assert mine.sensors.thresholds == CALIBRATED
    assert (mine.holes, mine.chain, mine.leds, mine.board) == (BLOKUS.holes, BLOKUS.chain,
                                                               BLOKUS.leds, BLOKUS.board)
    # calibrated again: the table is replaced where it stands, and what follows it stays
    again = with_thresholds(copy + "\n\n# the maker's note on the next table\n[next]\n",
                            BLOKUS.sensors, HallThresholds(20000, 41000, "high"))
    assert again.count("[sensors.thresholds]") == 1 and "low = 23560" not in again
    assert again.endswith('first_reads = "high"    # the first player\'s pieces read above '
                          "high, the second's below low\n\n# the maker's note on the next "
                          "table\n[next]\n")


def test_a_profile_on_a_base_gets_its_own_sensors_table_with_the_thresholds(tmp_path):
    text = 'base = "blokus-duo"\n[board]\npitch_mm = 20\nhole_mm = 18\nedge_mm = 15\n'
    path = tmp_path / "mine.toml"
    path.write_text(with_thresholds(text, BLOKUS.sensors, CALIBRATED), encoding="utf-8")
    mine = load_profile(path)
    assert mine.sensors == dataclasses.replace(BLOKUS.sensors, thresholds=CALIBRATED)
    assert mine.board.pitch_mm == 20


def test_the_copy_goes_beside_its_profile_or_here_and_never_over_a_shipped_one(
        tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert calibrated_path(BLOKUS, None) == tmp_path / "blokus-duo-calibrated.toml"
    (tmp_path / "boards").mkdir()
    mine = tmp_path / "boards" / "mine.toml"
    mine.write_text(BLOKUS.path.read_text(encoding="utf-8"), encoding="utf-8")
    assert calibrated_path(load_profile(mine), None) == \
        tmp_path / "boards" / "mine-calibrated.toml"


def test_a_copy_that_cannot_be_written_or_would_not_load_is_one_line(tmp_path,
                                                                      monkeypatch):
    from app.cli.sensors import write_calibrated
    inline = tmp_path / "inline.toml"
    inline.write_text(BLOKUS.path.read_text(encoding="utf-8").replace(
        "colour = true", "colour = true\nthresholds = {low = 2000, high = 3000, "
                         'first_reads = "low"}'), encoding="utf-8")
    with pytest.raises(CalibrationError, match=r"out.toml: the copy of inline would not "
                                               r"load: .*not valid TOML"):
        write_calibrated(load_profile(inline), tmp_path / "out.toml", CALIBRATED, "")
    with pytest.raises(CalibrationError, match="gone/out.toml: cannot write: No such file"):
        write_calibrated(BLOKUS, tmp_path / "gone" / "out.toml", CALIBRATED, "")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["inline.toml"]
    monkeypatch.setattr("os.access", lambda path, mode: False)
    with pytest.raises(CalibrationError, match="out.toml: cannot write: permission denied"):
        calibrated_path(BLOKUS, str(tmp_path / "out.toml"))


# --- bad input: one line, exit status 2, before the board is asked for anything ---------------

def serial_file(tmp_path, colour):
    path = tmp_path / "blind.toml"
    path.write_text(f'base = "blokus-duo"\n[sensors]\ndriver = "serial"\nport = "auto"\n'
                    f"colour = {colour}\n", encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("args, message", [
    (["nowhere"], "no profile named 'nowhere'"),
    (["kulami"], "profile kulami: not a board of hall sensors: calibrate needs a sensor "
                 "board (sensors.driver = \"serial\") that senses colour (colour = true); "
                 "this one's sensors are matrix, colour-blind"),
    (["kulami-sim"], "this one's sensors are simulated"),
    ([lambda tmp: serial_file(tmp, "false")], "this one's sensors are serial, colour-blind"),
    (["blokus-duo", "z99"], "profile blokus-duo has no hole 'z99'"),
    (["blokus-duo", "a1:q1"], "profile blokus-duo has no hole 'q1'"),
    (["blokus-duo", "a1:a1"], "a1:a1: a hole's neighbour is another hole"),
    (["blokus-duo", "b2", "b2:c2"], "b2 is named twice"),
    (["blokus-duo", "--out", lambda tmp: str(tmp / "no" / "x.toml")], "cannot write: no "
                                                                       "folder"),
    (["blokus-duo", "--out", lambda tmp: str(tmp)], "a profile is a .toml file"),
    (["blokus-duo", "--out", lambda tmp: str(tmp / "folder.toml")], "cannot write: a folder"),
    (["blokus-duo", "--out", str(PROFILE_DIR / "mine.toml")], "the shipped profiles stay"),
    (["blokus-duo", "--out", str(PROFILE_DIR / "blokus-duo.toml")], "that is the profile "
                                                                     "being calibrated"),
])
def test_bad_input_is_one_line_and_exit_status_2(tmp_path, capsys, args, message):
    (tmp_path / "folder.toml").mkdir()
    argv = [arg(tmp_path) if callable(arg) else arg for arg in args]
    assert main(["sensors", "calibrate", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tabletop sensors: ") and message in err and err.count("\n") == 1, err


def test_a_board_for_a_game_not_yet_known_names_its_pieces_by_player(tmp_path, capsys):
    from app.cli.sensors import player_pieces
    path = tmp_path / "planned.toml"
    path.write_text('game = "planned"\n[holes]\nnames = ["x", "y"]\n[chain]\n'
                    'order = ["x", "y"]\n[sensors]\ndriver = "serial"\nport = "auto"\n'
                    'colour = true\n[leds]\ndriver = "simulated"\nbrightness = 1.0\n'
                    "max_ma = 100\n", encoding="utf-8")
    assert player_pieces(load_profile(path)) == (
        ("a first player's piece", "a first player's piece (magnet north pole down)"),
        ("a second player's piece", "a second player's piece (magnet south pole down)"))
    assert player_pieces(BLOKUS)[1] == (
        "an orange piece", "an orange piece (the second player's, magnet south pole down)")
    # its holes are no places on a grid: which is beside which, the maker says
    assert main(["sensors", "calibrate", str(path)]) == 2
    assert "x has no neighbour on a grid: name the hole beside it, as x:HOLE" in \
        capsys.readouterr().err


def test_a_count_of_readings_outside_1_to_1000_is_refused(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["sensors", "calibrate", "blokus-duo", "--readings", "0"])
    assert stopped.value.code == 2
    assert "argument --readings: must be 1 to 1000, not 0" in capsys.readouterr().err


# --- the virtual board of hall sensors ----------------------------------------------------------

def test_a_virtual_hall_sensor_reads_what_lies_on_it_and_around_it():
    hall = VirtualHall(2, 3, REVERSED, neighbours={1: [0, 2], 4: [1]})
    hall.set_offset(4, -300)
    hall.set(0, wire.OCCUPIED)
    hall.set(2, wire.SOUTH)
    hall.set(3, wire.FAULT)
    assert [hall.read(c) for c in range(6)] == [
        41500, 29000 + 500 - 700, 16000, 0, 29000 - 300, 29000]
    hall.set(1, wire.OCCUPIED)  # a piece beside 4 moves it too; 1 feels both its neighbours
    assert hall.read(4) == 29000 - 300 + 500 and hall.read(1) == 41500 + 500 - 700
    out = bytearray(6)
    hall.scan(out)  # the firmware's own thresholds: the reversed magnets read wrong
    assert list(out) == [wire.SOUTH, wire.SOUTH, wire.OCCUPIED, wire.FAULT, 0, 0]
    assert hall.set_thresholds(23000, 35000, wire.SOUTH) == ""
    hall.scan(out)
    assert list(out) == [wire.OCCUPIED, wire.OCCUPIED, wire.SOUTH, wire.FAULT, 0, 0]
    hall.set(0, wire.EMPTY)  # a change shows at the next scan
    hall.scan(out)
    assert out[0] == 0
    hall.jitter = 200
    readings = {hall.read(5) for _ in range(200)}
    assert min(readings) >= 28800 and max(readings) <= 29200 and len(readings) > 50
    with pytest.raises(ValueError):
        VirtualDevice(3, 3, hall=hall)


def test_a_virtual_board_reads_as_its_profile_was_calibrated(tmp_path):
    device = device_for(BLOKUS)
    assert isinstance(device.scanner, VirtualHall) and device.scanner.levels == DEFAULT_LEVELS
    assert device.scanner.neighbours[0] == (1, 14) and len(device.scanner.neighbours[15]) == 4
    assert isinstance(device_for(load_profile("kulami-sim-blind")).scanner, VirtualScanner)
    calibrated = dataclasses.replace(BLOKUS, sensors=dataclasses.replace(
        BLOKUS.sensors, thresholds=CALIBRATED))
    assert device_for(calibrated).scanner.levels == CALIBRATED.measured
    for first_reads in ("low", "high"):  # written by hand: levels the thresholds read right
        thresholds = HallThresholds(20000, 41000, first_reads)
        levels = hall_levels(thresholds)
        assert classify(thresholds, levels.empty) == classify(
            thresholds, levels.first_beside) == 0
        assert classify(thresholds, levels.first_piece) == wire.OCCUPIED
        assert classify(thresholds, levels.second_piece) == wire.SOUTH
    assert hall_levels(HallThresholds(1501, 64034, "low")) == HallReadings(
        32767, 1500, 64035, 32767, 32767)


# --- the whole walk, on the virtual board --------------------------------------------------------

class Maker:
    """Standard input as a maker at the board: each Enter comes after doing what the step
    asked (the steps' order: empty, first player's piece on the hole, second's, first
    player's on the neighbour, second's), the pieces set on the virtual board. Before a
    hole's first step the last one's piece is off, as the command said."""

    def __init__(self, device, pairs):
        self.actions = []
        for hole, near in pairs:
            hole, near = CHANNEL[hole], CHANNEL[near]
            self.actions += [
                lambda: [device.set(channel, 0) for channel in range(196)],
                lambda h=hole: device.set(h, wire.OCCUPIED),
                lambda h=hole: device.set(h, wire.SOUTH),
                lambda h=hole, n=near: (device.set(h, 0), device.set(n, wire.OCCUPIED)),
                lambda n=near: device.set(n, wire.SOUTH)]
        self.enters = 0

    def readline(self):
        if self.enters == len(self.actions):
            return ""
        self.actions[self.enters]()
        self.enters += 1
        return "\n"


def read_until(source, expected, timeout=5.0):
    """The scan's colours once they are ``expected`` (or the last, after ``timeout``)."""
    end = time.monotonic() + timeout
    while True:
        colours = dict(source.read().colours)
        if colours == expected or time.monotonic() > end:
            return colours
        time.sleep(0.01)


def on_port(profile, port):
    return dataclasses.replace(profile, sensors=dataclasses.replace(profile.sensors,
                                                                    port=port))


#: A crowd: d4 empty amid four of the first player's pieces, f4 the second player's amid
#: three of the first's, and a lone piece of each.
CROWD = {"d3": "b", "c4": "b", "e4": "b", "d5": "b", "f4": "w", "g4": "b", "f5": "b",
         "f3": "b", "k10": "w", "a14": "b"}


def test_a_maker_calibrates_a_misread_board_and_it_reads_right(tmp_path, monkeypatch, capsys):
    device = device_for(BLOKUS, folder=tmp_path)
    device.scanner.set_levels(REVERSED)
    device.scanner.jitter = 120
    rng = random.Random(5)
    for channel in range(196):  # no two sensors quite alike
        device.scanner.set_offset(channel, rng.randint(-300, 300))
    with device:
        hand = DeviceSensors(device, BLOKUS)
        for hole, colour in CROWD.items():
            hand.place(hole, colour)
        shipped = open_source(on_port(BLOKUS, device.path))
        swapped = {hole: "w" if colour == "b" else "b" for hole, colour in CROWD.items()}
        assert read_until(shipped, swapped) == swapped, \
            "the board file's thresholds take each player's pieces for the other's"
        shipped.close()
        for hole in CROWD:
            hand.lift(hole)

        pairs = [("b2", "b1"), ("h7", "h8")]
        monkeypatch.setattr("sys.stdin", Maker(device, pairs))
        out = tmp_path / "board.toml"
        assert main(["sensors", "calibrate", "blokus-duo", "b2", "h7:h8", "--readings", "5",
                     "--port", device.path, "--out", str(out)]) == 0
        said = capsys.readouterr().out
        assert "1/10: take every piece off b2 and b1, then press Enter." in said
        assert ("2/10: put a purple piece (the first player's, magnet north pole down) on "
                "b2, then press Enter.") in said
        assert "9/10: take it off h7 and put a purple piece" in said
        assert "    h7 beside an orange piece: median " in said
        assert "Take the piece off b1.\n6/10: take every piece off h7 and h8" in said
        assert said.count("Take the piece off h8.") == 1
        hand.lift("h8")
        assert f"Wrote {out}. Play with it: tabletop run --profile {out}" in said
        calibrated = load_profile(out)
        thresholds = calibrated.sensors.thresholds
        assert thresholds.first_reads == "high"
        assert abs(thresholds.measured.first_piece - REVERSED.first_piece) < 800
        assert "# Written by tabletop sensors calibrate from 5 readings each of b2 (beside " \
               "b1), h7 (beside h8):" in out.read_text(encoding="utf-8")
        assert calibrated.holes == BLOKUS.holes and calibrated.sensors.port == "auto"

        for hole, colour in CROWD.items():
            hand.place(hole, colour)
        source = open_source(on_port(calibrated, device.path))
        assert read_until(source, CROWD) == CROWD
        source.close()


def test_a_game_is_played_with_the_calibrated_copy_on_its_virtual_board(tmp_path):
    """What ``tabletop device COPY`` and ``tabletop run --profile COPY`` do together: the
    virtual board reads as the calibration measured (the magnets the other way round),
    the serial driver sends it the copy's thresholds, and the moves are played."""
    path = tmp_path / "board.toml"
    path.write_text(with_thresholds(
        BLOKUS.path.read_text(encoding="utf-8"), BLOKUS.sensors,
        HallThresholds(22500, 35500, "high", REVERSED)), encoding="utf-8")
    with device_for(load_profile(path), folder=tmp_path) as device:
        profile = on_port(load_profile(path), device.path)
        hand = DeviceSensors(device, profile)
        source = open_source(profile)
        session = Session(new_game(profile.game), seats={"b": "person", "w": "person"},
                          debounce=0.02, settle=0.06, colour_sensing=True)
        table = Table(session, profile, SimulatedStrip(profile.led_count), source)
        board = session.board
        for count in range(1, 5):
            move = sorted(board.legal_moves, key=board.move_text)[0]
            probe = board.copy()
            probe.push(move)
            for hole, colour in probe.sensor_view().items():
                if board.sensor_view().get(hole) != colour:
                    hand.place(hole, colour)
            end = time.monotonic() + 5
            while len(board.move_stack) < count and time.monotonic() < end:
                table.turn(time.monotonic())
                time.sleep(0.005)
            assert len(board.move_stack) == count, session.status().message
        assert {wire.OCCUPIED, wire.SOUTH} <= set(device.scanner.states)
        source.close()


def test_a_calibration_cut_short_or_refused_writes_nothing(tmp_path, monkeypatch, capsys):
    out = tmp_path / "board.toml"
    argv = ["sensors", "calibrate", "blokus-duo", "--readings", "2", "--out", str(out)]
    device = device_for(BLOKUS, folder=tmp_path)
    with device:
        maker = Maker(device, [("b2", "b1")])
        del maker.actions[2:]
        monkeypatch.setattr("sys.stdin", maker)
        assert main([*argv, "--port", device.path]) == 2
        err = capsys.readouterr().err
        assert "standard input ended at step 3 of 5: nothing written" in err
        # pieces whose magnets barely reach the sensor: nothing tells them from an empty hole
        device.scanner.set_levels(dataclasses.replace(DEFAULT_LEVELS, first_piece=32000,
                                                      second_piece=33500))
        monkeypatch.setattr("sys.stdin", Maker(device, [("b2", "b1")]))
        assert main([*argv, "--port", device.path]) == 2
        assert "a purple piece and an empty hole read alike" in capsys.readouterr().err
    assert not out.exists() and list(tmp_path.glob(".calibrating-*")) == []
    with VirtualDevice(14, 14, folder=tmp_path) as switches:  # no analog readings
        monkeypatch.setattr("sys.stdin", Maker(switches, [("b2", "b1")]))
        assert main([*argv, "--port", switches.path]) == 1
        assert "this board's sensors give no analog readings" in capsys.readouterr().err
    with VirtualDevice(14, 14, polarity=False, folder=tmp_path) as blind:
        assert main([*argv, "--port", blind.path]) == 2
        assert "does not sense polarity: it is no board of hall sensors" in \
            capsys.readouterr().err
    assert not out.exists()
    assert tomllib.loads(BLOKUS.path.read_text(encoding="utf-8"))["sensors"].get(
        "thresholds") is None
