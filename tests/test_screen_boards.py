"""The board drawn to scale: every hole found by the mouse, LEDs glowing at their holes,
ConHex cells tiling the board, Kulami panels told apart."""

import random
from types import SimpleNamespace

import pygame
import pytest

from app.games import GAMES, game as game_entry, new_game
from app.screen.boards import GLOW_RADIUS, HOLE, PIECE_RADIUS, drawer_for
from app.screen.boards.conhex import ConHexDrawer
from app.screen.boards.kulami import WOOD, KulamiDrawer
from engines import OptionError
from engines.players import choose_move

BOARDS = [("kulami", {}), ("kulami", {"layout": "cross"}), ("kulami", {"layout": "random-free:9"}),
          ("conhex", {})]
AREAS = [pygame.Rect(0, 0, 600, 600), pygame.Rect(40, 10, 900, 500)]


def played(game, options, plies=12):
    board = new_game(game, **options)
    rng = random.Random(2)
    for _ in range(plies):
        board.push(choose_move(board, 1, rng))
    return board


@pytest.mark.parametrize("area", AREAS)
@pytest.mark.parametrize("game,options", BOARDS + [("akron", {})])
def test_every_hole_lies_in_the_area_and_the_mouse_finds_it(game, options, area):
    board = new_game(game, **options)
    drawer = drawer_for(board, area)
    assert sorted(drawer.centres) == sorted(board.holes)
    for hole, centre in drawer.centres.items():
        assert area.collidepoint(centre)
        assert drawer.hole_at(centre) == hole
        assert drawer.hole_at((centre[0] + drawer.px(0.3), centre[1])) == hole
        # As far as the hole's ring of light reaches (Akron's reaches further).
        reach = int(drawer.glow_radius * drawer.unit) - 1
        assert drawer.hole_at((centre[0] + reach, centre[1])) == hole
    # Pieces on neighbouring holes never overlap: holes are one unit apart at least.
    points = list(drawer.centres.values())
    closest = min(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5
                  for i, a in enumerate(points) for b in points[i + 1:])
    assert closest >= 2 * PIECE_RADIUS * drawer.unit
    assert drawer.hole_at(area.topleft) is None


@pytest.mark.parametrize("game,options", BOARDS)
def test_a_lit_led_glows_at_its_hole_in_its_exact_colour(game, options):
    board = played(game, options)
    surface = pygame.Surface((600, 600))
    drawer = drawer_for(board, surface.get_rect())
    pieces = board.sensor_view()
    empty = sorted(set(board.holes) - set(pieces))
    occupied = sorted(pieces)
    green, amber = (0, 255, 0), (255, 200, 0)
    drawer.draw(surface, pieces, {empty[0]: green, occupied[0]: amber})
    assert surface.get_at(drawer.centres[empty[0]])[:3] == green
    assert surface.get_at(drawer.centres[empty[1]])[:3] == HOLE  # unlit: a dark hole
    # Under a piece the light shows as a ring around it.
    x, y = drawer.centres[occupied[0]]
    ring = surface.get_at((x + drawer.px((PIECE_RADIUS + GLOW_RADIUS) / 2), y))[:3]
    assert ring[0] > 150 and ring[1] > 100 and ring[2] < 90
    assert surface.get_at(drawer.centres[occupied[0]])[:3] == \
        game_entry(game).players[pieces[occupied[0]]].piece


def test_a_black_led_draws_nothing():
    board = new_game("kulami")
    surface, lit = pygame.Surface((500, 500)), pygame.Surface((500, 500))
    drawer = drawer_for(board, surface.get_rect())
    drawer.draw(surface, {})
    drawer.draw(lit, {}, {hole: (0, 0, 0) for hole in board.holes})
    assert pygame.image.tobytes(surface, "RGB") == pygame.image.tobytes(lit, "RGB")


def test_conhex_cells_tile_the_board_exactly():
    drawer = ConHexDrawer(new_game("conhex"), pygame.Rect(0, 0, 1140, 1140))

    def area(polygon):
        return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1)
                       in zip(polygon, polygon[1:] + polygon[:1]))) / 2

    polygons = drawer.cell_polygons()
    assert len(polygons) == 41
    side = drawer.px(10)
    assert sum(area(p) for p in polygons.values()) == pytest.approx(side * side, rel=0.001)


def test_conhex_cell_leds_light_their_cells():
    board = played("conhex", {})
    surface = pygame.Surface((600, 600))
    drawer = drawer_for(board, surface.get_rect())
    red = (255, 0, 0)
    drawer.draw(surface, {}, {}, {"16": red})
    polygon = drawer.cell_polygons()["16"]
    middle = (sum(x for x, _ in polygon) // len(polygon), sum(y for _, y in polygon) // len(polygon))
    assert surface.get_at(middle)[:3] == red
    other = drawer.cell_polygons()["28"]
    middle = (sum(x for x, _ in other) // len(other), sum(y for _, y in other) // len(other))
    assert surface.get_at(middle)[:3] != red


@pytest.mark.parametrize("layout", ["square-1", "square-3", "square-4", "cross",
                                    "random-free:3"])
def test_kulami_panels_that_touch_are_shaded_differently(layout):
    board = new_game("kulami", layout=layout)
    surface = pygame.Surface((600, 600))
    drawer = KulamiDrawer(board, surface.get_rect())
    drawer.draw(surface, {})
    wood = {}
    for hole, (x, y) in drawer.centres.items():  # a corner of the hole's field, not the hole
        wood[hole] = tuple(surface.get_at((x + drawer.px(0.4), y + drawer.px(0.4)))[:3])
    assert set(wood.values()) <= set(WOOD)
    panel_of = {hole: panel for panel, holes in board.areas.items() for hole in holes}
    for hole in board.holes:
        column, row = hole[0], int(hole[1:])
        for neighbour in (f"{chr(ord(column) + 1)}{row}", f"{column}{row + 1}"):
            if neighbour in panel_of and panel_of[neighbour] != panel_of[hole]:
                assert wood[neighbour] != wood[hole], (layout, hole, neighbour)


def test_every_registered_game_has_a_drawer_and_others_get_a_clear_error():
    for name, entry in GAMES.items():
        assert entry.drawer_class().game == name
    with pytest.raises(OptionError, match="unknown game 'othello'"):
        drawer_for(SimpleNamespace(game="othello"), pygame.Rect(0, 0, 100, 100))


def test_akron_leds_glow_at_their_holes_and_around_a_ball_in_one():
    board = new_game("akron")
    for move in ("1c3", "1e5"):
        board.push(board.parse_move(move))
    surface = pygame.Surface((600, 600))
    drawer = drawer_for(board, surface.get_rect())
    green, amber = (0, 255, 0), (255, 200, 0)
    drawer.draw(surface, board.balls(), {"1a1": green, "1c3": amber})
    assert surface.get_at(drawer.centres["1a1"])[:3] == green
    assert surface.get_at(drawer.centres["1a3"])[:3] == HOLE
    x, y = drawer.centres["1c3"]
    ring = surface.get_at((x + drawer.px(0.46), y))[:3]  # between the ball and the reach
    assert ring[0] > 150 and ring[1] > 100 and ring[2] < 90
    assert surface.get_at((x + drawer.px(0.2), y))[:3] == game_entry("akron").players["b"].piece
