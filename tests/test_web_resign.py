"""Resigning from the page, through the real server beside a simulated board: a browser
that holds a seat resigns its own colour on its turn, with the pairing code's token as
every change; anything else is refused in one line and the game goes on. The saved
games list and replay a resigned game as ended."""

from app.table.session import State
from tests.test_web_server import (CODE, command, paired, table,  # noqa: F401
                                   two_moves_with_white_away)
from tests.web_table import call, served, settle


def moves(board):
    return [board.session.board.move_text(m) for m in board.session.board.move_stack]


def test_a_browser_resigns_its_own_colour_on_its_turn(table):
    board, front = table
    alice = two_moves_with_white_away(board, front)
    assert command(front, alice, action="resign")[0] == 202  # red's turn: not hers yet
    board.step()
    assert board.session.resigned is None and "cannot resign" in board.session.message
    board.place("d2")
    settle(board)
    assert command(front, alice, action="resign")[0] == 202
    board.step()
    assert board.session.resigned == "w" and board.session.state is State.OVER
    state = call("GET", front.url + "api/state")[1]
    assert state["status"]["turn"] is None and state["legal"] == []
    assert state["end"]["termination"] == "resignation"
    assert state["end"]["short"] == "Red wins: black resigned"
    assert moves(board) == ["d4", "d7", "d2"]


def test_resigning_needs_the_token_and_a_seat(table):
    board, front = table
    status, body, _ = call("POST", front.url + "api/command", json={"action": "resign"})
    assert status == 401 and "pair this browser first" in body["error"]
    status, body, _ = command(front, paired(front), action="resign")  # paired, no seat
    assert status == 403 and "take a seat first" in body["error"]
    board.step()
    assert board.session.resigned is None and board.session.state is State.WAITING


def test_a_resigned_game_is_listed_and_replayed_as_ended(tmp_path, monkeypatch):
    with served(tmp_path, monkeypatch, CODE) as (board, front):
        alice = two_moves_with_white_away(board, front)
        board.place("d2")
        settle(board)
        command(front, alice, action="resign")
        board.step()
        [entry] = call("GET", front.url + "api/games")[1]
        assert entry["result"] == "Red wins: black resigned" and entry["moves"] == 3
        replay = call("GET", front.url + f"api/games/{entry['name']}")[1]
        assert replay["result"] == "Red wins: black resigned"
