"""Every shipped board opens its LEDs under the shipped service on every Pi model.

The service runs as the ``tabletop`` user with no root and no capabilities. Each Pi
model is described as a folder of files (its device tree, ``/dev``, spidev's buffer as
``systemd/install.sh`` configures it) and a user, as :class:`app.hardware.pi.Machine`
reads them; each shipped profile is then loaded and checked as ``tabletop run`` opens
it: its pins on the model's header, its LED path allowed to that user, and one frame of
its LEDs within one SPI transfer of the buffer install.sh sets.
"""

import functools
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from app.errors import DeviceError
from app.hardware import spi
from app.hardware.leds import NeoPixelSpiStrip, NeoPixelStrip
from app.hardware.pi import MODELS, Machine, check_led_path
from app.hardware.profile import GPIO_PINS, SPI0_PINS, load_profile, shipped_profiles

ROOT = Path(__file__).resolve().parents[1]
INSTALL = ROOT / "systemd" / "install.sh"
SERVICE_UID, GPIO_GID, SPI_GID = 990, 997, 999
BOARDS = [name for name in shipped_profiles()
          if load_profile(name).sensors.driver != "simulated"]
COMPATIBLE = {"bcm2835": b"raspberrypi,model-b-plus\0brcm,bcm2835\0",
              "bcm2836": b"raspberrypi,2-model-b\0brcm,bcm2836\0",
              "bcm2837": b"raspberrypi,3-model-b-plus\0brcm,bcm2837\0",
              "bcm2711": b"raspberrypi,4-model-b\0brcm,bcm2711\0",
              "bcm2712": b"raspberrypi,5-model-b\0brcm,bcm2712\0"}


def pi(root: Path, chip: str, bufsiz: int = spi.DEFAULT_BUFSIZ, *, pio_group: int = GPIO_GID,
       uid: int = SERVICE_UID, groups=(GPIO_GID, SPI_GID)) -> Machine:
    """A Pi with ``chip`` as the service's user sees it: SPI on, spidev's buffer at
    ``bufsiz``, the device files owned by their groups as Raspberry Pi OS has them."""
    tree = root / "proc" / "device-tree"
    tree.mkdir(parents=True)
    (tree / "compatible").write_bytes(COMPATIBLE[chip])
    (tree / "model").write_bytes(MODELS[chip].title.encode() + b"\0")
    params = root / "sys" / "module" / "spidev" / "parameters"
    params.mkdir(parents=True)
    (params / "bufsiz").write_text(f"{bufsiz}\n")
    dev = root / "dev"
    dev.mkdir()
    for name, group in (("spidev0.0", SPI_GID), ("gpiochip0", GPIO_GID), ("pio0", pio_group)):
        (dev / name).touch()
        os.chown(dev / name, 0, group)
        os.chmod(dev / name, 0o660)
    return Machine(root, uid, frozenset(groups))


@functools.cache
def installed_bufsiz(profile: str) -> int:
    """What install.sh gives spidev.bufsiz for ``profile``: the number the command it
    runs prints."""
    assert re.search(r'-m app\.hardware\.spi "\$PROFILE"', INSTALL.read_text())
    result = subprocess.run([sys.executable, "-m", "app.hardware.spi", profile], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return int(result.stdout)


@pytest.mark.parametrize("chip", list(MODELS))
@pytest.mark.parametrize("name", BOARDS)
def test_every_shipped_board_opens_its_leds_on_every_model_as_the_service(name, chip,
                                                                          tmp_path):
    profile = load_profile(name)
    machine = pi(tmp_path, chip, installed_bufsiz(name))
    assert machine.model() is MODELS[chip] and not machine.is_root
    where = f"profile {name}: LEDs"
    pins = {*profile.sensors.row_pins, *profile.sensors.column_pins}
    assert pins <= set(GPIO_PINS)
    check_led_path(profile.leds.driver, where, machine)  # raises where it could not open
    if profile.leds.driver == "neopixel_spi":
        assert not pins & SPI0_PINS
        assert machine.can_open("/dev/spidev0.0")
        chunk = spi.check_transfer(profile.led_count, profile.leds.pixel_order, where,
                                   environ={"SPI_BUFSIZE": str(installed_bufsiz(name))},
                                   bufsiz_file=machine.path(str(spi.BUFSIZ_FILE)))
        assert chunk >= spi.transfer_bytes(profile.led_count, profile.leds.pixel_order)


def test_every_shipped_board_drives_its_leds_without_root():
    assert {load_profile(name).leds.driver for name in BOARDS} <= {"neopixel_spi", "serial"}


def test_the_blokus_duo_chain_needs_more_than_the_default_buffer_and_gets_it():
    """196 RGB LEDs: 24 bytes each plus a 64-byte reset either side, over 4,096."""
    assert spi.transfer_bytes(196) == 4832
    assert installed_bufsiz("blokus-duo") == 8192
    assert installed_bufsiz("kulami") == spi.DEFAULT_BUFSIZ
    assert spi.transfer_bytes(165) <= spi.DEFAULT_BUFSIZ < spi.transfer_bytes(166)
    assert spi.transfer_bytes(10, "GRBW") == 8 * 10 * 32 // 8 + 128


def test_a_chain_longer_than_the_kernel_buffer_is_refused_with_the_fix(tmp_path):
    machine = pi(tmp_path, "bcm2711")  # spidev left at 4,096
    with pytest.raises(DeviceError) as refused:
        spi.check_transfer(196, "GRB", "profile blokus-duo: LEDs", environ={},
                           bufsiz_file=machine.path(str(spi.BUFSIZ_FILE)))
    assert str(refused.value) == (
        "profile blokus-duo: LEDs: 196 LEDs need one SPI transfer of 4,832 bytes and the "
        "kernel's spidev buffer holds 4,096: run systemd/install.sh again (it adds "
        "spidev.bufsiz=8192 to the kernel command line) and reboot")


def test_a_library_chunk_smaller_than_a_frame_is_refused_and_none_is_set_to_fit(tmp_path):
    bufsiz = tmp_path / "bufsiz"
    bufsiz.write_text("8192\n")
    with pytest.raises(DeviceError, match=r"SPI_BUFSIZE=4096 would split a frame of 4,832 "
                                          r"bytes .*set SPI_BUFSIZE=8192"):
        spi.check_transfer(196, "GRB", "LEDs", environ={"SPI_BUFSIZE": "4096"},
                           bufsiz_file=bufsiz)
    assert spi.check_transfer(196, "GRB", "LEDs", environ={}, bufsiz_file=bufsiz) == 8192
    assert spi.check_transfer(196, "GRB", "LEDs", environ={"SPI_BUFSIZE": "65536"},
                              bufsiz_file=bufsiz) == 65536
    # No spidev loaded (not a Pi): the frame's own size, and the driver says the rest.
    assert spi.check_transfer(196, "GRB", "LEDs", environ={},
                              bufsiz_file=tmp_path / "absent") == 4832


def test_the_spi_strip_refuses_a_chain_too_long_before_touching_the_bus(tmp_path,
                                                                        monkeypatch):
    machine = pi(tmp_path, "bcm2712")
    monkeypatch.delenv("SPI_BUFSIZE", raising=False)
    with pytest.raises(DeviceError, match="196 LEDs need one SPI transfer"):
        NeoPixelSpiStrip(196, machine=machine, label="profile blokus-duo: LEDs")
    assert "SPI_BUFSIZE" not in os.environ


@pytest.mark.parametrize("chip", ["bcm2835", "bcm2836", "bcm2837", "bcm2711"])
def test_pwm_leds_without_root_before_the_pi_5_are_refused_with_what_to_use(chip, tmp_path):
    machine = pi(tmp_path, chip)
    with pytest.raises(DeviceError) as refused:
        NeoPixelStrip(64, pin="D18", machine=machine, label="profile akron-pwm: LEDs")
    assert str(refused.value) == (
        f"profile akron-pwm: LEDs (neopixel on D18): NeoPixels on a PWM pin need root on a "
        f"{MODELS[chip].title} (their driver maps /dev/mem) and this runs without: wire "
        f"the LED data to GPIO 10 and set leds.driver = \"neopixel_spi\" in the profile")
    check_led_path("neopixel", "LEDs", Machine(machine.root, 0, frozenset()))  # root may


def test_pwm_leds_on_a_pi_5_need_the_pio_device_that_the_udev_rule_opens(tmp_path):
    check_led_path("neopixel", "LEDs", pi(tmp_path / "rule", "bcm2712"))
    without_rule = pi(tmp_path / "no-rule", "bcm2712", pio_group=0)
    with pytest.raises(DeviceError, match=r"go through /dev/pio0, which this user may not "
                                          r"open: its owner or mode shuts the gpio group "
                                          r"out: run systemd/install\.sh again, whose udev "
                                          r"rule .* then sudo udevadm trigger"):
        check_led_path("neopixel", "LEDs", without_rule)


def test_a_missing_pio_device_asks_for_a_kernel_with_the_rp1_pio_driver(tmp_path):
    """No /dev/pio0 at all is no permission problem: the kernel that would make it is
    missing, and neither install.sh nor a group fixes that."""
    machine = pi(tmp_path, "bcm2712")
    (tmp_path / "dev" / "pio0").unlink()
    with pytest.raises(DeviceError) as refused:
        check_led_path("neopixel", "LEDs", machine)
    message = str(refused.value)
    assert message.startswith("LEDs: NeoPixels on a PWM pin of a Raspberry Pi 5 or 500 go "
                              "through /dev/pio0, and there is none: the kernel or firmware "
                              "lacks the RP1 PIO driver that makes it; update both ")
    assert "sudo apt full-upgrade) and reboot" in message
    assert "udev" not in message and "group" not in message


def test_a_pio_device_of_the_gpio_group_asks_for_the_group(tmp_path):
    machine = pi(tmp_path, "bcm2712", groups=(SPI_GID,))  # not in gpio
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc" / "group").write_text(f"root:x:0:\ngpio:x:{GPIO_GID}:\n")
    with pytest.raises(DeviceError, match=r"which this user may not open: the user is not "
                                          r"in group gpio, which the udev rule gives it to: "
                                          r"sudo usermod -a -G gpio USER, then log in again"):
        check_led_path("neopixel", "LEDs", machine)


def test_a_machine_that_is_not_a_pi_leaves_the_drivers_to_say_so(tmp_path):
    machine = Machine(tmp_path, SERVICE_UID, frozenset())
    assert machine.model() is None and machine.model_name() == "unknown machine"
    check_led_path("neopixel", "LEDs", machine)


def test_the_model_is_read_from_the_chip_the_device_tree_names(tmp_path):
    machine = pi(tmp_path, "bcm2711")
    assert machine.model().title == "Raspberry Pi 4 or 400"
    assert machine.model().spi_core_clock == ("core_freq=500", "core_freq_min=500")
    assert machine.model_name() == "Raspberry Pi 4 or 400"
    assert MODELS["bcm2712"].pin_factories == ("lgpio",)


def test_file_access_follows_the_mode_bits_for_owner_group_and_others(tmp_path):
    device = tmp_path / "dev" / "thing"
    device.parent.mkdir()
    device.touch()
    os.chown(device, SERVICE_UID, SPI_GID)
    user = Machine(tmp_path, SERVICE_UID, frozenset())
    member = Machine(tmp_path, 1234, frozenset({SPI_GID}))
    stranger = Machine(tmp_path, 1234, frozenset())
    os.chmod(device, 0o600)
    assert user.can_open("/dev/thing") and not member.can_open("/dev/thing")
    os.chmod(device, 0o640)
    assert member.can_open("/dev/thing", write=False) and not member.can_open("/dev/thing")
    os.chmod(device, 0o666)
    assert stranger.can_open("/dev/thing")
    os.chmod(device, 0o660)
    assert not stranger.can_open("/dev/thing") and not stranger.can_open("/dev/absent")
