"""The touch screen's Resign: lit only while a person at the table is to move, it asks
first (so that a stray tap ends no game), and the question's Resign ends the game for
that colour alone, its Play on (or any other tap) leaves everything as it was."""

import pygame
import pytest

from app.games import new_game
from app.screen.console import Console
from app.screen.paint import Action
from app.screen.status import RESIGN, draw_status
from app.table.ending import Termination
from app.table.session import Session, State

SIZES = [(800, 480), (1024, 600), (1920, 1080)]


def console_of(game="kulami", seats=None, moves=()):
    board = new_game(game)
    session = Session(board, seats=seats or {"b": "person", "w": "person"},
                      physical=False, level=1)
    for move in moves:
        session.confirm(move)
    return Console(session, [game]), session


def drawn(console, size=(800, 480)):
    return console.draw(pygame.Surface(size))


def tap(console, label):
    console.tap(console.drawn.button(label).rect.center)


def test_resign_asks_first_and_play_on_changes_nothing():
    console, session = console_of(moves=["d4"])
    assert drawn(console).button("Resign").action == Action(RESIGN, "w")
    revision = session.revision
    tap(console, "Resign")
    text = drawn(console).text
    assert "Resign for Black?" in text and "Red wins" in text
    assert session.resigned is None and session.revision == revision
    tap(console, "Play on")
    assert "Resign for Black?" not in drawn(console).text
    assert session.resigned is None and session.state == State.WAITING


def test_the_question_s_resign_ends_the_game_for_the_colour_to_move():
    console, session = console_of(moves=["d4"])
    drawn(console)
    tap(console, "Resign")
    drawn(console)
    tap(console, "Yes, resign")
    assert session.resigned == "w" and session.state == State.OVER
    shown = drawn(console)
    assert session.status().end.termination is Termination.RESIGNATION
    assert "Red wins: black resigned" in shown.text
    assert not shown.button("Resign").enabled  # the game is over


def test_any_other_tap_answers_the_question_with_no():
    console, session = console_of(moves=["d4"])
    drawn(console)
    tap(console, "Resign")
    drawn(console)
    tap(console, "Hint")
    assert session.resigned is None and "Resign for" not in drawn(console).text


def test_the_question_goes_once_its_colour_is_no_longer_to_move():
    """A move came while it was up (a player away's, placed; a board far away's): the
    question was for the colour to move then, and is not put to the other."""
    console, session = console_of(seats={"b": "person", "w": "person"}, moves=["d4"])
    drawn(console)
    tap(console, "Resign")
    session.confirm("d7")  # black moved meanwhile: red to move
    shown = drawn(console)
    assert "Resign for" not in shown.text
    # The question's answer, had it been tapped from the picture before, resigns nobody.
    console.resigning = "w"
    console.act(Action("resign_sure", "b"))
    assert session.resigned is None


def test_resign_is_grey_while_the_engine_or_a_player_away_is_to_move():
    console, session = console_of(seats={"b": "person", "w": "remote"}, moves=["d4"])
    assert not drawn(console).button("Resign").enabled  # the page's player to move
    console, session = console_of(seats={"b": "engine", "w": "person"})
    assert not drawn(console).button("Resign").enabled  # the engine to move
    session.poll()
    assert drawn(console).button("Resign").enabled  # the engine moved: black's turn


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", ["kulami", "conhex", "akron", "blokus-duo"])
def test_the_question_fits_without_overlap_or_cut_text(game, size):
    board = new_game(game)
    session = Session(board, seats={"b": "person", "w": "person"}, physical=False)
    session.confirm(str(board.legal_moves[0]))
    surface = pygame.Surface(size)
    shown = draw_status(surface, session.view(), resigning=session.board.turn)
    assert shown.overlaps() == [] and shown.outside(surface.get_rect()) == []
    assert {"Yes, resign", "Play on", "Resign"} <= {b.label for b in shown.buttons}


def test_the_load_list_calls_a_resigned_game_over(tmp_path):
    from app.screen.console import describe_saved
    from app.table.store import RecordStore

    store = RecordStore(tmp_path)
    session = Session.start_new(store, "kulami", {}, physical=False)
    session.confirm("d4")
    session.resign("w")
    (saved,) = store.saved()
    assert describe_saved(store, saved) == ("Kulami 1, 1 move, layout square-1, "
                                            "scoring level 0, over", True)
