"""Whole Kulami games: engine players on generated layouts, records, and scoring."""

import random

import pytest
from hypothesis import given, settings, strategies as st

from app.games import new_game
from engines.core import RecordError
from engines.kulami.board import KulamiBoard
from engines.kulami.scoring import chains, largest_area
from engines.players import choose_move


def reference_panel_score(board):
    """Panel scores counted straight from the rule sheet, marble by marble."""
    totals = {"b": 0, "w": 0}
    for panel, holes in board.areas.items():
        marbles = [board.sensor_view().get(h) for h in holes]
        if marbles.count("b") != marbles.count("w"):
            winner = "b" if marbles.count("b") > marbles.count("w") else "w"
            totals[winner] += len(holes)
    return totals


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), square=st.booleans(), level=st.sampled_from([0, 1, 2]),
       levels=st.tuples(st.sampled_from([1, 2]), st.sampled_from([1, 2])))
def test_engine_players_finish_on_any_generated_layout_and_score_right(seed, square, level,
                                                                       levels):
    spec = f"{'random' if square else 'random-free'}:{seed}"
    board = new_game("kulami", layout=spec, scoring=level)
    rng = random.Random(seed)
    while not board.is_game_over():
        move = choose_move(board, levels[len(board.move_stack) % 2], rng)
        assert move in board.legal_moves
        board.push(move)
    outcome = board.outcome()
    expected = reference_panel_score(board)
    occupancy = board.occupancy
    if level >= 1:
        area = {p: largest_area(occupancy, p) for p in "bw"}
        expected["b"] += max(0, area["b"] - area["w"])
        expected["w"] += max(0, area["w"] - area["b"])
    if level >= 2:
        chain = {p: sum(chains(occupancy, p)) for p in "bw"}
        expected["b"] += max(0, chain["b"] - chain["w"])
        expected["w"] += max(0, chain["w"] - chain["b"])
    assert dict(outcome.scores) == expected
    if expected["b"] == expected["w"]:
        assert outcome.winner is None and outcome.result() == "0"
    else:
        assert outcome.winner == max("bw", key=expected.get)
    # The record keeps the layout and loads back to the same game.
    again = KulamiBoard.from_record(board.to_record())
    assert again.layout == board.layout and again.move_stack == board.move_stack
    assert again.outcome() == outcome


def test_the_greedy_player_beats_the_random_player_more_often_than_not():
    wins = 0
    for seed in range(20):
        board = new_game("kulami", layout=f"random:{seed}")
        rng = random.Random(seed)
        greedy = "b" if seed % 2 else "w"
        while not board.is_game_over():
            board.push(choose_move(board, 2 if board.turn == greedy else 1, rng))
        wins += board.outcome().winner == greedy
    assert wins >= 12


RECORD = """(;GM[Kulami]FF[4]CA[UTF-8]AP[Tabletop]
LY[aaabbccd/aaaeeccd/ffgeehhd/iigjjhhk/iiljjhhk/mmljjnnk/mmloonnp/qqqoonnp]SC[1]CL[diagonal]
;B[d4];W[d7];B[d2])"""


def test_a_record_loads_with_its_options():
    board = KulamiBoard.from_record(RECORD)
    assert [str(m) for m in board.move_stack] == ["d4", "d7", "d2"]
    assert board.scoring == 1 and board.turn == "w"
    assert KulamiBoard.from_record(board.to_record()).ascii() == board.ascii()


@pytest.mark.parametrize("text, message", [
    ("", "SGF: the record ends early; expected '('"),
    ("(;GM[Kulami]", "SGF: the record ends early"),
    ("(;GM[Conhex]LY[x])", "not a Kulami record"),
    ("(;GM[Kulami])", "Kulami record has no layout"),
    ("(;GM[Kulami]LY[zz/zz])", "layout has 0 panels of 2x3"),
    (RECORD.replace("SC[1]", "SC[4]"), "SC must be 0, 1 or 2"),
    (RECORD.replace(";W[d7]", ";B[d7]"), "move 2 (B[d7]): it is w's turn, not b's"),
    (RECORD.replace(";W[d7]", ";W[e5]"), "move 2 (W[e5]): e5 is not in the row or column"),
    (RECORD.replace(";W[d7]", ";W[q9]"), "move 2 (W[q9]): 'q9' is not a field"),
    (RECORD.replace(";W[d7]", ";C[hi]"),
     "move 2: a node needs exactly one of B[..] or W[..], found 0"),
    (RECORD + "junk", "SGF: unexpected text after the game"),
])
def test_broken_records_are_refused_with_a_one_line_reason(text, message):
    with pytest.raises(RecordError) as error:
        KulamiBoard.from_record(text)
    assert message in str(error.value) and "\n" not in str(error.value)
