"""``tabletop firmware flash``: the mpremote command lines it runs (through a fake
mpremote on PATH that records them), and its one-line failures."""

import json
import os
import sys
import textwrap
from pathlib import Path

import pytest

from app.cli import main
from app.cli import firmware

ROOT = Path(__file__).resolve().parents[1]
FIRMWARE = ROOT / "firmware"


@pytest.fixture
def fake(tmp_path, monkeypatch):
    """A fake mpremote on PATH (and none beside this Python) that appends its arguments
    to calls.jsonl; FAKE_FAIL=<command> makes that command fail, FAKE_SELFTEST its
    self-test line."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    calls = tmp_path / "calls.jsonl"
    script = bin_dir / "mpremote"
    script.write_text(textwrap.dedent(f"""\
        #!{sys.executable}
        import json, os, sys
        with open({str(calls)!r}, "a") as out:
            out.write(json.dumps(sys.argv[1:]) + "\\n")
        command = sys.argv[3]
        if os.environ.get("FAKE_FAIL") == command:
            print("mpremote: could not enter raw repl", file=sys.stderr)
            sys.exit(1)
        if command == "exec":
            print(os.environ.get("FAKE_SELFTEST", "104 checks, 0 failed"))
        """))
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python"))  # nothing beside it
    port = tmp_path / "ttyACM0"
    port.touch()

    class Fake:
        def __init__(self):
            self.port = str(port)

        def calls(self):
            if not calls.exists():
                return []
            return [json.loads(line) for line in calls.read_text().splitlines()]
    return Fake()


def test_the_firmware_goes_on_flat_then_the_self_test_then_main_then_a_reset(fake, capsys):
    assert main(["firmware", "flash", "--port", fake.port]) == 0
    modules = sorted(str(p) for p in FIRMWARE.glob("*.py")
                     if p.name not in ("__init__.py", "main.py", "tt_board.py", "wire.py"))
    connect = ["connect", fake.port]
    assert fake.calls() == [
        [*connect, "cp", str(FIRMWARE / "wire.py"), str(FIRMWARE / "wire_vectors.json"),
         *modules, ":"],
        [*connect, "cp", str(FIRMWARE / "tt_board.py"), ":tt_board.py"],
        [*connect, "exec", "import tt_selftest; tt_selftest.main()"],
        [*connect, "cp", str(FIRMWARE / "main.py"), ":"],
        [*connect, "reset"],
    ]
    assert {"tt_codec.py", "tt_device.py", "tt_hw.py", "tt_main.py", "tt_selftest.py"} <= \
        {Path(m).name for m in modules}
    out = capsys.readouterr().out
    assert "104 checks, 0 failed" in out and f"flashed on {fake.port}" in out


def test_a_makers_board_file_goes_on_as_tt_board(fake, tmp_path):
    board = tmp_path / "my_board.py"
    board.write_text('BOARD = {"sensors": "shift", "safe_pin": 5}\n')
    assert main(["firmware", "flash", "--port", fake.port, "--board", str(board)]) == 0
    assert fake.calls()[1] == ["connect", fake.port, "cp", str(board), ":tt_board.py"]
    assert all(str(FIRMWARE / "tt_board.py") not in call for call in fake.calls())


def test_a_failing_step_is_one_line_naming_the_safe_pin_and_stops(fake, tmp_path, capsys,
                                                                   monkeypatch):
    board = tmp_path / "my_board.py"
    board.write_text('BOARD = {"sensors": "shift", "safe_pin": 5}\n')
    monkeypatch.setenv("FAKE_FAIL", "cp")
    assert main(["firmware", "flash", "--port", fake.port, "--board", str(board)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("tabletop firmware: mpremote cp on ")
    assert "could not enter raw repl" in err and "hold GP5 to ground" in err
    assert len(fake.calls()) == 1


def test_a_failed_self_test_copies_no_main(fake, capsys, monkeypatch):
    monkeypatch.setenv("FAKE_SELFTEST", "FAIL crc\n104 checks, 1 failed")
    assert main(["firmware", "flash", "--port", fake.port]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "self-test failed" in err and "1 failed" in err
    assert [call[2] for call in fake.calls()] == ["cp", "cp", "exec"]


def test_no_mpremote_is_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python"))
    assert main(["firmware", "flash", "--port", "/dev/null"]) == 1
    err = capsys.readouterr().err
    assert err == ("tabletop firmware: mpremote is not installed (install Tabletop's "
                   "[firmware] extra from its checkout: pip install '.[firmware]' there, or "
                   "/opt/tabletop/venv/bin/pip install '/opt/tabletop/src[firmware]' on a Pi "
                   "set up by systemd/install.sh; or pip install mpremote)\n")


def test_no_pico_is_one_line(fake, tmp_path, monkeypatch, capsys):
    from app.hardware import serial_board
    monkeypatch.setattr(serial_board, "UDEV_NAME", str(tmp_path / "no-udev-name"))
    import serial.tools.list_ports
    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: [])
    assert main(["firmware", "flash"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "2e8a:0005" in err and "plugged in" in err
    missing = str(tmp_path / "ttyACM9")
    assert main(["firmware", "flash", "--port", missing]) == 1
    err = capsys.readouterr().err
    assert err == f"tabletop firmware: {missing}: no such device: is the Pico plugged in?\n"
    assert main(["firmware", "flash", "--port", fake.port, "--board", "nope.py"]) == 2
    assert capsys.readouterr().err == "tabletop firmware: --board nope.py: no such file\n"
    assert fake.calls() == []


def test_auto_finds_the_pico_by_its_udev_name(fake, monkeypatch):
    from app.hardware import serial_board
    monkeypatch.setattr(serial_board, "UDEV_NAME", fake.port)
    assert main(["firmware", "flash"]) == 0
    assert {tuple(call[:2]) for call in fake.calls()} == {("connect", fake.port)}


def test_the_safe_pin_is_read_from_the_board_file(tmp_path):
    assert firmware.safe_pin(FIRMWARE / "tt_board.py") == "GP21"
    other = tmp_path / "b.py"
    other.write_text("x = 1\n")
    assert firmware.safe_pin(other) == "GP21"
