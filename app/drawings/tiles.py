"""A drawing larger than the paper, cut into pages that tape back into it at 1:1.

The board drawing is printed at actual size to lay under the board while drilling, so
it cannot be shrunk to fit. A Kulami board (36 cm wide) or a ConHex board (31 cm) does
not fit the A3 the wiring guide names, so such a sheet is cut into pages of the paper's
size, turned whichever way needs fewer pages. Neighbouring pages overlap by
:data:`OVERLAP` mm, wider than a printer's unprinted edge; crosses drawn in that strip
land on both pages at the same place of the board, so a maker lays one over the other
until the crosses meet, and tapes.
"""

from __future__ import annotations

import math
from dataclasses import replace

from app.drawings.sheet import (GREY, INK, Circle, Group, Polygon, Polyline, Rect, Sheet,
                                Text)

#: Paper sizes (width, height) in mm, upright.
A3, A4 = (297.0, 420.0), (210.0, 297.0)
#: How far neighbouring pages share the drawing, in mm: a printer leaves 5 mm or so
#: blank at every edge, and the crosses sit in the middle of what is left.
OVERLAP = 20.0
#: The size of an alignment cross, and how far apart crosses are along a seam, in mm.
CROSS, CROSS_EVERY = 6.0, 60.0


def fits(sheet: Sheet, paper: tuple[float, float]) -> bool:
    """Whether ``sheet`` prints on one page of ``paper``, upright or turned."""
    short, long_ = sorted(paper)
    small, large = sorted((sheet.width, sheet.height))
    return small <= short and large <= long_


def tiles(sheet: Sheet, paper: tuple[float, float] = A3,
          overlap: float = OVERLAP) -> list[Sheet]:
    """``sheet`` as pages of ``paper`` (itself alone when it fits one), row by row."""
    if fits(sheet, paper):
        return [sheet]
    upright, turned = paper, paper[::-1]
    width, height = min((upright, turned), key=lambda size: _count(sheet, size, overlap))
    columns = _pages(sheet.width, width, overlap)
    rows = _pages(sheet.height, height, overlap)
    seams_x = [c * (width - overlap) for c in range(1, columns)]
    seams_y = [r * (height - overlap) for r in range(1, rows)]
    marks = Group("tile-marks", tuple(_crosses(sheet, seams_x, seams_y, overlap)))
    pages = []
    for row in range(rows):
        for column in range(columns):
            x0, y0 = column * (width - overlap), row * (height - overlap)
            number = row * columns + column + 1
            label = Text(width - 8, height - 8, f"{sheet.title}: page {number} of "
                         f"{rows * columns} (row {row + 1}, column {column + 1}); lay "
                         f"neighbours over each other until the crosses meet",
                         2.5, fill=GREY, anchor="end")
            groups = tuple(Group(g.kind, tuple(_moved(s, -x0, -y0) for s in g.shapes), g.data)
                           for g in (*sheet.groups, marks))
            pages.append(Sheet(f"{sheet.title} ({number}/{rows * columns})", width, height,
                               groups + (Group("tile-label", (label,)),)))
    return pages


def _pages(length: float, page: float, overlap: float) -> int:
    return max(1, math.ceil((length - overlap) / (page - overlap)))


def _count(sheet: Sheet, size: tuple[float, float], overlap: float) -> int:
    return _pages(sheet.width, size[0], overlap) * _pages(sheet.height, size[1], overlap)


def _crosses(sheet: Sheet, seams_x: list[float], seams_y: list[float], overlap: float):
    """Crosses in the middle of every overlap strip, in the drawing's own coordinates,
    so that every page holding the strip draws them at the same place of the board."""
    def cross(x: float, y: float):
        half = CROSS / 2
        yield Polyline(((x - half, y), (x + half, y)), stroke=INK, width=0.25)
        yield Polyline(((x, y - half), (x, y + half)), stroke=INK, width=0.25)
        yield Circle(x, y, half / 2, stroke=INK, width=0.2)

    def along(length: float):
        count = max(2, math.ceil(length / CROSS_EVERY))
        return [length * (i + 0.5) / count for i in range(count)]

    for seam in seams_x:
        for y in along(sheet.height):
            yield from cross(seam + overlap / 2, y)
    for seam in seams_y:
        for x in along(sheet.width):
            yield from cross(x, seam + overlap / 2)


def _moved(shape, dx: float, dy: float):
    if isinstance(shape, (Polygon, Polyline)):
        return replace(shape, points=tuple((x + dx, y + dy) for x, y in shape.points))
    if isinstance(shape, (Circle, Rect, Text)):
        return replace(shape, x=shape.x + dx, y=shape.y + dy)
    raise TypeError(f"a sheet has no shape {type(shape).__name__}")


__all__ = ["A3", "A4", "OVERLAP", "fits", "tiles"]
