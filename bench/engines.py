"""Engine speed on this machine: legal-move generation and random playouts per game.

Run from the repository: ``.venv/bin/python -m bench.engines [--engine PATH] [GAME ...]``.
Prints one table row per game. ``--engine python`` measures the pure-Python engines (the
reference), ``--engine compiled`` (the default) the compiled core where a game has one
and it is built (``engines/blokus_duo/compiled.py``, ``engines/akron/compiled.py``, ``engines/kulami/compiled.py``, ``engines/conhex/compiled.py``); the first line says which ran. ``playouts/s`` counts random games from a new board to the end by
the board's own ``playout(rng)``, the path the search takes (the public API where a game
has none); ``api playouts/s`` counts the same games played through the public API
(``legal_moves``, ``push``, ``is_game_over``), as a program using the engine would.
Legal-move time is the time to list every legal move, measured over
the positions of real random games (every ply), so it reflects the whole game rather
than the empty board: the mean and the median per position. ``search (s)`` is the
processor time of one search at the strongest level's budget (the game's
``max_playouts``), the mean over three positions of a random game.

A game is a registered name (``app.games``) or an engine's board class as
``module:Class`` (``engines.blokus_duo.board:BlokusDuoBoard``), so that an engine can be
measured before the table knows it; ``UNREGISTERED`` lists such games run by default.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from importlib import import_module

from app.games import GAMES, new_game
from engines.akron import compiled as akron_compiled
from engines.blokus_duo import compiled as blokus_duo_compiled
from engines.conhex import compiled as conhex_compiled
from engines.kulami import compiled as kulami_compiled
from engines.search import policy_of, search

PLAYOUT_SECONDS = 3.0
#: Options for each game's benchmark (a representative real set-up).
SETUPS = {"kulami": {"layout": "square-1", "scoring": 2}}
#: Engines not registered in ``app.games`` yet, benched by their board class.
UNREGISTERED = ("engines.blokus_duo.board:BlokusDuoBoard",)


def board_maker(game: str):
    """A name and a function making a new game: by registry name, or by ``module:Class``."""
    if ":" not in game:
        options = SETUPS.get(game, {})
        return game, lambda: new_game(game, **options)
    module, _, name = game.partition(":")
    cls = getattr(import_module(module), name)
    options = SETUPS.get(cls.game, {})
    return cls.game, lambda: cls.new(**options)


#: Actions after which a random game stops (Akron's may wander for ever), as the
#: games' own playouts stop.
LIMIT = 300


def api_playout(board, rng) -> int:
    plies = 0
    while not board.is_game_over() and plies < LIMIT:
        board.push(rng.choice(board.legal_moves))
        plies += 1
    return plies


def fast_playout(board, rng) -> None:
    if hasattr(board, "playout"):
        board.playout(rng)
    else:
        api_playout(board, rng)


def rate(make, play, rng) -> tuple[float, int]:
    """Games a second for ``play`` on new boards, and the games played."""
    start, games = time.perf_counter(), 0
    while time.perf_counter() - start < PLAYOUT_SECONDS:
        play(make(), rng)
        games += 1
    return games / (time.perf_counter() - start), games


def bench(game: str) -> dict:
    rng = random.Random(1)
    game, make = board_maker(game)
    fast, _ = rate(make, fast_playout, rng)
    plies = []
    api, _ = rate(make, lambda board, rng: plies.append(api_playout(board, rng)), rng)

    # Every legal move listed at every ply of a few games, each position asked afresh
    # (a fresh copy keeps no list from before).
    positions = []
    for _ in range(5):
        board = make()
        while not board.is_game_over() and len(board.move_stack) < LIMIT:
            positions.append(board.copy())
            board.push(rng.choice(board.legal_moves))
    times = []
    for board in positions:
        start = time.perf_counter()
        board.legal_moves.count()
        times.append(time.perf_counter() - start)
    return {"game": game, "playouts/s": fast, "api playouts/s": api,
            "plies/game": sum(plies) / len(plies),
            "legal moves (us)": sum(times) / len(times) * 1e6,
            "median (us)": statistics.median(times) * 1e6,
            "search (s)": search_seconds(positions)}


#: The plies of the positions (of the first random game) that the search is timed on.
SEARCH_PLIES = (0, 8, 16)


def search_seconds(positions: list) -> float:
    """The processor seconds of one search at the strongest level's budget (the game's
    ``max_playouts``), the mean over :data:`SEARCH_PLIES` of a random game: the tree's
    walk, the priors and the playouts together, as a move costs. Processor time, not
    the clock's, so that other work on the machine does not count."""
    spent = []
    for ply in SEARCH_PLIES:
        board = positions[ply]
        budget = policy_of(board).max_playouts
        start = time.process_time()
        search(board, random.Random(ply), playouts=budget)
        spent.append(time.process_time() - start)
    return sum(spent) / len(spent)


#: The engines' paths ``--engine`` picks, by what each does to the compiled cores.
ENGINES = ("compiled", "python")


def main(arguments: list[str]) -> None:
    names = list(arguments)
    engine = "compiled"
    if "--engine" in names:
        at = names.index("--engine")
        engine = names[at + 1] if at + 1 < len(names) else ""
        del names[at:at + 2]
        if engine not in ENGINES:
            sys.exit(f"--engine is one of {', '.join(ENGINES)}, not {engine!r}")
    blokus_duo_compiled.use(engine == "compiled")
    akron_compiled.use(engine == "compiled")
    kulami_compiled.use(engine == "compiled")
    conhex_compiled.use(engine == "compiled")
    built = "built" if blokus_duo_compiled.available() else "not built: Python"
    akron_built = "built" if akron_compiled.available() else "not built: Python"
    kulami_built = "built" if kulami_compiled.available() else "not built: Python"
    conhex_built = "built" if conhex_compiled.available() else "not built: Python"
    print(f"engine: {engine} (Blokus Duo's compiled core {built}, Akron's {akron_built}, "
          f"Kulami's {kulami_built}, ConHex's {conhex_built})")
    unregistered = [name for name in UNREGISTERED if board_maker(name)[0] not in GAMES]
    rows = [bench(name) for name in (names or [*sorted(GAMES), *unregistered])]
    print(f"{'game':<11} {'playouts/s':>11} {'api playouts/s':>15} {'plies/game':>11} "
          f"{'legal moves (us)':>17} {'median (us)':>12} {'search (s)':>11}")
    for row in rows:
        # A row without the search's time (a caller's own bench) shows a dash there.
        searched = row.get("search (s)")
        print(f"{row['game']:<11} {row['playouts/s']:>11.0f} {row['api playouts/s']:>15.0f} "
              f"{row['plies/game']:>11.1f} "
              f"{row['legal moves (us)']:>17.1f} {row['median (us)']:>12.1f} "
              f"{'-' if searched is None else f'{searched:.2f}':>11}")


if __name__ == "__main__":
    main(sys.argv[1:])
