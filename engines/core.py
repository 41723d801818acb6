"""The board protocol every game engine follows, modelled on python-chess.

A game is a board object: ``turn``, ``legal_moves``, ``push``/``pop``, ``outcome()``,
moves as small immutable values that round-trip through text, :data:`PASS` among them.
Two more views serve the layers above without them knowing the rules: ``sensor_view()``
says what a sensor under each hole would see, and ``lights()`` says what the board would
light, as plain data; ``moves_sensed_at`` and ``moves_from`` tell the sensing layer which
moves a change at one hole can belong to. Engines never import hardware, pygame or do I/O.

The board's geometry is the board's too, as python-chess's squares are: every point a
piece can stand at, its name both ways (``place(name)`` as ``chess.parse_square``,
``point_at(x, y, level)`` as ``chess.square_name``), its neighbours, where it is drawn,
and the names of the columns and rows (``axes()``). Nothing above an engine reads a
place off a name, so a game with another notation or another board shape (a hexagonal
one) is drawn, wired and sensed without an edit outside its own package.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from itertools import chain
from types import MappingProxyType
from typing import Any, ClassVar, Protocol, runtime_checkable

from engines.errors import (EngineError, IllegalMoveError, InvalidMoveError, OptionError,
                            PointError, RecordError, TabletopError)
from engines.options import Option, validate

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


@dataclass(frozen=True)
class Pass:
    """The pass: the player to move plays nothing and the turn moves on.

    One value for every game, written ``pass`` as GTP writes it, so that it reads and
    prints the same everywhere; whether it is legal is each game's rule
    (:meth:`Board.may_pass`). Kulami and ConHex never allow it: their games end instead.
    """

    def __str__(self) -> str:
        return "pass"


PASS = Pass()


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the winner (or ``None`` for a draw), scores, why.

    ``by_score`` is false where the win is not a matter of points (a connection game's
    chain, a resignation): the scores are then progress measures and the result carries
    no margin. ``resignation`` marks a game the loser resigned (see :class:`GameRecord`).
    """

    winner: str | None
    scores: Mapping[str, int]
    reason: str
    by_score: bool = True
    resignation: bool = False

    def result(self) -> str:
        """The result as GTP's ``final_score`` and SGF's ``RE`` write it: ``B+n``,
        ``W+n``, ``B+`` (a win that is not on points), ``B+R`` (by resignation) or ``0``."""
        if self.winner is None:
            return "0"
        if self.resignation:
            return f"{self.winner.upper()}+R"
        if not self.by_score:
            return f"{self.winner.upper()}+"
        margin = self.scores.get("b", 0) - self.scores.get("w", 0)
        return f"{self.winner.upper()}+{abs(margin)}"


@dataclass(frozen=True)
class ScorePart:
    """One line of a finished game's score sheet: what one part of the score counts for
    each player (``counted``: Kulami's panels won, ConHex's cells, Akron's balls) and,
    where the part gives points, how many (``points``; ``None`` where the count is all
    there is to say). A ``bonus`` gives its points to one player at most (Kulami's
    largest area: the larger count's surplus). ``name`` is the part's key, ``label`` how
    a sheet heads its line. The engine gives the figures and the label; the front ends
    word the players."""

    name: str
    label: str
    counted: Mapping[str, int]
    points: Mapping[str, int] | None = None
    bonus: bool = False


def _frozen_owned(owned: Mapping[str, Iterable[str]] | None) -> Mapping[str, frozenset[str]]:
    owned = owned or {}
    return MappingProxyType({p: frozenset(owned.get(p, ())) for p in PLAYERS})


@dataclass(frozen=True)
class Lights:
    """What the board would light, by role, never as colours.

    Holes are named in the game's notation; areas (Kulami panels, ConHex cells) by the
    keys of :attr:`Board.areas`. ``won`` are the holes of a winning chain made of pieces
    rather than areas (Akron's balls). The scene layer turns roles into colours.
    """

    mover: str | None
    legal: frozenset[str] = frozenset()
    off_limits: frozenset[str] = frozenset()
    owned: Mapping[str, frozenset[str]] = field(default_factory=lambda: _frozen_owned(None))
    last: frozenset[str] = frozenset()
    won: frozenset[str] = frozenset()

    @classmethod
    def build(cls, mover, legal=(), off_limits=(), owned=None, last=(), won=()) -> "Lights":
        return cls(mover, frozenset(legal), frozenset(off_limits), _frozen_owned(owned),
                   frozenset(last), frozenset(won))


@dataclass(frozen=True, slots=True)
class Place:
    """Where a point of a board is: ``x`` and ``y`` in board units, one unit between
    neighbouring holes, ``x`` to the right and ``y`` up, the leftmost and lowest holes at
    0 (a hexagonal board's rows are ``sqrt(3)/2`` apart and shifted half a unit); and the
    ``level``, 1 on the board, 2 for a piece resting on pieces of level 1 (Akron's balls
    between four holes, half a unit off them). Drawers, the page and the wiring plan
    scale and turn these; none of them reads a place off a name."""

    x: float
    y: float
    level: int = 1


@dataclass(frozen=True)
class Axes:
    """How a printed board names its columns and rows beside it: each column's name by
    its ``x``, each row's by its ``y`` (in the units of :class:`Place`)."""

    columns: Mapping[float, str]
    rows: Mapping[float, str]


def _place_key(x: float, y: float, level: int) -> tuple[float, float, int]:
    """A place as a dictionary key, rounded so that sums of board units meet."""
    return round(x, 6), round(y, 6), level


class LegalMoves:
    """The legal moves of ``player`` in the board's position, generated when asked.

    Like python-chess's ``LegalMoveGenerator``, a live view rather than a list: iterating
    runs the game's :meth:`Board.generate_legal_moves` (and yields :data:`PASS` last where
    the game allows it), so :meth:`any` stops at the first move, and ``move in moves``
    asks the rule (:meth:`Board.is_legal`) without generating anything. Once the game is
    over there are none. Take ``list(moves)`` before pushing or popping in a loop.

    Whatever needs every move at once (``len``, ``count``, indexing) generates them once
    and keeps them until the board changes, so ``list(moves)`` (which asks ``len`` first)
    and ``random.choice(moves)`` (``len``, then an index) generate once, not twice.
    Indexing stays for callers written when this was a list; prefer ``next(iter(moves))``.
    """

    __slots__ = ("board", "player", "_listed", "_listed_at")

    def __init__(self, board: "Board", player: str) -> None:
        self.board, self.player = board, player
        self._listed: tuple[Hashable, ...] = ()
        self._listed_at = -1

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self._listed) if self._listed_at == self.board._changes else self._generate()

    def _generate(self) -> Iterator[Hashable]:
        board, player = self.board, self.player
        if board.is_game_over():
            return iter(())
        moves = board.generate_legal_moves(player)
        return chain(moves, (PASS,)) if board.may_pass(player) else moves

    def _all(self) -> tuple[Hashable, ...]:
        """Every move at once, generated once per position of the board."""
        if self._listed_at != self.board._changes:
            self._listed, self._listed_at = tuple(self._generate()), self.board._changes
        return self._listed

    def count(self) -> int:
        return len(self._all())

    def any(self) -> bool:
        for _ in self:
            return True
        return False

    def __len__(self) -> int:
        return len(self._all())

    def __bool__(self) -> bool:
        return self.any()

    def __contains__(self, move: Hashable) -> bool:
        """By the rule for the player to move; the other player's moves are searched
        (the rules are written for the mover, and only GTP's ``all_legal`` asks)."""
        if self.player == self.board.turn:
            return self.board.is_legal(move)
        return any(move == legal for legal in self)

    def __getitem__(self, index: int | slice) -> Any:
        return self._all()[index]

    def __repr__(self) -> str:
        moves = ", ".join(self.board.move_text(move) for move in self)
        return f"<LegalMoves {self.player} ({moves})>"


#: A game's own GTP command: ``(board, argument words) -> (new board or None, answer)``.
GtpCommand = Callable[["Board", list[str]], "tuple[Board | None, str]"]


@dataclass(frozen=True)
class GameRecord:
    """A game as its record holds it: the board after the last move, the players' names
    where the record gives them (``PB``/``PW``, by colour), and who resigned, if anyone.

    A resignation ends a game without being a move of the board, as a PGN game's result
    lives in its headers, not on python-chess's board: the board's own ``outcome()``
    knows nothing of it, and :meth:`outcome` here is how the game ended either way. Only
    the player to move can resign, in a game its moves have not decided.
    """

    board: "Board"
    players: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    resigned: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", MappingProxyType(
            {player: name for player, name in (self.players or {}).items() if name}))
        if self.resigned is not None and (self.board.is_game_over()
                                          or self.resigned != self.board.turn):
            why = ("the game is already over" if self.board.is_game_over()
                   else f"it is {self.board.turn}'s turn")
            raise RecordError(f"{self.resigned} cannot resign: {why}")

    def outcome(self) -> Outcome | None:
        """The board's outcome, or the resignation's: the other player wins."""
        if self.resigned is None:
            return self.board.outcome()
        return Outcome(other(self.resigned), MappingProxyType(self.board.scores()),
                       f"{self.resigned} resigned", by_score=False, resignation=True)

    @property
    def winner(self) -> str | None:
        outcome = self.outcome()
        return outcome.winner if outcome else None

    def text(self) -> str:
        """The record, in the game's format."""
        return self.board.record_format.write(self.board, self.players, self.resigned)


@dataclass(frozen=True)
class RecordFormat:
    """A game's record format.

    ``write(board, players=None, resigned=None) -> text`` writes the game so far with
    every option the game was created with, the players' names (a mapping by colour,
    ``PB``/``PW``) and a resignation of the player to move, when given; the result
    (``RE``) once the game is over. ``read_record(text) -> GameRecord`` reads all of it
    back; ``read(text) -> board`` only the board. Both raise :class:`RecordError` naming
    what is broken; for a sound record whose options this version refuses, a
    :class:`~engines.sgf.RecordOptionError`, which is an :class:`OptionError` too, so
    that a store can keep such a record rather than set it aside. Readers ignore root
    properties they do not know (the table adds its own)."""

    write: Callable[..., str]
    read: Callable[[str], "Board"]
    read_record: Callable[[str], GameRecord] | None = None

    def read_game(self, text: str) -> GameRecord:
        """The whole record: board, players and resignation (only the board for a format
        that reads nothing else)."""
        if self.read_record is None:
            return GameRecord(self.read(text))
        return self.read_record(text)


class Board(ABC):
    """One game in progress. Subclasses implement the abstract methods plus
    :meth:`parse_notation` and :meth:`generate_legal_moves` (the geometry's :meth:`place`
    and :meth:`axes` are among the abstract ones), and override the hooks with defaults
    where their rules differ
    (``is_legal`` by the rule, ``may_pass``, ``_turn_after``, ``moves_sensed_at``,
    ``moves_from``; ``points`` and ``neighbours`` where the board has more than holes).

    ``push`` checks legality and leaves the board untouched when it refuses; ``pop``
    restores the exact previous state, the turn included. ``copy()`` is cheap enough for
    search.
    """

    #: Registry name, e.g. ``"kulami"``.
    game: ClassVar[str]
    #: The options a game is created with; :meth:`new` checks raw options against them.
    OPTIONS: ClassVar[tuple[Option, ...]] = ()
    #: The game's own GTP commands by name (Kulami's ``layout``); ``GtpEngine`` adds them
    #: to the standard ones.
    gtp_commands: ClassVar[Mapping[str, GtpCommand]] = MappingProxyType({})
    #: Options a GTP session starts a game with unless told otherwise: the programs a
    #: game's GTP engine stands in for may assume another default than the table does
    #: (Blokus Duo: Pentobi's fixed start points).
    gtp_options: ClassVar[Mapping[str, Any]] = MappingProxyType({})
    #: Whether the game is won on points (Kulami) rather than by reaching a goal
    #: (ConHex's chain). GTP's ``final_score`` answers the score so far in a game still
    #: going only when it is: a connection game undecided has no winner yet, ``0``.
    won_on_points: ClassVar[bool] = True
    #: Whether the player to move may be changed out of the rules' order (GTP lets a
    #: controller ask either colour for a move): only in a game whose position holds
    #: each player's pieces as their own state (Blokus Duo's hands, Akron's supplies),
    #: never where it counts moves (Kulami's marbles, ConHex's swap).
    turn_can_be_handed: ClassVar[bool] = False
    #: The refusal of a pass the rules do not allow, for a person.
    pass_refused: ClassVar[str] = "this game has no passing"
    #: The game's record format. The game's package sets it once both its board and its
    #: record module are loaded: the record module builds boards, so the board module
    #: cannot import it without a cycle.
    record_format: ClassVar[RecordFormat]

    def __init__(self) -> None:
        self.move_stack: list[Hashable] = []
        self._turn = PLAYERS[0]
        #: The player who made each move of ``move_stack``, so ``pop`` restores the turn.
        self._movers: list[str] = []
        #: Counts every push and pop: what :class:`LegalMoves` keeps is valid while it holds.
        self._changes = 0

    # --- identity -------------------------------------------------------------------
    @property
    @abstractmethod
    def options(self) -> Mapping[str, Any]:
        """The options this game was created with (all keys, defaults filled in)."""

    @property
    def turn(self) -> str:
        """The player to move, ``b`` or ``w``: state that ``push`` and ``pop`` keep, so a
        game whose turns do not simply alternate says so in :meth:`_turn_after`."""
        return self._turn

    def hand_turn(self, player: str) -> None:
        """Make ``player`` the one to move, in a game whose turn can be handed
        (:attr:`turn_can_be_handed`); ``pop`` gives the turn back to whoever made the
        move it takes back. Elsewhere an :class:`EngineError` names whose turn it is."""
        if not self.turn_can_be_handed and player != self._turn:
            raise EngineError(f"it is {self._turn}'s turn, not {player}'s")
        self._turn = check_player(player)
        self._changes += 1  # a new position: what was worked out for the old one is stale

    def mover(self, index: int = -1) -> str:
        """The player who made ``move_stack[index]`` (by default the last move)."""
        return self._movers[index]

    @property
    @abstractmethod
    def holes(self) -> tuple[str, ...]:
        """Every hole a sensor sits under, in notation, in a stable order."""

    def left_in_hand(self, player: str) -> int | None:
        """How many pieces ``player`` has left to put on the board, in a game that
        counts them (Blokus Duo's shapes, Akron's supply); ``None`` where it does not."""
        return None

    def shapes(self) -> Mapping[str, tuple[tuple[int, int], ...]]:
        """In a game played with shaped pieces (Blokus Duo's), every piece by name with
        the squares it covers in one orientation, as ``(column, row)`` offsets from 0, row
        up as on the board. A tray of pieces beside the board draws them from this and
        turns them as a hand does, so it needs to know no game; the move is still read
        from the squares the piece lands on. Empty (the default) where every piece fills
        one hole; a game whose pieces have shapes provides the rest of
        :class:`ShapedPieces` too."""
        return MappingProxyType({})

    @property
    def areas(self) -> Mapping[str, frozenset[str]]:
        """Named groups of holes that light together (panels, cells); none by default."""
        return MappingProxyType({})

    def goal_edges(self) -> Mapping[str, tuple[tuple[str, ...], ...]]:
        """In a game won by joining sides of the board (Akron's), each player's sides by
        player, each side as its holes in order along it, so a front end draws whose
        goal each edge is without knowing the game. Empty (the default) where no player
        has sides of their own."""
        return MappingProxyType({})

    # --- geometry -------------------------------------------------------------------
    @property
    def points(self) -> tuple[str, ...]:
        """Every point a piece can stand at, in notation: the :attr:`holes` first, then
        any above them (Akron's pyramid). The holes, by default."""
        return self.holes

    @abstractmethod
    def place(self, name: str) -> Place:
        """Where the point ``name`` is (a name to a point, as ``chess.parse_square``).
        A name the board does not know raises :class:`PointError` saying what a name
        is here; it never answers ``None``, so a name that does not parse cannot vanish.
        A game whose holes are part of a frame (Kulami's layouts on a 10x10 frame) places
        every name of the frame."""

    def point_at(self, x: float, y: float, level: int = 1) -> str | None:
        """The name of the point at ``x``, ``y`` and ``level`` (a point to its name, as
        ``chess.square_name``), ``None`` where the board has none: a shape laid on the
        board asks where each of its squares falls."""
        return self._points_by_place.get(_place_key(x, y, level))

    @cached_property
    def _points_by_place(self) -> dict[tuple[float, float, int], str]:
        """Every point by its place, made once per board: a board's geometry never
        changes while it is played."""
        return {_place_key(p.x, p.y, p.level): name
                for name in self.points for p in (self.place(name),)}

    def neighbours(self, name: str) -> tuple[str, ...]:
        """The points beside ``name`` on its level, one unit away: four on a square
        board, six on a hexagonal one, fewer at the edge. A hole's neighbours are where
        a piece's magnet is felt most by its sensor."""
        here = self.place(name)
        return tuple(other for other in self.points
                     for there in (self.place(other),)
                     if there.level == here.level and other != name
                     and abs(math.dist((here.x, here.y), (there.x, there.y)) - 1) < 1e-6)

    @abstractmethod
    def axes(self) -> Axes:
        """The names of the columns and rows, as a printed board writes them."""

    # --- moves ----------------------------------------------------------------------
    def parse_move(self, text: str) -> Hashable:
        """Parse move text: ``pass`` in every game, else the game's own notation; raises
        :class:`InvalidMoveError` with the reason."""
        if text.strip().lower() == str(PASS):
            return PASS
        return self.parse_notation(text)

    def parse_notation(self, text: str) -> Hashable:
        """Parse the game's own move text, raising :class:`InvalidMoveError` with the
        reason. Every game implements this."""
        raise NotImplementedError(f"{type(self).__name__} reads no move text")

    def move_text(self, move: Hashable) -> str:
        return str(move)

    def generate_legal_moves(self, player: str) -> Iterator[Hashable]:
        """The moves the rules allow ``player`` now, as an iterator that makes them as it
        goes (a generator, or ``itertools`` over the game's state), without checking
        whether the game is over (:class:`LegalMoves` does) and without the pass (which
        :meth:`may_pass` decides). Every game implements this."""
        raise NotImplementedError(f"{type(self).__name__} generates no moves")

    def legal_moves_for(self, player: str) -> LegalMoves:
        """The legal moves of ``player`` in this position, whoever is to move (GTP's
        ``all_legal`` asks for either colour)."""
        return LegalMoves(self, player)

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves of the player to move (none once the game is over)."""
        return self.legal_moves_for(self.turn)

    def is_legal(self, move: Hashable) -> bool:
        """Whether the player to move may play ``move`` now. Games override this with the
        rule itself; this default looks for ``move`` among the generated moves."""
        return any(move == legal for legal in self.legal_moves_for(self.turn))

    def may_pass(self, player: str) -> bool:
        """Whether the rules let ``player`` pass now; :data:`PASS` is then a legal move.
        Never, by default."""
        return False

    def illegal_reason(self, move: Hashable) -> str:
        """Why ``move`` is not legal now, in words for a person."""
        if self.is_game_over():
            return "the game is over"
        if move == PASS:
            return self.pass_refused
        return self._why_illegal(move)

    def _why_illegal(self, move: Hashable) -> str:
        """Which rule refuses ``move`` in a game still going; games say it precisely."""
        return f"{self.move_text(move)} is not a legal move for {self.turn}"

    def moves_from(self, hole: str) -> Iterator[Hashable]:
        """The legal moves that start by lifting the piece in ``hole``: what a lifted
        piece may become (Akron moves a ball from one point to another). Placement games
        never move a piece once placed, so there are none by default."""
        return iter(())

    def holes_of(self, move: Hashable) -> frozenset[str]:
        """The holes that show ``move`` on the LEDs, which sit only under holes: by
        default the holes whose sensor would see a change (a piece put in, lifted or
        recoloured). A game with pieces above the board (Akron) names the holes under
        them. The move is not kept."""
        before = self.sensor_view()
        probe = self.copy()
        probe.push(move)
        after = probe.sensor_view()
        return frozenset(hole for hole in before.keys() | after.keys()
                         if before.get(hole) != after.get(hole))

    def moves_sensed_at(self, hole: str) -> Iterator[Hashable]:
        """The legal moves of the player to move that change what a sensor under ``hole``
        sees (occupancy or colour): the moves a new reading there can belong to, found
        without the sensing layer walking every legal move.

        This default plays every legal move to compare :meth:`sensor_view` before and
        after: right for any game, slow; games override it by their rule."""
        seen = self.sensor_view().get(hole)
        sensed = []
        for move in list(self.legal_moves):
            self.push(move)
            if self.sensor_view().get(hole) != seen:
                sensed.append(move)
            self.pop()
        return iter(sensed)

    def push(self, move: Hashable) -> None:
        """Play ``move`` for the player to move; refuse an illegal one untouched."""
        if not self.is_legal(move):
            raise IllegalMoveError(self.illegal_reason(move))
        self.push_legal(move)

    def push_legal(self, move: Hashable) -> None:
        """Play ``move``, one of :attr:`legal_moves` of this very position, without
        asking again whether it is legal: the search's walks push only moves it has
        listed, and in a game like Akron the check costs as much as listing them. An
        illegal move given here corrupts the position: anything read from outside
        goes through :meth:`push`."""
        self._apply(move)
        self.move_stack.append(move)
        self._movers.append(self._turn)
        self._turn = self._turn_after(move)
        self._changes += 1

    def push_text(self, text: str) -> Hashable:
        """Parse and push ``text``; returns the move."""
        move = self.parse_move(text)
        self.push(move)
        return move

    def pop(self) -> Hashable:
        """Take back the last move and return it; the turn goes back to its player."""
        if not self.move_stack:
            raise EngineError("no move to take back")
        move = self.move_stack.pop()
        self._turn = self._movers.pop()
        self._undo(move)
        self._changes += 1
        return move

    @property
    def last_move(self) -> Hashable | None:
        return self.move_stack[-1] if self.move_stack else None

    @abstractmethod
    def _apply(self, move: Hashable) -> None:
        """Change the state for a move already known to be legal (:data:`PASS` too, in a
        game that allows it); ``turn`` is still the mover."""

    @abstractmethod
    def _undo(self, move: Hashable) -> None:
        """Exactly reverse :meth:`_apply` for the last move; ``turn`` is its mover again."""

    def _turn_after(self, move: Hashable) -> str:
        """Who moves after ``move``; ``push`` asks once the move is applied and on the
        stack, while ``turn`` is still its mover. Turns alternate by default."""
        return other(self._turn)

    # --- the end --------------------------------------------------------------------
    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The outcome once the game is over, else ``None``."""

    def is_game_over(self) -> bool:
        return self.outcome() is not None

    @abstractmethod
    def scores(self) -> dict[str, int]:
        """The score as it stands (the final score once the game is over)."""

    def score_parts(self) -> list[ScorePart]:
        """The score in the parts a score sheet lists, in order; none where the scores
        alone tell it (the default)."""
        return []

    def winning_chain(self, player: str) -> tuple[str, ...]:
        """In a game won by joining two sides (``won_on_points`` false), the fewest of
        ``player``'s pieces or areas that join them, from the first side to the second,
        named as holes or as :attr:`areas`; empty when they do not join, and in every
        game won on points (the default)."""
        return ()

    # --- views for the layers above -------------------------------------------------
    @abstractmethod
    def sensor_view(self) -> dict[str, str]:
        """Occupied holes a sensor could see, mapped to the owner ``b`` or ``w``."""

    def piece_view(self) -> dict[str, str]:
        """Every piece where it stands, point name -> owner: what :meth:`sensor_view`
        shows where every piece sits in a hole, and in a game whose pieces stack (Akron)
        the pieces above the holes too, named in the game's notation. What a person sets
        out to continue a game, and what a text board draws."""
        return self.sensor_view()

    @abstractmethod
    def lights(self) -> Lights:
        """What to light now: legal targets, off-limits areas, owned areas, last move."""

    @abstractmethod
    def ascii(self) -> str:
        """A plain-text board for ``showboard`` and logs."""

    # --- creating, copying and records ----------------------------------------------
    @classmethod
    def new(cls, **options: Any) -> "Board":
        """A new game with ``options`` checked against :attr:`OPTIONS`: text is converted
        to each option's type, anything else must be of that type already."""
        return cls.from_options(validate(cls.game, cls.OPTIONS, options))

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> "Board":
        """A new game from checked options, every key present; ``cls(**options)`` unless
        the game builds differently."""
        return cls(**options)

    def copy(self) -> "Board":
        """An independent board with the same position and history."""
        clone = type(self).from_options(self.options)
        for move in self.move_stack:
            clone.push(move)
        return clone

    def _copy_history(self, clone: "Board") -> None:
        """Give ``clone`` this board's moves and turns, for a ``copy`` that copies the
        game's state directly instead of replaying the moves."""
        clone.move_stack = list(self.move_stack)
        clone._movers = list(self._movers)
        clone._turn = self._turn

    def to_record(self) -> str:
        """The game so far as a record in the game's documented format."""
        return self.record_format.write(self)

    @classmethod
    def from_record(cls, text: str) -> "Board":
        """Rebuild a game from its record, raising :class:`RecordError` when broken."""
        return cls.record_format.read(text)

    def __str__(self) -> str:
        return self.ascii()


@runtime_checkable
class ShapedPieces(Protocol):
    """An optional capability of a :class:`Board`: a game played with shaped pieces, each
    player holding a set of them by name (Blokus Duo's 21 polyominoes). A front end that
    lets a player choose a piece, turn it and put it down (the page's piece picker, the
    screen's tray) needs these three and no rule: it draws what is left from
    :meth:`shapes` and :meth:`pieces_left`, and groups the legal moves by
    :meth:`piece_of` to find the one whose squares (``holes_of``) lie under the piece.
    A board has the capability when it provides all three (``isinstance(board,
    ShapedPieces)``); a game where every piece fills one hole provides none but the
    empty :meth:`Board.shapes`, and its moves are typed or tapped hole by hole."""

    def shapes(self) -> Mapping[str, tuple[tuple[int, int], ...]]:
        """Every piece of the set by name (the same for both players), as the squares it
        covers in one orientation: ``(column, row)`` offsets from 0, row up as on the
        board. The front end draws the pieces and turns or flips them itself, so the
        names here are the only ones :meth:`pieces_left` and :meth:`piece_of` give."""
        ...

    def pieces_left(self, player: str) -> tuple[str, ...]:
        """The names of the pieces ``player`` has still to put down, in the set's order:
        what the front end offers to choose from, for either player at any time."""
        ...

    def piece_of(self, move: Hashable) -> str:
        """The name of the piece a legal ``move`` puts down, so the front end can group
        the legal moves by piece without reading the notation."""
        ...


__all__ = ["PASS", "PLAYERS", "Axes", "Board", "EngineError", "GameRecord", "GtpCommand",
           "IllegalMoveError", "InvalidMoveError", "LegalMoves", "Lights", "Option",
           "OptionError", "Outcome", "Pass", "Place", "PointError", "RecordError",
           "RecordFormat", "ScorePart", "ShapedPieces", "TabletopError", "check_player",
           "other"]
