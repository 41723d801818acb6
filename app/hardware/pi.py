"""The Raspberry Pi a board runs on, as the service's user sees it.

Which model this is (from the chip the device tree names, facts in ``pi_models.toml``),
who the process runs as, and whether that user may open a device file: what decides
whether a profile's LEDs can open under the shipped service, which runs as the
``tabletop`` user without root or capabilities. :class:`Machine` reads everything
under a root folder, so the tests (and ``make pi-check``) describe a Pi 4 or a Pi 5 as a
folder of files and a user, with no Pi at hand.

:func:`check_led_path` refuses, at load and with one line saying why and what to use, a
profile whose LEDs the machine will not let this user drive: NeoPixels on a PWM pin need
root before the Pi 5 and ``/dev/pio0`` on it, which a kernel without the RP1 PIO driver
does not make (an update fixes that) and which only the udev rule opens to the gpio
group (install.sh fixes that). :class:`BootFiles` reads config.txt and cmdline.txt as the
firmware would for this model, for what they turn on (the serial console's pins).
"""

from __future__ import annotations

import os
import re
import stat
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from app.errors import DeviceError

#: The models, keyed by the chip in ``/proc/device-tree/compatible``.
MODELS_FILE = resources.files("app.hardware") / "pi_models.toml"


@dataclass(frozen=True)
class PiModel:
    """One model family: its chip, its name, and what differs for a board (see the data
    file's comments)."""

    chip: str
    title: str
    config_filters: tuple[str, ...]
    pwm_neopixels: str
    spi_core_clock: tuple[str, ...]
    pin_factories: tuple[str, ...]
    consoles_on_pins: tuple[str, ...]
    uart_on_pins: str
    uart_on_by_default: bool

    @property
    def pwm_needs_root(self) -> bool:
        return self.pwm_neopixels == "root"


def _load_models() -> dict[str, PiModel]:
    data = tomllib.loads(MODELS_FILE.read_text(encoding="utf-8"))
    return {chip: PiModel(chip, entry["title"], tuple(entry["config_filters"]),
                          entry["pwm_neopixels"], tuple(entry["spi_core_clock"]),
                          tuple(entry["pin_factories"]), tuple(entry["consoles_on_pins"]),
                          entry["uart_on_pins"], entry["uart_on_by_default"])
            for chip, entry in data.items()}


#: Every model Tabletop knows, oldest first.
MODELS: dict[str, PiModel] = _load_models()


@dataclass(frozen=True)
class Machine:
    """The machine under ``root`` as user ``uid`` in ``groups`` sees it; by default this
    process on this machine."""

    root: Path = Path("/")
    uid: int = field(default_factory=os.geteuid)
    groups: frozenset[int] = field(default_factory=lambda: frozenset(
        {os.getegid(), *os.getgroups()}))

    def path(self, absolute: str) -> Path:
        """``absolute`` (``/dev/spidev0.0``) on this machine."""
        return self.root / absolute.lstrip("/")

    @property
    def is_root(self) -> bool:
        return self.uid == 0

    def model(self) -> PiModel | None:
        """The Pi model, or ``None`` on anything that is not a Pi Tabletop knows."""
        try:
            compatible = self.path("/proc/device-tree/compatible").read_bytes()
        except OSError:
            return None
        for entry in compatible.decode("ascii", "replace").split("\0"):
            chip = entry.partition(",")[2]
            if entry.startswith("brcm,") and chip in MODELS:
                return MODELS[chip]
        return None

    def model_name(self) -> str:
        """The model as the device tree words it ("Raspberry Pi 4 Model B Rev 1.4")."""
        try:
            raw = self.path("/proc/device-tree/model").read_bytes()
        except OSError:
            return "unknown machine"
        return raw.decode("ascii", "replace").strip("\0").strip() or "unknown machine"

    def group_id(self, name: str) -> int | None:
        """The id of group ``name`` in the machine's ``/etc/group``; ``None`` without one."""
        try:
            text = self.path("/etc/group").read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None
        for line in text.splitlines():
            fields = line.split(":")
            if len(fields) >= 3 and fields[0] == name and fields[2].isdigit():
                return int(fields[2])
        return None

    def exists(self, absolute: str) -> bool:
        return self.path(absolute).exists()

    def can_open(self, absolute: str, write: bool = True) -> bool:
        """Whether this user may open the file for reading (and writing): its mode bits
        for the owner, the group or others, as the kernel checks them (root may)."""
        try:
            info = self.path(absolute).stat()
        except OSError:
            return False
        if self.is_root:
            return True
        if info.st_uid == self.uid:
            wanted = stat.S_IRUSR | (stat.S_IWUSR if write else 0)
        elif info.st_gid in self.groups:
            wanted = stat.S_IRGRP | (stat.S_IWGRP if write else 0)
        else:
            wanted = stat.S_IROTH | (stat.S_IWOTH if write else 0)
        return info.st_mode & wanted == wanted


#: Where the Pi's firmware reads config.txt and cmdline.txt from, the first that has
#: config.txt (Bookworm's /boot/firmware, older systems' /boot); ``TABLETOP_BOOT_DIR``
#: names another, as for systemd/boot-config.sh.
BOOT_FOLDERS = ("/boot/firmware", "/boot")
#: config.txt filters that choose by model ([pi4], [cm4], [pi02]): they apply to the
#: models whose ``config_filters`` name them. Other filters ([all], [HDMI:0], [gpio4=1])
#: may apply to any model.
_MODEL_FILTER = re.compile(r"(pi|cm)\d")


@dataclass(frozen=True)
class BootFiles:
    """The Pi's boot configuration as its firmware reads it: the kernel's command line
    (cmdline.txt, its words) and the config.txt lines that apply to this model (the
    ones under a filter for another model left out, comments and blanks too)."""

    folder: str
    cmdline: tuple[str, ...]
    config: tuple[str, ...]

    @classmethod
    def read(cls, machine: Machine, environ: Mapping[str, str] = os.environ
             ) -> "BootFiles | None":
        """The boot files on ``machine``; ``None`` where there are none (not a Pi)."""
        folders = [environ["TABLETOP_BOOT_DIR"]] if environ.get("TABLETOP_BOOT_DIR") \
            else BOOT_FOLDERS
        for folder in folders:
            try:
                config = machine.path(f"{folder}/config.txt").read_text(errors="replace")
            except OSError:
                continue
            try:
                cmdline = machine.path(f"{folder}/cmdline.txt").read_text(errors="replace")
            except OSError:
                cmdline = ""
            model = machine.model()
            filters = model.config_filters if model else ()
            return cls(folder, tuple(cmdline.split()), tuple(_applying(config, filters)))
        return None

    def setting(self, name: str) -> str | None:
        """The last value config.txt gives ``name`` (``enable_uart``), or ``None``."""
        values = [line.partition("=")[2].strip() for line in self.config
                  if line.partition("=")[0].strip() == name]
        return values[-1] if values else None


    def overlays(self) -> list[str]:
        """The device tree overlays config.txt loads (``disable-bt``), by name."""
        return [line.partition("=")[2].split(",")[0].strip() for line in self.config
                if line.partition("=")[0].strip() == "dtoverlay"]

    def dtparams(self) -> dict[str, str]:
        """The device tree parameters config.txt sets (``dtparam=uart0=on,spi=on``),
        each name to its last value (``on`` where the line gives none)."""
        params = {}
        for line in self.config:
            name, _, value = line.partition("=")
            if name.strip() == "dtparam":
                for param in value.split(","):
                    key, _, setting = param.partition("=")
                    params[key.strip()] = setting.strip() or "on"
        return params


def _applying(config: str, filters: tuple[str, ...]):
    """The lines of ``config`` (config.txt) under filters that apply to a model whose
    own filters are ``filters``."""
    applies = True
    for raw in config.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("[") and line.endswith("]"):
            names = line[1:-1].split("][")
            applies = all(name != "none" and (not _MODEL_FILTER.match(name)
                                              or name in filters) for name in names)
        elif applies:
            yield line


def check_led_path(driver: str, where: str, machine: Machine | None = None) -> None:
    """Refuse LEDs on a PWM pin that this machine will not let this user drive: before
    the Pi 5 they need root (the service has none), on a Pi 5 access to ``/dev/pio0``.
    Other drivers, and machines that are not a known Pi, pass (their drivers say what
    is wrong when they open)."""
    if driver != "neopixel":
        return
    machine = machine or Machine()
    model = machine.model()
    if model is None:
        return
    if model.pwm_needs_root:
        if not machine.is_root:
            raise DeviceError(
                f"{where}: NeoPixels on a PWM pin need root on a {model.title} (their "
                f"driver maps /dev/mem) and this runs without: wire the LED data to GPIO "
                f"10 and set leds.driver = \"neopixel_spi\" in the profile")
        return
    device = model.pwm_neopixels
    if not machine.exists(device):
        raise DeviceError(
            f"{where}: NeoPixels on a PWM pin of a {model.title} go through {device}, "
            f"and there is none: the kernel or firmware lacks the RP1 PIO driver that "
            f"makes it; update both (sudo apt update && sudo apt full-upgrade) and reboot, "
            f"or use leds.driver = \"neopixel_spi\"")
    if not machine.can_open(device):
        info = machine.path(device).stat()
        group_may = info.st_mode & (stat.S_IRGRP | stat.S_IWGRP) == stat.S_IRGRP | stat.S_IWGRP
        if group_may and info.st_gid == machine.group_id("gpio"):
            fix = ("the user is not in group gpio, which the udev rule gives it to: "
                   "sudo usermod -a -G gpio USER, then log in again")
        else:
            fix = ("its owner or mode shuts the gpio group out: run systemd/install.sh "
                   "again, whose udev rule gives it to the gpio group with mode 0660, then "
                   "sudo udevadm trigger")
        raise DeviceError(
            f"{where}: NeoPixels on a PWM pin of a {model.title} go through {device}, "
            f"which this user may not open: {fix}; or use leds.driver = \"neopixel_spi\"")
