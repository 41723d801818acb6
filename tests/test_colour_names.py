"""Messages name the players by their colours (red, black, blue), never by the letters
``b`` and ``w`` the engines and the wire use, whatever the engine's own wording."""

import re

import pygame
import pytest

from app.games import new_game
from app.screen.status import draw_status
from app.table import texts
from app.table.ending import End
from app.table.session import Session
from engines.core import Outcome
from engines.conhex.board import SWAP

LETTER = re.compile(r"(?<![\w'-])[bw](?![\w-])")


def shown(session):
    return draw_status(pygame.Surface((800, 480)), session.view()).text


def test_the_engines_reasons_read_with_colour_names():
    assert texts.named("conhex", "swap is only legal as w's first action") == \
        "swap is only legal as blue's first action"
    assert texts.named("kulami", "w has no legal field") == "black has no legal field"
    assert texts.named("conhex", "b joins N and S with a chain of cells").startswith("red ")
    assert texts.named("kulami", "b2 is taken; take the piece off b3 e4") == \
        "b2 is taken; take the piece off b3 e4"  # hole names stay as they are


@pytest.mark.parametrize("game,reason", [("kulami", "w has no legal field"),
                                         ("conhex", "b joins N and S with a chain of cells"),
                                         ("kulami", "b resigned")])
def test_game_over_names_colours(game, reason):
    outcome = Outcome("b", {"b": 30, "w": 20}, reason)
    for text in (texts.end_long(game, End.of(outcome)),
                 texts.end_short(game, End.of(outcome))):
        assert not LETTER.search(text), text


def test_an_illegal_swap_on_the_screen_names_the_colour():
    board = new_game("conhex", pie=True)
    board.push_text("f6")
    board.push_text("e6")  # the swap is now too late
    session = Session(board)
    session.confirm("swap")
    assert board.illegal_reason(SWAP) in session.message  # the engine's own words
    text = shown(session)
    assert "Swap is only legal as blue's first action" in text
    assert not LETTER.search(text), text


@pytest.mark.parametrize("game", ["kulami", "conhex"])
def test_a_finished_game_on_the_screen_names_colours(game):
    import random
    from engines.players import choose_move
    board, rng = new_game(game), random.Random(2)
    while not board.is_game_over():
        board.push(choose_move(board, 1, rng))
    session = Session(board)
    session.message = ""  # the screen's own game-over line, from the outcome's reason
    text = shown(session)
    assert "Game over: " in text
    assert not LETTER.search(text), text
