"""The board protocol every game engine follows, modelled on python-chess.

A game is a board object: ``legal_moves``, ``push``/``pop``, ``outcome()``, moves as
small immutable values that round-trip through text. Two more views serve the layers
above without them knowing the rules: ``sensor_view()`` says what a sensor under each
hole would see, and ``lights()`` says what the board would light, as plain data.
Engines never import hardware, pygame or do I/O.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar

#: Wire colours in every game: ``b`` moves first, ``w`` second.
PLAYERS = ("b", "w")


def other(player: str) -> str:
    """The opponent of ``player``."""
    return "w" if player == "b" else "b"


def check_player(text: str) -> str:
    """Accept GTP's colour spellings (``b``, ``black``, ``w``, ``white``)."""
    colour = text.strip().lower()
    if colour in ("b", "black"):
        return "b"
    if colour in ("w", "white"):
        return "w"
    raise EngineError(f"unknown colour {text!r} (use b or w)")


class EngineError(ValueError):
    """Any input an engine refuses; the message is one line meant for a person."""


class InvalidMoveError(EngineError):
    """Move text that does not name a move on this board."""


class IllegalMoveError(EngineError):
    """A well-formed move that the rules do not allow now."""


class OptionError(EngineError):
    """A game option that is unknown or has a bad value."""


class RecordError(EngineError):
    """A game record that cannot be read."""


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the winner (or ``None`` for a draw), scores, why.

    ``by_score`` is false where the win is not a matter of points (a connection game's
    chain): the scores are then progress measures and the result carries no margin.
    """

    winner: str | None
    scores: Mapping[str, int]
    reason: str
    by_score: bool = True

    def result(self) -> str:
        """The result as GTP's ``final_score`` writes it: ``B+n``, ``W+n``, ``B+`` or ``0``."""
        if self.winner is None:
            return "0"
        if not self.by_score:
            return f"{self.winner.upper()}+"
        margin = self.scores.get("b", 0) - self.scores.get("w", 0)
        return f"{self.winner.upper()}+{abs(margin)}"


def _frozen_owned(owned: Mapping[str, Iterable[str]] | None) -> Mapping[str, frozenset[str]]:
    owned = owned or {}
    return MappingProxyType({p: frozenset(owned.get(p, ())) for p in PLAYERS})


@dataclass(frozen=True)
class Lights:
    """What the board would light, by role, never as colours.

    Holes are named in the game's notation; areas (Kulami panels, ConHex cells) by the
    keys of :attr:`Board.areas`. The scene layer turns roles into colours.
    """

    mover: str | None
    legal: frozenset[str] = frozenset()
    off_limits: frozenset[str] = frozenset()
    owned: Mapping[str, frozenset[str]] = field(default_factory=lambda: _frozen_owned(None))
    last: frozenset[str] = frozenset()

    @classmethod
    def build(cls, mover, legal=(), off_limits=(), owned=None, last=()) -> "Lights":
        return cls(mover, frozenset(legal), frozenset(off_limits), _frozen_owned(owned),
                   frozenset(last))


class Board(ABC):
    """One game in progress. Subclasses implement the abstract rules hooks.

    ``push`` checks legality and leaves the board untouched when it refuses; ``pop``
    restores the exact previous state. ``copy()`` is cheap enough for search.
    """

    #: Registry name, e.g. ``"kulami"``.
    game: ClassVar[str]
    #: Option names and defaults; ``new_game`` validates against these.
    default_options: ClassVar[Mapping[str, Any]] = {}
    #: Game-specific GTP commands: command name -> method taking the argument words and
    #: returning ``(replacement board or None, answer text)``.
    gtp_extensions: ClassVar[Mapping[str, str]] = {}

    def __init__(self) -> None:
        self.move_stack: list[Hashable] = []

    # --- identity -------------------------------------------------------------------
    @property
    @abstractmethod
    def options(self) -> Mapping[str, Any]:
        """The options this game was created with (all keys, defaults filled in)."""

    @property
    @abstractmethod
    def turn(self) -> str:
        """The player to move, ``b`` or ``w``."""

    @property
    @abstractmethod
    def holes(self) -> tuple[str, ...]:
        """Every hole a sensor sits under, in notation, in a stable order."""

    @property
    def areas(self) -> Mapping[str, frozenset[str]]:
        """Named groups of holes that light together (panels, cells); none by default."""
        return MappingProxyType({})

    # --- moves ----------------------------------------------------------------------
    @abstractmethod
    def parse_move(self, text: str) -> Hashable:
        """Parse move text, raising :class:`InvalidMoveError` with the reason."""

    def move_text(self, move: Hashable) -> str:
        return str(move)

    @abstractmethod
    def legal_moves_for(self, player: str) -> list:
        """Legal moves for ``player`` in this position, whoever is to move."""

    @property
    def legal_moves(self) -> list:
        """Legal moves for the player to move (empty once the game is over)."""
        if self.outcome() is not None:
            return []
        return self.legal_moves_for(self.turn)

    def is_legal(self, move: Hashable) -> bool:
        return move in self.legal_moves

    def illegal_reason(self, move: Hashable) -> str:
        """Why ``move`` is not legal now; games override with a precise reason."""
        if self.outcome() is not None:
            return "the game is over"
        return f"{self.move_text(move)} is not a legal move for {self.turn}"

    def push(self, move: Hashable) -> None:
        """Play ``move`` for the player to move; refuse an illegal one untouched."""
        if not self.is_legal(move):
            raise IllegalMoveError(self.illegal_reason(move))
        self._apply(move)
        self.move_stack.append(move)

    def push_text(self, text: str) -> Hashable:
        """Parse and push ``text``; returns the move."""
        move = self.parse_move(text)
        self.push(move)
        return move

    def pop(self) -> Hashable:
        """Take back the last move and return it."""
        if not self.move_stack:
            raise EngineError("no move to take back")
        move = self.move_stack.pop()
        self._undo(move)
        return move

    @property
    def last_move(self) -> Hashable | None:
        return self.move_stack[-1] if self.move_stack else None

    @abstractmethod
    def _apply(self, move: Hashable) -> None:
        """Change the state for a move already known to be legal."""

    @abstractmethod
    def _undo(self, move: Hashable) -> None:
        """Exactly reverse :meth:`_apply` for the last move."""

    # --- the end --------------------------------------------------------------------
    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The outcome once the game is over, else ``None``."""

    def is_game_over(self) -> bool:
        return self.outcome() is not None

    @abstractmethod
    def scores(self) -> dict[str, int]:
        """The score as it stands (the final score once the game is over)."""

    # --- views for the layers above -------------------------------------------------
    @abstractmethod
    def sensor_view(self) -> dict[str, str]:
        """Occupied holes a sensor could see, mapped to the owner ``b`` or ``w``."""

    @abstractmethod
    def lights(self) -> Lights:
        """What to light now: legal targets, off-limits areas, owned areas, last move."""

    @abstractmethod
    def ascii(self) -> str:
        """A plain-text board for ``showboard`` and logs."""

    # --- copying and records --------------------------------------------------------
    def copy(self) -> "Board":
        """An independent board with the same position and history."""
        clone = type(self).from_options(self.options)
        for move in self.move_stack:
            clone.push(move)
        return clone

    @classmethod
    @abstractmethod
    def from_options(cls, options: Mapping[str, Any]) -> "Board":
        """A new game with validated options (unknown keys already rejected)."""

    @abstractmethod
    def to_record(self) -> str:
        """The game so far as a record in the game's documented format."""

    @classmethod
    @abstractmethod
    def from_record(cls, text: str) -> "Board":
        """Rebuild a game from its record, raising :class:`RecordError` when broken."""

    def __str__(self) -> str:
        return self.ascii()
