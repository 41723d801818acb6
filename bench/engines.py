"""Engine speed on this machine: legal-move generation and random playouts per game.

Run from the repository: ``.venv/bin/python -m bench.engines [GAME ...]``. Prints one
table row per game. Legal-move time is the time to list every legal move, measured over
the positions of real random games (every ply), so it reflects the whole game rather
than the empty board.
"""

from __future__ import annotations

import random
import sys
import time

from app.games import GAMES, new_game

PLAYOUT_SECONDS = 3.0
#: Options for each game's benchmark (a representative real set-up).
SETUPS = {"kulami": {"layout": "square-1", "scoring": 2}}


def playout(board, rng) -> int:
    plies = 0
    while not board.is_game_over():
        board.push(rng.choice(board.legal_moves))
        plies += 1
    return plies


def bench(game: str) -> dict:
    rng = random.Random(1)
    options = SETUPS.get(game, {})
    start, games, plies = time.perf_counter(), 0, 0
    while time.perf_counter() - start < PLAYOUT_SECONDS:
        plies += playout(new_game(game, **options), rng)
        games += 1
    elapsed = time.perf_counter() - start

    # Every legal move listed at every ply of a few games, each position asked afresh
    # (a fresh copy keeps no list from before).
    positions = []
    for _ in range(5):
        board = new_game(game, **options)
        while not board.is_game_over():
            positions.append(board.copy())
            board.push(rng.choice(board.legal_moves))
    start = time.perf_counter()
    for board in positions:
        board.legal_moves.count()
    legal_us = (time.perf_counter() - start) / len(positions) * 1e6
    return {"game": game, "playouts/s": games / elapsed, "plies/game": plies / games,
            "legal moves (us)": legal_us}


def main(names: list[str]) -> None:
    rows = [bench(name) for name in (names or sorted(GAMES))]
    print(f"{'game':<10} {'playouts/s':>11} {'plies/game':>11} {'legal moves (us)':>17}")
    for row in rows:
        print(f"{row['game']:<10} {row['playouts/s']:>11.0f} {row['plies/game']:>11.1f} "
              f"{row['legal moves (us)']:>17.1f}")


if __name__ == "__main__":
    main(sys.argv[1:])
