"""Blokus Duo's board: 14x14 squares, the two start points, the pieces as joined tiles.

Each square has a sensor and an LED under it, drawn as the other boards draw a hole; a
piece's square is a tile in its player's colour, and two tiles of one colour that share
an edge are joined by a bridge, so a piece reads as one shape (a player's own pieces
never share an edge, so joined tiles are always one piece). The start points ``e10``
and ``j5`` are ringed. The shadow of a piece the simulator's tray holds is drawn over
the board by :meth:`BlokusDuoDrawer.draw_shadow`.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping

import pygame

from app.games import game
from app.screen.boards import RGB, BoardDrawer, Point
from engines.blokus_duo.board import FIRST_START, SECOND_START
from engines.blokus_duo.pieces import COLUMNS, SIDE

BOARD_COLOUR: RGB = (206, 208, 212)
GRID: RGB = (150, 154, 162)
START_RING: RGB = (90, 94, 104)
#: Half the side of a piece's tile, in squares; a bridge joins tiles across the gap.
TILE = 0.36
BRIDGE = 0.22
#: The radius of an LED's light showing through the middle of a piece's square.
LIT = 0.15
#: How strongly a piece's shadow shows over the board (0-255).
SHADOW_ALPHA = 130


class BlokusDuoDrawer(BoardDrawer):
    """The 14x14 board with its start points; pieces as joined square tiles."""

    game = "blokus-duo"

    def labels(self) -> list[tuple[str, Point]]:
        return ([(COLUMNS[x], (x + 0.5, SIDE + 0.45)) for x in range(SIDE)]
                + [(str(y + 1), (-0.5, SIDE - y - 0.5)) for y in range(SIDE)])

    def square_rect(self, square: str, half: float = 0.5) -> pygame.Rect:
        """The square's field (``half`` of a side around its centre), in pixels."""
        cx, cy = self.to_board(self.board.place(square))
        x0, y0 = self.to_px((cx - half, cy - half))
        x1, y1 = self.to_px((cx + half, cy + half))
        return pygame.Rect(x0, y0, x1 - x0, y1 - y0)

    def draw_base(self, surface: pygame.Surface, area_leds: Mapping[str, RGB]) -> None:
        x0, y0 = self.to_px((0, 0))
        x1, y1 = self.to_px((SIDE, SIDE))
        pygame.draw.rect(surface, BOARD_COLOUR, pygame.Rect(x0, y0, x1 - x0, y1 - y0))
        for i in range(SIDE + 1):
            pygame.draw.line(surface, GRID, self.to_px((i, 0)), self.to_px((i, SIDE)))
            pygame.draw.line(surface, GRID, self.to_px((0, i)), self.to_px((SIDE, i)))
        for start in (FIRST_START, SECOND_START):
            pygame.draw.circle(surface, START_RING, self.centres[start], self.px(0.4),
                               max(2, self.px(0.07)))

    def draw(self, surface: pygame.Surface, pieces: Mapping[str, str],
             hole_leds: Mapping[str, RGB] = {}, area_leds: Mapping[str, RGB] = {},
             blinking: Collection[str] = (), blink_on: bool = True,
             marked: Mapping[str, RGB] = {}) -> None:
        super().draw(surface, pieces, hole_leds, area_leds, blinking, blink_on, marked)
        players = game(self.game).players
        for square, player in pieces.items():
            place = self.board.place(square)
            for dx, dy in ((1, 0), (0, 1)):
                neighbour = self.board.point_at(place.x + dx, place.y + dy)
                if neighbour is not None and pieces.get(neighbour) == player:
                    a, b = self.centres[square], self.centres[neighbour]
                    thick = self.px(BRIDGE)
                    rect = pygame.Rect(min(a[0], b[0]) - thick, min(a[1], b[1]) - thick,
                                       abs(a[0] - b[0]) + 2 * thick + 1,
                                       abs(a[1] - b[1]) + 2 * thick + 1)
                    pygame.draw.rect(surface, players[player].piece, rect)
        # A lit LED under a piece shines through its middle (the last piece, a fault).
        for square in pieces:
            colour = hole_leds.get(square, (0, 0, 0))
            if any(colour) and (square not in blinking or blink_on):
                pygame.draw.circle(surface, colour, self.centres[square], self.px(LIT))

    def _piece(self, surface: pygame.Surface, centre: tuple[int, int], colour: RGB) -> None:
        """A square tile in the player's colour with a dark edge."""
        half = self.px(TILE)
        rect = pygame.Rect(centre[0] - half, centre[1] - half, 2 * half + 1, 2 * half + 1)
        pygame.draw.rect(surface, (10, 10, 10), rect, border_radius=max(1, half // 5))
        pygame.draw.rect(surface, colour, rect.inflate(-2 * max(1, half // 8),
                                                       -2 * max(1, half // 8)),
                         border_radius=max(1, half // 5))

    def draw_shadow(self, surface: pygame.Surface, squares: Iterable[str], colour: RGB,
                    fits: bool = True) -> None:
        """A piece's shadow over ``squares``: translucent tiles in ``colour``, outlined
        in white where it may go (``fits``), in a dark edge where it may not."""
        for square in squares:
            rect = self.square_rect(square, 0.46)
            shade = pygame.Surface(rect.size, pygame.SRCALPHA)
            shade.fill((*colour, SHADOW_ALPHA))
            surface.blit(shade, rect.topleft)
            pygame.draw.rect(surface, (255, 255, 255) if fits else (20, 20, 20), rect,
                             max(1, self.px(0.06)))
