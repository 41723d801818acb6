"""The service unit passes systemd-analyze verify; the hardening keeps devices reachable.

Needs systemd-analyze (Debian package ``systemd``) on the test machine.
"""

import re
import subprocess
from pathlib import Path

import pytest

SYSTEMD = Path(__file__).resolve().parents[1] / "systemd"
UNIT = SYSTEMD / "tabletop.service"
INSTALLED_AT = "/opt/tabletop/venv/bin/tabletop"


def settings(text):
    pairs = re.findall(r"^([A-Za-z]+)=(.*)$", text, re.MULTILINE)
    return {key: value for key, value in pairs}


def verify(tmp_path, text):
    """``systemd-analyze verify`` on ``text``, the program stubbed where install.sh puts it."""
    program = tmp_path / "tabletop"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    unit = tmp_path / "tabletop.service"
    unit.write_text(text.replace(INSTALLED_AT, str(program)))
    return subprocess.run(["systemd-analyze", "verify", "--man=no", str(unit)],
                          capture_output=True, text=True)


def test_the_unit_verifies_without_a_single_warning(tmp_path):
    result = verify(tmp_path, UNIT.read_text())
    assert result.returncode == 0 and result.stdout + result.stderr == ""


def test_verify_catches_a_broken_unit(tmp_path):
    result = verify(tmp_path, UNIT.read_text().replace("Type=notify", "Type=notified"))
    assert "notified" in result.stderr


def test_notify_watchdog_restart_and_a_dedicated_user():
    unit = settings(UNIT.read_text())
    assert unit["Type"] == "notify" and unit["WatchdogSec"] == "30s"
    assert unit["Restart"] == "on-failure" and unit["User"] == "tabletop"
    assert unit["StateDirectory"] == "tabletop"
    assert unit["ExecStart"].startswith(INSTALLED_AT + " run --profile ")


@pytest.mark.parametrize("setting", ["PrivateDevices", "DevicePolicy", "DeviceAllow",
                                     "ProtectClock"])
def test_no_hardening_that_hides_gpio_spi_or_the_display(setting):
    assert setting not in settings(UNIT.read_text())


def test_the_install_script_is_valid_shell_and_joins_the_device_groups():
    script = (SYSTEMD / "install.sh").read_text()
    assert subprocess.run(["sh", "-n", str(SYSTEMD / "install.sh")]).returncode == 0
    groups = re.search(r'GROUPS_WANTED="([^"]+)"', script)[1].split()
    assert sorted(groups) == ["dialout", "gpio", "input", "render", "spi", "video"]
    assert "systemd/tabletop.service" in script and "systemd/99-tabletop.rules" in script


def test_the_install_script_installs_the_package_with_its_pi_extras_not_editable():
    script = (SYSTEMD / "install.sh").read_text()
    installs = re.findall(r'^\s*"\$PREFIX/venv/bin/pip" install (.*)$', script, re.MULTILINE)
    assert installs == ['--quiet "$PREFIX/src[screen,pi]"']
    assert " -e " not in installs[0] and "--editable" not in installs[0]


def test_the_example_config_comes_from_the_installed_package():
    """Not from the checkout: what /etc gets is what the installed program reads.
    (tests/test_package.py runs the same command in an installed wheel.)"""
    script = (SYSTEMD / "install.sh").read_text()
    assert "tabletop.example.toml" in script
    assert "$SOURCE/app" not in script
    assert re.search(r'"\$PREFIX/venv/bin/python" -c \'[^\']*importlib\.resources[^\']*'
                     r'files\("app\.table"\)\.joinpath\("tabletop\.example\.toml"\)', script)
    assert "/etc/tabletop/tabletop.toml" in script


def test_the_udev_rule_names_the_pico_by_its_usb_ids():
    rule = (SYSTEMD / "99-tabletop.rules").read_text()
    lines = [line for line in rule.splitlines() if line and not line.startswith("#")]
    assert len(lines) == 1
    assert 'ATTRS{idVendor}=="2e8a"' in lines[0] and 'SYMLINK+="tabletop-sensors"' in lines[0]
