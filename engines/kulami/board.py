"""The Kulami board: marbles on panel fields, each in the row or column of the last.

Options: ``layout`` (a name from layouts.txt, ``random:SEED``, ``random-free:SEED`` or
layout text), ``scoring`` (0 panels only, 1 adds the largest area, 2 adds chains) and
``chain_lines`` (``diagonal`` as the publisher's German rules, or ``all`` to count rows
and columns too).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from engines.kulami import record
from engines.core import (PLAYERS, Board, InvalidMoveError, Lights, OptionError, Outcome,
                          RecordError)
from engines.kulami.layout import Layout, field_name, resolve
from engines.kulami.scoring import panel_owner, score

MARBLES_EACH = 28
_FIELD_TEXT = re.compile(r"([a-j])(10|[1-9])")


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
    game = "kulami"
    default_options = MappingProxyType({"layout": "square-1", "scoring": 0,
                                        "chain_lines": "diagonal"})
    gtp_extensions = MappingProxyType({"layout": "gtp_layout"})

    def __init__(self, layout: Layout, scoring: int = 0, chain_lines: str = "diagonal"):
        super().__init__()
        if scoring not in (0, 1, 2):
            raise OptionError(f"scoring must be 0, 1 or 2, not {scoring!r}")
        if chain_lines not in ("diagonal", "all"):
            raise OptionError(f"chain_lines must be diagonal or all, not {chain_lines!r}")
        self.layout = layout
        self.scoring, self.chain_lines = scoring, chain_lines
        self.occupancy: dict[tuple[int, int], str] = {}
        panel_of = layout.panel_of
        self._panel_of = panel_of
        self._lines: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {
            (x, y): tuple(f for f in layout.fields if (f[0] == x or f[1] == y) and f != (x, y))
            for x, y in layout.fields}
        self._legal: list[KulamiMove] | None = None

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> "KulamiBoard":
        layout = options["layout"]
        if not isinstance(layout, Layout):
            layout = resolve(str(layout))
        return cls(layout, int(options["scoring"]), str(options["chain_lines"]))

    @property
    def options(self) -> Mapping[str, Any]:
        return {"layout": self.layout.text(), "scoring": self.scoring,
                "chain_lines": self.chain_lines}

    # --- identity -----------------------------------------------------------------------
    @property
    def turn(self) -> str:
        return PLAYERS[len(self.move_stack) % 2]

    @property
    def holes(self) -> tuple[str, ...]:
        return tuple(field_name(*f) for f in self.layout.fields)

    @property
    def areas(self) -> Mapping[str, frozenset[str]]:
        return MappingProxyType({panel: frozenset(field_name(*f) for f in fields)
                                 for panel, fields in self.layout.panels.items()})

    # --- moves --------------------------------------------------------------------------
    def parse_move(self, text: str) -> KulamiMove:
        move = KulamiMove.parse(text)
        if (move.x, move.y) not in self._panel_of:
            raise InvalidMoveError(f"{move} is not a field of this layout")
        return move

    def off_limits_panels(self) -> frozenset[str]:
        """The panels of the last two marbles, where the next marble may not go."""
        return frozenset(self._panel_of[(m.x, m.y)] for m in self.move_stack[-2:])

    def legal_moves_for(self, player: str) -> list[KulamiMove]:
        placed = (len(self.move_stack) + (player == "b")) // 2
        if placed >= MARBLES_EACH:
            return []
        if self._legal is None:
            self._legal = self._generate()
        return list(self._legal)

    def _generate(self) -> list[KulamiMove]:
        if not self.move_stack:
            return [KulamiMove(x, y) for x, y in self.layout.fields]
        last = self.move_stack[-1]
        banned = self.off_limits_panels()
        occupied, panel_of = self.occupancy, self._panel_of
        return [KulamiMove(*f) for f in self._lines[(last.x, last.y)]
                if f not in occupied and panel_of[f] not in banned]

    def illegal_reason(self, move: KulamiMove) -> str:
        if self.outcome() is not None:
            return "the game is over"
        field = (move.x, move.y)
        if field in self.occupancy:
            return f"{move} is already taken"
        last = self.last_move
        if last is not None and move.x != last.x and move.y != last.y:
            return f"{move} is not in the row or column of the last marble {last}"
        if self._panel_of[field] in self.off_limits_panels():
            return f"{move} is on an off-limits panel (the panel of one of the last two marbles)"
        return f"{move} is not a legal move"

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
        elif not self.legal_moves_for(self.turn):
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
        clone.move_stack = list(self.move_stack)
        return clone

    # --- GTP and records ----------------------------------------------------------------
    def gtp_layout(self, args: list[str]) -> tuple["KulamiBoard | None", str]:
        """``layout`` shows the layout; ``layout SPEC`` starts a new game on SPEC."""
        if not args:
            return None, self.layout.text()
        layout = resolve(" ".join(args))
        return KulamiBoard(layout, self.scoring, self.chain_lines), ""

    def to_record(self) -> str:
        outcome = self.outcome()
        return record.write(self.options, [str(m) for m in self.move_stack],
                            outcome.result() if outcome else None)

    @classmethod
    def from_record(cls, text: str) -> "KulamiBoard":
        options, moves = record.read(text)
        try:
            board = cls.from_options(options)
        except OptionError as error:
            raise RecordError(f"record options: {error}") from None
        record.replay(board, moves)
        return board
