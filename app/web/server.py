"""The page on the home network: the board live, its saved games, and its settings.

The server runs beside the table loop, in a thread with its own asyncio loop (aiohttp),
and never touches the session: the loop remains its only owner. After every change the
loop hands the server the session (:meth:`WebFront.publish`, in the loop's thread); the
server makes a snapshot of it there (:mod:`app.web.snapshot`) and pushes the JSON to
every open page over a WebSocket, so a move reaches the pages within a loop turn, with
no polling. A change asked from a page (a new game, a takeback, the LED brightness) is
queued as a command that the loop takes and carries out on its next turn, like a
button press (:meth:`WebFront.commands`).

Watching and downloading are open to the home network; every change needs a token that
only the pairing code earns (:mod:`app.web.pairing`), sent in a header. Requests are
small and bounded, and saved games are named only as the store lists them (no path ever
reaches the file system from a request).

On a board with ``[remote]`` the page also offers its game to a board far away and joins
one, through the board's own :class:`~app.remote.play.FarPlay` (its commands carried out
by the loop, as the touch screen's are); the invitation's progress is pushed to the pages
as it moves on, its code only to paired browsers (:mod:`app.web.far`). A ``[remote]``
naming a club also serves the club's page at ``/club`` (:mod:`app.web.club`).

The page follows the network (:mod:`app.web.address`): by default it listens on every
address of the machine, bound once, so an address the network gives after the start, or
a new one from DHCP, is served at once; the same thread looks at the addresses every
few seconds, says a change in one log line and keeps ``tabletop.local`` announced on
them (:mod:`app.web.mdns`). That costs a fraction of a millisecond a look, and never
the table loop's time.
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
import os
import queue
import re
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from app.errors import WebError
from app.games import GAMES, game
from app.hardware.brightness import BRIGHTNESS_RULE, is_brightness
from app.table import texts
from app.table.assembly import start_game
from app.table.seats import TABLE_KINDS, Browser, Person, parse_seats, words_of
from app.table.session import Session
from app.table.store import RecordStore
from app.web.address import (LAN, AddressChanges, every_address, lan_address,
                              lan_addresses)
from app.web.mdns import HOST_NAME, Announcer
from app.web import club as club_page, far as far_view, guard
from app.web.pairing import ANSWER_DELAY_S, TOKEN_HEADER, Locked, Pairing
from app.web.snapshot import board_view, players, snapshot
from engines.core import GameRecord, ShapedPieces
from engines.errors import EngineError, TabletopError
from engines.players import DEFAULT_LEVEL, LEVEL_WORDS, LEVELS

log = logging.getLogger("tabletop")

#: The page's files.
STATIC = Path(__file__).with_name("static")
#: The largest request body taken (a command is a few hundred bytes).
MAX_BODY = 16 * 1024
#: The largest WebSocket frame taken from a page (pages only listen).
MAX_FRAME = 1024
#: Seconds a page's WebSocket may take to take one snapshot; a page that does not read
#: for this long is dropped (it reloads, or reconnects, when it reads again).
SEND_S = 10.0
#: New games the pages may start in ``NEW_GAMES_S`` seconds, all browsers together: each
#: writes a record, so a paired browser cannot fill the card with them.
NEW_GAMES, NEW_GAMES_S = 10, 60.0
#: Log lines the settings page shows.
LOG_LINES = 50
#: How often the page's thread looks at the machine's addresses, in seconds, besides
#: whenever the kernel says one changed.
WATCH_S = 2.0
#: How often the page's thread looks at a far game's invitation (:attr:`WebFront.far`),
#: in seconds: it moves on in a thread of its own, not as the session changes.
FAR_LOOK_S = 0.2
#: How often a request for the club's list looks for a change, in seconds.
CLUB_LOOK_S = 0.2
#: The longest invitation code a page may send (a code is 8 characters, dashes and
#: spaces forgiven).
MAX_CODE = 40
#: A saved game's name as the store writes it: nothing else names a file.
_RECORD_NAME = re.compile(r"\d{6,}-[a-z0-9-]+\.sgf")  # as the store numbers them

#: The answer to a far game's command on a board that plays none.
NO_FAR = "this board plays no board far away: its configuration has no [remote]"
#: The answer to the club's page on a board that lists its games in no club.
NO_CLUB = "this board is in no club: its [remote] names no club"
#: What a command does to the table (the loop's :class:`~app.table.loop.Table`).
Command = Callable[[Any], None]


@dataclass(frozen=True)
class Actions:
    """How the front end that assembled the table starts a new game from the page:
    ``new_game(table, game, options, seats, level)``, in the loop's thread, for one of
    ``games`` (on a board only its own game; the simulator changes boards)."""

    new_game: Callable[[Any, str, Mapping[str, Any], Mapping[str, str], int], None]
    games: tuple[str, ...]


def new_game_on(table, game: str, options: Mapping[str, Any], seats: Mapping[str, str],
                level: int) -> None:
    """A new game on the same board and session: a board's own game, with these
    players (started as the touch screen's menu starts one)."""
    start_game(table.session, game, options, seats, level)


class Outbox:
    """One page's WebSocket and the newest snapshot it has yet to take: a snapshot that
    a newer one overtakes before it is sent is never sent, so a page that does not read
    holds one snapshot here and the socket's own buffer, however many changes come; and
    a page that takes none for ``SEND_S`` is dropped."""

    def __init__(self, socket: web.WebSocketResponse, transport) -> None:
        self.socket, self._transport = socket, transport
        self._waiting: str | None = None
        self._sending: asyncio.Task | None = None

    def put(self, text: str) -> None:
        self._waiting = text
        if self._sending is None or self._sending.done():
            self._sending = asyncio.ensure_future(self._send())

    async def _send(self) -> None:
        while self._waiting is not None and not self.socket.closed:
            text, self._waiting = self._waiting, None
            try:
                async with asyncio.timeout(SEND_S):
                    await self.socket.send_str(text)
            except TimeoutError:
                self.close()
            except (ConnectionError, RuntimeError):
                return

    def close(self) -> None:
        """Drop the page: its connection closed at once, whatever it has not read."""
        self._waiting = None
        if self._transport is not None:
            self._transport.abort()


class LogTail(logging.Handler):
    """The last log lines, for the settings page."""

    def __init__(self, lines: int = LOG_LINES) -> None:
        super().__init__(logging.INFO)
        self.lines: collections.deque[str] = collections.deque(maxlen=lines)
        self.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s",
                                            "%H:%M:%S"))

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


class WebFront:
    """The web page's side of one table: serve it on ``host``:``port`` (``host``
    :data:`~app.web.address.LAN`: every address; port 0: any free port), publish the
    loop's session to it, and queue its commands for the loop."""

    def __init__(self, store: RecordStore | None, actions: Actions, *, host: str,
                 port: int, pairing: Pairing | None = None,
                 far: Callable[[], Any] | None = None,
                 club: Callable[[], Any] | None = None) -> None:
        self.store, self.actions = store, actions
        #: The board's :class:`~app.remote.play.FarPlay` (``None``: no ``[remote]``), as
        #: ``far()`` gives it once the board has made it.
        self._far = far or (lambda: None)
        #: The broker's settings (a :class:`~app.remote.config.RemoteConfig`) of the club
        #: the board lists its games in (``None``: none), as ``club()`` gives them.
        self._club = club or (lambda: None)
        #: The club's boards as heard on the broker (an
        #: :class:`~app.remote.club.Spectator`), from the first look at the club's page.
        self._spectator = None
        #: The snapshot last published (``None``: none yet) and what the pages are
        #: shown of the far invitation: its state and how many changes it has had.
        self._view: dict[str, Any] | None = None
        self._far_shown: tuple[Any, int] = (None, 0)
        self._latest_lock = threading.Lock()
        self._far_follower: asyncio.Task | None = None
        self.host, self.port = host, port
        self.pairing = pairing or Pairing()
        self.log = LogTail()
        self._commands: queue.SimpleQueue[Command] = queue.SimpleQueue()
        self._latest = "{}"
        self._pieces = "{}"
        self._revision: tuple[int, int] | None = None
        self._sockets: set[web.WebSocketResponse] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self._thread: threading.Thread | None = None
        self._announcer: Announcer | None = None
        self._watcher: asyncio.Task | None = None
        self._new_games: collections.deque[float] = collections.deque(maxlen=NEW_GAMES)
        #: Each saved game's entry in the list, by its name, size and time: a record
        #: read once, not at every look at the list.
        self._listed: dict[tuple[str, int, float], dict[str, Any]] = {}
        #: The browsers' seats: colour -> the token of the browser that plays it, kept
        #: when its connection drops, for its player to come back to.
        self._holders: dict[str, str] = {}
        #: Colours a browser has taken whose take the loop has not carried out yet: a
        #: change published meanwhile (another browser's Hint) still shows the seat as
        #: the table's, and must not give it back.
        self._taking: set[str] = set()
        self._holders_lock = threading.Lock()
        #: The table's LED brightness as last read in the loop's thread (``None`` until
        #: then), for the settings' slider to start from; read at the loop's first step.
        self.brightness: float | None = None
        self._commands.put(self._read_brightness)

    def _read_brightness(self, table) -> None:
        self.brightness = table.strip.brightness

    @property
    def note(self) -> str:
        """What the status screen says of the page: its pairing code."""
        return f"web code {self.pairing.code}"

    # --- the table loop's side -----------------------------------------------------
    def publish(self, session: Session) -> None:
        """The session changed (or is another one): push its snapshot to every page."""
        key = (id(session), session.revision)
        if key == self._revision:
            return
        self._revision = key
        with self._holders_lock:  # a seat given to the table or the engine is no one's
            for colour in [c for c in self._holders if c not in self._taking
                           and not isinstance(session.seats[c], Browser)]:
                del self._holders[colour]
        view = snapshot(session.view())
        with self._latest_lock:
            self._view = view
            self._latest = self._dumped()
        self._pieces = json.dumps(pieces_view(session), separators=(",", ":"))
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._broadcast, self._latest)

    def _dumped(self) -> str:
        """The snapshot with what every page may see of the far invitation (its code
        left out: :mod:`app.web.far`); ``far`` is ``null`` on a board with no
        ``[remote]``; ``held`` the colours browsers play. Called under
        :attr:`_latest_lock`."""
        state, seen = self._far_shown
        shown = None if state is None else far_view.public(state, seen)
        # The colours browsers hold (which browser: each page asks /api/me), so that no
        # page offers a seat another browser plays. One C call: no lock needed.
        held = sorted(self._holders)
        return json.dumps({**self._view, "far": shown, "club": self._club() is not None,
                           "held": held}, separators=(",", ":"))

    @property
    def far(self):
        """The board's :class:`~app.remote.play.FarPlay`, or ``None`` (no ``[remote]``)."""
        return self._far()

    def _look_at_far(self) -> None:
        """A far invitation that moved on (connected, offered, joined, failed) is pushed
        to every page, as a change of the session is."""
        far = self.far
        state = far.state if far is not None else None
        with self._latest_lock:
            if state == self._far_shown[0]:
                return
            self._far_shown = (state, self._far_shown[1] + 1)
            if self._view is None:
                return
            self._latest = self._dumped()
            latest = self._latest
        self._broadcast(latest)

    async def _follow_far(self) -> None:
        while True:
            self._look_at_far()
            await asyncio.sleep(FAR_LOOK_S)

    def commands(self) -> list[Command]:
        """The commands pages asked for since the last call, oldest first."""
        found = []
        while True:
            try:
                found.append(self._commands.get_nowait())
            except queue.Empty:
                return found

    # --- the server ----------------------------------------------------------------
    @property
    def url(self) -> str:
        """The page's address as it is now (on every address: the LAN's, looked up)."""
        host = lan_address() if self.host == LAN else self.host
        host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{self.port}/"

    def start(self) -> "WebFront":
        """Serve in a thread of its own; returns once the address is bound, or raises
        :class:`WebError` in one line when it cannot be."""
        ready: queue.SimpleQueue[BaseException | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._serve, args=(ready,),
                                        name="web page", daemon=True)
        self._thread.start()
        problem = ready.get()
        if problem is not None:
            errno = getattr(problem, "errno", None)
            why = os.strerror(errno) if errno else str(problem)
            raise WebError(f"web page: cannot serve on {self.host}:{self.port}: {why}")
        logging.getLogger().addHandler(self.log)
        log.info("web page on %s (the pairing code is on the status screen)%s", self.url,
                 "; on no network yet: it will be at the address the network gives"
                 if self.host == LAN and not lan_addresses() else "")
        announced = self._announced_on()
        if announced is not None:
            self._announcer = Announcer(self.port)
            asyncio.run_coroutine_threadsafe(self._start_watching(announced),
                                             self._loop).result(timeout=10)
        else:
            log.info("web page: not advertised as %s.local (it listens on %s only)",
                     HOST_NAME, self.host)
        return self

    def _announced_on(self) -> Callable[[], tuple[str, ...]] | None:
        """Where the page's name is announced: the machine's addresses as they are at
        each look (on every address), the one named, or nowhere (``None``) for an
        address no other machine reaches."""
        if self.host == LAN:
            return lan_addresses
        if self.host.startswith("127.") or self.host in ("0.0.0.0", "::", "::1",
                                                          "localhost"):
            return None
        return lambda: (self.host,)

    async def _start_watching(self, addresses: Callable[[], tuple[str, ...]]) -> None:
        self._watcher = asyncio.ensure_future(self._watch(addresses))

    async def _watch(self, addresses: Callable[[], tuple[str, ...]]) -> None:
        """The addresses now, whenever the kernel says one changed and every
        ``WATCH_S``: a change said in one line (the page's own address, as :attr:`url`
        gives it), and the name announced on them."""
        changes = AddressChanges(asyncio.get_running_loop())
        seen = addresses()
        try:
            while True:
                await self._announcer.follow(seen)
                await changes.wait(WATCH_S)
                now = addresses()
                if now != seen and self.host == LAN:
                    if now:
                        log.info("web page at %s (the network changed)", self.url)
                    else:
                        log.info("web page: on no network now: at %s on this machine "
                                 "only, until the network is back", self.url)
                seen = now
        finally:
            changes.close()

    def close(self) -> None:
        """Stop serving: open pages are closed, the name withdrawn, the thread ends."""
        logging.getLogger().removeHandler(self.log)
        if self._loop is not None and self._thread is not None:
            asyncio.run_coroutine_threadsafe(self._stop(), self._loop).result(timeout=10)
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=10)
        self._loop = None
        if self._spectator is not None:
            self._spectator.stop()

    def _serve(self, ready) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        try:
            # A stop waits this long for requests under way, not a minute: the table
            # is shutting down and its page can be reloaded.
            self._runner = web.AppRunner(self.application(), handle_signals=False,
                                         access_log=None, shutdown_timeout=1.0,
                                         **guard.handler_args())
            loop.run_until_complete(self._runner.setup())
            guard.Connections().watch(self._runner.server)
            if self.host == LAN:
                listening = every_address(self.port)
                self.port = listening[0].getsockname()[1]
                for sock in listening:
                    loop.run_until_complete(web.SockSite(self._runner, sock).start())
            else:
                site = web.TCPSite(self._runner, self.host, self.port)
                loop.run_until_complete(site.start())
                self.port = site._server.sockets[0].getsockname()[1]
        except (OSError, RuntimeError) as error:
            loop.run_until_complete(self._runner.cleanup())
            loop.close()
            ready.put(error)
            return
        self._loop = loop
        self._far_follower = loop.create_task(self._follow_far())
        ready.put(None)
        try:
            loop.run_forever()
        finally:
            loop.close()

    async def _stop(self) -> None:
        if self._far_follower is not None:
            self._far_follower.cancel()
            await asyncio.gather(self._far_follower, return_exceptions=True)
        if self._watcher is not None:
            self._watcher.cancel()
            await asyncio.gather(self._watcher, return_exceptions=True)
        if self._announcer is not None:
            await self._announcer.close()
        for outbox in list(self._sockets):
            await outbox.socket.close()
        await self._runner.cleanup()

    def _broadcast(self, text: str) -> None:
        for outbox in list(self._sockets):
            outbox.put(text)

    # --- the routes -----------------------------------------------------------------
    def application(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY,
                              middlewares=[guard.checked, _errors_as_json])
        app.on_response_prepare.append(guard.harden)
        app.add_routes([
            web.get("/", self._page),
            web.static("/static", STATIC, follow_symlinks=False),
            web.get("/ws", self._socket),
            web.get("/api/state", self._state),
            web.get("/api/pieces", self._pieces_left),
            web.get("/api/catalogue", self._catalogue),
            web.get("/api/games", self._games),
            web.get("/api/games/{name}", self._game),
            web.get("/api/games/{name}/record", self._record),
            web.post("/api/pair", self._pair),
            web.post("/api/command", self._command),
            web.get("/api/log", self._log_lines),
            web.get("/api/me", self._me),
            web.get("/api/settings", self._settings),
            web.get("/api/far", self._far_invitation),
            web.get("/club", self._club_page),
            web.get("/api/club", self._club_list),
            web.get("/api/boards/{id}", self._club_board),
        ])
        return app

    async def _page(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "index.html")

    async def _catalogue(self, request: web.Request) -> web.Response:
        """The games this table starts, each with its options as the new-game menu
        offers them, and the engine's levels."""
        return web.json_response({
            "games": [{"name": name, "title": game(name).title,
                       # The colours by their names, for the new-game menu's seats.
                       "players": {colour: player.title
                                   for colour, player in game(name).players.items()},
                       "options": [{"key": option.key, "label": option.label,
                                    "values": [{"value": value, "words": option.words(value)}
                                               for value in option.choices()]}
                                   for option in game(name).menu]}
                      for name in self.actions.games],
            "levels": [{"level": level, "words": LEVEL_WORDS[level]} for level in LEVELS],
            "level": DEFAULT_LEVEL})

    async def _state(self, request: web.Request) -> web.Response:
        return web.Response(text=self._latest, content_type="application/json")

    async def _pieces_left(self, request: web.Request) -> web.Response:
        """The shaped pieces each player has left and, at a browser's turn, where each
        may go (:func:`pieces_view`), for the page's piece picker."""
        return web.Response(text=self._pieces, content_type="application/json")

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse(max_msg_size=MAX_FRAME, heartbeat=20)
        await socket.prepare(request)
        outbox = Outbox(socket, request.transport)
        self._sockets.add(outbox)
        try:
            outbox.put(self._latest)
            async for message in socket:  # pages only listen: anything sent is ignored
                if message.type == WSMsgType.ERROR:
                    break
        finally:
            self._sockets.discard(outbox)
            outbox.close()
        return socket

    # --- saved games ----------------------------------------------------------------
    def _saved(self, name: str) -> Path:
        """The record the store lists under ``name``; 404 for any other name."""
        if self.store is not None and _RECORD_NAME.fullmatch(name):
            for saved in self.store.saved():
                if saved.path.name == name:
                    return saved.path
        raise web.HTTPNotFound(text=json.dumps({"error": f"no saved game {name!r}"}),
                               content_type="application/json")

    async def _games(self, request: web.Request) -> web.Response:
        listed = await asyncio.to_thread(self._list_games)
        return web.json_response(listed)

    def _list_games(self) -> list[dict[str, Any]]:
        """Every saved game, newest first: game, players, date, moves and result."""
        listed, known = [], {}
        for saved in self.store.saved() if self.store is not None else ():
            if saved.game not in GAMES:
                continue
            stat = saved.path.stat()
            key = (saved.path.name, stat.st_size, stat.st_mtime)
            entry = known[key] = self._listed.get(key) or self._entry(saved)
            listed.append(entry)
        self._listed = known
        return listed

    def _entry(self, saved) -> dict[str, Any]:
        """One saved game in the list, read from its record."""
        resumed = self.store.read(saved.path)
        board = resumed.board
        entry = {"name": saved.path.name, "game": saved.game,
                 "title": game(saved.game).title,
                 "date": datetime.fromtimestamp(saved.path.stat().st_mtime,
                                                timezone.utc).isoformat(),
                 "loads": board is not None}
        if board is None:
            entry["problem"] = resumed.problem
        else:
            outcome = GameRecord(board, resigned=resumed.resigned).outcome()
            seats = resumed.table.get("seats", {})
            entry.update(moves=len(board.move_stack),
                         players=texts.seats(board.game, seats,
                                             resumed.table.get("level", 0)),
                         result=texts.won_by(board.game, outcome) if outcome
                         else "unfinished")
        return entry

    async def _game(self, request: web.Request) -> web.Response:
        path = self._saved(request.match_info["name"])
        return web.json_response(await asyncio.to_thread(self._replay, path))

    def _replay(self, path: Path) -> dict[str, Any]:
        """A saved game move by move: the board after each move, from the start."""
        resumed = self.store.read(path)
        board = resumed.board
        if board is None:
            raise web.HTTPUnprocessableEntity(text=json.dumps({"error": resumed.problem}),
                                              content_type="application/json")
        outcome = GameRecord(board, resigned=resumed.resigned).outcome()
        moves = list(board.move_stack)
        replay = board.copy()
        while replay.move_stack:
            replay.pop()
        positions = [board_view(replay)]
        for move in moves:
            replay.push(move)
            positions.append(board_view(replay))
        return {"name": path.name, "game": board.game, "title": game(board.game).title,
                "players": players(board.game),
                "moves": [board.move_text(m) for m in moves], "positions": positions,
                "sheet": texts.score_sheet(board),
                "result": texts.won_by(board.game, outcome) if outcome else "unfinished"}

    async def _record(self, request: web.Request) -> web.StreamResponse:
        path = self._saved(request.match_info["name"])
        return web.FileResponse(path, headers={
            "Content-Type": "application/x-go-sgf",
            "Content-Disposition": f'attachment; filename="{path.name}"'})

    # --- changes: the pairing code, then a token ------------------------------------
    async def _pair(self, request: web.Request) -> web.Response:
        address = request.remote or "?"
        body = await _json_body(request)
        code = body.get("code")
        if not isinstance(code, str):
            raise _refused(web.HTTPBadRequest, "the pairing code is missing")
        try:  # counted and judged in one step: no other request runs in between
            token = self.pairing.pair(address, code)
        except Locked as locked:
            await asyncio.sleep(ANSWER_DELAY_S)
            raise _refused(web.HTTPTooManyRequests, str(locked),
                           headers={"Retry-After": str(int(locked.wait) + 1)}) from None
        await asyncio.sleep(ANSWER_DELAY_S)  # right or wrong: the same wait
        if token is None:
            raise _refused(web.HTTPForbidden, "wrong pairing code: it is on the board's "
                           "screen")
        log.info("web page: a browser at %s paired", address)
        return web.json_response({"token": token})

    def _check_token(self, request: web.Request) -> None:
        if not self.pairing.allows(request.headers.get(TOKEN_HEADER)):
            raise _refused(web.HTTPUnauthorized, "pair this browser first: type the code "
                           "on the board's screen")

    async def _me(self, request: web.Request) -> web.Response:
        """What this browser is: paired or not, and the colour it plays, if any."""
        token = request.headers.get(TOKEN_HEADER)
        return web.json_response({"paired": self.pairing.allows(token),
                                  "seat": self._seat_of(token)})

    async def _settings(self, request: web.Request) -> web.Response:
        """The table's settings as they are, for the settings' form to start from."""
        return web.json_response({"brightness": self.brightness})

    async def _far_invitation(self, request: web.Request) -> web.Response:
        """The far invitation with its code, link and QR code: for paired browsers only
        (the code lets a board take the far seat)."""
        self._check_token(request)
        far = self.far
        if far is None:
            raise _refused(web.HTTPNotFound, NO_FAR)
        return web.json_response(far_view.invitation(far.state, self.port))

    # --- the club: the page tabletop watch serves, served here too ----------------------
    def _watching(self):
        """The club's boards as heard on the broker, listened to from the first look
        (a board nobody looks at the club from keeps no second connection); 404 on a
        board in no club."""
        config = self._club()
        if config is None:
            raise _refused(web.HTTPNotFound, NO_CLUB)
        if self._spectator is None:
            from app.remote.club import Spectator  # [remote]'s library: a club has it
            self._spectator = Spectator(config).start()
        return self._spectator

    async def _club_page(self, request: web.Request) -> web.StreamResponse:
        self._watching()
        return web.FileResponse(STATIC / club_page.PAGE[0])

    async def _club_list(self, request: web.Request) -> web.Response:
        """Every board of the club, once the list has changed since the revision the
        page has (up to :data:`~app.web.club.WAIT_S`), looked at without holding a thread."""
        spectator = self._watching()
        since = club_page.since(request.query.get("since", ""))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + club_page.WAIT_S
        while since == spectator.revision and loop.time() < deadline:
            await asyncio.sleep(CLUB_LOOK_S)
        return web.json_response(club_page.listing(spectator, spectator.revision,
                                                   home=True))

    async def _club_board(self, request: web.Request) -> web.Response:
        board = self._watching().board(request.match_info["id"])
        if board is None:
            raise _refused(web.HTTPNotFound, "no such board")
        return web.json_response(club_page.detail(board))

    def _far_command(self, action: str, body: Mapping[str, Any]) -> Command:
        """Offer this board's game to a board far away (its options, the colour played
        here), join another board's offer by its code, or cancel either: carried out in
        the loop's thread, as the touch screen's are (:class:`FarPlay` is the loop's);
        how it goes is the far invitation's state, pushed to the pages."""
        far = self.far
        if far is None:
            raise _refused(web.HTTPBadRequest, NO_FAR)
        if action == "far_cancel":
            return lambda table: far.cancel()
        if action == "far_join":
            code = body.get("code")
            if not isinstance(code, str) or len(code) > MAX_CODE:
                raise _refused(web.HTTPBadRequest, "an invitation code is 8 letters and "
                               "digits such as K7QM-R2XD")
            # A code that is none is the invitation's one line, as on the screen.
            return lambda table: far.join(code)
        name = body.get("game", self.actions.games[0])
        if name not in self.actions.games:
            raise _refused(web.HTTPBadRequest, f"this table plays "
                           f"{', '.join(self.actions.games)}, not {str(name)[:40]!r}")
        colour = body.get("colour")
        if colour not in ("b", "w"):
            raise _refused(web.HTTPBadRequest, "the colour played here is b or w")
        try:
            checked = game(name).new_board(**_strings(body.get("options", {}))).options
        except (EngineError, TypeError, ValueError) as error:
            raise _refused(web.HTTPBadRequest, str(error)) from None
        return lambda table: far.offer(name, dict(checked), colour)

    def _seat_of(self, token: str | None) -> str | None:
        with self._holders_lock:
            return next((c for c, held in self._holders.items() if held == token), None)

    async def _command(self, request: web.Request) -> web.Response:
        self._check_token(request)
        body = await _json_body(request)
        command = self._parse(body, request.headers[TOKEN_HEADER])
        if body.get("action") == "new_game":
            self._count_new_game()
        self._commands.put(command)
        return web.json_response({"queued": body["action"]}, status=202)

    def _count_new_game(self) -> None:
        """Refuse a new game past ``NEW_GAMES`` in ``NEW_GAMES_S`` seconds."""
        now = asyncio.get_running_loop().time()
        if (len(self._new_games) == NEW_GAMES
                and now - self._new_games[0] < NEW_GAMES_S):
            wait = int(NEW_GAMES_S - (now - self._new_games[0])) + 1
            raise _refused(web.HTTPTooManyRequests, f"too many new games: try again in "
                           f"{wait} s", headers={"Retry-After": str(wait)})
        self._new_games.append(now)

    def _seat_command(self, action: str, body: Mapping[str, Any], token: str) -> Command:
        """A player's command at a browser's seat: take one (a colour no other browser
        holds), leave it, move, offer a takeback, or resign (its own colour, on its turn:
        the session judges that)."""
        if action == "take_seat":
            colour = body.get("colour")
            if colour not in ("b", "w"):
                raise _refused(web.HTTPBadRequest, "a seat is b or w")
            with self._latest_lock:
                sitting = ((self._view or {}).get("seating") or {}).get(colour) or {}
            if not sitting.get("open", True):
                raise _refused(web.HTTPConflict, f"{sitting['who']} plays that colour")
            with self._holders_lock:
                held = self._holders.get(colour)
                if held is not None and held != token:
                    raise _refused(web.HTTPConflict, "another browser plays that colour")
                for other in [c for c, t in self._holders.items() if t == token]:
                    del self._holders[other]  # one colour a browser
                self._holders[colour] = token
                self._taking.add(colour)

            def take(table) -> None:
                seats = dict(table.session.seats)
                with self._holders_lock:  # a browser's seat no browser holds: the table's
                    self._taking.discard(colour)
                    if not seats[colour].page_may_take:  # a far board's, since the check
                        if self._holders.get(colour) == token:
                            del self._holders[colour]
                        return
                    seats.update({c: Person() for c, seat in seats.items()
                                  if isinstance(seat, Browser) and c not in self._holders})
                seats[colour] = Browser()
                table.session.set_players(seats, table.session.level)
            return take
        colour = self._seat_of(token)
        if colour is None:
            raise _refused(web.HTTPForbidden, "take a seat first: this browser plays no "
                           "colour")
        if action == "leave_seat":
            with self._holders_lock:
                self._holders.pop(colour, None)

            def leave(table) -> None:
                table.session.set_players({**table.session.seats, colour: Person()},
                                          table.session.level)
            return leave
        if action == "move":
            move = body.get("move")
            if not isinstance(move, str) or not move.strip() or len(move) > 200:
                raise _refused(web.HTTPBadRequest, "a move is its text, such as d4")
            return lambda table: table.session.remote_move(colour, move)
        if action == "resign":
            return lambda table: table.session.resign(colour, by=colour)
        return lambda table: table.session.offer_takeback(colour)

    def _parse(self, body: Mapping[str, Any], token: str) -> Command:
        """The command a page's JSON asks for, checked here (one clear refusal, the
        table untouched), to be carried out in the loop's thread."""
        action = body.get("action")
        if action in ("take_seat", "leave_seat", "move", "offer_takeback", "resign"):
            return self._seat_command(action, body, token)
        if action in ("far_offer", "far_join", "far_cancel"):
            return self._far_command(action, body)
        # A browser that plays a colour undoes, confirms and accepts as that player: its
        # Undo only offers a takeback and it never accepts its own; any other paired
        # browser is the table's.
        who = self._seat_of(token) or "table"
        simple = {"undo": lambda table: table.session.undo(who),
                  "hint": lambda table: table.session.hint(),
                  "confirm": lambda table: table.session.confirm(by=who),
                  "accept": lambda table: table.session.accept_takeback(who)}
        if action in simple:
            return simple[action]
        if action == "new_game":
            name = body.get("game")
            if name not in self.actions.games:
                raise _refused(web.HTTPBadRequest, f"this table plays "
                               f"{', '.join(self.actions.games)}, not {name!r}")
            options, seats, level = body.get("options", {}), body.get("seats"), \
                body.get("level")
            try:
                checked = game(name).new_board(**_strings(options)).options
                seats = words_of(parse_seats(seats, TABLE_KINDS))
                level = _level(level)
            except (EngineError, TypeError, ValueError) as error:
                raise _refused(web.HTTPBadRequest, str(error)) from None
            return lambda table: self.actions.new_game(table, name, dict(checked), seats,
                                                       level)
        if action == "brightness":
            value = body.get("value")
            if not is_brightness(value):
                raise _refused(web.HTTPBadRequest, f"brightness must be {BRIGHTNESS_RULE}")

            def set_brightness(table) -> None:
                table.set_brightness(float(value))
                self._read_brightness(table)
            return set_brightness
        raise _refused(web.HTTPBadRequest, f"no such command: {str(action)[:40]!r}")

    async def _log_lines(self, request: web.Request) -> web.Response:
        self._check_token(request)
        return web.json_response(list(self.log.lines))


def pieces_view(session: Session) -> dict[str, Any]:
    """For a game played with shaped pieces (:class:`ShapedPieces`; none: an empty answer):
    every piece's squares in one orientation (``(x, y)`` offsets, ``y`` up as on the
    board), the names of the pieces each player has left, and, while a browser's player
    is to move, that player's legal moves by piece, each its text and its squares. The
    page matches the squares under a piece it turns and flips with these lists; the
    engine alone says what is legal and how a move is written."""
    board = session.board
    shapes = board.shapes() if isinstance(board, ShapedPieces) else {}
    if not shapes:
        return {"revision": session.revision, "shapes": {}}
    turn = None if session.over else board.turn
    placements: dict[str, list[dict[str, Any]]] = {}
    if (turn is not None and isinstance(session.seats[turn], Browser)
            and session.pending is None):
        for move in board.legal_moves:
            placements.setdefault(board.piece_of(move), []).append(
                {"move": board.move_text(move), "squares": sorted(board.holes_of(move))})
    return {"revision": session.revision, "game": board.game,
            "shapes": {name: [list(cell) for cell in cells]
                       for name, cells in shapes.items()},
            "left": {player: list(board.pieces_left(player)) for player in ("b", "w")},
            "player": turn if placements else None, "placements": placements}


def _refused(kind, message: str, headers: Mapping[str, str] | None = None):
    return kind(text=json.dumps({"error": message}), content_type="application/json",
                headers=headers)


async def _json_body(request: web.Request) -> dict[str, Any]:
    try:
        async with asyncio.timeout(guard.BODY_S):  # a body sent slowly holds nothing
            raw = await request.read()
    except TimeoutError:
        raise _refused(web.HTTPRequestTimeout, "the request's body came too slowly") \
            from None
    try:
        body = json.loads(raw.decode(request.charset or "utf-8"))
    except (ValueError, UnicodeDecodeError, LookupError, RecursionError):
        raise _refused(web.HTTPBadRequest, "the request is not JSON") from None
    if not isinstance(body, dict):
        raise _refused(web.HTTPBadRequest, "the request is not a JSON object")
    return body


def _strings(options: Any) -> dict[str, str]:
    """Game options as the engine takes them from text (``key=value``)."""
    if not isinstance(options, dict) or len(options) > 16:
        raise ValueError("options must be a small object of key: value")
    return {str(key)[:40]: str(value).lower() if isinstance(value, bool) else str(value)[:200]
            for key, value in options.items()}


def _level(level: Any) -> int:
    if isinstance(level, bool) or level not in LEVELS:
        raise ValueError(f"the engine's level is one of {', '.join(map(str, LEVELS))}")
    return level


@web.middleware
async def _errors_as_json(request: web.Request, handler):
    """Every refusal as JSON with one line of error; no traceback ever reaches a page
    (an unexpected one is logged, and answered as a plain 500)."""
    try:
        return await handler(request)
    except web.HTTPException:
        raise
    except TabletopError as error:
        raise _refused(web.HTTPBadRequest, str(error)) from None
