"""What the sensing pipeline tells the session, as small immutable values.

The pipeline only reports; the caller decides. A ``Moved`` or ``Takeback`` is applied by
the caller, who then calls ``Pipeline.resync`` with the changed game.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass


@dataclass(frozen=True)
class Moved:
    """The board changed by exactly one legal move."""

    move: Hashable


@dataclass(frozen=True)
class Takeback:
    """The last move's pieces were lifted and left off: the board is as it was before it."""

    move: Hashable


@dataclass(frozen=True)
class Waiting:
    """A move under way (part of a legal move so far): ``extra`` holes filled and
    ``missing`` holes emptied compared with the game, e.g. a Blokus piece half down or
    an Akron ball lifted."""

    extra: frozenset[str]
    missing: frozenset[str]


@dataclass(frozen=True)
class Candidates:
    """The board matches several legal moves the sensors cannot tell apart; the player
    confirms one."""

    moves: tuple


@dataclass(frozen=True)
class OutOfSync:
    """The board matches no move: ``fill`` the holes that should hold a piece, ``empty``
    the ones that should not (or hold the wrong colour). The game does not change."""

    fill: frozenset[str]
    empty: frozenset[str]


@dataclass(frozen=True)
class InSync:
    """The board matches the game again."""


Event = Moved | Takeback | Waiting | Candidates | OutOfSync | InSync
