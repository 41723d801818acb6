"""Move inference: which legal move, if any, turns the game's board into what sensors see.

Generic over every game: it compares sensor views (``Board.sensor_view()``) before and
after each legal move, so an engine needs no sensing code of its own. Only the game's
holes count; a sensor under a hole the game does not use (a Kulami layout smaller than
the board) is ignored. Moves that change nothing a sensor can see (the ConHex pie swap
without colour sensing) cannot be inferred and are confirmed on the screen instead.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass

from app.sensing.events import Candidates, Event, InSync, Moved, OutOfSync, Takeback, Waiting
from engines.core import Board


@dataclass(frozen=True)
class Delta:
    """How a view differs from the game's: holes filled (with colour) and holes emptied."""

    filled: frozenset[tuple[str, str]]
    emptied: frozenset[str]

    @property
    def holes(self) -> frozenset[str]:
        return frozenset(hole for hole, _ in self.filled)

    def __bool__(self) -> bool:
        return bool(self.filled or self.emptied)

    def within(self, other: "Delta") -> bool:
        """Whether this change is part of ``other`` (a move still under way)."""
        return self.filled <= other.filled and self.emptied <= other.emptied


class Inference:
    """Judges settled occupancy against one position of a game.

    The deltas of all legal moves are worked out on the first reading that differs from
    the game, then reused until the game changes (a new ``Inference``).
    """

    def __init__(self, board: Board, *, colour_sensing: bool = False) -> None:
        self.board = board
        self.colour_sensing = colour_sensing
        self._holes = frozenset(board.holes)
        self._expected = self._seen(board.sensor_view())
        self._moves: list[tuple[Hashable, Delta]] | None = None
        self._takeback: tuple[Hashable, Delta] | None = None

    def judge(self, occupancy: Mapping[str, str], *, may_take_back: bool = False) -> Event:
        """The event for settled ``occupancy`` (hole -> colour, ``""`` if colour-blind).

        A board that looks like the game before its last move is a takeback only when
        ``may_take_back``: the last move's pieces were seen in place and then lifted.
        Otherwise they were never placed (an engine's move, a resumed game): fill them.
        """
        seen = self._delta(self._seen(occupancy))
        if not seen:
            return InSync()
        if self._moves is None:
            self._prepare()
        exact = tuple(move for move, delta in self._moves if delta == seen)
        if len(exact) == 1:
            return Moved(exact[0])
        if exact:
            return Candidates(exact)
        if may_take_back and self._takeback is not None and self._takeback[1] == seen:
            return Takeback(self._takeback[0])
        if any(seen.within(delta) for _, delta in self._moves):
            return Waiting(seen.holes, seen.emptied)
        return OutOfSync(fill=seen.emptied, empty=seen.holes)

    def _seen(self, view: Mapping[str, str]) -> dict[str, str]:
        """A view as the sensors can see it: the game's holes, colour only if sensed."""
        return {hole: (colour if self.colour_sensing else "")
                for hole, colour in view.items() if hole in self._holes}

    def _delta(self, view: dict[str, str]) -> Delta:
        expected = self._expected
        return Delta(frozenset((h, c) for h, c in view.items() if expected.get(h) != c),
                     frozenset(expected.keys() - view.keys()))

    def _prepare(self) -> None:
        probe = self.board.copy()
        self._moves = []
        for move in self.board.legal_moves:
            probe.push(move)
            delta = self._delta(self._seen(probe.sensor_view()))
            probe.pop()
            if delta:
                self._moves.append((move, delta))
        if probe.move_stack:
            last = probe.pop()
            self._takeback = (last, self._delta(self._seen(probe.sensor_view())))
