"""The snapshot the page draws: every game's places, areas, pieces and lights, as plain
JSON, from the same status and scene the screen and the LEDs show."""

import json

import pytest

from app.games import GAMES, new_game
from app.table.session import Session
from app.web.snapshot import snapshot
from engines.players import choose_move

#: A few moves of each game, and what its pieces look like on the page.
GAMES_SEEN = {"kulami": "marble", "conhex": "marble", "blokus-duo": "square", "akron": "ball"}


def played(name, moves=6, seed=3):
    import random
    board, rng = new_game(name), random.Random(seed)
    for _ in range(moves):
        board.push(choose_move(board, 1, rng))
    return board


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_game_s_snapshot_places_every_hole_and_piece(name):
    board = played(name)
    session = Session(board, seats={"b": "person", "w": "person"})
    state = json.loads(json.dumps(snapshot(session.view())))  # plain JSON, nothing else
    view = state["board"]
    assert view["shape"] == GAMES_SEEN[name]
    assert set(view["holes"]) == set(board.holes)
    assert view["pieces"] == board.piece_view()
    assert set(view["pieces"]) <= set(view["holes"]) | set(view["places"])
    assert set(state["lights"]) <= set(board.holes) | set(board.areas)
    assert {area: set(holes) for area, holes in view["areas"].items()} == \
        {area: set(holes) for area, holes in board.areas.items()}
    assert state["status"]["moves"] == [board.move_text(m) for m in board.move_stack]
    assert view["last"] and set(view["last"]) <= set(view["holes"]) | set(view["places"])
    for entry in state["legend"]:
        assert entry["colour"].startswith("#") and entry["meaning"]


def test_a_ball_above_the_holes_is_placed_at_its_level():
    from tests.test_akron_simulator import PYRAMID, played as akron_played
    board = akron_played(PYRAMID)
    view = snapshot(Session(board).view())["board"]
    # in hole spacings: 3c3 straight above the hole 1c3, 2b2 between four holes
    assert view["places"]["3c3"] == [1, 1, 3] and view["places"]["2b2"] == [0.5, 0.5, 2]
    assert view["holes"]["1c3"] == [1, 1, 1] and "3c3" not in view["holes"]
    assert view["labels"]["columns"][:2] == [[0, "a"], [1, "c"]]
    assert view["labels"]["rows"][-1] == [7, "15"]


def test_akron_s_snapshot_gives_each_player_the_two_edges_it_joins():
    """White (b) joins south to north, red (w) west to east: the page colours each edge
    by its player, from the board's own answer (a game without sides has none)."""
    view = snapshot(Session(new_game("akron")).view())["board"]
    assert view["goal_edges"] == {
        "b": [[f"1{c}1" for c in "acegikmo"], [f"1{c}15" for c in "acegikmo"]],
        "w": [[f"1a{r}" for r in range(1, 16, 2)], [f"1o{r}" for r in range(1, 16, 2)]]}
    assert snapshot(Session(new_game("kulami")).view())["board"]["goal_edges"] == {}


def test_the_end_of_a_game_carries_its_sheet_and_result():
    board = new_game("akron")
    for row in range(1, 16, 2):
        board.push_text(f"1a{row}")
        board.push_text(f"1o{row}")
    state = snapshot(Session(board).view())
    assert state["status"]["turn"] is None
    assert state["status"]["result"] == {"winner": "b", "text": "White wins", "record": "B+"}
    assert state["sheet"][0] == "Balls on the board: White 8, Red 8"


def test_a_move_made_by_button_comes_with_the_game_s_own_words():
    board = new_game("conhex", pie=True)
    board.push_text("f6")
    state = snapshot(Session(board, seats={"b": "person", "w": "person"}).view())
    assert state["offers"] == [{"move": "swap", "words": "Blue may swap: take over Red's "
                                                         "first gem, and Red moves next"}]
    state = snapshot(Session(board, seats={"b": "person", "w": "engine"}).view())
    assert state["offers"] == []  # the engine's to choose, not a button's


def test_the_end_is_a_typed_value_worded_once_a_length():
    from app.table.ending import End, Termination
    from app.table import texts
    from engines.core import Outcome
    board = new_game("akron")
    for row in range(1, 16, 2):
        board.push_text(f"1a{row}")
        board.push_text(f"1o{row}")
    state = snapshot(Session(board).view())
    assert state["end"] == {
        "termination": "connection", "winner": "b", "record": "B+", "short": "White wins",
        "long": "Game over: white joins bottom and top with a chain of balls. White wins."}
    ends = {Termination.POINTS: Outcome("w", {"b": 19, "w": 27}, "b has no legal field"),
            Termination.RESIGNATION: Outcome("b", {"b": 3, "w": 4}, "w resigned",
                                             by_score=False, resignation=True),
            Termination.NO_MOVES: Outcome(None, {"b": 5, "w": 5}, "two passes",
                                          by_score=False)}
    words = {termination: (texts.end_short("kulami", End.of(outcome)),
                           texts.end_long("kulami", End.of(outcome)))
             for termination, outcome in ends.items()}
    assert all(End.of(outcome).termination is termination
               for termination, outcome in ends.items())
    assert words == {
        Termination.POINTS: ("Black wins by 8, 27 to 19",
                             "game over: red has no legal field. Black wins by 8, 27 to 19."),
        Termination.RESIGNATION: ("Red wins: black resigned",
                                  "game over: Red wins: black resigned."),
        Termination.NO_MOVES: ("A draw", "game over: two passes. A draw.")}


def test_the_score_sheet_is_the_board_s_not_its_moves_replayed(monkeypatch):
    """The end screen worked its sheet out by replaying the status's moves on a new board;
    the view takes it from the board the session plays."""
    import app.games
    board = new_game("akron")
    for row in range(1, 16, 2):
        board.push_text(f"1a{row}")
        board.push_text(f"1o{row}")
    session = Session(board)
    monkeypatch.setattr(app.games.GameInfo, "new_board", lambda *a, **k: 1 / 0)
    assert session.view().sheet[0] == "Balls on the board: White 8, Red 8"
