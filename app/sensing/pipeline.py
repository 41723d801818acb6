"""The sensing pipeline: raw readings in, at most one clear event per settled board out.

raw reading -> per-hole debounce -> settle (the board is quiet) -> inference against the
game. The pipeline never reads a clock (every call brings its time) and never changes
the game: the caller applies ``Moved`` or ``Takeback`` to its board and calls
``resync``. An unclear board yields ``Waiting``, ``Candidates`` or ``OutOfSync``, never
a move, so the game state cannot change on a bad reading.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from app.sensing.debounce import EMPTY, Debouncer
from app.sensing.events import Event, InSync
from app.sensing.inference import Inference
from app.sensing.settle import Settle
from engines.core import Board

#: A raw reading must hold this long to count: longer than switch bounce and electrical
#: glitches (well under 10 ms), short enough not to delay the settle stage noticeably.
DEBOUNCE_S = 0.05
#: The board must be quiet this long before it is judged: longer than a marble rocking
#: in its dimple or rolling over a hole and the gaps in a slow, hesitant placement,
#: short enough that the LEDs still answer the hand that just let go (see the README).
SETTLE_S = 0.5


class Pipeline:
    """Turns timed raw readings into events for one game at a time."""

    def __init__(self, board: Board, *, debounce: float = DEBOUNCE_S,
                 settle: float = SETTLE_S, colour_sensing: bool = False) -> None:
        self.colour_sensing = colour_sensing
        self._debouncer = Debouncer(debounce)
        self._settle = Settle(settle)
        self._inference = Inference(board, colour_sensing=colour_sensing)
        self._occupancy: dict[str, str] = {}
        self._judged = False
        self._status: Event | None = None

    @property
    def occupancy(self) -> Mapping[str, str]:
        """The settled occupied holes -> colour (``""`` where colour is not sensed)."""
        return MappingProxyType(self._occupancy)

    @property
    def status(self) -> Event | None:
        """The last event reported (``None`` before the board was first judged)."""
        return self._status

    @property
    def deadline(self) -> float | None:
        """The next time ``tick`` could report something, if no reading comes first."""
        if self._debouncer.pending:
            return self._debouncer.deadline
        return self._settle.due

    def feed(self, hole: str, on: bool, t: float, colour: str | None = None) -> list[Event]:
        """A raw reading of ``hole`` at ``t`` seconds (monotonic); ``colour`` b or w."""
        events = self.tick(t)
        state = EMPTY if not on else (colour or "") if self.colour_sensing else ""
        for change in self._debouncer.feed(hole, state, t):
            self._settle.changed(change.since)
        return events + self.tick(t)

    def tick(self, t: float) -> list[Event]:
        """Time has passed with no new reading: accept held readings, judge if quiet."""
        self._settle.start(t)
        for change in self._debouncer.tick(t):
            self._settle.changed(change.since)
        if self._debouncer.pending or not self._settle.settled(t):
            return []
        self._occupancy = self._debouncer.state
        self._judged = True
        return self._judge(may_take_back=isinstance(self._status, InSync))

    def resync(self, board: Board) -> list[Event]:
        """The game changed (a move pushed or popped, a new game): judge the settled board
        against it. Returns nothing when they agree, as the caller just made them agree."""
        self._inference = Inference(board, colour_sensing=self.colour_sensing)
        if not self._judged:
            return []
        self._status = InSync()
        return self._judge(may_take_back=False)

    def _judge(self, *, may_take_back: bool) -> list[Event]:
        """Judge the settled board and report it if that changed anything. A takeback
        needs the last judgement to have matched the game, so the last move's pieces
        were seen in place: an engine's move not yet placed is never taken back."""
        event = self._inference.judge(self._occupancy, may_take_back=may_take_back)
        if event == self._status:
            return []
        self._status = event
        return [event]
