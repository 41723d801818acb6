"""The game in progress on a physical board: turns, the engine's moves, takebacks, saving.

The session is the only place where the game changes. Sensor readings go through the
sensing pipeline; a ``Moved`` is pushed, a ``Takeback`` popped, and every change is saved
before anything else happens. The engine never moves pieces itself: its move becomes
``pending``, lit on the board, and counts only when the sensors see a person place that
very move. Buttons and the touch screen call :meth:`hint`, :meth:`undo`, :meth:`confirm`
and :meth:`new_game`. After any call, :meth:`status` and :meth:`scene` say what to show.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Hashable, Mapping
from typing import Any


from app.games import game as game_info, new_game
from app.table.scene import Scene, game_scene, placed_holes, setup_scene
from app.sensing.events import (Candidates, Event, InSync, Moved, OutOfSync, Takeback,
                                Waiting)
from app.sensing.pipeline import DEBOUNCE_S, SETTLE_S, Pipeline
from app.table.status import Status
from app.table.store import RecordStore
from engines import Board, EngineError
from engines.players import choose_move

log = logging.getLogger(__name__)

SEAT_KINDS = ("person", "engine")


class SessionError(EngineError):
    """A session set up with impossible seats or level."""


class Session:
    """One game on one board. ``seats`` maps ``b``/``w`` to ``person`` or ``engine``."""

    def __init__(self, board: Board, *, seats: Mapping[str, str] | None = None,
                 level: int = 2, store: RecordStore | None = None, seed: int | None = None,
                 show_legal: bool = True, debounce: float = DEBOUNCE_S,
                 settle: float = SETTLE_S, colour_sensing: bool = False) -> None:
        self.seats = dict(seats or {"b": "person", "w": "person"})
        if sorted(self.seats) != ["b", "w"] or not set(self.seats.values()) <= set(SEAT_KINDS):
            raise SessionError(f"seats must give b and w each person or engine, not "
                               f"{self.seats}")
        if level < 1:
            raise SessionError(f"engine level must be 1 or more, not {level}")
        self.board = board
        self.level = level
        self.store = store
        #: The engine's choices depend only on this seed and the position, so after a
        #: restart it picks the move it had already lit.
        self.seed = seed if seed is not None else random.randrange(2**32)
        self.show_legal = show_legal
        self.pipeline = Pipeline(board, debounce=debounce, settle=settle,
                                 colour_sensing=colour_sensing)
        self.pending: Hashable | None = None
        self.suggestion: Hashable | None = None
        self.sync: OutOfSync | None = None
        self.error: frozenset[str] = frozenset()
        self.candidates: tuple = ()
        self.choice = 0
        self.setting_up = False
        self.message, self.message_kind = "", "info"
        self._plan_engine()

    @classmethod
    def resume_or_start(cls, store: RecordStore, game: str, options: Mapping[str, Any],
                        **kwargs) -> "Session":
        """The unfinished (or just finished) game from ``store``, else a new game. A
        corrupt record is reported on the status line; it has been kept aside."""
        resumed = store.resume()
        if resumed.board is not None:
            session = cls(resumed.board, store=store, **kwargs)
            session._say(f"resumed {store.current.name} at move {len(resumed.board.move_stack)}")
            log.info("resumed %s with %d moves", store.current, len(resumed.board.move_stack))
            return session
        board = new_game(game, **options)
        store.start(board)
        session = cls(board, store=store, **kwargs)
        session.setting_up = game_info(board.game).setup
        if resumed.problem:
            session._say(resumed.problem, "error")
        return session

    # --- readings from the sensors ------------------------------------------------------
    def on_reading(self, hole: str, on: bool, t: float, colour: str | None = None) -> list[Event]:
        """A raw sensor reading at ``t`` seconds; returns the pipeline's events."""
        events = self.pipeline.feed(hole, on, t, colour)
        self._handle(events)
        return events

    def tick(self, t: float) -> list[Event]:
        """Time passed without a reading: the board may have settled."""
        events = self.pipeline.tick(t)
        self._handle(events)
        return events

    def _handle(self, events: list[Event]) -> None:
        queue = list(events)
        while queue:
            queue.extend(self._on_event(queue.pop(0)))

    def _on_event(self, event: Event) -> list[Event]:
        if self.sync is not None and not isinstance(event, (InSync, OutOfSync)):
            # Nothing in the game changes until the board matches again: a board half
            # fixed may look like a move or a takeback on the way (design.md).
            self.sync = self._difference()
            return []
        if isinstance(event, Moved):
            return self._on_moved(event.move)
        if isinstance(event, Takeback):
            self.board.pop()
            self._say(f"took back {self.board.move_text(event.move)}")
            return self._changed()
        if isinstance(event, InSync):
            self.sync, self.error, self.candidates = None, frozenset(), ()
            if self.message_kind in ("sync", "error", "confirm"):
                self._say("the board matches the game")
            outcome = self.board.outcome()
            if outcome is not None:
                self._say(self._result(outcome), "over")
            self._plan_engine()
        elif isinstance(event, OutOfSync):
            self._on_out_of_sync(event)
        elif isinstance(event, Candidates):
            self.candidates, self.choice = event.moves, 0
            self._say("which move? hint picks the next, confirm takes it", "confirm")
        elif isinstance(event, Waiting):
            self.sync, self.error = None, frozenset()
            self._say("a move is under way", "info")
        return []

    def _on_moved(self, move: Hashable) -> list[Event]:
        self.setting_up = False
        if self.pending is not None and move != self.pending:
            text = self.board.move_text
            self.error = placed_holes(self.board, move)
            self._say(f"the engine plays {text(self.pending)}, not {text(move)}", "error")
            return []
        return self._play(move)

    def _on_out_of_sync(self, event: OutOfSync) -> None:
        """One stray piece on a fresh hole is an illegal placement: flash it and say why.
        Anything else is a board that needs fixing: sync mode."""
        if (self.sync is None and not event.fill and len(event.empty) == 1
                and not self.board.is_game_over()):
            (hole,) = event.empty
            if hole not in self.board.sensor_view():
                self.sync, self.error = None, event.empty
                self._say(f"not a legal move: {self._reason(hole)}", "error")
                return
        self.sync, self.error = event, frozenset()
        self._say("the board and the game differ: fill the green holes, empty the red", "sync")

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
        if self.pending is not None:
            return f"the engine plays {self.board.move_text(self.pending)}"
        try:
            return self.board.illegal_reason(self.board.parse_move(hole))
        except EngineError:
            return f"a piece on {hole} is no move"

    # --- changing the game --------------------------------------------------------------
    def _play(self, move: Hashable, by_hand: bool = True) -> list[Event]:
        mover = self.board.turn
        self.board.push(move)
        self._say(f"{game_info(self.board.game).players[mover].name} played {self.board.move_text(move)}")
        events = self._changed(by_hand)
        log.info("move %d: %s %s (saved)", len(self.board.move_stack), mover,
                 self.board.move_text(move))
        return events

    def _changed(self, by_hand: bool = True) -> list[Event]:
        """After a push or pop: save first, then look at the board again. A change made
        by a button rather than by hand leaves pieces to move: that is sync mode at once,
        or lifting them one by one could look like moves on the way."""
        if self.store is not None:
            self.store.save(self.board)
        self.pending = self.suggestion = None
        self.error, self.candidates, self.sync = frozenset(), (), None
        events = self.pipeline.resync(self.board)
        if events and not by_hand:
            events, self.sync = [], self._difference()
            self._say("the board and the game differ: fill the green holes, empty the red",
                      "sync")
        self._plan_engine()
        outcome = self.board.outcome()
        if outcome is not None:
            self._say(self._result(outcome), "over")
        return events

    def _plan_engine(self) -> None:
        """When the engine is to move, choose its move and wait for a person to place it."""
        if self.board.is_game_over() or self.seats[self.board.turn] != "engine":
            self.pending = None
            return
        if self.pending is None:
            self.pending = choose_move(self.board, self.level, self._rng())
        if self.sync is None and not self.error:
            self._say(f"the engine plays {self.board.move_text(self.pending)}: place it there",
                      "waiting")

    def _rng(self) -> random.Random:
        moves = " ".join(self.board.move_text(m) for m in self.board.move_stack)
        return random.Random(f"{self.seed}:{self.board.game}:{moves}")

    def undo(self) -> None:
        """Take back to the last position a person was to move in; the LEDs then show
        which pieces to lift."""
        if not self.board.move_stack:
            self._say("nothing to take back")
            return
        taken = [self.board.pop()]
        while (self.board.move_stack and self.seats[self.board.turn] == "engine"
               and "person" in self.seats.values()):
            taken.append(self.board.pop())
        self._say("took back " + ", ".join(self.board.move_text(m) for m in taken))
        self._handle(self._changed(by_hand=False))

    def hint(self) -> None:
        """Show the legal targets and a suggested move; with moves to choose between,
        pick the next one instead."""
        if self.candidates:
            self.choice = (self.choice + 1) % len(self.candidates)
            return
        if self.board.is_game_over() or self.pending is not None:
            return
        self.suggestion = choose_move(self.board, self.level, self._rng())
        self._say(f"hint: {self.board.move_text(self.suggestion)}")

    def confirm(self, move_text: str | None = None) -> None:
        """Take the chosen candidate (or ``move_text``), or finish setting up. A move the
        sensors cannot see at all (a ConHex swap) is entered here as text."""
        if self.candidates:
            move = self.candidates[self.choice]
            if move_text is not None:
                move = self._parse(move_text)
                if move is None:
                    return
                if move not in self.candidates:
                    self._say(f"{move_text} is not one of the moves on the board", "error")
                    return
            self._handle(self._play(move))
        elif move_text is not None:
            move = self._parse(move_text)
            if move is None:
                return
            if self.pending is not None and move != self.pending:
                self._say(f"the engine plays {self.board.move_text(self.pending)}", "error")
                return
            if not self.board.is_legal(move):
                self._say(self.board.illegal_reason(move), "error")
                return
            self._handle(self._play(move, by_hand=False))
        elif self.setting_up:
            self.setting_up = False
            self._say("ready: the first player may start")

    def _parse(self, text: str) -> Hashable | None:
        try:
            return self.board.parse_move(text)
        except EngineError as error:
            self._say(str(error), "error")
            return None

    def new_game(self, game: str | None = None, **options: Any) -> None:
        """A new game, by default of the same game with the same options."""
        game = game or self.board.game
        if not options and game == self.board.game:
            options = dict(self.board.options)
        self.board = new_game(game, **options)
        if self.store is not None:
            self.store.start(self.board)
        self.pending = self.suggestion = None
        self.error, self.candidates, self.sync = frozenset(), (), None
        self.setting_up = game_info(game).setup
        self._say(f"new game of {game}")
        log.info("new game of %s", game)
        if self.pipeline.resync(self.board):
            self.sync = self._difference()
            self._say("clear the board: empty the red holes", "sync")
        self._plan_engine()

    # --- what to show -------------------------------------------------------------------
    def status(self) -> Status:
        board = self.board
        outcome = board.outcome()
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
            candidates=tuple(text(m) for m in self.candidates), outcome=outcome)

    def scene(self) -> Scene:
        if self.sync is not None:
            return game_scene(self.board, sync=self.sync)
        if self.setting_up:
            return setup_scene(self.board)
        shown = self.pending if self.pending is not None else self.suggestion
        if self.candidates:
            shown = self.candidates[self.choice]
        others = [m for m in self.candidates if m != shown]
        return game_scene(
            self.board, show_legal=self.show_legal or self.suggestion is not None,
            suggestion=placed_holes(self.board, shown) if shown is not None else (),
            error=self.error,
            candidates=frozenset().union(*(placed_holes(self.board, m) for m in others)))

    def _say(self, message: str, kind: str = "info") -> None:
        self.message, self.message_kind = message, kind

    def _result(self, outcome) -> str:
        players = game_info(self.board.game).players
        scores = ", ".join(f"{players[p].name} {outcome.scores[p]}" for p in "bw")
        winner = f"{players[outcome.winner].name} wins" if outcome.winner else "a draw"
        return f"game over ({outcome.reason}): {scores}; {winner}"
