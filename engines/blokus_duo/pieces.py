"""Blokus Duo's geometry: the 14x14 board as bits of a Python int, the 21 pieces read
from ``pieces.txt``, their orientations and every placement on the empty board.

The board. Square ``(x, y)`` (column ``x`` from 0 at ``a``, row ``y`` from 0 at row 1,
so ``a1`` is the lower left as Pentobi has it) is bit ``y * 15 + x``: each row has one
spare bit on its right that no square uses, so a whole set of squares shifts one step in
any of the eight directions with one shift and one mask, without wrapping from one row's
end into the next row (:func:`edges`, :func:`corners`).

The pieces. ``pieces.txt`` draws each piece once; turning and flipping every drawing
gives its distinct orientations, 91 in all. A placement is one orientation at one
place on the board: 13,729 on the empty board, counted as distinct (piece, squares)
pairs, so a symmetric piece's orientations that cover the same squares count once.

A move is a :class:`Placement`: the piece's name and its squares as a mask. Its text is
Pentobi's, the squares' names joined by commas, bottom row first and left to right in a
row (``f9,e10,f10,g10,f11``); any order reads back to the same placement.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources

from engines.bits import indices, mask_of

SIDE = 14
STRIDE = SIDE + 1
COLUMNS = "abcdefghijklmn"
#: Every square of the board.
BOARD = sum(1 << (y * STRIDE + x) for y in range(SIDE) for x in range(SIDE))
#: Bit index -> square name, for the squares of the board.
NAMES: dict[int, str] = {y * STRIDE + x: f"{COLUMNS[x]}{y + 1}"
                         for y in range(SIDE) for x in range(SIDE)}
#: Square name -> bit index.
INDEX: dict[str, int] = {name: index for index, name in NAMES.items()}
#: The squares in a stable order: row 1 from a to n, then row 2, and so on.
SQUARES: tuple[str, ...] = tuple(NAMES[i] for i in sorted(NAMES))


def bit(name: str) -> int:
    """The mask of one square, by name."""
    return 1 << INDEX[name]


def names(mask: int) -> list[str]:
    """The squares of ``mask`` by name, in Pentobi's order (bottom row first)."""
    return [NAMES[i] for i in indices(mask)]


def edges(mask: int) -> int:
    """The squares sharing an edge with a square of ``mask`` (``mask`` itself left in)."""
    return ((mask << 1) | (mask >> 1) | (mask << STRIDE) | (mask >> STRIDE)) & BOARD


def corners(mask: int) -> int:
    """The squares touching a square of ``mask`` only diagonally: its corner squares,
    less those that touch it along an edge or are part of it."""
    diagonal = ((mask << (STRIDE + 1)) | (mask << (STRIDE - 1)) | (mask >> (STRIDE - 1))
                | (mask >> (STRIDE + 1))) & BOARD
    return diagonal & ~edges(mask) & ~mask


def turned(mask: int) -> int:
    """``mask`` turned by 180 degrees about the board's centre (``a1`` <-> ``n14``)."""
    last = (SIDE - 1) * STRIDE + SIDE - 1
    out = 0
    for index in indices(mask):
        out |= 1 << (last - index)
    return out


# --- the pieces -----------------------------------------------------------------------

@dataclass(frozen=True)
class Piece:
    """One piece: its name, its number of squares and its distinct orientations, each a
    tuple of ``(x, y)`` offsets with the lowest ``x`` and ``y`` at 0."""

    name: str
    size: int
    orientations: tuple[tuple[tuple[int, int], ...], ...]


def _normal(cells) -> tuple[tuple[int, int], ...]:
    low_x = min(x for x, _ in cells)
    low_y = min(y for _, y in cells)
    return tuple(sorted((x - low_x, y - low_y) for x, y in cells))


def orientations(cells) -> tuple[tuple[tuple[int, int], ...], ...]:
    """The distinct orientations of a shape: its four turns, flipped and not."""
    seen = set()
    for flip in (1, -1):
        for turn in range(4):
            shape = [(flip * x, y) for x, y in cells]
            for _ in range(turn):
                shape = [(-y, x) for x, y in shape]
            seen.add(_normal(shape))
    return tuple(sorted(seen))


def _read_pieces() -> tuple[Piece, ...]:
    text = resources.files("engines.blokus_duo").joinpath("pieces.txt").read_text("utf-8")
    pieces = []
    for line in text.splitlines():
        line = line.split("#", 1)[0] if line.startswith("#") else line
        if not line.strip():
            continue
        name, drawing = line.split()
        rows = drawing.split("/")
        cells = [(x, len(rows) - 1 - r) for r, row in enumerate(rows)
                 for x, mark in enumerate(row) if mark == "#"]
        pieces.append(Piece(name, len(cells), orientations(cells)))
    return tuple(pieces)


PIECES: tuple[Piece, ...] = _read_pieces()
#: Piece name -> its number in :data:`PIECES`.
PIECE_INDEX: dict[str, int] = {piece.name: number for number, piece in enumerate(PIECES)}
#: Every piece, as a bit set over piece numbers.
ALL_PIECES = (1 << len(PIECES)) - 1


@dataclass(frozen=True, slots=True)
class Placement:
    """A piece on the board: the piece's ``name`` and its squares as a ``mask``.

    Equal placements are the same move; the text is Pentobi's (``f9,e10,f10,g10,f11``).
    """

    piece: str
    mask: int
    text: str = field(compare=False, repr=False, default="")

    def __str__(self) -> str:
        return self.text or ",".join(names(self.mask))

    @property
    def squares(self) -> tuple[str, ...]:
        """The squares by name, in Pentobi's order."""
        return tuple(names(self.mask))

    @property
    def number(self) -> int:
        """The piece's number in :data:`PIECES`."""
        return PIECE_INDEX[self.piece]


def _placements() -> tuple[Placement, ...]:
    out = []
    for piece in PIECES:
        for shape in piece.orientations:
            width = max(x for x, _ in shape) + 1
            height = max(y for _, y in shape) + 1
            base = mask_of(y * STRIDE + x for x, y in shape)
            for oy in range(SIDE - height + 1):
                for ox in range(SIDE - width + 1):
                    mask = base << (oy * STRIDE + ox)
                    out.append(Placement(piece.name, mask, ",".join(names(mask))))
    return tuple(out)


#: Every placement of every piece on the empty board (13,729).
PLACEMENTS: tuple[Placement, ...] = _placements()
#: Squares -> the placement covering exactly them.
BY_MASK: dict[int, Placement] = {placement.mask: placement for placement in PLACEMENTS}
#: ``COVERING[square][piece]``: the placements of that piece covering that square, as
#: ``(mask, placement)`` pairs, for growing moves from one square.
COVERING: dict[int, tuple[tuple[tuple[int, Placement], ...], ...]] = {}


def _covering() -> None:
    lists = {index: [[] for _ in PIECES] for index in NAMES}
    for placement in PLACEMENTS:
        number = PIECE_INDEX[placement.piece]
        for index in indices(placement.mask):
            lists[index][number].append((placement.mask, placement))
    for index, by_piece in lists.items():
        COVERING[index] = tuple(tuple(pairs) for pairs in by_piece)


_covering()

__all__ = ["ALL_PIECES", "BOARD", "BY_MASK", "COLUMNS", "COVERING", "INDEX", "NAMES",
           "PIECES", "PIECE_INDEX", "PLACEMENTS", "Piece", "Placement", "SIDE", "SQUARES",
           "STRIDE", "bit", "corners", "edges", "names", "orientations", "turned"]
