"""The winning areas of a finished game, to mark on a drawn board.

The score sheet itself is the view's (:attr:`app.table.view.View.sheet`), worked out
once from the board the session plays, not from its moves replayed here.
"""

from __future__ import annotations

from engines.core import Board


def winning_areas(board: Board) -> tuple[str, ...]:
    """The areas that won a finished game, to mark on a drawn board: a winning chain made
    of areas (cells); nothing where the chain is of pieces (lit on their holes instead)
    or the game was won on points."""
    outcome = board.outcome()
    if outcome is None or outcome.winner is None:
        return ()
    chain = board.winning_chain(outcome.winner)
    return chain if set(chain) <= set(board.areas) else ()
