"""Where the page listens: every address of this machine (``lan``, the default), unless
the configuration or the command line names one (``[HOST:]PORT``). Kept apart from the
server so that reading a command line never loads the web library.

A board's network comes and goes after the page has started: on Wi-Fi the service
starts before the network is up, and DHCP may hand out another address later. So
``lan`` binds once, to every address at once (IPv4 and, where the machine has it,
IPv6), and whatever address arrives later is served with nothing re-bound; what the
page's address *is* (for the log and for mDNS) is looked up when it is asked.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import socket
from pathlib import Path

#: The host that means every address of this machine, the LAN's among them.
LAN = "lan"
#: Where Linux tells an interface's state (``ip link``'s ``state UP``).
SYS_NET = Path("/sys/class/net")
#: The states (RFC 2863's, as Linux names them) of an interface that carries traffic;
#: "unknown" is what a driver that does not track its link says.
_CARRYING = ("up", "unknown")
#: The kernel's netlink groups that hear of links going up or down (RTMGRP_LINK) and
#: IPv4 addresses added or removed (RTMGRP_IPV4_IFADDR).
_NETLINK_GROUPS = 0x1 | 0x10
#: How many times a free port (port 0) is drawn when its IPv6 twin turns out taken.
_PORT_DRAWS = 5


def lan_addresses() -> tuple[str, ...]:
    """This machine's IPv4 addresses on a network now (every interface but loopback
    that is up and has a link), sorted; none before the network is up. Read from the
    interfaces (``ifaddr``, which python-zeroconf itself uses): no packet is sent, and
    it costs a fraction of a millisecond."""
    import ifaddr
    found = {ip.ip for adapter in ifaddr.get_adapters() if _carries(adapter.name)
             for ip in adapter.ips if ip.is_IPv4 and not ip.ip.startswith("127.")}
    return tuple(sorted(found, key=socket.inet_aton))


def one_per_interface(addresses: tuple[str, ...]) -> list[str]:
    """Of ``addresses``, the first on each interface: a socket joins the mDNS group once
    an interface, so python-zeroconf is given one address each (the page's records
    still name them all). It reads the interfaces again: asked only when the addresses
    change."""
    import ifaddr
    first: dict[str, str] = {}
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if ip.is_IPv4 and ip.ip in addresses:
                first.setdefault(adapter.name, ip.ip)
    return sorted(set(first.values()), key=socket.inet_aton) or list(addresses)


def _carries(interface: str) -> bool:
    """Whether the interface is up and has a link: an address on a Wi-Fi that has not
    joined yet, or on an unplugged cable, is on no network. Where the state cannot be
    read (not Linux) every interface counts."""
    try:
        state = (SYS_NET / interface / "operstate").read_text().strip()
    except OSError:
        return True
    return state in _CARRYING


def lan_address() -> str:
    """This machine's address on the home network as it is now: the one its traffic to
    the outside would leave from (no packet is sent), else the first it has on any
    network (a network with no way out, such as a Pi's own hotspot); ``127.0.0.1`` when
    it has none."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed, never sent to
            routed = probe.getsockname()[0]
        except OSError:
            routed = "0.0.0.0"
    if routed != "0.0.0.0" and not routed.startswith("127."):
        return routed
    return next(iter(lan_addresses()), "127.0.0.1")


class AddressChanges:
    """Wakes the page's thread as soon as the kernel adds or removes an IPv4 address or
    a link goes up or down (a netlink socket, on Linux), so the page's name moves off
    an address within milliseconds of its going, before anything is sent from it.
    Where there is no netlink (a desktop that is not Linux) it never wakes early, and
    the regular look finds the change."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._heard = asyncio.Event()
        self._socket = None
        try:
            listener = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                                     socket.NETLINK_ROUTE)
        except (AttributeError, OSError):
            return
        try:
            listener.bind((0, _NETLINK_GROUPS))
            listener.setblocking(False)
            loop.add_reader(listener, self._read)
        except OSError:
            listener.close()
            return
        self._socket = listener

    def _read(self) -> None:
        """Empty the socket (what changed is read from the interfaces, not from here)."""
        with contextlib.suppress(OSError):  # BlockingIOError once empty; ENOBUFS
            while self._socket.recv(65536):
                pass
        self._heard.set()

    async def wait(self, timeout: float) -> None:
        """Until an address changes, or ``timeout`` seconds at most."""
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._heard.wait(), timeout)
        self._heard.clear()

    def close(self) -> None:
        if self._socket is not None:
            self._loop.remove_reader(self._socket)
            self._socket.close()
            self._socket = None


def every_address(port: int) -> list[socket.socket]:
    """Listening sockets on every address of this machine and ``port``: IPv4, and IPv6
    where the kernel has it, on the same port (port 0: one the OS picks, the same for
    both). Raises :class:`OSError` when the port cannot be had."""
    for _ in range(_PORT_DRAWS if port == 0 else 1):
        sockets = [_listening(socket.AF_INET, "0.0.0.0", port)]
        try:
            six = _listening(socket.AF_INET6, "::", sockets[0].getsockname()[1])
        except OSError as error:
            if error.errno in (errno.EAFNOSUPPORT, errno.EADDRNOTAVAIL):
                return sockets  # no IPv6 here (disabled, or not built in)
            sockets[0].close()
            if port == 0 and error.errno == errno.EADDRINUSE:
                continue  # the IPv4 port drawn is someone's on IPv6: draw again
            raise
        return sockets + [six]
    raise OSError(errno.EADDRINUSE, "no free port for both IPv4 and IPv6")


def _listening(family: int, host: str, port: int) -> socket.socket:
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:  # IPv6 alone: IPv4 has its own socket
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind((host, port))
        sock.setblocking(False)
    except OSError:
        sock.close()
        raise
    return sock


def web_address(text: str) -> tuple[str, int]:
    """``[HOST:]PORT`` as a command line or the configuration gives it: the host is
    :data:`LAN` (every address) unless named. A port that is no number, and a host that
    is neither ``lan`` nor an address or name the resolver knows, are a
    :class:`ValueError` in one line, before anything is started."""
    host, _, port = text.rpartition(":")
    host = host.strip("[]") or LAN
    try:
        number = int(port)
    except ValueError:
        raise ValueError(f"expected [HOST:]PORT, not {text!r}") from None
    if not 0 <= number <= 65535:
        raise ValueError(f"a port is 0 to 65535, not {number}")
    if host != LAN:
        try:
            socket.getaddrinfo(host, number, type=socket.SOCK_STREAM,
                               flags=socket.AI_PASSIVE)
        except (socket.gaierror, UnicodeError):
            # What the resolver says ("Unknown error -2", "Name or service not known")
            # names no mistake a person could fix: the host is said to be wrong instead.
            raise ValueError(f"{host!r} is neither \"lan\" nor an address or name of this "
                             f"machine") from None
    return host, number
