"""A wiring sheet (app/drawings/sheet.py) or a schematic (app/drawings/schematic.py)
painted with pygame, saved as a PNG that prints at its true size.

pygame-ce is already the screen's library, so the PNG needs no SVG renderer and no
system library (cairo) on the Pi or the desktop. The sheet is a list of plain shapes,
so painting it is one pygame call per shape, and the PNG shows what the SVG shows. A
PNG says nothing of its size on paper unless it carries a ``pHYs`` chunk; this one
does, so a printer's "actual size" prints the legend's 100 mm bar at 100 mm.
"""

from __future__ import annotations

import io
import struct
import zlib

import pygame

from app.drawings.sheet import Circle, Polygon, Polyline, Rect, Sheet, Text

#: Dots per inch: a 2 mm label is 16 pixels tall, a board of 35 cm under 3,000 pixels.
DPI = 200
MM_PER_INCH = 25.4
#: PNG's signature and its first chunk, the header (length, type, 13 bytes, CRC).
_AFTER_HEADER = 8 + 4 + 4 + 13 + 4


def png(sheet: Sheet, dpi: int = DPI) -> bytes:
    """The sheet as PNG bytes at ``dpi``, with that resolution recorded in them."""
    scale = dpi / MM_PER_INCH
    pygame.font.init()
    surface = pygame.Surface((round(sheet.width * scale), round(sheet.height * scale)))
    surface.fill("white")
    fonts: dict[tuple[int, bool], pygame.font.Font] = {}
    for group in sheet.groups:
        for shape in group.shapes:
            _paint(surface, shape, scale, fonts)
    buffer = io.BytesIO()
    pygame.image.save(surface, buffer, "sheet.png")
    return with_resolution(buffer.getvalue(), dpi)


def with_resolution(data: bytes, dpi: int) -> bytes:
    """``data`` (a PNG without a ``pHYs`` chunk) with one saying ``dpi``, right after
    the header as the PNG specification wants it (before the image data)."""
    per_metre = round(dpi / MM_PER_INCH * 1000)
    body = b"pHYs" + struct.pack(">IIB", per_metre, per_metre, 1)
    chunk = struct.pack(">I", len(body) - 4) + body + struct.pack(">I", zlib.crc32(body))
    return data[:_AFTER_HEADER] + chunk + data[_AFTER_HEADER:]


def _paint(surface: pygame.Surface, shape, scale: float, fonts: dict) -> None:
    def px(value: float) -> int:
        return round(value * scale)

    def line(width: float) -> int:
        return max(1, px(width))

    if isinstance(shape, Text):
        key = (max(1, px(shape.size)), shape.bold)
        if key not in fonts:
            fonts[key] = pygame.font.Font(None, key[0])
            fonts[key].set_bold(shape.bold)
        image = fonts[key].render(shape.text, True, shape.fill)
        place = image.get_rect()
        if shape.anchor == "start":
            place.midleft = (px(shape.x), px(shape.y))
        elif shape.anchor == "end":
            place.midright = (px(shape.x), px(shape.y))
        else:
            place.center = (px(shape.x), px(shape.y))
        surface.blit(image, place)
    elif isinstance(shape, Circle):
        centre = (px(shape.x), px(shape.y))
        if shape.fill:
            pygame.draw.circle(surface, shape.fill, centre, px(shape.r))
        if shape.stroke:
            pygame.draw.circle(surface, shape.stroke, centre, px(shape.r), line(shape.width))
    elif isinstance(shape, Rect):
        box = pygame.Rect(px(shape.x), px(shape.y), px(shape.w), px(shape.h))
        if shape.fill:
            pygame.draw.rect(surface, shape.fill, box)
        if shape.stroke:
            pygame.draw.rect(surface, shape.stroke, box, line(shape.width))
    elif isinstance(shape, Polygon):
        points = [(px(x), px(y)) for x, y in shape.points]
        if shape.fill:
            pygame.draw.polygon(surface, shape.fill, points)
        if shape.stroke:
            pygame.draw.polygon(surface, shape.stroke, points, line(shape.width))
    elif isinstance(shape, Polyline) and len(shape.points) > 1:
        pygame.draw.lines(surface, shape.stroke, False,
                          [(px(x), px(y)) for x, y in shape.points], line(shape.width))
