"""One view of the table per revision: everything the front ends show, made once.

The session makes a :class:`View` whenever its ``revision`` has moved and someone asks
(:meth:`~app.table.session.Session.view`), and every front end reads that one value: the
LEDs its scene, the status screen its status, legend, offers and score sheet, the web
page all of it as JSON (:mod:`app.web.snapshot`), the terminal its end. So the board,
the screen and the page never disagree, and none of them reaches into the session or
works out a game fact again (the page used to make the status and the scene a second
time, and the screen replayed the moves to find the score sheet).

What is shown is worked out here from the board and the session's
:class:`~app.table.status.Status`, and nothing else, so a test makes the view of any
state without playing up to it (:meth:`View.of`). Words come from
:mod:`app.table.texts` and the game's entry (:mod:`app.games`); colours from
:mod:`app.colours` through the scene.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

from app.colours import RGB, role_of
from app.games import Player, game as game_info
from app.table import texts
from app.table.ending import End
from app.table.legend import legend_roles, meaning
from app.table.scene import Scene, game_scene, last_move_holes, role_colour
from app.table.status import Status
from app.table.sureness import Sureness
from engines.core import Board, Place
from engines.errors import EngineError

#: Moves offered by a button of their own, at most: where there are more (Akron's moves
#: above the board), Confirm offers them to pick from.
OFFERS = 2


@dataclass(frozen=True)
class LegendRow:
    """One line of the legend: a role the board lights now, its colour, whether it
    blinks, what it means, and whose it is (a player's areas, a player's own move)."""

    role: str
    colour: RGB
    blink: bool
    meaning: str
    player: str | None = None


@dataclass(frozen=True)
class Offer:
    """A move a person makes by button, as the sensors cannot see it (ConHex's swap):
    its text, and what it does in the game's words."""

    move: str
    words: str


@dataclass(frozen=True)
class BoardView:
    """What a board looks like, apart from its lights: every hole where the board
    places it, where each piece stands (a pile's above the holes too), the names of the
    columns and rows by ``x`` and ``y``, the areas as holes, each player's goal edges as
    the holes along them (Akron's sides), the pieces, the last move, and how the game's
    pieces are drawn (``square``: shaped pieces from a tray; ``ball``: stacking pieces;
    ``marble``: any other, in its hole)."""

    holes: Mapping[str, Place]
    places: Mapping[str, Place]
    columns: tuple[tuple[float, str], ...]
    rows: tuple[tuple[float, str], ...]
    areas: Mapping[str, tuple[str, ...]]
    goal_edges: Mapping[str, tuple[tuple[str, ...], ...]]
    pieces: Mapping[str, str]
    last: tuple[str, ...]
    shape: str

    @classmethod
    def of(cls, board: Board) -> BoardView:
        """``board`` as it stands; a name the board does not place is an error, never a
        piece left out."""
        pieces = board.piece_view()
        info = game_info(board.game)
        axes = board.axes()
        return cls(
            holes=MappingProxyType({name: board.place(name) for name in board.holes}),
            places=MappingProxyType({name: board.place(name) for name in pieces}),
            columns=tuple(axes.columns.items()), rows=tuple(axes.rows.items()),
            areas=MappingProxyType({name: tuple(sorted(holes))
                                    for name, holes in board.areas.items()}),
            goal_edges=board.goal_edges(),
            pieces=MappingProxyType(dict(pieces)),
            last=tuple(sorted(last_move_holes(board))) if board.move_stack else (),
            shape="square" if info.tray else "ball" if info.pile else "marble")


@dataclass(frozen=True)
class View:
    """The table at one revision, as every front end shows it."""

    revision: int
    #: The game and the session's state in plain values: what the screen draws from.
    status: Status
    #: What the LEDs light.
    scene: Scene
    board: BoardView
    title: str
    players: Mapping[str, Player]
    #: The options in words (``layout square-1, scoring level 0``).
    described: str
    #: Who plays each colour in words (``Red: person, Black: engine level 2``).
    seated: str
    #: What the score counts (``panels``), and what a player's pieces still to put down
    #: are called in a game that counts them (``pieces left``; empty in others).
    score_label: str
    hand: str
    #: The message of the moment as a sentence, the players named by colour.
    message: str
    #: The move a hint suggests and how sure the engine is of it, in numbers
    #: (:mod:`app.table.sureness`; ``None``: no hint lit, or an outside program's).
    hint: Sureness | None
    legend: tuple[LegendRow, ...]
    offers: tuple[Offer, ...]
    #: The moves each seat that sends its moves as text (a player away) may send now,
    #: by colour: only the player to move, and none while a move waits to be placed.
    legal: Mapping[str, tuple[str, ...]]
    #: How a finished game's score came about, line by line (empty while it is played).
    sheet: tuple[str, ...]
    end: End | None
    #: The end in a line (the page, the log) and in full (the screen, the terminal).
    end_short: str
    end_long: str

    @classmethod
    def of(cls, board: Board, status: Status, scene: Scene | None = None,
           revision: int = 0) -> View:
        """The view of ``board`` in ``status``, lit as ``scene`` (by default the game's
        own lights, nothing of the session's)."""
        game = board.game
        info = game_info(game)
        end = status.end
        return cls(
            revision=revision, status=status,
            scene=scene if scene is not None else game_scene(board),
            board=BoardView.of(board), title=info.title, players=info.players,
            described=texts.options(game, status.options),
            seated=texts.seats(game, status.seats, status.level),
            score_label=info.score_label(status.options), hand=info.hand,
            message=texts.sentence(texts.named(game, status.message)),
            hint=status.hint_sureness,
            legend=tuple(_legend(status)),
            offers=tuple(Offer(move, texts.offered(game, board.turn, move))
                         for move in _offered(board, status)),
            legal=MappingProxyType(_legal(board, status)),
            sheet=tuple(texts.score_sheet(board)) if end is not None else (),
            end=end,
            end_short=texts.end_short(game, end) if end is not None else "",
            end_long=texts.sentence(texts.end_long(game, end)) if end is not None else "")


def _legend(status: Status) -> list[LegendRow]:
    rows = []
    for role in legend_roles(status):
        look, player = role_of(role)
        if role == "suggestion" and status.pending is not None:
            player = status.turn  # the move waiting to be placed is its seat's own
        rows.append(LegendRow(role, role_colour(status.game, role), look.blink,
                              meaning(status, role), player))
    return rows


def _legal(board: Board, status: Status) -> dict[str, tuple[str, ...]]:
    """The moves a player away may send now: theirs to choose, by colour."""
    turn = status.turn
    if turn is None or status.pending is not None or not status.seats[turn].away:
        return {}
    return {turn: tuple(board.move_text(move) for move in board.legal_moves)}


def by_button(board: Board) -> Callable[[Hashable], bool]:
    """Whether a move in ``board``'s position is one made by button: its text names no
    hole, and it puts nothing on an empty hole (it only recolours pieces, or moves balls
    above the board). A move that puts a piece down (a Blokus piece, whose text names
    its squares) is made by hand, where the sensors see it."""
    holes, occupied = set(board.holes), board.sensor_view().keys()
    return lambda move: (board.move_text(move) not in holes
                         and board.holes_of(move) <= occupied)


def _offered(board: Board, status: Status) -> tuple[str, ...]:
    """Moves that can be made only by button, as their texts: the legal moves of a
    person to move that are made by button (:func:`by_button`: ConHex's swap, which
    only recolours a gem, so a colour-blind board cannot see it at all), or the move
    waiting to be made when it is such a move. At most :data:`OFFERS` of them."""
    if status.turn is None:
        return ()
    if status.pending is not None:
        try:
            move = board.parse_move(status.pending)
        except EngineError:
            return ()
        return (status.pending,) if by_button(board)(move) else ()
    if not status.seats[status.turn].at_table:
        return ()
    offered = _made_by_button(board, (board.game, tuple(sorted(board.options.items())),
                                      board.turn, tuple(board.move_stack)))
    return offered if len(offered) <= OFFERS else ()


@lru_cache(maxsize=1)
def _made_by_button(board: Board, position: Hashable) -> tuple[str, ...]:
    """The legal moves made by button in ``board``'s ``position``: worked out once a
    position, where a view is made at every revision (each tried move is pushed on a
    copy, hundreds of them in Blokus Duo)."""
    made_by_button = by_button(board)
    return tuple(board.move_text(move) for move in board.legal_moves
                 if made_by_button(move))
