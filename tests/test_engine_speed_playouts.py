"""The fast playout paths keep the rules: each game's ``playout(rng, trace)`` agrees with
the public ``legal_moves``/``push`` move for move over random games, and names the
winner the public ``outcome()`` names. The speed itself is measured in bench/engines.py.
"""

from __future__ import annotations

import random

import pytest

from app.games import new_game
from engines.kulami.bits import bits_of
from engines.kulami.layout import field_name
from engines.kulami.scoring import score

KULAMI_SETUPS = [{"layout": "square-1", "scoring": 0},
                 {"layout": "cross", "scoring": 1},
                 {"layout": "random-free:7", "scoring": 2},
                 {"layout": "square-3", "scoring": 2, "chain_lines": "diagonal"}]


def random_start(board, rng, plies):
    """The board after up to ``plies`` random moves through the public API."""
    for _ in range(plies):
        if board.is_game_over():
            break
        board.push(rng.choice(board.legal_moves))
    return board


@pytest.mark.parametrize("options", KULAMI_SETUPS)
@pytest.mark.parametrize("seed", range(6))
def test_kulami_playout_agrees_with_push_move_for_move(options, seed):
    rng = random.Random(seed)
    board = random_start(new_game("kulami", **options), rng, seed * 3)
    before = list(board.move_stack)
    trace = []
    winner = board.playout(rng, trace)
    assert board.move_stack == before  # the playout leaves the board as it was
    field_at = board.layout.geometry.field_at
    for legal, bit in trace:
        assert {str(move) for move in board.legal_moves} == {
            str(board.parse_move(field_name(*field_at[b]))) for b in bits_of(legal)}
        board.push(board.parse_move(field_name(*field_at[bit])))
    outcome = board.outcome()
    assert outcome is not None and outcome.winner == winner
    assert dict(outcome.scores) == score(board.layout, board.occupancy, board.scoring,
                                         board.chain_lines)

