"""Engine players: the levels the opponent menu and ``genmove`` offer.

Level 1 plays a random legal move; level 2 plays the move that leaves the best score
margin one ply ahead. Stronger search plugs in here as further levels.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable

from engines.core import Board, other

LEVELS = (1, 2)


def engine_name(level: int) -> str:
    """How records name the engine player (``PB``/``PW``)."""
    return f"Tabletop (level {level})"


def choose_move(board: Board, level: int = 1, rng: random.Random | None = None,
                player: str | None = None,
                progress: Callable[[float], None] | None = None) -> Hashable | None:
    """The move ``player`` (default: the side to move) would play, or ``None``.

    ``progress`` is called with the fraction of the search done so far; a caller that
    no longer wants the result raises from it, which ends the search there."""
    rng = rng or random.Random()
    player = player or board.turn
    # A list: the random choice indexes it and the search pushes and pops while it runs.
    moves = list(board.legal_moves_for(player))
    if not moves:
        return None
    if level <= 1 or player != board.turn:
        return rng.choice(moves)
    return _greedy(board, moves, rng, progress or (lambda fraction: None))


def _greedy(board: Board, moves: list, rng: random.Random,
            progress: Callable[[float], None]) -> Hashable:
    mover = board.turn
    best, best_margin = [], None
    for done, move in enumerate(moves):
        progress(done / len(moves))
        board.push(move)
        outcome = board.outcome()
        scores = outcome.scores if outcome else board.scores()
        margin = scores[mover] - scores[other(mover)]
        if outcome is not None and outcome.winner == mover:
            margin += 10_000
        board.pop()
        if best_margin is None or margin > best_margin:
            best, best_margin = [move], margin
        elif margin == best_margin:
            best.append(move)
    return rng.choice(best)
