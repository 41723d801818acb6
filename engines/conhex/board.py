"""ConHex: gems in holes claim cells; a chain of own cells between the own sides wins.

Rules as ``rules.md`` and the seed sheet state them, with these readings made explicit:

- A placement claims every cell of the placed hole that nobody owns yet and where the
  mover now holds at least half the holes (2 of 3 at the edge, 3 of 6 inside, 3 of 5 at
  the centre). One gem can claim up to three cells; a claimed cell is never lost, so only
  the mover can claim, and only the mover can complete a chain.
- ``b`` joins N and S, ``w`` joins W and E; a corner cell lies on two sides and counts for
  whichever of its sides belongs to its owner.
- Pie rule (option ``pie``, on by default). The seed: "player B may replace that gem with
  one of his own colour and thus become the starting player". So ``swap`` is legal as
  ``w``'s first action only: the first gem becomes ``w``'s gem in the same hole, ``w`` now
  owns the opening move, and ``b`` moves next. Directions never change: ``b`` still joins
  N and S. After a swap :meth:`sensor_view` reports that hole as ``w`` (a colour-sensing
  board sees the new gem directly) and no cell is claimed (one gem claims nothing).
  Little Golem's swap is a different but equivalent operation (see ``record.py``).
- Handicap (option ``handicap``: 0, 2 or 3). The weaker player is the one who starts:
  ``b`` places that many gems in a row, then ``w`` moves and turns alternate. The pie rule
  only applies to games without handicap: the handicap already settles who is favoured.
- The win is kept incrementally: a union-find over the cells plus four side nodes, joined
  when a cell is claimed, with an undo log so ``pop`` restores it exactly.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Hashable, Iterator, Mapping
from dataclasses import dataclass
from itertools import chain, compress
from types import MappingProxyType
from typing import Any

from engines.conhex import compiled
from engines.conhex.fill import SIDE_BITS, UNITS, cell_bit, fill_owners, joins
from engines.conhex.policy import ConHexPolicy
from engines.conhex.geometry import (CELLS, CELLS_OF_HOLE, COLUMNS, HOLE_INDEX, HOLES,
                                     NEIGHBOURS, PLAYER_SIDES, SIDES, SIZE, grid_name,
                                     grid_point)
from engines.core import Axes, Board, Lights, Outcome, Place, ScorePart
from engines.errors import InvalidMoveError, PointError
from engines.options import Option

HANDICAPS = (0, 2, 3)
PIE = Option("pie", True, bool, "the pie rule: w may take over b's first gem instead of "
             "placing one")
HANDICAP = Option("handicap", 0, int, "gems b places in a row before turns alternate",
                  choices=HANDICAPS)


def player_at(ply: int, handicap: int = 0) -> str:
    """Who makes move number ``ply`` (from 0): ``b`` places the handicap gems in a row,
    then ``w`` moves and turns alternate."""
    if ply < handicap:
        return "b"
    return "b" if (ply - handicap) % 2 == (1 if handicap else 0) else "w"


@dataclass(frozen=True, slots=True)
class Move:
    """A gem placed in a hole (``name`` is the hole, e.g. ``j3``), or the pie ``swap``."""

    name: str

    def __str__(self) -> str:
        return self.name


SWAP = Move("swap")
PLACEMENTS = tuple(Move(name) for name in HOLES)

_THRESHOLD = tuple(cell.threshold for cell in CELLS)
#: Union-find nodes: the cells, then one node per side.
_SIDE_NODE = {side: len(CELLS) + i for i, side in enumerate(("N", "E", "S", "W"))}
#: player -> cell -> the side nodes that cell joins when the player owns it.
_CELL_SIDES = {player: tuple(tuple(_SIDE_NODE[s] for s in sides if s in cell.sides)
                             for cell in CELLS)
               for player, sides in PLAYER_SIDES.items()}
_HOLE_INDICES = range(len(HOLES))
_B_START, _B_END = (SIDE_BITS[side] for side in PLAYER_SIDES["b"])
_GOAL = {player: tuple(_SIDE_NODE[s] for s in sides) for player, sides in PLAYER_SIDES.items()}


#: The columns a-k and rows 1-11 of the grid by their places.
_AXES = Axes(MappingProxyType(dict(enumerate(COLUMNS))),
             MappingProxyType({y: str(y + 1) for y in range(SIZE)}))


class ConHexBoard(Board):
    """A ConHex game. Options: ``pie`` (bool, default on), ``handicap`` (0, 2 or 3)."""

    game = "conhex"
    OPTIONS = (PIE, HANDICAP)
    #: How the shared search (engines/search.py) plays ConHex.
    search_policy = ConHexPolicy()
    pass_refused = "conhex has no passing: a chain always wins before the holes run out"
    #: Won by a chain, not on points: GTP's ``final_score`` is ``0`` until a chain wins.
    won_on_points = False

    def __init__(self, pie: bool = True, handicap: int = 0) -> None:
        super().__init__()
        self._options = MappingProxyType({"pie": PIE.accept(pie),
                                          "handicap": HANDICAP.accept(handicap)})
        self._gem: list[str | None] = [None] * len(HOLES)
        #: ``_open[h]`` is ``_gem[h] is None``, kept as a list of its own so that the open
        #: holes come out of one C-level pass (``compress``) on every turn.
        self._open = [True] * len(HOLES)
        self._count = {"b": [0] * len(CELLS), "w": [0] * len(CELLS)}
        self._owner: list[str | None] = [None] * len(CELLS)
        self._parent = list(range(len(CELLS) + len(_SIDE_NODE)))
        self._size = [1] * len(self._parent)
        self._joins: list[tuple[int, int]] = []
        #: Per placement: the cells it claimed and the length of the join log before it.
        self._undo_log: list[tuple[list[int], int]] = []
        self._winner: str | None = None
        #: Per player: the gems' counts per cell packed into one int, and the cells
        #: owned as a mask (:mod:`engines.conhex.fill`), for :meth:`playout`.
        self._units = {"b": 0, "w": 0}
        self._owned = {"b": 0, "w": 0}

    # --- identity ---------------------------------------------------------------------
    @property
    def options(self) -> Mapping[str, Any]:
        return self._options

    @property
    def holes(self) -> tuple[str, ...]:
        return HOLES

    def place(self, name: str) -> Place:
        """A hole on the 11x11 grid, ``a1`` at ``(0, 0)`` (not every point of the grid
        is a hole)."""
        if name not in HOLE_INDEX:
            raise PointError(f"{name!r} is not a hole of the ConHex board (a column a-k "
                             f"and a row 1-11 where a hole is, e.g. f6)")
        column, row = grid_point(name)
        return Place(column - 1, row - 1)

    def axes(self) -> Axes:
        return _AXES

    @property
    def areas(self) -> Mapping[str, frozenset[str]]:
        """Cells by number (``"0"`` .. ``"40"``), each the set of its holes."""
        return _AREAS

    def owner(self, cell: int) -> str | None:
        """Who owns cell ``cell`` (by number), if anyone."""
        return self._owner[cell]

    def cell_counts(self, player: str) -> list[int]:
        """``player``'s gems in each cell, by cell number (read only)."""
        return self._count[player]

    @staticmethod
    def cells_of(hole: int) -> tuple[int, ...]:
        """The cells hole number ``hole`` belongs to."""
        return CELLS_OF_HOLE[hole]

    @staticmethod
    def move_on(number: int) -> Move:
        """Move number ``number`` of the compiled core: the gem placed in that hole, or
        the swap after the holes."""
        return PLACEMENTS[number] if number < len(PLACEMENTS) else SWAP

    def core_position(self) -> tuple:
        """This position as the compiled core takes it (:func:`.compiled.position`)."""
        return compiled.position(self._gem, self._count["b"], self._count["w"], self._owner,
                                 len(self.move_stack), self._options["handicap"],
                                 self._options["pie"], self._winner)

    def gem(self, hole: str) -> str | None:
        """Whose gem is in ``hole``, if any."""
        return self._gem[HOLE_INDEX[hole]]

    # --- moves ------------------------------------------------------------------------
    def parse_notation(self, text: str) -> Move:
        name = text.strip().lower()
        if name == SWAP.name:
            return SWAP
        index = HOLE_INDEX.get(name)
        if index is None:
            raise InvalidMoveError(f"{text.strip()!r} is not a ConHex hole (a1, a11, k1, k11, "
                                   f"f6 and the holes from b2 to j10 that the diagram in "
                                   f"docs/rules.md, ConHex, shows) nor swap")
        return PLACEMENTS[index]

    def generate_legal_moves(self, player: str) -> Iterator[Move]:
        """Every open hole, then the swap; iterators all the way, so nothing is built."""
        open_holes = compress(PLACEMENTS, self._open)
        if player == "w" and self._swap_allowed():
            return chain(open_holes, (SWAP,))
        return open_holes

    def is_legal(self, move: Hashable) -> bool:
        if self._winner is not None or not isinstance(move, Move):
            return False
        index = HOLE_INDEX.get(move.name)
        if index is None:
            return move == SWAP and self._swap_allowed()
        return self._gem[index] is None

    def _why_illegal(self, move: Hashable) -> str:
        if move == SWAP:
            if not self._options["pie"]:
                return "swap needs the pie rule, which is off in this game"
            if self._options["handicap"]:
                return "swap is not allowed in a handicap game"
            return "swap is only legal as w's first action"
        if isinstance(move, Move) and move.name in HOLE_INDEX:
            return f"{move.name} is taken"
        return f"{move!r} is not a ConHex move"

    def _swap_allowed(self) -> bool:
        return (self._options["pie"] and not self._options["handicap"]
                and len(self.move_stack) == 1 and self._winner is None)

    def moves_sensed_at(self, hole: str) -> Iterator[Move]:
        """A gem is sensed in its hole: the placement there if legal, and the swap at the
        first gem's hole, since it changes that gem's colour."""
        index = HOLE_INDEX.get(hole)
        if index is None:
            return iter(())
        here = PLACEMENTS[index]
        sensed = [here] if self.is_legal(here) else []
        if self.is_legal(SWAP) and self.move_stack[0] == here:
            sensed.append(SWAP)
        return iter(sensed)

    def _apply(self, move: Move) -> None:
        if move == SWAP:
            self._recolour(HOLE_INDEX[self.move_stack[0].name], "b", "w")
        else:
            self._place(HOLE_INDEX[move.name], self.turn)

    def _undo(self, move: Move) -> None:
        if move == SWAP:
            self._recolour(HOLE_INDEX[self.move_stack[0].name], "w", "b")
        else:
            self._unplace(HOLE_INDEX[move.name], self.turn)

    def _place(self, hole: int, player: str) -> None:
        self._gem[hole] = player
        self._open[hole] = False
        self._units[player] += UNITS[hole]
        count, owner = self._count[player], self._owner
        claimed: list[int] = []
        joins_before = len(self._joins)
        for cell in CELLS_OF_HOLE[hole]:
            count[cell] += 1
            if owner[cell] is None and count[cell] >= _THRESHOLD[cell]:
                owner[cell] = player
                self._owned[player] |= cell_bit(cell)
                claimed.append(cell)
                for neighbour in NEIGHBOURS[cell]:
                    if owner[neighbour] == player:
                        self._join(cell, neighbour)
                for side in _CELL_SIDES[player][cell]:
                    self._join(cell, side)
        self._undo_log.append((claimed, joins_before))
        if claimed:
            start, end = _GOAL[player]
            if self._find(start) == self._find(end):
                self._winner = player

    def _unplace(self, hole: int, player: str) -> None:
        claimed, joins_before = self._undo_log.pop()
        parent, size, joins = self._parent, self._size, self._joins
        while len(joins) > joins_before:
            child, root = joins.pop()
            parent[child] = child
            size[root] -= size[child]
        for cell in claimed:
            self._owner[cell] = None
            self._owned[player] &= ~cell_bit(cell)
        self._units[player] -= UNITS[hole]
        count = self._count[player]
        for cell in CELLS_OF_HOLE[hole]:
            count[cell] -= 1
        self._gem[hole] = None
        self._open[hole] = True
        self._winner = None

    def _turn_after(self, move: Move) -> str:
        """The handicap: ``b`` places its gems in a row before turns alternate."""
        return player_at(len(self.move_stack), self._options["handicap"])

    def _recolour(self, hole: int, old: str, new: str) -> None:
        """The swap: one gem changes colour; a single gem claims nothing, so no cells move."""
        self._gem[hole] = new
        self._units[old] -= UNITS[hole]
        self._units[new] += UNITS[hole]
        for cell in CELLS_OF_HOLE[hole]:
            self._count[old][cell] -= 1
            self._count[new][cell] += 1

    # --- union-find without path compression, so that every change is one log entry ---
    def _find(self, node: int) -> int:
        parent = self._parent
        while parent[node] != node:
            node = parent[node]
        return node

    def _join(self, a: int, b: int) -> None:
        a, b = self._find(a), self._find(b)
        if a == b:
            return
        if self._size[a] > self._size[b]:
            a, b = b, a
        self._parent[a] = b
        self._size[b] += self._size[a]
        self._joins.append((a, b))

    def playout(self, rng: random.Random, trace: list | None = None) -> str:
        """Who wins when random gems fill the open holes from here, the players taking
        turns (never the swap: the search decides that), leaving the board as it is:
        the search's random playout, worked out as one fill (:mod:`engines.conhex.fill`).
        With ``trace``, it appends the holes (by index) in the order they are filled.
        The compiled core works out the same fill when it is in use (:mod:`.compiled`)."""
        if compiled.enabled() and compiled.draws_alike(rng):
            return compiled.playout(self.core_position(), rng, trace)
        if self._winner is not None:
            return self._winner
        random = rng.random
        keys = [random() for _ in _HOLE_INDICES]
        order = sorted(compress(_HOLE_INDICES, self._open), key=keys.__getitem__)
        if trace is not None:
            trace.extend(order)
        lead = max(0, self._options["handicap"] - len(self.move_stack))
        first, second = order[lead::2], order[lead + 1::2]
        holes_b, holes_w = (second, first) if lead or self.turn == "w" else (first, second)
        if lead:
            holes_b = order[:lead] + holes_b
        cells_b = fill_owners(order, holes_b, holes_w, self._units, self._owned)
        return "b" if joins(cells_b, _B_START, _B_END) else "w"

    # --- the end ----------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        if self._winner is None:
            return None
        start, end = PLAYER_SIDES[self._winner]
        return Outcome(self._winner, self.scores(),
                       f"{self._winner} joins {start} and {end} with a chain of cells",
                       by_score=False)

    def is_game_over(self) -> bool:
        """A lookup: the win is kept as gems are placed, and only a win ends ConHex."""
        return self._winner is not None

    def scores(self) -> dict[str, int]:
        """Owned cells per player: the progress measure; the win is the chain alone."""
        return {"b": self._owner.count("b"), "w": self._owner.count("w")}

    def owned(self, player: str) -> frozenset[str]:
        """The cells ``player`` owns, by number as text (the keys of :attr:`areas`)."""
        return frozenset(str(c) for c, who in enumerate(self._owner) if who == player)

    def score_parts(self) -> list[ScorePart]:
        """The cells each player claimed: all a ConHex sheet counts, the chain aside."""
        return [ScorePart("cells", "Cells", self.scores())]

    def winning_chain(self, player: str) -> tuple[str, ...]:
        """The fewest of ``player``'s cells that join their two sides (a breadth-first
        search over neighbouring owned cells), by number as :attr:`areas` names them."""
        owned = {c for c, who in enumerate(self._owner) if who == player}
        start, end = PLAYER_SIDES[player]
        came_from: dict[int, int | None] = {c: None for c in sorted(owned & SIDES[start])}
        queue = deque(came_from)
        while queue:
            cell = queue.popleft()
            if cell in SIDES[end]:
                chain_back = []
                while cell is not None:
                    chain_back.append(str(cell))
                    cell = came_from[cell]
                return tuple(reversed(chain_back))
            for neighbour in NEIGHBOURS[cell]:
                if neighbour in owned and neighbour not in came_from:
                    came_from[neighbour] = cell
                    queue.append(neighbour)
        return ()

    # --- views ------------------------------------------------------------------------
    def sensor_view(self) -> dict[str, str]:
        return {HOLES[i]: who for i, who in enumerate(self._gem) if who is not None}

    def lights(self) -> Lights:
        """Open holes the mover may fill, owned cells per player, the last placed hole.

        After a swap the last hole is the swapped one. The swap itself is not among the
        legal holes: it is the last hole, already lit as such.
        """
        over = self._winner is not None
        legal = () if over else (HOLES[i] for i, who in enumerate(self._gem) if who is None)
        last = ()
        if self.move_stack:
            move = self.move_stack[-1]
            last = (self.move_stack[0].name if move == SWAP else move.name,)
        return Lights.build(None if over else self.turn, legal=legal,
                            owned={p: self.owned(p) for p in ("b", "w")}, last=last)

    def ascii(self) -> str:
        """The hole diagram of docs/rules.md (ConHex) with gems: ``X`` b, ``O`` w, ``o`` an
        open hole."""
        marks = {None: "o", "b": "X", "w": "O"}
        lines = []
        for row in range(SIZE, 0, -1):
            points = []
            for column in range(1, SIZE + 1):
                index = HOLE_INDEX.get(grid_name(column, row))
                points.append("." if index is None else marks[self._gem[index]])
            lines.append(f"{row:>2}  " + " ".join(points))
        lines.append("    " + " ".join(COLUMNS))
        for player in ("b", "w"):
            cells = sorted(int(c) for c in self.owned(player))
            lines.append(f"{player} cells: " + (" ".join(map(str, cells)) or "-"))
        lines.append(f"winner: {self._winner}" if self._winner else f"to move: {self.turn}")
        return "\n".join(lines)

    # --- copying ----------------------------------------------------------------------
    def copy(self) -> "ConHexBoard":
        clone = type(self)(**self._options)
        self._copy_history(clone)
        clone._gem = list(self._gem)
        clone._open = list(self._open)
        clone._count = {p: list(c) for p, c in self._count.items()}
        clone._owner = list(self._owner)
        clone._parent, clone._size = list(self._parent), list(self._size)
        clone._joins = list(self._joins)
        clone._undo_log = [(list(claimed), before) for claimed, before in self._undo_log]
        clone._winner = self._winner
        clone._units, clone._owned = dict(self._units), dict(self._owned)
        return clone


_AREAS = MappingProxyType({str(cell.number): frozenset(HOLES[h] for h in cell.holes)
                           for cell in CELLS})

__all__ = ["ConHexBoard", "HANDICAPS", "Move", "PLACEMENTS", "SWAP", "player_at"]
