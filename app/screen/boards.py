"""The physical board drawn to scale: panels or cells, holes, pieces, and the LED glow.

The simulator draws what lies on the simulated board and what its LEDs show, never what
the engine thinks: a misplaced marble shows where it was put, and a hole glows exactly in
the colour its LED was sent. Each game is one small drawer class registered in
:data:`DRAWERS`; a drawer only knows the game's geometry (from the engine), so the same
drawer serves the simulator, the screenshots and the tests.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from functools import lru_cache
from typing import ClassVar

import pygame

from app.colours import piece_colour
from app.screen.paint import font
from engines.core import Board

RGB = tuple[int, int, int]
Point = tuple[float, float]

TABLE: RGB = (30, 34, 40)
HOLE: RGB = (40, 28, 18)
LABEL: RGB = (170, 176, 186)
#: Kulami panels are one wood; neighbouring panels alternate shades so edges read.
WOOD: tuple[RGB, ...] = ((176, 128, 78), (150, 104, 60), (196, 150, 98), (132, 90, 52))
GROOVE: RGB = (70, 48, 28)
CONHEX_BOARD: RGB = (222, 210, 184)
CONHEX_LINE: RGB = (120, 104, 80)

#: In hole spacings: the hole, the piece on it, and the ring of LED light around it.
HOLE_RADIUS, PIECE_RADIUS, GLOW_RADIUS = 0.22, 0.34, 0.45
#: How strongly the ring of LED light shows over the board (0-255).
GLOW_ALPHA = 150
#: Room for the coordinate labels around the grid, in hole spacings.
MARGIN = 1.0


class BoardDrawer(ABC):
    """One game's board in ``area``: hole centres in pixels, drawing, and hit testing.

    Subclasses give the geometry in board units (one unit between neighbouring holes,
    origin at the top left of the grid); this class scales it into the area, centred.
    """

    game: ClassVar[str]

    def __init__(self, board: Board, area: pygame.Rect) -> None:
        self.board = board
        self.area = pygame.Rect(area)
        width, height = self.size()
        self.unit = min(self.area.width / (width + 2 * MARGIN),
                        self.area.height / (height + 2 * MARGIN))
        self._origin = (self.area.centerx - width * self.unit / 2,
                        self.area.centery - height * self.unit / 2)
        self.centres = {hole: self.to_px(point) for hole, point in self.points().items()}

    # --- geometry, per game -------------------------------------------------------------
    @abstractmethod
    def size(self) -> tuple[float, float]:
        """Width and height of the grid in board units."""

    @abstractmethod
    def points(self) -> dict[str, Point]:
        """Every hole's centre in board units."""

    @abstractmethod
    def labels(self) -> list[tuple[str, Point]]:
        """Coordinate labels (column letters, row numbers) and where they go."""

    @abstractmethod
    def draw_base(self, surface: pygame.Surface, area_leds: Mapping[str, RGB]) -> None:
        """The board under the holes: panels or cells, lit by their own LEDs if any."""

    # --- shared ---------------------------------------------------------------------------
    def to_px(self, point: Point) -> tuple[int, int]:
        return (round(self._origin[0] + point[0] * self.unit),
                round(self._origin[1] + point[1] * self.unit))

    def px(self, units: float) -> int:
        return max(1, round(units * self.unit))

    def hole_at(self, pos: tuple[int, int]) -> str | None:
        """The hole whose piece would cover ``pos``, if any."""
        reach = (GLOW_RADIUS * self.unit) ** 2
        for hole, (x, y) in self.centres.items():
            if (x - pos[0]) ** 2 + (y - pos[1]) ** 2 <= reach:
                return hole
        return None

    def draw(self, surface: pygame.Surface, pieces: Mapping[str, str],
             hole_leds: Mapping[str, RGB] = {}, area_leds: Mapping[str, RGB] = {}) -> None:
        """The board with ``pieces`` (hole -> ``b``/``w``) and LEDs lit per hole and area.

        A lit hole shines in its LED's exact colour, with a translucent ring of that
        light around it (visible around a piece); an unlit LED (black) draws nothing.
        """
        surface.fill(TABLE, self.area)
        self.draw_base(surface, area_leds)
        label_font = font(max(10, self.px(0.4)))
        for text, point in self.labels():
            image = label_font.render(text, True, LABEL)
            surface.blit(image, image.get_rect(center=self.to_px(point)))
        for hole, centre in self.centres.items():
            colour = hole_leds.get(hole, (0, 0, 0))
            lit = any(colour)
            if lit:
                halo = _halo(colour, self.px(GLOW_RADIUS))
                surface.blit(halo, halo.get_rect(center=centre))
            pygame.draw.circle(surface, colour if lit else HOLE, centre, self.px(HOLE_RADIUS))
            if hole in pieces:
                self._piece(surface, centre, piece_colour(self.game, pieces[hole]))

    def _piece(self, surface: pygame.Surface, centre: tuple[int, int], colour: RGB) -> None:
        """A marble or gem: the player's colour, a dark rim and a highlight."""
        radius = self.px(PIECE_RADIUS)
        pygame.draw.circle(surface, (10, 10, 10), centre, radius)
        pygame.draw.circle(surface, colour, centre, radius - max(1, radius // 10))
        shine = tuple(min(255, c + 90) for c in colour)
        pygame.draw.circle(surface, shine, (centre[0] - radius // 3, centre[1] - radius // 3),
                           max(1, radius // 4))


class KulamiDrawer(BoardDrawer):
    """Kulami's panels as wooden tiles with a hole per field, on the layout's grid."""

    game = "kulami"

    def size(self) -> tuple[float, float]:
        layout = self.board.layout
        return layout.width, layout.height

    def _point(self, x: int, y: int) -> Point:
        return x + 0.5, self.board.layout.height - y - 0.5

    def points(self) -> dict[str, Point]:
        from engines.kulami.layout import field_name
        return {field_name(x, y): self._point(x, y) for x, y in self.board.layout.fields}

    def labels(self) -> list[tuple[str, Point]]:
        layout = self.board.layout
        return ([("abcdefghij"[x], (x + 0.5, layout.height + 0.45))
                 for x in range(layout.width)]
                + [(str(y + 1), (-0.45, layout.height - y - 0.5))
                   for y in range(layout.height)])

    def draw_base(self, surface: pygame.Surface, area_leds: Mapping[str, RGB]) -> None:
        layout = self.board.layout
        shades = _panel_shades(layout.panels)
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


@lru_cache(maxsize=64)
def _halo(colour: RGB, radius: int) -> pygame.Surface:
    """A translucent disc of LED light, cached: a board shows only a few colours."""
    halo = pygame.Surface((2 * radius + 1, 2 * radius + 1), pygame.SRCALPHA)
    pygame.draw.circle(halo, (*colour, GLOW_ALPHA), (radius, radius), radius)
    return halo


def _panel_shades(panels: Mapping[str, frozenset]) -> dict[str, int]:
    """A shade index per panel such that panels sharing an edge differ.

    Panels on a grid form a planar map, so four shades always suffice; a small
    backtracking search finds them (greedy colouring can paint itself into a corner).
    """
    panel_of = {field: letter for letter, fields in panels.items() for field in fields}
    touching = {letter: {panel_of[(x + dx, y + dy)] for x, y in fields
                         for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                         if panel_of.get((x + dx, y + dy), letter) != letter}
                for letter, fields in panels.items()}
    order = sorted(panels, key=lambda letter: (-len(touching[letter]), letter))
    shade: dict[str, int] = {}

    def paint(i: int) -> bool:
        if i == len(order):
            return True
        letter = order[i]
        used = {shade[t] for t in touching[letter] if t in shade}
        for candidate in range(len(WOOD)):
            if candidate not in used:
                shade[letter] = candidate
                if paint(i + 1):
                    return True
        shade.pop(letter, None)
        return False

    paint(0)
    return shade


class ConHexDrawer(BoardDrawer):
    """ConHex's 41 cells as polygons through their holes on the 11x11 grid, the sides
    edged in the colour of the player who joins them."""

    game = "conhex"

    def size(self) -> tuple[float, float]:
        from engines.conhex.geometry import SIZE
        return SIZE - 1, SIZE - 1

    def _point(self, column: int, row: int) -> Point:
        from engines.conhex.geometry import SIZE
        return column - 1, SIZE - row

    def points(self) -> dict[str, Point]:
        from engines.conhex.geometry import HOLES, grid_point
        return {hole: self._point(*grid_point(hole)) for hole in HOLES}

    def labels(self) -> list[tuple[str, Point]]:
        from engines.conhex.geometry import COLUMNS, SIZE
        return ([(c, (i, SIZE - 1 + 0.72)) for i, c in enumerate(COLUMNS)]
                + [(str(r), (-0.72, SIZE - r)) for r in range(1, SIZE + 1)])

    def cell_polygons(self) -> dict[str, list[tuple[int, int]]]:
        """Cell name (its number, as the engine's areas) -> the outline in pixels.

        A cell is the hull of its holes; a side cell also reaches out to the board's
        edge, so the cells tile the whole board as on the printed one.
        """
        from engines.conhex.geometry import CELLS, HOLES, SIZE, grid_point
        edge = {"N": lambda c, r: (c, SIZE), "S": lambda c, r: (c, 1),
                "W": lambda c, r: (1, r), "E": lambda c, r: (SIZE, r)}
        polygons = {}
        for cell in CELLS:
            points = [grid_point(HOLES[h]) for h in cell.holes]
            points += [edge[side](c, r) for side in cell.sides for c, r in points]
            polygons[str(cell.number)] = [self.to_px(self._point(c, r))
                                          for c, r in _hull(points)]
        return polygons

    def draw_base(self, surface: pygame.Surface, area_leds: Mapping[str, RGB]) -> None:
        from engines.conhex.geometry import PLAYER_SIDES, SIZE
        corners = {"NW": self.to_px((0, 0)), "NE": self.to_px((SIZE - 1, 0)),
                   "SE": self.to_px((SIZE - 1, SIZE - 1)), "SW": self.to_px((0, SIZE - 1))}
        pygame.draw.polygon(surface, CONHEX_BOARD, list(corners.values()))
        edges = {"N": ("NW", "NE"), "E": ("NE", "SE"), "S": ("SE", "SW"), "W": ("SW", "NW")}
        for player, sides in PLAYER_SIDES.items():
            for side in sides:
                a, b = edges[side]
                pygame.draw.line(surface, piece_colour(self.game, player), corners[a],
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


#: game -> its drawer. A new game registers one class here.
DRAWERS: dict[str, type[BoardDrawer]] = {
    drawer.game: drawer for drawer in (KulamiDrawer, ConHexDrawer)}


class NoDrawerError(LookupError):
    """A game the board drawing does not know yet."""


def drawer_for(board: Board, area: pygame.Rect) -> BoardDrawer:
    """The drawer for ``board``'s game, fitted into ``area``."""
    try:
        cls = DRAWERS[board.game]
    except KeyError:
        raise NoDrawerError(f"the simulator cannot draw {board.game} yet (it draws: "
                            f"{', '.join(sorted(DRAWERS))})") from None
    return cls(board, area)
