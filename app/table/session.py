"""The game in progress on a board: turns, the engine's moves, takebacks, saving.

The session is the only place where the game changes. Sensor readings go through the
sensing pipeline; a ``Moved`` is pushed, a ``Takeback`` popped, and every change is saved
before anything else happens. The engine never moves pieces itself: it thinks off the
table loop (see :mod:`app.table.thinker`), its move becomes ``pending``, lit on the
board, and counts only when the sensors see a person place that very move. Buttons and
the touch screen call :meth:`hint`, :meth:`undo`, :meth:`confirm` and :meth:`new_game`;
the loop calls :meth:`poll` every turn for the engine's progress.

A player ends the game early with :meth:`resign`, on their own turn: the resignation is
not a move of the board (as a PGN game's result is not a move of python-chess's board),
so the session holds it beside the board, every game-over check asks :attr:`over`, and
the record writes it as the game's own format does (only the player to move resigns
there, as over GTP's ``play COLOUR resign``). It is final: Undo does not take it back,
New game starts another.

Who plays each colour is a seat (:mod:`app.table.seats`); the session asks the seat to
move what may go down for it, what Undo does and what to say, and never reads its word.

The session is always in one :class:`State`, derived from what it holds, so it can never
disagree with itself. ``revision`` counts the changes anything shown depends on: the
loop redraws the LEDs and the screen only when it moved. Its texts come from
:mod:`app.table.texts`.

A session may also run with no board at all (``physical=False``: ``tabletop play`` in a
terminal), so that every front end shares one game, undo, hint, seeded engine and record.
Then nothing is sensed and no piece waits to be placed: a typed move is played and no
more, the engine's move is played as soon as :meth:`Session.poll` finds its search done,
and an undo leaves nothing to lift.
"""

from __future__ import annotations

import enum
import logging
import random
from collections.abc import Callable, Hashable, Mapping
from typing import Any


from app.errors import SessionError
from app.games import game as game_info, new_game
from app.table.ending import ending
from app.table.scene import Scene, game_scene, recolourable_holes, setup_scene
from app.sensing.events import (Candidates, Correction, Event, InSync, Moved, OutOfSync,
                                Quarantined, Rejoined, Seen, Takeback, Waiting)
from app.sensing.pipeline import DEBOUNCE_S, SETTLE_S, Pipeline
from app.table import texts
from app.table.seats import KINDS, Person, Seat, parse_seats, words_of
from app.table.status import Status
from app.table.store import RecordStore
from app.table.sureness import Sureness
from app.table.thinker import InlineThinker, Thinker, Thought
from app.table.view import View
from engines import Board, EngineError
from engines.core import GameRecord, Outcome

log = logging.getLogger(__name__)

#: The engine's progress is shown in steps of this size, so that a search does not
#: redraw the screen at every move it looks at.
PROGRESS_STEP = 0.05
#: Moves to choose between are all lit (blinking) only up to this many; beyond, only
#: the one picked now is, or the whole board would blink (an Akron position can have
#: dozens of moves above the board).
LIT_CANDIDATES = 4


#: How a message is styled (:class:`~app.table.status.Status`).
MESSAGE_KINDS = ("info", "error", "sync", "waiting", "confirm", "over")


class State(enum.Enum):
    """What the table is doing, most pressing first (see :attr:`Session.state`)."""

    DISCONNECTED = "disconnected"  # the sensors went away: the game waits for them
    SYNC = "sync"          # the board and the game differ: fix the board
    CONFIRM = "confirm"    # moves the sensors cannot tell apart: a person picks one
    OVER = "over"          # the game has ended
    SETUP = "setup"        # laying out the board (Kulami's panels) before play
    THINKING = "thinking"  # the engine is searching for its move
    PLACING = "placing"    # the engine's move is lit: a person places it
    WAITING = "waiting"    # waiting for a person's move


class Session:
    """One game on one board. ``seats`` maps ``b``/``w`` to who plays them
    (:mod:`app.table.seats`: a seat, or its word).

    ``physical`` says whether the game is played with pieces on a sensed board (the
    board, the simulator); ``False`` is a game with no board (the terminal), whose
    moves are only ever typed and which is given no readings."""

    def __init__(self, board: Board, *, seats: Mapping[str, str] | None = None,
                 level: int = 2, store: RecordStore | None = None, seed: int | None = None,
                 show_legal: bool = True, debounce: float = DEBOUNCE_S,
                 settle: float = SETTLE_S, colour_sensing: bool = False,
                 thinker: Thinker | None = None, physical: bool = True,
                 lay_out: bool = True, resigned: str | None = None) -> None:
        self.board = board
        #: Searches run here; by default at once, in the caller's thread.
        self.thinker = thinker or InlineThinker()
        self.seats, self.level = seats or {"b": Person(), "w": Person()}, _level(level)
        self.physical = physical
        #: Whether a new game whose areas are loose pieces starts by laying them out:
        #: not where they are drawn in place (the simulator's board).
        self.lay_out = lay_out
        self.store = store
        if store is not None:
            store.players = self  # every record names who plays, at what level, what seed
        #: The engine's choices depend only on this seed and the position, so after a
        #: restart it picks the move it had already lit.
        self.seed = seed if seed is not None else random.randrange(2**32)
        self.show_legal = show_legal
        self.pipeline = Pipeline(board, debounce=debounce, settle=settle,
                                 colour_sensing=colour_sensing)
        self.thought: Thought | None = None
        self._thinking_for = ""  # "move" or "hint"
        self._progress_step = 0  # the engine's progress as shown, in PROGRESS_STEPs
        #: Why an outside engine did not choose the pending move (our own engine did).
        self._pending_note = ""
        self.pending: Hashable | None = None
        self.suggestion: Hashable | None = None
        #: How sure the engine is of its hint (``None``: an outside program's).
        self.suggestion_sureness: Sureness | None = None
        self.sync: OutOfSync | None = None
        #: The board must be set to the game (after a button changed the game): no move
        #: is read until it matches. Otherwise sync mode ends in the first move it shows.
        self.sync_strict = False
        self.error: frozenset[str] = frozenset()
        self.candidates: tuple = ()
        #: The last move's piece moved on to another hole: (undo, move), to confirm.
        self.correction: Correction | None = None
        #: Told of everything that happens to the game or the board, as a name and its
        #: details in the game's words: what ``tabletop sensors replay`` prints.
        self.listener: Callable[[str, dict[str, Any]], None] | None = None
        self.choice = 0
        self.setting_up = False
        #: A takeback offered and not yet answered, in a game with a player away: by
        #: whom (``table``, or the colour of the player away who offered).
        self.offer: str | None = None
        #: Whether this game was saved before and continues here (:meth:`resume_or_start`).
        self.resumed = False
        #: The colour that resigned, ending the game (its record says so too).
        self.resigned = resigned
        if resigned is not None:
            GameRecord(board, resigned=resigned)  # the player to move, in a game going on
        self.message, self.message_kind = "", "info"
        self.revision = 0
        self._view: View | None = None
        #: Why the sensors cannot be read, while they cannot.
        self.disconnected = ""
        self._plan_engine()

    @classmethod
    def resume_or_start(cls, store: RecordStore, game: str, options: Mapping[str, Any],
                        record: str | None = None, *, finished: bool = True,
                        report_kept: bool = True, **kwargs) -> "Session":
        """The game in progress on this board, else a new game of ``game`` with
        ``options``; ``kwargs`` are the session's (seats, level, seed, ...).

        The game in progress is the newest record of ``game`` played on the store's
        profile; ``record`` names another one to continue (from the load list). A game
        that is over is resumed to show its end, unless ``finished`` is false (the
        terminal, where a finished game has nothing more to show): then the newest
        record whose game goes on is continued, else a new game starts, and the finished
        records stay. What the record says of the table (seats,
        level, seed) wins over ``kwargs``, and its options over ``options``: those are
        for a new game, and a configuration changed since must not change a game under
        way, so a difference is logged and nothing more; ``report_kept=False`` leaves
        that to the caller (the terminal's flags are no configuration, and it words the
        difference itself). A record that does not resume is reported on the status
        line and kept (set aside when it is damaged), and the new game gets a record of
        its own."""
        if record is not None:
            resumed = store.load(store.games / record)
        else:
            resumed = store.resume(game, store.profile, unfinished=not finished)
        if resumed.board is not None and (finished or not resumed.over):
            board = resumed.board
            session = cls(board, store=store, resigned=resumed.resigned,
                          **{**kwargs, **resumed.table})
            session.resumed = True
            handed = session._resume_seats(kwargs.get("seats"))
            kept = session._kept(game, options, kwargs, resumed.table) if report_kept else ""
            said = kept or texts.resumed(store.current.name, len(board.move_stack))
            session.say("; ".join([said, *handed]))
            log.info("resumed %s with %d moves", store.current, len(board.move_stack))
            return session
        session = cls.start_new(store, game, options, **kwargs)
        if resumed.problem:
            session.say(resumed.problem, "error")
        return session

    @classmethod
    def start_new(cls, store: RecordStore | None, game: str, options: Mapping[str, Any],
                  **kwargs) -> "Session":
        """A new game of ``game`` with ``options``, its record started in ``store`` (with
        none, it is not saved); ``kwargs`` are the session's. Whatever game of ``game``
        is unfinished stays saved."""
        board = new_game(game, **options)
        session = cls(board, store=store, **kwargs)
        if store is not None:
            store.start(board)
        session._lay_out()
        return session

    def _resume_seats(self, live: Mapping[str, str | Seat] | None) -> list[str]:
        """Each seat as it plays after a restart: the record gives only its word, so a
        seat of that kind in ``live`` (the caller's: a far board's, with its link) plays
        it; a seat nobody could play any more (a browser's, a far board's with no link)
        is handed back to the table. Returns what to say of each, also logged."""
        live = parse_seats(live) if live is not None else {}
        seats, said = dict(self.seats), []
        for colour, seat in self.seats.items():
            # Only a live seat that carries more than its word (a far board's link) takes
            # the record's place: a plain word would undo what the session made of it
            # (an engine's seat that is the configuration's outside engine).
            if (colour in live and live[colour].kind == seat.kind
                    and live[colour] != KINDS[seat.kind]):
                seat = live[colour]
            seats[colour], words = seat.resumed(self.board.game, colour)
            if words:
                said.append(words)
                log.warning("%s", words)
        if said or seats != self.seats:  # a seat handed back, or a live one taking its place
            self.seats = seats
            self._forget_engine()
            self._plan_engine()
        return said

    @property
    def seats(self) -> Mapping[str, Seat]:
        """Who plays each colour."""
        return self._seats

    @seats.setter
    def seats(self, seats: Mapping[str, str | Seat]) -> None:
        """Seats, or their words, checked (:func:`~app.table.seats.parse_seats`); an
        engine's is the outside program the thinker has for this game, if any."""
        program = self.thinker.program(self.board.game)
        self._seats = {colour: seat.for_program(program)
                       for colour, seat in parse_seats(seats).items()}

    def _kept(self, game: str, options: Mapping[str, Any], kwargs: Mapping[str, Any],
              table: Mapping[str, Any]) -> str:
        """Which of the seats, level and options asked for a new game the resumed game
        keeps its own of, in words (also logged; empty when none). Its seats are the
        ones it plays with, after a seat handed back to the table."""
        recorded = {"options": dict(self.board.options), **table}
        if "seats" in table:
            recorded["seats"] = words_of(self.seats)
        configured = {key: kwargs[key] for key in ("seats", "level") if key in kwargs}
        if "seats" in configured:
            configured["seats"] = words_of(parse_seats(configured["seats"]))
        if options and self.board.game == game:
            configured["options"] = dict(new_game(game, **options).options)
        kept = [key for key, value in configured.items()
                if key in recorded and recorded[key] != value]
        if kept:
            said = texts.kept_own(self.store.current.name,
                                  " and ".join(filter(None, (", ".join(kept[:-1]),
                                                             kept[-1]))))
            log.warning(said)
            return said
        return ""

    # --- readings from the sensors ------------------------------------------------------
    def on_reading(self, hole: str, on: bool, t: float, colour: str | None = None) -> list[Event]:
        """A raw sensor reading at ``t`` seconds; returns the pipeline's events."""
        events = self.pipeline.feed(hole, on, t, colour)
        self._handle(events)
        return events

    def on_disconnect(self, reason: str) -> None:
        """The sensor source went away (a USB cable pulled): the game is kept and waits."""
        if self.disconnected != reason:
            self.disconnected = reason
            self.say(texts.disconnected(reason), "error")
            log.error("sensors disconnected: %s", reason)

    def on_reconnect(self) -> None:
        """The sensors answer again; the next settled board is judged as ever."""
        self.disconnected = ""
        self.say(texts.RECONNECTED)
        log.info("sensors reconnected")

    def tick(self, t: float) -> list[Event]:
        """Time passed without a reading: the board may have settled."""
        events = self.pipeline.tick(t)
        self._handle(events)
        return events

    def _handle(self, events: list[Event]) -> None:
        if events:
            self.revision += 1
        queue = list(events)
        while queue:
            queue.extend(self._on_event(queue.pop(0)))

    def _on_event(self, event: Event) -> list[Event]:
        if isinstance(event, Seen):
            self._tell("seen", holes=sorted(event.holes))  # lit from pipeline.seen
            return []
        if isinstance(event, (Quarantined, Rejoined)):
            return self._on_health(event)
        if (self.sync is not None and self.sync_strict
                and not isinstance(event, (InSync, OutOfSync))):
            # The game was changed by a button: nothing is read until the board matches
            # it, as a board half set may look like a move on the way (lifting the
            # pieces of two moves taken back one by one shows the first move again).
            self.sync = self._difference()
            return []
        self.correction = None
        if self.resigned is not None and isinstance(event, (Moved, Takeback, Correction,
                                                            Candidates)):
            # A resigned game takes no more moves, nor gives one back: the board is
            # only shown as it differs from the game.
            self._on_out_of_sync(self._difference())
            return []
        if isinstance(event, Moved):
            return self._on_moved(event.move)
        if isinstance(event, Takeback):
            self.board.pop()
            self._tell("takeback", move=self.board.move_text(event.move))
            self.say(texts.took_back([self.board.move_text(event.move)]))
            return self._changed()
        if isinstance(event, Correction):
            if not self.seats[self.board.mover()].at_table:
                # The engine's (or a player away's) move stays where it was put: fix
                # the board.
                self._on_out_of_sync(self._difference())
                return []
            self.sync, self.error, self.candidates = None, frozenset(), ()
            self.correction = event
            text = self.board.move_text
            self._tell("correction", undo=text(event.undo), move=text(event.move))
            self.say(texts.correction(self.board.game, self.board.mover(),
                                       text(event.undo), text(event.move)), "confirm")
            return []
        if isinstance(event, InSync):
            self._tell("in_sync")
            self.sync, self.sync_strict = None, False
            self.error, self.candidates = frozenset(), ()
            if self.message_kind in ("sync", "error", "confirm"):
                self.say(texts.IN_SYNC)
            outcome = self.outcome()
            if outcome is not None:
                self.say(texts.end_long(self.board.game, ending(outcome)), "over")
            self._plan_engine()
        elif isinstance(event, OutOfSync):
            self._on_out_of_sync(event)
        elif isinstance(event, Candidates):
            self._tell("candidates", moves=[self.board.move_text(m) for m in event.moves])
            self.sync, self.error = None, frozenset()
            # The engine's move, when it is one of them, is the one picked at first.
            self.candidates = event.moves
            self.choice = event.moves.index(self.pending) if self.pending in event.moves else 0
            self.say(texts.WHICH_MOVE, "confirm")
        elif isinstance(event, Waiting):
            self._tell("waiting", extra=sorted(event.extra), missing=sorted(event.missing))
            self.sync, self.error = None, frozenset()
            self.say(texts.UNDER_WAY, "info")
        return []

    def _on_moved(self, move: Hashable) -> list[Event]:
        self.setting_up = False
        seat = self.seats[self.board.turn]
        if self.pending is None and seat.away:
            # The player away chooses: a piece put down for them is refused.
            self.sync, self.error = None, self.board.holes_of(move)
            self.say(seat.too_soon(self.board.game, self.board.turn), "error")
            return []
        if self.pending is not None and move != self.pending:
            text = self.board.move_text
            self.sync, self.error = None, self.board.holes_of(move)
            self._tell("not_the_engines_move", move=text(move), engine=text(self.pending))
            self.say(texts.engine_not(text(self.pending), text(move)), "error")
            return []
        return self._play(move)

    def _on_out_of_sync(self, event: OutOfSync) -> None:
        """One stray piece on a fresh hole is an illegal placement: flash it and say why.
        Anything else is a board that needs fixing: sync mode."""
        if (self.sync is None and not event.fill and len(event.empty) == 1
                and not self.over):
            (hole,) = event.empty
            if hole not in self.board.sensor_view():
                self.sync, self.error = None, event.empty
                reason = self._reason(hole)
                self._tell("not_legal", hole=hole, reason=reason)
                self.say(texts.not_legal(reason), "error")
                return
        self._tell("out_of_sync", fill=sorted(event.fill), empty=sorted(event.empty))
        self.sync, self.error = event, frozenset()
        self.say(texts.SYNC, "sync")

    def _on_health(self, event: Quarantined | Rejoined) -> list[Event]:
        """A sensor put in or out of quarantine: say so; the game goes on either way."""
        if isinstance(event, Quarantined):
            self._tell("quarantined", hole=event.hole, problem=event.problem)
            self.say(texts.fault(event.hole, event.problem), "error")
            log.warning("hole %s quarantined: %s", event.hole, event.problem)
        else:
            self._tell("rejoined", hole=event.hole)
            self.say(texts.rejoined(event.hole))
            log.info("hole %s rejoined", event.hole)
        return []

    @property
    def engine_name(self) -> str:
        """How the record names the engine's seats (the store reads it at each save)."""
        return self.thinker.player_name(self.board.game, self.level)

    @property
    def faults(self) -> Mapping[str, str]:
        """Holes whose sensors are being ignored just now -> the problem."""
        return self.pipeline.quarantined

    def _saving(self, save: Callable[[], object]) -> None:
        """Save (or retry) and say when saving starts or stops failing. A failed save
        never stops the game: the store keeps the record in memory and tries again."""
        before = self.store.failure
        save()
        failure = self.store.failure
        if failure != before:
            if failure:
                self.say(texts.saving_fails(failure), "error")
            else:
                self.say(texts.SAVED_AGAIN)

    def _tell(self, what: str, **details: Any) -> None:
        if self.listener is not None:
            self.listener(what, details)

    def _difference(self) -> OutOfSync:
        """How the settled board differs from the game, as the pipeline words it."""
        expected = self.board.sensor_view()
        seen = self.pipeline.occupancy
        colour = self.pipeline.colour_sensing
        wrong = {h for h, c in seen.items()
                 if h in expected and colour and c != expected[h]}
        holes = set(self.board.holes)
        return OutOfSync(fill=frozenset(expected.keys() - seen.keys()),
                         empty=frozenset((seen.keys() & holes) - expected.keys() | wrong))

    def _reason(self, hole: str) -> str:
        colour = self.pipeline.occupancy.get(hole)
        if colour and colour != self.board.turn:  # a board that senses colour saw it
            return texts.wrong_colour(self.board.game, colour, self.board.turn, hole)
        if self.pending is not None:
            return texts.engine_plays(self.board.move_text(self.pending))
        try:
            return self.board.illegal_reason(self.board.parse_move(hole))
        except EngineError:
            return f"a piece on {hole} is no move"

    # --- changing the game --------------------------------------------------------------
    def _play(self, move: Hashable, by_hand: bool = True) -> list[Event]:
        mover = self.board.turn
        self.offer = None  # a move declines a takeback on offer
        self._tell("moved", player=mover, move=self.board.move_text(move))
        self.board.push(move)
        self.say(texts.played(self.board.game, mover, self.board.move_text(move)))
        events = self._changed(by_hand)
        log.info("move %d: %s %s%s", len(self.board.move_stack),
                 texts.player(self.board.game, mover),
                 self.board.move_text(move), self._saved_note())
        return events

    def _saved_note(self) -> str:
        """How the log says whether the change just made is on disk: saved only when the
        store's save succeeded (a failure, such as a full disk, is logged by the store)."""
        if self.store is None:
            return ""
        return f" (not saved: {self.store.failure})" if self.store.failure else " (saved)"

    def _changed(self, by_hand: bool = True) -> list[Event]:
        """After a push or pop: save first, then look at the board again. A change made
        by a button rather than by hand leaves pieces to move: that is sync mode at once,
        or lifting them one by one could look like moves on the way. Without a board
        there is nothing to look at, so never sync mode."""
        if self.store is not None:
            self._saving(lambda: self.store.save(self.board))
        self._forget_engine()
        self.error, self.candidates, self.sync, self.sync_strict = frozenset(), (), None, False
        self.correction = None
        events = self.pipeline.resync(self.board) if self.physical else []
        if events and not by_hand:
            self.pipeline.set_aside()
            events, self.sync, self.sync_strict = [], self._difference(), True
            self._tell("out_of_sync", fill=sorted(self.sync.fill), empty=sorted(self.sync.empty))
            self.say(texts.SYNC, "sync")
        self._plan_engine()
        outcome = self.outcome()
        if outcome is not None:
            self.say(texts.end_long(self.board.game, ending(outcome)), "over")
        return events

    def _plan_engine(self) -> None:
        """When the engine is to move, start its search; its move, once found, waits for
        a person to place it on a board, and is played without one (see :meth:`poll`)."""
        seat = self.seats[self.board.turn]
        if self.over or not seat.thinks:
            self.pending = None
            said = seat.to_move(self.board.game, self.board.turn)
            if not self.over and said and self.sync is None \
                    and not self.error:
                self.say(said, "waiting")
            return
        if self.pending is None and self.thought is None:
            self._think("move")
        self._announce_pending()

    def _think(self, purpose: str) -> None:
        """Start a search. One done at once (an inline thinker's) is taken at once: its
        hint shown, its move lit on a board. Without a board taking the move plays it,
        which waits for the front end's :meth:`poll`, so that no call plays a move it
        was not asked for: not the constructor, before the record is started, nor a
        person's move, before the front end has shown it."""
        self._thinking_for, self._progress_step = purpose, 0
        self.thought = self.thinker.think(self.board, self.level, self._rng())
        if self.physical or purpose == "hint":
            self.poll()

    def poll(self) -> None:
        """Take the engine's move once its search is done (lit for a person to place on
        a board, played at once without one); note its progress meanwhile; write what a
        failed save left waiting. The loop calls this every turn."""
        if self.store is not None and self.store.failure:
            self._saving(self.store.retry)
        thought = self.thought
        if thought is None:
            return
        if not thought.done:
            if thought.failure and self.message != thought.failure:
                self.say(thought.failure)  # our own engine takes over the search
            step = int(thought.progress / PROGRESS_STEP)
            if step != self._progress_step:
                self._progress_step = step
                self.revision += 1
            return
        self.thought = None
        self.revision += 1
        if thought.resigned:  # an outside engine resigned its colour, or the hint's
            if self._thinking_for == "move":
                self.resign(self.board.turn, by=self.board.turn)
            else:
                self.say(texts.hint("resign"))
            return
        if thought.move is None:
            return
        # An outside engine that gave up (our own engine found the move) is said in its
        # one line in place of the move's own: the move is lit all the same.
        if self._thinking_for == "hint":
            self.suggestion, judged = thought.move, thought.judgement
            self.suggestion_sureness = (None if judged is None
                                        else Sureness.of(judged, self.board.move_text))
            self.say(thought.failure or texts.hint(self.board.move_text(thought.move),
                                                   self.suggestion_sureness))
        elif self.physical:
            self.pending, self._pending_note = thought.move, thought.failure
            self._announce_pending()
        else:
            self._play(thought.move)  # nothing is sensed: no events come of it
            if thought.failure:
                self.say(thought.failure)

    def _announce_pending(self) -> None:
        if self.pending is not None and self.sync is None and not self.error:
            move, turn = self.board.move_text(self.pending), self.board.turn
            self.say(self._pending_note
                      or self.seats[turn].place(self.board.game, turn, move), "waiting")

    def _forget_engine(self) -> None:
        """The game moved on: any search under way and its move are no longer wanted."""
        if self.thought is not None:
            self.thought.cancel()
            self.thought = None
        self.pending = self.suggestion = self.suggestion_sureness = None
        self._pending_note = ""

    def _rng(self) -> random.Random:
        moves = " ".join(self.board.move_text(m) for m in self.board.move_stack)
        return random.Random(f"{self.seed}:{self.board.game}:{moves}")

    def undo(self, by: str = "table") -> None:
        """Take back to the last position a person was to move in; on a board the LEDs
        then show which pieces to lift. With a player in a browser, the table only
        offers it (:meth:`offer_takeback`): the takeback is theirs to accept; and a
        player away (``by`` their colour) only ever offers one, for the table to
        accept."""
        self.revision += 1
        if self.resigned is not None:
            self.say(texts.RESIGNATION_IS_FINAL, "over")
            return
        if not self.board.move_stack:
            self.say(texts.NOTHING_TO_TAKE_BACK)
            return
        if by != "table" or any(seat.away for seat in self.seats.values()):
            self.offer_takeback(by)
            return
        self._take_back("table")

    def _take_back(self, to: str) -> None:
        """Take back the last move, and the moves after ``to``'s last turn (``table``:
        any person's at the table, the last move alone when nobody is; a colour: that
        player's)."""
        turns = [to] if to != "table" else [c for c, s in self.seats.items() if s.at_table]
        taken = [self.board.pop()]
        while self.board.move_stack and turns and self.board.turn not in turns:
            taken.append(self.board.pop())
        self.offer = None
        self.say(texts.took_back(self.board.move_text(m) for m in taken))
        self._handle(self._changed(by_hand=False))

    def offer_takeback(self, by: str) -> None:
        """``by`` (``table``, or a remote player's colour) offers to take back to its last
        turn; the other side accepts (:meth:`accept_takeback`: the table with Confirm, a
        player away on the page), and any move declines. Nothing is taken back until
        then."""
        self.revision += 1
        if self.resigned is not None:
            self.say(texts.RESIGNATION_IS_FINAL, "over")
            return
        if not self.board.move_stack:
            self.say(texts.NOTHING_TO_TAKE_BACK)
            return
        self.offer = by
        game = self.board.game
        if by == "table":
            away = [c for c, seat in self.seats.items() if seat.away]
            self.say(texts.takeback_offered_to_away(game, away), "confirm")
        else:
            self.say(texts.takeback_offered_to_table(game, by), "confirm")

    def accept_takeback(self, by: str) -> None:
        """``by`` accepts the takeback the other side offered: the board goes back to the
        offerer's last turn; an offer of one's own is not one's to accept, and says so."""
        self.revision += 1
        offer = self.offer
        if offer is None:
            return
        if offer == by:
            self.say(texts.takeback_not_yours(self.board.game, by), "confirm")
            return
        self._take_back(offer)

    def resign(self, colour: str, by: str = "table") -> None:
        """``colour`` resigns, on its own turn: the game ends, the other player wins,
        and the record says so. ``by`` is who asks: the table (a person at the table
        resigns their own colour: the screen's Resign) or a player away (their colour:
        the page, a board far away; an outside engine answering ``resign``), who
        resigns only their own. Anything else (our engine's colour, another's, not
        their turn, a game over) is refused in one line and changes nothing."""
        self.revision += 1
        board = self.board
        why = self._no_resigning(colour, by)
        if why:
            self.say(why, "error")
            return
        self.resigned = colour
        self._forget_engine()
        self.offer, self.correction, self.candidates = None, None, ()
        self.error, self.sync, self.sync_strict, self.setting_up = frozenset(), None, False, False
        if self.store is not None:
            self._saving(lambda: self.store.save(board))
        self._tell("resigned", player=colour)
        end = ending(self.outcome())
        self.say(texts.end_long(board.game, end), "over")
        log.info("%s resigned at move %d: %s%s", texts.player(board.game, colour),
                 len(board.move_stack), texts.end_short(board.game, end), self._saved_note())

    def _no_resigning(self, colour: str, by: str) -> str:
        """Why ``by`` may not resign ``colour`` now, in one line ("" if they may)."""
        game = self.board.game
        if colour not in self.seats:
            return texts.no_such_player(colour)
        seat = self.seats[colour]
        if self.over:
            return texts.cannot_resign(game, colour, texts.GAME_IS_OVER)
        if by == "table" and not seat.at_table:
            return texts.cannot_resign(game, colour, texts.not_the_tables(game, colour, seat))
        if by != "table" and (by != colour or not seat.resigns):
            return texts.cannot_resign(game, colour, texts.only_own_player(game, colour))
        if self.board.turn != colour:
            return texts.cannot_resign(game, colour, texts.own_turn(game, self.board.turn))
        return ""

    @property
    def over(self) -> bool:
        """Whether the game has ended: by its rules, or by a resignation."""
        return self.resigned is not None or self.board.is_game_over()

    def outcome(self) -> Outcome | None:
        """How the game ended (by its rules, or by a resignation), ``None`` while it
        goes on."""
        return GameRecord(self.board, resigned=self.resigned).outcome()

    def remote_move(self, player: str, text: str) -> None:
        """The move of the player away (in a browser) at ``player``'s seat: lit, as the
        engine's is, for a person at the table to place. One clear line, and nothing
        else, for a move that is not theirs to make or not legal."""
        self.revision += 1
        board = self.board
        if (self.over or player not in self.seats
                or not self.seats[player].away or board.turn != player):
            self.say(texts.not_your_turn(board.game, player), "error")
            return
        move = self._parse(text)
        if move is None:
            return
        if not board.is_legal(move):
            self.say(texts.not_legal(board.illegal_reason(move)), "error")
            return
        self.offer = None
        self.pending = move
        self._announce_pending()

    def set_players(self, seats: Mapping[str, str], level: int) -> None:
        """Who plays from now on, and the engine's level (the web page's new game sets
        them before it starts): the engine thinks again if it is now to move."""
        self.seats, self.level = seats, _level(level)
        self.revision += 1
        self._forget_engine()
        self._plan_engine()

    def hint(self, step: int = 1) -> None:
        """Show the legal targets and a suggested move; with moves to choose between,
        pick the ``step``-th next one instead."""
        self.revision += 1
        if self.candidates:
            self.choice = (self.choice + step) % len(self.candidates)
            return
        if self.over or self.pending is not None or self.thought is not None:
            return
        self._think("hint")

    def confirm(self, move_text: str | None = None, by: str = "table") -> None:
        """Take the correction on offer, or the chosen candidate (or ``move_text``), or
        finish setting up. A move the sensors cannot see at all (a ConHex swap) is
        entered here as text. A takeback the other side offered is accepted here first:
        ``by`` is who pressed Confirm, the table or a player away (their colour), and
        nobody accepts their own offer."""
        self.revision += 1
        if self.resigned is not None:
            return  # nothing is left to confirm: no move, no takeback
        if self.offer is not None and move_text is None and (by != "table"
                                                             or self.offer != "table"):
            self.accept_takeback(by)
            return
        correction = self.correction
        if correction is not None and (move_text is None or move_text.strip().lower()
                                       == self.board.move_text(correction.move).lower()):
            self.correction = None
            self.board.pop()
            self._tell("takeback", move=self.board.move_text(correction.undo))
            self._handle(self._play(correction.move))
        elif self.candidates:
            move = self.candidates[self.choice]
            if move_text is not None:
                move = self._parse(move_text)
                if move is None:
                    return
                if move not in self.candidates:
                    self.say(texts.not_a_candidate(move_text), "error")
                    return
            self._handle(self._play(move))
        elif move_text is not None:
            move = self._parse(move_text)
            if move is None:
                return
            if self.pending is not None and move != self.pending:
                self.say(texts.engine_plays(self.board.move_text(self.pending)), "error")
                return
            if not self.board.is_legal(move):
                self.say(self.board.illegal_reason(move), "error")
                return
            self._handle(self._play(move, by_hand=False))
        elif self.setting_up:
            self.setting_up = False
            self.say(texts.READY)
        else:
            self._offer_unseen()

    def _offer_unseen(self) -> None:
        """Confirm pressed with nothing to confirm: a person made a move the sensors
        cannot see (a ball moved above the Akron board). The engine's own move, if it is
        such a move, counts; otherwise every such move is offered to pick from."""
        if self.over or self.sync is not None:
            return
        unseen = self.pipeline.unseen_moves()
        if self.pending is not None:
            if self.pending in unseen:
                self._handle(self._play(self.pending))
            return
        if unseen and self.seats[self.board.turn].at_table:
            self._tell("candidates", moves=[self.board.move_text(m) for m in unseen])
            self.candidates, self.choice = unseen, 0
            self.say(texts.WHICH_MOVE, "confirm")

    def _parse(self, text: str) -> Hashable | None:
        try:
            return self.board.parse_move(text)
        except EngineError as error:
            self.say(str(error), "error")
            return None

    def new_game(self, game: str | None = None, **options: Any) -> None:
        """A new game, by default of the same game with the same options."""
        game = game or self.board.game
        if not options and game == self.board.game:
            options = dict(self.board.options)
        board = new_game(game, **options)
        self.revision += 1
        self._forget_engine()
        self.thinker.new_game()  # an outside engine that failed is tried again
        self.board, self.resigned = board, None
        self.seats = self.seats  # an engine's seat: the new game's engine
        if self.store is not None:
            self._saving(lambda: self.store.start(self.board))
        self.error, self.candidates, self.sync = frozenset(), (), None
        self._lay_out()
        self.say(texts.new_game(game))
        log.info("new game of %s", game)
        self.correction = None
        if self.physical and self.pipeline.resync(self.board):
            self.pipeline.set_aside()
            self.sync, self.sync_strict = self._difference(), True
            self.say(texts.CLEAR_BOARD, "sync")
        self._plan_engine()

    def _lay_out(self) -> None:
        """A new game whose board is laid out before play (Kulami's panels) starts with
        the setup scene; with no board there is nothing to lay out."""
        self.setting_up = (self.physical and self.lay_out
                           and game_info(self.board.game).setup)

    # --- what to show -------------------------------------------------------------------
    @property
    def state(self) -> State:
        """The one state the table is in, most pressing first."""
        if self.disconnected:
            return State.DISCONNECTED
        if self.sync is not None:
            return State.SYNC
        if self.candidates or self.correction is not None:
            return State.CONFIRM
        if self.over:
            return State.OVER
        if self.setting_up:
            return State.SETUP
        if self.thought is not None and self._thinking_for == "move":
            return State.THINKING
        if self.pending is not None:
            return State.PLACING
        return State.WAITING

    def status(self) -> Status:
        board = self.board
        outcome = self.outcome()
        text = board.move_text
        return Status(
            game=board.game, options=dict(board.options), seats=dict(self.seats),
            level=self.level, turn=None if outcome else board.turn,
            scores=outcome.scores if outcome else board.scores(),
            moves=tuple(text(m) for m in board.move_stack),
            message=self.message, message_kind=self.message_kind,
            sync_fill=self.sync.fill if self.sync else frozenset(),
            sync_empty=self.sync.empty if self.sync else frozenset(),
            pending=text(self.pending) if self.pending is not None else None,
            candidates=((text(self.correction.move),) if self.correction is not None
                        else tuple(text(m) for m in self.candidates)), end=ending(outcome),
            hint=(text(self.suggestion) if self.suggestion is not None
                  and self.pending is None else None),
            hint_sureness=(self.suggestion_sureness if self.suggestion is not None
                           and self.pending is None else None),
            choice=self.choice if self.candidates else 0,
            in_hand=(None if board.left_in_hand("b") is None
                     else {player: board.left_in_hand(player) for player in ("b", "w")}),
            unseen=self._unseen_to_confirm(),
            state=self.state.value, thinking=self._thinking_progress(), offer=self.offer,
            faults=tuple(texts.fault(hole, problem)
                         for hole, problem in sorted(self.faults.items())),
            saving=texts.saving_fails(self.store.failure)
            if self.store is not None and self.store.failure else "")

    def _unseen_to_confirm(self) -> int:
        """How many moves a person to move could make that the sensors cannot see, for
        the screen's Confirm button (none while anything else is to be done)."""
        if (self.over or self.sync is not None or self.candidates
                or self.correction is not None or self.setting_up
                or not self.seats[self.board.turn].at_table):
            return 0
        return len(self.pipeline.unseen_moves())

    def _thinking_progress(self) -> float | None:
        if self.thought is None:
            return None
        return round(self._progress_step * PROGRESS_STEP, 2)

    def view(self) -> View:
        """What every front end shows now (:mod:`app.table.view`): made once a
        revision, however many read it."""
        if self._view is None or self._view.revision != self.revision:
            self._view = View.of(self.board, self.status(), self.scene(), self.revision)
        return self._view

    def scene(self) -> Scene:
        faults = self.faults.keys()
        if self.sync is not None:
            return game_scene(self.board, sync=self.sync, faults=faults)
        if self.resigned is not None:  # nothing more is asked of anyone
            return game_scene(self.board, show_legal=False, faults=faults,
                              seen=self.pipeline.seen)
        if self.setting_up:
            return setup_scene(self.board)
        shown = self.pending if self.pending is not None else self.suggestion
        if self.candidates:
            shown = self.candidates[self.choice]
        others: frozenset[str] = frozenset()
        if len(self.candidates) <= LIT_CANDIDATES:
            others = others.union(*(self.board.holes_of(m)
                                    for m in self.candidates if m != shown))
        if self.correction is not None:
            before = self.board.copy()
            before.pop()
            others = before.holes_of(self.correction.move)
        elif (not others and shown is None and not self.error
              and self.seats[self.board.turn].at_table):
            others = recolourable_holes(self.board)  # the swap on offer
        return game_scene(
            self.board, show_legal=self.show_legal or self.suggestion is not None,
            suggestion=self.board.holes_of(shown) if shown is not None else (),
            error=self.error, candidates=others, faults=faults, seen=self.pipeline.seen,
            destinations=self.destinations(),
            suggested_by=self.board.turn if self.pending is not None and not self.candidates
            else None)

    def destinations(self) -> frozenset[str] | None:
        """Where the piece a person has lifted may go, as holes to light, while exactly
        one of the mover's pieces is off the board (an Akron ball in the hand); ``None``
        when no piece is lifted, or the game moves no piece once placed."""
        board = self.board
        if self.over or not self.seats[board.turn].at_table:
            return None
        view = board.sensor_view()
        missing = view.keys() - self.pipeline.occupancy.keys()
        if len(missing) != 1:
            return None
        (hole,) = missing
        if view[hole] != board.turn:
            return None
        moves = list(board.moves_from(hole))
        if not moves:
            return None
        return frozenset().union(*(board.holes_of(move) for move in moves)) - {hole}

    def say(self, message: str, kind: str = "info") -> None:
        """Show ``message`` as the table's message, styled as ``kind`` (one of
        :data:`MESSAGE_KINDS`): the game's own news, and news from outside it (a board
        far away gone offline, a game it stopped) alike. The revision moves, so the
        loop shows it."""
        if kind not in MESSAGE_KINDS:
            raise ValueError(f"a message's kind must be one of {MESSAGE_KINDS}, not {kind!r}")
        self.message, self.message_kind = message, kind
        self.revision += 1

    def withdraw(self, player: str) -> None:
        """The move lit for the player away at ``player``'s seat is theirs no longer
        (their board stopped the game): nothing is lit for it, and a piece put down for
        them is refused again until their next move comes. A move of anyone else's (the
        engine's) is not theirs to withdraw, and stays."""
        if (self.pending is None or self.board.turn != player or player not in self.seats
                or not self.seats[player].away):
            return
        self.pending = None
        self.revision += 1


def _level(level: int) -> int:
    """``level`` checked: 1 or more."""
    if level < 1:
        raise SessionError(f"engine level must be 1 or more, not {level}")
    return level
