"""Akron's square pyramid on the doubled 15x15 grid, as tables of bit masks.

A ball at level ``L`` (0 = the board holes) sits at grid point ``(x, y)`` with ``x`` and
``y`` both of the parity of ``L``, from ``L`` to ``14 - L``: 64 holes, then 49, 36, 25,
16, 9, 4 and 1 points above them, 204 in all. Every point has an index (holes first,
row by row from the bottom left), and a set of points is a Python int with bit ``i``
for point ``i``, so the rules work with ``&`` and ``|`` rather than loops over balls.

Names are AbstractPlay's: the level as a digit counted from 1, then the column letter
and row number on the 15x15 grid (``1a1`` is the bottom-left hole, ``2b2`` the ball
resting on the four holes around it, ``8h8`` the top of a full pyramid).

What this module knows is shape only, never whose balls are where:

- ``BELOW[i]``: the four points a ball at ``i`` rests on (none for a hole);
- ``ABOVE[i]``: the points that rest on ``i`` (up to four);
- ``OVER[i]``: the point straight two levels above ``i``, whose ball covers ``i``;
- ``SIDES[i]``: each same-level neighbour two grid steps away, with the two points one
  level up that bridge over that contact (an overpass cuts it when both are filled; a
  contact along the edge of a level has one such point, and :data:`NOWHERE` for the
  other, so it is never cut);
- ``HOLES_UNDER[i]``: the holes a point shows on, for LEDs that sit only under holes:
  the hole itself, the hole straight below an even level, the four holes around an odd
  level;
- ``EDGES``: the holes on each side of the board, which only level-0 balls touch.
"""

from __future__ import annotations

from types import MappingProxyType

from engines.bits import indices as points_of, mask_of

#: Board holes per side, and the doubled grid's size.
SIDE = 8
GRID = 2 * SIDE - 1
LEVELS = SIDE
COLUMNS = "abcdefghijklmno"

#: (level, x, y) of each point, holes first, then each level row by row from the bottom.
POINTS: tuple[tuple[int, int, int], ...] = tuple(
    (level, x, y)
    for level in range(LEVELS)
    for y in range(level, GRID - level, 2)
    for x in range(level, GRID - level, 2))
AT: dict[tuple[int, int, int], int] = {point: i for i, point in enumerate(POINTS)}
COUNT = len(POINTS)
LEVEL = tuple(level for level, _, _ in POINTS)
NAMES = tuple(f"{level + 1}{COLUMNS[x]}{y + 1}" for level, x, y in POINTS)
INDEX = MappingProxyType({name: i for i, name in enumerate(NAMES)})
#: The board holes (level 0), in index order: what the sensors sit under.
HOLES = NAMES[:SIDE * SIDE]
HOLE_MASK = (1 << len(HOLES)) - 1


def bit(point: int) -> int:
    return 1 << point


def _mask(points) -> int:
    mask = 0
    for point in points:
        if point in AT:
            mask |= 1 << AT[point]
    return mask


_DIAGONALS = ((-1, -1), (1, -1), (-1, 1), (1, 1))
BELOW = tuple(0 if level == 0 else _mask((level - 1, x + dx, y + dy) for dx, dy in _DIAGONALS)
              for level, x, y in POINTS)
ABOVE = tuple(_mask((level + 1, x + dx, y + dy) for dx, dy in _DIAGONALS)
              for level, x, y in POINTS)
OVER = tuple(_mask([(level + 2, x, y)]) for level, x, y in POINTS)
#: The point straight two levels below ``i`` (its ball is the one ``i`` covers), or -1.
UNDER = tuple(AT.get((level - 2, x, y), -1) for level, x, y in POINTS)


#: A bit for no point at all, never filled: the second bridge of a contact along the
#: edge of a level, which has only one point over it and so can never be cut.
NOWHERE = 1 << len(POINTS)


def _sides(level: int, x: int, y: int) -> tuple[tuple[int, int], ...]:
    found = []
    for dx, dy in ((2, 0), (-2, 0), (0, 2), (0, -2)):
        neighbour = AT.get((level, x + dx, y + dy))
        if neighbour is None:
            continue
        mx, my = x + dx // 2, y + dy // 2  # the midpoint of the contact
        across = ((mx, my - 1), (mx, my + 1)) if dx else ((mx - 1, my), (mx + 1, my))
        bridges = [(level + 1, ax, ay) for ax, ay in across]
        found.append((neighbour, _mask(bridges) | (0 if all(b in AT for b in bridges)
                                                   else NOWHERE)))
    return tuple(found)


SIDES = tuple(_sides(*point) for point in POINTS)
#: The same-level neighbours of each point, as one mask.
BESIDE = tuple(mask_of(neighbour for neighbour, _ in sides) for sides in SIDES)
#: The empty points where a new ball would touch a ball at ``i``: those resting on it
#: and those beside it. (Nothing rests on an empty point, so nothing can cut or cover
#: the new ball's contacts yet: it touches what it rests on and what is beside it.)
TOUCHING_AT = tuple(ABOVE[i] | BESIDE[i] for i in range(COUNT))


def _holes_under(level: int, x: int, y: int) -> frozenset[str]:
    if level % 2 == 0:
        return frozenset([NAMES[AT[(0, x, y)]]])
    return frozenset(NAMES[AT[(0, x + dx, y + dy)]] for dx, dy in _DIAGONALS)


HOLES_UNDER = tuple(_holes_under(*point) for point in POINTS)


def step_up(point: int, toward: int) -> int:
    """The point one level above ``toward`` on the diagonal from ``point`` through
    ``toward`` (``toward`` rests on ``point``), or -1 off the pyramid: where the next
    ball of a drop chain sits."""
    level, x, y = POINTS[point]
    up_level, ux, uy = POINTS[toward]
    return AT.get((up_level + 1, 2 * ux - x, 2 * uy - y), -1)


#: The holes on each side: south (row 1), north (row 15), west (a), east (o).
EDGES = MappingProxyType({
    "south": _mask((0, x, 0) for x in range(0, GRID, 2)),
    "north": _mask((0, x, GRID - 1) for x in range(0, GRID, 2)),
    "west": _mask((0, 0, y) for y in range(0, GRID, 2)),
    "east": _mask((0, GRID - 1, y) for y in range(0, GRID, 2)),
})
#: The two sides each player joins: ``b`` (white, first) south to north, ``w`` (red)
#: west to east. A corner hole lies on two sides and counts for both.
PLAYER_SIDES = MappingProxyType({"b": ("south", "north"), "w": ("west", "east")})


def parse_point(text: str) -> int:
    """The index of a point name (``1a1``, ``2b2``); ``ValueError`` saying what is wrong."""
    name = text.strip().lower()
    if name in INDEX:
        return INDEX[name]
    if len(name) < 3 or not name[0].isdigit() or name[1] not in COLUMNS \
            or not name[2:].isdigit():
        raise ValueError(f"{text.strip()!r} is not a point: a point is a level 1-8, a "
                         f"column a-o and a row 1-15 (1c3 is a hole, 2d4 the ball above "
                         f"c3, c5, e3 and e5)")
    level, y = int(name[0]) - 1, int(name[2:]) - 1
    if not 0 <= level < LEVELS or not 0 <= y < GRID:
        raise ValueError(f"{text.strip()!r} is off the pyramid: levels run 1-8, rows 1-15")
    raise ValueError(f"{text.strip()!r} is not on level {level + 1}: a level-{level + 1} "
                     f"point has an {'even' if level % 2 else 'odd'} column and row "
                     f"number from {level + 1} to {GRID - level}")


__all__ = ["ABOVE", "AT", "BELOW", "BESIDE", "COLUMNS", "COUNT", "EDGES", "GRID", "HOLES",
           "HOLES_UNDER", "HOLE_MASK", "INDEX", "LEVEL", "LEVELS", "NAMES", "NOWHERE", "OVER",
           "PLAYER_SIDES", "POINTS", "SIDE", "SIDES", "TOUCHING_AT", "UNDER",
           "bit", "parse_point", "points_of", "step_up"]
