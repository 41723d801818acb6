"""A board far away as a seat: its moves lit here to place, this board's moves sent there.

:class:`FarBoard` is the seat (away from the table, as a browser's is): a piece put down
for it before its move came is refused, and its move is lit for the person here to
place. :class:`FarLink` carries the game between the session and the broker; it is what
the table loop calls a remote front end (:class:`app.table.loop.Remote`): the loop hands
it the session after every change (:meth:`FarLink.publish`: this board's new moves go
out) and runs what it asks in the loop's own thread (:meth:`FarLink.commands`: the other
board's moves, checked with this board's engine, are lit). paho's thread only opens and
checks messages and keeps the newest, so the game is never touched from two threads.

:class:`FarGame` is what the link keeps on disk, beside the game's record: the agreed
secret, the colours, the sequence numbers and connection counts, both boards' moves as
last sent and seen, who resigned, and why the game stopped if it did. It is written after every change
(atomically, in a directory only the board's user can read), so after a power cut the
board resumes the game and its numbers where they were. The message formats and the
reasons behind them are in :mod:`app.remote`.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import logging
import os
import secrets
import threading
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from app.errors import FarGameError
from app.games import new_game
from app.remote.broker import Broker
from app.remote.config import RemoteConfig
from app.remote.invitation import Agreed
from app.remote.sealing import Refused, derive, open_sealed, seal
from app.table import texts
from app.table.seats import Person, Seat, register
from app.table.store import write_atomically
from app.textfile import read_text
from engines import Board, EngineError
from engines.core import other

log = logging.getLogger(__name__)

#: Far more moves than any of the games has; a longer record is refused unread.
MAX_MOVES = 600
MAX_MOVE_TEXT = 64
#: How long a board that leaves a game waits for its last word to reach the broker.
LEAVE_S = 5.0
VERSION = 1


def position_hash(board: Board) -> str:
    """The position ``board`` is in, as this board's engine sees it, in 32 hex digits:
    the game, whose turn, how many moves, and what is on every hole."""
    view = sorted(board.piece_view().items())
    text = json.dumps([board.game, board.turn, len(board.move_stack), view])
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def moves_of(board: Board) -> list[str]:
    return [board.move_text(move) for move in board.move_stack]


@dataclass
class FarGame:
    """One game with a board far away, as this board keeps it (see the module)."""

    path: Path
    secret: bytes
    club: str
    #: The colour this board plays; the board far away plays the other.
    colour: str
    name: str
    peer: str
    game: str
    options: dict[str, Any]
    client_id: str = field(default_factory=lambda: f"tabletop-{secrets.token_hex(8)}")
    seq: int = 0
    peer_seq: int = 0
    conn: int = 0
    peer_conn: int = 0
    #: The last of the other board's connections it was seen to leave (its last will).
    peer_offline: int = 0
    sent: list[str] = field(default_factory=list)
    sent_hash: str = ""
    peer_moves: list[str] = field(default_factory=list)
    #: Takebacks both boards agreed to, counted the same on both.
    takebacks: int = 0
    #: Which game of the two boards this is: a new game, started on both, counts it up.
    round: int = 0
    #: The colour that resigned this round's game, on either board ("" while none has).
    resigned: str = ""
    stopped: str = ""

    @classmethod
    def agreed(cls, path: Path, agreed: Agreed, club: str, host: bool) -> FarGame:
        """The game an invitation gave, for the board that invited (``host``) or joined."""
        colour = agreed.host_colour if host else other(agreed.host_colour)
        names = (agreed.host_name, agreed.guest_name)
        game = cls(path, agreed.secret, club, colour, *(names if host else names[::-1]),
                   agreed.game, dict(agreed.options))
        game.sent_hash = position_hash(game.board())
        game.save()
        return game

    @classmethod
    def load(cls, path: Path) -> FarGame:
        """The game kept at ``path``; :class:`FarGameError` in one line if it cannot be."""
        text = read_text(path, FarGameError)
        try:
            fields = json.loads(text)
            fields["secret"] = base64.b64decode(fields["secret"], validate=True)
            game = cls(path=Path(path), **{k: v for k, v in fields.items() if k != "v"})
            if game.colour not in ("b", "w") or len(game.secret) != 32:
                raise ValueError("colour or secret")
            game.board()
        except (ValueError, KeyError, TypeError, binascii.Error, EngineError) as error:
            raise FarGameError(f"{path}: not a game with a board far away "
                               f"({str(error)[:80]})") from None
        return game

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(self.path.parent, 0o700)  # the secret is in it: the board's user alone
        fields = {k: v for k, v in asdict(self).items() if k != "path"}
        fields["secret"] = base64.b64encode(self.secret).decode()
        write_atomically(self.path, json.dumps({"v": VERSION, **fields}, indent=1))

    def board(self, moves: list[str] | None = None) -> Board:
        """The game with ``moves`` played (this board's moves as last sent by default):
        a restarted board's game."""
        board = new_game(self.game, **self.options)
        for text in self.sent if moves is None else moves:
            board.push(board.parse_move(text))
        return board

    def topic(self, colour: str, what: str) -> str:
        name = derive(self.secret, "topic", 12).hex()
        return f"tabletop/v1/{self.club}/game/{name}/{colour}/{what}"

    def key(self, colour: str) -> bytes:
        return derive(self.secret, f"messages of {colour}")


@dataclass(frozen=True)
class FarBoard(Seat):
    """The other board of a game played through a broker; ``name`` is what it calls
    itself, ``link`` the connection its moves come through (its state: offline)."""

    kind: ClassVar[str] = "board"
    called: ClassVar[str] = "a board far away"
    away: ClassVar[bool] = True
    page_may_take: ClassVar[bool] = False

    name: str = ""
    link: FarLink | None = field(default=None, compare=False, repr=False)

    @property
    def where(self) -> str:
        return f"{self.name}'s board" if self.name else self.called

    def words(self, level: int) -> str:
        return self.where

    def to_move(self, game: str, colour: str) -> str:
        said = texts.away_to_move(game, colour, self.where)
        if self.link is not None and not self.link.peer_online:
            said += " (offline: the game waits for it)"
        return said

    def place(self, game: str, colour: str, move: str) -> str:
        return texts.place_away_move(game, colour, move, self.where)

    def too_soon(self, game: str, colour: str) -> str:
        return texts.away_waits(game, colour, self.where)

    def resumed(self, game: str, colour: str) -> tuple[Seat, str]:
        # A record names only the kind: with no link (nobody resumed the game with its
        # kept file), no move can come, and a person here plays the colour.
        if self.link is None:
            return Person(), texts.handed_back(game, colour, self.where)
        return self, ""


#: Records name a far board's seat as ``board``; the table reads it back through this.
register(FarBoard())


class FarLink:
    """Carries ``game`` between this board's session and the broker (see the module)."""

    def __init__(self, game: FarGame, config: RemoteConfig, broker: Broker | None = None):
        self.game = game
        self.far = other(game.colour)
        self.broker = broker or Broker(config, game.client_id)
        self.seat = FarBoard(game.peer, link=self)
        self._lock = threading.RLock()
        self._incoming: dict[str, Any] | None = None
        self._presence_news = False
        self._due = True  # catch up with what was seen before a restart
        self._last_seen_seq = game.peer_seq
        #: Whether the person here offers a takeback (the session's offer, sent along).
        self._offering = False
        #: A takeback both sides agreed to is being taken here: the record may shrink.
        self._taking_back = False
        #: The newest game the other board started (above ``game.round``: this board's
        #: person has not started it yet).
        self._peer_round = game.round
        #: The other board's newest state of that game, taken once it is started here.
        self._ahead: dict[str, Any] | None = None
        #: Whether the other board is connected, as its last presence message said.
        self.peer_online = False
        #: Messages refused unopened or unread (forged, altered, misplaced, malformed),
        #: and authentic ones seen before (a replay, or the retained one again).
        self.refused = self.stale = 0
        self._own_state = game.topic(game.colour, "state")
        self._own_presence = game.topic(game.colour, "presence")
        self._options = dict(game.board([]).options)

    def seats(self) -> dict[str, Seat]:
        """Who plays: a person here, and the board far away."""
        return {self.game.colour: Person(), self.far: self.seat}

    # --- the broker's side (paho's thread) ------------------------------------------
    def start(self) -> None:
        broker = self.broker
        broker.subscribe(self.game.topic(self.far, "state"), self._on_state)
        broker.subscribe(self.game.topic(self.far, "presence"), self._on_presence)
        broker.on_connect, broker.on_disconnect = self._on_connect, self._next_connection
        self._next_connection()
        broker.start()

    def stop(self) -> None:
        self.broker.stop()

    def leave(self, session: Any) -> None:
        """The person here starts another game (a game of this board's own, a saved one,
        or one with another board): the game with this board's ends, said on both
        boards, and the link closes once that is sent."""
        if not self.game.stopped:
            self._stop(session, "its player started another game")
        self.broker.flush(LEAVE_S)
        self.stop()

    def _next_connection(self) -> None:
        """Count the coming connection and leave its last will: offline, with its count."""
        with self._lock:
            self.game.conn += 1
            self.game.save()
            self.broker.set_will(self._own_presence, seal(
                self.game.key(self.game.colour), self._own_presence,
                {"conn": self.game.conn, "online": False}))

    def _on_connect(self) -> None:
        with self._lock:
            self.broker.publish(self._own_presence, seal(
                self.game.key(self.game.colour), self._own_presence,
                {"conn": self.game.conn, "online": True}), retain=True)
            self._send_state()

    def _send_state(self) -> None:
        """Publish this board's state, retained, under a new sequence number."""
        game = self.game
        game.seq += 1
        game.save()
        message = {"seq": game.seq, "game": game.game, "n": len(game.sent),
                   "moves": game.sent, "hash": game.sent_hash, "takebacks": game.takebacks,
                   "round": game.round}
        if self._offering:
            message["offer"] = "takeback"
        if game.resigned:
            message["resigned"] = game.resigned
        if game.stopped:
            message["stopped"] = game.stopped
        self.broker.publish(self._own_state, seal(game.key(game.colour), self._own_state,
                                                  message), retain=True)

    def _opened(self, topic: str, payload: bytes) -> dict[str, Any] | None:
        try:
            return open_sealed(self.game.key(self.far), topic, payload)
        except Refused:
            self.refused += 1
            return None

    def _on_state(self, topic: str, payload: bytes) -> None:
        message = self._opened(topic, payload)
        if message is None:
            return
        seq, moves = message.get("seq"), message.get("moves")
        if not (isinstance(seq, int) and isinstance(moves, list) and len(moves) <= MAX_MOVES
                and all(isinstance(m, str) and len(m) <= MAX_MOVE_TEXT for m in moves)
                and isinstance(message.get("n"), int) and isinstance(message.get("hash"), str)
                and isinstance(message.get("stopped", ""), str)
                and isinstance(message.get("takebacks", 0), int)
                and isinstance(message.get("round", 0), int)
                and message.get("offer", "takeback") == "takeback"
                and message.get("resigned", "") in ("", "b", "w")):
            self.refused += 1
            return
        with self._lock:
            if seq <= self._last_seen_seq:
                self.stale += 1
                return
            self._last_seen_seq = seq
            self._incoming = message

    def _on_presence(self, topic: str, payload: bytes) -> None:
        message = self._opened(topic, payload)
        if message is None:
            return
        conn, online = message.get("conn"), message.get("online")
        if not isinstance(conn, int) or not isinstance(online, bool):
            self.refused += 1
            return
        with self._lock:
            game = self.game
            # A later connection's word counts; within one connection, offline is last.
            if conn < game.peer_conn or (online and conn <= game.peer_offline):
                self.stale += 1
                return
            # A new connection (after a drop, a restart, or a clean leave that left no
            # will) may have found an old state retained: it is sent the newest.
            came_back = online and (not self.peer_online or conn > game.peer_conn)
            game.peer_conn = conn
            if not online:
                game.peer_offline = conn
            self.peer_online = online
            game.save()
            self._presence_news = True
            if came_back:
                self._send_state()  # whatever the broker retained, it gets the newest

    # --- the table's side (the loop's thread) ----------------------------------------
    def commands(self) -> list[Callable[[Any], None]]:
        """What the loop is to do now: take the other board's news, if there is any."""
        with self._lock:
            due = self._incoming is not None or self._presence_news or self._due
        return [self._apply] if due else []

    def publish(self, session: Any) -> None:
        """The session changed: send this board's new moves, a takeback its person
        offers, or the record a takeback both agreed to left; or stop the game if the
        board no longer plays it."""
        game = self.game
        if game.stopped:
            return
        board = session.board
        moves = moves_of(board)
        taken_back = (self._taking_back and len(moves) < len(game.sent)
                      and game.sent[:len(moves)] == moves)
        same_game = board.game == game.game and dict(board.options) == self._options
        if (same_game and not moves and (game.sent or game.resigned) and not taken_back
                and session.resigned is None):
            self._new_game(session)
            return
        if not same_game or (moves[:len(game.sent)] != game.sent and not taken_back):
            self._stop(session, f"this board left the game with {game.peer}'s board")
            return
        with self._lock:
            if taken_back or len(moves) > len(game.sent):
                self._taking_back = False  # taken, or declined by a move
            if taken_back:
                game.takebacks += 1
                game.peer_moves = game.peer_moves[:len(moves)]
            if len(game.peer_moves) > len(moves):
                self._due = True  # the other board played on: light its next move
            offering = session.offer == "table"
            resigning = session.resigned == game.colour and game.resigned != game.colour
            if moves == game.sent and offering == self._offering and not resigning:
                return
            if resigning:
                game.resigned = game.colour  # the person here resigned: said there too
            self._offering = offering
            game.sent, game.sent_hash = moves, position_hash(board)
            self._send_state()

    def _apply(self, table: Any) -> None:
        session = table.session
        with self._lock:
            message, self._incoming = self._incoming, None
            news, self._presence_news, self._due = self._presence_news, False, False
        game = self.game
        if game.stopped:
            return
        if message is not None and message.get("round", 0) != game.round:
            if message.get("round", 0) > game.round:
                self._peer_round, self._ahead = message["round"], message
                session.withdraw(self.far)
                session.say(f"{game.peer}'s board started a new game: New game here plays "
                            f"it with them", "confirm")
            return  # a game of the two boards' that this board has left, or not begun
        if message is not None:
            if message.get("stopped"):
                self._stop(session, f"{game.peer}'s board stopped the game: "
                                    f"{message['stopped']}", tell=False)
                return
            problem = self._takeback(message, session)
            if problem:
                self._stop(session, problem)
                return
            problem = self._check(message, session.board)
            if problem:
                self._stop(session, problem)
                return
            with self._lock:
                game.peer_moves, game.peer_seq = message["moves"], message["seq"]
                game.save()
            problem = self._resignation(message, session)
            if problem:
                self._stop(session, problem)
                return
        if self._catch_up(session):
            return
        if news:
            far_to_move = session.board.turn == self.far and not session.over
            if not self.peer_online:
                session.say(f"{game.peer}'s board is offline: the game waits for it",
                     "waiting")
            elif far_to_move and session.pending is None:
                session.say(self.seat.to_move(game.game, self.far), "waiting")
            else:
                session.say(f"{game.peer}'s board is online", "info")

    def _new_game(self, session: Any) -> None:
        """The person here started a new game of the same game: it is the one the other
        board started, if it did, else one offered to it (the game before ends on both,
        each kept in its records)."""
        game = self.game
        with self._lock:
            joined = self._peer_round > game.round
            game.round = self._peer_round if joined else game.round + 1
            self._peer_round = game.round
            game.sent, game.peer_moves, self._offering = [], [], False
            game.resigned = ""
            game.sent_hash = position_hash(session.board)
            self._send_state()
            if joined and self._incoming is None:
                self._incoming = self._ahead  # its moves since, if it made any
            self._ahead = None
        if not joined:
            session.say(f"a new game: {game.peer}'s board plays it once its player starts "
                        f"it too", "waiting")

    def _takeback(self, message: dict[str, Any], session: Any) -> str:
        """Carry out the takebacks the other board's ``message`` speaks of: its offer,
        made here to the person at this table (on the same position, so a move made
        here since declines it); its acceptance of this board's offer, taken here by
        the same rule (to this board's player's last turn). A takeback this board never
        offered is a disagreement: why, in one line ("" if there is none)."""
        game = self.game
        if session.resigned is not None:
            return ""  # nothing is taken back once a player resigned
        agreed = message.get("takebacks", 0)
        if agreed > game.takebacks:
            if agreed != game.takebacks + 1 or session.offer != "table":
                return (f"{game.peer}'s board took back moves this board did not offer "
                        f"to take back")
            self._taking_back = True
            session.accept_takeback(self.far)
        elif (message.get("offer") and agreed == game.takebacks and session.offer is None
              and message["moves"] == moves_of(session.board)):
            self._taking_back = True  # if the person here accepts, the record shrinks
            session.offer_takeback(self.far)
        return ""

    def _resignation(self, message: dict[str, Any], session: Any) -> str:
        """The other board's player resigned, if its ``message`` says so: on their turn,
        in the position this board has (a record checked by :meth:`_check`), so the game
        ends here as it did there. A resignation at another point is a disagreement:
        why, in one line ("" if there is none)."""
        game = self.game
        if message.get("resigned") != self.far or session.resigned == self.far:
            return ""  # none, this board's own (said back), or taken already
        if message["moves"] != moves_of(session.board) or session.over:
            return (f"{game.peer}'s board resigned after move {len(message['moves'])}, "
                    f"where this board is after move {len(session.board.move_stack)}")
        session.resign(self.far, by=self.far)
        if session.resigned != self.far:
            return f"{game.peer}'s board resigned where this board cannot: {session.message}"
        with self._lock:
            game.resigned = self.far
            game.save()
        return ""

    def _check(self, message: dict[str, Any], here: Board) -> str:
        """Why the other board's record cannot be this game's ("" if it can): what
        this board has must match it move for move, and every move beyond is checked
        with this board's engine (its turn, its legality), then the position."""
        peer, moves = self.game.peer, message["moves"]
        if message["n"] != len(moves):
            return f"{peer}'s board sent {len(moves)} moves and said {message['n']}"
        for number, (mine, theirs) in enumerate(zip(moves_of(here), moves), 1):
            if mine != theirs:
                return (f"the boards disagree at move {number}: {mine} here, {theirs} on "
                        f"{peer}'s board")
        board = here.copy()
        while len(board.move_stack) > len(moves):
            board.pop()
        for number in range(len(board.move_stack) + 1, len(moves) + 1):
            text = moves[number - 1]
            if board.turn != self.far:
                return f"{peer}'s board sent move {number}, {text}, which is this board's"
            try:
                move = board.parse_move(text)
            except EngineError as error:
                return f"{peer}'s board sent move {number}, {text}: {error}"
            if not board.is_legal(move):
                return (f"{peer}'s board sent move {number}, {text}, which is not legal "
                        f"here: {board.illegal_reason(move)}")
            board.push(move)
        if position_hash(board) != message["hash"]:
            return f"the boards disagree on the position after move {len(moves)}"
        return ""

    def _catch_up(self, session: Any) -> bool:
        """Light the other board's next move if it has one this board has not placed."""
        local, peer = moves_of(session.board), self.game.peer_moves
        if len(peer) <= len(local) or peer[:len(local)] != local \
                or session.board.turn != self.far:
            return False
        move = peer[len(local)]
        if session.pending is None or session.board.move_text(session.pending) != move:
            session.remote_move(self.far, move)
        return True

    def _stop(self, session: Any, line: str, tell: bool = True) -> None:
        """End the game with the other board: one line here, and there too."""
        log.warning("game with %s's board stopped: %s", self.game.peer, line)
        with self._lock:
            self.game.stopped = line
            if tell:
                self._send_state()
            else:
                self.game.save()
        session.withdraw(self.far)  # the other board's move, if one was lit, is no longer
        session.say(line, "error")
