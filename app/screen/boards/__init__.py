"""The physical board drawn to scale: panels or cells, holes, pieces, and the LED glow.

The simulator draws what lies on the simulated board and what its LEDs show, never what
the engine thinks: a misplaced marble shows where it was put, and a hole glows exactly in
the colour its LED was sent. Each game has one small drawer class in a module of this
package, named by its entry in :mod:`app.games`; a drawer only knows the game's geometry
(from the engine), so the same drawer serves the simulator, the screenshots and the
tests. Where each point is comes from the board's geometry (:meth:`Board.place`), which
this module turns into the drawer's units: a drawer adds the look of its board.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Collection, Mapping
from functools import lru_cache
from typing import ClassVar

import pygame

from app.games import game
from app.screen.paint import font
from engines.core import Board, Place

RGB = tuple[int, int, int]
Point = tuple[float, float]

TABLE: RGB = (30, 34, 40)
HOLE: RGB = (40, 28, 18)
LABEL: RGB = (170, 176, 186)
#: The dark edge around a marked area's outline.
MARK_EDGE: RGB = (15, 15, 15)

#: In hole spacings: the hole, the piece on it, and the ring of LED light around it.
HOLE_RADIUS, PIECE_RADIUS, GLOW_RADIUS = 0.22, 0.34, 0.45
#: How strongly the ring of LED light shows over the board (0-255).
GLOW_ALPHA = 150
#: Room for the coordinate labels around the grid, in hole spacings.
MARGIN = 1.0
#: The labels' font size: half a hole spacing, never under 18, whose text is 14 pixels
#: high (digits 9), read at arm's length on the Pi's 7" display.
LABEL_SIZE, LEAST_LABEL_SIZE = 0.5, 18


class BoardDrawer(ABC):
    """One game's board in ``area``: hole centres in pixels, drawing, and hit testing.

    The geometry is in board units (one unit between neighbouring holes, origin at the
    top left of the board, ``y`` down): the board's places turned upside down, each hole
    :attr:`inset` from the board's edge. This class scales it into the area, centred.
    A game gives its board's look (:meth:`draw_base`), and its own size and labels
    where the board's edge or labels sit otherwise than the defaults.
    """

    game: ClassVar[str]
    #: How far the outermost holes sit inside the board's edge, in board units: half a
    #: unit where each hole is the middle of a square of the board (the default), none
    #: where the holes are on the board's edge.
    inset: ClassVar[float] = 0.5
    #: How far the coordinate labels are from the outermost holes' edge, in board units.
    label_gap: ClassVar[float] = 0.45
    #: How far a lit LED's ring of light reaches from its hole, in hole spacings (a game
    #: whose pieces fill more of a hole's spacing widens it, so the ring still shows).
    glow_radius: ClassVar[float] = GLOW_RADIUS

    def __init__(self, board: Board, area: pygame.Rect) -> None:
        self.board = board
        self.area = pygame.Rect(area)
        width, height = self.size()
        #: The board's height in board units, where a place's ``y`` turns round.
        self.height = height
        self.unit = min(self.area.width / (width + 2 * MARGIN),
                        self.area.height / (height + 2 * MARGIN))
        self._origin = (self.area.centerx - width * self.unit / 2,
                        self.area.centery - height * self.unit / 2)
        self.centres = {hole: self.to_px(point) for hole, point in self.points().items()}
        #: What the last :meth:`draw` covered (labels, holes and their rings of light).
        self.extent = pygame.Rect(self.area.topleft, (0, 0))

    # --- geometry, from the board -------------------------------------------------------
    def size(self) -> tuple[float, float]:
        """Width and height of the board in board units: its holes' span and the inset
        on each side."""
        places = [self.board.place(hole) for hole in self.board.holes]
        return (max(p.x for p in places) + 2 * self.inset,
                max(p.y for p in places) + 2 * self.inset)

    def to_board(self, place: Place) -> Point:
        """A place of the board (``y`` up) in the drawer's board units (``y`` down)."""
        return place.x + self.inset, self.height - place.y - self.inset

    def points(self) -> dict[str, Point]:
        """Every hole's centre in board units."""
        return {hole: self.to_board(self.board.place(hole)) for hole in self.board.holes}

    def labels(self) -> list[tuple[str, Point]]:
        """Coordinate labels (the board's names of its columns and rows) and where they
        go: under the bottom row and left of the first column."""
        axes = self.board.axes()
        return ([(text, (x + self.inset, self.height + self.label_gap))
                 for x, text in axes.columns.items()]
                + [(text, (-self.label_gap, self.height - y - self.inset))
                   for y, text in axes.rows.items()])

    @abstractmethod
    def draw_base(self, surface: pygame.Surface, area_leds: Mapping[str, RGB]) -> None:
        """The board under the holes: panels or cells, lit by their own LEDs if any."""

    def outlines(self) -> dict[str, list[tuple[int, int]]]:
        """Each area's outline in pixels, for marking areas (none by default)."""
        return {}

    # --- shared ---------------------------------------------------------------------------
    def to_px(self, point: Point) -> tuple[int, int]:
        return (round(self._origin[0] + point[0] * self.unit),
                round(self._origin[1] + point[1] * self.unit))

    def px(self, units: float) -> int:
        return max(1, round(units * self.unit))

    def label_font(self) -> pygame.font.Font:
        """The coordinate labels' font at this board's scale."""
        return font(max(LEAST_LABEL_SIZE, self.px(LABEL_SIZE)))

    def hole_at(self, pos: tuple[int, int]) -> str | None:
        """The hole whose piece would cover ``pos``, if any."""
        reach = (self.glow_radius * self.unit) ** 2
        for hole, (x, y) in self.centres.items():
            if (x - pos[0]) ** 2 + (y - pos[1]) ** 2 <= reach:
                return hole
        return None

    def draw(self, surface: pygame.Surface, pieces: Mapping[str, str],
             hole_leds: Mapping[str, RGB] = {}, area_leds: Mapping[str, RGB] = {},
             blinking: Collection[str] = (), blink_on: bool = True,
             marked: Mapping[str, RGB] = {}) -> None:
        """The board with ``pieces`` (hole -> ``b``/``w``) and LEDs lit per hole and area.

        A lit hole shines in its LED's exact colour, with a translucent ring of that
        light around it (visible around a piece); an unlit LED (black) draws nothing.
        The pieces in ``blinking`` holes (ConHex's first gem, while the swap may take it)
        show only as a ring in their colour while ``blink_on`` is false; ``marked``
        areas are outlined in their colour (ConHex's winning chain). :attr:`extent` is
        then the rectangle everything drawn took. The pieces go on after every hole is
        drawn, by :meth:`draw_pieces`, which a game whose pieces are not one per hole
        (Akron's balls above the board) draws its own way.
        """
        surface.fill(TABLE, self.area)
        self.draw_base(surface, area_leds)
        if marked:
            outlines = self.outlines()
            for area, colour in marked.items():
                if area in outlines:  # a dark edge, so it shows on lit areas of its colour
                    pygame.draw.polygon(surface, MARK_EDGE, outlines[area], self.px(0.2))
                    pygame.draw.polygon(surface, colour, outlines[area], self.px(0.1))
        extent = pygame.Rect(self.to_px((0, 0)), (0, 0))
        label_font = self.label_font()
        for text, point in self.labels():
            image = label_font.render(text, True, LABEL)
            extent.union_ip(surface.blit(image, image.get_rect(center=self.to_px(point))))
        for hole, centre in self.centres.items():
            colour = hole_leds.get(hole, (0, 0, 0))
            lit = any(colour)
            reach = self.px(self.glow_radius)
            extent.union_ip(pygame.Rect(centre[0] - reach, centre[1] - reach,
                                        2 * reach + 1, 2 * reach + 1))
            if lit:
                halo = _halo(colour, reach)
                surface.blit(halo, halo.get_rect(center=centre))
            pygame.draw.circle(surface, colour if lit else HOLE, centre, self.px(HOLE_RADIUS))
        self.draw_pieces(surface, pieces, blinking, blink_on)
        self.extent = extent

    def draw_pieces(self, surface: pygame.Surface, pieces: Mapping[str, str],
                    blinking: Collection[str] = (), blink_on: bool = True) -> None:
        """One piece on each hole of ``pieces``, in its player's colour."""
        players = game(self.game).players
        for hole, centre in self.centres.items():
            if hole not in pieces:
                continue
            piece = players[pieces[hole]].piece
            if hole in blinking and not blink_on:
                pygame.draw.circle(surface, piece, centre, self.px(PIECE_RADIUS),
                                   max(2, self.px(0.07)))
            else:
                self._piece(surface, centre, piece)

    def _piece(self, surface: pygame.Surface, centre: tuple[int, int], colour: RGB) -> None:
        """A marble or gem: the player's colour, a dark rim and a highlight."""
        radius = self.px(PIECE_RADIUS)
        pygame.draw.circle(surface, (10, 10, 10), centre, radius)
        pygame.draw.circle(surface, colour, centre, radius - max(1, radius // 10))
        shine = tuple(min(255, c + 90) for c in colour)
        pygame.draw.circle(surface, shine, (centre[0] - radius // 3, centre[1] - radius // 3),
                           max(1, radius // 4))


@lru_cache(maxsize=64)
def _halo(colour: RGB, radius: int) -> pygame.Surface:
    """A translucent disc of LED light, cached: a board shows only a few colours."""
    halo = pygame.Surface((2 * radius + 1, 2 * radius + 1), pygame.SRCALPHA)
    pygame.draw.circle(halo, (*colour, GLOW_ALPHA), (radius, radius), radius)
    return halo



def drawer_for(board: Board, area: pygame.Rect) -> BoardDrawer:
    """The drawer for ``board``'s game (its entry in :mod:`app.games`), fitted into ``area``."""
    return game(board.game).drawer_class()(board, area)
