"""ConHex's board: the 41 cells drawn through their holes on the 11x11 grid."""

from __future__ import annotations

from collections.abc import Mapping

import pygame

from app.games import game
from app.screen.boards import RGB, BoardDrawer
from engines.conhex.geometry import CELLS, HOLES, PLAYER_SIDES, SIZE
from engines.core import Place

CONHEX_BOARD: RGB = (222, 210, 184)
CONHEX_LINE: RGB = (120, 104, 80)


class ConHexDrawer(BoardDrawer):
    """ConHex's 41 cells as polygons through their holes on the 11x11 grid, the sides
    edged in the colour of the player who joins them."""

    game = "conhex"
    #: The holes of the edge rows lie on the board's edge.
    inset = 0.0
    label_gap = 0.72

    def cell_polygons(self) -> dict[str, list[tuple[int, int]]]:
        """Cell name (its number, as the engine's areas) -> the outline in pixels.

        A cell is the hull of its holes; a side cell also reaches out to the board's
        edge, so the cells tile the whole board as on the printed one.
        """
        edge = {"N": lambda c, r: (c, SIZE - 1), "S": lambda c, r: (c, 0),
                "W": lambda c, r: (0, r), "E": lambda c, r: (SIZE - 1, r)}
        polygons = {}
        for cell in CELLS:
            points = [(p.x, p.y) for h in cell.holes for p in (self.board.place(HOLES[h]),)]
            points += [edge[side](c, r) for side in cell.sides for c, r in points]
            polygons[str(cell.number)] = [self.to_px(self.to_board(Place(c, r)))
                                          for c, r in _hull(points)]
        return polygons

    def outlines(self) -> dict[str, list[tuple[int, int]]]:
        return self.cell_polygons()

    def draw_base(self, surface: pygame.Surface, area_leds: Mapping[str, RGB]) -> None:
        corners = {"NW": self.to_px((0, 0)), "NE": self.to_px((SIZE - 1, 0)),
                   "SE": self.to_px((SIZE - 1, SIZE - 1)), "SW": self.to_px((0, SIZE - 1))}
        pygame.draw.polygon(surface, CONHEX_BOARD, list(corners.values()))
        edges = {"N": ("NW", "NE"), "E": ("NE", "SE"), "S": ("SE", "SW"), "W": ("SW", "NW")}
        for player, sides in PLAYER_SIDES.items():
            for side in sides:
                a, b = edges[side]
                pygame.draw.line(surface, game(self.game).players[player].piece, corners[a],
                                 corners[b], self.px(0.18))
        for name, outline in self.cell_polygons().items():
            colour = area_leds.get(name, (0, 0, 0))
            if any(colour):
                pygame.draw.polygon(surface, colour, outline)
            pygame.draw.polygon(surface, CONHEX_LINE, outline, max(1, self.px(0.05)))


def _hull(points: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The convex hull, counter-clockwise (Andrew's monotone chain)."""
    points = sorted(set(points))
    if len(points) < 3:
        return points

    def half(seq):
        chain: list[tuple[int, int]] = []
        for p in seq:
            while len(chain) >= 2 and _cross(chain[-2], chain[-1], p) <= 0:
                chain.pop()
            chain.append(p)
        return chain[:-1]

    return half(points) + half(reversed(points))


def _cross(o, a, b) -> int:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
