"""The status screen's legend: what each light on the board means right now.

One row per role the board lights in this state, most urgent first: a lamp in the role's
colour, as the LEDs show it and the simulator draws it (a blinking role has an unlit
lamp beside it, so blinking reads without colour), and the meaning in words. The rows
are the view's (:attr:`~app.table.view.View.legend`, which the web page shows too); the
colours come from :mod:`app.colours`, the one colour language, through the scene.
"""

from __future__ import annotations

import pygame

from app.screen.paint import MUTED, PANEL, TEXT, Painter
from app.table.view import View

TITLE = "Lights"
#: Row heights in design units: as tall as this, never shorter than that (less urgent
#: roles are left out rather than squeezed).
ROW_H, MIN_ROW_H = 28, 17
TITLE_H = 30
LAMP_X, OFF_LAMP_X, TEXT_X = 20, 42, 58


def draw_legend(paint: Painter, view: View,
                region: tuple[float, float, float, float]) -> list[str]:
    """Draw the view's legend into ``region`` (design units); return the roles it
    names."""
    x, y, w, h = region
    paint.fill(paint.rect(x, y, w, h), PANEL, radius=12)
    paint.fitted(TITLE, paint.rect(x + 12, y + 4, w - 24, TITLE_H - 4), 30, MUTED,
                 min_size=20)
    room = h - TITLE_H - 6
    rows = view.legend[:max(int(room // MIN_ROW_H), 0)]
    if not rows:
        return []
    row_h = min(ROW_H, room / len(rows))
    radius = min(9.0, row_h * 0.36)
    texts = [row.meaning for row in rows]
    width = paint.px(w - TEXT_X - 8)
    size = row_h * 1.1  # one size for every row: the largest at which all fit
    while size > 16 and any(paint.font(size).size(t)[0] > width for t in texts):
        size -= 1
    top = y + TITLE_H
    for row in rows:
        colour, text = row.colour, row.meaning
        centre_y = top + row_h / 2
        lamp = paint.rect(x + LAMP_X - radius, centre_y - radius, 2 * radius, 2 * radius)
        pygame.draw.circle(paint.surface, colour, lamp.center, lamp.width // 2)
        pygame.draw.circle(paint.surface, MUTED, lamp.center, lamp.width // 2 + 1, 1)
        if row.blink:
            off = lamp.move(paint.px(OFF_LAMP_X - LAMP_X), 0)
            pygame.draw.circle(paint.surface, colour, off.center, off.width // 2,
                               max(1, paint.px(2)))
        paint.fitted(text, paint.rect(x + TEXT_X, top, w - TEXT_X - 8, row_h), size, TEXT,
                     min_size=min(size, 16))
        top += row_h
    return [row.role for row in rows]
