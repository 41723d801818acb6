"""Move inference: which legal move, if any, turns the game's board into what sensors see.

Generic over every game: it compares sensor views (``Board.sensor_view()``) before and
after each legal move, so an engine needs no sensing code of its own. Only the game's
holes count; a sensor under a hole the game does not use (a Kulami layout smaller than
the board) is ignored.

A move that only recolours pieces (the ConHex pie swap) changes nothing a colour-blind
sensor sees at rest; what it does see is the hand: the piece lifted and one put back in
the same hole. So when the caller says the last move's holes were lifted and are filled
again, the recolouring moves of those holes are offered as ``Candidates`` for the player
to confirm. With colour sensing such a move is an ordinary visible change.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from functools import cached_property

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
        self._view = dict(board.sensor_view())
        self._expected = self._seen(self._view)
        self._moves: list[tuple[Hashable, Delta]] | None = None
        self._unseen: list[tuple[Hashable, frozenset[str]]] = []  # move, holes recoloured

    @property
    def last_move_holes(self) -> frozenset[str]:
        """The holes the last move filled or changed (none at the start of a game)."""
        if self._takeback is None:
            return frozenset()
        return self._takeback[1].emptied | self._takeback[1].holes

    def judge(self, occupancy: Mapping[str, str], *, may_take_back: bool = False,
              relifted: frozenset[str] = frozenset(), redo: Hashable | None = None) -> Event:
        """The event for settled ``occupancy`` (hole -> colour, ``""`` if colour-blind).

        A board that looks like the game before its last move is a takeback only when
        ``may_take_back``: the last move's pieces were seen in place and then lifted.
        Otherwise they were never placed (an engine's move, a resumed game): fill them.
        ``relifted`` holes of the last move were lifted and are filled again: a board
        that matches the game may then be a move the sensors cannot see. ``redo`` is a
        move just taken back whose holes are filled again: in whatever colour, it is put
        back, and the colour is judged against the game with it (a swap made slowly).
        """
        seen = self._delta(self._seen(occupancy))
        if not seen:
            if relifted:
                self._prepare()
                unseen = tuple(move for move, holes in self._unseen if holes <= relifted)
                if unseen:
                    return Candidates(unseen)
            return InSync()
        self._prepare()
        exact = tuple(move for move, delta in self._moves if delta == seen)
        if len(exact) == 1:
            return Moved(exact[0])
        if exact:
            return Candidates(exact)
        if redo is not None and any(move == redo and delta.holes == seen.holes
                                    and delta.emptied == seen.emptied
                                    for move, delta in self._moves):
            return Moved(redo)
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
        """Every legal move's delta, once; moves that only recolour holes the sensors
        see no colour of go to ``_unseen`` instead."""
        if self._moves is not None:
            return
        probe = self.board.copy()
        self._moves = []
        for move in self.board.legal_moves:
            probe.push(move)
            view = probe.sensor_view()
            probe.pop()
            delta = self._delta(self._seen(view))
            if delta:
                self._moves.append((move, delta))
            elif view.keys() == self._view.keys():
                recoloured = frozenset(h for h in view if h in self._holes
                                       and view[h] != self._view[h])
                if recoloured:
                    self._unseen.append((move, recoloured))

    @cached_property
    def _takeback(self) -> tuple[Hashable, Delta] | None:
        """The last move and how the board before it differs from the game."""
        if not self.board.move_stack:
            return None
        probe = self.board.copy()
        last = probe.pop()
        return last, self._delta(self._seen(probe.sensor_view()))
