"""A club's boards in one place: every board's live game on the broker, for the club to
watch, as a tournament relay shows a hall's chess boards.

A board whose ``[remote]`` names a ``club`` publishes its game as it stands, retained,
on one topic of its own (``BOARD`` is its ``[remote] name`` as a topic level)::

    tabletop/v1/CLUB/live/BOARD

so whoever subscribes to ``tabletop/v1/CLUB/live/+`` (``tabletop watch BROKER``, or a
board's page) gets every board's newest game at once, and each change after it.

Public within the club, by design. A relay is there to be watched: these messages are
not sealed (:mod:`app.remote.sealing` seals only a game between two boards), so every
client the broker lets read the club's topics reads each board's name, who plays it
(``person``, ``engine level 2``, a far board's name), the game, its options and every
move, and when it was made. Nothing private is in a record: no invitation, no key, no
address, and a game played with a board far away is relayed only as its moves, which
each of the two boards shows anyway. Nor can a spectator change anything: the feed
takes no message at all (:meth:`LiveFeed.commands` is always empty) and a watcher only
subscribes. What a watcher cannot know is whether a record is the board's own: anyone
the broker lets publish on the club's topics can pose as a board (or delete one's
record), and only the broker's accounts, with per-topic rights, prevent that.

A record is a small JSON object (:func:`live_record`): the board's name, whether it is
online, the game and its options, who plays each colour, the moves, whose turn it is,
the session's state, the scores, the message of the moment and the end in a line. The
position is not sent: a watcher replays the moves with its own engine
(:class:`Spectator`), which checks them and draws them as the board's own page does. A
board's last will is ``online: false`` on the same topic, so a board that vanishes
(a power cut, a lost link) is shown offline; one that stops cleanly says so itself,
with its last game.

Bounds, whatever either side does. A board sends at most one record every
:data:`INTERVAL_S` (a burst of changes sends the newest when the interval is up), never
queues more than one (what changed while the link was down is sent as the newest record
when it is back), and never sends more than :data:`MAX_LIVE` bytes (a record that would
be longer goes without its moves). A watcher drops a message over :data:`MAX_LIVE` bytes
before reading it, and drops and counts one that is not such a record or whose moves its
engine refuses (:attr:`Spectator.malformed`); it keeps at most :data:`MAX_BOARDS` boards
and its own copy of each record, never anything it was sent beyond those.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import secrets
import threading
import time
from dataclasses import dataclass
from typing import Any

from app.games import GAMES, new_game
from app.remote.broker import Broker
from app.remote.config import NAME_CHARS, RemoteConfig, parse
from app.remote.far_board import MAX_MOVE_TEXT, MAX_MOVES, moves_of
from engines import Board, EngineError

log = logging.getLogger(__name__)

VERSION = 1
#: A record's largest size in bytes, on both sides: a whole Blokus Duo game is about a
#: tenth of it, and a long ConHex game a fifth.
MAX_LIVE = 16 * 1024
#: A board sends at most one record in this many seconds (four a second).
INTERVAL_S = 0.25
#: Boards a watcher keeps; a club of twenty fits three times over.
MAX_BOARDS = 64
#: The longest text a record's message, a seat's words and the end may carry.
TEXT_CHARS = 200
#: A board's topic level: its name in letters and digits, and a hash of the whole name,
#: so that two names that read alike ("Anna's" and "Annas") are two boards.
BOARD_TOPIC = re.compile(r"[a-z0-9-]{1,40}")
COLOURS = ("b", "w")


def club_filter(club: str) -> str:
    """The topic filter of every board of ``club``."""
    return f"tabletop/v1/{club}/live/+"


def board_topic(club: str, name: str) -> str:
    """Where the board called ``name`` publishes its live game."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:32] or "board"
    return f"tabletop/v1/{club}/live/{slug}-{hashlib.sha256(name.encode()).hexdigest()[:6]}"


# --- a board's side -----------------------------------------------------------------

def live_record(name: str, session: Any) -> dict[str, Any]:
    """What ``session`` shows now, as the club sees it (see the module)."""
    view = session.view()
    status, board = view.status, session.board
    return {"v": VERSION, "board": name, "online": True, "game": board.game,
            "options": dict(board.options),
            "seats": {colour: seat.words(status.level)[:TEXT_CHARS]
                      for colour, seat in status.seats.items()},
            "moves": moves_of(board), "turn": status.turn, "state": status.state,
            "scores": dict(status.scores), "message": view.message[:TEXT_CHARS],
            "end": view.end_short[:TEXT_CHARS], "at": round(time.time(), 3)}


def encode(record: dict[str, Any]) -> bytes:
    """``record`` as sent: at most :data:`MAX_LIVE` bytes, without its moves (``null``)
    if they would make it longer."""
    payload = json.dumps(record, separators=(",", ":")).encode()
    if len(payload) > MAX_LIVE and record.get("moves"):
        payload = json.dumps({**record, "moves": None}, separators=(",", ":")).encode()
    return payload


class LiveFeed:
    """Publishes a board's live game to its club: a front end of the table loop
    (:class:`app.table.loop.Remote`) that only listens. The loop hands it the session
    after every change (:meth:`publish`, which only makes the record); a thread of its
    own sends the newest record, at most one every ``interval`` seconds."""

    def __init__(self, config: RemoteConfig, broker: Broker | None = None, *,
                 interval: float = INTERVAL_S) -> None:
        self.name, self.interval = config.name, interval
        self.topic = board_topic(config.club, config.name)
        self.broker = broker or Broker(config, f"tabletop-live-{secrets.token_hex(6)}")
        self._wake = threading.Condition()
        self._pending: dict[str, Any] | None = None  # the newest record, not sent yet
        self._last: dict[str, Any] | None = None  # the newest record, sent or not
        self._closing = False
        #: Records handed to the broker.
        self.sent = 0
        self._thread = threading.Thread(target=self._send, name="club live feed",
                                        daemon=True)

    def start(self) -> LiveFeed:
        self.broker.set_will(self.topic, encode({"v": VERSION, "board": self.name,
                                                 "online": False}))
        self.broker.on_connect = self._connected
        self.broker.start()
        self._thread.start()
        return self

    def publish(self, session: Any) -> None:
        """The session changed (the loop's thread): its record is the one to send (made
        here, from the session the loop owns; encoded in the feed's thread, if it is
        still the newest when its turn comes)."""
        record = live_record(self.name, session)
        with self._wake:
            self._last = self._pending = record
            self._wake.notify()

    def commands(self) -> list:
        """Nothing: a spectator can never change anything at the table."""
        return []

    def close(self) -> None:
        """Say this board is offline, with its last game, and leave the broker."""
        with self._wake:
            self._closing = True
            self._wake.notify()
        self._thread.join(timeout=10)
        if self.broker.connected.is_set():
            last = self._last or {"v": VERSION, "board": self.name}
            self.broker.publish(self.topic, encode({**last, "online": False}), retain=True)
        self.broker.stop()

    def _connected(self) -> None:
        """A connection (paho's thread): the newest record again, as the broker may have
        published the last will, or lost everything, while the link was down."""
        with self._wake:
            if self._last is not None:
                self._pending = self._last
                self._wake.notify()

    def _send(self) -> None:
        due = 0.0
        while True:
            with self._wake:
                self._wake.wait_for(lambda: self._closing or (
                    self._pending is not None and time.monotonic() >= due),
                    timeout=max(0.0, due - time.monotonic()) or None)
                if self._closing:
                    return
                if self._pending is None or time.monotonic() < due:
                    continue
                record, self._pending = self._pending, None
            if self.broker.connected.is_set():  # else it goes when the link is back
                self.broker.publish(self.topic, encode(record), retain=True)
                self.sent += 1
                due = time.monotonic() + self.interval


def live_feed(remote: Any, where: str) -> LiveFeed | None:
    """The started feed of the board whose configuration file ``where`` has ``remote``
    as its ``[remote]`` table, if it names a ``club`` (``None``: it does not, and the
    board publishes nothing). A wrong ``[remote]`` is one line
    (:class:`app.errors.ConfigError`)."""
    if remote is None or "club" not in remote:
        return None
    return LiveFeed(parse(remote, where)).start()


# --- a watcher's side ----------------------------------------------------------------

@dataclass(frozen=True)
class LiveBoard:
    """One board as a watcher last heard of it: ``record`` is its newest game, checked
    (``None``: it said nothing but offline yet), ``board`` that game replayed by this
    machine's engine (``None`` with no game, or moves too many to send)."""

    id: str
    name: str
    online: bool
    record: dict[str, Any] | None
    board: Board | None
    #: When it was last heard of (time.time()), and the watcher's count of its changes.
    heard: float
    revision: int


class Malformed(ValueError):
    """A live message that is not a record, or moves this engine refuses."""


def _text(value: Any, limit: int = TEXT_CHARS, what: str = "text") -> str:
    if not isinstance(value, str) or len(value) > limit:
        raise Malformed(f"{what} is not text of at most {limit} characters")
    return value


def check(record: Any) -> dict[str, Any]:
    """``record`` as received, if it is a live record: only its known fields, each
    checked for its kind and size; :class:`Malformed` if it is not one."""
    if not isinstance(record, dict) or record.get("v") != VERSION:
        raise Malformed("not a live record of this version")
    online = record.get("online")
    if not isinstance(online, bool):
        raise Malformed("online is not true or false")
    checked = {"board": _text(record.get("board"), NAME_CHARS, "the board's name"),
               "online": online}
    if "game" not in record and not online:
        return checked  # a last will: offline, no game
    game = record.get("game")
    if not isinstance(game, str) or game not in GAMES:
        raise Malformed("no such game")
    options = record.get("options")
    if not isinstance(options, dict) or len(options) > 16 or not all(
            isinstance(k, str) and len(k) <= 32
            and isinstance(v, (str, int, float, bool)) and len(str(v)) <= 256
            for k, v in options.items()):
        raise Malformed("options are not a few short settings")
    seats = record.get("seats")
    if not isinstance(seats, dict) or set(seats) != set(COLOURS):
        raise Malformed("seats are not one for each colour")
    moves = record.get("moves")
    if moves is not None and not (isinstance(moves, list) and len(moves) <= MAX_MOVES and all(
            isinstance(m, str) and len(m) <= MAX_MOVE_TEXT for m in moves)):
        raise Malformed("moves are not a list of moves")
    turn = record.get("turn")
    if turn is not None and turn not in COLOURS:
        raise Malformed("turn is not a colour")
    scores = record.get("scores")
    if not isinstance(scores, dict) or set(scores) - set(COLOURS) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in scores.values()):
        raise Malformed("scores are not a number for each colour")
    at = record.get("at")
    if not isinstance(at, (int, float)) or isinstance(at, bool):
        raise Malformed("at is not a time")
    return {**checked, "game": game, "options": dict(options),
            "seats": {c: _text(seats[c], what="a seat") for c in COLOURS},
            "moves": None if moves is None else list(moves), "turn": turn,
            "state": _text(record.get("state"), 32, "state"),
            "scores": dict(scores), "message": _text(record.get("message"), what="message"),
            "end": _text(record.get("end"), what="end"), "at": float(at)}


def replayed(record: dict[str, Any], known: LiveBoard | None) -> Board | None:
    """The game of a checked ``record`` by this machine's engine: the game ``known``
    had, with the moves beyond it, when the record goes on from it (a move or two
    more), else replayed from the start. :class:`Malformed` if the engine refuses an
    option or a move."""
    moves = record["moves"]
    if moves is None:
        return None
    before = known.record if known is not None else None
    try:
        if (before is not None and known.board is not None
                and (before["game"], before["options"]) == (record["game"], record["options"])
                and moves[:len(before["moves"])] == before["moves"]):
            board, start = known.board.copy(), len(before["moves"])
        else:
            board, start = new_game(record["game"], **record["options"]), 0
        for number in range(start, len(moves)):
            move = board.parse_move(moves[number])
            if not board.is_legal(move):
                raise Malformed(f"move {number + 1}, {moves[number]}, is not legal")
            board.push(move)
    except (EngineError, TypeError) as error:
        raise Malformed(str(error)[:80]) from None
    return board


class Spectator:
    """A club's boards as one watcher sees them: subscribed to every board's live topic,
    each message checked and replayed (in paho's thread), the newest of each board kept
    for readers in other threads (:meth:`boards`, :meth:`wait`). It subscribes and never
    publishes."""

    def __init__(self, config: RemoteConfig, broker: Broker | None = None, *,
                 max_boards: int = MAX_BOARDS) -> None:
        self.club, self.max_boards = config.club, max_boards
        self.broker = broker or Broker(config, f"tabletop-watch-{secrets.token_hex(6)}",
                                       limit=MAX_LIVE)
        self._boards: dict[str, LiveBoard] = {}
        self._changed = threading.Condition()
        #: Counted up at every change of any board.
        self.revision = 0
        #: Messages dropped: not a live record (or moves the engine refused); from a
        #: board beyond :attr:`max_boards`.
        self.malformed = self.crowded = 0

    @property
    def oversized(self) -> int:
        """Messages dropped unread for their size."""
        return self.broker.oversized

    def start(self) -> Spectator:
        self.broker.subscribe(club_filter(self.club), self._on_live)
        self.broker.start()
        return self

    def stop(self) -> None:
        self.broker.stop()

    def boards(self) -> list[LiveBoard]:
        """Every board kept, by name."""
        with self._changed:
            return sorted(self._boards.values(), key=lambda b: (b.name.lower(), b.id))

    def board(self, id: str) -> LiveBoard | None:
        with self._changed:
            return self._boards.get(id)

    def wait(self, since: int, timeout: float) -> int:
        """The revision, once it is past ``since`` or ``timeout`` seconds have passed."""
        with self._changed:
            self._changed.wait_for(lambda: self.revision != since, timeout)
            return self.revision

    def _on_live(self, topic: str, payload: bytes) -> None:
        id = topic.rpartition("/")[2]
        with self._changed:
            known = self._boards.get(id)
        if not payload:  # a retained record deleted: the board left the club
            if known is not None:
                self._change(lambda boards: boards.pop(id, None))
            return
        try:
            if not BOARD_TOPIC.fullmatch(id):
                raise Malformed("not a board's topic")
            record = check(json.loads(payload))
            if "game" in record:
                game, board = record, replayed(record, known)
            else:  # offline and nothing more (its last will): what was known stays
                game, board = (known.record, known.board) if known else (None, None)
        except (Malformed, ValueError, RecursionError) as error:
            self.malformed += 1
            log.info("dropped a live message on %s: %s", topic[:120], str(error)[:80])
            return

        def keep(boards: dict[str, LiveBoard]) -> None:
            if id not in boards and len(boards) >= self.max_boards:
                self.crowded += 1
                return
            before = boards.get(id)
            boards[id] = LiveBoard(id, record["board"], record["online"], game, board,
                                   time.time(), before.revision + 1 if before else 1)
        self._change(keep)

    def _change(self, change) -> None:
        with self._changed:
            change(self._boards)
            self.revision += 1
            self._changed.notify_all()

