"""The page held against the rest of the home network: who may connect, for how long,
from which page and under which name.

Any device on the network reaches the page, and any web site a family member visits
runs in a browser on that network. So:

* connections are capped, per address and in total (:class:`Connections`), far below
  the service's file descriptors, so idle or slow connections from one device cannot
  take the page, or the table with it, down; a connection that has not finished its
  request's headers within ``HEADER_S`` is closed (aiohttp's keep-alive timer, which
  runs from the connection's start: :data:`HANDLER_ARGS`);
* a request must name the board (:func:`allowed_host`): ``tabletop.local``,
  ``tabletop-N.local``, ``localhost`` or an address, so a foreign name pointed at the
  board (DNS rebinding) reaches nothing;
* the WebSocket and every change must come from the board's own page (``Origin``), so
  another site can neither watch the board nor spend the pairing tries of a browser;
* every answer carries headers that forbid framing, guessing types and leaking the
  address (:func:`harden`);
* aiohttp's own answer to a malformed request (a 400) is logged in one line, never with
  a traceback (:data:`QUIET`).
"""

from __future__ import annotations

import asyncio
import collections
import ipaddress
import json
import logging
import re
from urllib.parse import urlsplit

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

from app.web.mdns import HOST_NAME

#: Connections one address may hold open (a family's phone holds a page's WebSocket and
#: a few requests), and all addresses together: far below LimitNOFILE in the unit.
PER_ADDRESS, TOTAL = 64, 512
#: Seconds a connection may take to send a request's headers, or stay idle between two.
HEADER_S = 10.0
#: Seconds a request may take to send its (small) body.
BODY_S = 10.0
#: The page's own names; anything else in ``Host`` or ``Origin`` is another site's.
_OWN_NAME = re.compile(rf"(localhost|{HOST_NAME}(-\d+)?\.local)\.?", re.IGNORECASE)
#: Methods that change nothing: open to any page (but still under the right ``Host``).
_READS = frozenset({"GET", "HEAD", "OPTIONS"})
#: The headers every answer carries. The page's own files satisfy the policy: no inline
#: script or style, nothing from another origin.
HARDENING = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; "
                               "img-src 'self' data:; connect-src 'self'; object-src "
                               "'none'; base-uri 'none'; form-action 'self'; "
                               "frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}


class _OneLine(logging.Filter):
    """A malformed request is the sender's mistake, not the server's: one line, no
    traceback (a fault of the server's own keeps its traceback)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], HttpProcessingError):
            record.msg = f"{record.getMessage()}: {str(record.exc_info[1])[:200]}"
            record.args, record.exc_info, record.exc_text = (), None, None
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True


#: The logger aiohttp's connection handlers log to.
QUIET = logging.getLogger("tabletop.web.http")
QUIET.addFilter(_OneLine())


def handler_args() -> dict:
    """What each connection's handler is built with (read at each start, so a test may
    change ``HEADER_S``)."""
    return {"keepalive_timeout": HEADER_S, "logger": QUIET}


def _host_of(value: str) -> str:
    """``host`` of ``host[:port]`` or ``[v6]:port``."""
    if value.startswith("["):
        return value[1:value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def allowed_host(value: str) -> bool:
    """Whether ``value`` (a ``Host`` header, or an origin's host) names this board: its
    own names or an address (a rebound name is neither)."""
    host = _host_of(value.strip())
    if _OWN_NAME.fullmatch(host):
        return True
    try:
        ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False
    return True


def allowed_origin(origin: str) -> bool:
    """Whether a browser's ``Origin`` is the board's own page."""
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.netloc) \
        and allowed_host(parts.netloc)


def _refused(kind, message: str):
    return kind(text=json.dumps({"error": message}), content_type="application/json")


@web.middleware
async def checked(request: web.Request, handler):
    """Refuse a request under a foreign name, and a change or the WebSocket from a
    foreign page, before anything else sees it."""
    host = request.headers.get("Host")
    if host is not None and not allowed_host(host):
        raise _refused(web.HTTPMisdirectedRequest, "this is the board's page: ask for it "
                       "as tabletop.local or by its address")
    origin = request.headers.get("Origin")
    if (origin is not None and (request.method not in _READS or request.path == "/ws")
            and not allowed_origin(origin)):
        raise _refused(web.HTTPForbidden, "only the board's own page may do this")
    return await handler(request)


async def harden(request: web.Request, response: web.StreamResponse) -> None:
    """Every answer, errors and files included, with :data:`HARDENING`."""
    for name, value in HARDENING.items():
        response.headers.setdefault(name, value)


class Connections:
    """Open connections counted by address: one over :data:`PER_ADDRESS` from an
    address, or over :data:`TOTAL` in all, is closed as soon as it is made."""

    def __init__(self) -> None:
        self.by_address: collections.Counter[str] = collections.Counter()
        self._address: dict[object, str] = {}

    def watch(self, server: web.Server) -> None:
        """Count ``server``'s connections as it is told of them."""
        made, lost = server.connection_made, server.connection_lost

        def connection_made(handler, transport) -> None:
            made(handler, transport)
            peer = transport.get_extra_info("peername")
            address = peer[0] if isinstance(peer, tuple) else "?"
            self._address[handler] = address
            self.by_address[address] += 1
            if (self.by_address[address] > PER_ADDRESS
                    or sum(self.by_address.values()) > TOTAL):
                # Once the handler has started (it is scheduled, not started, yet):
                # closed under it, it would start on a connection already lost.
                asyncio.get_running_loop().call_soon(handler.force_close)

        def connection_lost(handler, exc=None) -> None:
            address = self._address.pop(handler, None)
            if address is not None:
                self.by_address[address] -= 1
                if not self.by_address[address]:
                    del self.by_address[address]
            lost(handler, exc)

        server.connection_made = connection_made
        server.connection_lost = connection_lost

