"""Sensor logs: recorded through the sensor interface, read back strictly, and replayed
through the real pipeline, a whole noisy Kulami game at a time."""

import io
import json
import random

import pytest

from app.cli import main
from app.games import new_game
from app.hardware.profile import load_profile
from app.hardware.sensors import SimulatedSensors
from app.sensing.events import OutOfSync
from app.table.sensorlog import Header, LogWriter, Reading, SensorLogError, read_log
from app.sensing.pipeline import DEBOUNCE_S, SETTLE_S
from app.table.replay import replay
from app.table.roles import by_role, hole_roles
from engines.players import choose_move

OPTIONS = {"layout": "square-1"}


def random_game_moves(seed):
    board, rng, moves = new_game("kulami", **OPTIONS), random.Random(seed), []
    while not board.is_game_over():
        moves.append(choose_move(board, 1, rng))
        board.push(moves[-1])
    return [str(m) for m in moves]


@pytest.fixture(scope="module")
def full_game_seed():
    """The first seed whose random game places all 56 marbles."""
    return next(seed for seed in range(100) if len(random_game_moves(seed)) == 56)


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_noisy_56_move_game_replays_to_exactly_its_moves_with_the_right_lights(
        tmp_path, capsys, full_game_seed):
    log = tmp_path / "kulami.log"
    # The colour-blind board, as built: a noisy game is hardest to read without colour.
    code, _, _ = run_cli(capsys, "sensors", "record", "kulami-sim-blind", "layout=square-1",
                         "--play", str(full_game_seed), "--out", str(log))
    assert code == 0
    played = random_game_moves(full_game_seed)

    header, readings = read_log(log.read_text().splitlines())
    assert header == Header("kulami", OPTIONS, "kulami-sim-blind", False)
    for move in played:  # every placement bounced: the hole went on more than once
        assert sum(1 for r in readings if r.hole == move and r.on) >= 2
    assert len({r.hole for r in readings}) > 56  # noise on holes nobody played

    code, out, _ = run_cli(capsys, "sensors", "replay", str(log))
    assert code == 0
    records = [json.loads(line) for line in out.splitlines()]
    moved = [r for r in records if r["event"] == "moved"]
    assert [r["move"] for r in moved] == played
    assert {r["event"] for r in records} <= {"moved", "in_sync", "seen"}
    for record, after in zip(records, records[1:]):  # each marble lit before it counts
        if after["event"] == "moved":
            assert record["event"] == "seen" and record["holes"] == [after["move"]]
            assert after["t"] - record["t"] == pytest.approx(SETTLE_S - DEBOUNCE_S, abs=0.25)
    assert sum(r["event"] == "in_sync" for r in records) <= 1  # the empty board, at most

    board = new_game("kulami", **OPTIONS)
    for record in moved:
        assert record["player"] == board.turn
        board.push_text(record["move"])
        lights = record["lights"]
        assert lights == by_role(hole_roles(board))
        assert lights["last"] == [record["move"]]
        assert lights.get("legal", []) == sorted(str(m) for m in board.legal_moves)
    assert board.is_game_over() and len(board.move_stack) == 56


def test_roles_light_the_leds_the_profile_names():
    profile = load_profile("kulami-sim")
    board = new_game("kulami", **OPTIONS)
    board.push_text("d4")
    roles = hole_roles(board)
    leds = {profile.holes[hole].leds[0] for hole, role in roles.items() if role == "last"}
    assert leds == {3 * 10 + (9 - 3)}  # row 4 runs right to left in the serpentine


def test_roles_put_fixing_the_board_first():
    board = new_game("kulami", **OPTIONS)
    board.push_text("d4")
    roles = hole_roles(board, OutOfSync(frozenset({"d4"}), frozenset({"d1"})))
    assert roles["d4"] == "fill" and roles["d1"] == "empty"
    assert roles["a4"] == "legal" and roles["e4"] == "off_limits"


def replay_lines(lines):
    """Replay records, without the early lights of new pieces."""
    header, readings = read_log(lines)
    return [r for r in replay(header, readings) if r["event"] != "seen"]


HEADER = json.dumps({"log": "tabletop-sensors", "version": 1, "game": "kulami",
                     "options": OPTIONS, "profile": "kulami-sim", "colour": False})


def line(t, hole, on):
    return json.dumps({"t": t, "hole": hole, "on": on})


def test_replay_reports_takebacks_and_what_to_fix():
    records = replay_lines([HEADER, line(1, "d4", True), line(3, "d4", False),
                            line(5, "d4", True), line(7, "e4", True), line(9, "e4", False)])
    assert [r["event"] for r in records] == ["moved", "takeback", "moved", "not_legal",
                                             "in_sync"]
    assert records[1]["move"] == "d4" and "last" not in records[1]["lights"]
    assert records[3]["hole"] == "e4" and records[3]["lights"]["error"] == ["e4"]
    assert records[3]["reason"].startswith("e4 is on an off-limits panel")
    assert records[3]["t"] == pytest.approx(7 + SETTLE_S)  # the settle time after e4 came on
    assert records[4]["lights"]["last"] == ["d4"]


def test_the_writer_records_changes_only_with_channel_and_colour():
    profile = load_profile("blokus-duo-sim")
    stream = io.StringIO()
    writer = LogWriter(stream, Header("blokus-duo", {}, "blokus-duo-sim", True), profile)
    sensors = SimulatedSensors(profile.holes, colour_sensing=True)
    writer.scan(0.0, sensors.read())
    sensors.place("e10", "b")
    writer.scan(0.5, sensors.read())
    writer.scan(0.6, sensors.read())
    sensors.lift("e10")
    writer.scan(1.0, sensors.read())
    header, readings = read_log(stream.getvalue().splitlines())
    assert header.colour and header.game == "blokus-duo"
    channel = profile.holes["e10"].channel
    assert readings == [Reading(0.5, "e10", True, channel, "b"),
                        Reading(1.0, "e10", False, channel, None)]


@pytest.mark.parametrize("lines, message", [
    ([], "the log is empty"),
    (["{"], "line 1: not JSON"),
    (["[1]"], "line 1: expected a JSON object"),
    (['{"game": "kulami"}'], "line 1: not a tabletop-sensors log of version 1"),
    ([HEADER.replace('"kulami"', "3")], "line 1: the header needs a game name"),
    ([HEADER, '{"t": "x", "hole": "d4", "on": true}'], "line 2: t must be a number"),
    ([HEADER, '{"t": 1, "hole": "d4", "on": 1}'], "line 2: needs a hole name and on"),
    ([HEADER, line(2, "d4", True), line(1, "d4", False)], "line 3: t 1 goes back in time"),
    ([HEADER, '{"t": 1, "hole": "d4", "on": true, "colour": "red"}'],
     "line 2: colour must be b or w"),
    # Wrong types, as a hand-edited or truncated log has them.
    ([HEADER, '{"t": 1, "hole": "d4", "on": "yes"}'], "line 2: needs a hole name and on"),
    ([HEADER, '{"t": "1", "hole": "d4", "on": true}'], "line 2: t must be a number"),
    ([HEADER, '{"t": true, "hole": "d4", "on": true}'], "line 2: t must be a number"),
    ([HEADER, '{"t": 1, "hole": 33, "on": true}'], "line 2: needs a hole name and on"),
    ([HEADER, '{"t": 1, "hole": "d4", "on": true, "colour": ""}'], "line 2: colour must be"),
    ([HEADER, '{"t": 1, "hole": "d4", "on": true, "colour": ["b"]}'],
     "line 2: colour must be b or w"),
    ([HEADER, '{"t": 1, "hole": "d4", "on": true, "channel": "33"}'],
     "line 2: channel must be a sensor number, not '33'"),
    ([HEADER, '{"t": 1, "hole": "d4", "on": true, "channel": -1}'], "line 2: channel must"),
    ([HEADER.replace('"colour": false', '"colour": "no"')], "line 1: the header's profile"),
    # Times that are not times: JSON has NaN and Infinity, and integers beyond a float.
    ([HEADER, '{"t": NaN, "hole": "d4", "on": true}'], "line 2: t must be a number"),
    ([HEADER, line(1, "d4", True), '{"t": Infinity, "hole": "d4", "on": false}'],
     "line 3: t must be a number of seconds, not inf"),
    ([HEADER, '{"t": 1e999, "hole": "d4", "on": true}'], "line 2: t must be a number"),
    ([HEADER, '{"t": 1%s, "hole": "d4", "on": true}' % ("0" * 400)], "line 2: t must be"),
    ([HEADER, '{"t": 1%s, "hole": "d4", "on": true}' % ("0" * 5000)],
     "line 2: not JSON .a number too long"),
    ([HEADER, "[" * 100_000], "line 2: not JSON .nested too deeply"),
    ([HEADER, line(2.5, "d4", True), line(2.25, "d4", False)], "line 3: t 2.25 goes back"),
    # A time a float holds but no log reaches: at 1e20 s readings seconds apart are equal.
    ([HEADER, '{"t": 99999999999999999999, "hole": "d4", "on": true}'],
     "line 2: t 99999999999999999999 is out of range"),
    ([HEADER, '{"t": -2e9, "hole": "d4", "on": true}'], "line 2: t -2000000000.0 is out of range"),
    # A key given as null is not a key left out: it is refused, with its line.
    ([HEADER, line(1, "d4", True), '{"t": 2, "hole": "d4", "on": false, "channel": null}'],
     "line 3: channel is null"),
    ([HEADER, '{"t": 1, "hole": "d4", "on": true, "colour": null}'], "line 2: colour is null"),
    # Holes that are not on the board: the pipeline would ignore them without a word.
    ([HEADER, line(1, "d4", True), line(2, "z99", True)],
     "line 3: 'z99' is not a hole of profile kulami-sim"),
    ([HEADER, line(1, "D4", True)], "line 2: 'D4' is not a hole of profile kulami-sim"),
    ([HEADER.replace('"kulami-sim"', '""'), line(1, "j10", True)],
     "line 2: 'j10' is not a hole of this kulami board"),
    ([HEADER.replace('"kulami-sim"', '"conhex-sim"'), line(1, "j10", True)],
     "line 2: 'j10' is not a hole of this kulami board"),
    ([HEADER.replace('"kulami-sim"', '""').replace('"kulami"', '"chess"')],
     "line 1: unknown game 'chess'"),
])
def test_a_broken_log_names_its_line(lines, message):
    with pytest.raises(SensorLogError, match=message) as error:
        read_log(lines)
    assert "\n" not in str(error.value)


def test_a_log_names_the_holes_of_the_board_it_was_recorded_on():
    """kulami-sim is 10x10: a square layout leaves its outer holes empty, but a hand
    hovering over them is still a reading of the board, as `sensors record` writes it."""
    header, readings = read_log([HEADER, line(1, "j10", True), line(1.5, "j10", False)])
    assert [r.hole for r in readings] == ["j10", "j10"]
    no_profile = HEADER.replace('"kulami-sim"', '"my-own"')
    with pytest.raises(SensorLogError, match="'j10' is not a hole of this kulami board"):
        read_log([no_profile, line(1, "j10", True)])
    header, readings = read_log([no_profile, line(1, "j10", True)], load_profile("kulami"))
    assert readings[0].hole == "j10"


@pytest.fixture(scope="module")
def recorded_log(tmp_path_factory):
    path = tmp_path_factory.mktemp("log") / "game.jsonl"
    assert main(["sensors", "record", "kulami-sim", "--play", "5", "--out", str(path)]) == 0
    return path


def with_bad_byte(log, tmp_path):
    """The log with one byte of a reading's hole name turned into 0xff, its line and its
    offset in the file: a log cut or corrupted on the SD card."""
    data = bytearray(log.read_bytes())
    offset = data.index(b'"hole": "', len(data) // 2) + len('"hole": "')
    data[offset] = 0xFF
    path = tmp_path / "bad.jsonl"
    path.write_bytes(bytes(data))
    return path, data[:offset].count(b"\n") + 1, offset


def test_a_byte_that_is_not_utf8_is_one_line_naming_the_file_line_and_offset(
        tmp_path, capsys, recorded_log):
    path, number, offset = with_bad_byte(recorded_log, tmp_path)
    where = f"{path}: line {number}: not UTF-8 text: byte 0xff at offset {offset}"
    assert run_cli(capsys, "sensors", "replay", str(path)) == (
        2, "", f"tabletop sensors: {where}\n")
    config = tmp_path / "tabletop.toml"
    config.write_text(f'data_dir = "{tmp_path / "data"}"\n', encoding="utf-8")
    assert run_cli(capsys, "run", "--profile", "kulami-sim", "--config", str(config),
                   "--log", str(path)) == (2, "", f"tabletop run: {where}\n")
    assert not (tmp_path / "data").exists()


def test_replay_of_a_missing_or_broken_log_is_one_line_on_stderr(tmp_path, capsys):
    code, out, err = run_cli(capsys, "sensors", "replay", str(tmp_path / "none.log"))
    assert code == 2 and out == "" and err.count("\n") == 1
    bad = tmp_path / "bad.log"
    bad.write_text(HEADER.replace("square-1", "nonsense") + "\n")
    code, _, err = run_cli(capsys, "sensors", "replay", str(bad))
    assert code == 2 and "unknown layout 'nonsense'" in err and err.count("\n") == 1


def test_replay_of_a_reading_stamped_beyond_any_log_is_one_line(tmp_path, capsys):
    """The fuzzer's find: 20 digits of seconds ended the replay in an IndexError."""
    log = tmp_path / "far.log"
    log.write_text("\n".join([HEADER, line(1, "d4", True),
                              '{"t": 99999999999999999999, "hole": "d4", "on": false}']))
    assert run_cli(capsys, "sensors", "replay", str(log)) == (
        2, "", f"tabletop sensors: {log}: line 3: t 99999999999999999999 is out of range "
               f"(a log's times are seconds from its start, at most 1000000000)\n")


def test_record_refuses_to_script_a_real_board_and_bad_options(capsys):
    code, _, err = run_cli(capsys, "sensors", "record", "kulami", "--play", "1")
    assert code == 2 and "--play needs a simulated profile" in err
    code, _, err = run_cli(capsys, "sensors", "record", "kulami-sim", "colour=red")
    assert code == 2 and "kulami has no option 'colour'" in err
    code, _, err = run_cli(capsys, "sensors", "record", "chess")
    assert code == 2 and "no profile named 'chess'" in err


def test_record_scans_a_source_for_the_given_time(tmp_path, capsys):
    log = tmp_path / "idle.log"
    code, _, _ = run_cli(capsys, "sensors", "record", "kulami-sim", "--seconds", "0.05",
                         "--out", str(log))
    header, readings = read_log(log.read_text().splitlines())
    assert code == 0 and header.profile == "kulami-sim" and readings == []


def test_replay_checks_holes_against_a_makers_own_profile_when_given(tmp_path, capsys):
    """A maker's board (its own profile, not shipped) has sensors on j10, outside the
    8x8 of a Kulami layout; the log names that profile, which replay cannot find."""
    from app.hardware.profile import PROFILE_DIR
    own = tmp_path / "myboard.toml"
    own.write_text((PROFILE_DIR / "kulami-sim.toml").read_text(encoding="utf-8"),
                   encoding="utf-8")
    log = tmp_path / "game.log"
    log.write_text("\n".join([Header("kulami", OPTIONS, "myboard", False).to_json(),
                              Reading(1.0, "j10", True).to_json(),
                              Reading(2.0, "d4", True).to_json()]) + "\n")
    code, _, err = run_cli(capsys, "sensors", "replay", str(log))
    assert code == 2 and "'j10' is not a hole" in err and err.count("\n") == 1
    code, out, _ = run_cli(capsys, "sensors", "replay", str(log), "--profile", str(own))
    assert code == 0
    assert [json.loads(line)["move"] for line in out.splitlines()
            if json.loads(line)["event"] == "moved"] == ["d4"]


# --- recording a sensor board over its port (the virtual device) ------------------------

@pytest.fixture
def serial_links():
    from app.hardware import serial_board
    yield
    for link in list(serial_board._LINKS.values()):
        link.close()
    serial_board._LINKS.clear()


def test_record_port_logs_what_a_sensor_board_reports_by_hole_and_channel(
        tmp_path, capsys, serial_links):
    """A board of 11 x 10 channels: the profile (kulami-sim, colour) maps 100 of them to
    holes; the log has those as readings with their channel and colour, at the times the
    device saw them, and the one it does not map is said on stderr."""
    import threading
    import time
    from app.hardware.virtual_device import VirtualDevice
    from test_serial_virtual import reported
    profile = load_profile("kulami-sim")
    hole = profile.channels()[33]
    log = tmp_path / "board.log"
    seen = []  # when the device saw the piece go down and come up, by its own clock

    with VirtualDevice(11, 10, folder=tmp_path) as device:
        def hand():
            time.sleep(0.4)
            device.set(33, 2)   # a white piece
            device.set(105, 1)  # a channel no hole is wired to
            if reported(device, 33, 2):
                seen.append(device.device.since[33])
            time.sleep(0.3)
            device.set(33, 0)
            if reported(device, 33, 0):
                seen.append(device.device.since[33])
        player = threading.Thread(target=hand)
        player.start()
        start = time.monotonic()
        code, out, err = run_cli(capsys, "sensors", "record", "kulami-sim", "--port",
                                 device.path, "--out", str(log), "--seconds", "1.2")
        player.join()
    assert code == 0 and out == ""
    assert 1.0 < time.monotonic() - start < 6
    header, readings = read_log(log.read_bytes().splitlines(), profile)
    assert header.profile == "kulami-sim" and header.colour
    assert [(r.hole, r.on, r.channel, r.colour) for r in readings] == \
        [(hole, True, 33, "w"), (hole, False, 33, None)]
    # The times are the device's: on a busy machine its thread may scan late, and the
    # readings are still as far apart as the moments it saw the changes.
    assert len(seen) == 2 and (seen[1] - seen[0]) / 1000 > 0.25
    assert 0 < readings[0].t < 1.2  # within the recording (it opened while the hand waited)
    # (Within 20 ms: the host learns the device's clock from its quickest frame so far,
    # and a busy machine may have delivered the first change's frame some ms late.)
    assert abs((readings[1].t - readings[0].t) - (seen[1] - seen[0]) / 1000) < 0.02
    assert "channel 105 (no hole of kulami-sim) went on" in err


def test_record_port_refusals_are_one_line(tmp_path, capsys, serial_links):
    def one_line(err):
        """The error's line (earlier tests may leave logging handlers writing here)."""
        lines = [line for line in err.splitlines() if line.startswith("tabletop sensors:")]
        assert len(lines) == 1, err
        return lines[0]

    from app.hardware.virtual_device import VirtualDevice
    code, _, err = run_cli(capsys, "sensors", "record", "kulami-sim", "--port", "x",
                           "--play", "1")
    assert code == 2 and "--play and --port" in one_line(err)
    missing = tmp_path / "nothing-here"
    code, _, err = run_cli(capsys, "sensors", "record", "kulami-sim", "--port", str(missing))
    assert code == 1 and "no such device" in one_line(err)
    log = tmp_path / "kept.log"
    log.write_text("kept")
    with VirtualDevice(10, 10, polarity=False, folder=tmp_path) as device:
        code, _, err = run_cli(capsys, "sensors", "record", "kulami-sim", "--port",
                               device.path, "--out", str(log))
    assert code == 1 and "does not sense polarity" in one_line(err)
    assert log.read_text() == "kept"  # the board refused before the file was opened
    with VirtualDevice(5, 5, folder=tmp_path) as device:
        code, _, err = run_cli(capsys, "sensors", "record", "kulami-sim", "--port",
                               device.path, "--seconds", "0.1")
    assert code == 1 and "5 x 5 = 25 channels" in one_line(err)


def test_a_scripted_akron_game_is_of_moves_the_sensors_read_alone_and_replays_to_its_end(
        tmp_path, capsys):
    log = tmp_path / "akron.log"
    assert main(["sensors", "record", "akron-sim", "--play", "7", "--out", str(log)]) == 0
    code, out, _ = run_cli(capsys, "sensors", "replay", str(log))
    assert code == 0
    records = [json.loads(line) for line in out.splitlines()]
    board = new_game("akron")
    for record in records:
        if record["event"] == "moved":
            board.push_text(record["move"])
    # Nobody confirms anything in a replay: the game still reaches its end, as every
    # move made was one the holes' sensors read by themselves.
    assert board.is_game_over() and len(board.move_stack) > 40
    assert not [r for r in records if r["event"] in ("out_of_sync", "not_legal")]


COLOUR_HEADER = HEADER.replace('"colour": false', '"colour": true')


@pytest.mark.parametrize("lines, message", [
    ([COLOUR_HEADER, '{"t": 1, "hole": "d4", "on": true, "cOlour": "b"}'],
     "line 2: 'cOlour' is not a key of a reading (keys: t, hole, on, channel, colour)"),
    ([COLOUR_HEADER, line(1, "d4", True), '{"t": 2, "hole": "e4", "on": true, "coour": "w"}'],
     "line 3: 'coour' is not a key of a reading (keys: t, hole, on, channel, colour)"),
    ([COLOUR_HEADER.replace('"colour": true', '"color": true')],
     "line 1: 'color' is not a key of the header (keys: log, version, game, options, "
     "profile, colour)"),
])
def test_a_misspelt_key_is_refused_with_its_line(lines, message):
    """A misspelt ``colour`` on a colour-sensing board left the reading colourless and
    lost its move without a word (3 of 5 moves in the audit's log); it is refused with
    its line, as a hole the board does not have is."""
    with pytest.raises(SensorLogError) as error:
        read_log(lines)
    assert str(error.value) == message


def test_a_scripted_hand_writes_the_records_a_log_reads_back():
    """One record for one raw change: what the scripted hand produces is what a log
    line holds, so its readings go to a log and come back equal, colour and all."""
    from app.sensing.script import Hand
    board = new_game("kulami", **OPTIONS)
    hand = Hand(sorted(load_profile("kulami-sim").holes), random.Random(3), start=1.0)
    hand.play(board, [board.parse_move(text) for text in random_game_moves(3)[:1]])
    header = Header("kulami", OPTIONS)
    lines = [header.to_json()] + [reading.to_json() for reading in hand.readings]
    assert read_log(lines) == (header, hand.readings)
