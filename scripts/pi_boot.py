#!/usr/bin/env python3
"""``make pi-boot``: an emulated Pi-like machine booted from power-on, with Tabletop
installed on it as a maker installs it, checked as the service it then is.

``make pi-check`` installs into a chroot: no booted systemd, no boot order, no display,
no network that comes up late, no power cut. This boots the root that pi-check built
(with Debian's arm64 kernel, systemd, udev and an initramfs added) in
``qemu-system-aarch64 -M virt -cpu cortex-a72`` (TCG, no KVM), and gives the machine
what a board has, as virtual devices:

- a KMS display (virtio-gpu, 800x480 as the official touch display: the kernel's
  virtio_gpu driver makes /dev/dri/card0) and a touch device through evdev
  (virtio-tablet). Without virgl, Mesa draws for SDL with its software rasteriser
  (kms_swrast) into dumb buffers, which the kernel copies to QEMU at each page flip, so
  QEMU's screen dump shows what a Pi's panel would. The dark dumps of earlier runs were
  the product's, not QEMU's: SDL's desktop-GL renderer without libGL/libOpenGL draws
  black (a dumb buffer of our own showed, as did SDL's GLES 2 renderer), which a Pi
  with install.sh's packages meets too (app/screen/display.py). This QEMU (7.2) has no
  virtio-multitouch device, so the touch is an absolute pointer: SDL takes it for a
  mouse, not the touchscreen a Pi's display is (see Machine.tap);
- the sensor board on a virtual serial port (a virtio console, /dev/hvc0, which a udev
  rule of the machine's names /dev/tabletop-sensors as the project's rule names a Pico),
  wired to a virtual sensor board on the host (the firmware's own logic, as ``tabletop
  device`` runs it), which drives the LEDs: pieces are placed from the host and the LED
  frames the board receives are read there;
- a network whose link comes up only after the service is ready (QEMU's user-mode
  network, the link switched on from QEMU's monitor), with the page's port forwarded to
  the host.

The guest is driven through QEMU's guest agent (commands run in the guest, their output
returned) and QEMU's monitor (screen dumps, touch events, the link, the power). Each
check prints ``PASS  name: detail`` or ``FAIL  name: detail``, then the times from
power-on; the last line counts the checks, and the exit status is 0 only if all passed.

Needs root (the image is built in a chroot and with mkfs.ext4 -d) and a long time under
emulation: the image is cached in /var/cache/tabletop-pi-boot and rebuilt only when the
pi-check root or this recipe changed. Standard library only; the host-side board and the
picture comparison run in the checkout's virtual environment (``make`` builds it).

    sudo scripts/pi_boot.py [--cache DIR] [--keep-image]
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pi_check  # noqa: E402  (the chroot's helpers, the output's form)
from pi_check import check, in_root, phase, say  # noqa: E402

CHECKOUT = pi_check.CHECKOUT
CACHE = Path("/var/cache/tabletop-pi-boot")
VENV_PYTHON_HOST = CHECKOUT / ".venv/bin/python"

#: What a boot needs that pi-check's root lacks; the guest agent is the host's hand in it,
#: sudo is what the README's self-test line uses. No Mesa: Raspberry Pi OS Lite has none,
#: so whatever the screen needs, install.sh must bring.
BOOT_PACKAGES = ("linux-image-arm64", "systemd-sysv", "udev", "initramfs-tools", "kmod",
                 "qemu-guest-agent", "sudo", "iproute2", "procps")
#: The profile the machine's service runs: the shipped kulami board with its sensors on
#: a serial board that also drives the LEDs, so both are read on the host.
PROFILE_PATH = "/etc/tabletop/kulami-serial.toml"
PROFILE_TEXT = """\
# make pi-boot: the kulami board with a serial sensor board that drives the LEDs, so the
# emulated machine's sensors and LEDs are the host's virtual board.
base = "kulami"
description = "kulami, sensor board and LEDs over serial (make pi-boot)"

[sensors]
driver = "serial"
port = "auto"
colour = true

[leds]
driver = "serial"
brightness = 0.5
max_ma = 2500
"""
#: The machine's own wiring, not the project's: its sensor board is the first virtio
#: console, which the project's udev rule (a Pico's USB id) cannot know.
SENSOR_RULE = 'KERNEL=="hvc0", GROUP="dialout", MODE="0660", SYMLINK+="tabletop-sensors"\n'
NETWORK_UNIT = "[Match]\nName=eth* en*\n\n[Network]\nDHCP=ipv4\n"
FSTAB = "LABEL=pi-boot / ext4 defaults 0 1\n" \
        "LABEL=tabletop-src /root/tabletop-src ext4 defaults,nofail 0 2\n"
INITRAMFS = {"etc/initramfs-tools/conf.d/pi-boot.conf": "MODULES=list\n",
             "usr/share/initramfs-tools/modules.d/pi-boot": "virtio_pci\nvirtio_blk\next4\n"}
IMAGE_SIZE = "4G"
DISPLAY = (800, 480)  # the official touch display; the status screen's design size
APPEND = "root=LABEL=pi-boot rw rootwait console=ttyAMA0 net.ifnames=0"
#: The recipe's fingerprint: a change here rebuilds the image.
RECIPE = hashlib.sha256(repr((BOOT_PACKAGES, PROFILE_TEXT, SENSOR_RULE, NETWORK_UNIT,
                              FSTAB, INITRAMFS, IMAGE_SIZE, pi_check.SAMPLE_CONFIG,
                              pi_check.SAMPLE_CMDLINE, 2)).encode()).hexdigest()[:16]

#: Timeouts: a TCG boot on 2 shared cores is minutes, not seconds.
BOOT_TIMEOUT = 900.0
READY_TIMEOUT = 900.0
#: How long after READY the network's link comes up (the page must follow it).
LINK_DELAY = 10.0
WATCHDOG_TIMEOUT = 240.0
GUEST_PATH = "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
TABLETOP = pi_check.TABLETOP
#: Where the screen matches the reference: at most this share of pixels differ much.
#: Measured against the reference: the board's own first frame 1.8% (its web code and
#: the setup's legend), the new-game menu 48%, a game under way 35%, a black screen 64%.
SCREEN_MATCH = 0.12

TIMES: dict[str, float] = {}


# --------------------------------------------------------------------------- the image

def pi_check_root() -> Path:
    """pi-check's installed root; made by running pi-check when it is not there."""
    root = pi_check.ROOT
    if not (root / pi_check.COPIED).exists() or not (root / TABLETOP.lstrip("/")).exists():
        say(f"no installed pi-check root in {root}: running make pi-check first "
            f"(10+ minutes under emulation)")
        subprocess.run([sys.executable, str(CHECKOUT / "scripts/pi_check.py")])
        if not (root / TABLETOP.lstrip("/")).exists():
            raise SystemExit("pi-boot: pi-check left no installed root")
    return root


def image_key(root: Path) -> str:
    """What the image is made of: pi-check's install (its last run) and this recipe."""
    installed = (root / TABLETOP.lstrip("/")).stat().st_mtime_ns
    return f"{RECIPE} {installed}\n"


def build_image(root: Path, keep: bool = False) -> None:
    """The bootable copy of pi-check's root, then an ext4 image of it, a kernel and an
    initramfs; kept until pi-check's install or the recipe changes, or whatever changed
    with ``keep`` (install.sh runs on the booted machine from the checkout anyway)."""
    stamp, image = CACHE / "image.key", CACHE / "disk.img"
    key = image_key(root)
    if image.exists() and stamp.exists() and (keep or stamp.read_text() == key):
        say(f"reusing {image} (" + ("--keep-image" if stamp.read_text() != key else
                                    "pi-check's install and the recipe are unchanged") + ")")
        return
    stamp.unlink(missing_ok=True)
    boot_root = CACHE / "root"
    pi_check.remove_root(boot_root)
    CACHE.mkdir(parents=True, exist_ok=True)
    say(f"copying {root} to {boot_root}")
    pi_check.run(["cp", "-a", "--reflink=auto", str(root), str(boot_root)])
    # The initramfs need only mount a virtio disk: with Debian's MODULES=most it takes
    # ten minutes under emulation, and is made twice (the kernel, then a trigger).
    for name, text in INITRAMFS.items():
        (boot_root / name).parent.mkdir(parents=True, exist_ok=True)
        (boot_root / name).write_text(text)
    with pi_check.bound(boot_root):
        log = CACHE / "boot-packages.log"
        say(f"apt-get install {' '.join(BOOT_PACKAGES)} (the kernel's initramfs is made "
            f"under emulation: minutes)")
        with in_root(["sh", "-c", "apt-get update && apt-get install -y "
                      "--no-install-recommends " + " ".join(BOOT_PACKAGES)],
                     boot_root) as apt, log.open("w") as kept:
            for line in apt.stdout:
                kept.write(line)
        if apt.returncode != 0:
            say("".join(log.read_text().splitlines(keepends=True)[-15:]))
            raise SystemExit(f"pi-boot: installing the boot packages failed ({log})")
    configure_boot_root(boot_root)
    kernels = sorted((boot_root / "boot").glob("vmlinuz-*"))
    initrds = sorted((boot_root / "boot").glob("initrd.img-*"))
    if not kernels or not initrds:
        raise SystemExit(f"pi-boot: no kernel or initramfs in {boot_root}/boot")
    shutil.copyfile(kernels[-1], CACHE / "vmlinuz")
    shutil.copyfile(initrds[-1], CACHE / "initrd.img")
    say(f"kernel {kernels[-1].name}; mkfs.ext4 -d {boot_root} ({IMAGE_SIZE})")
    partial = CACHE / "disk.img.partial"
    partial.unlink(missing_ok=True)
    pi_check.run(["mkfs.ext4", "-q", "-F", "-L", "pi-boot", "-d", str(boot_root),
                  str(partial), IMAGE_SIZE], stdout=subprocess.DEVNULL)
    partial.rename(image)
    pi_check.remove_root(boot_root)  # the image holds it; the copy is 2 GB of nothing
    stamp.write_text(key)


def configure_boot_root(root: Path) -> None:
    """What makes pi-check's root a machine that boots: its disks, a network that asks
    DHCP, a name, the Pi's firmware folder, the profile and the settings a maker keeps,
    and no policy that stops daemons (that was for the chroot)."""
    (root / "usr/sbin/policy-rc.d").unlink(missing_ok=True)
    (root / "etc/fstab").write_text(FSTAB)
    (root / "etc/hostname").write_text("raspberrypi\n")
    (root / "etc/hosts").write_text("127.0.0.1 localhost\n127.0.1.1 raspberrypi\n")
    resolv = root / "etc/resolv.conf"
    resolv.unlink(missing_ok=True)
    resolv.write_text("nameserver 10.0.2.3\n")  # QEMU's user-mode network's resolver
    network = root / "etc/systemd/network/20-wired.network"
    network.parent.mkdir(parents=True, exist_ok=True)
    network.write_text(NETWORK_UNIT)
    wants = root / "etc/systemd/system/multi-user.target.wants"
    wants.mkdir(parents=True, exist_ok=True)
    link = wants / "systemd-networkd.service"
    link.unlink(missing_ok=True)
    link.symlink_to("/lib/systemd/system/systemd-networkd.service")
    # systemd puts a login prompt on the first virtual console, hvc0, which here is the
    # sensor board's line.
    getty = root / "etc/systemd/system/serial-getty@hvc0.service"
    getty.unlink(missing_ok=True)
    getty.symlink_to("/dev/null")
    (root / "etc/udev/rules.d/90-pi-boot-sensors.rules").write_text(SENSOR_RULE)
    source = root / pi_check.ROOT_SOURCE.lstrip("/")
    shutil.rmtree(source, ignore_errors=True)
    source.mkdir()
    firmware = root / "boot/firmware"
    firmware.mkdir(parents=True, exist_ok=True)
    (firmware / "config.txt").write_text(pi_check.SAMPLE_CONFIG)
    (firmware / "cmdline.txt").write_text(pi_check.SAMPLE_CMDLINE)
    (root / PROFILE_PATH.lstrip("/")).write_text(PROFILE_TEXT)
    # The settings as the example has them, less the confirm button: this machine has no
    # Pi's GPIO header for it (the sensor board's profile needs none).
    settings = root / "etc/tabletop/tabletop.toml"
    text = settings.read_text()
    settings.write_text(re.sub(r"^confirm = \d+$", "# confirm: no GPIO header on this "
                               "machine (make pi-boot)", text, flags=re.MULTILINE))
    os.chmod(settings, 0o644)


def source_image(folder: Path) -> Path:
    """The checkout as git sees it, on a disk of its own (the image stays as built):
    pi_check's own copy, made into ``folder``."""
    saved = pi_check.ROOT
    pi_check.ROOT = folder / "stage"
    try:
        count = pi_check.copy_checkout()
    finally:
        pi_check.ROOT = saved
    image = folder / "source.img"
    image.unlink(missing_ok=True)
    pi_check.run(["mkfs.ext4", "-q", "-F", "-L", "tabletop-src", "-d",
                  str(folder / "stage" / pi_check.ROOT_SOURCE.lstrip("/")), str(image), "256M"], stdout=subprocess.DEVNULL)
    shutil.rmtree(folder / "stage")
    say(f"the checkout ({count} files) on {image}")
    return image


# --------------------------------------------------------------------------- QEMU's sockets

class JsonSocket:
    """A JSON-lines conversation over a Unix socket (QMP, the guest agent)."""

    def __init__(self, path: Path, timeout: float) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(str(path))
        self.buffer = b""
        self.lock = threading.Lock()

    def send(self, message: dict, prefix: bytes = b"") -> None:
        self.sock.sendall(prefix + json.dumps(message).encode() + b"\n")

    def receive(self, timeout: float) -> dict:
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no answer")
            self.sock.settimeout(left)
            data = self.sock.recv(65536)
            if not data:
                raise ConnectionError("closed")
            self.buffer += data
        line, self.buffer = self.buffer.split(b"\n", 1)
        line = line.replace(b"\xff", b"").strip()
        return json.loads(line) if line else self.receive(max(0.1, deadline - time.monotonic()))

    def close(self) -> None:
        self.sock.close()


class Monitor(JsonSocket):
    """QEMU's machine protocol (QMP): the screen, the touch device, the link, the power."""

    def __init__(self, path: Path) -> None:
        super().__init__(path, 30)
        self.receive(30)  # the greeting
        self.execute("qmp_capabilities")

    def execute(self, command: str, **arguments) -> object:
        with self.lock:
            self.send({"execute": command, "arguments": arguments})
            while True:
                answer = self.receive(120)
                if "return" in answer:
                    return answer["return"]
                if "error" in answer:
                    raise RuntimeError(f"{command}: {answer['error'].get('desc')}")


class Agent(JsonSocket):
    """QEMU's guest agent: a command run in the guest as root, its status and output."""

    def __init__(self, path: Path, deadline: float) -> None:
        super().__init__(path, 5)
        while True:  # the agent starts late in the boot; until then nothing answers
            token = int(time.monotonic() * 1000) % 2**31
            self.send({"execute": "guest-sync-delimited", "arguments": {"id": token}},
                      prefix=b"\xff")
            try:
                while self.receive(5).get("return") != token:
                    pass
                return
            except (TimeoutError, ValueError):
                if time.monotonic() > deadline:
                    raise TimeoutError("the guest agent never answered") from None

    def run(self, command: str, timeout: float = 300) -> tuple[int, str]:
        """``sh -c command`` in the guest: its exit status and output (stderr after)."""
        with self.lock:
            self.send({"execute": "guest-exec", "arguments": {
                "path": "/bin/sh", "arg": ["-c", command], "capture-output": True,
                "env": [GUEST_PATH, "HOME=/root", "LANG=C.UTF-8"]}})
            pid = self.receive(30)["return"]["pid"]
            deadline = time.monotonic() + timeout
            while True:
                self.send({"execute": "guest-exec-status", "arguments": {"pid": pid}})
                status = self.receive(30)["return"]
                if status.get("exited"):
                    text = "".join(base64.b64decode(status.get(key, "")).decode(errors="replace")
                                   for key in ("out-data", "err-data"))
                    return status.get("exitcode", -1), text
                if time.monotonic() > deadline:
                    return -1, f"(still running after {timeout:.0f} s)"
                time.sleep(0.5)


# --------------------------------------------------------------------------- the host's board

#: Run by the checkout's python: the virtual sensor board for the machine's profile, with
#: a hand for the self-test, and the screen comparison. Commands on stdin, one JSON line
#: each on stdout.
BOARD = r"""
import json, os, sys, threading, time
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
from app.hardware.profile import load_profile
from app.hardware.virtual_device import DeviceSensors, device_for
profile = load_profile(sys.argv[1])
device = device_for(profile, folder=sys.argv[2]).start()
hand = DeviceSensors(device, profile)
led_of = {hole: list(spec.leds) for hole, spec in profile.holes.items()}
hole_of = {led: hole for hole, leds in led_of.items() for led in leds}
state = {"first_light": None, "answer": False, "placed": None, "colour": None,
         "lifted": None, "answers": 0}

def lit():
    buf = device.leds.buf
    return {i: tuple(buf[3 * i:3 * i + 3]) for i in range(device.leds.count) if any(buf[3 * i:3 * i + 3])}

def watch():
    # The first frame with light, and the self-test's hand: a piece where one hole is
    # lit in a colour that is not white (the lamp test's), lifted when its light changes.
    while True:
        now = time.monotonic()
        on = lit()
        if on and state["first_light"] is None:
            state["first_light"] = now
        if state["answer"]:
            placed = state["placed"]
            if placed is not None:
                colour = on.get(led_of[placed][0])
                if colour != state["colour"]:
                    hand.lift(placed)
                    state["placed"], state["lifted"] = None, (placed, colour)
            elif len(on) == 1:
                (led, colour), = on.items()
                hole = hole_of.get(led)
                if len(set(colour)) > 1 and hole and (hole, colour) != state["lifted"]:
                    hand.place(hole, "b")
                    state["placed"], state["colour"] = hole, colour
                    state["answers"] += 1
        time.sleep(0.02)

threading.Thread(target=watch, daemon=True).start()
leds_of = {**{area: list(leds) for area, leds in profile.areas.items()}, **led_of}
print(json.dumps({"path": device.path, "tty": device.link.name, "leds_of": leds_of}),
      flush=True)
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "place":
        hand.place(words[1], words[2])
        print(json.dumps({}), flush=True)
    elif words[0] == "lift":
        hand.lift(words[1])
        print(json.dumps({}), flush=True)
    elif words[0] == "clear":
        for hole in profile.holes:
            hand.lift(hole)
        print(json.dumps({}), flush=True)
    elif words[0] == "answer":
        state["answer"] = words[1] == "on"
        print(json.dumps({"answers": state["answers"]}), flush=True)
    elif words[0] == "leds":
        print(json.dumps({"lit": sorted(lit()),
                          "first_light": state["first_light"], "shown": device.leds.shown}), flush=True)
    elif words[0] == "compare":
        import pygame
        try:
            a, b = (pygame.image.load(path) for path in words[1:3])
        except (pygame.error, FileNotFoundError) as error:
            print(json.dumps({"error": str(error)}), flush=True)
            continue
        if a.get_size() != b.get_size():
            b = pygame.transform.smoothscale(b.convert(24), a.get_size())
        w, h = a.get_size()
        differ = colours = 0
        seen = set()
        for y in range(0, h, 4):
            for x in range(0, w, 4):
                p, q = a.get_at((x, y)), b.get_at((x, y))
                seen.add(tuple(p)[:3])
                if max(abs(p[i] - q[i]) for i in range(3)) > 48:
                    differ += 1
                colours += 1
        print(json.dumps({"differ": differ / colours, "colours": len(seen), "size": [w, h]}), flush=True)
device.stop()
"""


class HostBoard:
    """The virtual sensor board on the host (the firmware's logic on a pseudo-terminal),
    which QEMU wires to the guest's sensor port; pieces placed, LEDs read, pictures
    compared through it."""

    def __init__(self, folder: Path) -> None:
        profile = folder / "kulami-serial.toml"
        profile.write_text(PROFILE_TEXT)
        self.process = subprocess.Popen([str(VENV_PYTHON_HOST), "-c", BOARD, str(profile),
                                         str(folder)], cwd=CHECKOUT, text=True,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        hello = json.loads(self.process.stdout.readline())
        self.tty = hello["tty"]
        #: The LEDs that light each hole and each area, as the profile chains them.
        self.leds_of: dict[str, list[int]] = hello["leds_of"]
        self.lock = threading.Lock()

    def ask(self, *words: str) -> dict:
        with self.lock:
            self.process.stdin.write(" ".join(words) + "\n")
            self.process.stdin.flush()
            return json.loads(self.process.stdout.readline())

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(10)


# --------------------------------------------------------------------------- the machine

class Machine:
    """One power-on of the emulated board: QEMU, its monitor, its guest agent."""

    def __init__(self, run: Path, board: HostBoard, web_port: int, name: str) -> None:
        self.run, self.board, self.web_port, self.name = run, board, web_port, name
        self.serial_log = run / f"serial-{name}.log"
        self.process: subprocess.Popen | None = None
        self.monitor: Monitor | None = None
        self.agent_: Agent | None = None
        self.power_on = 0.0

    def command(self) -> list[str]:
        run = self.run
        return [
            "qemu-system-aarch64", "-M", "virt", "-cpu", "cortex-a72", "-smp", "2",
            "-m", "2048", "-nodefaults", "-display", "none", "-S",
            "-kernel", str(CACHE / "vmlinuz"), "-initrd", str(CACHE / "initrd.img"),
            "-append", APPEND,
            # cache=unsafe: the guest's flushes are ignored, so what it has not written
            # when the power goes is really gone.
            "-drive", f"if=none,id=root,file={run / 'disk.img'},format=raw,cache=unsafe",
            "-device", "virtio-blk-pci,drive=root",
            "-drive", f"if=none,id=src,file={run / 'source.img'},format=raw,cache=unsafe",
            "-device", "virtio-blk-pci,drive=src",
            "-netdev", f"user,id=net0,hostfwd=tcp:127.0.0.1:{self.web_port}-:80",
            "-device", "virtio-net-pci,netdev=net0,id=nic0",
            "-device", f"virtio-gpu-pci,xres={DISPLAY[0]},yres={DISPLAY[1]}",
            "-device", "virtio-tablet-pci", "-device", "virtio-rng-pci",
            "-device", "virtio-serial-pci,id=vser",
            "-chardev", f"serial,id=sensors,path={self.board.tty}",
            "-device", "virtconsole,bus=vser.0,chardev=sensors,name=tabletop.sensors",
            "-chardev", f"socket,id=qga,path={run / 'qga.sock'},server=on,wait=off",
            "-device", "virtserialport,bus=vser.0,chardev=qga,name=org.qemu.guest_agent.0",
            "-qmp", f"unix:{run / 'qmp.sock'},server=on,wait=off",
            "-serial", f"file:{self.serial_log}",
        ]

    def start(self, link_up: bool) -> None:
        for name in ("qga.sock", "qmp.sock"):
            (self.run / name).unlink(missing_ok=True)
        self.power_on = time.monotonic()
        self.process = subprocess.Popen(self.command(), stdout=(self.run / "qemu.log").open("a"),
                                        stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while not (self.run / "qmp.sock").exists():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"pi-boot: QEMU did not start ({self.run / 'qemu.log'})")
            time.sleep(0.1)
        self.monitor = Monitor(self.run / "qmp.sock")
        if not link_up:
            self.link(False)
        self.monitor.execute("cont")
        self.power_on = time.monotonic()

    def link(self, up: bool) -> None:
        self.monitor.execute("set_link", name="nic0", up=up)

    @property
    def agent(self) -> Agent:
        if self.agent_ is None:
            self.agent_ = Agent(self.run / "qga.sock", time.monotonic() + BOOT_TIMEOUT)
        return self.agent_

    def sh(self, command: str, timeout: float = 300) -> tuple[int, str]:
        return self.agent.run(command, timeout)

    def guest_clock(self) -> float:
        """The host's monotonic time at the guest's monotonic zero (its kernel's start)."""
        before = time.monotonic()
        _, out = self.sh("cat /proc/uptime")
        after = time.monotonic()
        return (before + after) / 2 - float(out.split()[0])

    def screendump(self, path: Path) -> None:
        self.monitor.execute("screendump", filename=str(path))

    def tap(self, x: int, y: int) -> None:
        """A finger down and up at screen pixel (x, y) on the touch device.

        The pointer goes through the corner (0, 0) first. The kernel reports an axis
        only when its value changes, and SDL (2.32, ``SDL_EVDEV_init_mouse``) reads an
        absolute mouse's ranges but not where it is when it opens the device, starting
        at (0, 0): a tap whose y equals the last tap's, after the service restarted,
        reached the window at y = 0. Through the corner, each axis either changes or is
        0 already, so SDL knows both. (A touchscreen's position SDL does read at open.)"""
        scale = [0x7FFF * x // (DISPLAY[0] - 1), 0x7FFF * y // (DISPLAY[1] - 1)]
        for point in ((0, 0), scale):
            self.monitor.execute("input-send-event", events=[
                {"type": "abs", "data": {"axis": "x", "value": point[0]}},
                {"type": "abs", "data": {"axis": "y", "value": point[1]}}])
        for down in (True, False):
            self.monitor.execute("input-send-event", events=[
                {"type": "btn", "data": {"down": down, "button": "left"}}])
            time.sleep(0.3)

    def cut_power(self) -> None:
        """The plug pulled: QEMU killed, nothing flushed."""
        self.process.kill()
        self.process.wait()
        self.close()

    def power_off(self, timeout: float = 300) -> bool:
        """A clean shutdown from inside, QEMU ending with it; the plug after ``timeout``."""
        # Not the agent's guest-shutdown: it runs shutdown(8), which asks logind over
        # D-Bus, and this machine has no D-Bus. Nothing answers once the power is off.
        try:
            self.agent.send({"execute": "guest-exec", "arguments": {
                "path": "/bin/systemctl", "arg": ["poweroff"]}})
        except OSError:
            pass
        try:
            self.process.wait(timeout)
            clean = True
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            clean = False
        self.close()
        return clean

    def close(self) -> None:
        for each in (self.monitor, self.agent_):
            if each is not None:
                each.close()
        self.monitor = self.agent_ = None
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()


# --------------------------------------------------------------------------- the checks

def service(machine: Machine) -> dict[str, str]:
    _, out = machine.sh("systemctl show tabletop.service -p ActiveState -p SubState "
                        "-p MainPID -p User -p ActiveEnterTimestampMonotonic -p NRestarts "
                        "-p ExecMainStartTimestampMonotonic")
    return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)


def wait_active(machine: Machine, timeout: float, old_pid: str = "") -> dict[str, str]:
    """The service's state once it is active with a main process other than ``old_pid``,
    or failed, or the last seen after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        state = service(machine)
        active = state.get("ActiveState") == "active" and state.get("MainPID", "0") not in ("0", old_pid)
        if active or state.get("ActiveState") == "failed" or time.monotonic() > deadline:
            return state
        time.sleep(2)


def journal(machine: Machine, lines: int = 8) -> str:
    """The service's own last lines this boot, without systemd's about it (a restart
    limit's lines would hide the cause)."""
    _, out = machine.sh("journalctl -u tabletop.service -b --no-pager -o cat | grep -v -E "
                        "'^(tabletop.service: |Stopped |Started |Starting |Failed to start )'")
    return " | ".join(out.strip().splitlines()[-lines:])[-600:]


def screen_lines(machine: Machine) -> str:
    """What the service's journal says of its screen."""
    _, out = machine.sh("journalctl -u tabletop.service -b --no-pager -o cat | "
                        "grep -i -E 'screen|SDL|display|/dev/dri' | tail -n 2")
    return " | ".join(out.strip().splitlines()) or "nothing about the screen"


def page_state(port: int, timeout: float = 30) -> dict | str:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state",
                                    timeout=timeout) as answer:
            return json.loads(answer.read())
    except (OSError, ValueError) as error:
        return f"no answer ({error})"


def wait_page(port: int, timeout: float, want=lambda state: True) -> dict | str:
    deadline = time.monotonic() + timeout
    while True:
        state = page_state(port)
        if isinstance(state, dict) and want(state) or time.monotonic() > deadline:
            return state
        time.sleep(2)


class ScreenWatch(threading.Thread):
    """Screen dumps every two seconds from power-on, each compared with the reference:
    the first that matches is the first frame of the status screen."""

    def __init__(self, machine: Machine, board: HostBoard, reference: Path | None) -> None:
        super().__init__(daemon=True)
        self.machine, self.board, self.reference = machine, board, reference
        self.first: float | None = None
        self.last: dict = {}
        self.stop = threading.Event()

    def run(self) -> None:
        dump = self.machine.run / "watch.ppm"
        while not self.stop.is_set() and self.first is None and self.reference:
            taken = time.monotonic()
            try:
                self.machine.screendump(dump)
                self.last = self.board.ask("compare", str(dump), str(self.reference))
            except (OSError, RuntimeError, AttributeError, ValueError):
                pass
            if self.last.get("differ", 1) <= SCREEN_MATCH and self.last.get("colours", 0) > 2:
                self.first = taken
            self.stop.wait(2)


def reference_screen(folder: Path) -> tuple[Path | None, str]:
    """``tabletop simulate --screen`` of the position a fresh board starts in (the
    settings' game and options), or why there is none. Its records go to a folder of
    this run's: in the host's own, simulate would continue a game of the host's."""
    path = folder / "reference.png"
    state = folder / "reference-state"
    state.mkdir(exist_ok=True)
    result = subprocess.run([str(CHECKOUT / ".venv/bin/tabletop"), "simulate", "kulami",
                             "layout=square-1", "scoring=0", "--screen", str(path)],
                            cwd=CHECKOUT, capture_output=True, text=True,
                            env=dict(os.environ, STATE_DIRECTORY=str(state)))
    if result.returncode != 0:
        last = (result.stderr.strip().splitlines() or ["(no output)"])[-1]
        return None, f"tabletop simulate --screen failed: {last[-200:]}"
    return path, ""


def leds_match(board: HostBoard, port: int, wait: float = 20) -> tuple[bool, str]:
    """The LEDs the board received light the places the page lights (blinking ones may
    be dark at the moment); asked again for ``wait`` seconds, as the frame follows the
    page over a serial line."""
    deadline = time.monotonic() + wait
    while True:
        state = page_state(port)
        lit = set(board.ask("leds")["lit"])
        lights = state.get("lights", {}) if isinstance(state, dict) else {}
        leds = {name: set(board.leds_of.get(name, ())) for name in lights}
        # A blinking light may be dark at the moment; a place with no LED of its own (a
        # Kulami panel on a board that lights only holes) is dark by design.
        missing = sorted(name for name, light in lights.items()
                         if not light.get("blink") and not leds[name] <= lit)
        allowed = set().union(*leds.values())
        extra = sorted(lit - allowed)
        ok = isinstance(state, dict) and not missing and not extra
        if ok or time.monotonic() > deadline:
            return ok, f"{len(lit)} LEDs lit for the {len(lights)} places the page " \
                f"lights" + (f"; dark: {' '.join(missing)}" if missing else "") + \
                (f"; LEDs lit that the page does not light: {extra}" if extra else "")
        time.sleep(1)


def placeable(state: dict) -> bool:
    """Whether a piece may go down now: the engine's move waits to be placed, or a
    person is to move and nothing is thinking."""
    status = state.get("status", {})
    return bool(status.get("pending")) or (
        state.get("seats", {}).get(status.get("turn")) == "person"
        and not status.get("thinking") and status.get("state") != "over"
        and status.get("result") is None)


def moves_of(state: dict | str) -> list[str]:
    return list(state.get("status", {}).get("moves", [])) if isinstance(state, dict) else []


# --------------------------------------------------------------------------- the run

def main_host(args: argparse.Namespace) -> int:
    if os.geteuid() != 0:
        raise SystemExit("pi-boot: needs root (chroot, mkfs.ext4 -d): sudo make pi-boot")
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    if not VENV_PYTHON_HOST.exists():
        raise SystemExit("pi-boot: no .venv in the checkout: run make first")
    started = time.monotonic()
    with phase("host tools"):
        missing = [p for p in ("qemu-system-arm", "e2fsprogs") if not pi_check.installed(p)]
        if missing:
            env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
            pi_check.run(["apt-get", "update", "-qq"], env=env)
            pi_check.run(["apt-get", "install", "-y", "-qq", *missing], env=env)
        pi_check.host_tools()
    with phase("pi-check root"):
        root = pi_check_root()
    with phase("boot image"):
        build_image(root, args.keep_image)
    run = CACHE / "run"
    shutil.rmtree(run, ignore_errors=True)
    run.mkdir(parents=True)
    with phase("this run's disks"):
        pi_check.run(["cp", "--sparse=always", str(CACHE / "disk.img"), str(run / "disk.img")])
        source_image(run)
        reference, why = reference_screen(run)
        if why:
            say(f"   no reference picture for the screen: {why}")
    board = HostBoard(run)
    port = free_port()
    say(f"sensor board on {board.tty}; the page forwarded to http://127.0.0.1:{port}/; "
        f"serial consoles in {run}")
    machine = None
    try:
        machine = Machine(run, board, port, "install")
        with phase("first boot: install.sh"):
            first_boot(machine)
        machine = Machine(run, board, port, "boot")
        with phase("power-on"):
            boot_checks(machine, board, reference, port)
        with phase("power cut"):
            machine = power_cut(machine, board, port)
        if machine is not None:
            with phase("selftest"):
                check_selftest(machine, board)
            with phase("start limit"):
                check_start_limit(machine)
    finally:
        if machine is not None:
            machine.close()
        board.close()
    say("== times from power-on (QEMU started; TCG on this machine's cores, not a Pi's)")
    for name in ("READY", "first light", "first frame on the screen", "page after the link"):
        value = TIMES.get(name)
        say(f"   {name:<28} " + (f"{value:6.1f} s" if value is not None else "   (none)"))
    say("== timings")
    for name, spent in pi_check.TIMINGS:
        say(f"   {name:<24} {spent:6.0f} s")
    say(f"   {'total':<24} {time.monotonic() - started:6.0f} s")
    passed = sum(ok for ok, _ in pi_check.RESULTS)
    say(f"pi-boot: {passed} of {len(pi_check.RESULTS)} checks passed")
    return 0 if passed == len(pi_check.RESULTS) else 1


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def first_boot(machine: Machine) -> None:
    """install.sh as a maker runs it on a fresh card, network up; then the reboot it
    asks for."""
    machine.start(link_up=True)
    machine.agent  # noqa: B018 (waits for the boot)
    say(f"   booted to the guest agent in {time.monotonic() - machine.power_on:.0f} s")
    command = f"cd /root && DEBIAN_FRONTEND=noninteractive sh {pi_check.ROOT_SOURCE}/systemd/install.sh {PROFILE_PATH}"
    say(f"   | sudo sh systemd/install.sh {PROFILE_PATH}")
    code, out = machine.sh(command + " 2>&1", timeout=3600)
    (machine.run / "install.log").write_text(out)
    for line in out.splitlines():
        if line.startswith("== ") or not pi_check.PACKAGE_CHATTER.match(line):
            say(f"   | {line.rstrip()}")
    check("install.sh on the booted machine", code == 0,
          f"exit status {code} (all its output: {machine.run / 'install.log'})")
    _, config = machine.sh("grep -h '^# CONFIG_GPIO_SIM is not set\\|^CONFIG_GPIO_SIM=' "
                           "/boot/config-$(uname -r)")
    if "=" not in config:
        say("   no gpio-sim in this kernel (Debian's arm64 kernel: CONFIG_GPIO_SIM is not "
            "set): the diode matrix is not put on simulated GPIO lines")
    clean = machine.power_off()
    say(f"   powered off {'cleanly' if clean else 'by pulling the plug (no clean shutdown)'}")


def boot_checks(machine: Machine, board: HostBoard, reference: Path | None, port: int) -> None:
    machine.start(link_up=False)
    watch = ScreenWatch(machine, board, reference)
    watch.start()
    machine.agent  # noqa: B018
    zero = machine.guest_clock()
    say(f"   guest agent answers {time.monotonic() - machine.power_on:.0f} s after power-on")
    state = wait_active(machine, READY_TIMEOUT)
    ready = state.get("ActiveState") == "active"
    user = ""
    if ready:
        TIMES["READY"] = zero + int(state["ActiveEnterTimestampMonotonic"]) / 1e6 \
            - machine.power_on
        _, user = machine.sh(f"ps -o user= -p {state['MainPID']}")
    check("service starts at boot", ready and user.strip() == "tabletop",
          f"{state.get('ActiveState')}/{state.get('SubState')} as "
          f"{user.strip() or state.get('User') or '?'}, READY "
          f"{TIMES.get('READY', 0):.1f} s after power-on" if ready else
          f"{state.get('ActiveState')}/{state.get('SubState')}: {journal(machine)}")
    if not ready:
        watch.stop.set()
        return
    # The network: down at power-on, up LINK_DELAY after READY, as Wi-Fi often is.
    time.sleep(LINK_DELAY)
    machine.link(True)
    linked = time.monotonic()
    address = ""
    for _ in range(60):
        _, out = machine.sh("ip -4 -o addr show dev eth0")
        found = re.search(r"inet (\d+\.\d+\.\d+\.\d+)", out)
        if found:
            address = found[1]
            break
        time.sleep(2)
    page = wait_page(port, 180)
    if isinstance(page, dict):
        TIMES["page after the link"] = time.monotonic() - linked
    check("page follows the network", isinstance(page, dict) and bool(address),
          f"link up {LINK_DELAY:.0f} s after READY, DHCP gave {address or 'nothing'}, the "
          f"page answers through the forwarded port " + (
              f"{TIMES['page after the link']:.0f} s later" if isinstance(page, dict)
              else f"never: {page}"))
    check_mdns(machine, address)
    watch.join(timeout=120)
    watch.stop.set()
    if watch.first is not None:
        TIMES["first frame on the screen"] = watch.first - machine.power_on
    if reference is None:
        check("status screen", False, "no reference picture (tabletop simulate --screen "
              "failed on the host)")
    else:
        check("status screen", watch.first is not None,
              f"a screen dump matches tabletop simulate --screen ({watch.last.get('differ', 1):.1%}"
              f" of pixels differ, {watch.last.get('colours', 0)} colours)" if watch.first else
              f"no screen dump matched the reference within the wait (the last: "
              f"{watch.last.get('differ', 1):.0%} of pixels differ, "
              f"{watch.last.get('colours', 0)} colours); the journal: {screen_lines(machine)}")
    first_light = board.ask("leds")["first_light"]
    if first_light is not None:
        TIMES["first light"] = first_light - machine.power_on
    check_tap(machine, board, port)
    check_play(machine, board, port)
    check_watchdog(machine, board, port)


def check_mdns(machine: Machine, address: str) -> None:
    """The name asked for over mDNS from the board itself (QEMU's user-mode network
    carries no multicast to the host): tabletop.local must answer with the address the
    network gave."""
    program = ("import sys\nfrom zeroconf import Zeroconf\nfrom zeroconf import "
               "AddressResolver\nzc = Zeroconf(interfaces=[sys.argv[1]])\n"
               "r = AddressResolver('tabletop.local.')\n"
               "print(' '.join(r.parsed_addresses()) if r.request(zc, 10000) else 'none')\n"
               "zc.close()\n")
    code, out = machine.sh(f"cd /tmp && {pi_check.VENV_PYTHON} -c \"{program}\" "
                           f"{address or '127.0.0.1'} 2>&1", timeout=120)
    answer = out.strip().splitlines()[-1] if out.strip() else "(nothing)"
    check("mDNS name", code == 0 and bool(address) and address in answer.split(),
          f"tabletop.local answers {answer} (the network gave {address or 'nothing'})")


def button(index: int) -> tuple[int, int]:
    """The middle of the status screen's button ``index`` (New game, Hint, Undo,
    Confirm), from app/screen/status.py's BUTTONS row: four buttons, 12 apart."""
    x, y, w, h = 16, 404, 768, 64
    width = (w - 3 * 12) / 4
    return int(x + index * (width + 12) + width / 2), y + h // 2


def check_tap(machine: Machine, board: HostBoard, port: int) -> None:
    """Two taps through the touch device, where the status screen has New game and the
    new-game menu has Back (the bottom row's first button on both): the first opens the
    menu, the second closes it, and the screen is the status screen again. Both land
    only if the window gets the taps at the pixels tapped; the game is left as it was
    for the checks after this one."""
    before_state = page_state(port)
    shots = {name: machine.run / f"{name}.ppm" for name in ("before-tap", "menu", "back")}
    machine.screendump(shots["before-tap"])
    changes = []
    for name in ("menu", "back"):
        machine.tap(*button(0))
        deadline = time.monotonic() + 60
        while True:  # a frame after a tap takes a while under emulation
            time.sleep(2)
            machine.screendump(shots[name])
            change = board.ask("compare", str(shots[name]), str(shots["before-tap"]))
            if (change.get("differ", 0) > 0.2) == (name == "menu") \
                    or time.monotonic() > deadline:
                break
        changes.append(change.get("differ", 0))
    after_state = page_state(port)
    moves_kept = moves_of(before_state) == moves_of(after_state)
    check("tap reaches the window", changes[0] > 0.2 and changes[1] < 0.02 and moves_kept,
          f"a tap on New game changed {changes[0]:.0%} of the screen (the menu), a tap on "
          f"its Back left {changes[1]:.1%} different from before; the game "
          f"{'unchanged' if moves_kept else 'changed'} ({len(moves_of(after_state))} moves)")
    if state_of(after_state) == "setup":  # a new Kulami game lays out its panels first
        machine.tap(*button(3))
        ended = wait_page(port, 30, lambda s: state_of(s) != "setup")
        say(f"   Confirm tapped while the panels are laid out: the page's state is "
            f"{state_of(ended)} (the first piece placed ends the setup too)")


def state_of(state: dict | str) -> str | None:
    return state.get("status", {}).get("state") if isinstance(state, dict) else None


def check_play(machine: Machine, board: HostBoard, port: int) -> None:
    """Moves played by placing pieces on the host's board: each shows on the page, and
    the LEDs the board receives light what the page lights (the engine's move to place,
    the last move, the legal holes)."""
    state = page_state(port)
    if not isinstance(state, dict):
        check("game on the sensor board", False, f"the page: {state}")
        return
    problems, played = [], []
    for turn in range(4):
        state = wait_page(port, 300, placeable)
        moves = moves_of(state)
        pending = state.get("status", {}).get("pending")
        colour = "b" if len(moves) % 2 == 0 else "w"
        if pending:
            hole = pending
        else:
            # While the panels are laid out the lights show the panels, not the legal
            # holes: Kulami's first piece may go in any hole, and it ends the setup.
            roles = ("legal", "target") if state.get("status", {}).get("state") != "setup" \
                else ("setup",)
            legal = sorted(h for h, light in state.get("lights", {}).items()
                           if light.get("role") in roles)
            hole = legal[0] if legal else None
        if hole is None:
            problems.append(f"turn {turn + 1}: no hole to play ({state.get('lights')})")
            break
        ok, detail = leds_match(board, port)
        if not ok:
            problems.append(f"before move {len(moves) + 1}: {detail}")
        board.ask("place", hole, colour)
        played.append(hole)
        state = wait_page(port, 300, lambda s: len(moves_of(s)) > len(moves))
        if len(moves_of(state)) <= len(moves):
            problems.append(f"{hole} placed: the page shows no new move "
                            f"({state.get('status', {}).get('message') if isinstance(state, dict) else state})")
            break
    ok, detail = leds_match(board, port)
    final = page_state(port)
    if not ok:
        problems.append(f"at the end: {detail}")
    check("game on the sensor board", not problems,
          "; ".join(problems) or f"placed {' '.join(played)}: the page shows "
          f"{' '.join(moves_of(final))}; {detail}")


def check_watchdog(machine: Machine, board: HostBoard, port: int) -> None:
    """The main loop stopped (SIGSTOP): systemd's watchdog kills it and starts it again,
    and the game resumes where it was."""
    before = service(machine)
    moves = moves_of(page_state(port))
    stopped = time.monotonic()
    machine.sh(f"kill -STOP {before.get('MainPID')}")
    state = wait_active(machine, WATCHDOG_TIMEOUT, old_pid=before.get("MainPID", ""))
    again = state.get("ActiveState") == "active" and state.get("MainPID") != before.get("MainPID")
    spent = time.monotonic() - stopped
    page = wait_page(port, 180, lambda s: moves_of(s) == moves) if again else "not restarted"
    resumed = isinstance(page, dict) and moves_of(page) == moves
    check("watchdog restarts a hung loop", again and resumed,
          f"pid {before.get('MainPID')} stopped; "
          + (f"restarted as {state.get('MainPID')} after {spent:.0f} s "
             f"(NRestarts {state.get('NRestarts')}), the game resumes at "
             f"{len(moves_of(page))} moves (was {len(moves)})" if again else
             f"still {state.get('ActiveState')}/{state.get('SubState')} pid "
             f"{state.get('MainPID')} after {spent:.0f} s: {journal(machine, 4)}"))


def power_cut(machine: Machine, board: HostBoard, port: int) -> Machine | None:
    """A move placed and acknowledged (the page shows it), then the plug pulled; after the
    next power-on the game has that move."""
    state = page_state(port)
    if not isinstance(state, dict):
        check("power cut keeps acknowledged moves", False, f"no page before the cut: {state}")
        machine.cut_power()
        return None
    moves = moves_of(state)
    pending = state.get("status", {}).get("pending")
    lights = state.get("lights", {})
    hole = pending or next((h for h, light in sorted(lights.items())
                            if light.get("role") in ("legal", "target")), None)
    if hole is not None:
        board.ask("place", hole, "b" if len(moves) % 2 == 0 else "w")
        state = wait_page(port, 300, lambda s: len(moves_of(s)) > len(moves))
    acknowledged = moves_of(state)
    machine.cut_power()
    say(f"   power cut with {len(acknowledged)} moves acknowledged")
    machine = Machine(machine.run, board, port, "after-cut")
    machine.start(link_up=True)
    machine.agent  # noqa: B018
    state = wait_active(machine, READY_TIMEOUT)
    page = wait_page(port, 300) if state.get("ActiveState") == "active" else "service not active"
    after = moves_of(page)
    check("power cut keeps acknowledged moves", bool(acknowledged) and
          after[:len(acknowledged)] == acknowledged,
          f"{len(acknowledged)} acknowledged before the cut, {len(after)} after the next "
          f"boot" + ("" if isinstance(page, dict) else f": {page}; {journal(machine, 4)}"))
    return machine


def check_selftest(machine: Machine, board: HostBoard) -> None:
    """The README's lines, as a maker types them (in their home): stop, selftest as the
    tabletop user, start. The host's hand places a piece where the test lights a hole."""
    board.ask("clear")  # the maker clears the board first: a piece left is "stuck closed"
    board.ask("answer", "on")
    command = ("cd /root && systemctl stop tabletop && sudo -u tabletop "
               f"{TABLETOP} selftest --profile {PROFILE_PATH}; status=$?; "
               "systemctl start tabletop; exit $status")
    start = time.monotonic()
    code, out = machine.sh(command + " 2>&1", timeout=1800)
    answers = board.ask("answer", "off")["answers"]
    (machine.run / "selftest.log").write_text(out)
    lines = out.strip().splitlines() or ["(no output)"]
    check("selftest as the README says", code == 0,
          f"{lines[-1][-200:]} ({answers} pieces placed by the host, "
          f"{time.monotonic() - start:.0f} s)" if code == 0 else
          f"exit {code}: {' | '.join(lines[-3:])[-300:]}")


#: A fault no restart mends, for the start limit's check: the shipped kulami profile
#: (GPIO sensors, SPI LEDs) on a machine with neither. A runtime drop-in, gone at reboot.
FAULT_DROP_IN = ("/run/systemd/system/tabletop.service.d/pi-boot-fault.conf",
                 "[Service]\nExecStart=\nExecStart=/opt/tabletop/venv/bin/tabletop run "
                 "--profile kulami --config /etc/tabletop/tabletop.toml\n")
#: How long five failed starts may take under emulation (each is Python's start-up).
START_LIMIT_TIMEOUT = 900.0


def check_start_limit(machine: Machine) -> None:
    """A permanent device fault: the unit restarts until its start limit (5 in 5 min),
    then stays failed, and tabletop-stopped.service writes its one journal line. The
    machine is left as it was (the drop-in removed, the service started again)."""
    path, text = FAULT_DROP_IN
    _, since = machine.sh("date +%s")
    machine.sh(f"mkdir -p {path.rsplit('/', 1)[0]} && printf '%s' '{text}' > {path} && "
               "systemctl daemon-reload && systemctl restart tabletop; true")
    state = wait_active(machine, START_LIMIT_TIMEOUT, old_pid="any")
    _, lines = machine.sh(f"journalctl -b --since @{since.strip()} -o cat -u tabletop "
                          "| grep '^Tabletop stopped'")
    lines = lines.strip().splitlines()
    machine.sh(f"rm -f {path} && systemctl daemon-reload && systemctl reset-failed tabletop "
               "&& systemctl start --no-block tabletop")
    check("start limit stops a permanent fault", state.get("ActiveState") == "failed"
          and len(lines) == 1 and lines[0].startswith("Tabletop stopped after 5 failed starts"),
          f"{state.get('ActiveState')} after {state.get('NRestarts')} restarts; "
          f"{len(lines)} journal line(s) from tabletop-stopped: "
          + (lines[0][:110] + "..." if lines else "none"))


def main(argv: list[str] | None = None) -> int:
    global CACHE
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     epilog=__doc__.split("\n\n")[-1])
    parser.add_argument("--cache", type=Path, default=CACHE,
                        help=f"where the image is kept (default {CACHE}; not in the checkout)")
    parser.add_argument("--keep-image", action="store_true",
                        help="boot the cached image even if pi-check's root was installed "
                        "again since it was made (a rebuild takes about 25 minutes)")
    args = parser.parse_args(argv)
    CACHE = args.cache.resolve()
    if CACHE.is_relative_to(CHECKOUT):
        raise SystemExit(f"pi-boot: {CACHE} is inside the checkout (see make pi-check)")
    return main_host(args)


if __name__ == "__main__":
    sys.exit(main())
