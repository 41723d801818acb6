"""Resigning: a player ends the game on their own turn, the record keeps it, and every
call that is not theirs to make is refused in one line with the game untouched."""

import pytest

from app.games import new_game
from app.table.ending import Termination
from app.table.session import Session, State
from app.table.store import RecordStore
from tests.hands import Board


def session(tmp_path=None, game="kulami", moves=(), **kwargs):
    board = new_game(game)
    for move in moves:
        board.push_text(move)
    store = None
    if tmp_path is not None:
        store = RecordStore(tmp_path)
        store.start(board)
    return Session(board, store=store, seed=1, **kwargs)


def texts(session):
    return [str(m) for m in session.board.move_stack]


def untouched(game, before):
    """The game as it was: moves, state, offer, nothing resigned; the refusal said."""
    assert texts(game) == before and game.resigned is None and game.state != State.OVER
    assert game.message_kind == "error" and "cannot resign" in game.message


def test_a_person_resigns_on_their_turn_and_the_other_player_wins(tmp_path):
    game = session(tmp_path, seats={"b": "person", "w": "person"})
    table = Board(game)
    table.place("d4")
    game.resign("w")
    assert game.resigned == "w" and game.state == State.OVER and game.over
    status = game.status()
    assert status.turn is None and status.end.termination is Termination.RESIGNATION
    assert status.end.winner == "b" and status.end.record == "B+R"
    assert status.message_kind == "over" and "resigned" in status.message
    view = game.view()
    assert view.end_short == "Red wins: black resigned" and view.legal == {}
    # Nothing is asked of anyone: no legal targets lit, no hint, no more moves.
    assert "legal" not in game.scene().roles().values()
    game.hint()
    assert game.suggestion is None and game.thought is None


def test_the_record_keeps_the_resignation_and_a_restart_shows_the_game_ended(tmp_path):
    game = session(tmp_path, seats={"b": "person", "w": "engine"}, level=1)
    table = Board(game)
    table.place("d4")
    table.place(str(game.pending))
    game.resign("b")
    record = game.store.current.read_text()
    assert "RE[W+R]" in record and record.rstrip().endswith("B[resign])")
    again = Session.resume_or_start(RecordStore(tmp_path), "kulami", {},
                                    seats={"b": "person", "w": "engine"})
    assert again.resumed and again.resigned == "b" and again.state == State.OVER
    assert again.status().end.winner == "w" and again.thought is None
    assert again.pending is None  # the engine, to move next, thinks no more
    # A game still to be played is looked for past it (the terminal's resume).
    fresh = Session.resume_or_start(RecordStore(tmp_path), "kulami", {}, finished=False)
    assert not fresh.resumed and texts(fresh) == []


@pytest.mark.parametrize("game_name", ["kulami", "conhex", "akron", "blokus-duo"])
def test_every_game_s_record_reads_its_resignation_back(tmp_path, game_name):
    game = session(tmp_path, game=game_name, physical=False)
    first = str(game.board.legal_moves[0])
    game.confirm(first)
    game.resign(game.board.turn)
    resumed = RecordStore(tmp_path).resume()
    assert resumed.resigned == game.board.turn and resumed.over
    assert [str(m) for m in resumed.board.move_stack] == [first]


def test_the_table_resigns_only_a_colour_a_person_at_the_table_plays_on_its_turn():
    game = session(seats={"b": "person", "w": "engine"}, level=1)
    table = Board(game)
    game.resign("w")  # the engine's: never the table's to resign
    untouched(game, [])
    assert "the engine plays black, and the table does not resign for it" in game.message
    table.place("d4")
    game.resign("b")  # the engine's turn, its move lit: not red's turn
    untouched(game, ["d4"])
    assert game.pending is not None and "it is black's turn" in game.message
    game.resign("x")
    assert game.resigned is None and game.message == "no player 'x': b or w"


def test_a_player_away_resigns_only_their_own_colour():
    game = session(seats={"b": "person", "w": "remote"})
    table = Board(game)
    table.place("d4")
    game.resign("w")  # the table cannot resign for the page's player
    untouched(game, ["d4"])
    assert "black plays from the web page, and only they resign" in game.message
    game.resign("b", by="w")  # nor the page's player for the table's
    untouched(game, ["d4"])
    game.remote_move("w", "d7")  # their move lit, then they think better of it
    game.resign("w", by="w")
    assert game.resigned == "w" and game.pending is None and texts(game) == ["d4"]
    assert game.status().end.winner == "b"


def test_a_resignation_is_final_and_a_new_game_starts_another(tmp_path):
    game = session(tmp_path, seats={"b": "person", "w": "remote"})
    table = Board(game)
    table.place("d4")
    game.offer_takeback("w")
    game.remote_move("w", "d7")
    game.resign("w", by="w")
    assert game.offer is None
    for refused in (game.undo, lambda: game.undo("w"), lambda: game.offer_takeback("w")):
        refused()
        assert game.resigned == "w" and texts(game) == ["d4"] and game.offer is None
        assert "ended by resignation" in game.message
    game.resign("w", by="w")  # twice: the game is over
    assert "the game is over" in game.message and game.resigned == "w"
    game.confirm("d7")
    assert texts(game) == ["d4"]
    game.new_game()
    assert game.resigned is None and game.state != State.OVER and texts(game) == []
    assert "RE[" not in game.store.current.read_text()


def test_pieces_moved_after_a_resignation_are_no_move_and_take_nothing_back():
    game = session(seats={"b": "person", "w": "person"})
    table = Board(game)
    table.place("d4")
    game.resign("w")
    table.place("d7")  # a move black might have made: the game is over
    assert texts(game) == ["d4"] and game.resigned == "w"
    assert game.state == State.SYNC
    table.lift("d7")
    table.lift("d4")  # lifting the last move gives nothing back either
    assert texts(game) == ["d4"] and game.resigned == "w"
    table.place("d4")
    assert game.state == State.OVER
