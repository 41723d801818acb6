"""ConHex's random playout as one fill of the board, worked out without playing it.

A random playout places gems in the open holes in a random order, the players taking
turns, until a chain wins. Its winner follows from the order without placing gems one
by one, because of three facts:

- Filled to the last hole, every cell is owned: at least half of its holes hold the
  gems of one player (2 of 3, 3 of 6, 3 of 5).
- A cell goes to the first player to hold half of its holes and stays theirs, so the
  owners of the full board are the owners at every earlier moment for each cell claimed
  by then. Only an inner cell split 3 to 3 asks when: it went to the player who did not
  fill its last hole (that gem gave the other player their third).
- As in Hex, no more than three cells meet at a hole, so on the full board exactly one
  player joins their sides (the tests check this against the game played move by move).
  Their chain was complete the moment it was first complete: they are the winner.

So a playout is a sort of the open holes by random keys, two sums over per-hole tables
of cell counts packed into one int (four bits a cell, biased so that a cell's top bit is
set once its player holds half of it), one walk back through the order for the 3-3
cells, and one flood over the first player's cells.
"""

from __future__ import annotations

from engines.conhex.geometry import CELLS, CELLS_OF_HOLE, HOLES, NEIGHBOURS, SIDES

_WIDTH = 4
#: Hole -> one unit in the count field of each cell it belongs to.
UNITS = tuple(sum(1 << (_WIDTH * cell) for cell in CELLS_OF_HOLE[hole])
              for hole in range(len(HOLES)))
#: Added to the packed counts so that a cell's top bit is set at its threshold.
BIAS = sum((8 - cell.threshold) << (_WIDTH * cell.number) for cell in CELLS)
#: The top bit of every cell's field.
TOPS = sum(8 << (_WIDTH * cell.number) for cell in CELLS)


def cell_bit(cell: int) -> int:
    """Cell ``cell``'s top bit: cells as sets are masks of these."""
    return 8 << (_WIDTH * cell)


#: Top bit's length -> its cell, for reading cells back out of a mask.
CELL_OF_LENGTH = {cell_bit(c.number).bit_length(): c.number for c in CELLS}
#: Hole -> the cells it belongs to, as a mask.
HOLE_CELLS = tuple(sum(cell_bit(c) for c in CELLS_OF_HOLE[hole]) for hole in range(len(HOLES)))
#: Cell -> the cells sharing a hole with it, as a mask.
NEIGHBOUR_BITS = tuple(sum(cell_bit(n) for n in NEIGHBOURS[c.number]) for c in CELLS)
SIDE_BITS = {side: sum(cell_bit(c) for c in cells) for side, cells in SIDES.items()}


def reached(units: int) -> int:
    """The cells whose count in ``units`` (packed counts) has reached the threshold."""
    return (units + BIAS) & TOPS


def joins(cells: int, start: int, end: int) -> bool:
    """Whether ``cells`` hold a chain from a cell in ``start`` to one in ``end``."""
    reach = frontier = cells & start
    while frontier:
        if reach & end:
            return True
        low = frontier & -frontier
        frontier ^= low
        new = NEIGHBOUR_BITS[CELL_OF_LENGTH[low.bit_length()]] & cells & ~reach
        reach |= new
        frontier |= new
    return False


def fill_owners(order: list[int], holes_b: list[int], holes_w: list[int],
                units: dict[str, int], owned: dict[str, int]) -> int:
    """The cells ``b`` owns once the open holes are filled in ``order``, ``holes_b``
    by ``b`` and ``holes_w`` by ``w``, from the packed counts ``units`` and the cells
    ``owned`` now (as masks of :func:`cell_bit`)."""
    units_b = units["b"] + sum(map(UNITS.__getitem__, holes_b))
    units_w = units["w"] + sum(map(UNITS.__getitem__, holes_w))
    taken = owned["b"] | owned["w"]
    reached_b, reached_w = reached(units_b) & ~taken, reached(units_w) & ~taken
    cells_b = owned["b"] | (reached_b & ~reached_w)
    split = reached_b & reached_w
    if split:
        # The last hole filled of each split cell, found walking the order backwards:
        # that gem gave its player their third, so the cell went to the other player.
        by_w = set(holes_w)
        for hole in reversed(order):
            cells = HOLE_CELLS[hole] & split
            if cells:
                if hole in by_w:
                    cells_b |= cells
                split ^= cells
                if not split:
                    break
    return cells_b
