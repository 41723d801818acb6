"""``tabletop firmware flash``: puts the sensor board's firmware on a Pico, with mpremote.

The Pico must run MicroPython already (hold BOOTSEL, plug it in, copy MicroPython's UF2).
The firmware is ``firmware/*.py`` with ``firmware/wire.py`` (and its test
vectors), copied flat onto the Pico as firmware/README.md does it by hand: the
modules first, then the firmware's self-test on the Pico itself (its codec against the
vectors), and ``main.py`` only once that passed, then a reset, after which the firmware
runs. ``--board FILE`` is your board's own ``tt_board.py`` (its pins, scanner and LEDs),
copied as ``tt_board.py``. ``--port`` is a device path, ``auto`` (the default: the
udev name ``systemd/`` installs, else the Pico's USB id) or ``usb:VID:PID``.

Once running, the firmware takes Ctrl-C as data, so mpremote cannot stop it: to copy a
new version, hold the board's safe pin to ground while the Pico starts (GP21 unless its
``tt_board.py`` says otherwise), then flash again.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import firmware
from app.errors import ConfigError, DeviceError, install_extra

#: The firmware package (the wire protocol and its test vectors among it), wherever
#: Tabletop is installed.
FIRMWARE = Path(firmware.__file__).resolve().parent
#: Seconds one mpremote command may take (a copy of every module takes a few).
STEP_S = 120


def register(subparsers) -> None:
    parser = subparsers.add_parser("firmware", help="put the sensor board's firmware on a Pico")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    flash = actions.add_parser(
        "flash", help="copy the firmware onto a Pico with mpremote",
        description="Copy the sensor board's firmware onto a Raspberry Pi Pico that "
                    "runs MicroPython already, with mpremote: the modules, then the "
                    "firmware's self-test on the Pico, then main.py and a reset.")
    flash.add_argument("--port", default="auto",
                       help="the Pico's port: a path, auto (default) or usb:VID:PID")
    flash.add_argument("--board", metavar="FILE",
                       help="your board's tt_board.py (default: the one in firmware)")
    flash.set_defaults(run=run_flash)


def mpremote() -> str:
    """The mpremote program: beside this Python (a virtual environment) or on PATH."""
    beside = Path(sys.executable).parent / "mpremote"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    found = shutil.which("mpremote")
    if found is None:
        raise DeviceError(f"mpremote is not installed ({install_extra('firmware')}; "
                          f"or pip install mpremote)")
    return found


def modules(board: Path) -> list[Path]:
    """Every module the Pico runs but ``main.py``, which goes last: the firmware's own
    (``board`` as ``tt_board.py``) and the wire protocol."""
    own = sorted(p for p in FIRMWARE.glob("*.py")
                 if p.name not in ("__init__.py", "main.py", "tt_board.py", "wire.py"))
    return [FIRMWARE / "wire.py", FIRMWARE / "wire_vectors.json", *own, board]


def commands(program: str, port: str, board: Path) -> list[list[str]]:
    """The mpremote command lines that flash the firmware, in order."""
    connect = [program, "connect", port]
    files = modules(board)
    copies = [str(p) for p in files if p != board]
    return [
        [*connect, "cp", *copies, ":"],
        [*connect, "cp", str(board), ":tt_board.py"],
        [*connect, "exec", "import tt_selftest; tt_selftest.main()"],
        [*connect, "cp", str(FIRMWARE / "main.py"), ":"],
        [*connect, "reset"],
    ]


def safe_pin(board: Path) -> str:
    """The board file's safe pin, as ``GPn`` (GP21 if it does not say)."""
    try:
        tree = ast.parse(board.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == "BOARD" for t in node.targets):
                pin = ast.literal_eval(node.value).get("safe_pin")
                if isinstance(pin, int):
                    return f"GP{pin}"
    except (OSError, SyntaxError, ValueError, AttributeError):
        pass
    return "GP21"


def run_flash(args) -> int:
    from app.hardware.serial_board import find_port
    board = Path(args.board) if args.board else FIRMWARE / "tt_board.py"
    if not board.is_file():
        raise ConfigError(f"--board {args.board}: no such file")
    program = mpremote()
    port = find_port(args.port, "firmware flash")
    if port.startswith("/") and not os.path.exists(port):
        raise DeviceError(f"{port}: no such device: is the Pico plugged in?")
    pin = safe_pin(board)
    for step, command in enumerate(commands(program, port, board)):
        print("$ " + " ".join(command[1:]), flush=True)
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=STEP_S)
        except subprocess.TimeoutExpired:
            raise DeviceError(f"mpremote did not finish {' '.join(command[3:4])} on {port} "
                              f"within {STEP_S} s: if the tabletop firmware is running, "
                              f"hold {pin} to ground while the Pico starts, then flash "
                              f"again") from None
        except OSError as error:
            raise DeviceError(f"cannot run {program}: {error.strerror}") from error
        if done.stdout:
            print(done.stdout, end="" if done.stdout.endswith("\n") else "\n", flush=True)
        if done.returncode != 0:
            said = (done.stderr.strip() or done.stdout.strip() or "no message").splitlines()
            raise DeviceError(f"mpremote {command[3]} on {port} failed (status "
                              f"{done.returncode}: {said[-1]}): if the tabletop firmware is "
                              f"running, hold {pin} to ground while the Pico starts, then "
                              f"flash again")
        if command[3] == "exec" and ", 0 failed" not in done.stdout:
            raise DeviceError(f"the firmware's self-test failed on the Pico on {port}: "
                              f"{(done.stdout.strip() or 'no output').splitlines()[-1]}; "
                              f"main.py was not copied")
    print(f"tabletop firmware: flashed on {port}; the Pico runs it now", flush=True)
    return 0
