"""The route behind the page's piece picker (/api/pieces): the shaped pieces each player
has left and, at a browser's turn, where each may go, as the engine says; nothing for a
game whose pieces fill one hole."""

from app.web.pairing import TOKEN_HEADER
from tests.web_table import call, served, settle

CODE = "246801"


def paired(front):
    status, body, _ = call("POST", front.url + "api/pair", json={"code": CODE})
    assert status == 200
    return {TOKEN_HEADER: body["token"]}


def test_the_pieces_left_and_their_legal_placements_come_from_the_engine(tmp_path,
                                                                         monkeypatch):
    with served(tmp_path, monkeypatch, CODE, "blokus-duo", {"start": "fixed"}) as (
            board, front):
        pieces = call("GET", front.url + "api/pieces")[1]
        game = board.session.board
        assert list(pieces["shapes"]) == list(game.shapes())
        assert pieces["left"]["b"] == list(game.pieces_left("b")) and len(
            pieces["left"]["b"]) == 21
        assert pieces["player"] is None and pieces["placements"] == {}  # the table plays

        alice = paired(front)
        call("POST", front.url + "api/command", json={"action": "take_seat", "colour": "w"},
             headers=alice)
        board.step()
        board.place("e10")  # the table's black puts its monomino on its start point
        settle(board)
        pieces = call("GET", front.url + "api/pieces")[1]
        game = board.session.board
        assert "1" not in pieces["left"]["b"] and len(pieces["left"]["w"]) == 21
        assert pieces["player"] == "w"
        listed = {entry["move"]: (piece, entry["squares"])
                  for piece, entries in pieces["placements"].items() for entry in entries}
        legal = {game.move_text(m): m for m in game.legal_moves}
        assert set(listed) == set(legal)
        for text, (piece, squares) in listed.items():
            assert piece == legal[text].piece
            assert squares == sorted(game.holes_of(legal[text]))
        assert all("j5" in squares for _, squares in listed.values())


def test_a_game_of_single_pieces_has_no_picker(tmp_path, monkeypatch):
    with served(tmp_path, monkeypatch, CODE) as (board, front):
        status, pieces, _ = call("GET", front.url + "api/pieces")
        assert status == 200 and pieces["shapes"] == {}
