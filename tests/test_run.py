"""``tabletop run`` on a simulated profile: a whole game from a sensor log, a SIGKILL at a
random move and a resume with nothing lost, systemd's notify path, SIGTERM with LEDs off."""

import os
import random
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import main
from app.games import new_game
from app.hardware.leds import SimulatedStrip
from app.hardware.profile import load_profile
from app.hardware.sensors import SimulatedSensors
from app.table.loop import Table
from app.table.seats import words_of
from app.table.service import Notifier, ServiceStop, stop_on_signals
from app.table.session import Session
from app.table.store import RecordStore

ROOT = Path(__file__).resolve().parents[1]
MOVE = re.compile(r"move (\d+): (\w+) (\S+)")  # the mover by name: "move 1: Red d4"


@pytest.fixture(scope="module")
def game_log(tmp_path_factory):
    """A whole Kulami game acted out with realistic noise by the sensing helper's hand."""
    path = tmp_path_factory.mktemp("log") / "game.jsonl"
    assert main(["sensors", "record", "kulami-sim", "--play", "11", "--out", str(path)]) == 0
    return path


@pytest.fixture
def two_people(tmp_path):
    config = tmp_path / "tabletop.toml"
    config.write_text(f'data_dir = "{tmp_path / "data"}"\n'
                      '[game]\nfirst = "person"\nsecond = "person"\n')
    return config


def expected_moves(log):
    """The moves the scripted hand played, replayed through the same engine."""
    from app.table.sensorlog import read_log
    from app.table.replay import replay
    with open(log) as stream:
        header, readings = read_log(stream)
    return [r["move"] for r in replay(header, readings) if r["event"] == "moved"]


def tabletop(*args, **kwargs):
    env = {**os.environ, "PYTHONUNBUFFERED": "1", **kwargs.pop("env", {})}
    return subprocess.Popen([sys.executable, "-m", "app.cli", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            **kwargs)


def saved_moves(tmp_path):
    board = RecordStore(tmp_path / "data").resume().board
    return [str(m) for m in board.move_stack]


def test_a_whole_game_from_a_sensor_log(tmp_path, game_log, two_people):
    process = tabletop("run", "--profile", "kulami-sim", "--config", str(two_people),
                       "--log", str(game_log))
    output, _ = process.communicate(timeout=120)
    assert process.returncode == 0, output
    played = [m[2] for m in MOVE.findall(output)]
    assert played == expected_moves(game_log) and saved_moves(tmp_path) == played
    board = RecordStore(tmp_path / "data").resume().board
    assert board.is_game_over() and "game over" in output and "LEDs off" in output


#: Options of the games the SIGKILL trials play: none at their defaults.
KILLED_GAMES = {"kulami": ["layout=cross", "scoring=2", "chain_lines=diagonal"],
                "conhex": ["pie=false", "handicap=2"]}
#: Trials per game; TABLETOP_SIGKILL_TRIALS=100 for the figures of a release note.
TRIALS = int(os.environ.get("TABLETOP_SIGKILL_TRIALS", "2"))


@pytest.fixture(scope="module", params=sorted(KILLED_GAMES))
def options_log(request, tmp_path_factory):
    """A whole game of each game with options none of which is its default."""
    game = request.param
    path = tmp_path_factory.mktemp("log") / f"{game}.jsonl"
    assert main(["sensors", "record", f"{game}-sim", *KILLED_GAMES[game], "--play", "5",
                 "--out", str(path)]) == 0
    return game, path


def config(tmp_path, name, second, level, seed):
    path = tmp_path / name
    path.write_text(f'data_dir = "{tmp_path / "data"}"\n[game]\nfirst = "person"\n'
                    f'second = "{second}"\nlevel = {level}\nseed = {seed}\n')
    return path


def words(table):
    """A record's table properties with each seat as its word."""
    return {**table, "seats": words_of(table["seats"])}


@pytest.mark.parametrize("trial", range(TRIALS))
def test_sigkill_at_a_random_move_then_resume_keeps_every_move_option_and_seat(
        tmp_path, options_log, trial):
    game, log = options_log
    expected = expected_moves(log)
    options = dict(new_game(game, **dict(o.split("=") for o in KILLED_GAMES[game])).options)
    table = {"seats": {"b": "person", "w": "person"}, "level": 2, "seed": 3}
    # From move 2 on: a game killed after its first move matches the first piece put
    # back, so only later kills resume out of sync.
    kill_at = random.Random().randrange(2, len(expected) - 1)
    where = f"{game}, killed at move {kill_at}"
    process = tabletop("run", "--profile", f"{game}-sim", "--config",
                       str(config(tmp_path, "first.toml", "person", 2, 3)),
                       "--log", str(log), "--speed", "40")
    reported = []
    for line in process.stdout:
        found = MOVE.search(line)
        if found:
            reported.append(found[3])
            if len(reported) == kill_at:
                process.send_signal(signal.SIGKILL)
                break
    process.wait(timeout=30)
    assert process.returncode == -signal.SIGKILL, f"the game ended before move {kill_at}"
    kept = RecordStore(tmp_path / "data").resume(game, f"{game}-sim")
    moves = [kept.board.move_text(m) for m in kept.board.move_stack]
    assert moves[:kill_at] == reported == expected[:kill_at], where
    assert dict(kept.board.options) == options and words(kept.table) == table, where
    # The board restarts with a configuration that has changed meanwhile: the engine
    # at w, another level and seed. The game under way keeps its own.
    again = tabletop("run", "--profile", f"{game}-sim", "--config",
                     str(config(tmp_path, "changed.toml", "engine", 1, 9)), "--log", str(log))
    output, _ = again.communicate(timeout=120)
    assert again.returncode == 0, output
    assert "resumed" in output and "differ" in output  # the empty board is out of sync
    assert "keeps its own seats and level, not the configuration's" in output
    final = RecordStore(tmp_path / "data").resume(game, f"{game}-sim")
    assert [final.board.move_text(m) for m in final.board.move_stack] == expected, where
    assert dict(final.board.options) == options and words(final.table) == table, where
    assert final.profile == f"{game}-sim"


def test_the_service_notifies_systemd_and_stops_on_sigterm(tmp_path, two_people):
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(tmp_path / "notify"))
    listener.settimeout(60)
    env = {"NOTIFY_SOCKET": str(tmp_path / "notify"), "WATCHDOG_USEC": "200000"}
    process = tabletop("run", "--profile", "kulami-sim", "--config", str(two_people), env=env)
    try:
        messages = [listener.recv(4096).decode()]
        assert messages[0].startswith("READY=1")
        while messages.count("WATCHDOG=1") < 3:
            messages.append(listener.recv(4096).decode())
        process.send_signal(signal.SIGTERM)
        while "STOPPING=1" not in messages:
            messages.append(listener.recv(4096).decode())
        output, _ = process.communicate(timeout=30)
    finally:
        process.kill()
        listener.close()
    assert process.returncode == 0, output
    assert "stopping on SIGTERM" in output and "LEDs off" in output


def test_sigterm_in_the_main_loop_turns_the_leds_off(tmp_path):
    profile = load_profile("kulami-sim")
    board = new_game("kulami")
    board.push_text("d4")
    session = Session(board, seed=1)
    strip = SimulatedStrip(profile.led_count)
    sensors = SimulatedSensors(profile.holes)
    sensors.place("d4")
    table = Table(session, profile, strip, sensors, notifier=Notifier(None))
    turns = []

    def sleep(seconds):
        turns.append(seconds)
        if len(turns) == 3:
            os.kill(os.getpid(), signal.SIGTERM)

    clock = iter(range(1000)).__next__
    with pytest.raises(ServiceStop):
        with stop_on_signals():
            try:
                table.run(0.01, clock=clock, sleep=sleep)
            finally:
                strip.close()
    assert any(any(frame) for frame in strip.frames[:-1])  # the game was lit
    assert strip.lit == [(0, 0, 0)] * profile.led_count


def test_buttons_reach_the_session(tmp_path):
    from gpiozero.pins.mock import MockFactory

    from app.hardware.buttons import Buttons

    factory = MockFactory()
    profile = load_profile("kulami-sim")
    board = new_game("kulami")
    board.push_text("d4")
    session = Session(board, seed=1)
    buttons = Buttons({"hint": 5, "undo": 6}, pin_factory=factory)
    table = Table(session, profile, SimulatedStrip(profile.led_count), buttons=buttons)
    try:
        factory.pin(5).drive_low()
        table.step(1.0)
        assert session.suggestion is not None
        factory.pin(6).drive_low()
        table.step(2.0)
        assert session.board.move_stack == []
    finally:
        buttons.close()


@pytest.mark.parametrize("args, message", [
    (["--profile", "nope"], "no profile named 'nope'"),
    (["--profile", "kulami", "--log", "x.jsonl"], "--log drives simulated sensors"),
    (["--profile", "kulami-sim", "--log", "missing.jsonl"], "No such file"),
    (["--profile", "conhex-sim", "--log", "LOG"], "LOG: the log is a kulami game"),
])
def test_bad_start_up_is_one_line(args, message, game_log, two_people, capsys):
    args = [str(game_log) if a == "LOG" else a for a in args]
    message = message.replace("LOG", str(game_log))
    assert main(["run", *args, "--config", str(two_people)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


@pytest.mark.parametrize("device", ["open_strip", "open_source"])
def test_a_device_that_does_not_open_leaves_no_game_record(tmp_path, two_people, monkeypatch,
                                                           capsys, device):
    from app.errors import DeviceError
    from app.table import assembly

    def broken(profile):
        raise DeviceError(f"profile {profile.name}: {device}: GPIO18 is busy")

    monkeypatch.setattr(assembly, device, broken)
    assert main(["run", "--profile", "kulami-sim", "--config", str(two_people)]) == 1
    err = capsys.readouterr().err
    assert err == f"tabletop run: profile kulami-sim: {device}: GPIO18 is busy\n"
    assert RecordStore(tmp_path / "data").records() == []


def test_a_game_from_the_load_list_continues_in_a_new_session_on_the_same_devices(
        tmp_path, two_people, monkeypatch, capsys):
    """The screen's load list asks during a turn; run continues the record chosen once
    that turn is over, in a new session and loop around the same strip and sensors: the
    turn that asked finishes on the session it began with."""
    from app.cli import run as run_command

    conhex = new_game("conhex", pie=False)
    conhex.push_text("f6")
    RecordStore(tmp_path / "data", profile="conhex").start(conhex)
    sessions, strips = [], []

    class Screen:
        shows_leds, dirty = False, False

        def __init__(self, session, load, board, games):
            assert board is False and games == ("kulami",)  # a simulated profile's game
            self.console = Console(session, load)
            self.turns = 0

        def pump(self):
            self.turns += 1
            sessions.append(self.console.session)
            if self.turns == 2:
                self.console.load(RecordStore(tmp_path / "data").saved()[-1])
                # The turn goes on with the session it began with: nothing replaced it.
                assert self.console.session is sessions[0]
            if self.turns == 5:
                raise ServiceStop(signal.SIGTERM)
            return True

        def redraw(self):
            pass

    class Console:
        def __init__(self, session, load):
            self.session, self.load = session, load

    from app.table import assembly
    real_strip = assembly.open_strip
    monkeypatch.setattr(run_command, "status_screen", Screen)
    monkeypatch.setattr(assembly, "open_strip",
                        lambda profile: strips.append(real_strip(profile)) or strips[-1])
    assert main(["run", "--profile", "kulami-sim", "--config", str(two_people)]) == 0
    output = capsys.readouterr().out
    kulami, continued = sessions[0], sessions[-1]
    assert kulami.board.game == "kulami" and continued.board.game == "conhex"
    assert continued.board.options["pie"] is False
    assert [str(m) for m in continued.board.move_stack] == ["f6"]
    assert "continuing 000001-conhex.sgf from the load list" in output
    assert continued.store.current.name == "000003-conhex.sgf" and len(strips) == 1


def test_a_wrong_option_in_the_configuration_is_one_line_and_starts_nothing(tmp_path, capsys):
    config = tmp_path / "tabletop.toml"
    config.write_text(f'data_dir = "{tmp_path / "data"}"\n[options.conhex]\nhandicap = 2.0\n')
    assert main(["run", "--profile", "conhex-sim", "--config", str(config)]) == 2
    assert capsys.readouterr().err == (f"tabletop run: {config}: options.conhex.handicap: "
                                       f"must be 0, 2 or 3, not 2.0\n")
    assert RecordStore(tmp_path / "data").records() == []


@pytest.mark.parametrize("web, problem", [
    ('host = "no.such.host.invalid"', "'no.such.host.invalid' is neither \"lan\" nor an "
                                      "address or name of this machine"),
    ('host = "999.1.1.1"', "'999.1.1.1' is neither \"lan\" nor an address or name of this "
                           "machine")])
def test_a_web_host_that_is_none_stops_the_board_in_one_line(web, problem, tmp_path, capsys):
    """The resolver's "Unknown error -2" named nothing to fix, and the board warned and
    played on without its page; now the host is refused as any mistake in the file is,
    before a game is started."""
    config = tmp_path / "tabletop.toml"
    config.write_text(f'data_dir = "{tmp_path / "data"}"\n[web]\n{web}\nport = 8080\n')
    assert main(["run", "--profile", "conhex-sim", "--config", str(config)]) == 2
    assert capsys.readouterr().err == f"tabletop run: {config}: web: {problem}\n"
    assert RecordStore(tmp_path / "data").records() == []


def test_a_board_s_touch_screen_offers_its_own_game_as_its_page_does(monkeypatch):
    """The menu of a board's screen offered every game, its page only the board's; a
    new game from the screen is started with its seats as the page starts one."""
    from app.cli import run as run_command
    from app.screen import display
    from app.screen.menu import Choice
    monkeypatch.setattr(display, "choose_display",
                        lambda: display.DisplayChoice("dummy", False))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    session = Session(new_game("conhex"))
    screen = run_command.status_screen(session, games=("conhex",))
    assert screen.console.games == ("conhex",)
    screen.console.start(Choice("conhex", {"pie": False, "handicap": 0},
                                {"b": "engine", "w": "person"}, 1))
    assert words_of(session.seats) == {"b": "engine", "w": "person"} and session.level == 1
    assert session.board.options["pie"] is False
