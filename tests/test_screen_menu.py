"""The new-game menu: every row fits, taps pick values, Start gives a playable choice."""

import random

import pygame
import pytest

from app.games import new_game
from app.screen.menu import BACK, SET, START, Choice, Menu
from app.screen.paint import Action
from engines.kulami.layout import named_layouts

GAMES = ["kulami", "conhex"]


def tap(menu, label, size=(800, 480)):
    drawn = menu.draw(pygame.Surface(size))
    return menu.press(drawn.action_at(drawn.button(label).rect.center))


@pytest.mark.parametrize("size", [(800, 480), (1280, 800)])
@pytest.mark.parametrize("opponent", ["a person", "the engine"])
@pytest.mark.parametrize("game", ["Kulami", "ConHex"])
def test_the_menu_fits_every_game_and_opponent(game, opponent, size):
    menu = Menu(GAMES)
    tap(menu, game)
    tap(menu, opponent)
    surface = pygame.Surface(size)
    drawn = menu.draw(surface)
    assert drawn.overlaps() == []
    assert drawn.outside(surface.get_rect()) == []
    for row in menu.rows():
        assert row.label in drawn.text


def test_defaults_are_the_first_game_against_the_engine_with_you_starting():
    choice = tap(Menu(GAMES), "Start")
    assert choice == Choice("kulami", {"layout": "square-1", "scoring": 0},
                            {"b": "person", "w": "engine"}, 2)


def test_picking_conhex_shows_its_options_and_starts_it():
    menu = Menu(GAMES)
    tap(menu, "ConHex")
    labels = [row.label for row in menu.rows()]
    assert "Pie rule" in labels and "Layout" not in labels
    tap(menu, "off")
    tap(menu, "3")
    choice = tap(menu, "Start")
    assert choice.game == "conhex"
    assert choice.options == {"pie": False, "handicap": 3}


def test_options_are_kept_per_game_when_switching_back_and_forth():
    menu = Menu(GAMES)
    tap(menu, "level 2")
    tap(menu, "ConHex")
    tap(menu, "Kulami")
    assert tap(menu, "Start").options["scoring"] == 2


def test_the_layout_steps_through_every_named_layout_then_random():
    menu = Menu(GAMES, rng=random.Random(4))
    seen = []
    for _ in range(len(named_layouts()) + 1):
        seen.append(menu.value(menu.rows()[1]))
        tap(menu, ">")
    assert seen == [*named_layouts(), "random"]
    assert menu.value(menu.rows()[1]) == "square-1"  # wrapped round
    tap(menu, "<")
    layout = tap(menu, "Start").options["layout"]
    assert layout.startswith("random:")
    new_game("kulami", layout=layout)


def test_a_person_opponent_hides_level_and_who_starts():
    menu = Menu(GAMES)
    tap(menu, "a person")
    assert {"Engine level", "Who starts"}.isdisjoint(row.label for row in menu.rows())
    assert tap(menu, "Start").seats == {"b": "person", "w": "person"}


def test_the_engine_can_start_at_level_one():
    menu = Menu(GAMES)
    tap(menu, "the engine")  # the opponent row's choice
    drawn = menu.draw(pygame.Surface((800, 480)))
    starts = [b for b in drawn.buttons if b.action == Action(SET, ("starts", "engine"))]
    menu.press(starts[0].action)
    menu.press(Action(SET, ("level", 1)))
    choice = menu.press(Action(START))
    assert choice.seats == {"b": "engine", "w": "person"}
    assert choice.level == 1


def test_back_closes_without_a_choice():
    assert tap(Menu(GAMES), "Back") == BACK
    assert Menu(GAMES).press(None) is None


def test_the_menu_opens_on_the_game_being_played():
    current = Choice("conhex", {"pie": False, "handicap": 2}, {"b": "engine", "w": "person"}, 1)
    assert Menu(GAMES, current).choice() == current


def test_every_value_the_menu_offers_makes_a_game():
    menu = Menu(GAMES, rng=random.Random(1))
    for game in GAMES:
        menu.press(Action(SET, ("game", game)))
        for row in [r for r in menu.rows() if r.key != "game"]:
            for value in row.values:
                menu.press(Action(SET, (row.key, value)))
                choice = menu.choice()
                board = new_game(choice.game, **choice.options)
                assert board.game == game


def test_a_board_for_one_game_has_no_game_row():
    menu = Menu(["conhex"])
    assert menu.rows()[0].label == "Pie rule"
    with pytest.raises(ValueError, match="at least one game"):
        Menu([])
