"""``http://tabletop.local/``: the page announced on the home network over mDNS, kept in
step with the machine's addresses.

Phones and laptops resolve ``.local`` names by multicast DNS, which every desktop system
and phone speaks. python-zeroconf announces the host name and an ``_http._tcp`` service
for the page from this process, so it works the same on a Pi (beside avahi, which owns
the machine's own name) and on a desktop running the simulator, with no system
configuration. A network that refuses multicast costs the name, never the page: that
is said in one log line and the page stays at its address.

The network comes after the service on a Pi on Wi-Fi, and DHCP may change the address
later; python-zeroconf binds the interfaces it is given and looks for no others. So
:class:`Announcer` is told the addresses by the page's own thread, whenever the kernel
says one changed and every few seconds besides: the first starts python-zeroconf on them; a change moves its sockets
(``async_update_interfaces``, python-zeroconf 0.150), withdraws the records of the old
addresses and claims the name again with the new ones (on a new network another board
may hold it); and when the last goes the name goes with it.

Two boards on one network must not both answer to ``tabletop.local``. python-zeroconf
probes a *service's* name before taking it (``allow_name_change`` renames
``Tabletop (tabletop)`` to ``Tabletop (tabletop)-2``), but never the *host* name its
records point to (``server=``): both boards would announce ``tabletop.local``, each
with its own address. So the host name is probed here, as RFC 6762 (sections 8 and 9)
has it: asked for on the network before it is claimed, and taken by someone else the
next is tried (``tabletop-2.local``, ``tabletop-3.local``, ...). Two boards that claim
the same name at the same moment (neither was there to answer the other's probe) see
each other's announcements; the one whose addresses sort lower yields and probes again,
as RFC 6762's simultaneous-probe tiebreak decides (the winner announces once more, so
that the other hears it even when it had missed the first announcement).
"""

from __future__ import annotations

import logging
import socket

from app.web.address import one_per_interface

log = logging.getLogger("tabletop")

#: The name the page answers to: ``http://tabletop.local/``.
HOST_NAME = "tabletop"
#: How long a host name is asked for before it is taken as free, in ms: about RFC
#: 6762's three probes 250 ms apart and 250 ms more for an answer.
PROBE_MS = 1000
#: The most host names tried: ``tabletop`` to ``tabletop-99``.
MOST_NAMES = 99
#: The page's service type.
SERVICE_TYPE = "_http._tcp.local."


class OneLine(logging.Filter):
    """python-zeroconf's report of a packet it could not send, in one line: its
    traceback says nothing more. It comes when an address goes in the moment before the
    page's thread moves the sockets off it (a DHCP change, a Wi-Fi dropping)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], OSError):
            record.msg, record.args = record.getMessage(), None
            record.exc_info = record.exc_text = None
        return True


def host_name(number: int) -> str:
    """The ``number``-th host name a board tries: ``tabletop``, ``tabletop-2``, ..."""
    return HOST_NAME if number == 1 else f"{HOST_NAME}-{number}"


class Announcer:
    """The page's host name and service, announced on the addresses :meth:`follow` is
    given. Runs in the page's event loop; nothing here blocks it for long (a probe is
    awaited)."""

    def __init__(self, port: int) -> None:
        zeroconf_log = logging.getLogger("zeroconf")
        if not any(isinstance(f, OneLine) for f in zeroconf_log.filters):
            zeroconf_log.addFilter(OneLine())
        self.port = port
        #: The host name announced now (``tabletop``, ``tabletop-2``...), or ``None``.
        self.name: str | None = None
        self._addresses: tuple[str, ...] = ()
        self._zeroconf = None  # an AsyncZeroconf on those addresses, while announced
        self._info = None
        #: Every address announced from this AsyncZeroconf: our own records come back
        #: to us, and one of a former address is no other host's.
        self._ours: set[str] = set()
        #: The other host's addresses our name was last defended against.
        self._defended: list[str] = []
        #: The addresses announcing last failed on, and those it failed on twice running
        #: (a network changing under it fails once): said in one WARNING line.
        self._failed: tuple[str, ...] = ()
        self._warned: tuple[str, ...] = ()

    @property
    def url(self) -> str:
        return f"http://{self.name}.local{'' if self.port == 80 else f':{self.port}'}/"

    async def follow(self, addresses: tuple[str, ...]) -> None:
        """The machine's addresses on a network now (IPv4, loopback left out). The first
        address starts the announcing; a change moves the sockets to the new addresses
        (the records of the old ones withdrawn through them) and claims the name again
        on the new network; the last one gone withdraws it all. While they stay, a host
        that announces the same name is looked for. What cannot be announced is tried
        again at the next look, and said in one WARNING line if it fails again."""
        from zeroconf import Error, IPVersion
        from zeroconf.asyncio import AsyncZeroconf
        try:
            if addresses == self._addresses:
                if self._info is not None:
                    await self._resolve_conflict()
                return
            self._addresses = addresses
            if not addresses:
                await self.close(goodbye=False)  # no network left to say goodbye on
                return
            if self._zeroconf is None:
                self._zeroconf = AsyncZeroconf(interfaces=one_per_interface(addresses),
                                               ip_version=IPVersion.V4Only)
            else:
                await self._zeroconf.async_update_interfaces(
                    interfaces=one_per_interface(addresses))
                await self._withdraw_service()
            await self._claim()
            self._failed = self._warned = ()
        except (OSError, ValueError, Error) as error:
            await self.close(goodbye=False)
            self._addresses = ()  # tried again at the next look: the network may settle
            if addresses == self._failed and addresses != self._warned:
                log.warning("web page: cannot advertise %s.local (%s); it is at "
                            "http://%s:%d/", HOST_NAME, error,
                            (addresses or ("127.0.0.1",))[0], self.port)
                self._warned = addresses
            self._failed = addresses

    async def close(self, goodbye: bool = True) -> None:
        """Withdraw the name and the service, with goodbye packets unless the addresses
        they would go from are gone, and close the sockets."""
        zeroconf, self._zeroconf, self._info, self.name = self._zeroconf, None, None, None
        self._ours.clear()
        if zeroconf is None:
            return
        if not goodbye:
            zeroconf.zeroconf.registry.async_remove(
                zeroconf.zeroconf.registry.async_get_service_infos())
        await zeroconf.async_close()

    async def _claim(self, taken_by_rival: str | None = None) -> None:
        """Probe host names in turn and announce the page under the first no other host
        answers to."""
        from zeroconf import ServiceInfo
        for number in range(1, MOST_NAMES + 1):
            name = host_name(number)
            if name == taken_by_rival:
                continue
            if not await self._holders(name):
                break
            taken_by_rival = taken_by_rival or name
        else:
            log.warning("web page: %s.local to %s.local are all taken: not advertised; "
                        "it is at http://%s:%d/", HOST_NAME, name, self._addresses[0],
                        self.port)
            return
        self._info = ServiceInfo(
            SERVICE_TYPE, f"Tabletop ({name}).{SERVICE_TYPE}",
            addresses=[socket.inet_aton(a) for a in self._addresses], port=self.port,
            properties={"path": "/"}, server=f"{name}.local.")
        self._ours.update(self._addresses)
        self._defended = []
        announcing = await self._zeroconf.async_register_service(self._info,
                                                                 allow_name_change=True)
        self.name = name
        where = ", ".join(self._addresses)
        if taken_by_rival is None:
            log.info("web page advertised as %s (%s)", self.url, where)
        else:
            log.info("web page: another board on this network is %s.local: this one is "
                     "advertised as %s (%s)", taken_by_rival, self.url, where)
        # Each registration and withdrawal returns the announcements under way: awaited,
        # so that none is left running when the page stops.
        await announcing

    async def _holders(self, name: str) -> list[str]:
        """The addresses other hosts answer to ``name``.local with (a probe, RFC 6762
        section 8.1: asked as unicast-response questions for ``PROBE_MS``)."""
        from zeroconf import AddressResolverIPv4, DNSQuestionType
        resolver = AddressResolverIPv4(f"{name}.local.")
        await resolver.async_request(self._zeroconf.zeroconf, PROBE_MS,
                                     question_type=DNSQuestionType.QU)
        return [a for a in resolver.parsed_addresses() if a not in self._ours]

    async def _resolve_conflict(self) -> None:
        """Another host announces our name (both claimed it at once, or two networks
        became one): the one whose addresses sort later keeps it (RFC 6762 section 8.2:
        the lexicographically later data wins). We yield and claim another, or
        announce our records again, once, so that the other host hears them and
        yields."""
        from zeroconf import AddressResolverIPv4
        resolver = AddressResolverIPv4(self._info.server)
        resolver.load_from_cache(self._zeroconf.zeroconf)
        theirs = sorted(a for a in resolver.parsed_addresses() if a not in self._ours)
        if not theirs:
            return
        if _packed(theirs) > _packed(self._addresses):
            taken = self.name
            await self._withdraw_service()
            await self._claim(taken_by_rival=taken)
        elif theirs != self._defended:
            self._defended = theirs
            await (await self._zeroconf.async_update_service(self._info))

    async def _withdraw_service(self) -> None:
        info, self._info, self.name = self._info, None, None
        if info is not None:
            await (await self._zeroconf.async_unregister_service(info))


def _packed(addresses) -> list[bytes]:
    return sorted(socket.inet_aton(a) for a in addresses)
