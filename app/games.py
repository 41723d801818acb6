"""The games this table plays: one :class:`GameInfo` entry per game, and nothing else
lists them.

An entry holds everything the product needs to know about a game beyond its rules: the
engine's board class, the title, each player's name and colours, how its options read
in words and in the new-game menu, what its score counts, which drawer shows its board
in the simulator, whether its areas are laid out before play, and which LED roles its
scenes use. The rules live in the engine package the entry names. Adding a game is one
engine package plus one entry here; an unknown name is an error, never another game.

Board classes and drawers are named by import path and loaded on first use, so that
reading this table costs nothing on a Pi and never imports pygame.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from importlib import import_module
from types import MappingProxyType, ModuleType
from typing import Any

from app.colours import BLUE, RED
from engines.core import Board, OptionError

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Player:
    """One side of a game: ``b`` moves first, ``w`` second (the wire colours); ``name``
    is what players call it, ``piece`` its colour on screen, ``led`` its LED colour."""

    name: str
    piece: RGB
    led: RGB

    @property
    def title(self) -> str:
        """The name as a sentence starts it: ``Red``."""
        return self.name.capitalize()


@dataclass(frozen=True)
class MenuOption:
    """One option as the new-game menu offers it: a row labelled ``label`` with the
    ``values`` a player may pick (a callable when they are only known at run time, like
    the shipped Kulami layouts), each shown as ``words(value)``."""

    key: str
    label: str
    values: Sequence[Any] | Callable[[], Sequence[Any]]
    words: Callable[[Any], str] = str

    def choices(self) -> tuple[Any, ...]:
        return tuple(self.values() if callable(self.values) else self.values)


@dataclass(frozen=True)
class GameInfo:
    """Everything the table knows about one game, apart from its rules."""

    name: str
    title: str
    #: ``"module:BoardClass"`` of the engine.
    board: str
    players: Mapping[str, Player]
    #: What the score counts with a game's options, for the screen's score line.
    score_label: Callable[[Mapping[str, Any]], str]
    #: ``"module:DrawerClass"`` of the simulator's board drawer.
    drawer: str
    #: The options as short phrases for the screen's header.
    describe: Callable[[Mapping[str, Any]], list[str]]
    menu: tuple[MenuOption, ...] = ()
    #: The game's areas are loose pieces laid out before play (Kulami's panels): a new
    #: game starts with the setup scene showing where each goes.
    setup: bool = False
    #: The LED roles this game's scenes light, most urgent first (see app/colours.py).
    roles: tuple[str, ...] = field(default=())
    #: The pieces stack above the holes, where no sensor sees them (Akron's balls): the
    #: engine's module of the pile's physics (``can_lift``, ``lift``, ``can_put``,
    #: ``holes``; see engines/akron/pile.py), which the simulated hand works with.
    pile: str = ""
    #: Each player holds shaped pieces in a tray beside the board and puts one down
    #: whole (Blokus Duo): the simulator draws the tray under the board to pick them from.
    tray: bool = False
    #: A move in words, for the terminal's help line ("type a ... such as d4").
    move_words: str = "hole"
    #: What the pieces each player still has to put down are called on the screen
    #: (``pieces left``) in a game whose board counts them (``Board.left_in_hand``).
    hand: str = ""
    #: How the game is played and won, in a few words, for the terminal's first line
    #: (``{b}`` and ``{w}`` are the players' names).
    goal: str = "the higher score wins"
    #: The two sides each player's chain joins, in a game won by a chain (ConHex,
    #: Akron), in the order the engine's ``winning_chain`` runs, and what the chain is
    #: made of (``cells``): the end of the game in words.
    sides: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    chain: str = ""
    #: What each move made by button does (a move the sensors cannot see, such as
    #: ConHex's swap), by the move's text, in words (``{mover}`` and ``{other}`` stand
    #: for the players' names): the line the screen adds while it is offered.
    button_moves: Mapping[str, str] = field(default_factory=dict)

    @cached_property
    def board_class(self) -> type[Board]:
        return _load(self.board)

    def new_board(self, **options: Any) -> Board:
        """A new game with ``options`` (``key=value`` strings are converted and checked)."""
        return self.board_class.new(**options)

    @cached_property
    def pile_physics(self) -> ModuleType | None:
        """The module of the pile's physics (:attr:`pile`), ``None`` where pieces do not
        stack."""
        return import_module(self.pile) if self.pile else None

    def drawer_class(self) -> type:
        """The simulator's drawer for this board (imports pygame)."""
        return _load(self.drawer)


def _load(path: str) -> Any:
    module, _, name = path.partition(":")
    return getattr(import_module(module), name)


def _kulami_layouts() -> list[str]:
    from engines.kulami.layout import named_layouts
    return [*named_layouts(), RANDOM_LAYOUT]


def _describe_kulami(options: Mapping[str, Any]) -> list[str]:
    from engines.kulami.layout import named_layouts

    layout = str(options.get("layout", "square-1"))
    name_of = {text: name for name, text in named_layouts().items()}
    words = [f"layout {name_of.get(layout, 'of your own' if '/' in layout else layout)}",
             f"scoring level {options.get('scoring', 0)}"]
    if options.get("scoring") == 2:
        words.append(f"{options.get('chain_lines', 'all')} chains")
    return words


def _describe_conhex(options: Mapping[str, Any]) -> list[str]:
    words = ["pie rule" if options.get("pie", True) else "no pie rule"]
    if options.get("handicap"):
        words.append(f"handicap {options['handicap']}")
    return words


#: What a Kulami score counts at each scoring level.
KULAMI_SCORE_LABELS = ("panels", "panels + largest area", "panels + area + chains")


def _kulami_score_label(options: Mapping[str, Any]) -> str:
    return KULAMI_SCORE_LABELS[options.get("scoring", 0)]


def _conhex_score_label(options: Mapping[str, Any]) -> str:
    return "cells"


def _describe_blokus_duo(options: Mapping[str, Any]) -> list[str]:
    return [_BLOKUS_STARTS[options.get("start", "either")]]


#: Blokus Duo's start rules in words (the engine's option ``start``).
_BLOKUS_STARTS = {"either": "start on either point", "fixed": "fixed start points"}


def _blokus_duo_score_label(options: Mapping[str, Any]) -> str:
    return "squares left, bonuses"


def _akron_score_label(options: Mapping[str, Any]) -> str:
    return "balls on the board"


def _on_off(value: bool) -> str:
    return "on" if value else "off"


#: The menu's value for a Kulami layout drawn at random when the game starts.
RANDOM_LAYOUT = "random"

#: Scene roles every placement game lights (app/colours.py gives their colours).
_PLACEMENT_ROLES = ("fault", "fill", "empty", "error", "suggestion", "candidate", "seen",
                    "last", "legal",
                    "owned_b", "owned_w", "won_b", "won_w")

GAMES: Mapping[str, GameInfo] = MappingProxyType({info.name: info for info in (
    GameInfo(
        name="kulami", title="Kulami", board="engines.kulami.board:KulamiBoard",
        players=MappingProxyType({"b": Player("red", (200, 30, 30), RED),
                                  "w": Player("black", (25, 25, 25), BLUE)}),
        score_label=_kulami_score_label, drawer="app.screen.boards.kulami:KulamiDrawer",
        describe=_describe_kulami,
        menu=(MenuOption("layout", "Layout", _kulami_layouts),
              MenuOption("scoring", "Scoring", (0, 1, 2), lambda v: f"level {v}")),
        setup=True, roles=_PLACEMENT_ROLES + ("off_limits", "setup"), move_words="field",
        goal="place each piece in the row or column of the last one, never on the panels "
             "of the last two; a panel scores its fields for the player with more pieces "
             "on it"),
    GameInfo(
        name="conhex", title="ConHex", board="engines.conhex.board:ConHexBoard",
        players=MappingProxyType({"b": Player("red", (200, 30, 30), RED),
                                  "w": Player("blue", (30, 70, 200), BLUE)}),
        score_label=_conhex_score_label, drawer="app.screen.boards.conhex:ConHexDrawer",
        describe=_describe_conhex,
        menu=(MenuOption("pie", "Pie rule", (True, False), _on_off),
              MenuOption("handicap", "Handicap", (0, 2, 3),
                         lambda v: "none" if v == 0 else str(v))),
        roles=_PLACEMENT_ROLES,
        goal="{b} joins top and bottom, {w} left and right, with a chain of own cells; a "
             "cell goes to whoever first holds half its holes",
        sides=MappingProxyType({"b": ("top", "bottom"), "w": ("left", "right")}),
        chain="cells",
        button_moves=MappingProxyType({
            "swap": "{mover} may swap: take over {other}'s first gem, and {other} moves "
                    "next"})),
    GameInfo(
        # Purple and orange as Pentobi shows Blokus Duo; the LEDs keep the palette's two
        # player colours, blue for purple and red for orange.
        name="blokus-duo", title="Blokus Duo", board="engines.blokus_duo.board:BlokusDuoBoard",
        players=MappingProxyType({"b": Player("purple", (128, 60, 180), BLUE),
                                  "w": Player("orange", (240, 140, 30), RED)}),
        score_label=_blokus_duo_score_label,
        drawer="app.screen.boards.blokus_duo:BlokusDuoDrawer",
        describe=_describe_blokus_duo, hand="pieces left", tray=True,
        goal="each piece touches your own only at corners, the first covers a start "
             "point; the fewer squares left when neither can place, the higher the score",
        move_words="piece, its squares joined by commas,",
        menu=(MenuOption("start", "Start", ("either", "fixed"),
                         lambda v: _BLOKUS_STARTS[v]),),
        # No areas: nothing is owned or won on the board.
        roles=tuple(role for role in _PLACEMENT_ROLES
                    if not role.startswith(("owned_", "won_")))),
    GameInfo(
        # White moves first, as the rule sheet has it; on the LEDs white is blue, since
        # white light already means the last move.
        name="akron", title="Akron", board="engines.akron.board:AkronBoard",
        players=MappingProxyType({"b": Player("white", (235, 235, 225), BLUE),
                                  "w": Player("red", (200, 30, 30), RED)}),
        score_label=_akron_score_label, drawer="app.screen.boards.akron:AkronDrawer",
        pile="engines.akron.pile",
        move_words="hole to add a ball to, or a ball's point and where it goes (1c3-2d4),",
        describe=lambda options: ["8x8 board", "32 balls each"],
        # Row 1 is the engine's south, column a its west (engines/akron/geometry.py).
        goal="{b} joins top and bottom, {w} left and right, with a chain of own balls "
             "that touch where they can be seen; a turn adds a ball or moves an own one",
        sides=MappingProxyType({"b": ("bottom", "top"), "w": ("left", "right")}),
        chain="balls",
        hand="balls to add",
        # No areas: the winning chain is lit on the holes under its balls.
        roles=tuple(role for role in _PLACEMENT_ROLES if not role.startswith("owned_"))),
)})


def game(name: str) -> GameInfo:
    """The entry for ``name``; an unknown name is an :class:`OptionError` listing the
    games there are."""
    try:
        return GAMES[name.strip().lower()]
    except KeyError:
        raise OptionError(f"unknown game {name!r} (known: {', '.join(GAMES)})") from None


def new_game(name: str, **options: Any) -> Board:
    """A new game of ``name``: the one door from a game's name to its engine."""
    return game(name).new_board(**options)
