"""Move inference: which legal move, if any, turns the game's board into what sensors see.

Generic over every game: it compares sensor views (``Board.sensor_view()``) before and
after legal moves, so an engine needs no sensing code of its own. It never walks every
legal move: a move that explains a change must change what the sensor under each
changed hole sees, so it asks the engine for the moves sensed at one of those holes
(``Board.moves_sensed_at``, answered by the rule) and compares only those. A Blokus
position with 1,500 legal moves thus costs the few dozen placements covering one square.
Only the game's holes count; a sensor under a hole the game does not use (a Kulami
layout smaller than the board) is ignored.

A move that only recolours pieces (the ConHex pie swap) changes nothing a colour-blind
sensor sees at rest; what it does see is the hand: the piece lifted and one put back in
the same hole. So when the caller says the last move's holes were lifted and are filled
again, the recolouring moves of those holes are offered as ``Candidates`` for the player
to confirm. With colour sensing such a move is an ordinary visible change.

A change that puts no piece on an empty hole but lifts one may be a piece still in the
hand (an Akron ball lifted on its way somewhere, the ball resting on it dropped into its
place): even when one move explains it, that move is offered as a ``Candidates`` to
confirm, never played by itself.

Hands make mistakes that are still moves, and those are read as such rather than left
to sync mode. A reply placed before the move ahead of it settled shows as two moves at
once: if exactly one pair of moves, in one order, explains the board, its first move is
``Moved`` (the second follows when the caller judges again). When both orders (or
several pairs) would do, as with two marbles on a colour-blind Kulami board, the
readings' times tell the order: the caller passes when each hole's reading took its
value, and the pair whose first move's holes were all read more than ``apart`` seconds
before the other holes is the one played. Closer than that (the caller's debounce: a
reading's time is its last flip, which bounce moves) the order is not known and the
board is not guessed. The last move's piece slid on to another hole where its player
could have played instead is a ``Correction``.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType

from app.sensing.events import (Candidates, Correction, Event, InSync, Moved, OutOfSync,
                                Takeback, Waiting)
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

    The deltas of the moves sensed at a hole are worked out the first time a reading
    changes that hole, then reused until the game changes (a new ``Inference``).
    """

    def __init__(self, board: Board, *, colour_sensing: bool = False) -> None:
        self.board = board
        self.colour_sensing = colour_sensing
        self._holes = frozenset(board.holes)
        self._view = dict(board.sensor_view())
        self._expected = self._seen(self._view)
        #: hole -> the moves sensed there that the sensors can see, with their deltas,
        #: and those that only recolour holes colour-blind sensors cannot see.
        self._seen_at: dict[str, list[tuple[Hashable, Delta]]] = {}
        self._unseen_at: dict[str, list[tuple[Hashable, frozenset[str]]]] = {}
        self._probe: Board | None = None

    @property
    def expected(self) -> Mapping[str, str]:
        """What the sensors should see in this position (hole -> colour, ``""`` where
        colour is not sensed)."""
        return self._expected

    def has_hole(self, hole: str) -> bool:
        """Whether ``hole`` is one of the game's (a sensor outside a Kulami layout is
        not)."""
        return hole in self._holes

    def holds_nothing(self, hole: str) -> bool:
        """Whether a piece on ``hole`` fits no move now: the game has none there and the
        player to move can put none there."""
        return hole not in self._expected and not self._moves(hole)

    @property
    def last_move_holes(self) -> frozenset[str]:
        """The holes the last move filled or changed (none at the start of a game)."""
        if self._takeback is None:
            return frozenset()
        return self._takeback[1].emptied | self._takeback[1].holes

    def judge(self, occupancy: Mapping[str, str], *, may_take_back: bool = False,
              relifted: frozenset[str] = frozenset(), redo: Hashable | None = None,
              since: Mapping[str, float] = MappingProxyType({}),
              apart: float = 0.0) -> Event:
        """The event for settled ``occupancy`` (hole -> colour, ``""`` if colour-blind).

        A board that looks like the game before its last move is a takeback only when
        ``may_take_back``: the last move's pieces were seen in place and then lifted.
        Otherwise they were never placed (an engine's move, a resumed game): fill them.
        ``relifted`` holes of the last move were lifted and are filled again: a board
        that matches the game may then be a move the sensors cannot see. ``redo`` is a
        move just taken back whose holes are filled again: in whatever colour, it is put
        back, and the colour is judged against the game with it (a swap made slowly).
        ``since`` says when each hole's reading took its value: two moves that both
        explain the board, each in either order, are played in the order of their
        readings when those are more than ``apart`` seconds apart.
        """
        seen = self._delta(self._seen(occupancy))
        if not seen:
            if relifted:
                unseen = tuple(dict.fromkeys(
                    move for hole in sorted(relifted) for move, holes in self._unseen(hole)
                    if holes <= relifted))
                if unseen:
                    return Candidates(unseen)
            return InSync()
        moves = self._moves(min(seen.holes | seen.emptied))
        exact = tuple(move for move, delta in moves if delta == seen)
        if len(exact) == 1 and not self._in_hand(exact[0], seen):
            return Moved(exact[0])
        if exact:
            return Candidates(exact)
        if redo is not None and any(move == redo and delta.holes == seen.holes
                                    and delta.emptied == seen.emptied
                                    for move, delta in moves):
            return Moved(redo)
        if may_take_back and self._takeback is not None and self._takeback[1] == seen:
            return Takeback(self._takeback[0])
        if any(seen.within(delta) for _, delta in moves):
            return Waiting(seen.holes, seen.emptied)
        if may_take_back and self._takeback is not None and seen.within(self._takeback[1]):
            return Waiting(seen.holes, seen.emptied)  # the last piece coming off bit by bit
        if may_take_back and self._takeback is not None:
            instead = self._before.explaining(occupancy)
            if len(instead) == 1 and instead[0] != self._takeback[0]:
                return Correction(self._takeback[0], instead[0])
        first = self._first_of_two(seen, occupancy, since, apart)
        if first is not None:
            return Moved(first)
        return OutOfSync(fill=seen.emptied, empty=seen.holes)

    def _in_hand(self, move: Hashable, seen: Delta) -> bool:
        """Whether the piece ``move`` lifts may still be in the hand: the change puts no
        piece on an empty hole, and ``move`` lifts a piece from a changed hole (an Akron
        ball lifted, or lifted with the ball on it dropping into its place)."""
        if seen.holes - self._expected.keys():
            return False
        return any(move in set(self.board.moves_from(hole))
                   for hole in seen.emptied | seen.holes)

    def explaining(self, occupancy: Mapping[str, str]) -> tuple[Hashable, ...]:
        """The legal moves that each turn the game into exactly ``occupancy``."""
        seen = self._delta(self._seen(occupancy))
        if not seen:
            return ()
        return tuple(move for move, delta in self._moves(min(seen.holes | seen.emptied))
                     if delta == seen)

    @cached_property
    def unseen_moves(self) -> tuple[Hashable, ...]:
        """The legal moves that leave what these sensors see exactly as it is: Akron's
        moves above the board, ConHex's swap on a colour-blind board. Nothing settles
        when one is made, so a person says so (the confirm button) and picks it."""
        probe = self._probe or self.board.copy()
        self._probe = probe
        unseen = []
        for move in list(self.board.legal_moves):
            probe.push(move)
            view = self._seen(probe.sensor_view())
            probe.pop()
            if view == self._expected:
                unseen.append(move)
        return tuple(unseen)

    def readable_moves(self) -> list[Hashable]:
        """The legal moves the sensors read by themselves: made by hand, each is judged
        to be that very move with nobody confirming it. A scripted hand plays these (an
        Akron move above the board, or one a ball from above could be, needs a person)."""
        readable, probe = [], self.board.copy()
        for move in list(self.board.legal_moves):
            probe.push(move)
            occupancy = self._seen(probe.sensor_view())
            probe.pop()
            if self.judge(occupancy) == Moved(move):
                readable.append(move)
        return readable

    def _first_of_two(self, seen: Delta, occupancy: Mapping[str, str],
                      since: Mapping[str, float], apart: float) -> Hashable | None:
        """The first of the one pair of moves (this player's, then the next one's) that
        together explain ``seen``. When several pairs do, the first of the one pair whose
        order the readings' times tell (see :meth:`_read_first`); ``None`` when no pair
        does, or several and the times single out none."""
        changed = seen.holes | seen.emptied
        firsts = {move: delta.holes | delta.emptied for hole in sorted(changed)
                  for move, delta in self._moves(hole)
                  if delta.within(seen) and delta != seen}
        pairs: list[Hashable] = []  # the first move of each pair found
        told: list[Hashable] = []  # ... of each pair whose order the times tell
        for move, holes in firsts.items():
            ordered = self._read_first(holes, changed - holes, since, apart)
            if len(pairs) > 1 and not ordered:
                continue  # no longer the only pair, and the times do not pick it
            probe = self.board.copy()
            probe.push(move)
            then = Inference(probe, colour_sensing=self.colour_sensing).explaining(occupancy)
            pairs += [move] * len(then)
            told += [move] * len(then) if ordered else []
            if len(told) > 1 or (len(pairs) > 1 and not since):
                return None
        if len(pairs) == 1:
            return pairs[0]
        return told[0] if len(told) == 1 else None

    @staticmethod
    def _read_first(first: frozenset[str], then: frozenset[str],
                    since: Mapping[str, float], apart: float) -> bool:
        """Whether every ``first`` hole's reading came more than ``apart`` seconds before
        every ``then`` hole's (``since``: hole -> when its reading took its value)."""
        if not first or not then or not (first | then) <= since.keys():
            return False
        return min(since[hole] for hole in then) - max(since[hole] for hole in first) > apart

    def _seen(self, view: Mapping[str, str]) -> dict[str, str]:
        """A view as the sensors can see it: the game's holes, colour only if sensed."""
        return {hole: (colour if self.colour_sensing else "")
                for hole, colour in view.items() if hole in self._holes}

    def _delta(self, view: dict[str, str]) -> Delta:
        expected = self._expected
        return Delta(frozenset((h, c) for h, c in view.items() if expected.get(h) != c),
                     frozenset(expected.keys() - view.keys()))

    def _moves(self, hole: str) -> list[tuple[Hashable, Delta]]:
        """The moves sensed at ``hole`` that the sensors can see, with their deltas."""
        if hole not in self._seen_at:
            self._study(hole)
        return self._seen_at[hole]

    def _unseen(self, hole: str) -> list[tuple[Hashable, frozenset[str]]]:
        """The moves sensed at ``hole`` that only recolour holes whose colour the
        sensors do not see, with the holes they recolour."""
        if hole not in self._unseen_at:
            self._study(hole)
        return self._unseen_at[hole]

    def _study(self, hole: str) -> None:
        """Work out the deltas of the moves sensed at ``hole``, on a copy of the board."""
        if self._probe is None:
            self._probe = self.board.copy()
        probe = self._probe
        seen, unseen = self._seen_at.setdefault(hole, []), self._unseen_at.setdefault(hole, [])
        for move in self.board.moves_sensed_at(hole):
            probe.push(move)
            view = probe.sensor_view()
            probe.pop()
            delta = self._delta(self._seen(view))
            if delta:
                seen.append((move, delta))
            elif view.keys() == self._view.keys():
                recoloured = frozenset(h for h in view if h in self._holes
                                       and view[h] != self._view[h])
                if recoloured:
                    unseen.append((move, recoloured))

    @cached_property
    def _before(self) -> "Inference":
        """The inference for the position before the last move."""
        probe = self.board.copy()
        probe.pop()
        return Inference(probe, colour_sensing=self.colour_sensing)

    @cached_property
    def _takeback(self) -> tuple[Hashable, Delta] | None:
        """The last move and how the board before it differs from the game."""
        if not self.board.move_stack:
            return None
        probe = self.board.copy()
        last = probe.pop()
        return last, self._delta(self._seen(probe.sensor_view()))
