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
class Seen:
    """The holes where a piece rests that the game does not have, as soon as their
    readings have held (the debounce), before the board settles: lit at once so the
    hand that let go sees it was noticed. Not a move; said again whenever they change."""

    holes: frozenset[str]


@dataclass(frozen=True)
class Correction:
    """The last move's piece was moved to another hole, where the same player could have
    played instead (a marble slid on after it was read): taking ``undo`` back and
    playing ``move`` would match the board. The player confirms it."""

    undo: Hashable
    move: Hashable


@dataclass(frozen=True)
class Quarantined:
    """A sensor is not to be believed: ``problem`` is ``chatter`` (it flips more often
    than any hand moves a piece) or ``stuck`` (it reads a piece where the game allows
    none). The board is judged without it until it rejoins."""

    hole: str
    problem: str


@dataclass(frozen=True)
class Rejoined:
    """A quarantined sensor behaves again (quiet for a while, or reading what the game
    says) and counts once more."""

    hole: str


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


Event = (Moved | Takeback | Correction | Waiting | Candidates | OutOfSync | InSync
         | Quarantined | Rejoined | Seen)
