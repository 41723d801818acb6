"""The service unit passes systemd-analyze verify; the hardening keeps devices reachable;
install.sh installs what a Pi needs and edits the Pi's boot files once, and takes them out
again (on copies of the files: systemd/boot-config.sh does the editing).

Needs systemd-analyze (Debian package ``systemd``) on the test machine. ``make pi-check``
runs the whole of install.sh in an emulated arm64 Debian.
"""

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
SYSTEMD = ROOT / "systemd"
UNIT = SYSTEMD / "tabletop.service"
INSTALLED_AT = "/opt/tabletop/venv/bin/tabletop"


def settings(text):
    pairs = re.findall(r"^([A-Za-z]+)=(.*)$", text, re.MULTILINE)
    return {key: value for key, value in pairs}


def section(text, name):
    """The settings of one [section] of a unit."""
    return settings(re.search(rf"^\[{name}\]\n(.*?)(?=^\[|\Z)", text, re.MULTILINE | re.DOTALL)[1])


def verify(tmp_path, text, stopped_text=None):
    """``systemd-analyze verify`` on ``text`` and the OnFailure= unit beside it (shipped,
    or ``stopped_text``), the program stubbed where install.sh puts it."""
    program = tmp_path / "tabletop"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    unit = tmp_path / "tabletop.service"
    unit.write_text(text.replace(INSTALLED_AT, str(program)))
    stopped = tmp_path / STOPPED.name
    stopped.write_text(STOPPED.read_text() if stopped_text is None else stopped_text)
    return subprocess.run(["systemd-analyze", "verify", "--man=no", str(unit), str(stopped)],
                          capture_output=True, text=True)


def test_both_units_verify_without_a_single_warning(tmp_path):
    result = verify(tmp_path, UNIT.read_text())
    assert result.returncode == 0 and result.stdout + result.stderr == ""


def test_verify_catches_a_broken_unit(tmp_path):
    result = verify(tmp_path, UNIT.read_text().replace("Type=notify", "Type=notified"))
    assert "notified" in result.stderr
    result = verify(tmp_path, UNIT.read_text(),
                    STOPPED.read_text().replace("Type=oneshot", "Type=oneshoot"))
    assert "oneshoot" in result.stderr


# ------------------------------------------------- a fault that restarts cannot mend

STOPPED = SYSTEMD / "tabletop-stopped.service"
STOPPED_SH = SYSTEMD / "stopped.sh"


def seconds(span):
    """A systemd time span such as ``2s`` or ``5min`` in seconds."""
    number, unit = re.fullmatch(r"(\d+)(s|min)", span).groups()
    return int(number) * {"s": 1, "min": 60}[unit]


def test_a_fault_that_restarts_cannot_mend_stops_at_the_start_limit():
    """Restart=on-failure alone restarted a missing SPI bus every 2 s for ever: systemd's
    default limit (5 starts in 10 s) is never reached by starts 2 s apart that each take
    Python's start-up. Five starts in five minutes are reached even if each took 30 s."""
    text = UNIT.read_text()
    unit, service = section(text, "Unit"), section(text, "Service")
    assert service["Restart"] == "on-failure"
    assert "StartLimitBurst" not in service and "StartLimitIntervalSec" not in service
    burst, interval = int(unit["StartLimitBurst"]), seconds(unit["StartLimitIntervalSec"])
    assert burst * (seconds(service["RestartSec"]) + 30) < interval
    assert unit["OnFailure"] == STOPPED.name


def test_the_stopped_unit_says_it_once_with_the_service_s_own_limits():
    """Its numbers are the service's; it runs as root (only root's lines that name the
    unit show in ``journalctl -u tabletop``) with every privilege besides dropped."""
    limits = section(UNIT.read_text(), "Unit")
    stopped = settings(STOPPED.read_text())
    assert stopped["Type"] == "oneshot"
    assert stopped["ExecStart"] == ("/bin/sh /opt/tabletop/src/systemd/stopped.sh "
                                    f"{limits['StartLimitBurst']} "
                                    f"{limits['StartLimitIntervalSec']}")
    assert "User" not in stopped and "DynamicUser" not in stopped
    assert stopped["CapabilityBoundingSet"] == "" and stopped["NoNewPrivileges"] == "yes"
    assert stopped["ProtectSystem"] == "strict" and stopped["PrivateNetwork"] == "yes"
    assert stopped["RestrictAddressFamilies"] == "AF_UNIX"
    assert "[Install]" not in STOPPED.read_text()  # started by OnFailure= alone


def stopped_line(tmp_path, logger_status=0, **monitor):
    """stopped.sh as tabletop-stopped.service runs it, with systemd's MONITOR_ variables;
    a stand-in logger keeps the journal entry it is given."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    entry = tmp_path / "entry"
    logger = bin_dir / "logger"
    logger.write_text(f'#!/bin/sh\n[ "$1" = --journald ] && cat > "{entry}"\n'
                      f"exit {logger_status}\n")
    logger.chmod(0o755)
    result = subprocess.run(["sh", str(STOPPED_SH), "5", "5min"], capture_output=True,
                            text=True, timeout=60,
                            env={"PATH": f"{bin_dir}:/usr/bin:/bin", **monitor})
    fields = dict(line.split("=", 1) for line in entry.read_text().splitlines())
    return result, fields


def test_the_start_limit_gets_one_line_with_what_to_check_and_how_to_start_again(tmp_path):
    result, fields = stopped_line(tmp_path, MONITOR_SERVICE_RESULT="start-limit-hit",
                                  MONITOR_EXIT_CODE="exited", MONITOR_EXIT_STATUS="1",
                                  MONITOR_UNIT="tabletop.service")
    assert result.returncode == 0 and result.stdout + result.stderr == ""
    assert fields.keys() == {"MESSAGE", "PRIORITY", "SYSLOG_IDENTIFIER", "OBJECT_SYSTEMD_UNIT"}
    assert fields["OBJECT_SYSTEMD_UNIT"] == "tabletop.service" and fields["PRIORITY"] == "3"
    message = fields["MESSAGE"]
    assert message.startswith("Tabletop stopped after 5 failed starts within 5min")
    assert "/dev/spidev0.0" in message and "sensor board" in message
    assert message.endswith("sudo systemctl reset-failed tabletop && "
                            "sudo systemctl start tabletop")


@pytest.mark.parametrize("result, status", [("exit-code", "1"), ("watchdog", "ABRT"),
                                            ("signal", "KILL")])
def test_the_start_limit_is_told_by_what_systemd_252_passes(tmp_path, result, status):
    """At the start limit, bookworm's systemd passes the last failure's result, not
    start-limit-hit (seen booted under make pi-boot after five failed starts, exit
    status 1): every failure but exit status 2 reaches the script only then."""
    _, fields = stopped_line(tmp_path, MONITOR_SERVICE_RESULT=result,
                             MONITOR_EXIT_STATUS=status, MONITOR_UNIT="tabletop.service")
    assert fields["MESSAGE"].startswith("Tabletop stopped after 5 failed starts within 5min")
    assert fields["MESSAGE"].endswith("sudo systemctl reset-failed tabletop && "
                                      "sudo systemctl start tabletop")


def test_a_mistake_that_is_not_retried_gets_one_line_too(tmp_path):
    """Exit status 2 (RestartPreventExitStatus): the program's own line says what to change."""
    _, fields = stopped_line(tmp_path, MONITOR_SERVICE_RESULT="exit-code",
                             MONITOR_EXIT_CODE="exited", MONITOR_EXIT_STATUS="2")
    message = fields["MESSAGE"]
    assert "(exit-code, exit status 2)" in message and "failed starts" not in message
    assert message.endswith("sudo systemctl start tabletop") and "reset-failed" not in message
    assert fields["OBJECT_SYSTEMD_UNIT"] == "tabletop.service"


def test_without_the_journal_s_logger_the_line_goes_to_standard_output(tmp_path):
    result, _ = stopped_line(tmp_path, logger_status=1,
                             MONITOR_SERVICE_RESULT="start-limit-hit")
    assert result.returncode == 0 and result.stdout.count("\n") == 1
    assert result.stdout.startswith("Tabletop stopped after 5 failed starts")


def test_install_sh_installs_verifies_and_removes_the_stopped_unit():
    script = (SYSTEMD / "install.sh").read_text()
    assert "STOPPED_UNIT=/etc/systemd/system/tabletop-stopped.service" in script
    assert 'install -D -m 0644 "$SOURCE/systemd/tabletop-stopped.service" "$STOPPED_UNIT"' \
        in script
    assert 'systemd-analyze verify "$UNIT" "$STOPPED_UNIT"' in script
    assert 'rm -f "$UNIT" "$STOPPED_UNIT" "$RULES" "$DEFAULTS"' in script
    # The script it runs is in the checkout, which install.sh copies to $PREFIX/src.
    assert 'cp -R "$entry" "$PREFIX/src/"' in script
    # A service stopped at its start limit refuses a plain restart.
    assert script.index("systemctl reset-failed tabletop.service") < \
        script.index("systemctl restart tabletop.service")


def test_notify_watchdog_restart_and_a_dedicated_user():
    unit = settings(UNIT.read_text())
    assert unit["Type"] == "notify" and unit["WatchdogSec"] == "30s"
    assert unit["Restart"] == "on-failure" and unit["User"] == "tabletop"
    assert unit["StateDirectory"] == "tabletop"
    assert unit["ExecStart"].startswith(INSTALLED_AT + " run --profile ")


def test_the_working_directory_is_the_services_own_runtime_directory():
    """lgpio makes a pipe in the working directory when imported; the tabletop user may
    not write in "/", a service's default."""
    unit = settings(UNIT.read_text())
    assert unit["RuntimeDirectory"] == "tabletop"
    assert unit["WorkingDirectory"] == "/run/tabletop"


def test_a_usage_or_configuration_mistake_is_not_restarted():
    """The program exits 2 for what the same start would do again; 1 (a device) retries."""
    unit = settings(UNIT.read_text())
    assert unit["RestartPreventExitStatus"] == "2"
    assert unit["EnvironmentFile"] == "-/etc/default/tabletop"


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
    assert installs == ['--quiet "$PREFIX/src[$PIP_EXTRAS]"']  # from userland.sh, below
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


def test_the_udev_rules_name_the_pico_and_give_the_pi5_pio_to_the_gpio_group():
    rule = (SYSTEMD / "99-tabletop.rules").read_text()
    lines = [line for line in rule.splitlines() if line and not line.startswith("#")]
    assert len(lines) == 2
    pico, pio = lines
    assert 'ATTRS{idVendor}=="2e8a"' in pico and 'SYMLINK+="tabletop-sensors"' in pico
    # The kernel's RP1 PIO driver: class rp1-pio, device pio0.
    assert 'SUBSYSTEM=="*-pio"' in pio and 'KERNEL=="pio[0-9]*"' in pio
    assert 'GROUP="gpio"' in pio and 'MODE="0660"' in pio


def test_the_install_script_updates_apt_first_and_asks_only_for_debian_packages():
    """bookworm has no python3-lgpio (lgpio comes from PyPI); SDL's KMS/DRM libraries
    are loaded only when the screen opens, so install.sh names them, with the GPU's DRI
    driver (vc4, v3d) that GBM and EGL load from libgl1-mesa-dri: Raspberry Pi OS Lite
    has no Mesa, and without it the screen stayed dark."""
    script = (SYSTEMD / "install.sh").read_text()
    assert script.index("apt-get update") < script.index("apt-get install")
    packages = re.search(r'^PACKAGES="([^"]+)"', script, re.MULTILINE)[1].split()
    assert {"python3-venv", "python3-dev", "build-essential",
            "libgbm1", "libegl1", "libgles2", "libgl1-mesa-dri"} <= set(packages)
    assert "python3-lgpio" not in packages and "raspi-config nonint" not in script
    # The userland's own packages join the list before apt-get installs it.
    route = script.index("userland_route python3")
    assert script.index('. "$SOURCE/systemd/userland.sh"') < route
    assert route < script.index('PACKAGES="$PACKAGES${USERLAND_PACKAGES:+ $USERLAND_PACKAGES}"')
    assert route < script.index("apt-get update")  # a refusal changes nothing
    assert "uname" not in script  # the kernel's architecture decides nothing
    assert "--system-site-packages" in script


# -------------------------------------------------------------- the userland's route

USERLAND = SYSTEMD / "userland.sh"


def route(tmp_path, userland, machine, python):
    """userland.sh's decision with dpkg and uname standing in for a Pi's, and PYTHON the
    version a stand-in python3 says, or a real interpreter's path."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    stand_ins = {"dpkg": f'[ "$1" = --print-architecture ] && echo {userland}',
                 "uname": f'[ "$1" = -m ] && echo {machine}'}
    if not python.startswith("/"):
        stand_ins["python3"] = f"echo {python}"
        python = "python3"
    for name, body in stand_ins.items():
        (bin_dir / name).write_text(f"#!/bin/sh\n{body}\n")
        (bin_dir / name).chmod(0o755)
    return subprocess.run(
        ["sh", "-c", '. "$1"; userland_route "$2"; '
                     'echo "$USERLAND_PACKAGES|$PIP_EXTRAS|$LGPIO_FROM_SOURCE"',
         "sh", str(USERLAND), python],
        capture_output=True, text=True, timeout=60,
        env={"PATH": f"{bin_dir}:/usr/bin:/bin"})


@pytest.mark.parametrize("userland, machine, python, packages, extras, from_source", [
    # 64-bit Raspberry Pi OS: pygame-ce's wheel, lgpio's wheel up to Python 3.12.
    ("arm64", "aarch64", "3.11", "", "screen,pi,web", "no"),
    ("arm64", "aarch64", "3.12", "", "screen,pi,web", "no"),
    # 32-bit Raspberry Pi OS on a Pi 4 or 5 boots a 64-bit kernel: still armhf.
    ("armhf", "aarch64", "3.11", "python3-pygame", "pi,web", "no"),
    ("armhf", "armv7l", "3.11", "python3-pygame", "pi,web", "no"),
    ("armhf", "armv8l", "3.11", "python3-pygame", "pi,web", "no"),
    # A Pi Zero, Zero W or 1: no armv6l lgpio wheel, so swig builds it.
    ("armhf", "armv6l", "3.11", "python3-pygame swig", "pi,web", "yes"),
    ("armel", "armv6l", "3.11", "python3-pygame swig", "pi,web", "yes"),
    # trixie's Python 3.13: no lgpio wheel anywhere.
    ("arm64", "aarch64", "3.13", "swig", "screen,pi,web", "yes"),
    ("armhf", "aarch64", "3.13", "python3-pygame swig", "pi,web", "yes"),
    ("arm64", "aarch64", "3.14", "swig", "screen,pi,web", "yes"),
    ("amd64", "x86_64", "3.11", "", "screen,pi,web", "no"),
])
def test_the_userland_not_the_kernel_decides_pygame_and_lgpio(
        tmp_path, userland, machine, python, packages, extras, from_source):
    result = route(tmp_path, userland, machine, python)
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"{packages}|{extras}|{from_source}\n"


def test_the_route_asks_the_python_it_is_given_for_its_version(tmp_path):
    result = route(tmp_path, "arm64", "aarch64", sys.executable)
    assert result.returncode == 0, result.stderr
    wheel = sys.version_info[:2] <= (3, 12)
    assert result.stdout.endswith(f"|screen,pi,web|{'no' if wheel else 'yes'}\n")


@pytest.mark.parametrize("userland, machine", [("i386", "i686"), ("riscv64", "riscv64"),
                                               ("arm64", "armv7l"), ("armhf", "x86_64")])
def test_an_unsupported_userland_is_refused_in_one_line(tmp_path, userland, machine):
    result = route(tmp_path, userland, machine, "3.11")
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert f"a {userland} userland on a {machine} kernel" in result.stderr
    assert "Raspberry Pi OS" in result.stderr


def test_lgpio_is_built_from_its_own_sources_where_it_has_no_wheel():
    """Without PYPI=1 lgpio's build links a system liblgpio, which Debian lacks; with it,
    the C library the source package carries goes into the module (swig makes the
    wrapper). The [pi] extra then finds lgpio installed."""
    script = (SYSTEMD / "install.sh").read_text()
    build = 'PYPI=1 "$PREFIX/venv/bin/pip" install --quiet --no-binary lgpio lgpio'
    assert re.search(r'if \[ "\$LGPIO_FROM_SOURCE" = yes \]; then\n(\s*#.*\n)*\s*'
                     + re.escape(build), script)
    assert script.index(build) < script.index('"$PREFIX/src[$PIP_EXTRAS]"')


def test_the_install_script_skips_what_needs_a_booted_systemd():
    """In a chroot (make pi-check) systemctl and udevadm have no systemd to talk to: every
    call sits inside an ``if booted`` (/run/systemd/system exists), not in its else."""
    script = (SYSTEMD / "install.sh").read_text()
    assert re.search(r"booted\(\) \{\s+\[ -d /run/systemd/system \]", script)
    conditions, calls = [], 0
    for line in script.splitlines():
        line = line.strip()
        opened = re.fullmatch(r"(if|elif) (.+); then", line)
        if opened and opened[1] == "if":
            conditions.append(opened[2])
        elif opened or line == "else":
            conditions[-1] = opened[2] if opened else "else"
        elif line == "fi":
            conditions.pop()
        elif re.match(r"(systemctl|udevadm) ", line):
            calls += 1
            assert "booted" in conditions, line
    assert calls >= 5 and not conditions



# ------------------------------------------------------ what pip installs on each Pi

def pi_extra():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return [Requirement(text) for text in project["optional-dependencies"]["pi"]]


def installed_on(machine):
    """The [pi] extra's packages pip takes where the kernel says ``machine``."""
    environment = {"sys_platform": "linux", "platform_machine": machine}
    return {r.name for r in pi_extra() if r.marker is None or r.marker.evaluate(environment)}


PI_OWN = {"lgpio", "gpiod", "rpi_ws281x", "Adafruit-Blinka-Raspberry-Pi-PWM"}


@pytest.mark.parametrize("machine", ["aarch64", "armv7l", "armv6l"])
def test_every_pi_gets_its_gpio_and_led_libraries(machine):
    """aarch64: a Pi 3, 4 or 5 on a 64-bit kernel, with a 64-bit or a 32-bit userland;
    armv7l: a Pi 2 or 3 on a 32-bit kernel; armv6l: a Pi Zero, Zero W or 1, which got no
    lgpio, gpiod or rpi_ws281x at all."""
    names = installed_on(machine)
    assert {"gpiozero", "Adafruit-Blinka", "adafruit-circuitpython-neopixel-spi"} | PI_OWN \
        <= names
    # A Pi 5 always boots a 64-bit kernel.
    assert ("Adafruit-Blinka-Raspberry-Pi5-Neopixel" in names) == (machine == "aarch64")


def test_a_pc_builds_none_of_the_pis_own_libraries():
    assert not (PI_OWN | {"Adafruit-Blinka-Raspberry-Pi5-Neopixel"}) & installed_on("x86_64")


def test_gpiozero_is_a_release_that_finds_its_pin_factories_on_python_3_12_and_later():
    """gpiozero 2.0 looked them up through the dict interface of entry_points(), gone in
    Python 3.12; 2.0.1 fixed that, and trixie's Python is 3.13."""
    gpiozero = next(r for r in pi_extra() if r.name == "gpiozero")
    assert not gpiozero.specifier.contains("2.0") and gpiozero.specifier.contains("2.0.1")


# --------------------------------------------------------------------------- boot files

BOOT_CONFIG = SYSTEMD / "boot-config.sh"
#: The ends of a Raspberry Pi OS card's config.txt and cmdline.txt.
CONFIG_TXT = "dtparam=audio=on\ndtoverlay=vc4-kms-v3d\n\n[cm4]\notg_mode=1\n\n[all]\n"
CMDLINE_TXT = "console=serial0,115200 console=tty1 root=PARTUUID=0a1b2c3d-02 rootwait\n"


@pytest.fixture
def firmware(tmp_path):
    """A firmware folder with a fresh card's two files."""
    (tmp_path / "config.txt").write_text(CONFIG_TXT)
    (tmp_path / "cmdline.txt").write_text(CMDLINE_TXT)
    return tmp_path


def boot_config(folder, *args):
    """boot-config.sh on ``folder``, the test's python standing in for the installed one."""
    words = [str(arg) for arg in args]
    if words[0] == "apply":
        words.append(sys.executable)
    return subprocess.run(["sh", str(BOOT_CONFIG), *words], capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "TABLETOP_BOOT_DIR": str(folder)},
                          timeout=60)


def expected_block():
    """SPI on, then each model's core-clock lines under its filters, from the data."""
    models = tomllib.loads((ROOT / "app" / "hardware" / "pi_models.toml").read_text())
    lines = ["[all]", "dtparam=spi=on"]
    for model in models.values():
        for name in model["config_filters"] if model["spi_core_clock"] else ():
            lines += [f"[{name}]", *model["spi_core_clock"]]
    return lines + ["[all]"]


def block_of(config):
    lines = config.splitlines()
    begin = [i for i, line in enumerate(lines) if line.startswith("# tabletop: begin")]
    end = [i for i, line in enumerate(lines) if line.startswith("# tabletop: end")]
    assert len(begin) == len(end) == 1
    return [line for line in lines[begin[0] + 1:end[0]] if not line.startswith("#")]


def test_the_boot_files_get_spi_the_core_clock_and_the_buffer_once(firmware):
    first = boot_config(firmware, "apply", 8192)
    assert first.returncode == 3, first.stderr  # changed: a reboot is needed
    config = (firmware / "config.txt").read_text()
    assert config.startswith(CONFIG_TXT)  # the card's own lines stay as they were
    assert block_of(config) == expected_block()
    block = "\n".join(block_of(config))
    assert "[pi3]\ncore_freq=250\n[pi02]\ncore_freq=250\n" in block
    assert "[pi4]\ncore_freq=500\ncore_freq_min=500\n[all]" in block
    cmdline = (firmware / "cmdline.txt").read_text()
    assert cmdline == CMDLINE_TXT.rstrip("\n") + " spidev.bufsiz=8192\n"

    second = boot_config(firmware, "apply", 8192)
    assert second.returncode == 0 and second.stdout.count("unchanged") == 2
    assert (firmware / "config.txt").read_text() == config
    assert (firmware / "cmdline.txt").read_text() == cmdline
    assert sorted(path.name for path in firmware.iterdir()) == ["cmdline.txt", "config.txt"]


def sections_of(block):
    """The block's lines under each config.txt filter, in order ([all] twice)."""
    sections = []
    for line in block:
        if line.startswith("["):
            sections.append((line.strip("[]"), []))
        else:
            sections[-1][1].append(line)
    return sections


def test_every_model_whose_spi_follows_a_scaling_core_clock_holds_it(firmware):
    """The Pi Zero and Zero W scale their core between 250 and 400 MHz, as the Pi 3 and
    Zero 2 W do, and their SPI clock is divided from it; a Pi 4 holds 500; a Pi 5's SPI
    has its own clock. [pi0] also matches a Zero 2 W, which gets 250 from both."""
    boot_config(firmware, "apply", 8192)
    sections = sections_of(block_of((firmware / "config.txt").read_text()))
    assert sections == [("all", ["dtparam=spi=on"]),
                        ("pi1", ["core_freq=250"]), ("pi0", ["core_freq=250"]),
                        ("pi3", ["core_freq=250"]), ("pi02", ["core_freq=250"]),
                        ("pi4", ["core_freq=500", "core_freq_min=500"]),
                        ("all", [])]


def test_another_profile_replaces_the_buffer_size_instead_of_adding_one(firmware):
    boot_config(firmware, "apply", 8192)
    config = (firmware / "config.txt").read_text()
    assert boot_config(firmware, "apply", 4096).returncode == 3
    assert (firmware / "cmdline.txt").read_text().split().count("spidev.bufsiz=4096") == 1
    assert "spidev.bufsiz=8192" not in (firmware / "cmdline.txt").read_text()
    assert (firmware / "config.txt").read_text() == config


def test_remove_gives_back_the_files_as_they_were(firmware):
    boot_config(firmware, "apply", 8192)
    removed = boot_config(firmware, "remove")
    assert removed.returncode == 3, removed.stderr
    assert (firmware / "config.txt").read_text() == CONFIG_TXT
    assert (firmware / "cmdline.txt").read_text() == CMDLINE_TXT
    assert boot_config(firmware, "remove").returncode == 0  # nothing left to remove


def test_a_block_without_its_end_is_left_for_a_person_to_mend(firmware):
    torn = CONFIG_TXT + "# tabletop: begin\ndtparam=spi=on\n[pi4]\nmy_own_line=1\n"
    (firmware / "config.txt").write_text(torn)
    result = boot_config(firmware, "apply", 8192)
    assert result.returncode == 1 and "mend it by hand" in result.stderr
    assert (firmware / "config.txt").read_text() == torn
    assert (firmware / "cmdline.txt").read_text() == CMDLINE_TXT


def test_no_boot_files_is_not_a_pi_and_changes_nothing(tmp_path):
    result = boot_config(tmp_path, "apply", 8192)
    assert result.returncode == 0 and "not a Pi" in result.stdout
    assert list(tmp_path.iterdir()) == []


def test_the_install_script_hands_the_boot_files_the_installed_programs_numbers():
    """spidev.bufsiz and SPI_BUFSIZE are one number, printed by the installed program;
    --uninstall takes the boot edits out and keeps the settings and the saved games."""
    script = (SYSTEMD / "install.sh").read_text()
    assert 'BUFSIZ="$("$PREFIX/venv/bin/python" -m app.hardware.spi "$PROFILE")"' in script
    assert "printf 'TABLETOP_PROFILE=%s\\nSPI_BUFSIZE=%s\\n' \"$PROFILE\" \"$BUFSIZ\"" in script
    assert 'boot-config.sh" apply "$BUFSIZ" "$PREFIX/venv/bin/python"' in script
    assert 'boot-config.sh" remove' in script
    uninstall = script[script.index('if [ "$ACTION" = uninstall ]'):script.index("exit 0\nfi")]
    commands = [line.strip() for line in uninstall.splitlines()
                if not line.strip().startswith(("echo", "#"))]
    assert 'rm -f "$UNIT" "$STOPPED_UNIT" "$RULES" "$DEFAULTS"' in commands
    assert 'rm -rf "$PREFIX"' in commands
    assert not [command for command in commands
                if re.search(r"/etc/tabletop|/var/lib/tabletop|userdel", command)]
