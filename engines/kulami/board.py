"""The Kulami board: marbles on panel fields, each in the row or column of the last.

Options: ``layout`` (a name from layouts.txt, ``random:SEED``, ``random-free:SEED`` or
layout text), ``scoring`` (0 panels only, 1 adds the largest area, 2 adds chains) and
``chain_lines``: level 2 counts chains on every straight line by default (``all``: rows,
columns and diagonals, as the English rule sheet's "all same-coloured chains"), or on
the diagonals only (``diagonal``, as German reviews describe the game).
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from engines.core import PLAYERS, Board, Lights, Outcome
from engines.errors import InvalidMoveError
from engines.kulami.gtp import GTP_COMMANDS
from engines.kulami.layout import Layout, field_name, resolve
from engines.kulami.scoring import panel_owner, score
from engines.options import Option

MARBLES_EACH = 28
_FIELD_TEXT = re.compile(r"([a-j])(10|[1-9])")

OPTIONS = (
    Option("layout", "square-1", str,
           "a name from layouts.txt, random:SEED, random-free:SEED or layout text"),
    Option("scoring", 0, int, "0 panels only, 1 adds the largest area, 2 adds chains",
           choices=(0, 1, 2)),
    Option("chain_lines", "all", str,
           "the lines level 2 counts chains on: all (rows, columns and diagonals), or "
           "diagonal", choices=("diagonal", "all")),
)


@dataclass(frozen=True, order=True)
class KulamiMove:
    """A marble placed on the field at column ``x``, row ``y`` (0-based, a1 = (0, 0))."""

    x: int
    y: int

    @classmethod
    def parse(cls, text: str) -> "KulamiMove":
        match = _FIELD_TEXT.fullmatch(text.strip().lower())
        if not match:
            raise InvalidMoveError(f"{text!r} is not a field (a column a-j and a row 1-10, "
                                   f"e.g. d4)")
        return cls(ord(match[1]) - ord("a"), int(match[2]) - 1)

    def __str__(self) -> str:
        return field_name(self.x, self.y)


class KulamiBoard(Board):
    """A Kulami game. Built from checked values: :meth:`KulamiBoard.new` takes raw options."""

    game = "kulami"
    OPTIONS = OPTIONS
    gtp_commands = GTP_COMMANDS
    pass_refused = ("kulami has no passing: the game ends when the player to move has no "
                    "legal field")

    def __init__(self, layout: Layout, scoring: int = 0, chain_lines: str = "all"):
        super().__init__()
        self.layout = layout
        self.scoring, self.chain_lines = scoring, chain_lines
        self.occupancy: dict[tuple[int, int], str] = {}
        self._panel_of = layout.panel_of
        #: One move value per field, made once rather than on every turn.
        self._move_at = {field: KulamiMove(*field) for field in layout.fields}
        #: Field -> the other fields of its row and column, each with its move.
        self._lines: dict[tuple[int, int], tuple[tuple[tuple[int, int], KulamiMove], ...]] = {
            (x, y): tuple((f, self._move_at[f]) for f in layout.fields
                          if (f[0] == x or f[1] == y) and f != (x, y))
            for x, y in layout.fields}
        #: The legal fields of this position (see :meth:`_legal_fields`): ``outcome()``
        #: needs them on every turn, and so do the players.
        self._legal: list[KulamiMove] | None = None

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> "KulamiBoard":
        return cls(resolve(options["layout"]), options["scoring"], options["chain_lines"])

    @property
    def options(self) -> Mapping[str, Any]:
        return {"layout": self.layout.text(), "scoring": self.scoring,
                "chain_lines": self.chain_lines}

    # --- identity -----------------------------------------------------------------------
    @property
    def holes(self) -> tuple[str, ...]:
        return tuple(field_name(*f) for f in self.layout.fields)

    @property
    def areas(self) -> Mapping[str, frozenset[str]]:
        return MappingProxyType({panel: frozenset(field_name(*f) for f in fields)
                                 for panel, fields in self.layout.panels.items()})

    # --- moves --------------------------------------------------------------------------
    def parse_notation(self, text: str) -> KulamiMove:
        move = KulamiMove.parse(text)
        if (move.x, move.y) not in self._panel_of:
            raise InvalidMoveError(f"{move} is not a field of this layout")
        return move

    def off_limits_panels(self) -> frozenset[str]:
        """The panels of the last two marbles, where the next marble may not go."""
        return frozenset(self._panel_of[(m.x, m.y)] for m in self.move_stack[-2:])

    def _marbles_left(self, player: str) -> bool:
        """Whether ``player`` has a marble left to place (turns alternate in Kulami)."""
        placed = (len(self.move_stack) + (player == "b")) // 2
        return placed < MARBLES_EACH

    def generate_legal_moves(self, player: str) -> Iterator[KulamiMove]:
        return iter(self._legal_fields() if self._marbles_left(player) else ())

    def _legal_fields(self) -> list[KulamiMove]:
        """The fields the move rule leaves open, whoever has marbles left: found on
        first ask and kept until the position changes."""
        if self._legal is not None:
            return self._legal
        if not self.move_stack:
            self._legal = list(self._move_at.values())
            return self._legal
        last = self.move_stack[-1]
        banned = self.off_limits_panels()
        occupied, panel_of = self.occupancy, self._panel_of
        self._legal = [move for field, move in self._lines[(last.x, last.y)]
                       if field not in occupied and panel_of[field] not in banned]
        return self._legal

    def is_legal(self, move: Hashable) -> bool:
        """The move rule itself: an empty field in the row or column of the last marble,
        not on the panel of either of the last two marbles, with a marble left to place."""
        if not isinstance(move, KulamiMove):
            return False
        field = (move.x, move.y)
        if field not in self._panel_of or field in self.occupancy:
            return False
        if not self._marbles_left(self.turn):
            return False
        last = self.last_move
        if last is None:
            return True
        return ((move.x == last.x or move.y == last.y)
                and self._panel_of[field] not in self.off_limits_panels())

    def _why_illegal(self, move: Hashable) -> str:
        if not isinstance(move, KulamiMove):
            return f"{move!r} is not a Kulami move"
        field = (move.x, move.y)
        if field not in self._panel_of:
            return f"{move} is not a field of this layout"
        if field in self.occupancy:
            return f"{move} is already taken"
        last = self.last_move
        if last is not None and move.x != last.x and move.y != last.y:
            return f"{move} is not in the row or column of the last marble {last}"
        if self._panel_of[field] in self.off_limits_panels():
            return f"{move} is on an off-limits panel (the panel of one of the last two marbles)"
        return f"{move} is not a legal move"

    def moves_sensed_at(self, hole: str) -> Iterator[KulamiMove]:
        """A marble is sensed where it is placed: the placement on ``hole``, if legal."""
        try:
            move = self.parse_notation(hole)
        except InvalidMoveError:
            return iter(())
        return iter((move,) if self.is_legal(move) else ())

    def _apply(self, move: KulamiMove) -> None:
        self.occupancy[(move.x, move.y)] = self.turn
        self._legal = None

    def _undo(self, move: KulamiMove) -> None:
        del self.occupancy[(move.x, move.y)]
        self._legal = None

    # --- the end ------------------------------------------------------------------------
    def scores(self) -> dict[str, int]:
        return score(self.layout, self.occupancy, self.scoring, self.chain_lines)

    def outcome(self) -> Outcome | None:
        if len(self.move_stack) >= 2 * MARBLES_EACH:
            reason = "all marbles placed"
        elif not self._legal_fields():  # the mover has marbles left: not all are placed
            reason = f"{self.turn} has no legal field"
        else:
            return None
        scores = self.scores()
        winner = None if scores["b"] == scores["w"] else max(PLAYERS, key=scores.get)
        return Outcome(winner, MappingProxyType(scores), reason)

    # --- views --------------------------------------------------------------------------
    def sensor_view(self) -> dict[str, str]:
        return {field_name(*f): player for f, player in self.occupancy.items()}

    def panel_owners(self) -> dict[str, str]:
        owners = {}
        for panel in self.layout.panels:
            owner = panel_owner(self.layout, self.occupancy, panel)
            if owner:
                owners[panel] = owner
        return owners

    def lights(self) -> Lights:
        over = self.outcome() is not None
        owned = {p: [panel for panel, o in self.panel_owners().items() if o == p]
                 for p in PLAYERS}
        return Lights.build(
            mover=None if over else self.turn,
            legal=() if over else (str(m) for m in self.legal_moves),
            off_limits=() if over else self.off_limits_panels(),
            owned=owned,
            last=(str(self.last_move),) if self.move_stack else ())

    def ascii(self) -> str:
        marks = {"b": "X", "w": "O"}
        lines = []
        for y in reversed(range(self.layout.height)):
            cells = []
            for x in range(self.layout.width):
                field = (x, y)
                if field not in self._panel_of:
                    cells.append(" ")
                else:
                    cells.append(marks.get(self.occupancy.get(field), "."))
            lines.append(f"{y + 1:>2} " + " ".join(cells))
        lines.append("   " + " ".join("abcdefghij"[: self.layout.width]))
        return "\n".join(lines)

    def copy(self) -> "KulamiBoard":
        clone = KulamiBoard(self.layout, self.scoring, self.chain_lines)
        clone.occupancy = dict(self.occupancy)
        self._copy_history(clone)
        return clone
