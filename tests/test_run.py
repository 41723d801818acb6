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
from app.table.service import Notifier, ServiceStop, stop_on_signals
from app.table.session import Session
from app.table.store import RecordStore

ROOT = Path(__file__).resolve().parents[1]
MOVE = re.compile(r"move (\d+): ([bw]) (\S+)")


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
    from app.sensing.sensorlog import read_log
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


def test_sigkill_at_a_random_move_then_resume_keeps_every_move(tmp_path, game_log, two_people):
    expected = expected_moves(game_log)
    # From move 2 on: a game killed after its first move matches the first piece put
    # back, so only later kills resume out of sync.
    kill_at = random.Random().randrange(2, len(expected) - 1)
    process = tabletop("run", "--profile", "kulami-sim", "--config", str(two_people),
                       "--log", str(game_log), "--speed", "40")
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
    kept = saved_moves(tmp_path)
    assert kept[:kill_at] == reported == expected[:kill_at], f"killed at move {kill_at}"
    again = tabletop("run", "--profile", "kulami-sim", "--config", str(two_people),
                     "--log", str(game_log))
    output, _ = again.communicate(timeout=120)
    assert again.returncode == 0, output
    assert "resumed" in output and "differ" in output  # the empty board is out of sync
    assert saved_moves(tmp_path) == expected, f"killed at move {kill_at}"


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
    (["--profile", "conhex-sim", "--log", "LOG"], "the log is a kulami game"),
])
def test_bad_start_up_is_one_line(args, message, game_log, two_people, capsys):
    args = [str(game_log) if a == "LOG" else a for a in args]
    assert main(["run", *args, "--config", str(two_people)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
