"""The table's registry of games: one entry per game, every fact about it in that entry."""

import random

import pytest

from app.games import GAMES, game, new_game
from app.table.scene import game_scene, setup_scene
from engines import EngineError


def test_an_unknown_game_is_an_error_naming_the_known_ones_never_another_game():
    with pytest.raises(EngineError, match=r"unknown game 'chess' \(known: kulami, conhex, blokus-duo, akron\)"):
        game("chess")
    with pytest.raises(EngineError, match="unknown game 'othello'"):
        new_game("othello")


@pytest.mark.parametrize("name", GAMES)
def test_an_entry_names_its_engine_players_and_drawer(name):
    entry = game(name)
    board = entry.new_board()
    assert board.game == name == entry.name and entry.drawer_class().game == name
    assert sorted(entry.players) == ["b", "w"]
    names = {player.name for player in entry.players.values()}
    leds = {player.led for player in entry.players.values()}
    assert len(names) == 2 and len(leds) == 2  # the two sides never look alike
    assert entry.describe(board.options) and entry.score_label
    for option in entry.menu:
        assert board.options[option.key] in option.choices() or option.key == "layout"
        assert all(option.words(value) for value in option.choices())


@pytest.mark.parametrize("name", GAMES)
def test_scenes_light_only_the_roles_the_entry_declares(name):
    rng = random.Random(3)
    board = new_game(name)
    seen = set(setup_scene(board).roles().values())
    while not board.is_game_over():
        seen |= set(game_scene(board, suggestion=board.holes[:1]).roles().values())
        board.push(rng.choice(list(board.legal_moves)))
    seen |= set(game_scene(board).roles().values())
    assert seen <= set(game(name).roles)


def test_option_words_come_from_the_entry():
    assert game("conhex").describe({"pie": False, "handicap": 3}) == ["no pie rule",
                                                                        "handicap 3"]
    assert game("kulami").describe({"layout": "random:7", "scoring": 0}) == [
        "layout random:7", "scoring level 0"]
