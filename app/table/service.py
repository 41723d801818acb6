"""Life under systemd: readiness, the watchdog, and a clean stop on SIGTERM.

``Type=notify`` services tell systemd they are ready, and with ``WatchdogSec=`` must keep
saying they are alive, by datagrams on the socket named in ``NOTIFY_SOCKET`` (see
sd_notify(3)). The protocol is a few lines of text, so the standard library's ``socket``
does it; no libsystemd binding is needed. Outside systemd every call does nothing.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager

log = logging.getLogger(__name__)


class Notifier:
    """Sends ``READY=1``, ``WATCHDOG=1``, ``STATUS=`` and ``STOPPING=1`` to systemd."""

    def __init__(self, address: str | None, watchdog_usec: int | None = None, *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.address = address or None
        #: Seconds between watchdog pings: half the timeout, as sd_watchdog_enabled(3) advises.
        self.watchdog_interval = watchdog_usec / 2e6 if watchdog_usec else None
        self._clock = clock
        self._last_ping: float | None = None
        self._socket: socket.socket | None = None
        if self.address:
            self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] = os.environ, **kwargs) -> "Notifier":
        """The notifier systemd's environment describes; the watchdog counts only when
        ``WATCHDOG_PID`` is unset or names this process."""
        usec = environ.get("WATCHDOG_USEC", "")
        pid = environ.get("WATCHDOG_PID", "")
        watchdog = int(usec) if usec.isdigit() and int(usec) > 0 else None
        if pid and pid != str(os.getpid()):
            watchdog = None
        return cls(environ.get("NOTIFY_SOCKET"), watchdog, **kwargs)

    def notify(self, *fields: str) -> None:
        """Send one datagram of ``KEY=value`` lines; a lost systemd is logged, not fatal."""
        if self._socket is None:
            return
        address = self.address
        if address.startswith("@"):  # abstract namespace, as sd_notify(3) specifies
            address = "\0" + address[1:]
        try:
            self._socket.sendto("\n".join(fields).encode(), address)
        except OSError as error:
            log.warning("cannot notify systemd at %s: %s", self.address, error)

    def ready(self, status: str = "") -> None:
        self.notify("READY=1", *([f"STATUS={status}"] if status else []))
        self._last_ping = self._clock()

    def status(self, text: str) -> None:
        self.notify(f"STATUS={text}")

    def watchdog(self) -> bool:
        """Ping the watchdog if half its timeout has passed since the last ping; the main
        loop calls this every turn, so a hung loop stops the pings and systemd restarts us."""
        if self.watchdog_interval is None:
            return False
        now = self._clock()
        if self._last_ping is not None and now - self._last_ping < self.watchdog_interval:
            return False
        self.notify("WATCHDOG=1")
        self._last_ping = now
        return True

    def stopping(self) -> None:
        self.notify("STOPPING=1")

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None


class ServiceStop(BaseException):
    """Raised in the main thread by SIGTERM or SIGINT, like KeyboardInterrupt, so that
    ``finally`` blocks turn the LEDs off and release the hardware wherever the loop was."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


@contextmanager
def stop_on_signals(signums: tuple[int, ...] = (signal.SIGTERM, signal.SIGINT)) -> Iterator[None]:
    """While inside, the first of the given signals raises :class:`ServiceStop`; any
    after it are ignored, handlers restored after. Stopping is under way by then, and a
    second signal is common: ``timeout -s TERM`` signals the process and then its
    process group, systemd may repeat its stop; raised again inside a ``finally`` that
    turns the LEDs off, it would cut the clean-up short and end in a traceback."""
    stopping = False

    def stop(signum, frame):
        nonlocal stopping
        if stopping:
            return
        stopping = True
        raise ServiceStop(signum)

    previous = {signum: signal.signal(signum, stop) for signum in signums}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
