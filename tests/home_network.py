"""A home network made of Linux network namespaces, for the tests that watch the board's
page from outside the program: boards and a phone, each a namespace of its own, wired
to one link (a bridge in the phone's namespace) as a Wi-Fi network joins them. Each
board starts with loopback only, as a Pi does before its network is up; the test gives
it an address when it likes, takes it away or changes it, with iproute2 (``ip``).

The namespaces' names are new for every test run and they are always deleted, with the
processes started in them; no traffic leaves them. Needs root (as CI runs).
"""

import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: The phone's address on the link; the boards' are the test's to choose in the /24.
PHONE = "10.77.0.1"
#: How long anything on the network is waited for: generous, for a busy machine.
DEADLINE_S = 90.0


def ip(*args: str) -> None:
    done = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=30)
    if done.returncode != 0:
        raise RuntimeError(f"ip {' '.join(args)}: {done.stderr.strip()}")


class HomeNetwork:
    """The phone's namespace with the link, and the boards plugged into it."""

    def __init__(self) -> None:
        self.prefix = f"tt{os.getpid() % 10000}{secrets.token_hex(2)}"
        self.spaces: list[str] = []
        self.processes: list[subprocess.Popen] = []
        self.phone = ""

    def __enter__(self) -> "HomeNetwork":
        try:
            self.phone = self._namespace("phone")
            ip("-n", self.phone, "link", "add", "link0", "type", "bridge")
            ip("-n", self.phone, "link", "set", "link0", "up")
            ip("-n", self.phone, "addr", "add", f"{PHONE}/24", "dev", "link0")
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.kill()
                process.wait(timeout=30)
        for space in reversed(self.spaces):
            subprocess.run(["ip", "netns", "delete", space], capture_output=True, timeout=30)

    def _namespace(self, name: str) -> str:
        space = f"{self.prefix}-{name}"
        ip("netns", "add", space)
        self.spaces.append(space)
        ip("-n", space, "link", "set", "lo", "up")
        return space

    def board(self, name: str) -> str:
        """A board's namespace: loopback up and nothing else, until :meth:`plug`."""
        return self._namespace(name)

    def plug(self, board: str) -> None:
        """The board's network interface (``wlan0``) joins the link, with no address."""
        port = f"port-{board.rpartition('-')[2]}"[:15]
        ip("link", "add", "wlan0", "netns", board, "type", "veth", "peer", "name", port,
           "netns", self.phone)
        ip("-n", self.phone, "link", "set", port, "master", "link0")
        ip("-n", self.phone, "link", "set", port, "up")
        ip("-n", board, "link", "set", "wlan0", "up")
        # A new address beside the old keeps when the old goes, as a DHCP client has it
        # (the kernel would otherwise remove a subnet's other addresses with its first).
        subprocess.run(["ip", "netns", "exec", board, "sysctl", "-qw",
                        "net.ipv4.conf.wlan0.promote_secondaries=1"], check=True, timeout=30)

    def address(self, board: str, action: str, address: str, gateway: bool = False) -> None:
        """Give the board ``address`` (``add``) or take it away (``del``), as DHCP does;
        with ``gateway``, a default route through the phone's end too, as a home
        router gives (without it the link is a network with no way out, as a Pi's own
        hotspot is)."""
        ip("-n", board, "addr", action, f"{address}/24", "dev", "wlan0")
        if gateway:
            ip("-n", board, "route", "add", "default", "via", PHONE)

    def start(self, board: str, args: list[str], log: Path) -> subprocess.Popen:
        """``tabletop ARGS`` run in the board's namespace, headless, its log to ``log``."""
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYTHONUNBUFFERED": "1"}
        with log.open("w") as output:
            process = subprocess.Popen(
                ["ip", "netns", "exec", board, sys.executable, "-m", "app.cli", *args],
                cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT)
        self.processes.append(process)
        return process

    def stop(self, process: subprocess.Popen) -> int:
        """Stop a board as systemd does (SIGTERM, to its own pid); its exit status."""
        process.send_signal(signal.SIGTERM)
        return process.wait(timeout=60)

    def phone_asks(self, command: str, argument: str) -> list[str]:
        """What the phone finds (:mod:`tests.lan_client`): ``resolve NAME`` or
        ``get URL``; nothing when it found nothing."""
        done = subprocess.run(
            ["ip", "netns", "exec", self.phone, sys.executable, "-m", "tests.lan_client",
             command, argument], cwd=ROOT, capture_output=True, text=True, timeout=60)
        return done.stdout.split() if done.returncode == 0 else []


def until(what: str, check, want=None, deadline_s: float = DEADLINE_S):
    """Ask ``check()`` every half second until it answers ``want`` (or, with no
    ``want``, anything true), and return that answer; the test fails, saying ``what``
    and the last answer, if none comes within the deadline."""
    end = time.monotonic() + deadline_s
    while True:
        answer = check()
        if (answer == want) if want is not None else answer:
            return answer
        if time.monotonic() > end:
            pytest.fail(f"{what}: not within {deadline_s:.0f} s (last: {answer!r})")
        time.sleep(0.5)


def lines(log: Path) -> list[str]:
    return log.read_text(errors="replace").splitlines()
