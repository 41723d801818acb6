"""The ConHex board as data: 69 holes, 41 cells, four sides, and what follows from them.

The cell table is read from ``cells.txt`` (each cell's holes, on the hole diagram of
docs/rules.md's ConHex section); everything else is derived, never typed in: the holes,
each cell's claim threshold, which cells a hole influences, and which cells touch (they
share a hole). Holes and cells are plain
indices here so the board's hot path works on small lists; names exist for people.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType

COLUMNS = "abcdefghijk"
SIZE = len(COLUMNS)
#: The sides each player joins: ``b`` (first) top to bottom, ``w`` left to right.
PLAYER_SIDES = MappingProxyType({"b": ("N", "S"), "w": ("W", "E")})

_HOLE_NAME = re.compile(r"([a-k])(1[01]|[1-9])")


def grid_point(name: str) -> tuple[int, int] | None:
    """``(column, row)`` from 1 for a grid point name like ``j3``, else ``None``."""
    match = _HOLE_NAME.fullmatch(name)
    if match is None:
        return None
    return COLUMNS.index(match[1]) + 1, int(match[2])


def grid_name(column: int, row: int) -> str:
    return f"{COLUMNS[column - 1]}{row}"


@dataclass(frozen=True)
class Cell:
    """One cell: its number, its holes (as indices into :data:`HOLES`) and its sides."""

    number: int
    holes: tuple[int, ...]
    sides: frozenset[str]

    @property
    def threshold(self) -> int:
        """Gems needed to claim: half the holes, rounded up (2 of 3, 3 of 6, 3 of 5)."""
        return (len(self.holes) + 1) // 2

    @property
    def kind(self) -> str:
        return {3: "edge", 6: "inner", 5: "centre"}[len(self.holes)]


def _read_table() -> list[tuple[int, list[str], list[str]]]:
    text = resources.files(__package__).joinpath("cells.txt").read_text(encoding="utf-8")
    rows = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        number, _, rest = line.partition(":")
        holes, _, sides = rest.partition("|")
        rows.append((int(number), holes.split(), sides.split()))
    return rows


def _build():
    table = _read_table()
    names = {name for _, holes, _ in table for name in holes}
    for name in names:
        if grid_point(name) is None:
            raise ValueError(f"cells.txt: {name!r} is not a point of the 11x11 grid")
    # Top row first, left to right: the order sensors and LEDs are listed in.
    holes = tuple(sorted(names, key=lambda n: (-grid_point(n)[1], grid_point(n)[0])))
    index = {name: i for i, name in enumerate(holes)}
    cells = tuple(Cell(number, tuple(index[n] for n in cell_holes), frozenset(sides))
                  for number, cell_holes, sides in sorted(table))
    cells_of_hole = tuple(tuple(c.number for c in cells if h in c.holes)
                          for h in range(len(holes)))
    neighbours = tuple(
        tuple(sorted({other for h in cell.holes for other in cells_of_hole[h]} - {cell.number}))
        for cell in cells)
    return holes, MappingProxyType(index), cells, cells_of_hole, neighbours


#: Every hole name, top row first, left to right.
#: ``HOLE_INDEX`` maps a name to its index; ``CELLS[n]`` is cell ``n``;
#: ``CELLS_OF_HOLE[h]`` the cells hole ``h`` influences; ``NEIGHBOURS[n]`` the cells
#: sharing a hole with cell ``n``.
HOLES, HOLE_INDEX, CELLS, CELLS_OF_HOLE, NEIGHBOURS = _build()

#: Side name -> the cells on that side.
SIDES = MappingProxyType({side: frozenset(c.number for c in CELLS if side in c.sides)
                          for side in ("N", "E", "S", "W")})


def mirror(name: str) -> str:
    """The hole mirrored in the a1-k11 diagonal (``j3`` <-> ``c10``), as Little Golem's
    swap writes it. The mirror maps N to E and S to W, so it turns one player's goal into
    the other's."""
    column, row = grid_point(name)
    return grid_name(row, column)
