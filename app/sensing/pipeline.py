"""The sensing pipeline: raw readings in, at most one clear event per settled board out.

raw reading -> per-hole debounce -> settle (the board is quiet) -> inference against the
game. The pipeline never reads a clock (every call brings its time) and never changes
the game: the caller applies ``Moved`` or ``Takeback`` to its board and calls
``resync``. An unclear board yields ``Waiting``, ``Candidates`` or ``OutOfSync``, never
a move, so the game state cannot change on a bad reading.

Lifting a piece of the last move and putting one back in the same hole is how a hand
makes a move that only recolours it (the ConHex pie swap). The pipeline remembers such
lifts, even ones too quick to settle, for as long as the game keeps that last move:

- colour-blind, lift and put back within the settle time: ``Candidates`` of the
  recolouring moves (the swap), to be confirmed on the screen. With no such move legal
  (no pie rule, a later turn, Kulami) nothing is reported: the board still matches.
- colour-blind, lift held past the settle time: ``Takeback`` is offered as before. If the
  caller applies it, the piece put back is that move again (``Moved``) and the resync
  then offers the ``Candidates``; if not, putting it back offers them at once.
- colour sensing: the recoloured piece is an ordinary ``Moved``. Held past the settle
  time, the takeback comes first and the piece put back, though of the other colour,
  redoes the taken-back move; the resync then sees the recolouring ``Moved``.

A reply placed before the move ahead of it settled (the other person's, or the engine's
move placed by hand, 0.3 s later) settles together with it. The pipeline keeps when
each hole's debounced reading took its value and hands those times to the inference,
which plays the two in the order they were read when they are further apart than the
debounce time and both orders would be legal (colour-blind, where nothing else tells).

Once candidates are shown the board matches the game, but a takeback by lifting again
is no longer offered (the last judgement was no ``InSync``); the undo button still is.

A sensor that chatters or reads a piece where the game allows none is quarantined
(:mod:`app.sensing.health`): its changes no longer hold the settle stage, and the board
is judged with that hole as the game says it is, so the game goes on around it.
``Quarantined`` and ``Rejoined`` report it. A stray reading is taken as stuck only when
the rest of the board then reads as a move: alone, it is an illegal placement for the
session to point at.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from app.sensing.debounce import EMPTY, Change, Debouncer
from app.sensing.events import (Event, InSync, OutOfSync, Quarantined, Rejoined, Seen,
                                Waiting)
from app.sensing.health import Health
from app.sensing.inference import Inference
from app.sensing.settle import Settle
from engines.core import Board

#: A raw reading must hold this long to count: longer than switch bounce and electrical
#: glitches (well under 10 ms), short enough not to delay the settle stage noticeably.
#: Also how far apart two holes' readings must be for their order to count as the order
#: the pieces went down: a reading's time is its last flip, which bounce moves.
DEBOUNCE_S = 0.05
#: The board must be quiet this long before it is judged: longer than a marble rocking
#: in its dimple or rolling over a hole and the gaps in a slow, hesitant placement
#: (up to 0.3 s off), short enough that the move is read while the hand is still near.
#: Measured on noisy whole games (bench/sensing.py): 0.25 s misreads hesitant hands,
#: 0.3 s and longer read every game exactly; 0.35 s keeps a margin. The hand sees its
#: piece noticed sooner than that: a new piece lights as soon as its reading has held.
SETTLE_S = 0.35


class Pipeline:
    """Turns timed raw readings into events for one game at a time."""

    def __init__(self, board: Board, *, debounce: float = DEBOUNCE_S,
                 settle: float = SETTLE_S, colour_sensing: bool = False) -> None:
        self.colour_sensing = colour_sensing
        self._debouncer = Debouncer(debounce)
        self._settle = Settle(settle)
        self._health = Health()
        self._inference = Inference(board, colour_sensing=colour_sensing)
        self._occupancy: dict[str, str] = {}
        #: hole -> when its debounced reading took its value (the order pieces came in).
        self._since: dict[str, float] = {}
        self._judged = False
        self._status: Event | None = None
        self._history = tuple(board.move_stack)
        # Holes of the last move seen empty since it was made, and the moves up to it.
        self._lifted: frozenset[str] = frozenset()
        self._lifted_under: tuple = ()
        self._seen: frozenset[str] = frozenset()

    @property
    def occupancy(self) -> Mapping[str, str]:
        """The settled occupied holes -> colour (``""`` where colour is not sensed)."""
        return MappingProxyType(self._occupancy)

    @property
    def seen(self) -> frozenset[str]:
        """The holes holding a piece the game does not have, as debounced just now."""
        return self._seen

    @property
    def quarantined(self) -> Mapping[str, str]:
        """The holes judged without their sensor just now -> the problem."""
        return MappingProxyType(self._health.quarantined)

    @property
    def status(self) -> Event | None:
        """The last event reported (``None`` before the board was first judged, or once
        the caller set it aside)."""
        return self._status

    @property
    def deadline(self) -> float | None:
        """The next time ``tick`` could report something, if no reading comes first."""
        due = (self._debouncer.deadline if self._debouncer.pending else self._settle.due,
               self._health.deadline)
        return min((t for t in due if t is not None), default=None)

    def feed(self, hole: str, on: bool, t: float, colour: str | None = None) -> list[Event]:
        """A raw reading of ``hole`` at ``t`` seconds (monotonic); ``colour`` b or w."""
        events = self.tick(t)
        state = EMPTY if not on else (colour or "") if self.colour_sensing else ""
        self._health.raw(hole, t)
        events += self._accept(self._debouncer.feed(hole, state, t))
        return events + self.tick(t)

    def tick(self, t: float) -> list[Event]:
        """Time has passed with no new reading: accept held readings, let quarantined
        holes that behave again rejoin, judge if quiet."""
        self._settle.start(t)
        events = self._accept(self._debouncer.tick(t))
        quarantined = self._health.quarantined
        if quarantined:
            expected, state = self._inference.expected, self._debouncer.state
            for hole in self._health.rejoining(t, lambda h: state.get(h) == expected.get(h)):
                events.append(Rejoined(hole))
                self._settle.changed(t)  # judge the board with it again
        # (an idle board costs only these few tests per turn of the loop)
        if self._debouncer.pending and (not quarantined or self._debouncer.pending_holes
                                        - quarantined.keys()):
            return events
        if not self._settle.settled(t):
            return events
        self._occupancy = self._debouncer.state
        self._judged = True
        return events + self._judge(may_take_back=self._may_take_back())

    def unseen_moves(self) -> tuple:
        """The legal moves these sensors cannot see being made (see
        :attr:`Inference.unseen_moves`), worked out once per position."""
        return self._inference.unseen_moves

    def resync(self, board: Board) -> list[Event]:
        """The game changed (a move pushed or popped, a new game): judge the settled board
        against it. Returns nothing when they agree, as the caller just made them agree."""
        self._inference = Inference(board, colour_sensing=self.colour_sensing)
        self._seen = self._new_pieces()
        self._history = tuple(board.move_stack)
        if self._lifted_under[:len(self._history)] != self._history:
            self._lifted, self._lifted_under = frozenset(), ()  # the game went elsewhere
        if not self._judged:
            return []
        self._status = InSync()
        return self._judge(may_take_back=False)

    def set_aside(self) -> None:
        """The caller set aside what :meth:`resync` reported (a change made by a button
        puts the table in sync mode instead of reading it as moves): forget it, so the
        next settled board is reported even when it is judged the same way, and the
        caller sees every change until the board matches."""
        self._status = None

    def _may_take_back(self) -> bool:
        """The last judgement matched the game, or saw only part of the last move's pieces
        lifted (a Blokus piece coming off square by square, slower than the settle)."""
        status = self._status
        return isinstance(status, InSync) or (
            isinstance(status, Waiting) and not status.extra
            and status.missing <= self._inference.last_move_holes)

    def _judge(self, *, may_take_back: bool) -> list[Event]:
        """Judge the settled board and report it if that changed anything. A takeback
        needs the last judgement to have matched the game, so the last move's pieces
        were seen in place: an engine's move not yet placed is never taken back."""
        lifted = self._lifted if self._lifted_under == self._history else frozenset()
        redo = (self._lifted_under[-1] if self._lifted
                and len(self._lifted_under) == len(self._history) + 1 else None)

        def judge(quarantined) -> Event:
            expected = self._inference.expected
            seen = {h: c for h, c in self._occupancy.items() if h not in quarantined}
            seen.update((h, expected[h]) for h in quarantined if h in expected)
            return self._inference.judge(seen, may_take_back=may_take_back,
                                         relifted=lifted, redo=redo, since=self._since,
                                         apart=self._debouncer.hold)

        found: list[Event] = []
        event = judge(self._health.quarantined.keys())
        if isinstance(event, OutOfSync) and not event.fill:
            stray = frozenset(h for h in event.empty if self._inference.holds_nothing(h))
            if stray and stray != event.empty:
                without = judge(self._health.quarantined.keys() | stray)
                if not isinstance(without, (OutOfSync, InSync)):
                    for hole in sorted(stray):
                        self._health.stuck(hole)
                        found.append(Quarantined(hole, "stuck"))
                    event = without
        if event != self._status:
            self._status = event
            found.append(event)
        return found

    def _accept(self, changes: list[Change]) -> list[Event]:
        """Debounced changes restart the settle time, unless their hole is quarantined
        or now found to chatter; lifts of the last move are noted."""
        events: list[Event] = []
        for change in changes:
            self._since[change.hole] = change.since
            if self._health.changed(change.hole, change.since):
                events.append(Quarantined(change.hole, "chatter"))
            if change.hole not in self._health.quarantined:
                self._settle.changed(change.since)
            if change.state is EMPTY and change.hole in self._inference.last_move_holes:
                if self._lifted_under != self._history:
                    self._lifted, self._lifted_under = frozenset(), self._history
                self._lifted |= {change.hole}
        if changes and (seen := self._new_pieces()) != self._seen:
            self._seen = seen
            events.append(Seen(seen))
        return events

    def _new_pieces(self) -> frozenset[str]:
        expected, quarantined = self._inference.expected, self._health.quarantined
        return frozenset(hole for hole, colour in self._debouncer.state.items()
                         if expected.get(hole) != colour and hole not in quarantined
                         and self._inference.has_hole(hole))
