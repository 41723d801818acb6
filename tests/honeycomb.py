"""Honeycomb: a fifth game that differs, kept whole in the tests, to show that a game
enters through its own door alone.

Its door is this module: the engine (a board following :mod:`engines.core`), its
registry entry (:data:`ENTRY`) and its drawer. It differs from the four shipped games
where they are alike: its board is hexagonal (a 3x3 rhombus of cells, as Hex is played,
six neighbours to a cell) and its notation is another (columns ``A``-``C`` in capitals,
rows ``1``-``3``: ``B2`` is the middle). The rules are Hex's: ``b`` joins rows 1 and 3,
``w`` joins columns A and C, a turn puts a stone in an empty cell, and the first chain
wins. Nothing of the product is edited for it: a test puts :data:`ENTRY` into the
registry for the length of the test.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterator, Mapping
from types import MappingProxyType
from typing import Any

import pygame

from app.games import GameInfo, Player
from app.screen.boards import RGB, BoardDrawer
from engines.core import Axes, Board, Lights, Outcome, Place, RecordFormat
from engines.errors import InvalidMoveError, PointError, RecordError

NAME = "honeycomb"
COLUMNS = "ABC"
ROWS = 3
#: Rows of a hexagonal board are this far apart, each shifted half a cell to the right.
ROW_STEP = math.sqrt(3) / 2
#: Every cell, row 1 first, left to right.
CELLS = tuple(f"{column}{row}" for row in range(1, ROWS + 1) for column in COLUMNS)


def _place(name: str) -> Place:
    column, row = COLUMNS.index(name[0]), int(name[1:]) - 1
    return Place(column + row / 2, row * ROW_STEP)


_PLACES = MappingProxyType({name: _place(name) for name in CELLS})
_AXES = Axes(MappingProxyType({float(x): letter for x, letter in enumerate(COLUMNS)}),
             MappingProxyType({row * ROW_STEP: str(row + 1) for row in range(ROWS)}))


class HoneycombBoard(Board):
    """A game of Honeycomb: stones by cell, the moves being the cells' names."""

    game = NAME
    won_on_points = False

    def __init__(self) -> None:
        super().__init__()
        self.stones: dict[str, str] = {}

    @property
    def options(self) -> Mapping[str, Any]:
        return MappingProxyType({})

    @property
    def holes(self) -> tuple[str, ...]:
        return CELLS

    # --- geometry ---------------------------------------------------------------------
    def place(self, name: str) -> Place:
        if name not in _PLACES:
            raise PointError(f"{name!r} is not a cell (a column A-C and a row 1-3, e.g. B2)")
        return _PLACES[name]

    def axes(self) -> Axes:
        return _AXES

    # --- moves ------------------------------------------------------------------------
    def parse_notation(self, text: str) -> str:
        name = text.strip()
        if name not in _PLACES:
            raise InvalidMoveError(f"{text!r} is not a cell (a column A-C and a row 1-3)")
        return name

    def generate_legal_moves(self, player: str) -> Iterator[Hashable]:
        return (cell for cell in CELLS if cell not in self.stones)

    def is_legal(self, move: Hashable) -> bool:
        return move in _PLACES and move not in self.stones and not self.is_game_over()

    def _apply(self, move: Hashable) -> None:
        self.stones[move] = self.turn

    def _undo(self, move: Hashable) -> None:
        del self.stones[move]

    # --- the end ----------------------------------------------------------------------
    def _joined(self, player: str) -> bool:
        """Whether ``player``'s stones join their two sides (``b`` rows 1 and 3, ``w``
        columns A and C), stepping through the board's own neighbours, six to a cell."""
        part, first, last = (1, "1", "3") if player == "b" else (0, "A", "C")
        reached = [c for c in CELLS if self.stones.get(c) == player and c[part] == first]
        seen = set(reached)
        while reached:
            cell = reached.pop()
            if cell[part] == last:
                return True
            for near in self.neighbours(cell):
                if near not in seen and self.stones.get(near) == player:
                    seen.add(near)
                    reached.append(near)
        return False

    def outcome(self) -> Outcome | None:
        for player in ("b", "w"):
            if self._joined(player):
                return Outcome(player, MappingProxyType(self.scores()),
                               f"{player} joins its sides", by_score=False)
        return None

    def scores(self) -> dict[str, int]:
        return {player: sum(1 for p in self.stones.values() if p == player)
                for player in ("b", "w")}

    # --- views ------------------------------------------------------------------------
    def sensor_view(self) -> dict[str, str]:
        return dict(self.stones)

    def lights(self) -> Lights:
        over = self.is_game_over()
        return Lights.build(None if over else self.turn,
                            legal=() if over else self.generate_legal_moves(self.turn),
                            last=[self.last_move] if self.move_stack else ())

    def ascii(self) -> str:
        lines = []
        for row in range(ROWS, 0, -1):
            marks = [self.stones.get(f"{c}{row}", ".") for c in COLUMNS]
            lines.append(" " * (row - 1) + f"{row} " + " ".join(marks))
        return "\n".join(lines + ["  " + " ".join(COLUMNS)])


def _write(board: HoneycombBoard, players=None, resigned=None) -> str:
    return ";".join(board.move_text(move) for move in board.move_stack)


def _read(text: str) -> HoneycombBoard:
    board = HoneycombBoard()
    for word in filter(None, text.strip().split(";")):
        try:
            board.push_text(word)
        except InvalidMoveError as error:
            raise RecordError(str(error)) from None
    return board


HoneycombBoard.record_format = RecordFormat(_write, _read)


class HoneycombDrawer(BoardDrawer):
    """The rhombus of cells as one wooden plate, from the board's places alone."""

    game = NAME

    def draw_base(self, surface: pygame.Surface, area_leds: Mapping[str, RGB]) -> None:
        corners = [self.centres[cell] for cell in ("A1", "C1", "C3", "A3")]
        pygame.draw.polygon(surface, (170, 124, 76), corners)


#: The game's registry entry: the one door from its name to its engine and drawer.
ENTRY = GameInfo(
    name=NAME, title="Honeycomb", board=f"{__name__}:HoneycombBoard",
    players=MappingProxyType({"b": Player("red", (200, 30, 30), (255, 0, 0)),
                              "w": Player("blue", (30, 70, 200), (0, 0, 255))}),
    score_label=lambda options: "stones", drawer=f"{__name__}:HoneycombDrawer",
    describe=lambda options: ["3x3 cells"],
    roles=("fault", "fill", "empty", "error", "suggestion", "candidate", "seen", "last",
           "legal"),
    goal="{b} joins rows 1 and 3, {w} columns A and C, with a chain of own stones",
    sides=MappingProxyType({"b": ("bottom", "top"), "w": ("left", "right")}),
    chain="stones")
