"""ConHex's compiled core (engines/conhex/compiled.py) against the pure-Python engine, its
reference: over positions of many seeded games with and without the pie rule and with
handicaps, the same fill playouts (hole for hole, the same winner, the generator left in
the same state) and the same moves chosen by the search for the same seed, the C tree
walking as engines/search.py's Tree does. ``make test`` builds the core (pip install -e), so a test
here fails when it was not built rather than passing on the Python path twice. Where it
cannot be built the engine says so once and plays in Python (the last tests)."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

from app.games import new_game
from engines.conhex import compiled
from engines.conhex.policy import COMPILED_PLAYOUTS, PYTHON_PLAYOUTS
from engines.players import MAX_LEVEL, playouts
from engines.search import search

#: Set-ups the positions come from: the pie rule (the default), either handicap, and
#: neither.
SETUPS = ({}, {"handicap": 2}, {"pie": False}, {"handicap": 3})


@pytest.fixture
def path():
    """Switches between the paths and leaves the compiled one on afterwards."""
    assert compiled.available(), "the compiled core was not built (pip install -e .)"
    yield compiled.use
    compiled.use(True)


def positions(games: int, seed: int = 0):
    """Positions along random games, from the empty board to the end, on each set-up."""
    rng = random.Random(seed)
    for game in range(games):
        board = new_game("conhex", **SETUPS[game % len(SETUPS)])
        while True:
            yield board
            if board.is_game_over():
                break
            board.push(rng.choice(list(board.legal_moves)))


def test_the_same_playouts_for_the_same_seed(path):
    played = 0
    for number, board in enumerate(positions(12)):
        results = []
        for use_compiled in (False, True):
            path(use_compiled)
            rng, trace = random.Random(number), []
            winner = board.playout(rng, trace)
            results.append((winner, trace, rng.random()))
        assert results[0] == results[1], f"position {number}"
        played += len(results[0][1]) > 10
    assert played > 200


def test_the_board_is_left_as_it_was(path):
    board = next(p for n, p in enumerate(positions(1, seed=2)) if n == 10)
    before = board.ascii(), board.core_position(), list(board.legal_moves)
    board.playout(random.Random(1))
    search(board, random.Random(1), playouts=200)
    assert (board.ascii(), board.core_position(), list(board.legal_moves)) == before


def test_the_same_moves_chosen_by_the_search_for_the_same_seed(path):
    """Every fifth position of a few games: the same move after the same walks, the
    generator left in the same state (the same draws in the same order), and the same
    counts of the root's children, visits and wins exactly (a hint's shares: both trees
    add the same halves of a win in the same order)."""
    chosen = 0
    for number, board in enumerate(positions(8, seed=3)):
        if number % 5 or board.is_game_over():
            continue
        answers = []
        for use_compiled in (False, True):
            path(use_compiled)
            rng, stats = random.Random(number), {}
            move = search(board, rng, playouts=300, stats=stats)
            answers.append((move, rng.random(), stats.get("root")))
        assert answers[0] == answers[1], f"position {number}"
        chosen += answers[1][2] is not None
    assert chosen > 40


@pytest.mark.parametrize("opening", ["f6", "a1", "d5"])
def test_the_same_answer_to_the_first_gem_swap_included(path, opening):
    """w's first action, the swap among the moves: the same choice on both paths, from
    the root and from the empty board (where the swap is a move below the root)."""
    answers = []
    for use_compiled in (False, True):
        path(use_compiled)
        board, rng = new_game("conhex"), random.Random(opening)
        first = search(board, rng, playouts=400)
        board.push(board.parse_move(opening))
        answers.append((first, search(board, rng, playouts=2000), rng.random()))
    assert answers[0] == answers[1]


def test_the_compiled_tree_is_the_one_searching(path, monkeypatch):
    """The search takes the C tree when the core is in use (else the tests above compare
    Python with itself), the swap ahead or not, and the Python one for a generator it
    cannot draw from alike."""
    made = []
    monkeypatch.setattr(compiled, "Tree", lambda *args: made.append(args) or None)
    board = new_game("conhex")
    search(board, random.Random(1), playouts=16)
    board.push(board.parse_move("f6"))
    search(board, random.Random(1), playouts=16)
    assert len(made) == 2

    class Drawing(random.Random):
        pass

    search(board, Drawing(1), playouts=16)
    path(False)
    search(board, random.Random(1), playouts=16)
    assert len(made) == 2


@pytest.mark.parametrize("seed", range(2))
def test_a_whole_game_at_a_level_the_same_on_both_paths(path, seed):
    """Both sides searching with one seeded generator each, to the end of the game."""
    games = []
    for use_compiled in (False, True):
        path(use_compiled)
        board = new_game("conhex", **SETUPS[2 * seed])
        rng = random.Random(seed)
        while not board.is_game_over():
            board.push(search(board, rng, playouts=120))
        games.append([str(move) for move in board.move_stack])
    assert games[0] == games[1] and len(games[0]) > 10


def test_the_strongest_level_makes_more_playouts_through_the_core(path):
    board = new_game("conhex")
    assert playouts(board, MAX_LEVEL) == COMPILED_PLAYOUTS
    path(False)
    assert playouts(board, MAX_LEVEL) == PYTHON_PLAYOUTS < COMPILED_PLAYOUTS


def test_without_the_compiled_core_the_engine_says_so_once_and_plays_in_python():
    script = (
        "import logging, random, sys\n"
        "logging.basicConfig(format='%(message)s')\n"
        "sys.modules['engines.conhex._core'] = None\n"
        "from app.games import new_game\n"
        "from engines.conhex import compiled\n"
        "from engines.search import search\n"
        "assert not compiled.available() and not compiled.enabled()\n"
        "for seed in range(3):\n"
        "    board = new_game('conhex')\n"
        "    print(board.playout(random.Random(seed)), search(board, random.Random(seed),"
        " playouts=64))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300, check=True)
    assert done.stderr.count("compiled core is not built") == 1
    assert "playing in Python" in done.stderr
    expected = []
    for seed in range(3):
        board = new_game("conhex")
        expected.append(f"{board.playout(random.Random(seed))} "
                        f"{search(board, random.Random(seed), playouts=64)}")
    assert done.stdout.split("\n")[:3] == expected


def test_the_environment_picks_the_python_path():
    script = ("from engines.conhex import compiled\n"
              "print(compiled.available(), compiled.enabled())\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, check=True,
                          env={**os.environ, "TABLETOP_ENGINE": "python"})
    assert done.stdout.split() == ["True", "False"]


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_the_engines_bench_measures_the_path_asked_for(path, monkeypatch, capsys, engine):
    from bench import engines as bench_engines
    seen = []
    monkeypatch.setattr(bench_engines, "bench", lambda name: seen.append(compiled.enabled())
                        or {"game": name, "playouts/s": 1.0, "api playouts/s": 1.0,
                            "plies/game": 1.0, "legal moves (us)": 1.0, "median (us)": 1.0,
                            "search (s)": 1.0})
    bench_engines.main(["--engine", engine, "conhex"])
    assert seen == [engine == "compiled"]
    assert "ConHex's built" in capsys.readouterr().out


def test_the_strength_bench_plays_today_s_engine_in_python(path, monkeypatch):
    """bench/strength.py --weaker-in-python: the Python player's moves are searched with
    the core off (today's engine, its budget), the compiled player's with it on."""
    from bench import strength
    seen = []
    monkeypatch.setattr(strength, "choose_move", lambda board, level, rng: seen.append(
        (compiled.enabled(), playouts(board, level))) or next(iter(board.legal_moves)))
    board = new_game("conhex")
    strength.PythonPlayer(MAX_LEVEL, 1, []).move(board)
    strength.EnginePlayer(MAX_LEVEL, 1, []).move(board)
    assert seen == [(False, PYTHON_PLAYOUTS), (True, COMPILED_PLAYOUTS)]
