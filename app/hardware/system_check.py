"""Whether this machine lets a board's profile run: checked before any LED lights.

A Pi set up by hand, or by ``systemd/install.sh`` before a reboot or a new login, fails
in ways a driver reports late and far from the cause: SPI left off, the kernel's SPI
buffer too small for the chain, a group the user is not in (yet), a GPIO library
missing. ``tabletop selftest`` runs these checks first and prints one line for each
(``ok``, ``FAIL`` or ``skip``), a failure saying exactly what to run or change, before it
tries the LEDs and the sensors.

Each check is a small function returning :class:`Finding` values, plain data; a check
that passes gives one ``ok`` line, one that fails one line for each thing to fix.
Everything is read through :class:`~app.hardware.pi.Machine` (a root folder, a user and
their groups), user and group names from the machine's own ``/etc/passwd`` and
``/etc/group``, so the tests describe a Pi 4 or a Pi 5 as a folder of files. The two
checks that need a library, gpiozero's pin factory and pyserial's port list, take it as
a callable. A simulated profile has no hardware to check. On a machine that is not a
Raspberry Pi the Pi's checks cannot run: one line says so and names them, and the
drivers, which try the real thing, say what they cannot open.

The boot files (config.txt, cmdline.txt: :class:`~app.hardware.pi.BootFiles`) say
whether the serial console, the UART or I2C holds pins the profile uses; GPIO 2 and 3
as a matrix column are a warning wherever they are (their fixed pull-ups). A warning
(``warn``) stops nothing.

Device files belong to the groups Raspberry Pi OS gives them (``/dev/spidev*`` to spi,
``/dev/dri/card*`` to video, ...). The groups check says which of those the user is
missing; a device check complains only of what joining that group would not fix (a mode
changed, a file given to another group), so every cause is said once.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass

from app.errors import DeviceError, describe, install_extra
from app.hardware.lgpio_dir import PIPE_FIX, pipe_problem
from app.hardware.pi import BootFiles, Machine, PiModel, check_led_path
from app.hardware.profile import Profile
from app.hardware.sensors import gpio_problem
from app.hardware.spi import (BUFSIZ_FILE, DEFAULT_BUFSIZ, kernel_bufsiz, transfer_bytes,
                              transfer_problems)

#: The SPI device ``neopixel_spi`` writes to (SPI0, chip select 0).
SPI_DEVICE = "/dev/spidev0.0"
#: Device files the status screen and the touch screen open, with the group Raspberry
#: Pi OS gives them and whether they are opened for writing too.
SCREEN_DEVICES = (("/dev/dri", "card*", "video", True),
                  ("/dev/dri", "renderD*", "render", True))
TOUCH_DEVICES = (("/dev/input", "event*", "input", False),)
#: GPIO 14 and 15: the UART's TXD and RXD, where a serial console runs.
CONSOLE_PINS = (14, 15)
#: The overlays that give GPIO 14 and 15 the PL011 back from Bluetooth, which turns
#: the UART there on by default.
BLUETOOTH_OFF_PINS = frozenset({"disable-bt", "pi3-disable-bt", "miniuart-bt",
                                "pi3-miniuart-bt"})
#: GPIO 2 and 3 (I2C1's SDA and SCL) carry the Pi's own 1.8 kOhm pull-ups to 3.3 V.
PULLED_UP_PINS = (2, 3)
#: The order the groups are checked and listed in (install.sh's order).
GROUP_ORDER = ("gpio", "spi", "dialout", "video", "render", "input")
#: The libraries gpiozero's pin factories load, by the name their import fails with.
GPIO_PACKAGES = {"lgpio": "lgpio", "RPi": "RPi.GPIO", "pigpio": "pigpio",
                 "gpiozero": "gpiozero"}


@dataclass(frozen=True)
class Finding:
    """One line of the system check: which check, whether it found nothing to fix, and
    the line (the check's name, what was found, and for a failure what to do). A check
    that could not run (``ran`` false) is not ok, and not a failure either: nothing was
    looked at."""

    check: str
    ok: bool
    line: str
    ran: bool = True
    #: Something that may well go wrong, said, that stops nothing (``ok`` is true).
    warn: bool = False

    @property
    def failed(self) -> bool:
        return self.ran and not self.ok

    def __str__(self) -> str:
        mark = "warn" if self.warn else "ok" if self.ok else "FAIL" if self.ran else "skip"
        return f"{mark:<4} {self.line}"


def _ok(check: str, text: str) -> Finding:
    return Finding(check, True, f"{check}: {text}")


def _fail(check: str, text: str) -> Finding:
    return Finding(check, False, f"{check}: {text}")


# --- users and groups, as the machine names them ------------------------------------------

@dataclass(frozen=True)
class Accounts:
    """User and group names from the machine's ``/etc/passwd`` and ``/etc/group``
    (missing files: no names, and ids are shown as numbers)."""

    users: Mapping[int, str]
    primary: Mapping[str, int]
    groups: Mapping[str, int]
    members: Mapping[str, frozenset[str]]

    @classmethod
    def read(cls, machine: Machine) -> "Accounts":
        users, primary, groups, members = {}, {}, {}, {}
        for fields in _colon_file(machine, "/etc/passwd", 4):
            if fields[2].isdigit() and fields[3].isdigit():
                users.setdefault(int(fields[2]), fields[0])
                primary[fields[0]] = int(fields[3])
        for fields in _colon_file(machine, "/etc/group", 4):
            if fields[2].isdigit():
                groups[fields[0]] = int(fields[2])
                members[fields[0]] = frozenset(n for n in fields[3].split(",") if n)
        return cls(users, primary, groups, members)

    def user_name(self, uid: int) -> str:
        return self.users.get(uid, str(uid))

    def group_name(self, gid: int) -> str:
        return next((name for name, g in self.groups.items() if g == gid), str(gid))

    def login(self, uid: int) -> str:
        """The user's name for a command line (``$(id -un)`` when /etc/passwd has none)."""
        return self.users.get(uid, "$(id -un)")

    def listed_in(self, uid: int, group: str) -> bool:
        """Whether /etc/group (or the user's primary group) puts the user in ``group``."""
        name = self.users.get(uid)
        return name is not None and (name in self.members.get(group, ())
                                     or self.primary.get(name) == self.groups.get(group))


def _colon_file(machine: Machine, absolute: str, width: int) -> list[list[str]]:
    try:
        text = machine.path(absolute).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    rows = []
    for line in text.splitlines():
        fields = line.split(":")
        if len(fields) >= width and not line.startswith("#"):
            rows.append(fields)
    return rows


def _join_group(accounts: Accounts, uid: int, group: str) -> str:
    login = accounts.login(uid)
    return f"sudo usermod -a -G {group} {login}, then log in again (or restart the service)"


def _access_problem(machine: Machine, accounts: Accounts, absolute: str, group: str,
                    write: bool = True) -> str | None:
    """Why this user may not open the device file ``absolute``, as a phrase with the fix;
    ``None`` when it may, or when only membership of ``group`` (which the device has, and
    the groups check asks for) is missing."""
    if machine.can_open(absolute, write):
        return None
    try:
        info = machine.path(absolute).stat()
    except OSError:
        return f"there is no {absolute}"
    wanted = stat.S_IRGRP | (stat.S_IWGRP if write else 0)
    group_would_do = info.st_mode & wanted == wanted and info.st_uid != machine.uid
    owner, held_by = accounts.user_name(info.st_uid), accounts.group_name(info.st_gid)
    if group_would_do and held_by == group:
        return None
    user = f"the user {accounts.user_name(machine.uid)}"
    where = (f"{absolute} (owner {owner}, group {held_by}, mode "
             f"{stat.S_IMODE(info.st_mode):04o})")
    if group_would_do:
        return (f"{user} may not open {where}: "
                f"{_join_group(accounts, machine.uid, held_by)}")
    return (f"{user} may not open {where}: Raspberry Pi OS gives it to group {group} "
            f"with mode 0660; look for the udev rule in /etc/udev/rules.d that changed "
            f"it, then sudo udevadm trigger")


# --- what a profile uses ------------------------------------------------------------------

#: Sensor drivers that need a Raspberry Pi's own GPIO.
PI_SENSORS = frozenset({"matrix"})


def is_simulated(profile: Profile) -> bool:
    return profile.sensors.driver == "simulated" and profile.leds.driver == "simulated"


def pi_parts(profile: Profile, buttons: Collection[int] = ()) -> list[str]:
    """The parts of the board that need a Raspberry Pi's own GPIO or SPI, in words."""
    parts = []
    if profile.sensors.driver in PI_SENSORS:
        parts.append("sensor matrix")
    if profile.leds.driver == "neopixel_spi":
        parts.append("SPI LEDs")
    elif profile.leds.driver == "neopixel":
        parts.append("PWM LEDs")
    if buttons:
        parts.append("buttons")
    return parts


def uses_gpio(profile: Profile, buttons: Collection[int] = ()) -> bool:
    return profile.sensors.driver in PI_SENSORS or bool(buttons)


def uses_serial(profile: Profile) -> bool:
    return "serial" in (profile.sensors.driver, profile.leds.driver)


def _present(machine: Machine, devices) -> list[tuple[str, str, bool]]:
    """The device files that exist: (absolute path, expected group, opened to write)."""
    found = []
    for folder, pattern, group, write in devices:
        for path in sorted(machine.path(folder).glob(pattern)):
            found.append((f"{folder}/{path.name}", group, write))
    return found


def groups_needed(profile: Profile, machine: Machine,
                  buttons: Collection[int] = ()) -> dict[str, str]:
    """Each group the user needs for this profile on this machine -> what needs it.
    The Pi's own hardware counts on a Pi only; the screen and touch groups where their
    device files are there."""
    needs: dict[str, list[str]] = {}
    model = machine.model()
    if model is not None:
        if profile.sensors.driver in PI_SENSORS:
            needs.setdefault("gpio", []).append("the sensor matrix")
        if buttons:
            needs.setdefault("gpio", []).append("the buttons")
        if profile.leds.driver == "neopixel" and not model.pwm_needs_root:
            needs.setdefault("gpio", []).append(f"the PWM LEDs ({model.pwm_neopixels})")
        if profile.leds.driver == "neopixel_spi":
            needs.setdefault("spi", []).append("the SPI LEDs")
        for _, group, _ in _present(machine, SCREEN_DEVICES):
            needs.setdefault(group, ["the status screen"])
        for _, group, _ in _present(machine, TOUCH_DEVICES):
            needs.setdefault(group, ["the touch screen"])
    if uses_serial(profile):
        needs.setdefault("dialout", []).append("the sensor board")
    return {group: " and ".join(needs[group]) for group in GROUP_ORDER if group in needs}


# --- the checks ---------------------------------------------------------------------------

def check_machine(profile: Profile, machine: Machine,
                  buttons: Collection[int] = ()) -> list[Finding]:
    """The model; on a machine that is not a Pi, if the profile needs one, a finding
    that did not run, naming the checks that could not."""
    model = machine.model()
    if model is not None:
        return [_ok("machine", f"{machine.model_name()} ({model.title})")]
    parts = pi_parts(profile, buttons)
    if not parts:
        return [_ok("machine", f"{machine.model_name()}, not a Raspberry Pi: profile "
                               f"{profile.name} needs none")]
    skipped = [name for name, applies in (
        ("SPI", profile.leds.driver == "neopixel_spi"),
        ("PWM LEDs", profile.leds.driver == "neopixel"),
        ("GPIO", uses_gpio(profile, buttons)), ("screen", True), ("touch", True))
        if applies]
    return [Finding("machine", False,
                    f"machine: this is not a Raspberry Pi ({machine.model_name()}) and "
                    f"profile {profile.name}'s {_words(parts)} need one, so the "
                    f"{_words(skipped)} checks (and the groups they need) could not run: "
                    f"run the self-test on the board's Pi", ran=False)]


def _words(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def check_groups(machine: Machine, needed: Mapping[str, str],
                 accounts: Accounts | None = None) -> list[Finding]:
    """The user is in every group in ``needed`` (group -> what needs it), in this login."""
    accounts = accounts or Accounts.read(machine)
    if machine.is_root:
        return [_ok("groups", "root needs none (the service runs as the tabletop user: "
                              "sudo -u tabletop /opt/tabletop/venv/bin/tabletop selftest "
                              "checks its groups)")]
    user = accounts.user_name(machine.uid)
    findings = []
    for group, what in needed.items():
        gid = accounts.groups.get(group)
        if gid is None:
            findings.append(_fail("groups", f"this system has no group {group} (for "
                                            f"{what}): Tabletop expects Raspberry Pi OS "
                                            f"(Bookworm or later), which has it"))
        elif gid in machine.groups:
            continue
        elif accounts.listed_in(machine.uid, group):
            findings.append(_fail("groups", f"the user {user} joined group {group} after "
                                            f"this login began: log in again (or restart "
                                            f"the service)"))
        else:
            findings.append(_fail("groups", f"the user {user} is not in group {group} "
                                            f"(for {what}): "
                                            f"{_join_group(accounts, machine.uid, group)}"))
    if not findings:
        held = _words(list(needed)) if needed else "every group it needs (none)"
        findings.append(_ok("groups", f"{user} is in {held}"))
    return findings


def check_spi(profile: Profile, machine: Machine, environ: Mapping[str, str] = os.environ,
              accounts: Accounts | None = None) -> list[Finding]:
    """SPI is on, this user may open it, and one frame of the chain fits in one transfer:
    the kernel's spidev buffer and Adafruit_PureIO's chunk (``SPI_BUFSIZE``)."""
    accounts = accounts or Accounts.read(machine)
    count, order = profile.led_count, profile.leds.pixel_order
    needed = transfer_bytes(count, order)
    if not machine.exists(SPI_DEVICE):
        return [_fail("SPI", f"there is no {SPI_DEVICE}, so SPI is off: run "
                             f"systemd/install.sh again (it turns SPI on) or sudo "
                             f"raspi-config nonint do_spi 0, then reboot")]
    findings = []
    problem = _access_problem(machine, accounts, SPI_DEVICE, "spi")
    if problem:
        findings.append(_fail("SPI", problem))
    kernel = kernel_bufsiz(machine.path(str(BUFSIZ_FILE)))
    # /dev/spidev0.0 is there, so spidev is loaded: a buffer it does not show is its own
    # default. SPI_BUFSIZE unset is fine: the strip sets it to the frame's size itself.
    buffer = DEFAULT_BUFSIZ if kernel is None else kernel
    findings += [_fail("SPI", problem)
                 for problem in transfer_problems(count, order, buffer, environ)]
    chunk = environ.get("SPI_BUFSIZE", "").strip()
    if findings:
        return findings
    kernel_said = f"{buffer:,} bytes" + (" (spidev's default)" if kernel is None else "")
    chunk_said = f", SPI_BUFSIZE {chunk}" if chunk else ""
    return [_ok("SPI", f"{SPI_DEVICE}, buffer {kernel_said}{chunk_said} for {needed:,}")]


def check_pwm_leds(profile: Profile, machine: Machine) -> list[Finding]:
    """NeoPixels on a PWM pin: what :func:`~app.hardware.pi.check_led_path` refuses."""
    try:
        check_led_path(profile.leds.driver, "PWM LEDs", machine)
    except DeviceError as error:
        return [Finding("PWM LEDs", False, describe(error))]
    model = machine.model()
    how = ("running as root" if model is None or model.pwm_needs_root
           else f"through {model.pwm_neopixels}")
    return [_ok("PWM LEDs", f"NeoPixels on {profile.leds.pin or 'a PWM pin'}, {how}")]


def open_pin_factory(name: str):
    """gpiozero's pin factory called ``name`` (``lgpio``, ``rpigpio``), made as gpiozero
    makes the one ``GPIOZERO_PIN_FACTORY`` names; whatever fails is raised."""
    import gpiozero  # noqa: F401  (its absence is the first thing to report)
    from importlib.metadata import entry_points
    for entry in entry_points(group="gpiozero_pin_factories"):
        if entry.name == name.lower():
            return entry.load()()
    raise LookupError(f"gpiozero has no pin factory called {name!r}")


def check_gpio(machine: Machine, environ: Mapping[str, str] = os.environ,
               make_factory: Callable[[str], object] = open_pin_factory,
               prefix: str = sys.prefix) -> list[Finding]:
    """One of gpiozero's pin factories for this model (the one ``GPIOZERO_PIN_FACTORY``
    names, if set) can be made here: it is made and closed again, and the failures of
    those tried before it are said. ``prefix`` is the environment to install into."""
    model = machine.model()
    forced = environ.get("GPIOZERO_PIN_FACTORY", "").strip()
    if forced.lower() == "mock":
        return [_fail("GPIO", "GPIOZERO_PIN_FACTORY=mock makes gpiozero drive pretend "
                              "pins, not the board's: unset it")]
    names = (forced,) if forced else (model.pin_factories if model else ("lgpio",))
    failures: list[tuple[str, BaseException]] = []
    for name in names:
        try:
            factory = make_factory(name)
        except Exception as error:
            failures.append((name, error))
            continue
        try:
            factory.close()
        except Exception:
            pass  # made is what mattered; a factory that will not close holds nothing new
        said = f"gpiozero's {name} pin factory"
        if forced:
            said += " (GPIOZERO_PIN_FACTORY)"
        if failures:
            said += " (" + "; ".join(f"{n} failed: {_gpio_said(e)}"
                                     for n, e in failures) + ")"
        return [_ok("GPIO", said)]
    details = "; ".join(f"{n}: {_gpio_said(e)}" for n, e in failures)
    where = model.title if model else machine.model_name()
    first = failures[0][1]
    return [_fail("GPIO", f"gpiozero can make no pin factory on this {where} ({details}): "
                          f"{_gpio_fix(first, prefix)}")]


def _gpio_said(error: BaseException) -> str:
    """What went wrong making a pin factory, as a phrase."""
    pipe = pipe_problem(describe(error))
    if pipe is not None:
        return pipe
    if isinstance(error, ImportError):
        missing = (error.name or "").split(".")[0]
        if missing in GPIO_PACKAGES:
            return f"the {GPIO_PACKAGES[missing]} library is missing"
    return gpio_problem(error)


def _gpio_fix(error: BaseException, prefix: str) -> str:
    """What to do about the best pin factory's failure."""
    if pipe_problem(describe(error)) is not None:
        return PIPE_FIX
    if isinstance(error, ImportError):
        missing = (error.name or "").split(".")[0]
        package = GPIO_PACKAGES.get(missing, missing or "gpiozero")
        if package == "gpiozero":
            return f"{install_extra('pi')}; or run systemd/install.sh again"
        return f"pip install {package} into {prefix}, or run systemd/install.sh again"
    text = describe(error).lower()
    if isinstance(error, PermissionError) or "gpiochip" in text or "permission" in text:
        return "put the user in group gpio (see the groups line) and log in again"
    if "busy" in text:
        return "stop what holds the GPIO (sudo systemctl stop tabletop), then try again"
    return "run systemd/install.sh again, which installs the GPIO libraries"


def check_serial(profile: Profile, machine: Machine,
                 find_port: Callable[[str, str], str] | None = None,
                 accounts: Accounts | None = None) -> list[Finding]:
    """The sensor board's port is found the way the serial driver finds it (``auto``,
    a path, ``usb:VID:PID``) and this user may open it; it is not opened (the service
    may hold it, and opening a port is the driver's business)."""
    from app.hardware import serial_board
    find_port = find_port or serial_board.find_port
    accounts = accounts or Accounts.read(machine)
    spec = profile.sensors.port
    try:
        path = find_port(spec, "sensor board")
    except DeviceError as error:
        text = describe(error).removeprefix("sensor board: ")
        return [_fail("sensor board", f"port {spec} of profile {profile.name}: {text}")]
    if "://" in path:
        return [_ok("sensor board", f"{path}, a pyserial URL, which only opening can test")]
    if not machine.exists(path):
        return [_fail("sensor board", f"there is no {path} (profile {profile.name}, port "
                                      f"{spec}): is the sensor board plugged in? port = "
                                      f"\"auto\" finds it by its USB id")]
    problem = _access_problem(machine, accounts, path, "dialout")
    if problem:
        return [_fail("sensor board", problem)]
    note = ""
    if path != spec.strip():
        note = f" (port {spec}"
        if spec.strip() == "auto" and path != serial_board.UDEV_NAME:
            note += (f": no {serial_board.UDEV_NAME}, found by its USB id; run "
                     f"systemd/install.sh again for the udev rule that names it")
        note += ")"
    return [_ok("sensor board", f"{path}{note}")]


def _check_devices(check: str, machine: Machine, devices, none: str,
                   accounts: Accounts) -> list[Finding]:
    present = _present(machine, devices)
    if not present:
        return [_ok(check, none)]
    findings = []
    for absolute, group, write in present:
        problem = _access_problem(machine, accounts, absolute, group, write)
        if problem:
            findings.append(_fail(check, problem))
    return findings or [_ok(check, ", ".join(absolute for absolute, _, _ in present))]


def gpio_roles(profile: Profile, buttons: Collection[int] = ()) -> dict[int, str]:
    """Each of the Pi's GPIO pins the profile and the buttons use -> what it is."""
    roles = {}
    if profile.sensors.driver in PI_SENSORS:
        roles.update({pin: "sensor matrix row" for pin in profile.sensors.row_pins})
        roles.update({pin: "sensor matrix column" for pin in profile.sensors.column_pins})
    for pin in buttons:
        roles.setdefault(pin, "button")
    return roles


def _pins_said(roles: Mapping[int, str]) -> str:
    return _words([f"GPIO {pin} ({role})" for pin, role in sorted(roles.items())])


def check_console_pins(profile: Profile, machine: Machine,
                       environ: Mapping[str, str] = os.environ,
                       buttons: Collection[int] = ()) -> list[Finding]:
    """GPIO 14 and 15, where the profile uses them, carry no serial console by the boot
    files: a console there writes the kernel's log into the pins and reads a login from
    them while the scan drives and reads them. The console is there when cmdline.txt
    names one on the pins and the UART there is on (pi_models.toml says how each model
    turns it on, and whether it is on by default)."""
    used = {pin: role for pin, role in gpio_roles(profile, buttons).items()
            if pin in CONSOLE_PINS}
    model, boot = machine.model(), BootFiles.read(machine, environ)
    if not used or model is None or boot is None:
        return []
    pins = _pins_said(used)
    consoles = [word for word in boot.cmdline if word.startswith("console=")
                and word.partition("=")[2].partition(",")[0] in model.consoles_on_pins]
    uart_on = _uart_on(model, boot, machine)
    if consoles and uart_on:
        console = " ".join(consoles)
        return [_fail("console pins", (
            f"{pins}: the serial console runs on them ({console} in {boot.folder}/"
            f"cmdline.txt, and the UART there is on): sudo raspi-config nonint "
            f"do_serial_cons 1, or remove {console} from cmdline.txt; then reboot"))]
    if uart_on:
        return [Finding("console pins", True, (
            f"console pins: {pins}: the UART is on them ({model.uart_on_pins}"
            f"{'' if _uart_setting(model, boot) else ' by default'}), though no console "
            f"uses it; the scan takes them over: sudo raspi-config nonint do_serial_hw 1 "
            f"turns it off, unless something else needs it"), warn=True)]
    idle = f" ({' '.join(consoles)} is idle: the UART is off)" if consoles else ""
    return [_ok("console pins", f"{pins}: no serial console on them{idle}")]


def _uart_setting(model: PiModel, boot: BootFiles) -> str | None:
    """What config.txt says of the UART on GPIO 14 and 15 (``1``, ``off``), if anything."""
    name, _, value = model.uart_on_pins.partition("=")
    if name == "dtparam":
        return boot.dtparams().get(value.partition("=")[0])
    return boot.setting(name)


def _uart_on(model: PiModel, boot: BootFiles, machine: Machine) -> bool:
    """Whether the UART on GPIO 14 and 15 is on: as config.txt sets it, else the model's
    default (on where the pins have the PL011: a board without Bluetooth, or one whose
    Bluetooth an overlay moved off it)."""
    setting = _uart_setting(model, boot)
    if setting is not None:
        return setting == model.uart_on_pins.rpartition("=")[2]
    if model.uart_on_pins.startswith("dtparam="):
        return model.uart_on_by_default  # a Pi 5: no Bluetooth on these pins to move
    bluetooth = "Zero W" in machine.model_name()  # the Pi 1's chip, with Bluetooth
    moved = any(name in BLUETOOTH_OFF_PINS for name in boot.overlays())
    return (model.uart_on_by_default and not bluetooth) or moved


def check_i2c_pins(profile: Profile, machine: Machine,
                   environ: Mapping[str, str] = os.environ,
                   buttons: Collection[int] = ()) -> list[Finding]:
    """A warning where the profile uses GPIO 2 or 3 and config.txt turns I2C on: its
    driver takes those pins for SDA and SCL."""
    used = {pin: role for pin, role in gpio_roles(profile, buttons).items()
            if pin in PULLED_UP_PINS}
    boot = BootFiles.read(machine, environ) if used else None
    if boot is None or boot.dtparams().get("i2c_arm", "off") != "on":
        return []
    return [Finding("I2C pins", True, (
        f"I2C pins: {_pins_said(used)}: config.txt turns I2C on (dtparam=i2c_arm=on in "
        f"{boot.folder}/config.txt), whose driver takes them for SDA and SCL: sudo "
        f"raspi-config nonint do_i2c 1, then reboot"), warn=True)]


def check_pull_ups(profile: Profile, buttons: Collection[int] = ()) -> list[Finding]:
    """A warning for GPIO 2 or 3 where their fixed pull-ups matter: a sensor matrix
    column, which the scan reads with a weak pull-down. (A row is driven, and a button
    pulls up itself: the pull-up does them no harm.)"""
    columns = {pin: role for pin, role in gpio_roles(profile, buttons).items()
               if pin in PULLED_UP_PINS and role == "sensor matrix column"}
    if not columns:
        return []
    return [Finding("pull-ups", True, (
        f"pull-ups: {_pins_said(columns)}: the Pi holds GPIO 2 and 3 up to 3.3 V through "
        f"fixed 1.8 kOhm resistors, which outweigh the pull-down the scan reads a column "
        f"with, so every hole on it would read as taken: swap it with a row pin in the "
        f"profile and the wiring"), warn=True)]


def check_screen(machine: Machine, accounts: Accounts | None = None) -> list[Finding]:
    """The status screen's KMS/DRM devices, where there are any, can be opened."""
    return _check_devices("screen", machine, SCREEN_DEVICES,
                          "no /dev/dri/card*: the board plays without a screen",
                          accounts or Accounts.read(machine))


def check_touch(machine: Machine, accounts: Accounts | None = None) -> list[Finding]:
    """The input devices (the touch screen), where there are any, can be read."""
    return _check_devices("touch", machine, TOUCH_DEVICES,
                          "no /dev/input/event*: no touch screen",
                          accounts or Accounts.read(machine))


def check_system(profile: Profile, machine: Machine | None = None,
                 environ: Mapping[str, str] = os.environ, *,
                 buttons: Collection[int] = (),
                 make_factory: Callable[[str], object] = open_pin_factory,
                 find_port: Callable[[str, str], str] | None = None) -> list[Finding]:
    """Every check that applies to ``profile`` (and the configuration's ``buttons``
    pins) on ``machine``, in the order a person fixes them: the machine, the groups,
    SPI, the PWM LEDs, GPIO and its console and pull-up pins, the sensor board, the
    screen, touch."""
    if is_simulated(profile):
        return [_ok("system", f"profile {profile.name} simulates its sensors and LEDs: "
                              f"no hardware to check")]
    machine = machine or Machine()
    accounts = Accounts.read(machine)
    findings = check_machine(profile, machine, buttons)
    on_pi = machine.model() is not None
    needed = groups_needed(profile, machine, buttons)
    if needed:
        findings += check_groups(machine, needed, accounts)
    if on_pi and profile.leds.driver == "neopixel_spi":
        findings += check_spi(profile, machine, environ, accounts)
    if on_pi and profile.leds.driver == "neopixel":
        findings += check_pwm_leds(profile, machine)
    if on_pi and uses_gpio(profile, buttons):
        findings += check_gpio(machine, environ, make_factory)
        findings += check_console_pins(profile, machine, environ, buttons)
        findings += check_i2c_pins(profile, machine, environ, buttons)
    findings += check_pull_ups(profile, buttons)
    if uses_serial(profile):
        findings += check_serial(profile, machine, find_port, accounts)
    if on_pi:
        findings += check_screen(machine, accounts)
        findings += check_touch(machine, accounts)
    return findings
