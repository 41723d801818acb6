"""The issue's "Done when": ``tabletop run`` with a serial profile plays a game over the
virtual sensor board (the firmware's logic behind a pseudo-terminal), a scripted hand
putting the pieces on it, with the cable pulled and plugged in again in the middle of
the game: nothing is lost, and the record in the data directory has every move."""

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from app.hardware.profile import load_profile
from app.hardware.virtual_device import VirtualDevice
from app.table.store import RecordStore
from test_serial_virtual import STATE, moves_of_a_game

ROOT = Path(__file__).resolve().parents[1]
MOVE = re.compile(r"move (\d+): (\w+) (\S+)")  # the mover by name: "move 1: Red d4"


class Run:
    """``tabletop run`` in a subprocess, its output lines read as they come."""

    def __init__(self, *args):
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        env.pop("DISPLAY", None)
        env.pop("WAYLAND_DISPLAY", None)
        self.process = subprocess.Popen([sys.executable, "-m", "app.cli", "run", *args],
                                        cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True)
        self.lines: list[str] = []
        self._queue: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self._queue.put(line)
        self._queue.put(None)

    def wait_for(self, what, timeout=20.0):
        """Read output until a line matches ``what`` (a callable); the line, or fail."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                line = self._queue.get(timeout=max(0.01, end - time.monotonic()))
            except queue.Empty:
                break
            if line is None:
                break
            self.lines.append(line)
            if what(line):
                return line
        raise AssertionError("not seen in the output:\n" + "".join(self.lines))

    def moves(self):
        return [m[2] for m in MOVE.findall("".join(self.lines))]

    def stop(self, signum=signal.SIGTERM):
        self.process.send_signal(signum)
        self.process.wait(timeout=30)
        while (line := self._queue.get(timeout=5)) is not None:
            self.lines.append(line)
        return "".join(self.lines)


def test_a_game_through_tabletop_run_survives_an_unplug_and_replug(tmp_path):
    """The first 14 moves of a random game (TABLETOP_SERIAL_RUN_MOVES=100: all of it,
    about 20 s here), the cable out during the middle one."""
    whole = moves_of_a_game(seed=3)
    moves = whole[:int(os.environ.get("TABLETOP_SERIAL_RUN_MOVES", "14"))]
    unplug_after = len(moves) // 2
    with VirtualDevice(10, 10, folder=tmp_path) as device:
        profile = tmp_path / "kulami-serial.toml"
        profile.write_text(f'base = "kulami"\n[sensors]\ndriver = "serial"\n'
                           f'port = "{device.path}"\ncolour = true\n'
                           f'[leds]\ndriver = "simulated"\nbrightness = 1.0\nmax_ma = 3000\n')
        config = tmp_path / "tabletop.toml"
        config.write_text(f'data_dir = "{tmp_path / "data"}"\n[game]\nfirst = "person"\n'
                          f'second = "person"\n[options.kulami]\nlayout = "square-1"\n')
        channels = {name: hole.channel for name, hole in load_profile(profile).holes.items()}
        run = Run("--profile", str(profile), "--config", str(config))
        try:
            run.wait_for(lambda line: "profile kulami-serial" in line)
            for number, (text, placed) in enumerate(moves, 1):
                if number == unplug_after + 1:
                    device.unplug()
                    run.wait_for(lambda line: "disconnected" in line)
                    # the move is made while the cable is out; it counts once it is back
                    for hole, colour in placed.items():
                        device.set(channels[hole], STATE[colour])
                    time.sleep(0.6)
                    assert len(run.moves()) == unplug_after
                    device.replug()
                    run.wait_for(lambda line: "answers again" in line)
                else:
                    for hole, colour in placed.items():
                        for level in (STATE[colour], 0, STATE[colour]):  # a bounce
                            device.set(channels[hole], level)
                            time.sleep(0.003)
                run.wait_for(lambda line: f"move {number}:" in line)
        finally:
            output = run.stop(signal.SIGTERM)
    assert run.process.returncode == 0, output
    assert run.moves() == [text for text, _ in moves], output
    assert "stopping on SIGTERM" in output and "LEDs off" in output
    assert "Traceback" not in output
    board = RecordStore(tmp_path / "data").resume().board
    assert [board.move_text(m) for m in board.move_stack] == [text for text, _ in moves]
    assert board.is_game_over() == (len(moves) == len(whole))
