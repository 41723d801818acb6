"""Blokus Duo's compiled core (engines/blokus_duo/compiled.py) against the pure-Python
engine, its reference: over positions of many seeded games, the same legal placements
in the same order, the same moves and priors for a new node of the search, the same
playouts (uniform and guided: placement for placement and
the same scores) for the same seed, and the same moves chosen by the search at a level.
``make test`` builds the core (pip install -e), so a test here fails when it was not
built rather than passing on the Python path twice. Where it cannot be built the engine
says so once and plays in Python (the last test)."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from engines.blokus_duo import compiled
from engines.blokus_duo.board import BlokusDuoBoard
from engines.blokus_duo.pieces import PIECES
from engines.blokus_duo.playout import placements
from engines.blokus_duo.policy import BlokusDuoPolicy
from engines.players import playouts
from engines.search import CHECK_EVERY, Tree, search


@pytest.fixture
def path():
    """Switches between the paths and leaves the compiled one on afterwards."""
    assert compiled.available(), "the compiled core was not built (pip install -e .)"
    yield compiled.use
    compiled.use(True)


def positions(games: int, seed: int = 0):
    """Positions along random games, from the empty board to the end, under both start
    rules."""
    rng = random.Random(seed)
    for game in range(games):
        board = BlokusDuoBoard(start=("either", "fixed")[game % 2])
        while True:
            yield board
            if board.is_game_over():
                break
            board.push(rng.choice(list(board.legal_moves)))


def test_the_same_legal_placements_in_the_same_order(path):
    checked = 0
    for board in positions(12):
        for player in ("b", "w"):
            left, forbidden, attach = (board._left[player], board._forbidden[player],
                                       board._attach[player])
            reference = placements([n for n in range(len(PIECES)) if left >> n & 1],
                                   forbidden, attach)
            listed = compiled.placements(left, forbidden, attach)
            assert [(p.mask, p.number) for p in listed] == reference
            path(False)
            in_python = list(board.generate_legal_moves(player))
            path(True)
            assert list(board.generate_legal_moves(player)) == in_python == listed
            checked += bool(reference)
    assert checked > 300


@pytest.mark.parametrize("kind", [{}, {"largest_first": True, "guided": True}],
                         ids=["uniform", "guided"])
def test_the_same_playouts_for_the_same_seed(path, kind):
    games = 0
    for number, board in enumerate(positions(8, seed=1)):
        if number % 3:
            continue
        results = []
        for use_compiled in (False, True):
            path(use_compiled)
            trace = []
            scores = board.playout_scores(random.Random(number), trace, **kind)
            results.append((scores, trace))
        assert results[0] == results[1], f"position {number}"
        games += bool(results[0][1])
    assert games > 50


def test_the_board_is_left_as_it_was(path):
    board = next(p for n, p in enumerate(positions(1, seed=2)) if n == 10)
    before = board.ascii(), board.masks("b"), board.masks("w")
    board.playout(random.Random(1), largest_first=True, guided=True)
    assert (board.ascii(), board.masks("b"), board.masks("w")) == before


def test_the_same_new_nodes_for_the_same_seed(path):
    """Every position's moves as the search grows them: the same placements in the same
    order with the same priors, and the generator left in the same state."""
    policy, checked = BlokusDuoPolicy(), 0
    for number, board in enumerate(positions(10, seed=3)):
        if board.is_game_over():
            continue
        grown = []
        for use_compiled in (False, True):
            path(use_compiled)
            rng = random.Random(number)
            grown.append((list(policy.expansion(board, rng)), rng.random()))
        assert grown[0] == grown[1], f"position {number}"
        checked += len(grown[0][0]) > 1
    assert checked > 200


def test_the_same_answer_whether_a_player_can_place(path):
    answers = 0
    for board in positions(10, seed=4):
        for player in ("b", "w"):
            path(False)
            in_python = board.can_place(player)
            path(True)
            assert board.can_place(player) == in_python
            answers += not in_python
    assert answers > 10


@pytest.mark.parametrize("python_moves", [False, True],
                         ids=["python-walk", "all-python"])
def test_the_compiled_tree_grows_as_the_python_tree(path, python_moves):
    """The search's tree grown in C and in Python over positions of whole games: the
    same children of the root with the same visits and wins after the same walks, the same move
    chosen and the generator left in the same state; the Python tree with the compiled
    moves and playouts (the walk itself compared) and all in Python (the reference)."""
    policy, compared = BlokusDuoPolicy(), 0
    for number, board in enumerate(positions(4, seed=5)):
        if board.is_game_over() or number % 2:
            continue
        grown = []
        for native in (False, True):
            path(native or not python_moves)
            rng = random.Random(number)
            tree = policy.native_tree(board.copy(), rng) if native else \
                Tree(board.copy(), policy, rng)
            assert (type(tree).__module__ == "engines.blokus_duo._playout") is native
            if tree.only_move() is None:
                tree.walk(3 * CHECK_EVERY)
                grown.append((tree.counts(), tree.best_move(), rng.random()))
        if grown:
            assert grown[0] == grown[1], f"position {number}"
            compared += 1
    assert compared > 30


@pytest.mark.parametrize("seed", range(6))
def test_the_same_moves_chosen_at_a_level(path, seed):
    rng = random.Random(seed)
    board = BlokusDuoBoard()
    for _ in range(2 + 4 * seed):
        board.push(rng.choice(list(board.legal_moves)))
    budget = playouts(board, 3)
    chosen = []
    for use_compiled in (False, True):
        path(use_compiled)
        chosen.append(search(board, random.Random(seed), playouts=budget))
    assert chosen[0] == chosen[1] and chosen[0] in set(board.legal_moves)


def test_without_the_compiled_core_the_engine_says_so_once_and_plays_in_python():
    script = (
        "import logging, random, sys\n"
        "logging.basicConfig(format='%(message)s')\n"
        "sys.modules['engines.blokus_duo._playout'] = None\n"
        "from engines.blokus_duo import compiled, playout\n"
        "from engines.blokus_duo.board import BlokusDuoBoard\n"
        "assert not compiled.available() and not compiled.enabled()\n"
        "for seed in range(3):\n"
        "    print(BlokusDuoBoard().playout_scores(random.Random(seed)))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, check=True)
    assert done.stderr.count("compiled core is not built") == 1
    assert "playing in Python" in done.stderr
    path_scores = [BlokusDuoBoard().playout_scores(random.Random(seed)) for seed in range(3)]
    assert done.stdout.split("\n")[:3] == [str(scores) for scores in path_scores]


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_the_engines_bench_measures_the_path_asked_for(path, monkeypatch, capsys, engine):
    from bench import engines as bench_engines
    seen = []
    monkeypatch.setattr(bench_engines, "bench", lambda name: seen.append(compiled.enabled())
                        or {"game": name, "playouts/s": 1.0, "api playouts/s": 1.0,
                            "plies/game": 1.0, "legal moves (us)": 1.0, "median (us)": 1.0})
    bench_engines.main(["--engine", engine, "blokus-duo"])
    assert seen == [engine == "compiled"]
    assert capsys.readouterr().out.startswith(f"engine: {engine} ")


def test_the_engines_bench_refuses_an_unknown_path_in_one_line():
    from bench import engines as bench_engines
    with pytest.raises(SystemExit) as stop:
        bench_engines.main(["--engine", "rust"])
    assert stop.value.code == "--engine is one of compiled, python, not 'rust'"
