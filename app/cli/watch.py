"""``tabletop watch BROKER``: a club's boards in one page, live, as a spectator.

The command connects to the broker as a spectator (:class:`app.remote.club.Spectator`:
it subscribes to the club's live topics and publishes nothing) and serves a small page,
on this machine only unless ``--address`` says otherwise, that lists the club's boards
with their game and state and opens any one to follow it move by move: the club's page
(:mod:`app.web.club`), which a board's own page serves too. The board is drawn by the
board's own page's drawing code (``board.js``) from the same board JSON
(:func:`app.web.snapshot.board_view`) of the game this machine's engine replayed, so a
board looks here as on its own page.

The server is the standard library's threaded HTTP server: a few files and two JSON
answers, the list's waiting for the next change (:data:`app.web.club.WAIT_S`), so
nothing here needs an event loop.
"""

from __future__ import annotations

import json
import logging
import sys
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from app.cli import logging_to_stdout, number_type
from app.errors import ConfigError, WebError, describe
from app.web import club

log = logging.getLogger("tabletop")

STATIC = Path(__file__).resolve().parents[1] / "web" / "static"
#: The page's own files, and the board page's drawing and style sheet it shares.
FILES = {"/": club.PAGE, **{f"/static/{name}": (name, kind)
                           for name, kind in club.SCRIPTS.items()}}
DEFAULT_PORT = 8090
port_number = number_type("a port number", "0 to 65535", lambda v: 0 <= v <= 65535, int)


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "watch", help="follow a club's boards live through their broker, in a page",
        description="Connect to the broker as a spectator and serve a page that lists "
                    "the club's boards live, with their game and state, and opens any "
                    "one to follow it move by move. The broker's account and TLS "
                    "settings are those of [remote] (from --config, or the options).")
    parser.add_argument("broker", nargs="?",
                        help="host or host:port (default: [remote] broker of --config)")
    parser.add_argument("--config", metavar="FILE",
                        help="a board's configuration file: its [remote] table")
    parser.add_argument("--club", help="the club to watch (default: [remote] club, or "
                                       "tabletop)")
    parser.add_argument("--user", help="the broker account's user")
    parser.add_argument("--password", help="its password (--config keeps it out of the "
                                           "process list)")
    parser.add_argument("--ca", metavar="FILE", help="the broker's authority")
    parser.add_argument("--certificate", metavar="FILE", help="a client certificate")
    parser.add_argument("--key", metavar="FILE", help="the client certificate's key")
    parser.add_argument("--no-tls", dest="tls", action="store_false", default=None,
                        help="a broker in the home network without TLS")
    parser.add_argument("--address", default="127.0.0.1",
                        help="where the page listens (default: 127.0.0.1, this machine only)")
    parser.add_argument("--port", type=port_number, default=DEFAULT_PORT,
                        help=f"the page's port (default {DEFAULT_PORT}; 0: any free one)")
    parser.set_defaults(run=run)


def remote_settings(args) -> Any:
    """The broker's settings the arguments give, over ``--config``'s ``[remote]``,
    checked as ``[remote]`` is (one line if wrong)."""
    from app.remote.config import parse
    from app.table.config import load_config
    table: dict[str, Any] = {}
    where = "the options, as [remote]"
    if args.config:
        config = load_config(args.config)
        if config.remote is None:
            raise ConfigError(f"{args.config}: no [remote] table (the broker to watch)")
        table, where = dict(config.remote), str(args.config)
        table.pop("name", None)  # the board's own name: a spectator is no board
    given = {"broker": args.broker, "club": args.club, "user": args.user,
             "password": args.password, "ca": args.ca, "certificate": args.certificate,
             "key": args.key, "tls": args.tls}
    table.update({key: value for key, value in given.items() if value is not None})
    if "broker" not in table:
        raise ConfigError("which broker? (BROKER, or --config with [remote] broker)")
    return parse(table, where)


def run(args) -> int:
    from app.remote.club import Spectator
    with logging_to_stdout():
        config = remote_settings(args)
        spectator = Spectator(config)
        try:  # the page first: a watcher that cannot show what it sees does not start
            server = page_server(spectator, args.address, args.port)
        except OSError as error:
            raise WebError(f"cannot serve the page on {args.address}:{args.port}: "
                              f"{describe(error)}") from None
        host, port = server.server_address[:2]
        spectator.start()
        log.info("watching club %s on %s: http://%s:%d/", config.club, config.broker,
                 host if ":" not in host else f"[{host}]", port)
        try:
            server.serve_forever()
        finally:
            server.server_close()
            spectator.stop()
    return 0


def page_server(spectator, address: str, port: int) -> PageServer:
    """The page's server for ``spectator``, listening (not yet serving)."""

    class Page(BaseHTTPRequestHandler):
        server_version = "tabletop-watch"

        def do_GET(self) -> None:
            url = urlsplit(self.path)
            if url.path in FILES:
                name, kind = FILES[url.path]
                self._send((STATIC / name).read_bytes(), kind)
            elif url.path == "/api/club":
                revision = self._wait(url.query)
                self._json(club.listing(spectator, revision, home=False))
            elif url.path.startswith("/api/boards/"):
                board = spectator.board(url.path.rpartition("/")[2])
                if board is None:
                    self._json({"error": "no such board"}, HTTPStatus.NOT_FOUND)
                else:
                    self._json(club.detail(board))
            else:
                self._json({"error": "not found"}, HTTPStatus.NOT_FOUND)

        def _wait(self, query: str) -> int:
            """The revision, after waiting for a newer one than the page has, if it
            said which it has."""
            since = club.since(parse_qs(query).get("since", [""])[0])
            if since is None:
                return spectator.revision
            return spectator.wait(since, club.WAIT_S)

        def _json(self, body: Any, status: HTTPStatus = HTTPStatus.OK) -> None:
            self._send(json.dumps(body).encode(), "application/json", status)

        def _send(self, body: bytes, kind: str, status: HTTPStatus = HTTPStatus.OK) -> None:
            self.send_response(status)
            self.send_header("Content-Type", f"{kind}; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # a request a second from every page open is no news

    return PageServer((address, port), Page)


class PageServer(ThreadingHTTPServer):
    """The standard library's threaded server, which says a request that failed (a page
    closed while it waited for a change) in one line of the log, not a traceback."""

    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        log.debug("the page at %s went away: %s", client_address[0],
                  describe(sys.exc_info()[1]))

