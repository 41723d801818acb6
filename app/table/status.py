"""What the status screen shows, as one plain snapshot.

The session produces a :class:`Status` after every change; the screen only draws it. This
keeps pygame out of the session and the session out of the screen, and lets the tests
render any state without playing up to it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.table.ending import End
from app.table.seats import Seat, parse_seats
from app.table.sureness import Sureness


@dataclass(frozen=True)
class Status:
    """The game as the screen shows it. ``message_kind`` picks the message's styling:
    ``info``, ``error`` (an illegal placement), ``sync`` (board and game disagree),
    ``waiting`` (the engine's move is waiting to be placed), ``confirm`` (candidates to
    choose between) or ``over``."""

    game: str
    options: Mapping[str, Any]
    seats: Mapping[str, Seat]  # "b"/"w" -> who plays it (its word is taken too)
    level: int  # the engine's level
    turn: str | None  # None once the game is over
    scores: Mapping[str, int]
    moves: tuple[str, ...] = ()
    message: str = ""
    message_kind: str = "info"
    sync_fill: frozenset[str] = frozenset()
    sync_empty: frozenset[str] = frozenset()
    #: A seat's chosen move (the engine's, a player away's), shown until a person
    #: places it; it is the move of the seat to move (``turn``).
    pending: str | None = None
    candidates: tuple[str, ...] = ()  # moves the sensors cannot tell apart
    choice: int = 0  # which of the candidates is picked (and lit) now
    #: How many pieces each player still has to put down, in a game that counts them
    #: (Blokus Duo's pieces in hand, Akron's balls in supply); ``None`` in others.
    in_hand: Mapping[str, int] | None = None
    #: Moves the person to move could make that the sensors cannot see at all (Akron's
    #: above the board): Confirm then offers them as candidates.
    unseen: int = 0
    thinking: float | None = None  # the engine's progress, 0..1, while it searches
    #: Holes whose sensors are being ignored, each with its problem in words.
    faults: tuple[str, ...] = ()
    #: Why games cannot be saved just now, in words; empty while saving works.
    saving: str = ""
    state: str = "waiting"  # the session's State, by value
    #: A takeback offered in a game with a player away: by ``table`` or a colour.
    offer: str | None = None
    #: The move a hint suggests, lit until it is played or the game moves on.
    hint: str | None = None
    #: How sure the engine is of that hint (``None``: no hint, or an outside program's).
    hint_sureness: Sureness | None = None
    #: How the game ended; ``None`` while it is played.
    end: End | None = None

    def __post_init__(self) -> None:
        # Seats given as their words (a test's, a replay's) are the seats they name.
        object.__setattr__(self, "seats", parse_seats(self.seats))
