"""The terminal's resign: listed on the help line only while the player at the keyboard
may resign, it asks first (so that a slip of the keyboard ends no game), a yes ends the
game for the player to move through the session (saved as a resignation, shown as the
status screen and the page show one), and a no or a refusal leaves the game as it was."""

import io
import sys

from app.cli import main
from app.cli.play import help_line, play, resign
from app.games import new_game
from app.table.ending import Termination
from app.table.session import Session
from app.table.store import RecordStore
from app.table.thinker import InlineThinker
from tests.test_terminal_play import data, help_words, plain  # noqa: F401 (a fixture)

PEOPLE = {"b": "person", "w": "person"}
AGAINST_ENGINE = {"b": "person", "w": "engine"}


def session_of(seats, moves=(), game="kulami"):
    board = new_game(game)
    session = Session(board, seats=dict(seats), level=1, seed=1, physical=False,
                      thinker=InlineThinker())
    for move in moves:
        session.confirm(move)
    return session


def typed(session, *lines):
    """What the terminal prints for ``lines`` typed into ``session``'s game."""
    out = io.StringIO()
    play(session, io.StringIO("".join(line + "\n" for line in lines)), out, colour=False)
    return plain(out.getvalue())


def test_the_help_line_lists_resign_only_while_the_player_at_the_keyboard_may():
    session = session_of(PEOPLE, ["d4"])
    assert "resign" in help_words(help_line(session.board, session.view()))[2]
    # the engine to move: nobody at the keyboard may resign for it
    engine = session_of(AGAINST_ENGINE, ["d4"])
    assert engine.board.turn == "w"
    assert "resign" not in help_words(help_line(engine.board, engine.view()))[2]
    # a game over: nobody resigns any more
    session.resign("w")
    assert "resign" not in help_words(help_line(session.board, session.view()))[2]


def test_resign_asks_first_and_no_plays_on_with_nothing_changed():
    session = session_of(PEOPLE, ["d4"])
    text = typed(session, "resign", "n", "d6", "quit")
    assert "Resign for Black? (y/n) Play on." in text
    assert session.resigned is None and "resigned" not in text
    # the game goes on: the next line is a move again, and black's
    assert [str(m) for m in session.board.move_stack] == ["d4", "d6"]


def test_yes_ends_the_game_for_the_player_to_move_as_a_resignation():
    session = session_of(AGAINST_ENGINE)
    text = typed(session, "resign", "y")
    assert "Resign for Red? (y/n)" in text
    assert session.resigned == "b" and session.board.move_stack == []
    assert session.view().end.termination is Termination.RESIGNATION
    assert text.rstrip().endswith(session.view().end_long)
    assert "Black wins: red resigned" in session.view().end_long
    assert "Moves: " not in text.split("(y/n)", 1)[1]  # no prompt after the end


def test_a_refusal_is_the_session_s_one_line_and_nothing_is_asked():
    session = session_of(AGAINST_ENGINE, ["d4"])  # the engine to move, not yet played
    out = io.StringIO()
    view = session.view()
    assert resign(session, view, io.StringIO("y\n"), out) is True
    assert out.getvalue() == ""  # nothing asked: the caller says the session's line
    assert session.resigned is None and session.message_kind == "error"
    assert session.message == "black cannot resign: the engine plays black, and the table does not resign for it"
    assert [str(m) for m in session.board.move_stack] == ["d4"]


def test_a_resignation_typed_is_saved_and_not_continued(data, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("d4\nresign\nyes\n"))
    assert main(["play", "kulami", "--black", "person"]) == 0
    out = plain(capsys.readouterr().out)
    assert "Resign for Black? (y/n)" in out and "Red wins: black resigned" in out
    store = RecordStore(data)
    (saved,) = store.saved()
    record = store.read(saved.path)
    assert record.resigned == "w" and [str(m) for m in record.board.move_stack] == ["d4"]
    # a resigned game is over: the next 'tabletop play' starts a new one
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    main(["play"])
    assert "New game: 000002-kulami.sgf" in capsys.readouterr().out
