"""The system check before the self-test: each check against a Pi described as a folder
of files (device tree, device files with their owners and modes, /etc/group) and a user
who is not root, failing with the exact line that says what to do, and passing once the
folder is fixed. The GPIO and serial checks get their library as a callable."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.errors import DeviceError
from app.hardware import system_check as sc
from app.hardware.pi import Machine
from app.hardware.profile import load_profile
from app.hardware.system_check import Finding

KULAMI = load_profile("kulami")            # matrix sensors, 100 LEDs on SPI
BLOKUS = load_profile("blokus-duo")        # serial sensor board, 196 LEDs on SPI
SIMULATED = load_profile("kulami-sim")

PI4 = (b"raspberrypi,4-model-b\0brcm,bcm2711\0", b"Raspberry Pi 4 Model B Rev 1.4\0")
PI5 = (b"raspberrypi,5-model-b\0brcm,bcm2712\0", b"Raspberry Pi 5 Model B Rev 1.0\0")
GIDS = {"root": 0, "dialout": 20, "video": 44, "render": 105, "input": 106, "gpio": 997,
        "spi": 999, "tabletop": 1001}
TABLETOP = 1001


class FakePi:
    """A Raspberry Pi as a folder: its device tree, accounts and device files."""

    def __init__(self, root: Path, model=PI4, members=None) -> None:
        self.root = root
        if model is not None:
            self.write("/proc/device-tree/compatible", model[0])
            self.write("/proc/device-tree/model", model[1])
        self.members = dict(members or {})
        self.write_accounts()

    def write_accounts(self, gids=GIDS) -> None:
        self.write("/etc/passwd", b"root:x:0:0:root:/root:/bin/bash\n"
                                  b"tabletop:x:1001:1001::/var/lib/tabletop:/sbin/nologin\n")
        lines = [f"{name}:x:{gid}:{','.join(self.members.get(name, ()))}"
                 for name, gid in gids.items()]
        self.write("/etc/group", ("\n".join(lines) + "\n").encode())

    def write(self, absolute: str, data: bytes = b"", mode: int = 0o644, uid: int = 0,
              gid: int = 0) -> Path:
        path = self.root / absolute.lstrip("/")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        os.chown(path, uid, gid)
        os.chmod(path, mode)
        return path

    def device(self, absolute: str, group: str, mode: int = 0o660) -> Path:
        return self.write(absolute, mode=mode, gid=GIDS[group])

    def machine(self, *groups: str, uid: int = TABLETOP) -> Machine:
        return Machine(root=self.root, uid=uid,
                       groups=frozenset({TABLETOP, *(GIDS[g] for g in groups)}))


@pytest.fixture
def pi(tmp_path):
    return FakePi(tmp_path / "pi4")


@pytest.fixture
def pi5(tmp_path):
    return FakePi(tmp_path / "pi5", model=PI5)


def failures(findings):
    return [f.line for f in findings if not f.ok]


def never(*args):
    raise AssertionError(f"called with {args}")


class Factory:
    """A pin factory that records being closed."""

    closed = 0

    def close(self):
        Factory.closed += 1


def make_factories(**outcomes):
    """A make_factory callable: each name gives a Factory or raises what it maps to."""
    tried = []

    def make(name):
        tried.append(name)
        outcome = outcomes.get(name, LookupError(f"no {name}"))
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome()
    make.tried = tried
    return make


# --- the lines ----------------------------------------------------------------------------

def test_a_finding_prints_ok_fail_or_skip_in_one_column():
    assert str(Finding("SPI", True, "SPI: fine")) == "ok   SPI: fine"
    assert str(Finding("SPI", False, "SPI: off")) == "FAIL SPI: off"
    assert str(Finding("SPI", False, "SPI: no Pi", ran=False)) == "skip SPI: no Pi"
    assert [Finding("x", ok, "", ran).failed for ok, ran in
            ((True, True), (False, True), (False, False))] == [False, True, False]


# --- the machine --------------------------------------------------------------------------

def test_a_simulated_profile_checks_no_hardware(tmp_path):
    findings = sc.check_system(SIMULATED, Machine(root=tmp_path, uid=1001),
                               make_factory=never, find_port=never)
    assert findings == [Finding("system", True, "system: profile kulami-sim simulates its "
                                                "sensors and LEDs: no hardware to check")]


def test_a_real_profile_on_a_machine_that_is_no_pi_says_what_could_not_run(tmp_path):
    machine = Machine(root=tmp_path, uid=1001, groups=frozenset({1001}))
    findings = sc.check_system(KULAMI, machine, {}, make_factory=never, find_port=never)
    assert findings == [Finding(
        "machine", False,
        "machine: this is not a Raspberry Pi (unknown machine) and profile kulami's sensor "
        "matrix and SPI LEDs need one, so the SPI, GPIO, screen and touch checks (and the "
        "groups they need) could not run: run the self-test on the board's Pi", ran=False)]


def test_the_pi_is_named_by_its_model(pi, pi5):
    assert sc.check_machine(KULAMI, pi.machine()) == [Finding(
        "machine", True, "machine: Raspberry Pi 4 Model B Rev 1.4 (Raspberry Pi 4 or 400)")]
    assert sc.check_machine(KULAMI, pi5.machine())[0].line.endswith("(Raspberry Pi 5 or 500)")


def test_a_serial_board_needs_no_pi(tmp_path):
    mine = tmp_path / "pico-on-a-laptop.toml"
    mine.write_text('base = "blokus-duo"\n[leds]\ndriver = "simulated"\n'
                    'brightness = 1.0\nmax_ma = 3000\n')
    profile = load_profile(mine)
    machine = Machine(root=tmp_path / "laptop", uid=1001, groups=frozenset({1001}))
    assert sc.check_machine(profile, machine)[0].ok
    assert sc.pi_parts(profile) == [] and sc.pi_parts(KULAMI) == ["sensor matrix", "SPI LEDs"]


# --- groups -------------------------------------------------------------------------------

def test_a_group_the_user_is_not_in_says_how_to_join(pi):
    findings = sc.check_groups(pi.machine("gpio"), {"gpio": "the sensor matrix",
                                                   "spi": "the SPI LEDs"})
    assert failures(findings) == [
        "groups: the user tabletop is not in group spi (for the SPI LEDs): sudo "
        "usermod -a -G spi tabletop, then log in again (or restart the service)"]
    fixed = sc.check_groups(pi.machine("gpio", "spi"), {"gpio": "the sensor matrix",
                                                        "spi": "the SPI LEDs"})
    assert fixed == [Finding("groups", True, "groups: tabletop is in gpio and spi")]


def test_a_group_joined_after_the_login_asks_for_a_new_login(tmp_path):
    pi = FakePi(tmp_path, members={"spi": ["pi", "tabletop"]})
    assert failures(sc.check_groups(pi.machine(), {"spi": "the SPI LEDs"})) == [
        "groups: the user tabletop joined group spi after this login began: log in again "
        "(or restart the service)"]


def test_a_group_the_system_lacks_is_named(pi):
    pi.write_accounts({name: gid for name, gid in GIDS.items() if name != "spi"})
    assert failures(sc.check_groups(pi.machine("spi"), {"spi": "the SPI LEDs"})) == [
        "groups: this system has no group spi (for the SPI LEDs): Tabletop expects "
        "Raspberry Pi OS (Bookworm or later), which has it"]


def test_root_needs_no_group(pi):
    findings = sc.check_groups(pi.machine(uid=0), {"spi": "the SPI LEDs"})
    assert [f.ok for f in findings] == [True] and "root needs none" in findings[0].line


def test_the_groups_follow_what_the_profile_uses(pi):
    assert sc.groups_needed(KULAMI, pi.machine()) == {"gpio": "the sensor matrix",
                                                      "spi": "the SPI LEDs"}
    pi.device("/dev/dri/card0", "video")
    pi.device("/dev/dri/renderD128", "render")
    pi.device("/dev/input/event0", "input")
    assert sc.groups_needed(BLOKUS, pi.machine(), buttons=[5]) == {
        "gpio": "the buttons", "spi": "the SPI LEDs", "dialout": "the sensor board",
        "video": "the status screen", "render": "the status screen",
        "input": "the touch screen"}
    assert sc.groups_needed(SIMULATED, pi.machine()) == {
        "video": "the status screen", "render": "the status screen",
        "input": "the touch screen"}


def test_pwm_leds_on_a_pi_5_need_the_gpio_group(pi5, tmp_path):
    assert sc.groups_needed(pwm_profile(tmp_path), pi5.machine(), buttons=[5]) == {
        "gpio": "the buttons and the PWM LEDs (/dev/pio0)", "dialout": "the sensor board"}


# --- SPI ----------------------------------------------------------------------------------

def spi_ready(pi, bufsiz=b"8192\n"):
    pi.device("/dev/spidev0.0", "spi")
    if bufsiz is not None:
        pi.write("/sys/module/spidev/parameters/bufsiz", bufsiz)


def test_spi_off_says_how_to_turn_it_on(pi):
    assert failures(sc.check_spi(KULAMI, pi.machine("spi"), {})) == [
        "SPI: there is no /dev/spidev0.0, so SPI is off: run systemd/install.sh again (it "
        "turns SPI on) or sudo raspi-config nonint do_spi 0, then reboot"]


def test_a_kernel_buffer_too_small_for_the_chain_says_what_to_set(pi):
    spi_ready(pi, b"4096\n")
    assert failures(sc.check_spi(BLOKUS, pi.machine("spi"), {"SPI_BUFSIZE": "8192"})) == [
        "SPI: 196 LEDs need one SPI transfer of 4,832 bytes and the kernel's spidev buffer "
        "holds 4,096: run systemd/install.sh again (it adds spidev.bufsiz=8192 to the "
        "kernel command line) and reboot"]


def test_an_unknown_kernel_buffer_is_spidevs_default(pi):
    spi_ready(pi, bufsiz=None)
    assert "spidev buffer holds 4,096:" in failures(
        sc.check_spi(BLOKUS, pi.machine("spi"), {"SPI_BUFSIZE": "8192"}))[0]
    assert sc.check_spi(KULAMI, pi.machine("spi"), {}) == [Finding(
        "SPI", True, "SPI: /dev/spidev0.0, buffer 4,096 bytes (spidev's default) for 2,528")]


def test_spi_bufsize_too_small_splits_the_frame(pi):
    spi_ready(pi)
    for chunk in ("4096", "lots"):
        assert failures(sc.check_spi(BLOKUS, pi.machine("spi"), {"SPI_BUFSIZE": chunk})) == [
            f"SPI: SPI_BUFSIZE={chunk} would split a frame of 4,832 bytes into pieces the "
            f"LEDs take as separate frames: set SPI_BUFSIZE=8192 (install.sh writes it to "
            f"/etc/default/tabletop)"]


def test_spi_set_up_for_the_chain_passes(pi):
    spi_ready(pi)
    assert sc.check_spi(BLOKUS, pi.machine("spi"), {"SPI_BUFSIZE": "8192"}) == [Finding(
        "SPI", True, "SPI: /dev/spidev0.0, buffer 8,192 bytes, SPI_BUFSIZE 8192 for 4,832")]
    # unset, the strip sets SPI_BUFSIZE itself to what the frame needs
    assert sc.check_spi(BLOKUS, pi.machine("spi"), {"SPI_BUFSIZE": " "}) == [Finding(
        "SPI", True, "SPI: /dev/spidev0.0, buffer 8,192 bytes for 4,832")]
    # 100 LEDs fit in the defaults
    assert sc.check_spi(KULAMI, pi.machine("spi"), {})[0].ok


def test_an_spi_device_with_the_wrong_mode_is_told_from_a_missing_group(pi):
    spi_ready(pi)
    # only the spi group is missing: the groups check says so, SPI does not again
    assert sc.check_spi(KULAMI, pi.machine(), {})[0].ok
    pi.device("/dev/spidev0.0", "root", mode=0o600)
    assert failures(sc.check_spi(KULAMI, pi.machine("spi"), {})) == [
        "SPI: the user tabletop may not open /dev/spidev0.0 (owner root, group root, mode "
        "0600): Raspberry Pi OS gives it to group spi with mode 0660; look for the udev "
        "rule in /etc/udev/rules.d that changed it, then sudo udevadm trigger"]
    pi.device("/dev/spidev0.0", "gpio")
    assert failures(sc.check_spi(KULAMI, pi.machine("spi"), {})) == [
        "SPI: the user tabletop may not open /dev/spidev0.0 (owner root, group gpio, mode "
        "0660): sudo usermod -a -G gpio tabletop, then log in again (or restart the "
        "service)"]


# --- PWM LEDs -----------------------------------------------------------------------------

def pwm_profile(tmp_path):
    mine = tmp_path / "blokus-duo-pwm.toml"
    mine.write_text('base = "blokus-duo"\n[leds]\ndriver = "neopixel"\npin = "D18"\n'
                    'brightness = 0.4\nmax_ma = 3500\n')
    return load_profile(mine)


def test_pwm_leds_on_a_pi_4_need_root(pi, tmp_path):
    profile = pwm_profile(tmp_path)
    assert failures(sc.check_pwm_leds(profile, pi.machine("gpio"))) == [
        "PWM LEDs: NeoPixels on a PWM pin need root on a Raspberry Pi 4 or 400 (their "
        "driver maps /dev/mem) and this runs without: wire the LED data to GPIO 10 and set "
        "leds.driver = \"neopixel_spi\" in the profile"]
    assert sc.check_pwm_leds(profile, pi.machine(uid=0)) == [
        Finding("PWM LEDs", True, "PWM LEDs: NeoPixels on D18, running as root")]


def test_pwm_leds_on_a_pi_5_need_pio(pi5, tmp_path):
    profile = pwm_profile(tmp_path)
    assert not sc.check_pwm_leds(profile, pi5.machine("gpio"))[0].ok  # no /dev/pio0
    pi5.device("/dev/pio0", "gpio")
    assert not sc.check_pwm_leds(profile, pi5.machine())[0].ok
    assert sc.check_pwm_leds(profile, pi5.machine("gpio")) == [
        Finding("PWM LEDs", True, "PWM LEDs: NeoPixels on D18, through /dev/pio0")]


# --- GPIO ---------------------------------------------------------------------------------

def test_a_missing_gpio_library_says_where_to_install_it(pi5):
    make = make_factories(lgpio=ModuleNotFoundError("No module named 'lgpio'", name="lgpio"))
    assert failures(sc.check_gpio(pi5.machine(), {}, make, prefix="/opt/tabletop/venv")) == [
        "GPIO: gpiozero can make no pin factory on this Raspberry Pi 5 or 500 (lgpio: the "
        "lgpio library is missing): pip install lgpio into /opt/tabletop/venv, or run "
        "systemd/install.sh again"]
    assert make.tried == ["lgpio"]  # RPi.GPIO cannot drive a Pi 5


def test_a_gpio_chip_the_user_may_not_open_points_at_the_gpio_group(pi):
    class error(Exception):
        pass
    error.__module__ = "lgpio"
    make = make_factories(lgpio=error("can not open gpiochip"),
                          rpigpio=RuntimeError("No access to /dev/mem. Try running as root!"))
    assert failures(sc.check_gpio(pi.machine(), {}, make)) == [
        "GPIO: gpiozero can make no pin factory on this Raspberry Pi 4 or 400 (lgpio: "
        "lgpio: can not open gpiochip (is the user in the gpio group?); rpigpio: "
        "RuntimeError: No access to /dev/mem. Try running as root!): put the user in group "
        "gpio (see the groups line) and log in again"]


def test_a_pin_factory_that_opens_is_closed_again_and_earlier_failures_said(pi):
    Factory.closed = 0
    make = make_factories(lgpio=ModuleNotFoundError("no lgpio", name="lgpio"),
                          rpigpio=Factory)
    assert sc.check_gpio(pi.machine("gpio"), {}, make) == [Finding(
        "GPIO", True, "GPIO: gpiozero's rpigpio pin factory (lgpio failed: the lgpio "
                      "library is missing)")]
    assert Factory.closed == 1
    assert sc.check_gpio(pi.machine("gpio"), {}, make_factories(lgpio=Factory)) == [
        Finding("GPIO", True, "GPIO: gpiozero's lgpio pin factory")]
    assert Factory.closed == 2


def test_the_pin_factory_the_environment_names_is_the_one_tried(pi):
    make = make_factories(native=Factory)
    findings = sc.check_gpio(pi.machine("gpio"), {"GPIOZERO_PIN_FACTORY": "native"}, make)
    assert findings[0].ok and make.tried == ["native"]
    assert failures(sc.check_gpio(pi.machine("gpio"), {"GPIOZERO_PIN_FACTORY": "mock"},
                                  never)) == [
        "GPIO: GPIOZERO_PIN_FACTORY=mock makes gpiozero drive pretend pins, not the "
        "board's: unset it"]


def test_gpiozeros_own_factories_are_made_by_name():
    factory = sc.open_pin_factory("mock")
    try:
        assert type(factory).__name__ == "MockFactory"
    finally:
        factory.close()
    with pytest.raises(LookupError, match="no pin factory called 'nonesuch'"):
        sc.open_pin_factory("nonesuch")


# --- the sensor board ---------------------------------------------------------------------

def finder(answer):
    asked = []

    def find(spec, label):
        asked.append((spec, label))
        if isinstance(answer, BaseException):
            raise answer
        return answer
    find.asked = asked
    return find


def test_a_sensor_board_not_found_says_what_was_looked_for(pi):
    find = finder(DeviceError("sensor board: no sensor board found (/dev/tabletop-sensors "
                              "or a USB device 2e8a:0005): is it plugged in?"))
    assert failures(sc.check_serial(BLOKUS, pi.machine("dialout"), find)) == [
        "sensor board: port auto of profile blokus-duo: no sensor board found "
        "(/dev/tabletop-sensors or a USB device 2e8a:0005): is it plugged in?"]
    assert find.asked == [("auto", "sensor board")]


def test_a_sensor_board_path_that_is_not_there(pi):
    assert failures(sc.check_serial(BLOKUS, pi.machine("dialout"),
                                    finder("/dev/ttyACM0"))) == [
        "sensor board: there is no /dev/ttyACM0 (profile blokus-duo, port auto): is the "
        "sensor board plugged in? port = \"auto\" finds it by its USB id"]


def test_a_sensor_board_found_and_open_to_the_user(pi):
    pi.device("/dev/tabletop-sensors", "dialout")
    assert sc.check_serial(BLOKUS, pi.machine("dialout"),
                           finder("/dev/tabletop-sensors")) == [
        Finding("sensor board", True, "sensor board: /dev/tabletop-sensors (port auto)")]
    pi.device("/dev/ttyACM1", "dialout")
    assert sc.check_serial(BLOKUS, pi.machine("dialout"), finder("/dev/ttyACM1")) == [
        Finding("sensor board", True,
                "sensor board: /dev/ttyACM1 (port auto: no /dev/tabletop-sensors, found by "
                "its USB id; run systemd/install.sh again for the udev rule that names it)")]


def test_a_sensor_board_port_with_the_wrong_mode(pi):
    pi.device("/dev/tabletop-sensors", "root", mode=0o600)
    assert failures(sc.check_serial(BLOKUS, pi.machine("dialout"),
                                    finder("/dev/tabletop-sensors"))) == [
        "sensor board: the user tabletop may not open /dev/tabletop-sensors (owner root, "
        "group root, mode 0600): Raspberry Pi OS gives it to group dialout with mode 0660; "
        "look for the udev rule in /etc/udev/rules.d that changed it, then sudo udevadm "
        "trigger"]


# --- screen and touch ---------------------------------------------------------------------

def test_no_screen_is_no_failure(pi):
    assert sc.check_screen(pi.machine()) == [
        Finding("screen", True, "screen: no /dev/dri/card*: the board plays without a screen")]
    assert sc.check_touch(pi.machine()) == [
        Finding("touch", True, "touch: no /dev/input/event*: no touch screen")]


def test_a_screen_device_shut_to_the_user(pi):
    pi.device("/dev/dri/card0", "root", mode=0o600)
    pi.device("/dev/dri/card1", "video")
    assert failures(sc.check_screen(pi.machine("video"))) == [
        "screen: the user tabletop may not open /dev/dri/card0 (owner root, group root, "
        "mode 0600): Raspberry Pi OS gives it to group video with mode 0660; look for the "
        "udev rule in /etc/udev/rules.d that changed it, then sudo udevadm trigger"]
    pi.device("/dev/dri/card0", "video")
    pi.device("/dev/dri/renderD128", "render")
    assert sc.check_screen(pi.machine("video", "render")) == [Finding(
        "screen", True, "screen: /dev/dri/card0, /dev/dri/card1, /dev/dri/renderD128")]


def test_a_touch_screen_the_user_may_not_read(pi):
    pi.device("/dev/input/event0", "input", mode=0o620)  # no read for the group
    assert failures(sc.check_touch(pi.machine("input"))) == [
        "touch: the user tabletop may not open /dev/input/event0 (owner root, group input, "
        "mode 0620): Raspberry Pi OS gives it to group input with mode 0660; look for the "
        "udev rule in /etc/udev/rules.d that changed it, then sudo udevadm trigger"]
    pi.device("/dev/input/event0", "input", mode=0o640)  # read is all touch needs
    assert sc.check_touch(pi.machine("input"))[0].ok


# --- every check together -----------------------------------------------------------------

def dressed(pi):
    spi_ready(pi)
    pi.device("/dev/dri/card0", "video")
    pi.device("/dev/input/event0", "input")


def test_a_pi_set_up_for_the_profile_passes_every_check(pi):
    dressed(pi)
    findings = sc.check_system(KULAMI, pi.machine("gpio", "spi", "video", "input"), {},
                               make_factory=make_factories(lgpio=Factory), find_port=never)
    assert [str(f) for f in findings] == [
        "ok   machine: Raspberry Pi 4 Model B Rev 1.4 (Raspberry Pi 4 or 400)",
        "ok   groups: tabletop is in gpio, spi, video and input",
        "ok   SPI: /dev/spidev0.0, buffer 8,192 bytes for 2,528",
        "ok   GPIO: gpiozero's lgpio pin factory",
        "ok   screen: /dev/dri/card0",
        "ok   touch: /dev/input/event0"]


def test_a_pi_says_each_problem_once(pi):
    dressed(pi)
    findings = sc.check_system(BLOKUS, pi.machine("gpio", "video", "input"),
                               {"SPI_BUFSIZE": "4096"}, buttons=[5], make_factory=make_factories(lgpio=Factory),
                               find_port=finder("/dev/tabletop-sensors"))
    assert failures(findings) == [
        "groups: the user tabletop is not in group spi (for the SPI LEDs): sudo "
        "usermod -a -G spi tabletop, then log in again (or restart the service)",
        "groups: the user tabletop is not in group dialout (for the sensor board): "
        "sudo usermod -a -G dialout tabletop, then log in again (or restart the service)",
        "SPI: SPI_BUFSIZE=4096 would split a frame of 4,832 bytes into pieces the LEDs "
        "take as separate frames: set SPI_BUFSIZE=8192 (install.sh writes it to "
        "/etc/default/tabletop)",
        "sensor board: there is no /dev/tabletop-sensors (profile blokus-duo, port auto): "
        "is the sensor board plugged in? port = \"auto\" finds it by its USB id"]


# --- the self-test stops on a failed check ------------------------------------------------

def test_selftest_stops_before_the_lamps_when_a_check_fails(monkeypatch, capsys):
    from app.cli import main, selftest
    from app.table import assembly
    monkeypatch.setattr(selftest, "check_system", lambda profile, **kw: [
        Finding("machine", True, "machine: a Pi"),
        Finding("groups", False, "groups: join spi"),
        Finding("SPI", False, "SPI: turn it on")])
    monkeypatch.setattr(assembly, "open_strip", never)
    assert main(["selftest", "--profile", "kulami-sim"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "ok   machine: a Pi\nFAIL groups: join spi\nFAIL SPI: turn it on\n"
    assert captured.err == ("tabletop selftest: the system check found 2 problems (groups, "
                            "SPI): the FAIL lines above say what to do; the LEDs and "
                            "sensors were not tested\n")


def test_system_only_stops_after_the_checks(monkeypatch, capsys):
    from app.cli import main
    from app.table import assembly
    monkeypatch.setattr(assembly, "open_strip", never)
    assert main(["selftest", "--profile", "kulami-sim", "--system-only"]) == 0
    assert capsys.readouterr().out == ("ok   system: profile kulami-sim simulates its "
                                       "sensors and LEDs: no hardware to check\n")


def test_selftest_passes_the_configurations_buttons_to_the_check(tmp_path, monkeypatch):
    from app.cli import main, selftest
    asked = []
    monkeypatch.setattr(selftest, "check_system",
                        lambda profile, **kw: asked.append(kw["buttons"]) or [])
    config = tmp_path / "tabletop.toml"
    config.write_text("[buttons]\nhint = 5\nundo = 6\n")
    assert main(["selftest", "--profile", "kulami-sim", "--config", str(config),
                 "--system-only"]) == 0
    assert sorted(asked[0]) == [5, 6]


def test_checks_that_could_not_run_leave_the_rest_to_the_drivers(monkeypatch, capsys):
    from app.cli import main, selftest
    from app.table import assembly
    skipped = Finding("machine", False, "machine: not a Pi", ran=False)
    monkeypatch.setattr(selftest, "check_system", lambda profile, **kw: [skipped])

    def no_spi(profile):
        raise DeviceError("LEDs: no SPI bus")
    monkeypatch.setattr(assembly, "open_strip", no_spi)
    assert main(["selftest", "--profile", "kulami-sim"]) == 1
    assert capsys.readouterr().err == "tabletop selftest: LEDs: no SPI bus\n"
    # with --system-only nothing else would test: checks that could not run fail it
    assert main(["selftest", "--profile", "kulami-sim", "--system-only"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "skip machine: not a Pi\n"
    assert captured.err == "tabletop selftest: machine: not a Pi\n"


def this_machine_as_it_is() -> dict[str, str]:
    """The environment without the mock pins and OS-agnostic Blinka conftest.py sets."""
    return {key: value for key, value in os.environ.items()
            if key not in ("GPIOZERO_PIN_FACTORY", "BLINKA_OS_AGNOSTIC")}


@pytest.mark.skipif(Machine().model() is not None, reason="this machine is a Raspberry Pi")
@pytest.mark.parametrize("extra", [[], ["--system-only"]])
def test_tabletop_selftest_on_a_machine_that_is_no_pi_fails_in_one_line(extra):
    tabletop = Path(sys.executable).with_name("tabletop")
    done = subprocess.run([str(tabletop), "selftest", "--profile", "kulami", *extra],
                          capture_output=True, text=True, timeout=60,
                          env=this_machine_as_it_is())
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1
    assert done.stderr.startswith("tabletop selftest: ")
    assert "not a Raspberry Pi" in done.stderr
    assert done.stdout.startswith("skip machine: this is not a Raspberry Pi (unknown machine)")


# --- the console's pins and the pulled-up pins --------------------------------------------

from scripts.pi_check import SAMPLE_CMDLINE, SAMPLE_CONFIG  # noqa: E402  (a fresh card's)

KULAMI_CONSOLE = "GPIO 14 (sensor matrix row) and GPIO 15 (sensor matrix row)"


def boot_files(pi, config=SAMPLE_CONFIG, cmdline=SAMPLE_CMDLINE, folder="/boot/firmware"):
    pi.write(f"{folder}/config.txt", config.encode())
    pi.write(f"{folder}/cmdline.txt", cmdline.encode())


PI2 = (b"raspberrypi,2-model-b\0brcm,bcm2836\0", b"Raspberry Pi 2 Model B Rev 1.1\0")
ZERO_W = (b"raspberrypi,model-zero-w\0brcm,bcm2835\0", b"Raspberry Pi Zero W Rev 1.1\0")
CONSOLE_FAILS = (
    f"console pins: {KULAMI_CONSOLE}: the serial console runs on them "
    f"(console=serial0,115200 in /boot/firmware/cmdline.txt, and the UART there is on): "
    f"sudo raspi-config nonint do_serial_cons 1, or remove console=serial0,115200 from "
    f"cmdline.txt; then reboot")


def test_the_serial_console_on_the_profiles_pins_fails_with_how_to_turn_it_off(tmp_path):
    """A Pi 2's UART on GPIO 14 and 15 is on unless config.txt turns it off, so the
    console=serial0 of Raspberry Pi OS's own cmdline.txt is a console there."""
    pi2 = FakePi(tmp_path / "pi2", model=PI2)
    boot_files(pi2)
    assert failures(sc.check_console_pins(KULAMI, pi2.machine(), {})) == [CONSOLE_FAILS]
    boot_files(pi2, cmdline=SAMPLE_CMDLINE.replace("console=serial0,115200 ", ""))
    assert sc.check_console_pins(KULAMI, pi2.machine(), {}) == [Finding(
        "console pins", True, f"console pins: {KULAMI_CONSOLE}: the UART is on them "
                              f"(enable_uart=1 by default), though no console uses it; the "
                              f"scan takes them over: sudo raspi-config nonint do_serial_hw 1 "
                              f"turns it off, unless something else needs it", warn=True)]
    boot_files(pi2, config=SAMPLE_CONFIG + "enable_uart=0\n")
    assert sc.check_console_pins(KULAMI, pi2.machine(), {})[0] == Finding(
        "console pins", True, f"console pins: {KULAMI_CONSOLE}: no serial console on them "
                              f"(console=serial0,115200 is idle: the UART is off)")
    assert sc.check_console_pins(BLOKUS, pi2.machine(), {}) == []  # no GPIO 14 or 15


def test_a_pi_4s_console_is_on_the_pins_only_once_its_uart_is(pi):
    """A fresh card's console=serial0 is idle on a Pi 4, whose UART on the pins is off
    by default (Bluetooth has the other one): enable_uart=1, or an overlay that gives
    the pins the Bluetooth's UART, puts the console there."""
    boot_files(pi)
    assert sc.check_console_pins(KULAMI, pi.machine(), {})[0].line.endswith(
        "no serial console on them (console=serial0,115200 is idle: the UART is off)")
    boot_files(pi, config=SAMPLE_CONFIG + "[pi3]\nenable_uart=1\n")  # not a Pi 4's
    assert not sc.check_console_pins(KULAMI, pi.machine(), {})[0].warn
    boot_files(pi, config=SAMPLE_CONFIG + "enable_uart=1  # for a console cable\n")
    assert failures(sc.check_console_pins(KULAMI, pi.machine(), {})) == [CONSOLE_FAILS]
    boot_files(pi, config=SAMPLE_CONFIG + "dtoverlay=disable-bt\n")
    assert failures(sc.check_console_pins(KULAMI, pi.machine(), {})) == [CONSOLE_FAILS]


def test_a_zero_ws_uart_on_the_pins_is_off_by_default(tmp_path):
    zero_w = FakePi(tmp_path / "zero-w", model=ZERO_W)
    boot_files(zero_w)
    assert sc.check_console_pins(KULAMI, zero_w.machine(), {})[0].ok


def test_a_pi_5s_serial0_is_its_debug_connector_not_the_pins(pi5, tmp_path):
    boot_files(pi5)
    assert sc.check_console_pins(KULAMI, pi5.machine(), {})[0].ok
    boot_files(pi5, config=SAMPLE_CONFIG + "dtparam=uart0=on\n",
               cmdline=SAMPLE_CMDLINE.replace("serial0", "ttyAMA0"))
    [line] = failures(sc.check_console_pins(KULAMI, pi5.machine(), {}))
    assert "(console=ttyAMA0,115200 in /boot/firmware/cmdline.txt, and the UART there" in line


def test_the_boot_files_are_found_where_the_boot_configuration_finds_them(pi, tmp_path):
    assert sc.check_console_pins(KULAMI, pi.machine(), {}) == []  # none: nothing to say
    uart_on = SAMPLE_CONFIG + "enable_uart=1\n"
    boot_files(pi, config=uart_on, folder="/boot")  # before Bookworm
    assert not sc.check_console_pins(KULAMI, pi.machine(), {})[0].ok
    boot_files(pi, config=uart_on, folder="/elsewhere", cmdline="console=tty1 root=/dev/sda2\n")
    assert sc.check_console_pins(KULAMI, pi.machine(),
                                 {"TABLETOP_BOOT_DIR": "/elsewhere"})[0].warn


def test_the_self_test_stops_on_the_console_pins(pi):
    dressed(pi)
    boot_files(pi, config=SAMPLE_CONFIG + "enable_uart=1\n")
    findings = sc.check_system(KULAMI, pi.machine("gpio", "spi", "video", "input"), {},
                               make_factory=make_factories(lgpio=Factory), find_port=never)
    assert [f.check for f in findings if f.failed] == ["console pins"]
    from app.cli.selftest import system
    with pytest.raises(DeviceError, match=r"found 1 problem \(console pins\)"):
        system(findings, say=lambda line: None)


def swapped_kulami(tmp_path) -> Path:
    """Kulami's matrix with rows and columns swapped: GPIO 2, 3, 14 and 15 are columns."""
    text = (Path(sc.__file__).parent / "profiles" / "kulami.toml").read_text()
    rows = "row_pins = [2, 3, 4, 5, 6, 12, 13, 14, 15, 16]"
    columns = "column_pins = [17, 18, 19, 20, 21, 22, 23, 24, 25, 26]"
    assert rows in text and columns in text
    text = text.replace(rows, "row_pins = [17, 18, 19, 20, 21, 22, 23, 24, 25, 26]")
    text = text.replace(columns, "column_pins = [2, 3, 4, 5, 6, 12, 13, 14, 15, 16]")
    path = tmp_path / "swapped.toml"
    path.write_text(text)
    return path


def test_gpio_2_or_3_as_a_column_is_a_warning_that_stops_nothing(pi, tmp_path):
    assert sc.check_pull_ups(KULAMI, buttons=[2]) == []  # rows and a button: no harm
    swapped = load_profile(str(swapped_kulami(tmp_path)))
    [warning] = sc.check_pull_ups(swapped)
    assert str(warning) == (
        "warn pull-ups: GPIO 2 (sensor matrix column) and GPIO 3 (sensor matrix column): "
        "the Pi holds GPIO 2 and 3 up to 3.3 V through fixed 1.8 kOhm resistors, which "
        "outweigh the pull-down the scan reads a column with, so every hole on it would "
        "read as taken: swap it with a row pin in the profile and the wiring")
    assert warning.ok and not warning.failed
    dressed(pi)
    findings = sc.check_system(swapped, pi.machine("gpio", "spi", "video", "input"), {},
                               make_factory=make_factories(lgpio=Factory), find_port=never)
    assert warning in findings and not any(f.failed for f in findings)


def test_i2c_turned_on_takes_gpio_2_and_3_a_warning(pi):
    boot_files(pi)
    assert sc.check_i2c_pins(KULAMI, pi.machine(), {}) == []  # I2C off: raspi-config's default
    boot_files(pi, config=SAMPLE_CONFIG + "dtparam=i2c_arm=on,spi=on\n")
    assert [str(f) for f in sc.check_i2c_pins(KULAMI, pi.machine(), {})] == [
        "warn I2C pins: GPIO 2 (sensor matrix row) and GPIO 3 (sensor matrix row): "
        "config.txt turns I2C on (dtparam=i2c_arm=on in /boot/firmware/config.txt), whose "
        "driver takes them for SDA and SCL: sudo raspi-config nonint do_i2c 1, then reboot"]
    assert sc.check_i2c_pins(BLOKUS, pi.machine(), {}, buttons=[5]) == []  # not 2 or 3
