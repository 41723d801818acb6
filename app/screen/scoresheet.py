"""The end screen's score sheet: how the final score came about, line by line.

The lines are the table's (:func:`app.table.texts.score_sheet`: each part of the score
the engine lists, the winning chain in a game won by one), then who won and by how much.
The sheet is worked out from the status alone (the game, its options and its moves,
replayed), so the status screen stays a drawing of one snapshot.
"""

from __future__ import annotations

from functools import lru_cache

from app.games import new_game
from app.table import texts
from app.table.status import Status
from engines.core import Board, EngineError


def score_sheet(status: Status) -> list[str]:
    """The lines of the score sheet for a finished game; none while it is played."""
    outcome = status.outcome
    if outcome is None:
        return []
    board = replayed(status.game, tuple(sorted(status.options.items())), status.moves)
    lines = texts.score_sheet(board) if board is not None else []
    return lines + [texts.won_by(status.game, outcome)]


@lru_cache(maxsize=8)
def replayed(game: str, options: tuple, moves: tuple[str, ...]) -> Board | None:
    """The game at the end of ``moves`` (kept: the screen redraws an ended game as its
    winning cells blink), or ``None`` when they are not this game's moves."""
    try:
        board = new_game(game, **dict(options))
        for move in moves:
            board.push_text(move)
    except EngineError:
        return None
    return board


def winning_areas(board: Board) -> tuple[str, ...]:
    """The areas that won a finished game, to mark on a drawn board: a winning chain made
    of areas (cells); nothing where the chain is of pieces (lit on their holes instead)
    or the game was won on points."""
    outcome = board.outcome()
    if outcome is None or outcome.winner is None:
        return ()
    chain = board.winning_chain(outcome.winner)
    return chain if set(chain) <= set(board.areas) else ()
