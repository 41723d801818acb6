#!/usr/bin/env python3
"""``make pi-check``: install Tabletop as a Pi would, in an emulated arm64 Debian, and check
what can be checked there without a Pi.

No Pi is at hand where the project is built, and what breaks on one is mostly not the
Python: a package that has no wheel for arm64 and no compiler to build it, an SDL without
the KMS/DRM driver, a device that is missing and makes a traceback instead of one line.
So this builds a Debian bookworm root for arm64 (``debootstrap``, its programs run by
qemu through binfmt_misc), runs ``systemd/install.sh`` in it through ``chroot`` exactly
as on a Pi, checks the installed program, and last runs ``install.sh --uninstall`` in a
copy. A chroot has no booted systemd and no ``/proc/device-tree``: install.sh skips its
systemd steps, and the board is "not a Pi", which is what the checks of the real
profiles expect.

Needs root (debootstrap, mounts, chroot) and minutes: the first run builds the root
(about 7 minutes under emulation), later runs reuse it from the cache,
/var/cache/tabletop-pi-check. Not in the checkout: a root holds device files (debootstrap
makes /dev/zero and /dev/full, and a run binds the host's /dev there), and anything that
copies the checkout whole (tests/test_package.py does) reads them without end and fills
the disk, as it once did. Standard library only, because half of it runs inside the root
with Debian's own python3.

    sudo scripts/pi_check.py [--profile kulami] [--fresh] [--prepare-only] [--cache DIR]

Each check prints ``PASS  name: detail`` or ``FAIL  name: detail``; the last line counts
them, and the exit status is 0 only if every check passed.
"""

from __future__ import annotations

import argparse
import json
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[1]
CACHE = Path("/var/cache/tabletop-pi-check")
#: The clean root as debootstrap left it; never changed once complete, so a damaged or
#: stale installed root is replaced by a copy of it in seconds, not minutes.
BASE = CACHE / "base"
#: The root Tabletop is installed into, reused by the next run: install.sh runs in it
#: again (which is also its second run, the one that must change nothing twice).
ROOT = CACHE / "root"

#: Written into each root once it is complete, so an interrupted build or copy is never
#: reused (two names: the copy carries the clean root's along from the start).
COMPLETE = ".tabletop-pi-check"
COPIED = ".tabletop-pi-check-copy"
SUITE = "bookworm"
BASE_PACKAGES = "python3,python3-venv,python3-pip,ca-certificates"
HOST_PACKAGES = ("qemu-user-static", "binfmt-support", "debootstrap")
BINFMT = Path("/proc/sys/fs/binfmt_misc")


def use_cache(folder: Path) -> None:
    """Keep the roots in ``folder``, which must not be inside the checkout."""
    global CACHE, BASE, ROOT
    folder = folder.resolve()
    if folder.is_relative_to(CHECKOUT):
        raise SystemExit(f"pi-check: {folder} is inside the checkout; a copy of the "
                         f"checkout would copy the roots' device files (see --help)")
    CACHE, BASE, ROOT = folder, folder / "base", folder / "root"


#: Where the checkout is copied in the root, and where this script runs itself there.
ROOT_SOURCE = "/root/tabletop-src"
ROOT_SELF = "/root/pi_check.py"
#: A stand-in for the Pi's firmware folder, so install.sh's edits of config.txt and
#: cmdline.txt run in the root too, on files like a fresh Raspberry Pi OS card's.
ROOT_BOOT = "/root/pi-firmware"
SAMPLE_CONFIG = "# A stand-in for a Pi's config.txt (make pi-check)\n" \
                "dtparam=audio=on\ndtoverlay=vc4-kms-v3d\nmax_framebuffers=2\n\n[cm4]\n" \
                "otg_mode=1\n\n[all]\n"
SAMPLE_CMDLINE = "console=serial0,115200 console=tty1 root=PARTUUID=0a1b2c3d-02 " \
                 "rootfstype=ext4 fsck.repair=yes rootwait\n"

#: apt's and dpkg's lines in install.sh's output, left to the log: what is left is
#: install.sh's own account, short enough to read. (install.sh's own indented lines
#: start "  sudo".)
PACKAGE_CHATTER = re.compile(
    r"(Get|Hit|Ign):|Fetched |Reading |Building |Selecting |Preparing |Unpacking "
    r"|Setting up |Processing |\(Reading database|debconf: |update-alternatives: "
    r"|The following |Suggested packages|Recommended packages|Need to get |After this "
    r"|\d+ upgraded|  (?!sudo )\S|\S+ is already the newest|Created symlink|Adding "
    r"|Running hooks|done\.$")

PREFIX = "/opt/tabletop"
UNIT = "/etc/systemd/system/tabletop.service"
#: The one-shot unit that says in the journal why the service stopped for good.
STOPPED_UNIT = "/etc/systemd/system/tabletop-stopped.service"
TABLETOP = f"{PREFIX}/venv/bin/tabletop"
VENV_PYTHON = f"{PREFIX}/venv/bin/python"
#: How long the simulated board plays before it is stopped, and how long a start may take.
RUN_SECONDS = 5.0
START_TIMEOUT = 120.0
#: The loopback port the start-up check's web page is served on.
WEB_PORT = 18080

# --------------------------------------------------------------------------- output

RESULTS: list[tuple[bool, str]] = []
TIMINGS: list[tuple[str, float]] = []


def say(text: str) -> None:
    print(text, flush=True)


def check(name: str, ok: bool, detail: str) -> bool:
    """One summary line; the host counts them, also from the root's output."""
    say(f"{'PASS' if ok else 'FAIL'}  {name}: {detail}")
    RESULTS.append((ok, name))
    return ok


@contextmanager
def phase(name: str):
    """A heading, then the phase's time: what a rerun saves is worth seeing."""
    say(f"== {name}")
    start = time.monotonic()
    try:
        yield
    finally:
        spent = time.monotonic() - start
        TIMINGS.append((name, spent))
        say(f"   ({name}: {spent:.0f} s)")


def run(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(command, check=True, **kwargs)


# --------------------------------------------------------------------------- the host

def installed(package: str) -> bool:
    result = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package],
                            capture_output=True, text=True)
    return result.stdout.strip() == "install ok installed"


def host_tools() -> None:
    missing = [package for package in HOST_PACKAGES if not installed(package)]
    if missing:
        say(f"installing {' '.join(missing)}")
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        run(["apt-get", "update", "-qq"], env=env)
        run(["apt-get", "install", "-y", "-qq", *missing], env=env, stdout=subprocess.DEVNULL)
    else:
        say(f"present: {' '.join(HOST_PACKAGES)}")
    # The kernel runs an arm64 program through qemu only once binfmt_misc knows qemu;
    # in a container it is often not even mounted.
    if not (BINFMT / "register").exists():
        run(["mount", "binfmt_misc", "-t", "binfmt_misc", str(BINFMT)])
    entry = BINFMT / "qemu-aarch64"
    if not entry.exists() or not entry.read_text().startswith("enabled"):
        run(["update-binfmts", "--enable", "qemu-aarch64"])
    say("binfmt_misc: " + entry.read_text().splitlines()[0] + " qemu-aarch64")


def host_mirror() -> str:
    """The host's Debian mirror, from its APT sources: the one it already reaches (a
    local mirror or a proxy), and no host name written into the repository."""
    found: list[tuple[bool, str]] = []  # (names bookworm itself, URI)
    sources = Path("/etc/apt")
    for path in sorted(sources.glob("sources.list.d/*.sources")):
        for paragraph in re.split(r"\n\s*\n", path.read_text()):
            fields = dict(re.findall(r"^([A-Za-z-]+):\s*(.*)$", paragraph, re.MULTILINE))
            if "deb" not in fields.get("Types", "").split() or \
                    fields.get("Enabled", "yes").lower() == "no":
                continue
            suites = fields.get("Suites", "").split()
            for uri in fields.get("URIs", "").split():
                found.append((SUITE in suites, uri))
    for path in [sources / "sources.list", *sorted(sources.glob("sources.list.d/*.list"))]:
        if path.is_file():
            for line in path.read_text().splitlines():
                words = re.sub(r"\[[^]]*\]", " ", line.split("#")[0]).split()
                if len(words) >= 3 and words[0] == "deb":
                    found.append((words[2] == SUITE, words[1]))
    for wanted in (True, False):
        for names_suite, uri in found:
            if names_suite == wanted and re.search(r"/debian/?$", uri):
                return uri
    raise SystemExit("pi-check: no Debian mirror in /etc/apt/sources.list*; give one with "
                     "--mirror URL")


# --------------------------------------------------------------------------- the roots

def mounts_under(folder: Path) -> list[str]:
    """Mount points at or under ``folder``, deepest first (the order to unmount them)."""
    points = []
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        point = line.split()[4].encode().decode("unicode_escape")
        if point == str(folder) or point.startswith(f"{folder}/"):
            points.append(point)
    return sorted(points, key=len, reverse=True)


def processes_in(folder: Path) -> list[str]:
    """Processes whose root is ``folder``: what keeps its mounts busy."""
    found = []
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            if os.readlink(proc / "root") == str(folder):
                command = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
                found.append(f"{proc.name} {command.strip()}")
        except OSError:
            continue  # gone meanwhile, or not ours to read
    return found


def unmount_all(folder: Path) -> None:
    """Unmount what is under ``folder``, giving a process that is just ending a few
    seconds; then, naming what still holds it, detach it anyway (umount -l)."""
    for point in mounts_under(folder):
        for _ in range(10):
            if subprocess.run(["umount", point], stderr=subprocess.DEVNULL).returncode == 0:
                break
            time.sleep(0.5)
        else:
            holders = processes_in(folder)
            say(f"{point} is busy ({'; '.join(holders) or 'no process in the root'}): "
                f"detached instead")
            subprocess.run(["umount", "-l", point])


def remove_root(folder: Path) -> None:
    """Delete a root, never while the host's /dev or /proc is bound into it: rm -rf would
    go through them."""
    unmount_all(folder)
    if mounts_under(folder):
        raise SystemExit(f"pi-check: {folder} still has mounts; not deleting it")
    if folder.exists():
        shutil.rmtree(folder)


def build_base(mirror: str) -> None:
    if (BASE / COMPLETE).exists():
        say(f"reusing {BASE} (delete it to build it again)")
        return
    partial = CACHE / "base.partial"
    remove_root(partial)
    CACHE.mkdir(parents=True, exist_ok=True)
    say(f"debootstrap {SUITE} arm64 from {mirror} (about 7 minutes under emulation)")
    log = CACHE / "debootstrap.log"
    with log.open("w") as output:
        built = subprocess.run(["debootstrap", "--arch=arm64", "--variant=minbase",
                                f"--include={BASE_PACKAGES}", SUITE, str(partial), mirror],
                               stdout=output, stderr=subprocess.STDOUT)
    if built.returncode != 0:
        say("".join(log.read_text().splitlines(keepends=True)[-15:]))
        raise SystemExit(f"pi-check: debootstrap failed (all of it in {log})")
    # Package scripts in a chroot must not start daemons on the host's behalf.
    policy = partial / "usr/sbin/policy-rc.d"
    policy.write_text("#!/bin/sh\n# make pi-check: no daemons start in this root\nexit 101\n")
    policy.chmod(0o755)
    (partial / COMPLETE).write_text(f"{SUITE} arm64 from {mirror}\n")
    partial.rename(BASE)


def prepare_root(fresh: bool) -> None:
    if fresh or not (ROOT / COPIED).exists():
        remove_root(ROOT)
        say(f"copying the clean root to {ROOT}")
        run(["cp", "-a", "--reflink=auto", str(BASE), str(ROOT)])
        (ROOT / COPIED).write_text("a copy of the clean root; install.sh runs in it\n")
    else:
        say(f"reusing {ROOT} with what an earlier run installed "
            f"(--fresh starts from the clean root)")
    # The host's CA bundle: pip in the root must trust what the host trusts (a proxy's
    # certificate, say), and name resolution works as on the host.
    for name in ("etc/ssl/certs/ca-certificates.crt", "etc/resolv.conf", "etc/hosts"):
        target = ROOT / name
        target.unlink(missing_ok=True)
        shutil.copyfile(Path("/") / name, target)
    (ROOT / "etc/hostname").write_text("tabletop-pi-check\n")


def copy_checkout() -> int:
    """The checkout as git sees it (tracked files and new ones not ignored), so neither
    .venv nor this cache nor a stale build/ goes in."""
    target = ROOT / ROOT_SOURCE.lstrip("/")
    if target.exists():
        shutil.rmtree(target)
    listed = subprocess.run(["git", "-C", str(CHECKOUT), "ls-files", "-z", "--cached",
                             "--others", "--exclude-standard"], capture_output=True)
    if listed.returncode != 0:
        raise SystemExit("pi-check: git ls-files failed; run it from a git checkout")
    count = 0
    for name in sorted(set(listed.stdout.decode().split("\0")) - {""}):
        source = CHECKOUT / name
        if source.is_file():  # a tracked file deleted in the work tree is skipped
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
            count += 1
    shutil.copy2(Path(__file__), ROOT / ROOT_SELF.lstrip("/"))
    boot = ROOT / ROOT_BOOT.lstrip("/")
    boot.mkdir(exist_ok=True)
    (boot / "config.txt").write_text(SAMPLE_CONFIG)
    (boot / "cmdline.txt").write_text(SAMPLE_CMDLINE)
    return count


@contextmanager
def bound(root: Path):
    """The host's /proc, /dev and /dev/pts inside the root while it is used, and never
    left there: apt, pip and the checks need them, and a forgotten bind mount of /dev
    would make deleting the cache delete the host's devices."""
    unmount_all(root)  # what an interrupted run left
    try:
        for name in ("proc", "dev", "dev/pts"):
            (root / name).mkdir(exist_ok=True)
            run(["mount", "--bind", f"/{name}", str(root / name)])
        yield
    finally:
        unmount_all(root)


def root_environment() -> dict[str, str]:
    """A clean environment for the root: nothing of the host's (its PIP_* settings point
    at the host's files), except a proxy the host needs to reach the network."""
    env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
           "HOME": "/root", "LANG": "C.UTF-8", "DEBIAN_FRONTEND": "noninteractive"}
    for name in ("http_proxy", "https_proxy", "no_proxy", "HTTP_PROXY", "HTTPS_PROXY",
                 "NO_PROXY"):
        if name in os.environ:
            env[name] = os.environ[name]
    return env


def in_root(command: list[str], root: Path | None = None, **env: str) -> subprocess.Popen:
    """``command`` in the root as root, its output merged and read line by line."""
    return subprocess.Popen(["chroot", str(root or ROOT), *command],
                            env={**root_environment(), **env}, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, bufsize=1)


def check_uninstall() -> None:
    """install.sh --uninstall in a copy of the installed root (the root itself keeps its
    install for the next run): gone is what install.sh put in, kept are the settings and
    the saved games, and the boot files are as they were before install.sh."""
    copy = CACHE / "uninstalled"
    remove_root(copy)
    run(["cp", "-a", "--reflink=auto", str(ROOT), str(copy)])
    try:
        with bound(copy):
            with in_root(["sh", f"{ROOT_SOURCE}/systemd/install.sh", "--uninstall"], copy,
                         TABLETOP_BOOT_DIR=ROOT_BOOT) as uninstall:
                output = uninstall.stdout.read()
        left = [name for name in (PREFIX, UNIT, STOPPED_UNIT,
                                  "/etc/udev/rules.d/99-tabletop.rules",
                                  "/etc/default/tabletop")
                if (copy / name.lstrip("/")).exists()]
        boot = copy / ROOT_BOOT.lstrip("/")
        problems = [f"exit {uninstall.returncode}"] if uninstall.returncode else []
        problems += [f"{name} is still there" for name in left]
        if not (copy / "etc/tabletop/tabletop.toml").exists():
            problems.append("the settings went too")
        if (boot / "config.txt").read_text() != SAMPLE_CONFIG or \
                (boot / "cmdline.txt").read_text() != SAMPLE_CMDLINE:
            problems.append("the boot files are not as they were")
        if uninstall.returncode:
            say(output)
        check("install.sh --uninstall", not problems, "; ".join(problems) or
              "program, units, udev rules, defaults and boot edits gone; settings, saved "
              "games and user kept")
    finally:
        remove_root(copy)


# --------------------------------------------------------------------------- the host's run

def main_host(args: argparse.Namespace) -> int:
    if os.geteuid() != 0:
        raise SystemExit("pi-check: needs root (debootstrap, mounts, chroot): "
                         "sudo make pi-check")
    # SIGTERM (a CI timeout, kill) unwinds like Ctrl-C, so the mounts come off.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    started = time.monotonic()
    with phase("host tools"):
        host_tools()
    with phase("base root"):
        build_base(args.mirror or host_mirror())
    with phase("root"):
        prepare_root(args.fresh)
        say(f"copied {copy_checkout()} files of the checkout to {ROOT_SOURCE}")
    if args.prepare_only:
        return 0
    with bound(ROOT):
        with phase("install.sh"):
            say(f"TABLETOP_BOOT_DIR={ROOT_BOOT} sh {ROOT_SOURCE}/systemd/install.sh "
                f"{args.profile}")
            log = CACHE / "install.log"
            with in_root(["sh", f"{ROOT_SOURCE}/systemd/install.sh", args.profile],
                         TABLETOP_BOOT_DIR=ROOT_BOOT) as install, log.open("w") as kept:
                begun = time.monotonic()
                for line in install.stdout:
                    kept.write(line)
                    if line.startswith("== "):  # install.sh's steps, with when they began
                        say(f"   | {line.rstrip()}  (at {time.monotonic() - begun:.0f} s)")
                    elif not PACKAGE_CHATTER.match(line):
                        say(f"   | {line.rstrip()}")
            check("install.sh", install.returncode == 0,
                  f"exit status {install.returncode} (all its output: {log})")
        with phase("checks in the root"):
            with in_root(["python3", ROOT_SELF, "--inside"]) as inside:
                for line in inside.stdout:
                    line = line.rstrip()
                    found = re.match(r"(PASS|FAIL)  ([^:]+):", line)
                    if found:
                        check(found[2], found[1] == "PASS", line.split(": ", 1)[1])
                    else:
                        say(line)
            if inside.returncode not in (0, 1):
                check("checks in the root", False, f"ended with status {inside.returncode}")
    with phase("uninstall"):
        check_uninstall()
    say("== timings")
    for name, spent in TIMINGS:
        say(f"   {name:<20} {spent:6.0f} s")
    say(f"   {'total':<20} {time.monotonic() - started:6.0f} s")
    passed = sum(ok for ok, _ in RESULTS)
    say(f"pi-check: {passed} of {len(RESULTS)} checks passed")
    return 0 if passed == len(RESULTS) else 1


# --------------------------------------------------------------------------- inside the root

def service_user() -> dict:
    """subprocess's arguments that run a command as the service's user with its groups,
    as systemd would; root if install.sh made no such user."""
    try:
        user = pwd.getpwnam("tabletop")
    except KeyError:
        return {}
    return {"user": user.pw_uid, "group": user.pw_gid,
            "extra_groups": os.getgrouplist("tabletop", user.pw_gid)}


def unit() -> dict[str, list[str]]:
    """The installed unit's settings, each with every value it was given."""
    found: dict[str, list[str]] = {}
    path = Path(UNIT)
    text = path.read_text() if path.exists() else ""
    for key, value in re.findall(r"^(\w+)=(.*)$", text, re.MULTILINE):
        found.setdefault(key, []).append(value)
    return found


def defaults() -> dict[str, str]:
    """/etc/default/tabletop as install.sh wrote it (the unit's EnvironmentFile=)."""
    path = Path("/etc/default/tabletop")
    text = path.read_text() if path.exists() else ""
    return dict(re.findall(r"^(\w+)=(.*)$", text, re.MULTILINE))


def service_directories() -> tuple[dict[str, str], str]:
    """What systemd makes before it starts the service, made the same way here: the
    state and runtime directories, owned by the service's user, named in the environment
    as systemd names them; and the working directory."""
    settings, env = unit(), {}
    user = service_user()
    for key, parent, variable in (("StateDirectory", "/var/lib", "STATE_DIRECTORY"),
                                  ("RuntimeDirectory", "/run", "RUNTIME_DIRECTORY")):
        for name in settings.get(key, []):
            folder = f"{parent}/{name}"
            os.makedirs(folder, mode=0o750, exist_ok=True)
            if user:
                os.chown(folder, user["user"], user["group"])
            env[variable] = folder
    return env, settings.get("WorkingDirectory", ["/"])[-1]


def service_environment(**extra: str) -> dict[str, str]:
    """The environment the unit gives the program (its Environment= lines, then
    /etc/default/tabletop), without SDL_VIDEODRIVER: a chroot has no screen, and the
    program must find that out for itself."""
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"}
    for line in unit().get("Environment", []):
        env.update(word.split("=", 1) for word in line.split() if "=" in word)
    env.update(defaults())
    env.pop("SDL_VIDEODRIVER", None)
    env.update(extra)
    return env


def run_as_service(command: list[str], timeout: float = 600,
                   **extra: str) -> subprocess.CompletedProcess:
    """``command`` as the unit runs its program: its user, environment and directories."""
    directories, cwd = service_directories()
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                          env=service_environment(**directories, **extra), cwd=cwd,
                          **service_user())


def first_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[0] if lines else "(nothing)"


def check_version() -> None:
    result = run_as_service([TABLETOP, "--version"])
    ok = result.returncode == 0 and bool(result.stdout.strip())
    check("tabletop --version", ok, first_line(result.stdout) if ok else
          f"exit {result.returncode}: {first_line(result.stderr)[-160:]}")


#: Run by the venv's python: SDL's compiled-in video drivers, through the project's own
#: module if it has one, else straight from the libSDL2 that pygame loaded.
SDL_DRIVERS = r"""
import ctypes, importlib.util, os
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
if importlib.util.find_spec("app.screen.sdl") is not None:
    from app.screen.sdl import video_drivers
    print("app.screen.sdl", *video_drivers())
else:
    import pygame
    with open("/proc/self/maps") as maps:
        path = next(line.split()[-1] for line in maps if "libSDL2" in line)
    sdl = ctypes.CDLL(path)
    sdl.SDL_GetVideoDriver.restype = ctypes.c_char_p
    print("ctypes", *(sdl.SDL_GetVideoDriver(i).decode()
                      for i in range(sdl.SDL_GetNumVideoDrivers())))
"""


def check_sdl() -> None:
    result = run_as_service([VENV_PYTHON, "-c", SDL_DRIVERS])
    words = result.stdout.split()
    if result.returncode != 0 or not words:
        last = (result.stderr.strip().splitlines() or ["(nothing)"])[-1]
        check("SDL has KMSDRM", False, f"exit {result.returncode}: {last}")
        return
    how, drivers = words[0], words[1:]
    check("SDL has KMSDRM", "kmsdrm" in {driver.lower() for driver in drivers},
          f"video drivers ({how}): {' '.join(drivers)}")


#: Run by the venv's python: for each game whose engine package has a ``compiled``
#: module, whether install.sh built its core (``available()``) and the engine uses it
#: (``enabled()``), where a short search at the strongest level grows its tree (a
#: module of the game's own package, not the shared Python tree of engines.search), and
#: the walks a second of processor time it makes. One JSON line a game; a game that
#: breaks says how in its own line and the others still run.
COMPILED_CORES = r"""
import importlib, importlib.machinery, importlib.util, json, random, sys, time
from pathlib import Path
from app.games import GAMES
from engines.players import MAX_LEVEL, playouts
from engines.search import policy_of, search
seconds = float(sys.argv[1])
for name, info in GAMES.items():
    package = info.board.partition(":")[0].rpartition(".")[0]
    if importlib.util.find_spec(f"{package}.compiled") is None:
        continue
    found = {"game": name, "package": package}
    try:
        compiled = importlib.import_module(f"{package}.compiled")
        folders = importlib.import_module(package).__path__
        found["cores"] = sorted(path.name.partition(".")[0] for folder in folders
                                for path in Path(folder).glob("_*")
                                if path.name.endswith(tuple(
                                    importlib.machinery.EXTENSION_SUFFIXES)))
        board = info.new_board()
        tree = policy_of(board).native_tree(board.copy(), random.Random(1))
        budget = playouts(board, MAX_LEVEL)
        stats, started = {}, time.process_time()
        move = search(board, random.Random(1), playouts=budget, seconds=seconds,
                      stats=stats)
        spent = time.process_time() - started
        found.update(built=compiled.available(), enabled=compiled.enabled(),
                     tree=None if tree is None else type(tree).__module__,
                     legal=move in set(board.legal_moves), budget=budget,
                     walks=stats["walks"], rate=round(stats["walks"] / spent))
    except Exception as error:
        found["error"] = f"{type(error).__name__}: {error}"
    print(json.dumps(found), flush=True)
"""
#: How long each game's search may run under qemu: a short search, cut by the clock
#: long before the strongest level's budget of playouts.
CORE_SECONDS = 5.0


def core_verdict(found: dict) -> tuple[str, bool, str]:
    """The check's name, verdict and detail for one game's line of COMPILED_CORES: it
    passes only if the core was built and is in use, and the search's tree was grown by
    the game's own package (the core), made walks and chose a legal move."""
    name = f"compiled core {found['game']}"
    if "error" in found:
        return name, False, found["error"]
    if not found["built"]:
        return name, False, (f"{found['package']}.compiled exists but install.sh built "
                             f"no core (available() is False; extensions found: "
                             f"{', '.join(found['cores']) or 'none'})")
    tree = found["tree"]
    ok = (found["enabled"] and tree is not None
          and tree.startswith(f"{found['package']}.") and found["legal"]
          and found["walks"] > 0)
    return name, ok, (f"built {', '.join(found['cores']) or '(no extension file)'}, in "
                      f"use {found['enabled']}, the strongest level's search "
                      f"({found['budget']} playouts or {CORE_SECONDS:.0f} s, whichever ends "
                      f"first) grew its tree in {tree or 'engines.search (Python)'}, a "
                      f"legal move "
                      f"{found['legal']}: {found['walks']} walks, {found['rate']} a "
                      f"second of processor time (under qemu)")


def check_compiled_cores() -> None:
    result = run_as_service([VENV_PYTHON, "-c", COMPILED_CORES, str(CORE_SECONDS)])
    lines = [line for line in result.stdout.splitlines() if line.startswith("{")]
    for line in lines:
        check(*core_verdict(json.loads(line)))
    if result.returncode != 0 or not lines:
        last = (result.stderr.strip().splitlines() or ["(nothing)"])[-1]
        check("compiled cores", False, f"exit {result.returncode}, {len(lines)} games "
                                       f"checked: {last}" if result.returncode else
              "no game's engine package has a compiled module")


def check_boot_files() -> None:
    """install.sh's edits of the stand-in firmware folder: the SPI and core-clock block
    once, the kernel's SPI buffer once, and a second edit changes neither."""
    boot = Path(ROOT_BOOT)
    config = (boot / "config.txt").read_text()
    cmdline = (boot / "cmdline.txt").read_text()
    bufsiz = defaults().get("SPI_BUFSIZE", "")
    problems = []
    if not bufsiz.isdigit():
        problems.append("no SPI_BUFSIZE in /etc/default/tabletop")
    block = re.search(r"^# tabletop: begin.*?^# tabletop: end", config, re.DOTALL | re.MULTILINE)
    if not block or config.count("# tabletop: begin") != 1:
        problems.append("config.txt has not one tabletop block")
    if cmdline.split().count(f"spidev.bufsiz={bufsiz}") != 1 or \
            cmdline.count("spidev.bufsiz=") != 1:
        problems.append(f"cmdline.txt has not one spidev.bufsiz={bufsiz}")
    again = subprocess.run(["sh", f"{ROOT_SOURCE}/systemd/boot-config.sh", "apply", bufsiz,
                            VENV_PYTHON], capture_output=True, text=True,
                           env={"PATH": "/usr/bin:/bin", "TABLETOP_BOOT_DIR": ROOT_BOOT})
    if again.returncode != 0:
        problems.append(f"a second edit: exit {again.returncode} "
                        f"{first_line(again.stderr + again.stdout)}")
    elif (boot / "config.txt").read_text() != config or \
            (boot / "cmdline.txt").read_text() != cmdline:
        problems.append("a second edit changed them")
    settings = [line for line in block[0].splitlines()[1:-1]
                if not line.startswith("#")] if block else []
    check("boot files", not problems, "; ".join(problems) or
          f"config.txt: {' '.join(settings)}; cmdline.txt: spidev.bufsiz={bufsiz}; "
          f"a second run changes nothing")


def profiles() -> list[str]:
    result = subprocess.run([VENV_PYTHON, "-c", "from app.hardware.profile import "
                             "shipped_profiles; print(*shipped_profiles())"],
                            capture_output=True, text=True)
    if result.returncode != 0:
        check("shipped profiles", False, first_line(result.stderr))
        return []
    return result.stdout.split()


def check_selftest(profile: str) -> None:
    # Nobody watches the LEDs here: no pause per LED or on all-white.
    start = time.monotonic()
    result = run_as_service([TABLETOP, "selftest", "--profile", profile, "--step", "0",
                             "--hold", "0"])
    spent = time.monotonic() - start
    last = (result.stdout.strip().splitlines() or ["(no output)"])[-1]
    detail = f"{last} ({spent:.1f} s)" if result.returncode == 0 else \
        f"exit {result.returncode}: {first_line(result.stderr)[-200:]}"
    check(f"selftest {profile}", result.returncode == 0, detail)


def check_real_profile(profile: str) -> None:
    """A board whose devices are missing must stop with one line saying which, no
    traceback: that line is what a maker reads in the journal."""
    # The SPI buffer install.sh would have written for this profile, not the one installed.
    bufsiz = subprocess.run([VENV_PYTHON, "-m", "app.hardware.spi", profile],
                            capture_output=True, text=True).stdout.strip()
    result = run_as_service([TABLETOP, "run", "--profile", profile], timeout=300,
                            TABLETOP_PROFILE=profile, SPI_BUFSIZE=bufsiz)
    lines = result.stderr.strip().splitlines()
    ok = result.returncode != 0 and len(lines) == 1 and "Traceback" not in result.stderr
    if ok:
        detail = f"exit {result.returncode}: {lines[0]}"
    elif result.returncode == 0:
        detail = "exit 0 on a machine that is not a Pi"
    else:
        detail = f"exit {result.returncode}, {len(lines)} lines on stderr, the last: " \
                 f"{(lines or ['(none)'])[-1][-200:]}"
    check(f"run {profile} without a Pi", ok, detail)


def reap(pid: int, wait: float) -> tuple[int, object] | None:
    """The child's wait status and resource use, if it ends within ``wait`` seconds."""
    deadline = time.monotonic() + wait
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            return status, usage
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.05)


def check_start_up(profile: str = "kulami-sim") -> None:
    """How long a board takes to be ready (READY=1 on a socket of ours as NOTIFY_SOCKET,
    as systemd hears it), that its web page answers (on the loopback: a chroot's user
    has no right to port 80 without the unit's capability), and its peak memory over
    RUN_SECONDS of play, stopped by SIGTERM as systemd stops it. Under qemu the times
    and the memory include the emulator: a Pi's figures differ."""
    directories, cwd = service_directories()
    with tempfile.TemporaryDirectory() as folder, \
            tempfile.TemporaryFile(mode="w+") as output:
        os.chmod(folder, 0o755)
        address = os.path.join(folder, "notify")
        # The installed configuration wires a button to a GPIO pin, which a chroot does
        # not have: the settings' defaults instead, with no buttons.
        config = os.path.join(folder, "tabletop.toml")
        Path(config).write_text(f"# make pi-check: the defaults, no buttons\n[web]\n"
                                f"host = \"127.0.0.1\"\nport = {WEB_PORT}\n")
        os.chmod(config, 0o644)
        notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        notify.bind(address)
        os.chmod(address, 0o666)
        notify.settimeout(0.2)
        start = time.monotonic()
        process = subprocess.Popen([TABLETOP, "run", "--profile", profile, "--config", config],
                                   stdout=output, stderr=subprocess.STDOUT, cwd=cwd,
                                   env=service_environment(**directories,
                                                           TABLETOP_PROFILE=profile,
                                                           NOTIFY_SOCKET=address),
                                   **service_user())
        ready = ended = None
        while ready is None and ended is None and time.monotonic() - start < START_TIMEOUT:
            try:
                if "READY=1" in notify.recv(4096).decode().split("\n"):
                    ready = time.monotonic() - start
            except socket.timeout:
                ended = reap(process.pid, 0)
        page = ""
        if ready is not None:
            page = web_page_game()
            ended = reap(process.pid, RUN_SECONDS)
        stopping = time.monotonic()
        if ended is None:
            process.send_signal(signal.SIGTERM)
            ended = reap(process.pid, 30)
        if ended is None:
            process.kill()
            ended = reap(process.pid, 30)
        stop_s = time.monotonic() - stopping
        status, usage = ended
        process.returncode = code = os.waitstatus_to_exitcode(status)
        output.seek(0)
        log = output.read().strip().splitlines()
        notify.close()
    tail = f"; the log ends: {log[-1][-200:]}" if log else ""
    if ready is None:
        check(f"start-up {profile}", False, f"no READY=1 (exit {code}){tail}")
        return
    clean = (code == 0 and not any("Traceback" in line for line in log)
             and page == profile.removesuffix("-sim"))
    check(f"start-up {profile}", clean,
          f"READY=1 after {ready:.1f} s, web page: {page or 'no answer'}, max RSS "
          f"{usage.ru_maxrss / 1024:.0f} MiB (qemu included), exit {code} {stop_s:.1f} s "
          f"after SIGTERM" + ("" if clean else tail))


def web_page_game() -> str:
    """The game the board's web page says it shows, or why it does not answer."""
    import urllib.request
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{WEB_PORT}/api/state",
                                    timeout=30) as answer:
            return json.loads(answer.read()).get("game", "no game")
    except (OSError, ValueError) as error:
        return f"no answer ({error})"


def main_inside(args: argparse.Namespace) -> int:
    """The checks, run by the root's python3 as root, each program as the service's user.
    A check that breaks is a failed check, and the others still run."""
    checks = [("tabletop --version", check_version), ("SDL has KMSDRM", check_sdl),
              ("boot files", check_boot_files),
              ("compiled cores", check_compiled_cores)]
    names = profiles()
    simulated = [name for name in names if "-sim" in name]
    checks += [(f"selftest {name}", lambda name=name: check_selftest(name))
               for name in simulated]
    checks += [(f"run {name} without a Pi", lambda name=name: check_real_profile(name))
               for name in names if name not in simulated]
    checks.append(("start-up kulami-sim", check_start_up))
    for name, each in checks:
        try:
            each()
        except Exception as error:  # a check that breaks fails, and the others still run
            check(name, False, f"{type(error).__name__}: {error}")
    return 0 if all(ok for ok, _ in RESULTS) else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     epilog=__doc__.split("\n\n")[2])
    parser.add_argument("--profile", default="kulami", help="what install.sh installs")
    parser.add_argument("--mirror", help="Debian mirror (default: the host's own)")
    parser.add_argument("--fresh", action="store_true",
                        help="install into a fresh copy of the clean root")
    parser.add_argument("--prepare-only", action="store_true",
                        help="build or refresh the root, install and check nothing")
    parser.add_argument("--cache", type=Path, default=CACHE,
                        help=f"where the roots are kept (default {CACHE}; not in the "
                             f"checkout)")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.inside:
        return main_inside(args)
    use_cache(args.cache)
    return main_host(args)


if __name__ == "__main__":
    sys.exit(main())
