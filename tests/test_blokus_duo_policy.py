"""Blokus Duo's search policy (engines/blokus_duo/policy.py, playout.py): the move priors
weigh what the move does to both players' room (piece size, attachment points gained,
the opponent's taken, own ones wasted), the fast scoring agrees with a plain square by
square reading, the guided playouts stay legal and answer contact, and the search's
start from the priors leaves every other game as it was.

Positions are played from Pentobi's fixed start (``b`` on e10, ``w`` on j5) with the
opening the rule sheet draws: each side's X on its start point."""

from __future__ import annotations

import random
import statistics
import time

import pytest

from app.games import new_game
from engines.blokus_duo.pieces import BY_MASK, PIECES, edges
from engines.blokus_duo.playout import placements
from engines.blokus_duo.policy import (BlokusDuoPolicy, Margins, move_features, move_scores,
                                       weighed)
from engines.core import PLAYERS
from engines.players import MOST_SECONDS, choose_move
from engines.search import Policy, policy_of, search

X_B, X_W = "e9,d10,e10,f10,e11", "j4,i5,j5,k5,j6"
#: b's W piece from the X's lower right corner towards the centre: b then has i8 and h9
#: as attachment points, right in front of w's X.
W_B = "f8,g8,g7,h7,h6"


def board_after(*moves: str):
    board = new_game("blokus-duo", start="fixed")
    for move in moves:
        board.push_text(move)
    return board


def score(board, text: str) -> float:
    return move_scores(board, [board.parse_move(text)])[0]


def test_the_first_x_gains_eight_corners_each_with_two_open_squares():
    features = move_features(board_after(), board_after().parse_move(X_B))
    assert features == {"size": 5, "blocked": 0, "open_corners": 8, "room": 16,
                        "edge_open": 8, "edge_attach": 0, "contact": 0, "centre": 2.0}


def test_priors_put_the_large_pieces_first_at_the_start():
    board = board_after()
    moves = list(board.legal_moves)
    best_by_size: dict[int, float] = {}
    for move, value in zip(moves, move_scores(board, moves)):
        size = move.mask.bit_count()
        best_by_size[size] = max(best_by_size.get(size, value), value)
    assert best_by_size[5] > max(best_by_size[s] for s in (1, 2, 3, 4)) + 1
    assert best_by_size[4] > max(best_by_size[2], best_by_size[3])
    priors = policy_of(board).priors(board, moves)
    assert max(priors) == 1.0 and min(priors) > 0.0
    assert moves[priors.index(1.0)].mask.bit_count() == 5


def test_taking_the_opponents_attachment_points_counts():
    board = board_after(X_B, X_W, W_B)
    assert board.turn == "w" and {"i8", "h9"} <= board.attachment_points("b")
    # The I3 from w's corner i7 covers b's attachment point i8 and i9 beside h9.
    blocking = move_features(board, board.parse_move("i7,i8,i9"))
    elsewhere = move_features(board, board.parse_move("k7,k8,k9"))
    assert blocking["blocked"] == 2 and blocking["contact"] == 1
    assert elsewhere["blocked"] == 0 and elsewhere["contact"] == 0
    assert score(board, "i7,i8,i9") > score(board, "k7,k8,k9") + 2


def test_closing_an_own_attachment_point_costs():
    board = board_after(X_B, X_W, W_B, "i7,i8,i9")
    assert board.turn == "b" and "d8" in board.attachment_points("b")
    # Both I3s start at the attachment point c9; the upright one runs along d8.
    upright = move_features(board, board.parse_move("c9,c8,c7"))
    flat = move_features(board, board.parse_move("a9,b9,c9"))
    assert upright["edge_attach"] == 1 and flat["edge_attach"] == 0
    assert score(board, "c9,c8,c7") < score(board, "a9,b9,c9")


def test_the_weights_point_the_way_the_policy_says():
    board = board_after(X_B, X_W)
    base = {"size": 4, "blocked": 0, "open_corners": 2, "room": 4, "edge_open": 4,
            "edge_attach": 0, "contact": 0, "centre": 3.0}

    def changed(**change) -> float:
        return weighed(board, {**base, **change}) - weighed(board, base)

    assert changed(size=5) > 1 and changed(size=3) < 0
    assert changed(blocked=1) > 1
    assert changed(open_corners=3, room=7) > 0  # a new corner with three open sides
    assert changed(open_corners=3, room=4) < 0  # one hemmed in gains nothing
    assert changed(edge_open=5) < 0 and changed(edge_attach=1) < changed(edge_open=5)


@pytest.mark.parametrize("seed", range(4))
def test_fast_scores_agree_with_the_plain_reading(seed):
    rng = random.Random(seed)
    board = new_game("blokus-duo", start="fixed")
    for _ in range(4 + 5 * seed):
        board.push(rng.choice(list(board.legal_moves)))
    moves = list(board.legal_moves)[::7]
    for move, value in zip(moves, move_scores(board, moves)):
        assert weighed(board, move_features(board, move)) == pytest.approx(value)


@pytest.mark.parametrize("start", ["either", "fixed"])
@pytest.mark.parametrize("seed", range(3))
def test_guided_playouts_agree_with_push_move_for_move(start, seed):
    rng = random.Random(seed)
    board = new_game("blokus-duo", start=start)
    for _ in range(3 * seed):
        board.push(rng.choice(list(board.legal_moves)))
    before = list(board.move_stack)
    trace = []
    scores = board.playout_scores(rng, trace, largest_first=True, guided=True)
    assert board.move_stack == before
    for player, mask in trace:
        assert board.turn == PLAYERS[player]
        mover = board.turn
        listed = placements([n for n in range(len(PIECES)) if board._left[mover] >> n & 1],
                            board._forbidden[mover], board._attach[mover])
        assert mask in {mask for mask, _ in listed}
        board.push(BY_MASK[mask])
    assert board.is_game_over() and (scores[0], scores[1]) == (board.scores()["b"],
                                                                board.scores()["w"])


def test_guided_playouts_answer_the_opponents_latest_piece():
    """w to move after b's W reached i8 and h9: every guided playout's first piece (a
    pentomino, the only size drawn in the first moves) covers b's new corners or a
    square beside them."""
    board = board_after(X_B, X_W, W_B)
    threat = board.recent_corners("b")
    _, w_forbidden, _, _ = board.masks("w")
    _, b_forbidden, _, _ = board.masks("b")
    contact = (threat | (edges(threat) & ~b_forbidden)) & ~w_forbidden
    rng = random.Random(5)
    for _ in range(20):
        trace = []
        board.playout_scores(rng, trace, largest_first=True, guided=True)
        player, mask = trace[0]
        assert PLAYERS[player] == "w" and mask.bit_count() == 5 and mask & contact


def test_guided_playouts_draw_smaller_pieces_too_once_the_opening_is_over():
    """Past the first ten pieces a guided playout's first piece is drawn among every size
    that fits, large ones most often, not always one of the largest."""
    rng = random.Random(7)
    board = new_game("blokus-duo", start="fixed")
    while len(board.move_stack) < 12:
        board.push(rng.choice(list(board.legal_moves)))
    assert any(move.mask.bit_count() == 5 for move in board.legal_moves)
    sizes = []
    for seed in range(60):
        trace = []
        board.playout_scores(random.Random(seed), trace, largest_first=True, guided=True)
        sizes.append(trace[0][1].bit_count())
    assert min(sizes) < 5 and sizes.count(5) > len(sizes) / 2


def test_the_blokus_playout_value_counts_the_winner_and_a_little_the_margin():
    policy, board = BlokusDuoPolicy(), board_after(X_B, X_W)
    values = [policy.value(board, random.Random(seed)) for seed in range(30)]
    assert all(0.0 <= value <= 1.0 for value in values)
    # Mostly who won: a win is worth more than any loss.
    wins = [v for v in values if v > 0.5]
    losses = [v for v in values if v < 0.5]
    assert wins and losses and min(wins) > 1 - policy.margin_weight > max(losses)


def test_blokus_duo_and_akron_start_children_from_their_priors_and_only_blokus_duo_caps():
    assert Policy.prior_visits == 0.0 and Policy.most_seconds is None
    for game in ("kulami", "conhex"):
        policy = policy_of(new_game(game))
        assert policy.prior_visits == 0.0 and policy.most_seconds is None
    policy = policy_of(new_game("akron"))
    assert policy.prior_visits > 0 and policy.most_seconds is None
    policy = policy_of(new_game("blokus-duo"))
    assert policy.prior_visits > 0 and policy.most_seconds < 2.0 < MOST_SECONDS


def test_the_search_keeps_to_the_time_cap(monkeypatch):
    board = board_after()
    policy = policy_of(board)
    monkeypatch.setattr(policy, "most_seconds", 0.05)
    monkeypatch.setattr(policy, "max_playouts", 10_000)
    started = time.perf_counter()
    move = choose_move(board, 4, random.Random(1))
    assert time.perf_counter() - started < 1.0 and move in set(board.legal_moves)


def test_a_small_search_plays_a_large_piece_first():
    board = board_after()
    move = search(board, random.Random(3), playouts=30)
    assert move.mask.bit_count() == 5


def test_every_weight_is_a_whole_number_of_units():
    """The scores add whole units, so Python and the compiled core agree exactly: a
    weight that is not a whole number of units would be rounded without a word."""
    from engines.blokus_duo import policy
    weights = [*policy.SIZE_WEIGHT.values(), policy.BLOCK_WEIGHT, policy.CORNER_BASE,
               policy.CORNER_ROOM, policy.EDGE_OPEN, policy.EDGE_ATTACH, policy.LOCAL_WEIGHT,
               policy.CENTRE_WEIGHT]
    for weight in weights:
        assert weight * policy.UNIT == pytest.approx(round(weight * policy.UNIT), abs=1e-9)
    assert all(distance == round(distance) for distance in policy.CENTRE.values())


def test_a_margin_counts_in_standard_deviations_from_the_searchs_margins_so_far():
    """The margin's share reads a playout's margin against those before it in the same
    search: the running mean and spread are the plain ones of the margins so far."""
    margins, seen = Margins(), []
    for margin in (-12, -12, -3, -20, 5, -9, -14, -1):
        seen.append(margin)
        spread = statistics.pstdev(seen)
        expected = (margin - statistics.fmean(seen)) / spread if spread else 0.0
        assert margins.standardised(margin) == pytest.approx(expected, abs=1e-12)


def test_each_search_counts_its_own_margins():
    """A search's margins start afresh: the policy the game registers keeps none, so a
    search is the same whatever searched before it."""
    policy = BlokusDuoPolicy()
    first, second = policy.for_search(), policy.for_search()
    first._margins.standardised(-30)
    assert second._margins.count == 0 and policy._margins is None
    board = new_game("blokus-duo", start="fixed")
    search(board, random.Random(3), playouts=64)
    assert policy_of(board)._margins is None
