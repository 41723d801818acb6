"""Akron's connection distance over the whole pyramid, as the search's policy reads it,
and the win, as the board checks it at every node of the search.

A player's distance is how many more balls they need, at the least, for a visible chain
between their two sides: a path of points, each touching the next as balls touch
(beside on one level, a contact no overpass cuts; or one resting on the other), from a
hole on one side to a hole on the other. Along it a point costs

- nothing when it holds the player's ball that nothing covers;
- one when it is empty and a ball may be put there now (an empty hole, or a point above
  the board on four balls), or holds the player's ball covered by their own (that ball
  above may move away);
- no path at all when it holds the opponent's ball, the player's ball covered by the
  opponent's, or is empty and not yet playable.

Unlike the distance on the holes alone it sees what happens above the board: a level-2
ball bridging two holes diagonally apart, an overpass that cuts a contact, a ball
covered.

The search asks for both at every leaf, so they work on whole sets of points at once:
each level is laid out on a 16x16 grid of bits (the doubled 15x15 grid and a spare row
and column that no point uses), ``level * 256 + y * 16 + x``, so that every contact is
one shift: two columns across, two rows across, and one level up or down diagonally. A
ball's four contacts beside it can be cut, so those shifts leave out the cut ones; the
rows and columns that a shift carries across the grid's edge land on bits no point uses,
so masking with the points wanted keeps a shift exact. The distance then grows the set
of points reached layer by layer: at no cost through the player's balls, one more for
each layer of empty points.
"""

from __future__ import annotations

from engines.akron.geometry import COUNT, EDGES, LEVELS, PLAYER_SIDES, POINTS, points_of
from engines.bits import mask_of

#: No path: more than any path's cost.
WALL = 1 << 20

#: Bits per row of a level's grid, and per level.
ROW, FLOOR = 16, 256
#: Each point's bit in the grid layout.
GRID_BIT = tuple(1 << (level * FLOOR + y * ROW + x) for level, x, y in POINTS)
#: Every point of the pyramid, and the holes, in the grid layout.
ALL = sum(GRID_BIT)
HOLES = sum(GRID_BIT[point] for point in range(COUNT) if POINTS[point][0] == 0)
#: Each side's holes in the grid layout.
SIDE_GRID = {side: sum(GRID_BIT[point] for point in points_of(mask))
             for side, mask in EDGES.items()}
_SIDES = {player: (SIDE_GRID[a], SIDE_GRID[b]) for player, (a, b) in PLAYER_SIDES.items()}

# The board's masks (a bit per point index, level by level and row by row) turn into the
# grid layout two rows at a time: each index row of a level is a run of bits, spread to
# every other bit of its grid row.
_SPREAD = tuple(sum(1 << (2 * i) for i in range(8) if value >> i & 1) for value in range(256))
_ROWS: list[tuple[int, int, int, int]] = []  # (index shift, width mask, grid shift, width)
for _level in range(LEVELS):
    _width = 8 - _level
    for _row in range(_width):
        _first = next(i for i, (level, x, y) in enumerate(POINTS)
                      if level == _level and y == _level + 2 * _row)
        _ROWS.append((_first, (1 << _width) - 1,
                      _level * FLOOR + (_level + 2 * _row) * ROW + _level, _level))
#: Per level: the index shift and mask of its points, and its rows.
_LEVEL_ROWS = []
for _level in range(LEVELS):
    rows = [row for row in _ROWS if row[3] == _level]
    first = rows[0][0]
    _LEVEL_ROWS.append((first, (1 << (8 - _level) ** 2) - 1,
                        tuple((shift - first, mask, grid) for shift, mask, grid, _ in rows)))
_LEVEL_ROWS = tuple(_LEVEL_ROWS)


def to_grid(mask: int) -> int:
    """A set of points (a bit per point index) in the grid layout."""
    grid = 0
    for first, level_mask, rows in _LEVEL_ROWS:
        level = mask >> first & level_mask
        if not level:
            continue
        for shift, row_mask, at in rows:
            bits = level >> shift & row_mask
            if bits:
                grid |= _SPREAD[bits] << at
    return grid


def from_grid(grid: int) -> int:
    """A set of points in the grid layout as a bit per point index."""
    return mask_of(point for point in range(COUNT) if grid & GRID_BIT[point])


# Shifts, in the grid layout, from a point to the ball that covers it (two levels
# straight up), and from a contact's near end to the two bridges over it (one level up,
# either side of the midpoint): for a contact to the next ball on the right, and to the
# next ball up the rows.
_OVER = 2 * FLOOR
_RIGHT_BRIDGES = (FLOOR + 1 - ROW, FLOOR + 1 + ROW)
_UP_BRIDGES = (FLOOR + ROW - 1, FLOOR + ROW + 1)


class Layout:
    """One position in the grid layout: the balls, what covers and cuts them, and which
    empty points are playable, shared by both players' distances."""

    __slots__ = ("own", "occupied", "covered", "playable", "right", "left", "up",
                 "down")

    def __init__(self, b: int, w: int) -> None:
        self.own = {"b": to_grid(b), "w": to_grid(w)}
        occupied = self.own["b"] | self.own["w"]
        self.occupied = occupied
        self.covered = occupied & (occupied >> _OVER)
        # A point above the board is playable on four filled points: those below it
        # are at (x +- 1, y +- 1) one level down.
        pairs = occupied & (occupied >> 2)
        fours = pairs & (pairs >> (2 * ROW))
        self.playable = (HOLES | (fours << (FLOOR + ROW + 1))) & ALL & ~occupied
        # The contacts beside a ball that two bridges over them cut, kept at the near
        # end (the left and the lower ball of each pair).
        cut_right = (occupied >> _RIGHT_BRIDGES[0]) & (occupied >> _RIGHT_BRIDGES[1])
        cut_up = (occupied >> _UP_BRIDGES[0]) & (occupied >> _UP_BRIDGES[1])
        self.right = ALL & ~cut_right
        self.left = ALL & ~(cut_right << 2)
        self.up = ALL & ~cut_up
        self.down = ALL & ~(cut_up << (2 * ROW))

    def touching(self, points: int) -> int:
        """The points that touch some point of ``points`` (as balls would), themselves
        possibly included; the contacts cut now left out."""
        up_down = (points << 1) | (points >> 1)
        up_down = (up_down << ROW) | (up_down >> ROW)
        return (((points & self.right) << 2) | ((points & self.left) >> 2)
                | ((points & self.up) << (2 * ROW)) | ((points & self.down) >> (2 * ROW))
                | (up_down << FLOOR) | (up_down >> FLOOR))

    def costs(self, player: str) -> tuple[int, int]:
        """The points that cost ``player`` nothing and those that cost one (see the
        module), as two grid masks."""
        own = self.own[player]
        covered = self.covered
        free = own & ~covered
        # A ball covered by the player's own ball two levels up.
        one = self.playable | (own & covered & (own >> _OVER))
        return free, one

    def _closure(self, reach: int, new: int, free: int) -> int:
        while new:
            new = self.touching(new) & free & ~reach
            reach |= new
        return reach

    def joins(self, player: str) -> bool:
        """Whether ``player``'s visible balls join their two sides now (the win)."""
        free = self.own[player] & ~self.covered
        start, end = _SIDES[player]
        return bool(self._closure(start & free, start & free, free) & end)

    def distance(self, player: str) -> int:
        """``player``'s connection distance (``WALL``: no path)."""
        free, one = self.costs(player)
        start, end = _SIDES[player]
        reach = self._closure(start & free, start & free, free)
        layer = reach
        cost = 0
        while not reach & end:
            new = (self.touching(layer) | (start if cost == 0 else 0)) & one & ~reach
            if not new:
                return WALL
            cost += 1
            grown = self._closure(reach | new, new, free)
            layer, reach = grown & ~reach, grown
        return cost

    def layers(self, player: str, start: int, free: int, one: int) -> list[int]:
        """The points reached from ``start`` at each cost: the ``k``-th set holds every
        point whose least cost from ``start``, itself included, is at most ``k``."""
        reach = self._closure(start & free, start & free, free)
        found = [reach]
        layer = reach
        while True:
            new = (self.touching(layer) | (start if len(found) == 1 else 0)) & one & ~reach
            if not new:
                return found
            grown = self._closure(reach | new, new, free)
            layer, reach = grown & ~reach, grown
            found.append(reach)

    def shortest(self, player: str) -> tuple[int, int]:
        """``player``'s distance and the points on their shortest paths (a grid mask;
        none when no path joins their sides)."""
        free, one = self.costs(player)
        start, end = _SIDES[player]
        from_start = self.layers(player, start, free, one)
        best = next((cost for cost, reach in enumerate(from_start) if reach & end), WALL)
        if best == WALL:
            return WALL, 0
        from_end = self.layers(player, end, free, one)
        last = len(from_end) - 1
        on_path = 0
        for cost in range(best + 1):
            exact = from_start[cost] & ~(from_start[cost - 1] if cost else 0)
            # A point costing nothing lies on a shortest path when the costs from the two
            # sides add up to the least; a point costing one is counted on both sides.
            on_path |= exact & free & from_end[min(best - cost, last)]
            on_path |= exact & one & from_end[min(best + 1 - cost, last)]
        return best, on_path


__all__ = ["ALL", "GRID_BIT", "HOLES", "Layout", "WALL", "from_grid", "to_grid"]
