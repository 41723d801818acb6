"""The end of a game as a value: how it ended, who won, the scores, as python-chess's
``Termination`` and ``Outcome`` say it, before any words.

The engine's :class:`~engines.core.Outcome` says who won and why in its own letters;
an :class:`End` sorts that into a :class:`Termination`, so that every front end tells a
game won on points from one won by a chain or a resignation by its kind, never by
reading the reason. The words are the table's, one function a length
(:func:`app.table.texts.end_short` for the page, the log and the load lists;
:func:`app.table.texts.end_long` for the screen and the terminal).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from engines.core import Outcome


class Termination(enum.Enum):
    """Why a game ended."""

    #: The higher score won (equal scores: a draw).
    POINTS = "points"
    #: A player's chain joined their two sides.
    CONNECTION = "connection"
    #: The loser resigned.
    RESIGNATION = "resignation"
    #: Neither player could act any more, with no score to decide (Akron's two passes).
    NO_MOVES = "no_moves"


@dataclass(frozen=True)
class End:
    """How a finished game ended. ``reason`` is the engine's own, in its players'
    letters; ``record`` the result as records and GTP write it (``B+5``)."""

    termination: Termination
    winner: str | None
    scores: Mapping[str, int]
    reason: str
    record: str

    @classmethod
    def of(cls, outcome: Outcome) -> End:
        if outcome.resignation:
            termination = Termination.RESIGNATION
        elif outcome.by_score:
            termination = Termination.POINTS
        elif outcome.winner is not None:
            termination = Termination.CONNECTION
        else:
            termination = Termination.NO_MOVES
        return cls(termination, outcome.winner, MappingProxyType(dict(outcome.scores)),
                   outcome.reason, outcome.result())

    @property
    def loser(self) -> str | None:
        return None if self.winner is None else "w" if self.winner == "b" else "b"


def ending(outcome: Outcome | None) -> End | None:
    """The end ``outcome`` tells of, ``None`` for a game still played."""
    return None if outcome is None else End.of(outcome)
