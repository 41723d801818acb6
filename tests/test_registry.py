"""The engine registry and option handling shared by every game."""

import pytest

from app.games import GAMES, new_game
from engines.core import EngineError, Outcome, check_player


def test_unknown_games_list_the_known_ones():
    with pytest.raises(EngineError, match=r"unknown game 'chess' \(known: .*kulami"):
        new_game("chess")


def test_option_strings_are_converted_and_checked():
    assert new_game("kulami", scoring="2").scoring == 2
    with pytest.raises(EngineError, match="scoring must be 0, 1 or 2, not 'two'"):
        new_game("kulami", scoring="two")


def test_every_registered_game_keeps_the_board_protocol():
    for name in GAMES:
        board = new_game(name)
        assert board.turn == "b" and board.outcome() is None
        move = next(iter(board.legal_moves))
        assert board.parse_move(board.move_text(move)) == move  # text round trip
        board.push(move)
        assert board.turn == "w" and board.pop() == move and board.turn == "b"
        assert set(board.sensor_view()) <= set(board.holes)
        assert board.lights().legal <= set(board.holes)
        with pytest.raises(EngineError):
            board.pop()


def test_results_in_gtp_form():
    assert Outcome("b", {"b": 30, "w": 25}, "x").result() == "B+5"
    assert Outcome("w", {"b": 20, "w": 25}, "x").result() == "W+5"
    assert Outcome(None, {"b": 25, "w": 25}, "x").result() == "0"
    # A connection win has no margin, whatever the progress scores say.
    assert Outcome("w", {"b": 9, "w": 7}, "chain", by_score=False).result() == "W+"


@pytest.mark.parametrize("text, player", [("b", "b"), ("Black", "b"), ("W", "w"),
                                          ("white", "w")])
def test_gtp_colour_spellings(text, player):
    assert check_player(text) == player


def test_unknown_colour():
    with pytest.raises(EngineError, match="unknown colour 'red'"):
        check_player("red")
