"""``tabletop device PROFILE``: a virtual sensor board another program opens by its port."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.cli import main
from app.hardware.virtual_device import board_shape, device_for
from app.hardware.devices import open_source
from app.hardware.profile import load_profile

ROOT = Path(__file__).resolve().parents[1]


pytestmark = pytest.mark.usefixtures("no_serial_links_left")


def serial_profile(tmp_path, port, base="kulami", leds="simulated"):
    path = tmp_path / f"{base}-serial.toml"
    path.write_text(f'base = "{base}"\n[sensors]\ndriver = "serial"\nport = "{port}"\n'
                    f'colour = true\n[leds]\ndriver = "{leds}"\nbrightness = 1.0\n'
                    f'max_ma = 6000\n')
    return load_profile(path)


@pytest.mark.parametrize("channels, shape", [(1, (1, 1)), (100, (10, 10)),
                                             (196, (14, 14)), (101, (10, 11)),
                                             (0, (1, 1))])
def test_the_board_is_as_near_a_square_as_fits(channels, shape):
    rows, cols = board_shape(channels)
    assert (rows, cols) == shape and rows * cols >= channels


def test_the_device_is_the_profiles_board(tmp_path):
    blokus = device_for(load_profile("blokus-duo"))
    assert (blokus.scanner.rows, blokus.scanner.cols, blokus.scanner.polarity) == \
        (14, 14, True) and blokus.leds is None  # the Pi drives its LEDs
    led_board = device_for(serial_profile(tmp_path, "x", leds="serial"), noise=0.03)
    assert led_board.leds.count == 100 and led_board.noise and led_board.noise_in
    blind = device_for(load_profile("kulami-sim-blind"))
    assert not blind.scanner.polarity


def interrupt(process, timeout=10.0):
    """Ctrl-C ``process`` and wait for it to end; its stderr. One still running after
    ``timeout`` is killed, so that it does not outlive the test holding its port, and
    the test fails."""
    process.send_signal(signal.SIGINT)
    try:
        return process.communicate(timeout=timeout)[1]
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        raise


@pytest.mark.parametrize("sigint", [signal.SIG_DFL, signal.SIG_IGN],
                         ids=["from-a-terminal", "as-a-background-job"])
def test_it_prints_its_port_and_a_serial_profile_reads_it_until_it_is_stopped(tmp_path,
                                                                              sigint):
    """Ctrl-C stops it however it was started: a shell's background job, or a test run
    some CI runners start so, has SIGINT ignored from the start."""
    link = tmp_path / "board"
    process = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "device", "kulami-sim", "--link", str(link)],
        cwd=ROOT, env={**os.environ, "PYTHONUNBUFFERED": "1"}, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, sigint))
    try:
        port = process.stdout.readline().strip()
        assert port == str(link) and os.path.islink(port)
        source = open_source(serial_profile(tmp_path, port))
        scan = source.read()
        assert not any(scan.values()) and source.link.hello[:3] == (10, 10, 1)
        source.close()
    finally:
        err = interrupt(process)
    assert process.returncode == 0, err
    assert "kulami-sim: 10 x 10 channels, polarity" in err
    assert not os.path.lexists(link)  # the port went with it


def test_seconds_stops_it(capsys):
    start = time.monotonic()
    assert main(["device", "kulami-sim", "--seconds", "0.2"]) == 0
    assert time.monotonic() - start < 5
    port = capsys.readouterr().out.strip()
    assert port.endswith("tabletop-sensors") and not os.path.lexists(port)


@pytest.mark.parametrize("args, message", [
    (["nope"], "tabletop device: no profile named 'nope'"),
    (["kulami-sim", "--noise", "2"], "argument --noise: must be from 0 to 1, not 2"),
    (["kulami-sim", "--seconds", "-1"], "argument --seconds: must be 0 seconds or more"),
    (["kulami-sim", "--link", "/no/such/folder/port"], "--link /no/such/folder/port: no "
                                                       "folder /no/such/folder"),
])
def test_bad_input_is_one_line(args, message, capsys):
    with pytest.raises(SystemExit) if "argument" in message else _nothing() as raised:
        status = main(["device", *args])
    if raised is None:
        assert status == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


class _nothing:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False
