"""``http://tabletop.local/``: the page advertised on the home network over mDNS.

Phones and laptops resolve ``.local`` names by multicast DNS, which every desktop system
and phone speaks. python-zeroconf announces the host name and an ``_http._tcp`` service
for the page from this process, so it works the same on a Pi (beside avahi, which owns
the machine's own name) and on a desktop running the simulator, with no system
configuration. A network that refuses multicast costs the name, never the page: that
is said in one log line and the page stays at its address.
"""

from __future__ import annotations

import logging
import socket

log = logging.getLogger("tabletop")

#: The name the page answers to: ``http://tabletop.local/``.
HOST_NAME = "tabletop"


class Advertised:
    """The page's name and service announced until :meth:`close`."""

    def __init__(self, address: str, port: int, name: str = HOST_NAME) -> None:
        from zeroconf import IPVersion, ServiceInfo, Zeroconf
        self.name = name
        self._zeroconf = Zeroconf(ip_version=IPVersion.V4Only, interfaces=[address])
        self._info = ServiceInfo(
            "_http._tcp.local.", f"Tabletop ({name})._http._tcp.local.",
            addresses=[socket.inet_aton(address)], port=port, properties={"path": "/"},
            server=f"{name}.local.")
        self._zeroconf.register_service(self._info, allow_name_change=True)

    def close(self) -> None:
        self._zeroconf.unregister_service(self._info)
        self._zeroconf.close()


def advertise(address: str, port: int) -> Advertised | None:
    """Announce the page at ``address``:``port`` as ``tabletop.local``; ``None`` (and one
    log line) where it cannot be: no multicast, or an address that is not a network's."""
    if address.startswith("127.") or address in ("0.0.0.0", "::", "localhost"):
        log.info("web page: not advertised as %s.local (it listens on %s only)",
                 HOST_NAME, address)
        return None
    try:
        advertised = Advertised(address, port)
    except (OSError, ValueError) as error:
        log.warning("web page: cannot advertise %s.local (%s); it is at http://%s:%d/",
                    HOST_NAME, error, address, port)
        return None
    log.info("web page advertised as http://%s.local%s/", HOST_NAME,
             "" if port == 80 else f":{port}")
    return advertised
