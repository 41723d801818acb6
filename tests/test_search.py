"""The shared search (engines/search.py): deterministic under a node budget, leaves the
board as it was, reports progress and stops when the caller raises, takes a win in one,
and searches a game with neither its own playout nor its own policy (as a new game
starts) through the public API. Budgets are playouts, never seconds: quick and exact."""

from __future__ import annotations

import importlib
import importlib.util
import random

import pytest

from app.games import new_game
from engines.kulami.board import KulamiBoard
from engines.search import CHECK_EVERY, Policy, policy_of, search

#: A small budget per game: a few tenths of a second at most.
BUDGET = {"kulami": 150, "conhex": 150, "blokus-duo": 12}


def midgame(game: str, plies: int, seed: int = 3):
    board, rng = new_game(game), random.Random(seed)
    for _ in range(plies):
        board.push(rng.choice(list(board.legal_moves)))
    return board


@pytest.mark.parametrize("game", sorted(BUDGET))
def test_the_same_seed_and_budget_give_the_same_move_and_leave_the_board(game):
    board = midgame(game, 6)
    before = (list(board.move_stack), board.turn, board.sensor_view())
    first = search(board, random.Random(11), playouts=BUDGET[game])
    assert first in set(board.legal_moves)
    assert search(board, random.Random(11), playouts=BUDGET[game]) == first
    assert (list(board.move_stack), board.turn, board.sensor_view()) == before


@pytest.mark.parametrize("game", sorted(BUDGET))
def test_every_game_registers_its_own_policy(game):
    policy = policy_of(new_game(game))
    assert type(policy) is not Policy and policy.max_playouts > 0


def test_progress_rises_to_the_budget_and_a_raise_stops_the_search():
    board = midgame("conhex", 4)
    seen = []
    search(board, random.Random(1), playouts=100, progress=seen.append)
    assert seen[0] == 0.0 and seen == sorted(seen) and 0.8 < seen[-1] < 1.0

    class Stop(Exception):
        pass

    def stop_halfway(fraction):
        if fraction >= 0.5:
            raise Stop

    before = list(board.move_stack)
    with pytest.raises(Stop):
        search(board, random.Random(1), playouts=100, progress=stop_halfway)
    assert board.move_stack == before


def test_a_search_needs_a_budget_and_a_game_in_progress():
    with pytest.raises(ValueError):
        search(new_game("kulami"), random.Random(1))
    board = midgame("conhex", 0)
    while not board.is_game_over():
        board.push(random.Random(len(board.move_stack)).choice(list(board.legal_moves)))
    assert search(board, random.Random(1), playouts=10) is None


def winning_position(seed: int):
    """A ConHex position where the player to move has a move that wins at once."""
    rng = random.Random(seed)
    board = new_game("conhex", pie=False)
    while True:
        moves = list(board.legal_moves)
        winners = []
        for move in moves:
            board.push(move)
            if board.is_game_over():
                winners.append(move)
            board.pop()
        if winners:
            return board, winners
        board.push(rng.choice(moves))


@pytest.mark.parametrize("seed", range(3))
def test_the_search_takes_a_win_in_one(seed):
    board, winners = winning_position(seed)
    assert search(board, random.Random(seed), playouts=300) in winners


class PlainKulami(KulamiBoard):
    """Kulami as a new game arrives: no fast playout, no policy of its own."""

    playout = None
    search_policy = None


def test_a_game_without_playout_or_policy_is_searched_through_the_public_api():
    board = PlainKulami.new()
    board.push_text("d4")
    assert type(policy_of(board)) is Policy
    move = search(board, random.Random(5), playouts=40)
    assert move in set(board.legal_moves)
    assert search(board, random.Random(5), playouts=40) == move
    assert [str(m) for m in board.move_stack] == ["d4"]


@pytest.mark.parametrize("game", sorted(BUDGET))
def test_stats_count_the_walks_made(game):
    """The walks a search made (the figure a bench records, where a clock may stop a
    search before its budget)."""
    stats = {}
    search(midgame(game, 6), random.Random(2), playouts=2 * CHECK_EVERY, stats=stats)
    assert stats["walks"] == 2 * CHECK_EVERY


@pytest.fixture
def python_trees():
    """Every game's search in Python, whose tree counts wins as well as visits."""
    cores = [importlib.import_module(f"engines.{name}.compiled")
             for name in ("akron", "blokus_duo", "conhex", "kulami")
             if importlib.util.find_spec(f"engines.{name}.compiled")]
    before = [core.enabled() for core in cores]
    for core in cores:
        core.use(False)
    yield
    for core, was in zip(cores, before):
        core.use(was)


@pytest.mark.parametrize("game", sorted(BUDGET))
def test_stats_count_the_roots_children_most_visited_first(game, python_trees):
    """The root's children's visits and wins, the chosen move first: what a hint says
    of how sure the search is."""
    stats = {}
    board = midgame(game, 6)
    move = search(board, random.Random(2), playouts=4 * CHECK_EVERY, stats=stats)
    root = stats["root"]
    assert root[0][0] == move and {m for m, _, _ in root} <= set(board.legal_moves)
    assert [visits for _, visits, _ in root] == sorted((v for _, v, _ in root), reverse=True)
    assert all(0 <= wins <= visits for _, visits, wins in root)
