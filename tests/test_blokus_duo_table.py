"""Blokus Duo on the table: its registry entry and drawer, pieces put down square by
square through the session (waiting, then the move; sync mode; the takeback) and what
the LEDs light (attachment corners, start points, the last piece, a hint)."""

import random

import pygame
import pytest

from app.games import game, new_game
from app.hardware.sensors import SimulatedSensors
from app.sensing.events import Moved, OutOfSync, Takeback, Waiting
from app.sensing.script import Hand
from app.screen.boards import HOLE, drawer_for
from app.screen.boards.blokus_duo import BOARD_COLOUR, START_RING, BlokusDuoDrawer
from app.table.scene import game_scene
from app.table.session import Session

PURPLE, ORANGE = (game("blokus-duo").players[p].piece for p in "bw")


# --- the entry and the drawer -----------------------------------------------------------

def test_the_entry_names_pentobis_colours_and_the_start_rule_in_words():
    entry = game("blokus-duo")
    assert entry.title == "Blokus Duo" and entry.drawer_class() is BlokusDuoDrawer
    assert [entry.players[p].name for p in "bw"] == ["purple", "orange"]
    assert entry.describe({"start": "either"}) == ["start on either point"]
    assert entry.describe({"start": "fixed"}) == ["fixed start points"]
    (start,) = entry.menu
    assert start.key == "start" and start.choices() == ("either", "fixed")
    assert new_game("blokus-duo", start="fixed").options["start"] == "fixed"


@pytest.mark.parametrize("area", [pygame.Rect(0, 0, 600, 600), pygame.Rect(40, 10, 900, 500)])
def test_every_square_lies_in_the_area_and_the_mouse_finds_it(area):
    board = new_game("blokus-duo")
    drawer = drawer_for(board, area)
    assert sorted(drawer.centres) == sorted(board.holes) and len(drawer.centres) == 196
    for square, centre in drawer.centres.items():
        assert area.collidepoint(centre) and drawer.hole_at(centre) == square
    # a1 is the lower left, n14 the upper right, as Pentobi draws the board.
    assert drawer.centres["a1"][0] < drawer.centres["n1"][0]
    assert drawer.centres["a14"][1] < drawer.centres["a1"][1]


def played(plies, seed=2):
    board = new_game("blokus-duo")
    rng = random.Random(seed)
    for _ in range(plies):
        board.push(rng.choice(list(board.legal_moves)))
    return board


def test_pieces_are_joined_tiles_in_their_players_colours_and_leds_glow_at_their_squares():
    board = played(4)
    surface = pygame.Surface((700, 700))
    drawer = drawer_for(board, surface.get_rect())
    pieces = board.sensor_view()
    green = (0, 255, 128)
    empty = sorted(set(board.holes) - set(pieces))
    drawer.draw(surface, pieces, {empty[0]: green})
    assert surface.get_at(drawer.centres[empty[0]])[:3] == green
    assert surface.get_at(drawer.centres[empty[1]])[:3] == HOLE
    colours = {"b": PURPLE, "w": ORANGE}
    for move in board.move_stack:
        squares = move.squares
        player = pieces[squares[0]]
        for square in squares:
            assert surface.get_at(drawer.centres[square])[:3] == colours[player]
        # Between two squares of one piece the tile goes on: the piece reads as one.
        for a in squares:
            for b in squares:
                (ax, ay), (bx, by) = drawer.centres[a], drawer.centres[b]
                if a < b and abs(ax - bx) + abs(ay - by) == round(drawer.unit) \
                        and (ax == bx or ay == by):
                    middle = ((ax + bx) // 2, (ay + by) // 2)
                    assert surface.get_at(middle)[:3] == colours[player]


def test_the_start_points_are_ringed_on_the_empty_board():
    board = new_game("blokus-duo")
    surface = pygame.Surface((700, 700))
    drawer = drawer_for(board, surface.get_rect())
    drawer.draw(surface, {})
    for square in ("e10", "j5", "a1"):
        x, y = drawer.centres[square]
        ring = surface.get_at((x + drawer.px(0.37), y))[:3]
        assert ring == (START_RING if square != "a1" else BOARD_COLOUR), square


def test_the_screen_offers_no_piece_by_button_and_names_no_owned_areas():
    from app.games import GAMES
    from app.screen.console import Console
    from app.screen.legend import legend_roles

    session = Session(played(3), seats={"b": "person", "w": "person"}, seed=1)
    console = Console(session, tuple(GAMES))
    assert console.offers() == ()  # every piece is seen by the sensors: no buttons
    roles = legend_roles(session.status())
    assert "legal" in roles and "last" in roles
    assert not [role for role in roles if role.startswith(("owned", "won"))]
