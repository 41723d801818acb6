"""Who plays each colour: the seats, and what each means for the game at the table.

A seat is a small value whose class says how its player plays. The session, the
record store, the screen, the terminal and the page ask a seat what they need, and
none of them tells seats apart by their words:

- :class:`Person`: someone at the table. Whatever they put down on the board on their
  turn is their move; they correct a misplaced piece, pick among moves the sensors
  cannot see, and ask for hints.
- :class:`OurEngine`: our own search plays the colour. Its move is lit, and a person at
  the table places it.
- :class:`OutsideEngine`: a GTP program the configuration names for the game plays the
  colour (``[engines]``), with our own search behind it when it fails
  (:mod:`app.table.outside_engine`). At the table it is an engine like ours; it is named
  by its program.
- :class:`Browser`: a player on the web page, away from the table. Their move arrives as
  text and is lit for a person at the table to place; a piece put down before it
  arrives is refused. With a player away, Undo at the table only offers a takeback,
  which the player away accepts, and they may offer one too.

A board far away (another table playing this one, :mod:`app.remote`) is a seat away
from the table as a browser is. Its class lives with the link its moves come through,
above the table, so it joins the kinds with :func:`register` when that package is
imported: the table never imports the layer above it, and a record naming it still
resumes.

Every seat is written into a record, named in the configuration and the page's JSON by
one word, its :attr:`Seat.kind` (``person``, ``engine``, ``remote``, and each registered
kind: ``board``); both engines are ``engine``, as records before this module wrote
them. :func:`parse` and :func:`parse_seats` are the one place that turns words into
seats and refuses what is not one, in one line; each caller adds where the word came
from.

A seat that cannot play once the game is resumed after a restart (a browser's: no page
holds it any more) is handed back to the table by :meth:`Seat.resumed`, and the session
says so. A record gives only the seat's word: a seat of the same kind that the caller
resuming the game holds (a far board's, with its link) plays in its place
(:meth:`app.table.session.Session.resume_or_start`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar

from app.errors import SeatError
from app.table import texts


@dataclass(frozen=True)
class Seat:
    """Who plays one colour. The class attributes say how its moves come."""

    #: Its one word in records, the configuration, the terminal's flags and the page.
    kind: ClassVar[str] = ""
    #: What the table's menu calls it.
    called: ClassVar[str] = ""
    #: A person at the table chooses its moves: a piece put down on its turn is its
    #: move, and they are offered corrections, hints and moves the sensors cannot see.
    at_table: ClassVar[bool] = False
    #: The engine searches its moves (lit for a person to place, on a board).
    thinks: ClassVar[bool] = False
    #: Its player is away from the table: the move comes as text, a piece put down
    #: before it is refused, and a takeback is offered to them rather than done.
    away: ClassVar[bool] = False
    #: A browser may take this colour over from the page (and the table gets it back
    #: when the browser leaves). Never a board far away's: its player plays it there.
    page_may_take: ClassVar[bool] = True

    @property
    def resigns(self) -> bool:
        """Whether its player resigns its colour by itself (a player away, from where
        they play; an outside program, by answering ``resign``), which the table may not
        do for it."""
        return self.away

    def words(self, level: int) -> str:
        """Who plays, for the screen and the load list: ``person``, ``engine level 2``."""
        raise NotImplementedError

    def shown(self, level: int) -> str:
        """Who plays, as the page says it beside the colour (``Black: at the table``)."""
        return self.words(level)

    def to_move(self, game: str, colour: str) -> str:
        """What the table says while this seat is to move and has not chosen yet
        (nothing to say: empty)."""
        return ""

    def place(self, game: str, colour: str, move: str) -> str:
        """What the table says while this seat's chosen ``move`` waits to be placed."""
        return texts.place_engine_move(move)

    def move_called(self, game: str, colour: str) -> str:
        """What the legend and the screen call this seat's chosen move while it waits
        to be placed: the player's own (``Black's move``)."""
        return texts.own_move(game, colour)

    def too_soon(self, game: str, colour: str) -> str:
        """What a piece put down for a player away, before their move came, is told."""
        return ""

    def resumed(self, game: str, colour: str) -> tuple[Seat, str]:
        """The seat that plays ``colour`` once its game is resumed after a restart, and
        what to say of it: itself and nothing, or a person at the table and why, when
        nobody could play it any more."""
        return self, ""

    def for_program(self, program: str | None) -> Seat:
        """This seat when the game's engine is the outside ``program`` (``None``: our
        own search): an engine's seat becomes that engine, any other stays as it is."""
        return self


@dataclass(frozen=True)
class Person(Seat):
    kind: ClassVar[str] = "person"
    called: ClassVar[str] = "a person"
    at_table: ClassVar[bool] = True

    def words(self, level: int) -> str:
        return "person"

    def shown(self, level: int) -> str:
        return "at the table"


@dataclass(frozen=True)
class OurEngine(Seat):
    kind: ClassVar[str] = "engine"
    called: ClassVar[str] = "engine"
    thinks: ClassVar[bool] = True

    def words(self, level: int) -> str:
        return f"engine level {level}"

    def shown(self, level: int) -> str:
        return f"the engine, level {level}"

    def move_called(self, game: str, colour: str) -> str:
        return texts.ENGINES_MOVE

    def for_program(self, program: str | None) -> Seat:
        return OutsideEngine(program) if program else OurEngine()


@dataclass(frozen=True)
class OutsideEngine(OurEngine):
    """An outside program (its name: ``pentobi-gtp``) plays, our engine behind it."""

    program: str = ""

    @property
    def resigns(self) -> bool:
        return True  # a GTP program answers genmove with resign

    def words(self, level: int) -> str:
        return self.program

    def shown(self, level: int) -> str:
        return self.program


@dataclass(frozen=True)
class Browser(Seat):
    """A player on the web page; which browser holds the seat is the page's to know."""

    kind: ClassVar[str] = "remote"
    called: ClassVar[str] = "the web page"
    away: ClassVar[bool] = True
    #: Where the moves come from, in the table's messages.
    where: ClassVar[str] = "the web page"

    def words(self, level: int) -> str:
        return "web page"

    def shown(self, level: int) -> str:
        return "the web page"

    def to_move(self, game: str, colour: str) -> str:
        return texts.away_to_move(game, colour, self.where)

    def place(self, game: str, colour: str, move: str) -> str:
        return texts.place_away_move(game, colour, move, self.where)

    def move_called(self, game: str, colour: str) -> str:
        """What the legend and the screen call this seat's chosen move while it waits
        to be placed: the player's own (``Black's move``)."""
        return texts.own_move(game, colour)

    def too_soon(self, game: str, colour: str) -> str:
        return texts.away_waits(game, colour, self.where)

    def resumed(self, game: str, colour: str) -> tuple[Seat, str]:
        # The page's holders live only as long as the program: after a restart no
        # browser holds the seat, and its player takes it again from the page.
        return Person(), texts.handed_back(game, colour, self.where)


_KINDS: dict[str, Seat] = {seat.kind: seat for seat in (Person(), OurEngine(), Browser())}
#: Each seat's word -> the seat it names (an outside engine is named ``engine``, and
#: becomes one where the configuration names a program for the game), with every kind
#: :func:`register` added; read only.
KINDS: Mapping[str, Seat] = MappingProxyType(_KINDS)
#: The words the table's own menu, flags and configuration offer: a browser's seat is
#: taken from the page.
TABLE_KINDS = ("person", "engine")


def register(seat: Seat) -> None:
    """Let ``seat``'s kind be named in records and read back as ``seat`` (a seat with no
    link to anything: the one who resumes its game holds the live one). A package above
    the table registers its seat when it is imported; registering the same class again
    changes nothing, and a word another class has is refused."""
    known = _KINDS.get(seat.kind)
    if not seat.kind or (known is not None and type(known) is not type(seat)):
        raise SeatError(f"a seat's word must be new, not {seat.kind!r}")
    _KINDS.setdefault(seat.kind, seat)


def parse(word: str | Seat, kinds: tuple[str, ...] | None = None) -> Seat:
    """The seat ``word`` names, one of ``kinds`` (``None``: any); a seat is taken as it
    is."""
    if isinstance(word, Seat) and (kinds is None or word.kind in kinds):
        return word
    allowed = tuple(KINDS) if kinds is None else kinds
    if isinstance(word, str) and word in allowed:
        return KINDS[word]
    shown = word.kind if isinstance(word, Seat) else word
    raise SeatError(f"must be {_either(allowed)}, not {shown!r}")


def parse_seats(seats: Mapping[str, str | Seat],
                kinds: tuple[str, ...] | None = None) -> dict[str, Seat]:
    """``b`` and ``w``, each the seat its word names (one of ``kinds``; ``None``: any)."""
    if not isinstance(seats, Mapping) or set(seats) != {"b", "w"}:
        raise SeatError(f"seats must give b and w each {_either(kinds or tuple(KINDS))}, "
                        f"not {str(seats)[:60]}")
    checked = {}
    for colour in ("b", "w"):
        try:
            checked[colour] = parse(seats[colour], kinds)
        except SeatError as error:
            raise SeatError(f"seats: {colour} {error}") from None
    return checked


def _either(kinds: tuple[str, ...]) -> str:
    """``person, engine or remote``."""
    return " or ".join(filter(None, (", ".join(kinds[:-1]), kinds[-1])))


def words_of(seats: Mapping[str, Seat]) -> dict[str, str]:
    """Each colour's seat as its word, as records, the page and the menu give it."""
    return {colour: seat.kind for colour, seat in seats.items()}
