"""Akron's compiled core (engines/akron/compiled.py) against the pure-Python engine, its
reference: over the positions of many seeded games (random ones, and ones that climb the
pyramid, so that balls stand four and five levels up and moves drop chains of balls),
to their ends, the same legal moves in the same order, the same win, distances and
shortest paths, the same expansion of a search node and the same playouts for the same
seed, and the same moves chosen by the search at a level. ``make test`` builds the core
(pip install -e), so a test here fails when it was not built rather than passing on the
Python path twice. Where it cannot be built the engine says so once and plays in Python
(the last tests)."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

from engines.akron import compiled
from engines.akron.board import AkronBoard, Movement
from engines.akron.distance import Layout
from engines.akron.geometry import BELOW, LEVEL, NAMES, points_of
from engines.akron.policy import AkronPolicy
from engines.akron.rules import drop_chain
from engines.players import MAX_LEVEL, playouts
from engines.search import CHECK_EVERY, Tree, search


@pytest.fixture
def path():
    """Switches between the paths and leaves the compiled one on afterwards."""
    assert compiled.available(), "the compiled core was not built (pip install -e .)"
    yield compiled.use
    compiled.use(True)


def climbing(moves: list, rng: random.Random):
    """A move that lifts a ball as high as it can go, half the time: games that build
    the pyramid up, where the random ones rarely stand a ball three levels up."""
    if rng.random() < 0.5:
        return rng.choice(moves)
    return max(moves, key=lambda move: (LEVEL[move.target] if isinstance(move, Movement)
                                        else -1, rng.random()))


def mound(rng: random.Random) -> AkronBoard:
    """A position set up with a mound four levels high (a ball on nine, on sixteen, on
    twenty-five), the balls' colours at random: moves there drop chains of balls."""
    top = rng.choice([p for p in range(len(LEVEL)) if LEVEL[p] == 3])
    cone, frontier = {top}, [top]
    while frontier:
        below = points_of(BELOW[frontier.pop()])
        frontier.extend(p for p in below if p not in cone)
        cone.update(below)
    colours = ["b", "w"] * (len(cone) // 2 + 1)
    rng.shuffle(colours)
    balls = {NAMES[p]: colour for p, colour in zip(sorted(cone), colours)}
    return AkronBoard.from_balls(balls, turn=rng.choice("bw"))


def positions(games: int, seed: int = 0, limit: int = 300):
    """Positions along seeded games to their end (a win, two passes, or ``limit``
    actions): by turns a random game from the empty board, one that climbs, and a
    random one from a mound."""
    rng = random.Random(seed)
    for game in range(games):
        board = mound(rng) if game % 3 == 2 else AkronBoard()
        while True:
            yield board
            if board.is_game_over() or len(board.move_stack) >= limit:
                break
            moves = list(board.legal_moves)
            board.push(climbing(moves, rng) if game % 3 == 1 else rng.choice(moves))


def in_both(path, ask):
    """``ask()`` in Python, then through the core: a fresh copy of the board each time,
    so that nothing one path worked out is kept for the other."""
    answers = []
    for use_compiled in (False, True):
        path(use_compiled)
        answers.append(ask())
    return answers


def test_the_same_legal_moves_in_the_same_order_with_drops_and_endings(path):
    seen = {"positions": 0, "drops": 0, "chains": 0, "chains of 3": 0, "level 4": 0,
            "wins": 0, "supply out": 0}
    for board in positions(16):
        python, core = in_both(path, lambda: list(board.copy().legal_moves))
        assert core == python, board.ascii()
        occupied = board.position.occupied
        chains = [len(drop_chain(move.source, occupied)) for move in python
                  if isinstance(move, Movement)]
        seen["positions"] += 1
        seen["drops"] += any(chains)
        seen["chains"] += any(length >= 2 for length in chains)
        seen["chains of 3"] += any(length >= 3 for length in chains)
        seen["level 4"] += any(LEVEL[p] >= 3 for p in points_of(occupied))
        seen["wins"] += board.winner() is not None
        seen["supply out"] += board.supply(board.turn) == 0
    # The games reach what the core must get right: drops, chains of drops, balls high
    # up, moves with the supply used up, and wins.
    assert seen["positions"] > 2000 and seen["drops"] > 1000, seen
    assert seen["chains"] > 200 and seen["chains of 3"] > 5 and seen["level 4"] > 10, seen
    assert seen["supply out"] > 200 and seen["wins"] >= 8, seen


def test_the_same_win_distances_and_shortest_paths(path):
    checked = 0
    for number, board in enumerate(positions(8, seed=1)):
        if number % 2:
            continue
        b, w = board.masks()
        python = Layout(b, w)
        assert compiled.distances(b, w) == (python.distance("b"), python.distance("w"))
        for player in ("b", "w"):
            assert compiled.joins(b, w, player) == python.joins(player)
            assert compiled.shortest(b, w, player) == python.shortest(player)
        checked += 1
    assert checked > 500


def test_the_same_expansion_of_a_search_node_for_the_same_seed(path):
    policy = AkronPolicy()
    expanded = 0
    for number, board in enumerate(positions(8, seed=2)):
        if number % 3:
            continue
        python, core = in_both(path, lambda: policy.expansion(board.copy(),
                                                              random.Random(number)))
        assert core == python, board.ascii()
        expanded += len(core) > 1
    assert expanded > 300


def test_the_same_playouts_for_the_same_seed(path):
    played = 0
    for number, board in enumerate(positions(8, seed=3)):
        if number % 5:
            continue

        def play_out():
            trace = []
            return board.copy().playout(random.Random(number), trace), trace

        python, core = in_both(path, play_out)
        assert core == python, f"position {number}"
        played += len(python[1]) > 10
    assert played > 100


def test_a_playout_leaves_the_board_as_it_was(path):
    board = next(p for n, p in enumerate(positions(1, seed=4)) if n == 60)
    before = board.ascii(), board.masks(), board.supply("b"), board.supply("w")
    board.playout(random.Random(1))
    assert (board.ascii(), board.masks(), board.supply("b"), board.supply("w")) == before


@pytest.mark.parametrize("seed", range(4))
def test_the_same_moves_chosen_by_the_search(path, seed):
    """The same move, and the same counts of the root's children in the search's stats
    (a hint's shares): visits and wins exactly, the wins started from the prior and
    summed from the same values in the same order."""
    board = next(p for n, p in enumerate(positions(2, seed=seed)) if n == 20 + 30 * seed)

    def searched():
        stats = {}
        return search(board, random.Random(seed), playouts=400, stats=stats), stats["root"]

    python, core = in_both(path, searched)
    assert core == python and core[0] in set(board.legal_moves)


def test_without_the_compiled_core_the_engine_says_so_once_and_plays_in_python():
    script = (
        "import logging, random, sys\n"
        "logging.basicConfig(format='%(message)s')\n"
        "sys.modules['engines.akron._core'] = None\n"
        "from engines.akron import compiled\n"
        "from engines.akron.board import AkronBoard\n"
        "assert not compiled.available() and not compiled.enabled()\n"
        "for seed in range(3):\n"
        "    trace = []\n"
        "    print(AkronBoard().playout(random.Random(seed), trace), len(trace))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, check=True)
    assert done.stderr.count("compiled core is not built") == 1
    assert "playing in Python" in done.stderr
    games = []
    for seed in range(3):
        trace = []
        games.append(f"{AkronBoard().playout(random.Random(seed), trace)} {len(trace)}")
    assert done.stdout.split("\n")[:3] == games


def test_the_python_path_is_chosen_by_the_environment():
    script = ("from engines.akron import compiled\n"
              "print(compiled.available(), compiled.enabled())\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, check=True, env={**os.environ, "TABLETOP_ENGINE": "python"})
    assert done.stdout.split() == ["True", "False"]


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_the_engines_bench_measures_the_path_asked_for(path, monkeypatch, capsys, engine):
    from bench import engines as bench_engines
    seen = []
    monkeypatch.setattr(bench_engines, "bench", lambda name: seen.append(compiled.enabled())
                        or {"game": name, "playouts/s": 1.0, "api playouts/s": 1.0,
                            "plies/game": 1.0, "legal moves (us)": 1.0, "median (us)": 1.0})
    bench_engines.main(["--engine", engine, "akron"])
    assert seen == [engine == "compiled"]
    assert "Akron's built" in capsys.readouterr().out.split("\n")[0]


def test_the_compiled_tree_walks_as_the_python_tree(path):
    policy = AkronPolicy()
    compared = 0
    for number, board in enumerate(positions(6, seed=5)):
        if number % 9 or board.is_game_over():
            continue

        def grow():
            rng = random.Random(number)
            tree = policy.native_tree(board.copy(), rng) or Tree(board.copy(), policy, rng)
            tree.walk(CHECK_EVERY * 20)
            return tree.counts(), tree.best_move(), type(tree) is Tree

        python, core = in_both(path, grow)
        assert python[2] and not core[2]
        assert core[:2] == python[:2], board.ascii()
        compared += 1
    assert compared > 40


def test_the_strongest_level_walks_more_through_the_core_and_as_before_in_python(path):
    board = AkronBoard()
    path(False)
    assert playouts(board, MAX_LEVEL) == 2000
    path(True)
    assert playouts(board, MAX_LEVEL) == 32000


def test_the_strength_bench_plays_the_weaker_level_in_python(path, monkeypatch):
    from bench import strength
    seen = []
    monkeypatch.setattr(strength, "choose_move",
                        lambda board, level, rng: seen.append(compiled.enabled())
                        or next(iter(board.legal_moves)))
    board = AkronBoard()
    strength.PythonPlayer(MAX_LEVEL, 1, []).move(board)
    strength.EnginePlayer(MAX_LEVEL, 1, []).move(board)
    assert seen == [False, True]
