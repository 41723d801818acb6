"""The new-game menu: every row fits, taps pick values, Start gives a playable choice; the
load list of saved games, a page at a time, newest first."""


import pygame
import pytest

from app.games import new_game
from app.screen.menu import BACK, SET, START, Choice, Continue, Menu
from app.screen.paint import Action
from engines.kulami.layout import named_layouts

GAMES = ["kulami", "conhex"]


def tap(menu, label, size=(800, 480)):
    drawn = menu.draw(pygame.Surface(size))
    return menu.press(drawn.action_at(drawn.button(label).rect.center))


@pytest.mark.parametrize("size", [(800, 480), (1280, 800), (400, 240)])
@pytest.mark.parametrize("seats", [("person", "person"), ("person", "engine"),
                                   ("engine", "engine")])
@pytest.mark.parametrize("game", ["Kulami", "ConHex"])
def test_the_menu_fits_every_game_and_seating(game, seats, size):
    menu = Menu(GAMES)
    tap(menu, game)
    for colour, kind in zip("bw", seats):
        menu.press(Action(SET, (f"seat_{colour}", kind)))
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
    menu = Menu(GAMES)
    seen = []
    for _ in range(len(named_layouts()) + 1):
        seen.append(menu.value(menu.rows()[1]))
        tap(menu, ">")
    assert seen == [*named_layouts(), "random"]
    assert menu.value(menu.rows()[1]) == "square-1"  # wrapped round
    tap(menu, "<")
    layout = tap(menu, "Start").options["layout"]
    assert layout == "random"  # drawn by the game, for every front end alike
    assert "/" in new_game("kulami", layout=layout).options["layout"]  # the text drawn


def seat_buttons(menu, colour):
    drawn = menu.draw(pygame.Surface((800, 480)))
    return {b.label: b.action for b in drawn.buttons
            if b.action.name == SET and b.action.value[0] == f"seat_{colour}"}


@pytest.mark.parametrize("game,names", [("kulami", ("Red (starts)", "Black")),
                                        ("conhex", ("Red (starts)", "Blue"))])
def test_each_colour_is_a_row_of_its_own_named_in_the_games_colours(game, names):
    menu = Menu(GAMES)
    menu.press(Action(SET, ("game", game)))
    labels = [row.label for row in menu.rows()]
    assert [label for label in labels if label in names] == list(names)
    assert set(seat_buttons(menu, "b")) == set(seat_buttons(menu, "w")) == {"a person",
                                                                            "engine"}


def test_two_people_hide_the_engine_level():
    menu = Menu(GAMES)
    menu.press(seat_buttons(menu, "w")["a person"])
    assert "Engine level" not in [row.label for row in menu.rows()]
    assert tap(menu, "Start").seats == {"b": "person", "w": "person"}


def test_the_engine_can_start_at_level_one_or_play_itself():
    menu = Menu(GAMES)
    menu.press(seat_buttons(menu, "b")["engine"])
    menu.press(seat_buttons(menu, "w")["a person"])
    tap(menu, "1: random")
    choice = menu.press(Action(START))
    assert choice.seats == {"b": "engine", "w": "person"}
    assert choice.level == 1
    menu.press(seat_buttons(menu, "w")["engine"])
    assert menu.press(Action(START)).seats == {"b": "engine", "w": "engine"}


def test_back_closes_without_a_choice():
    assert tap(Menu(GAMES), "Back") == BACK
    assert Menu(GAMES).press(None) is None


def test_the_menu_opens_on_the_game_being_played():
    current = Choice("conhex", {"pie": False, "handicap": 2}, {"b": "engine", "w": "person"}, 1)
    assert Menu(GAMES, current).choice() == current


def test_every_value_the_menu_offers_makes_a_game():
    menu = Menu(GAMES)
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


# --- the load list ----------------------------------------------------------------------
def listed(count):
    """A menu with ``count`` saved games (plain names) that notes which it described."""
    asked = []

    def describe(name):
        asked.append(name)
        return f"{name}, 3 moves, pie rule", name != "broken"

    names = [f"game {n}" for n in range(count, 0, -1)]
    return Menu(GAMES, saved=names, describe=describe), asked


def test_without_saved_games_there_is_no_load_list():
    drawn = Menu(GAMES).draw(pygame.Surface((800, 480)))
    assert [b.label for b in drawn.buttons[-2:]] == ["Back", "Start"]
    with pytest.raises(KeyError):
        drawn.button("Saved games")


@pytest.mark.parametrize("size", [(800, 480), (1280, 800)])
def test_the_load_list_fits_and_describes_only_the_page_shown(size):
    menu, asked = listed(6)
    surface = pygame.Surface(size)
    drawn = menu.draw(surface)
    assert drawn.overlaps() == [] and drawn.outside(surface.get_rect()) == []
    tap(menu, "Saved games", size)
    drawn = menu.draw(surface)
    assert drawn.overlaps() == [] and drawn.outside(surface.get_rect()) == []
    assert "Saved games (1 of 2)" in drawn.text
    assert asked == ["game 6", "game 5", "game 4", "game 3"]  # newest first, one page
    assert not drawn.button("Newer").enabled and drawn.button("Older").enabled
    tap(menu, "Older", size)
    drawn = menu.draw(surface)
    assert [b.label for b in drawn.buttons][:2] == ["game 2, 3 moves, pie rule",
                                                    "game 1, 3 moves, pie rule"]
    assert asked[4:] == ["game 2", "game 1"] and not drawn.button("Older").enabled
    tap(menu, "Newer", size)
    menu.draw(surface)
    assert len(asked) == 6  # described once each


def test_a_saved_game_tapped_is_continued_and_one_that_does_not_load_cannot_be():
    menu = Menu(GAMES, saved=["game 2", "broken"],
                describe=lambda name: (name, name != "broken"))
    tap(menu, "Saved games")
    drawn = menu.draw(pygame.Surface((800, 480)))
    assert drawn.action_at(drawn.button("broken").rect.center) is None
    assert tap(menu, "game 2") == Continue("game 2")


def test_back_from_the_load_list_returns_to_the_new_game_rows():
    menu, _ = listed(2)
    tap(menu, "Saved games")
    assert tap(menu, "Back") is None
    assert "New game" in menu.draw(pygame.Surface((800, 480))).text
    assert tap(menu, "Back") == BACK


def console_with_records(tmp_path):
    """A console on a Kulami board whose store holds games of both games and boards."""
    from app.screen.console import Console
    from app.table.session import Session
    from app.table.store import RecordStore

    for game, profile, options, moves in (
            ("conhex", "conhex", {"pie": False, "handicap": 2}, ["f6", "e6", "d6"]),
            ("kulami", "kulami-sim", {"layout": "square-2", "scoring": 1}, ["d4"])):
        board = new_game(game, **options)
        for move in moves:
            board.push_text(move)
        RecordStore(tmp_path, profile=profile).start(board)
    (tmp_path / "games" / "000003-conhex.sgf").write_text("damaged")  # not this game
    store = RecordStore(tmp_path, profile="kulami")
    session = Session.resume_or_start(store, "kulami", {}, seed=1)
    loaded = []
    return Console(session, GAMES, load=loaded.append), loaded


def test_the_console_lists_every_other_saved_game_and_hands_the_one_tapped_to_load(tmp_path):
    console, loaded = console_with_records(tmp_path)
    surface = pygame.Surface((800, 480))
    console.draw(surface)
    console.tap(console.drawn.button("New game").rect.center)
    console.draw(surface)
    console.tap(console.drawn.button("Saved games").rect.center)
    drawn = console.draw(surface)
    labels = [b.label for b in drawn.buttons if b.action.name == "menu-load"]
    assert labels == [  # not the game being played (record 4), newest first
        "ConHex 3: does not load",
        "Kulami 2, 1 move, layout square-2, scoring level 1, board kulami-sim",
        "ConHex 1, 3 moves, no pie rule, handicap 2, board conhex"]
    assert drawn.outside(surface.get_rect()) == [] and drawn.overlaps() == []
    console.tap(drawn.button(labels[2]).rect.center)
    assert [s.path.name for s in loaded] == ["000001-conhex.sgf"] and console.menu is None


def test_a_console_without_load_offers_no_saved_games(tmp_path):
    console, _ = console_with_records(tmp_path)
    console.load = None
    surface = pygame.Surface((800, 480))
    console.draw(surface)
    console.tap(console.drawn.button("New game").rect.center)
    with pytest.raises(KeyError):
        console.draw(surface).button("Saved games")
