"""Akron's board from above: the 8x8 holes, and every ball of the pyramid on them.

The pieces given are balls by point name at any level (``1c3`` in a hole, ``2d4``
between four holes, ``3c3`` straight above a hole), drawn bottom level first so upper
balls lie on the ones they rest on. Seen from above a stack must still read at a glance,
so each level's balls are drawn a little smaller than the level below: the balls under
a ball peek out around it as rims, and every ball above the board carries its level
digit (as in its name). What the rules make of the pile is marked too, since it is what
a player must see to plan: a covered ball (one straight two levels above it) is drawn in
shadow, as it connects nothing; a pinned ball (two or more resting on it) carries a dark
ring, as it cannot move; and a contact between two balls of one colour that an overpass
cuts carries a dark cross between the two bridging balls.

The holes glow with their LEDs as on the other boards, the ring of light wide enough to
show around a ball. Hit testing knows the pile: the topmost ball under the mouse, and
the highest point under it where a ball could be put now.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

import pygame

from app.games import game
from app.screen.boards import RGB, BoardDrawer, Point
from app.screen.paint import font
from engines.akron.geometry import (ABOVE, BELOW, COLUMNS, GRID, HOLE_MASK, INDEX, LEVEL,
                                    NAMES, OVER, PLAYER_SIDES, SIDE, SIDES,
                                    points_of)
from engines.bits import mask_of

WOOD: RGB = (170, 124, 76)
GROOVE: RGB = (96, 66, 38)
#: The dark of a ball's rim and of the pin and cut marks.
DARK: RGB = (20, 20, 20)
#: The radius of a ball in a hole, and how much smaller each level up is drawn, in hole
#: spacings: small enough steps that a level-7 ball is still a ball, large enough that
#: a covered ball's rim shows around the ball above it.
BALL_RADIUS, LEVEL_STEP = 0.41, 0.04
#: A covered ball's colour is scaled by this: in the shadow of the ball above.
SHADOW = 0.45
#: The pin ring's radius, as a share of its ball's; the cut cross's half size in spacings.
PIN_RING, CUT_HALF = 0.62, 0.09
#: A ball in the hand, drawn outlined in this.
HELD_EDGE: RGB = (255, 255, 255)


def ball_radius(level: int) -> float:
    """A ball's drawn radius at ``level`` (0 = in a hole), in hole spacings."""
    return BALL_RADIUS - LEVEL_STEP * level


def shadowed(colour: RGB) -> RGB:
    return tuple(round(c * SHADOW) for c in colour)


class AkronDrawer(BoardDrawer):
    """The 8x8 board with its sides in the colours of the players who join them, and the
    pyramid of balls over it."""

    game = "akron"
    #: A ball fills most of a hole's spacing: the LED light reaches nearly to its edge.
    glow_radius = 0.48

    def __init__(self, board, area: pygame.Rect) -> None:
        super().__init__(board, area)
        #: Every point of the pyramid, in pixels: where a ball there is drawn.
        self.ball_centres = {name: self.to_px(self.to_board(board.place(name)))
                             for name in board.points}

    @staticmethod
    def _point(x: int, y: int) -> Point:
        """A grid point (doubled grid, row 0 at the bottom) in board units."""
        return x / 2 + 0.5, (GRID - 1 - y) / 2 + 0.5

    def labels(self) -> list[tuple[str, Point]]:
        return ([(COLUMNS[x], self._point(x, -1.6)) for x in range(0, GRID, 2)]
                + [(str(y + 1), self._point(-1.6, y)) for y in range(0, GRID, 2)])

    def draw_base(self, surface: pygame.Surface, area_leds: Mapping[str, RGB]) -> None:
        x0, y0 = self.to_px((0, 0))
        x1, y1 = self.to_px((SIDE, SIDE))
        pygame.draw.rect(surface, GROOVE, pygame.Rect(x0, y0, x1 - x0, y1 - y0))
        pygame.draw.rect(surface, WOOD, pygame.Rect(x0, y0, x1 - x0, y1 - y0).inflate(
            -2 * self.px(0.1), -2 * self.px(0.1)))
        corners = {"south": ((0, SIDE), (SIDE, SIDE)), "north": ((0, 0), (SIDE, 0)),
                   "west": ((0, 0), (0, SIDE)), "east": ((SIDE, 0), (SIDE, SIDE))}
        players = game(self.game).players
        for player, sides in PLAYER_SIDES.items():
            for side in sides:
                a, b = corners[side]
                pygame.draw.line(surface, players[player].piece, self.to_px(a),
                                 self.to_px(b), self.px(0.12))

    # --- the balls ----------------------------------------------------------------------
    def draw_pieces(self, surface: pygame.Surface, pieces: Mapping[str, str],
                    blinking: Collection[str] = (), blink_on: bool = True) -> None:
        """Every ball of ``pieces`` (point name -> ``b``/``w``), level by level from the
        board up, each level's cut contacts crossed once the bridges over them lie.
        No ball blinks: the moves Akron offers to confirm blink on the LEDs."""
        occupied = mask_of(INDEX[name] for name in pieces)
        players = game(self.game).players
        by_level: dict[int, list[str]] = {}
        for name in pieces:
            by_level.setdefault(LEVEL[INDEX[name]], []).append(name)
        for level in sorted(by_level):
            for name in by_level[level]:
                point = INDEX[name]
                colour = players[pieces[name]].piece
                covered = bool(occupied & OVER[point])
                pinned = (ABOVE[point] & occupied).bit_count() >= 2
                self._ball(surface, name, shadowed(colour) if covered else colour,
                           pinned=pinned and not covered)
            for name, other in self._cut_contacts(by_level.get(level - 1, ()), pieces,
                                                  occupied):
                self._cross(surface, name, other)

    def _ball(self, surface: pygame.Surface, name: str, colour: RGB,
              pinned: bool = False) -> None:
        level = LEVEL[INDEX[name]]
        centre = self.ball_centres[name]
        radius = self.px(ball_radius(level))
        pygame.draw.circle(surface, DARK, centre, radius)
        pygame.draw.circle(surface, colour, centre, radius - max(1, radius // 12))
        shine = tuple(min(255, c + 70) for c in colour)
        pygame.draw.circle(surface, shine, (centre[0] - radius // 2, centre[1] - radius // 2),
                           max(1, radius // 6))
        ink = DARK if sum(colour) > 380 else (250, 250, 250)
        if pinned:
            pygame.draw.circle(surface, DARK, centre, max(2, round(radius * PIN_RING)),
                               max(2, radius // 8))
        if level:
            digit = font(max(10, round(radius * 1.2))).render(str(level + 1), True, ink)
            surface.blit(digit, digit.get_rect(center=centre))

    def _cut_contacts(self, names, pieces: Mapping[str, str],
                      occupied: int) -> list[tuple[str, str]]:
        """The contacts between two visible balls of one colour among ``names`` (all of
        one level) that both balls bridging over them cut, each once."""
        cut = []
        for name in names:
            point = INDEX[name]
            if occupied & OVER[point]:
                continue
            for neighbour, bridges in SIDES[point]:
                other = NAMES[neighbour]
                if (neighbour > point and pieces.get(other) == pieces[name]
                        and not occupied & OVER[neighbour]
                        and occupied & bridges == bridges):
                    cut.append((name, other))
        return cut

    def _cross(self, surface: pygame.Surface, a: str, b: str) -> None:
        """A dark cross on the contact between the balls at ``a`` and ``b``."""
        (ax, ay), (bx, by) = self.ball_centres[a], self.ball_centres[b]
        mx, my = (ax + bx) / 2, (ay + by) / 2
        half, width = self.px(CUT_HALF), max(2, self.px(0.04))
        for dx, dy in ((half, half), (half, -half)):
            pygame.draw.line(surface, DARK, (mx - dx, my - dy), (mx + dx, my + dy), width)

    def draw_held(self, surface: pygame.Surface, pos: tuple[int, int], colour: RGB) -> None:
        """A ball in the hand at ``pos``: a ball as in a hole, outlined in white."""
        radius = self.px(ball_radius(0))
        pygame.draw.circle(surface, HELD_EDGE, pos, radius + max(2, self.px(0.05)))
        pygame.draw.circle(surface, colour, pos, radius)

    # --- hit testing --------------------------------------------------------------------
    def _within(self, name: str, pos: tuple[int, int], reach: float) -> bool:
        x, y = self.ball_centres[name]
        return (x - pos[0]) ** 2 + (y - pos[1]) ** 2 <= (reach * self.unit) ** 2

    def ball_at(self, pos: tuple[int, int], pieces: Mapping[str, str]) -> str | None:
        """The topmost ball of ``pieces`` drawn under ``pos``, if any."""
        for name in sorted(pieces, key=lambda name: -LEVEL[INDEX[name]]):
            if self._within(name, pos, ball_radius(LEVEL[INDEX[name]])):
                return name
        return None

    def point_at(self, pos: tuple[int, int], pieces: Mapping[str, str]) -> str | None:
        """The highest point under ``pos`` where a ball could be put on ``pieces`` now:
        an empty hole, or an empty point whose four supports hold balls."""
        occupied = mask_of(INDEX[name] for name in pieces)
        candidates = HOLE_MASK
        for name in pieces:
            candidates |= ABOVE[INDEX[name]]
        found = None
        for point in points_of(candidates & ~occupied):
            if BELOW[point] & occupied != BELOW[point]:
                continue
            level = LEVEL[point]
            reach = self.glow_radius if level == 0 else ball_radius(level)
            if self._within(NAMES[point], pos, reach) and (
                    found is None or level > LEVEL[found]):
                found = point
        return None if found is None else NAMES[found]

