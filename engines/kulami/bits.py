"""Kulami's layout as bits of Python ints, for the board's hot path and for playouts.

Field ``(x, y)`` is bit ``y * stride + x`` with ``stride = width + 1``: each row keeps one
spare bit on its right that no field uses, so a set of fields shifts one step along a
row, a column or a diagonal with one shift and never wraps from one row's end into the
next row. Then the move rule is three ``&`` (the row and column of the last marble, the
empty fields, not the last two panels) and the scoring levels are shifts and popcounts:
the same figures as :mod:`engines.kulami.scoring`, which stays the readable statement of
the rules (the tests hold the two together).

A :class:`Geometry` is built once per layout (:func:`geometry_of`) and shared by every
board of that layout, so that a new board costs nothing to make.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engines.bits import mask_of

if TYPE_CHECKING:
    from engines.kulami.layout import Layout


@dataclass(frozen=True, eq=False)
class Geometry:
    """One layout's fields, lines and panels as masks, indexed by bit position."""

    layout: Layout
    stride: int
    #: Every field.
    fields: int
    #: Bit -> its field ``(x, y)``, and the reverse.
    field_at: dict[int, tuple[int, int]]
    bit_at: dict[tuple[int, int], int]
    #: Bit -> the other fields of its row and column (0 for a bit that is no field).
    line: tuple[int, ...]
    #: Bit -> the fields of its panel (0 for a bit that is no field).
    panel: tuple[int, ...]
    #: Every panel as ``(letter, mask, fields)``, in letter order.
    panels: tuple[tuple[str, int, int], ...]

    # --- scoring on masks, as scoring.py states it on dictionaries ------------------
    def panel_points(self, own_b: int, own_w: int) -> tuple[int, int]:
        """Each panel scores its fields for the colour with more marbles on it."""
        points_b = points_w = 0
        for _, mask, size in self.panels:
            on_b, on_w = (own_b & mask).bit_count(), (own_w & mask).bit_count()
            if on_b > on_w:
                points_b += size
            elif on_w > on_b:
                points_w += size
        return points_b, points_w

    def largest_area(self, own: int) -> int:
        """The size of the largest orthogonally connected group in ``own``."""
        stride, best = self.stride, 0
        while own.bit_count() > best:
            group = own & -own
            while True:
                grown = (group | group << 1 | group >> 1 | group << stride
                         | group >> stride) & own
                if grown == group:
                    break
                group = grown
            best = max(best, group.bit_count())
            own &= ~group
        return best

    def chain_length(self, own: int, diagonal_only: bool) -> int:
        """The summed length of every maximal line of five or more in ``own``: per
        direction, the fields covered by some five in a row."""
        stride = self.stride
        steps = (stride + 1, stride - 1) if diagonal_only else (1, stride, stride + 1,
                                                                 stride - 1)
        total = 0
        for step in steps:
            starts = own & own >> step & own >> 2 * step & own >> 3 * step & own >> 4 * step
            if starts:
                total += (starts | starts << step | starts << 2 * step | starts << 3 * step
                          | starts << 4 * step).bit_count()
        return total

    def score(self, own_b: int, own_w: int, level: int, chain_lines: str) -> tuple[int, int]:
        """The score at scoring ``level``, as :func:`engines.kulami.scoring.score`."""
        points_b, points_w = self.panel_points(own_b, own_w)
        if level >= 1:
            area_b, area_w = self.largest_area(own_b), self.largest_area(own_w)
            points_b += max(0, area_b - area_w)
            points_w += max(0, area_w - area_b)
        if level >= 2:
            diagonal = chain_lines == "diagonal"
            chain_b = self.chain_length(own_b, diagonal)
            chain_w = self.chain_length(own_w, diagonal)
            points_b += max(0, chain_b - chain_w)
            points_w += max(0, chain_w - chain_b)
        return points_b, points_w


#: Each layout's geometry by the layout's text, built once: layouts of one text are
#: the same layout (``resolve`` even hands out the same object).
_BUILT: dict[str, Geometry] = {}


def geometry_of(layout: Layout) -> Geometry:
    """The geometry of ``layout``, built on first use and shared from then on."""
    text = layout.text()
    if text not in _BUILT:
        _BUILT[text] = build(layout)
    return _BUILT[text]


def build(layout: Layout) -> Geometry:
    """The geometry of ``layout``, worked out afresh (:func:`geometry_of` keeps it)."""
    stride = layout.width + 1
    bit_at = {(x, y): y * stride + x for x, y in layout.fields}
    size = stride * layout.height
    line, panel = [0] * size, [0] * size
    panels = []
    for letter, fields in layout.panels.items():
        mask = mask_of(bit_at[f] for f in fields)
        panels.append((letter, mask, len(fields)))
        for f in fields:
            panel[bit_at[f]] = mask
    for (x, y), index in bit_at.items():
        line[index] = mask_of(bit for (fx, fy), bit in bit_at.items()
                              if (fx == x or fy == y) and bit != index)
    return Geometry(layout, stride, mask_of(bit_at.values()),
                    {bit: f for f, bit in bit_at.items()}, bit_at, tuple(line),
                    tuple(panel), tuple(panels))
