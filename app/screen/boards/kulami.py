"""Kulami's board: the panels as wooden tiles with a hole per field, on the layout's grid."""

from __future__ import annotations

from collections.abc import Mapping

import pygame

from app.screen.boards import RGB, BoardDrawer
from engines.map_colours import colour_panels

#: Kulami panels are one wood; neighbouring panels alternate shades so edges read.
WOOD: tuple[RGB, ...] = ((176, 128, 78), (150, 104, 60), (196, 150, 98), (132, 90, 52))
GROOVE: RGB = (70, 48, 28)


class KulamiDrawer(BoardDrawer):
    """Kulami's panels as wooden tiles with a hole per field, on the layout's grid."""

    game = "kulami"

    def size(self) -> tuple[float, float]:
        layout = self.board.layout
        return layout.width, layout.height

    def draw_base(self, surface: pygame.Surface, area_leds: Mapping[str, RGB]) -> None:
        layout = self.board.layout
        shades = colour_panels(layout.panels, len(WOOD))
        for letter, fields in layout.panels.items():
            left = min(x for x, _ in fields)
            top = layout.height - 1 - max(y for _, y in fields)
            width = max(x for x, _ in fields) - left + 1
            height = max(y for _, y in fields) - min(y for _, y in fields) + 1
            x0, y0 = self.to_px((left + 0.04, top + 0.04))
            x1, y1 = self.to_px((left + width - 0.04, top + height - 0.04))
            rect = pygame.Rect(x0, y0, x1 - x0, y1 - y0)
            pygame.draw.rect(surface, GROOVE, rect.inflate(2, 2), border_radius=self.px(0.12))
            lit = area_leds.get(letter, (0, 0, 0))
            pygame.draw.rect(surface, lit if any(lit) else WOOD[shades[letter]], rect,
                             border_radius=self.px(0.1))

