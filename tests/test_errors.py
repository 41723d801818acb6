"""Expected failures: one line on stderr, never a traceback, and exit status 2 for bad
input or 1 for hardware that cannot be used.

The command-line cases run the real ``tabletop`` in a subprocess. "On a desktop" means
without the mock pin factory and Blinka's OS-agnostic board that conftest.py gives the
test process: gpiozero and Blinka then see this machine as it is. The driver cases check
that a real device that cannot be opened is a DeviceError with its cause chained, never a
simulated device in its place; and the error classes form one tree.
"""

import importlib
import inspect
import os
import pkgutil
import re
import subprocess
import sys
import types
import warnings
from pathlib import Path

import pytest

import app
import engines
from app.cli import main
from app.errors import (ConfigError, DeviceError, DisconnectError, NoSuchPinError,
                        ProfileError, SensorLogError)
from app.hardware import leds
from app.hardware.buttons import Buttons
from app.hardware.devices import open_source, open_strip
from app.hardware.leds import NeoPixelSpiStrip, NeoPixelStrip, SimulatedStrip
from app.hardware.profile import load_profile
from app.hardware.sensors import MatrixScanner
from app.screen.display import NoDisplayError
from engines.errors import EngineError, TabletopError

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "app" / "table" / "tabletop.example.toml"
ON_A_PI = "raspberry pi" in (Path("/proc/device-tree/model").read_text(errors="replace").lower()
                             if Path("/proc/device-tree/model").exists() else "")
desktop_only = pytest.mark.skipif(ON_A_PI, reason="on a Pi the GPIO and the LEDs are real")

#: Make a real profile's LED libraries unimportable, then run the command line.
NO_LED_LIBRARY = ("import sys; sys.modules['neopixel_spi'] = None; "
                  "sys.modules['neopixel'] = None; from app.cli import main; "
                  "sys.exit(main(sys.argv[1:]))")


def desktop_env(tmp_path: Path) -> dict[str, str]:
    """This machine as it is: no mock GPIO, no OS-agnostic Blinka, a throw-away home."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("GPIOZERO_PIN_FACTORY", "BLINKA_OS_AGNOSTIC", "STATE_DIRECTORY")}
    env["XDG_DATA_HOME"] = str(tmp_path / "xdg")
    env["SDL_VIDEODRIVER"] = "dummy"
    return env


def tabletop(tmp_path, *args, code=None, stdin="", env=None):
    command = [sys.executable, *(("-c", code) if code else ("-m", "app.cli")), *args]
    return subprocess.run(command, cwd=ROOT, env=env or desktop_env(tmp_path), input=stdin,
                          capture_output=True, text=True, timeout=120)


def one_line(result, command: str, status: int = 2) -> str:
    """The one error line, after checking there is nothing else: the status (2 for bad
    input, 1 for a device), no traceback."""
    assert "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert result.returncode == status, result
    assert lines[0].startswith(f"tabletop {command}: "), lines[0]
    return lines[0]


def config_file(tmp_path, text: str = "") -> Path:
    """A configuration that keeps its games in ``tmp_path``, never in a person's home."""
    path = tmp_path / "tabletop.toml"
    path.write_text(f'data_dir = "{tmp_path / "data"}"\n{text}', encoding="utf-8")
    return path


def example_config(tmp_path) -> Path:
    """The shipped example with its Pi's button uncommented, its data directory in
    ``tmp_path``."""
    text = EXAMPLE.read_text(encoding="utf-8")
    assert "\n[buttons]\n" in text and "\n# confirm = 27\n" in text
    text = text.replace("\n# confirm = 27\n", "\nconfirm = 27\n")
    return config_file(tmp_path, text)


@pytest.fixture(scope="module")
def sensor_log(tmp_path_factory):
    path = tmp_path_factory.mktemp("log") / "game.jsonl"
    assert main(["sensors", "record", "kulami-sim", "--play", "5", "--out", str(path)]) == 0
    return path


# --- the command line ----------------------------------------------------------------

@pytest.mark.parametrize("option, expected", [
    ("seed=x", ("seed", "'x'")), ("level=x", ("level", "'x'")),
    ("oops", ("expected key=value, got 'oops'",))])
def test_bad_gtp_start_options_are_one_line(tmp_path, option, expected):
    line = one_line(tabletop(tmp_path, "gtp", "kulami", option), "gtp")
    assert all(fragment in line for fragment in expected), line


def test_bad_game_for_play_is_one_line(tmp_path):
    assert "unknown game 'chess'" in one_line(tabletop(tmp_path, "play", "chess"), "play")


@pytest.mark.parametrize("option", ["--debounce", "--settle"])
def test_negative_seconds_for_replay_are_one_line(tmp_path, option):
    result = tabletop(tmp_path, "sensors", "replay", str(tmp_path / "game.jsonl"), option, "-1")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (f"tabletop sensors replay: argument {option}: "
                             f"must be 0 seconds or more, not -1\n")


@pytest.mark.parametrize("args, message", [
    ((), "tabletop: the following arguments are required: COMMAND"),
    (("dance",), "tabletop: argument COMMAND: invalid choice: 'dance' (choose from "),
    (("selftest",), "tabletop selftest: the following arguments are required: --profile"),
    (("selftest", "--profile", "kulami-sim", "--step", "inf"),
     "tabletop selftest: argument --step: must be 0 seconds or more, not inf"),
    (("sensors", "replay", "log", "--settle", "soon"),
     "tabletop sensors replay: argument --settle: expected a number of seconds, not 'soon'"),
])
def test_usage_mistakes_are_one_line(tmp_path, args, message):
    result = tabletop(tmp_path, *args)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1, result.stderr


# --- numbers the commands refuse in one line (issue 22) --------------------------------

@pytest.mark.parametrize("args, message", [
    (("simulate", "--pause", "-1"),
     "tabletop simulate: argument --pause: must be 0 seconds or more, not -1"),
    (("simulate", "kulami", "--pause", "nan"),
     "tabletop simulate: argument --pause: must be 0 seconds or more, not nan"),
    (("sensors", "record", "kulami-sim", "--scan-hz", "0", "--seconds", "1"),
     "tabletop sensors record: argument --scan-hz: must be a number above 0 per second, "
     "not 0"),
    (("sensors", "record", "kulami-sim", "--scan-hz", "-5", "--seconds", "1"),
     "tabletop sensors record: argument --scan-hz: must be a number above 0 per second, "
     "not -5"),
    (("sensors", "record", "kulami-sim", "--scan-hz", "inf", "--seconds", "1"),
     "tabletop sensors record: argument --scan-hz: must be a number above 0 per second, "
     "not inf"),
    (("sensors", "record", "kulami-sim", "--scan-hz", "fast"),
     "tabletop sensors record: argument --scan-hz: expected a number per second, not 'fast'"),
    (("sensors", "record", "kulami-sim", "--seconds", "-1"),
     "tabletop sensors record: argument --seconds: must be 0 seconds or more, not -1"),
    (("run", "--profile", "kulami-sim", "--speed", "-1"),
     "tabletop run: argument --speed: must be 0 (as fast as possible) or more, not -1"),
    (("run", "--profile", "kulami-sim", "--speed", "nan"),
     "tabletop run: argument --speed: must be 0 (as fast as possible) or more, not nan"),
])
def test_numbers_out_of_range_are_one_line_and_nothing_runs(tmp_path, args, message):
    """Each was a traceback (time.sleep of a negative or NaN pause, 1 / 0 scans a second)
    or was taken without a word (a negative --seconds or --speed)."""
    result = tabletop(tmp_path, *args)
    assert result.returncode == 2 and result.stdout == "", result
    assert result.stderr == message + "\n"


def test_replaying_a_log_with_a_profile_of_another_game_is_one_line(sensor_log, capsys):
    """A Kulami log replayed with ConHex's profile was replayed as the log's own game
    without a word, the profile ignored."""
    assert main(["sensors", "replay", str(sensor_log), "--profile", "conhex-sim"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (f"tabletop sensors: {sensor_log}: the log is a kulami game and profile "
                   f"conhex-sim a conhex board\n")


def test_a_nul_in_the_configured_data_dir_is_one_line(tmp_path, capsys):
    """``data_dir = "\\u0000"`` ended ``tabletop run`` in a traceback from the record
    store's mkdir (ValueError: embedded null byte)."""
    path = tmp_path / "tabletop.toml"
    path.write_text('data_dir = "\\u0000"\n', encoding="utf-8")
    assert main(["run", "--profile", "kulami-sim", "--config", str(path)]) == 2
    out, err = capsys.readouterr()
    assert err == (f"tabletop run: {path}: data_dir: must be a directory's path, which "
                   f"holds no NUL character, not '\\x00'\n")
    assert not (tmp_path / "data").exists()


@desktop_only
def test_the_example_config_with_buttons_on_a_desktop_is_one_line(tmp_path):
    result = tabletop(tmp_path, "run", "--profile", "kulami-sim",
                      "--config", str(example_config(tmp_path)))
    line = one_line(result, "run", status=1)
    assert line.startswith("tabletop run: buttons: confirm on GPIO27: no GPIO on this machine")


@desktop_only
@pytest.mark.parametrize("command", [["run", "--profile", "kulami"],
                                     ["selftest", "--profile", "kulami"]])
def test_a_real_profile_on_a_desktop_is_one_line(tmp_path, command):
    if command[0] == "run":
        command += ["--config", str(config_file(tmp_path))]
    line = one_line(tabletop(tmp_path, *command), command[0], status=1)
    assert "profile kulami: LEDs (neopixel_spi on SPI)" in line
    assert "not a Raspberry Pi" in line


def pwm_profile(tmp_path) -> Path:
    """A maker's own Akron board with its LEDs on a PWM pin (every shipped board uses SPI)."""
    path = tmp_path / "akron-pwm.toml"
    path.write_text('base = "akron"\n'
                    '[sensors]\ndriver = "matrix"\n'
                    'row_pins = [4, 5, 6, 12, 13, 16, 17, 19]\n'
                    'column_pins = [20, 21, 22, 23, 24, 25, 26, 27]\n'
                    '[leds]\ndriver = "neopixel"\npin = "D18"\nbrightness = 0.5\n'
                    'max_ma = 2000\n', encoding="utf-8")
    return path


@desktop_only
def test_a_real_profile_neopixel_pin_on_a_desktop_is_one_line(tmp_path):
    line = one_line(tabletop(tmp_path, "selftest", "--profile", str(pwm_profile(tmp_path))),
                    "selftest", status=1)
    assert "profile akron-pwm: LEDs (neopixel on D18)" in line
    assert "not a Raspberry Pi" in line


@desktop_only
def test_recording_a_real_matrix_on_a_desktop_is_one_line_and_writes_nothing(tmp_path):
    out = tmp_path / "kept.jsonl"
    out.write_text("an earlier recording\n")
    result = tabletop(tmp_path, "sensors", "record", "kulami", "--seconds", "0.1",
                      "--out", str(out))
    line = one_line(result, "sensors", status=1)
    assert "profile kulami: sensor matrix: row GPIO2: no GPIO on this machine" in line
    assert out.read_text() == "an earlier recording\n"


@pytest.mark.parametrize("profile, library", [("kulami", "neopixel_spi"),
                                              ("akron-pwm", "neopixel")])
def test_a_missing_led_library_is_an_error_never_a_simulated_strip(tmp_path, profile,
                                                                   library):
    if profile == "akron-pwm":
        profile = str(pwm_profile(tmp_path))
    for command in (["run", "--profile", profile, "--config", str(config_file(tmp_path))],
                    ["selftest", "--profile", profile]):
        result = tabletop(tmp_path, *command, code=NO_LED_LIBRARY)
        line = one_line(result, command[0], status=1)
        assert (f"the {library} library is not installed (install Tabletop's [pi] extra "
                f"from its checkout, which brings ") in line
        assert ("pip install '.[pi]' there, or /opt/tabletop/venv/bin/pip install "
                "'/opt/tabletop/src[pi]' on a Pi set up by systemd/install.sh)") in line
        assert "playing" not in result.stdout


def test_output_piped_into_a_reader_that_stops_ends_quietly(tmp_path):
    """``tabletop gtp kulami | head -1``: the reader goes away, the engine stops, silently."""
    process = subprocess.Popen([sys.executable, "-m", "app.cli", "gtp", "kulami"], cwd=ROOT,
                               env=desktop_env(tmp_path), stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    process.stdin.write("name\n")
    process.stdin.flush()
    assert process.stdout.readline().startswith("= ")
    process.stdout.close()
    _, stderr = process.communicate("showboard\n" * 2000, timeout=60)
    assert stderr == ""
    assert process.returncode == 0


@pytest.mark.parametrize("command", ["sensors replay {log}",
                                     "run --profile kulami-sim --log {log} --config {config}"])
def test_output_piped_into_head_ends_quietly(tmp_path, sensor_log, command):
    """``tabletop sensors replay LOG | head -1``, and ``tabletop run``, whose log lines go
    to standard output: no traceback, and no logging error for each line after."""
    args = command.format(log=sensor_log, config=config_file(tmp_path)).split()
    reader = subprocess.Popen(["head", "-1"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    writer = subprocess.run([sys.executable, "-m", "app.cli", *args],
                            cwd=ROOT, env=desktop_env(tmp_path),
                            stdout=reader.stdin, stderr=subprocess.PIPE, text=True,
                            timeout=120)
    reader.stdin.close()
    assert reader.stdout.read().count(b"\n") == 1
    reader.wait(timeout=10)
    assert writer.stderr == ""
    assert writer.returncode == 0


def test_an_os_error_is_told_without_python_s_errno_and_quotes():
    from app.errors import describe
    assert describe(IsADirectoryError(21, "Is a directory", "/tmp")) == \
        "Is a directory: /tmp"
    assert describe(FileExistsError(17, "File exists", "a", None, "b")) == "File exists: a -> b"
    assert describe(OSError(5, "Input/output error")) == "Input/output error"
    assert describe(OSError("no errno")) == "no errno"


@pytest.mark.parametrize("args, message", [
    # A folder given for a log: Python's "[Errno 21] Is a directory: '/tmp'" before.
    (("sensors", "replay", "{tmp}"), "tabletop sensors: {tmp}: cannot read: Is a directory"),
    # A TOML value of the wrong kind: Python's "must be int" before.
    (("run", "--profile", "kulami-sim", "--config", "{tmp}/bad.toml"),
     "tabletop run: {tmp}/bad.toml: web.port: must be a whole number, not 'x'"),
])
def test_messages_name_no_python_errno_or_type(tmp_path, capsys, args, message):
    (tmp_path / "bad.toml").write_text('[web]\nport = "x"\n')
    assert main([arg.format(tmp=tmp_path) for arg in args]) == 2
    err = capsys.readouterr().err
    assert err == message.format(tmp=tmp_path) + "\n"
    assert "Errno" not in err and "int" not in err.split()


def test_main_turns_any_tabletop_error_into_one_line(monkeypatch, capsys):
    import app.cli.gtp as gtp

    def fail(args):
        raise DisconnectError("LEDs: lost\nwhile in use")

    monkeypatch.setattr(gtp, "run", fail)
    assert main(["gtp", "kulami"]) == 1  # hardware: a runtime failure
    assert capsys.readouterr().err == "tabletop gtp: LEDs: lost while in use\n"

    def refuse(args):
        raise ConfigError("tabletop.toml: game.level: must be 1 to 4")

    monkeypatch.setattr(gtp, "run", refuse)
    assert main(["gtp", "kulami"]) == 2  # bad input: a usage mistake
    assert capsys.readouterr().err == "tabletop gtp: tabletop.toml: game.level: must be 1 to 4\n"


def test_ctrl_c_is_status_130_without_a_traceback(monkeypatch, capsys):
    import app.cli.gtp as gtp

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(gtp, "run", interrupted)
    assert main(["gtp", "kulami"]) == 130
    assert capsys.readouterr().err == ""


def test_a_bug_keeps_its_traceback(monkeypatch):
    import app.cli.gtp as gtp

    def bug(args):
        raise ValueError("not an expected failure")

    monkeypatch.setattr(gtp, "run", bug)
    with pytest.raises(ValueError, match="not an expected failure"):
        main(["gtp", "kulami"])


# --- drivers: DeviceError with the cause chained, never a simulated device -----------

@pytest.fixture
def without(monkeypatch):
    """Make modules unimportable, as if their library were not installed."""
    def hide(*names):
        for name in names:
            monkeypatch.setitem(sys.modules, name, None)
    return hide


def test_a_missing_neopixel_spi_library_is_a_device_error(without):
    without("neopixel_spi")
    with pytest.raises(DeviceError, match=r"LEDs \(neopixel_spi on SPI\): the neopixel_spi "
                                          r"library is not installed") as error:
        NeoPixelSpiStrip(4)
    assert isinstance(error.value.__cause__, ImportError)


def test_a_missing_neopixel_library_is_a_device_error(without):
    without("neopixel")
    with pytest.raises(DeviceError, match="the neopixel library is not installed") as error:
        NeoPixelStrip(4)
    assert isinstance(error.value.__cause__, ImportError)


def test_blinka_refusing_the_board_is_a_device_error(monkeypatch):
    real = leds.import_module

    def refuse(name):
        if name == "neopixel":
            raise NotImplementedError("Board not supported")
        return real(name)

    monkeypatch.setattr(leds, "import_module", refuse)
    with pytest.raises(DeviceError, match="not a Raspberry Pi") as error:
        NeoPixelStrip(4)
    assert isinstance(error.value.__cause__, NotImplementedError)


def fake_neopixel_spi(monkeypatch, error: Exception):
    module = types.ModuleType("neopixel_spi")

    def refuse(*args, **kwargs):
        raise error

    module.NeoPixel_SPI = refuse
    monkeypatch.setitem(sys.modules, "neopixel_spi", module)


def test_permission_denied_on_spidev_is_a_device_error_naming_the_file(monkeypatch):
    denied = PermissionError(13, "Permission denied", "/dev/spidev0.0")
    fake_neopixel_spi(monkeypatch, denied)
    with pytest.raises(DeviceError, match="permission denied on /dev/spidev0.0") as error:
        NeoPixelSpiStrip(4, spi=object(), label="profile kulami: LEDs")
    assert error.value.__cause__ is denied
    assert str(error.value).startswith("profile kulami: LEDs (neopixel_spi on SPI): ")


def test_a_strip_that_goes_away_in_use_is_a_disconnect_error(monkeypatch):
    class Pixels(list):
        def show(self):
            raise OSError(5, "Input/output error")

    module = types.ModuleType("neopixel_spi")
    module.NeoPixel_SPI = lambda spi, count, **kwargs: Pixels([(0, 0, 0)] * count)
    monkeypatch.setitem(sys.modules, "neopixel_spi", module)
    strip = NeoPixelSpiStrip(2, spi=object())
    with pytest.raises(DisconnectError, match="lost while in use") as error:
        strip.show([(1, 2, 3), (4, 5, 6)])
    assert isinstance(error.value.__cause__, OSError)


def test_a_pin_the_board_lacks_is_a_device_error_and_a_value_error(monkeypatch):
    monkeypatch.setenv("BLINKA_OS_AGNOSTIC", "1")
    with pytest.raises(NoSuchPinError, match="this board has no pin D99") as error:
        NeoPixelStrip(2, pin="D99")
    assert isinstance(error.value, DeviceError) and isinstance(error.value, ValueError)


def test_a_real_profile_never_gets_a_simulated_strip(without):
    without("neopixel_spi", "neopixel")
    for name in ("kulami", "akron"):
        with pytest.raises(DeviceError, match=f"^profile {name}: LEDs"):
            open_strip(load_profile(name))
    assert isinstance(open_strip(load_profile("kulami-sim")), SimulatedStrip)


def test_a_pin_in_use_is_a_device_error_naming_the_pin():
    from gpiozero import DigitalOutputDevice
    taken = DigitalOutputDevice(27)
    try:
        with pytest.raises(DeviceError, match="^buttons: confirm on GPIO27: ") as error:
            Buttons({"confirm": 27})
        assert type(error.value.__cause__).__name__ == "GPIOPinInUse"
        with pytest.raises(DeviceError, match="^sensor matrix: column GPIO27: "):
            MatrixScanner([5], [6, 27], {0: "a1", 1: "a2"})
    finally:
        taken.close()


@desktop_only
def test_no_gpio_on_this_machine_is_a_device_error_and_no_warning_noise(monkeypatch):
    from gpiozero import Device
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(Device, "pin_factory", None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(DeviceError, match="^buttons: confirm on GPIO27: no GPIO on this "
                                              "machine") as error:
            Buttons({"confirm": 27})
        with pytest.raises(DeviceError, match="^profile kulami: sensor matrix: row GPIO2: "
                                              "no GPIO on this machine"):
            open_source(load_profile("kulami"))
    assert type(error.value.__cause__).__name__ == "BadPinFactory"
    assert not [w for w in caught if "PinFactoryFallback" in type(w.message).__name__]


def test_a_matrix_that_goes_away_in_use_is_a_disconnect_error(monkeypatch):
    scanner = MatrixScanner([5], [6], {0: "a1"}, settle_us=0)
    try:
        def gone():
            raise OSError(19, "No such device")

        monkeypatch.setattr(scanner._rows[0], "on", gone)
        with pytest.raises(DisconnectError, match="^sensor matrix: lost while scanning") \
                as error:
            scanner.read()
        assert isinstance(error.value.__cause__, OSError)
    finally:
        monkeypatch.undo()
        scanner.close()


# --- one tree ------------------------------------------------------------------------

def test_the_errors_are_one_tree():
    assert issubclass(ProfileError, ConfigError)
    for error in (ConfigError, ProfileError, SensorLogError, DeviceError, DisconnectError,
                  NoSuchPinError, NoDisplayError, EngineError):
        assert issubclass(error, TabletopError), error
    assert issubclass(DisconnectError, DeviceError) and issubclass(NoDisplayError, DeviceError)
    # The names stay importable from where they were raised before.
    from app.hardware.profile import ProfileError as profile_error
    from app.table.sensorlog import SensorLogError as log_error
    from app.table.config import ConfigError as config_error
    assert (profile_error, config_error, log_error) == (ProfileError, ConfigError,
                                                        SensorLogError)
    assert engines.EngineError is EngineError


def test_every_error_class_of_the_app_and_engines_is_a_tabletop_error():
    found = []
    for package in (app, engines):
        for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if module.name.endswith("__main__"):
                continue
            for _, cls in inspect.getmembers(importlib.import_module(module.name),
                                             inspect.isclass):
                if (issubclass(cls, BaseException) and cls.__name__.endswith("Error")
                        and cls.__module__.split(".")[0] in ("app", "engines")):
                    found.append(cls)
    assert {cls.__name__ for cls in found} >= {"ConfigError", "ProfileError", "DeviceError",
                                               "SensorLogError", "NoDisplayError"}
    assert [cls for cls in found if not issubclass(cls, TabletopError)] == []


def test_a_command_leaves_no_log_handler_behind(tmp_path, capsys):
    """``tabletop run`` logs to stdout while it runs; in a process that goes on (the
    tests, any program calling main) its handler must not outlive it on a stream that
    may be closed by then."""
    import logging

    handlers = list(logging.getLogger().handlers)
    assert main(["run", "--profile", "nope"]) == 2
    assert main(["run", "--profile", "kulami-sim", "--config", str(config_file(tmp_path)),
                 "--log", str(tmp_path / "missing.jsonl")]) == 2
    assert logging.getLogger().handlers == handlers
    assert "Logging error" not in capsys.readouterr().err


def test_no_message_sends_people_to_the_package_index_for_tabletop():
    """``tabletop`` on the package index is another project: every message that says how
    to install an extra says it once, the same way (app.errors.install_extra): from the
    checkout, or into the environment systemd/install.sh made."""
    from app.errors import install_extra
    wrong = re.compile(r"tabletop\[|install tabletop\b")
    said = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
            for path in sorted((ROOT / "app").rglob("*.py"))
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if wrong.search(line)]
    assert said == []
    assert install_extra("firmware") == (
        "install Tabletop's [firmware] extra from its checkout: pip install '.[firmware]' "
        "there, or /opt/tabletop/venv/bin/pip install '/opt/tabletop/src[firmware]' on a "
        "Pi set up by systemd/install.sh")
    assert install_extra("pi", "gpiozero").startswith(
        "install Tabletop's [pi] extra from its checkout, which brings gpiozero: ")
