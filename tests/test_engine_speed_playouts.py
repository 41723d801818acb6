"""The fast playout paths keep the rules: each game's ``playout(rng, trace)`` agrees with
the public ``legal_moves``/``push`` move for move over random games, and names the
winner the public ``outcome()`` names. The speed itself is measured in bench/engines.py.
"""

from __future__ import annotations

import random

import pytest

from app.games import new_game
from engines.blokus_duo.pieces import BY_MASK, PIECES
from engines.blokus_duo.playout import placements
from engines.conhex.board import PLACEMENTS, SWAP
from engines.conhex.fill import SIDE_BITS, TOPS, fill_owners, joins
from engines.conhex.geometry import HOLE_INDEX, HOLES
from engines.core import PLAYERS
from engines.bits import indices
from engines.kulami.bits import geometry_of
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
    field_at = geometry_of(board.layout).field_at
    for legal, bit in trace:
        assert {str(move) for move in board.legal_moves} == {
            field_name(*field_at[b]) for b in indices(legal)}
        board.push_text(field_name(*field_at[bit]))
    outcome = board.outcome()
    assert outcome is not None and outcome.winner == winner
    assert dict(outcome.scores) == score(board.layout, board.occupancy, board.scoring,
                                         board.chain_lines)


CONHEX_SETUPS = [{}, {"pie": False}, {"handicap": 2}, {"handicap": 3}]


@pytest.mark.parametrize("options", CONHEX_SETUPS)
@pytest.mark.parametrize("seed", range(25))
def test_conhex_playout_names_the_winner_of_its_fill_played_move_by_move(options, seed):
    rng = random.Random(seed)
    board = random_start(new_game("conhex", **options), rng, seed % 12)
    before = list(board.move_stack)
    order = []
    winner = board.playout(rng, order)
    assert board.move_stack == before
    assert sorted(order) == sorted(HOLE_INDEX[str(m)] for m in board.legal_moves
                                   if m != SWAP)
    for hole in order:
        if board.is_game_over():
            break
        assert PLACEMENTS[hole] in set(board.legal_moves)
        board.push(PLACEMENTS[hole])
    assert board.outcome().winner == winner


@pytest.mark.parametrize("seed", range(40))
def test_a_full_conhex_board_has_exactly_one_chain(seed):
    """The fact the fill playout rests on: like Hex, a filled board joins the sides of
    exactly one player."""
    rng = random.Random(seed)
    order = rng.sample(range(len(HOLES)), len(HOLES))
    cells_b = fill_owners(order, order[0::2], order[1::2], {"b": 0, "w": 0},
                          {"b": 0, "w": 0})
    cells_w = TOPS & ~cells_b
    assert (joins(cells_b, SIDE_BITS["N"], SIDE_BITS["S"])
            != joins(cells_w, SIDE_BITS["W"], SIDE_BITS["E"]))


@pytest.mark.parametrize("largest_first", [False, True])
@pytest.mark.parametrize("start", ["either", "fixed"])
@pytest.mark.parametrize("seed", range(2))
def test_blokus_duo_playout_agrees_with_push_move_for_move(largest_first, start, seed):
    rng = random.Random(seed)
    board = random_start(new_game("blokus-duo", start=start), rng, 4 * seed)
    before = list(board.move_stack)
    trace = []
    winner = board.playout(rng, trace, largest_first=largest_first)
    assert board.move_stack == before
    for player, mask in trace:
        assert board.turn == PLAYERS[player]
        mover = board.turn
        listed = placements([n for n in range(len(PIECES)) if board._left[mover] >> n & 1],
                            board._forbidden[mover], board._attach[mover])
        assert {mask for mask, _ in listed} == {move.mask for move in board.legal_moves}
        board.push(BY_MASK[mask])
    assert board.is_game_over() and board.outcome().winner == winner
