"""Akron on the desktop simulator: the pyramid drawn from above (stacks, covered and
pinned balls, cut contacts) and the mouse finding balls and points."""

import pygame

from app.games import game, new_game
from app.screen.boards import drawer_for
from app.screen.boards.akron import (BALL_RADIUS, DARK, PIN_RING, WOOD, AkronDrawer,
                                     ball_radius, shadowed)
from engines.akron.geometry import NAMES

WHITE, RED = (game("akron").players[p].piece for p in ("b", "w"))
#: A legal game building a small pyramid in the bottom-left corner: a 3x3 block of
#: holes, four level-2 balls on it and red's 3c3 on those. 3c3 covers 1c3; 1c1 carries
#: 2b2 and 2d2 (pinned); 1a1 carries only 2b2, with 3c3 on the same diagonal above.
PYRAMID = ("1a1 1c1 1a3 1c3 1e1 1e3 1a5 1c5 1e5 1g3 1a7 1g3-2d4 1a7-2b4 1g3 1a7 "
           "1g3-2d2 1a7-2b2 1g3 1a7 1g3-3c3").split()



def played(moves):
    board = new_game("akron")
    for move in moves:
        board.push(board.parse_move(move))
    return board



# --- the drawer: stacks, covered and pinned balls, cuts, hit testing ----------------------
def drawn(pieces, size=1000):
    """``pieces`` drawn on a board of ``size`` pixels: the surface and its drawer."""
    surface = pygame.Surface((size, size))
    drawer = drawer_for(new_game("akron"), surface.get_rect())
    drawer.draw(surface, pieces)
    return surface, drawer


def at(surface, drawer, point, dx=0.0):
    x, y = drawer.ball_centres[point]
    return surface.get_at((x + round(dx * drawer.unit), y))[:3]


def test_every_level_is_drawn_smaller_so_a_covered_ball_shows_as_a_rim_in_shadow():
    pile = played(PYRAMID).balls()
    rim = ball_radius(2) + 0.02  # just outside 3c3, on 1c3 under it
    surface, drawer = drawn(pile)
    assert isinstance(drawer, AkronDrawer)
    assert at(surface, drawer, "1c3", dx=rim) == shadowed(RED)
    assert at(surface, drawer, "1c3", dx=0.2) == RED  # the top ball, 3c3, over it
    del pile["3c3"]  # the top ball taken off: nothing rests on it
    surface, drawer = drawn(pile)
    assert at(surface, drawer, "1c3", dx=rim) == RED  # uncovered: in full colour


def test_a_pinned_ball_carries_a_dark_ring_and_a_free_one_none():
    surface, drawer = drawn(played(PYRAMID).balls())
    ring = PIN_RING * BALL_RADIUS - 0.02  # on the ring, drawn inward from its radius
    assert at(surface, drawer, "1c1", dx=ring) == DARK  # 2b2 and 2d2 rest on it
    assert at(surface, drawer, "1e5", dx=ring) == WHITE  # only 2d4 rests on it
    assert at(surface, drawer, "1a7", dx=ring) == WHITE  # nothing on it


def test_a_ball_above_the_board_carries_its_level_digit():
    surface, drawer = drawn(played(PYRAMID).balls())

    def ink(point):
        x, y = drawer.ball_centres[point]
        reach = round(0.15 * drawer.unit)
        return sum(sum(surface.get_at((x + dx, y + dy))[:3]) < 200
                   for dx in range(-reach, reach + 1) for dy in range(-reach, reach + 1))

    assert ink("2b4") > 20  # a white level-2 ball: a dark "2" on it
    assert ink("1e5") == 0  # a white ball in a hole: no digit


def test_a_contact_an_overpass_cuts_is_crossed_only_between_balls_of_one_colour():
    base = {f"1{c}{r}": "w" for c in "ace" for r in (1, 3, 5)}
    base.update({"1c3": "b", "1e3": "b"})
    bridged = dict(base, **{"2d2": "w", "2d4": "w"})

    def middle(pieces):
        surface, drawer = drawn(pieces)
        (ax, ay), (bx, by) = drawer.ball_centres["1c3"], drawer.ball_centres["1e3"]
        return surface.get_at(((ax + bx) // 2, (ay + by) // 2))[:3]

    assert middle(bridged) == DARK
    assert middle(dict(bridged, **{"1e3": "w"})) == WOOD  # white and red: nothing to cut
    assert middle(dict(base, **{"2d2": "w"})) == WOOD  # one bridge does not cut
    assert middle(base) == WOOD


def test_the_mouse_finds_the_topmost_ball_and_the_highest_point_a_ball_can_go():
    pile = played(PYRAMID).balls()
    _, drawer = drawn(pile)
    centre = drawer.ball_centres
    assert drawer.ball_at(centre["1c3"], pile) == "3c3"
    assert drawer.ball_at(centre["2b2"], pile) == "2b2"
    assert drawer.ball_at(centre["1c1"], pile) == "1c1"
    assert drawer.ball_at(centre["1o15"], pile) is None
    assert drawer.point_at(centre["1o15"], pile) == "1o15"
    assert drawer.point_at(centre["1a1"], pile) is None
    assert drawer.point_at(centre["2b6"], pile) is None  # 1c7 under it is empty
    del pile["3c3"]  # the top ball taken off: nothing rests on it
    assert drawer.point_at(centre["1c3"], pile) == "3c3"
    assert drawer.ball_at(centre["1c3"], pile) == "1c3"
    # Every point of the pyramid is drawn inside the board.
    board = pygame.Rect(drawer.to_px((0, 0)), (8 * drawer.unit, 8 * drawer.unit))
    assert len(drawer.ball_centres) == len(NAMES) == 204
    assert all(board.collidepoint(c) for c in drawer.ball_centres.values())
