"""lgpio's notification pipe: ``LG_WD`` names a folder the user may write before lgpio
can load, in the ``tabletop`` command as the README runs it (from a folder the user may
not write), the working directory survives lgpio's move into that folder, and where lgpio
still cannot make its pipe the one line names that cause.

lgpio itself does not install on x86, so a stand-in with its behaviour at import (the
folder from ``LG_WD`` or else the working directory, a move into it, the pipe made there,
``FileNotFoundError: '.lgd-nfy-3'`` when it cannot be) is put on the path, where
gpiozero's pin factory imports it as it would the real one."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from app.hardware import lgpio_dir, system_check
from app.hardware.lgpio_dir import PIPE_FIX, pipe_problem
from app.hardware.sensors import gpio_problem

ROOT = Path(__file__).resolve().parents[1]
TABLETOP = Path(sys.executable).with_name("tabletop")
#: A folder nobody may make a pipe in, root included (root may write anywhere else).
UNWRITABLE = "/proc"

STAND_IN = textwrap.dedent('''
    """lgpio at import, as its C library and Python module behave (lgUtil.c, lgpio.py)."""
    import json, os
    folder = os.environ.get("LG_WD") or os.getcwd()
    seen = {"LG_WD": os.environ.get("LG_WD"), "folder": folder}
    try:
        os.chdir(folder)
        os.mkfifo(".lgd-nfy0", 0o664)
        seen["pipe"] = True
    except OSError as error:
        seen["pipe"] = str(error)
    seen["writable"] = os.access(folder, os.W_OK)
    with open(os.environ["LGPIO_SEEN"], "w") as out:
        json.dump(seen, out)
    if seen["pipe"] is not True:
        raise FileNotFoundError(2, "No such file or directory", ".lgd-nfy-3")

    class error(Exception):
        pass

    SET_PULL_NONE = SET_PULL_UP = SET_PULL_DOWN = 0
    BOTH_EDGES = RISING_EDGE = FALLING_EDGE = 0

    def gpiochip_open(chip):
        raise error("can not open gpiochip")
''')


@pytest.fixture
def stand_in(tmp_path):
    folder = tmp_path / "stand-in"
    folder.mkdir()
    (folder / "lgpio.py").write_text(STAND_IN)
    return folder


@pytest.fixture
def matrix_profile(tmp_path):
    """The kulami board's GPIO matrix with simulated LEDs: the sensors open first on a PC."""
    text = (ROOT / "app/hardware/profiles/kulami.toml").read_text()
    text = text.replace('driver = "neopixel_spi"', 'driver = "simulated"')
    path = tmp_path / "matrix.toml"
    path.write_text(text)
    return path


def tabletop_in(cwd: str, stand_in: Path, tmp_path: Path, *args: str, **extra: str):
    """``tabletop ARGS`` run from ``cwd`` with the stand-in lgpio on the path and real
    pin factories (no mock), as a person at the Pi's shell would: no service variables."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("GPIOZERO_PIN_FACTORY", "LG_WD", "RUNTIME_DIRECTORY",
                          "XDG_RUNTIME_DIR")}
    env.update(PYTHONPATH=os.pathsep.join([str(stand_in), str(ROOT)]),
               LGPIO_SEEN=str(tmp_path / "seen.json"),
               XDG_CACHE_HOME=str(tmp_path / "cache"), **extra)
    return subprocess.run([str(TABLETOP), *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120)


def test_the_command_run_from_a_folder_it_may_not_write_gives_lgpio_one_it_may(
        stand_in, matrix_profile, tmp_path):
    done = tabletop_in(UNWRITABLE, stand_in, tmp_path, "selftest", "--profile",
                       str(matrix_profile), "--only", "sensors", "--timeout", "0")
    seen = json.loads((tmp_path / "seen.json").read_text())
    assert seen["LG_WD"] == seen["folder"] == str(tmp_path / "cache" / "tabletop"), done.stderr
    assert seen["writable"] and seen["pipe"] is True
    assert "Traceback" not in done.stderr


def test_the_services_runtime_directory_is_lgpios_folder(stand_in, matrix_profile, tmp_path):
    runtime = tmp_path / "run-tabletop"
    runtime.mkdir()
    tabletop_in(UNWRITABLE, stand_in, tmp_path, "selftest", "--profile", str(matrix_profile),
                "--only", "sensors", "--timeout", "0", RUNTIME_DIRECTORY=str(runtime))
    assert json.loads((tmp_path / "seen.json").read_text())["LG_WD"] == str(runtime)


def test_a_folder_lgpio_cannot_use_is_named_with_the_fix(stand_in, matrix_profile, tmp_path):
    """A person's own LG_WD is kept, even a wrong one, and the error says that it is the
    folder, not the GPIO, that is wrong."""
    missing = tmp_path / "no-such-folder"
    done = tabletop_in(UNWRITABLE, stand_in, tmp_path, "selftest", "--profile",
                       str(matrix_profile), "--only", "sensors", LG_WD=str(missing))
    assert json.loads((tmp_path / "seen.json").read_text())["LG_WD"] == str(missing)
    assert done.returncode == 1
    assert done.stderr.endswith(
        f": lgpio could not make its notification pipe in {missing} (LG_WD), which does "
        f"not exist: {PIPE_FIX}\n")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_lgpio_moving_the_process_is_undone_after_its_import(stand_in, tmp_path,
                                                             monkeypatch):
    """lgpio moves the whole process into its folder; a relative path on the command
    line (``sensors record --out game.jsonl``) must still mean the folder it was given in."""
    here, pipes = tmp_path / "here", tmp_path / "pipes"
    here.mkdir(), pipes.mkdir()
    monkeypatch.chdir(here)
    monkeypatch.setenv("LG_WD", str(pipes))
    monkeypatch.setenv("LGPIO_SEEN", str(tmp_path / "seen.json"))
    monkeypatch.syspath_prepend(str(stand_in))
    monkeypatch.delitem(sys.modules, "lgpio", raising=False)
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    assert lgpio_dir.prepare() == str(pipes)
    import lgpio  # noqa: F401
    assert json.loads((tmp_path / "seen.json").read_text())["pipe"] is True
    assert (pipes / ".lgd-nfy0").exists() and Path.cwd() == here
    monkeypatch.delitem(sys.modules, "lgpio")


def test_without_lg_wd_a_folder_of_the_users_own_is_chosen(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    environ = {}
    assert lgpio_dir.own_folder(environ) == str(tmp_path / "cache" / "tabletop")
    environ = {"XDG_RUNTIME_DIR": str(tmp_path)}
    assert lgpio_dir.own_folder(environ) == str(tmp_path / "tabletop")
    environ = {"XDG_RUNTIME_DIR": str(tmp_path / "gone")}  # never made by us
    assert lgpio_dir.own_folder(environ) == str(tmp_path / "cache" / "tabletop")
    monkeypatch.setenv("XDG_CACHE_HOME", UNWRITABLE)
    made = Path(lgpio_dir.own_folder({}))
    assert made.name.startswith("tabletop-lgpio-") and os.access(made, os.W_OK)
    made.rmdir()


def test_a_user_who_may_write_nowhere_still_gets_the_command(monkeypatch):
    """Not even the temporary directory: LG_WD stays unset, lgpio tries the working
    directory, and the command goes on to say what failed in its one line."""
    def nowhere(**kwargs):
        raise PermissionError(13, "Permission denied", "/tmp")
    monkeypatch.setenv("XDG_CACHE_HOME", UNWRITABLE)
    monkeypatch.setattr(lgpio_dir.tempfile, "mkdtemp", nowhere)
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    environ = {}
    assert lgpio_dir.prepare(environ) == "" and environ == {}


FELL_BACK = "Falling back from lgpio: [Errno 2] No such file or directory: '.lgd-nfy-3'"


def test_the_drivers_line_names_the_pipe_not_a_missing_gpio(tmp_path, monkeypatch):
    class BadPinFactory(Exception):
        pass
    monkeypatch.setenv("LG_WD", str(tmp_path / "gone"))
    assert gpio_problem(BadPinFactory("Unable to load any default pin factory!"),
                        [FELL_BACK, "Falling back from native: unable to open /dev/gpiomem"]
                        ) == (f"lgpio could not make its notification pipe in "
                              f"{tmp_path / 'gone'} (LG_WD), which does not exist: "
                              f"{PIPE_FIX}")
    monkeypatch.delenv("LG_WD")
    monkeypatch.chdir(tmp_path)
    assert pipe_problem(FELL_BACK) == (
        f"lgpio could not make its notification pipe in {tmp_path} (the working "
        f"directory), whose file system takes no named pipes")
    assert pipe_problem("Falling back from lgpio: can not open gpiochip") is None


def test_the_system_check_names_the_pipe_and_its_fix(tmp_path, monkeypatch):
    from tests.test_system_check import FakePi, make_factories
    monkeypatch.setenv("LG_WD", str(tmp_path / "gone"))
    make = make_factories(lgpio=FileNotFoundError(2, "No such file or directory", ".lgd-nfy-3"),
                          rpigpio=ModuleNotFoundError("No module named 'RPi'", name="RPi"))
    [finding] = system_check.check_gpio(FakePi(tmp_path / "pi").machine("gpio"), {}, make)
    assert finding.failed and finding.line == (
        f"GPIO: gpiozero can make no pin factory on this Raspberry Pi 4 or 400 (lgpio: "
        f"lgpio could not make its notification pipe in {tmp_path / 'gone'} (LG_WD), which "
        f"does not exist; rpigpio: the RPi.GPIO library is missing): {PIPE_FIX}")
