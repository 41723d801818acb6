"""A stand-in game for the sensing benchmark: small polyominoes on a 14x14 board.

The sensing pipeline's cost must not grow with the number of legal moves, and the
worst case the table will meet is Blokus Duo: 196 holes and over a thousand placements
in a position. Until that engine exists this game stands in for it: each turn a player
puts a monomino, a domino or a tromino (straight or bent, any orientation) on empty
squares, so an open board has 1,572 legal placements. It implements the board protocol
as a real engine would, with ``moves_sensed_at`` answered by the rule (the placements
covering one square), which is what keeps inference fast.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any

from engines.core import PLAYERS, Board, InvalidMoveError, Lights, Outcome

SIDE = 14
COLUMNS = "abcdefghijklmn"
#: Every orientation of every piece, as (dx, dy) offsets.
SHAPES = (((0, 0),), ((0, 0), (1, 0)), ((0, 0), (0, 1)),
          ((0, 0), (1, 0), (2, 0)), ((0, 0), (0, 1), (0, 2)),
          ((0, 0), (1, 0), (0, 1)), ((0, 0), (1, 0), (1, 1)),
          ((0, 0), (0, 1), (1, 1)), ((1, 0), (0, 1), (1, 1)))


def name(x: int, y: int) -> str:
    return f"{COLUMNS[x]}{y + 1}"


class Placement(frozenset):
    """A piece's squares as (x, y) pairs; text is the squares in notation, ``a1,b1``."""

    def __str__(self) -> str:
        return ",".join(name(x, y) for x, y in sorted(self))


class PolyominoBoard(Board):
    game = "polyominoes"

    def __init__(self) -> None:
        super().__init__()
        self.owner: dict[tuple[int, int], str] = {}

    @property
    def options(self) -> Mapping[str, Any]:
        return MappingProxyType({})

    @property
    def holes(self) -> tuple[str, ...]:
        return tuple(name(x, y) for y in range(SIDE) for x in range(SIDE))

    def parse_notation(self, text: str) -> Placement:
        squares = []
        for part in text.split(","):
            part = part.strip().lower()
            if len(part) < 2 or part[0] not in COLUMNS or not part[1:].isdigit():
                raise InvalidMoveError(f"{part!r} is not a square a1-n14")
            squares.append((COLUMNS.index(part[0]), int(part[1:]) - 1))
        return Placement(squares)

    def _fits(self, squares) -> bool:
        return all(0 <= x < SIDE and 0 <= y < SIDE and (x, y) not in self.owner
                   for x, y in squares)

    def generate_legal_moves(self, player: str) -> Iterator[Placement]:
        for shape in SHAPES:
            for y in range(SIDE):
                for x in range(SIDE):
                    squares = [(x + dx, y + dy) for dx, dy in shape]
                    if self._fits(squares):
                        yield Placement(squares)

    def is_legal(self, move) -> bool:
        return isinstance(move, Placement) and self._fits(move) and _normal(move) in _PIECES

    def moves_sensed_at(self, hole: str) -> Iterator[Placement]:
        """The placements covering ``hole``: each shape anchored so a square lands there."""
        (x, y), = self.parse_notation(hole)
        for shape in SHAPES:
            for dx, dy in shape:
                squares = [(x - dx + sx, y - dy + sy) for sx, sy in shape]
                if self._fits(squares):
                    yield Placement(squares)

    def _apply(self, move: Placement) -> None:
        for square in move:
            self.owner[square] = self.turn

    def _undo(self, move: Placement) -> None:
        for square in move:
            del self.owner[square]

    def outcome(self) -> Outcome | None:
        return None

    def scores(self) -> dict[str, int]:
        return {p: sum(1 for o in self.owner.values() if o == p) for p in PLAYERS}

    def sensor_view(self) -> dict[str, str]:
        return {name(x, y): p for (x, y), p in self.owner.items()}

    def lights(self) -> Lights:
        last = str(self.move_stack[-1]).split(",") if self.move_stack else ()
        return Lights.build(self.turn, last=last)

    def ascii(self) -> str:
        return "\n".join("".join(self.owner.get((x, y), ".") for x in range(SIDE))
                         for y in reversed(range(SIDE)))

    def copy(self) -> "PolyominoBoard":
        clone = PolyominoBoard()
        clone.owner = dict(self.owner)
        self._copy_history(clone)
        return clone


_PIECES = frozenset(frozenset(shape) for shape in SHAPES)


def _normal(move: Placement) -> frozenset:
    """A placement moved to the origin, to compare with the shapes."""
    left, bottom = min(x for x, _ in move), min(y for _, y in move)
    return frozenset((x - left, y - bottom) for x, y in move)
