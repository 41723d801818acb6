"""The Kulami board: marbles on panel fields, each in the row or column of the last.

Options: ``layout`` (a name from layouts.txt, ``random:SEED``, ``random-free:SEED`` or
layout text), ``scoring`` (0 panels only, 1 adds the largest area, 2 adds chains) and
``chain_lines``: level 2 counts chains on every straight line by default (``all``: rows,
columns and diagonals, as the English rule sheet's "all same-coloured chains"), or on
the diagonals only (``diagonal``, as German reviews describe the game).
"""

from __future__ import annotations

import random
import re
from collections.abc import Hashable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from engines.core import PLAYERS, Axes, Board, Lights, Outcome, Place, ScorePart
from engines.errors import InvalidMoveError, PointError
from engines.bits import indices
from engines.kulami import compiled
from engines.kulami.bits import geometry_of
from engines.kulami.gtp import GTP_COMMANDS
from engines.kulami.layout import Layout, field_name, resolve
from engines.kulami.policy import KulamiPolicy
from engines.kulami.scoring import breakdown
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


#: Every field's move value, made once for all boards (a layout is at most 10x10).
_MOVES = {(x, y): KulamiMove(x, y) for x in range(10) for y in range(10)}


class KulamiBoard(Board):
    """A Kulami game. Built from checked values: :meth:`KulamiBoard.new` takes raw options.

    The position is kept twice: ``occupancy`` (field -> colour) for the layers above and
    the score sheet, and bit masks (:mod:`engines.kulami.bits`) for the rules, the score
    and :meth:`playout`. ``push`` and ``pop`` update both; the legal fields and the
    outcome are worked out once per position.
    """

    game = "kulami"
    OPTIONS = OPTIONS
    gtp_commands = GTP_COMMANDS
    #: How the shared search (engines/search.py) plays Kulami.
    search_policy = KulamiPolicy()
    pass_refused = ("kulami has no passing: the game ends when the player to move has no "
                    "legal field")

    def __init__(self, layout: Layout, scoring: int = 0, chain_lines: str = "all"):
        super().__init__()
        self.layout = layout
        self.scoring, self.chain_lines = scoring, chain_lines
        self.occupancy: dict[tuple[int, int], str] = {}
        self._panel_of = layout.panel_of
        self._geometry = geometry_of(layout)
        self._own = {"b": 0, "w": 0}
        #: The bits of the marbles placed, in order (``move_stack`` as bits).
        self._placed: list[int] = []
        #: The legal fields of this position as a mask, and the outcome, kept until the
        #: position changes (``_changes`` when they were worked out).
        self._legal_mask, self._legal_at = 0, -1
        self._outcome: Outcome | None = None
        self._outcome_at = -1

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

    # --- geometry -----------------------------------------------------------------------
    def place(self, name: str) -> Place:
        """A field of the 10x10 frame every layout fits in, ``a1`` at ``(0, 0)``: a
        board wired for the frame places every hole, whatever the layout."""
        try:
            move = KulamiMove.parse(name)
        except InvalidMoveError as error:
            raise PointError(str(error)) from None
        return Place(move.x, move.y)

    def axes(self) -> Axes:
        return Axes(MappingProxyType({x: field_name(x, 0)[0] for x in range(self.layout.width)}),
                    MappingProxyType({y: str(y + 1) for y in range(self.layout.height)}))

    # --- moves --------------------------------------------------------------------------
    def parse_notation(self, text: str) -> KulamiMove:
        move = KulamiMove.parse(text)
        if (move.x, move.y) not in self._panel_of:
            raise InvalidMoveError(f"{move} is not a field of this layout")
        return move

    def marbles(self, player: str) -> int:
        """The fields of ``player``'s marbles, as a mask (:mod:`engines.kulami.bits`)."""
        return self._own[player]

    def off_limits_panels(self) -> frozenset[str]:
        """The panels of the last two marbles, where the next marble may not go."""
        return frozenset(self._panel_of[(m.x, m.y)] for m in self.move_stack[-2:])

    def move_on(self, bit: int) -> KulamiMove:
        """The marble placed on the field at ``bit`` (:mod:`engines.kulami.bits`)."""
        return _MOVES[self._geometry.field_at[bit]]

    def core_position(self) -> tuple:
        """This position as the compiled core takes it (:func:`.compiled.position`)."""
        return compiled.position(self._geometry, self._own["b"], self._own["w"], self._placed)

    def _marbles_left(self, player: str) -> bool:
        """Whether ``player`` has a marble left to place (turns alternate in Kulami)."""
        placed = (len(self.move_stack) + (player == "b")) // 2
        return placed < MARBLES_EACH

    def _banned(self) -> int:
        """The fields of the last two marbles' panels."""
        panel = self._geometry.panel
        return panel[self._placed[-1]] | (panel[self._placed[-2]] if len(self._placed) > 1
                                          else 0)

    def legal_mask(self) -> int:
        """The fields the move rule leaves open, as a mask, whoever has marbles left:
        the row and column of the last marble, empty, off the last two panels."""
        if self._legal_at != self._changes:
            geometry = self._geometry
            free = geometry.fields & ~(self._own["b"] | self._own["w"])
            if self._placed:
                free &= geometry.line[self._placed[-1]] & ~self._banned()
            self._legal_mask, self._legal_at = free, self._changes
        return self._legal_mask

    def generate_legal_moves(self, player: str) -> Iterator[KulamiMove]:
        if not self._marbles_left(player):
            return iter(())
        field_at = self._geometry.field_at
        return (_MOVES[field_at[bit]] for bit in indices(self.legal_mask()))

    def is_legal(self, move: Hashable) -> bool:
        """The move rule itself: an empty field in the row or column of the last marble,
        not on the panel of either of the last two marbles, with a marble left to place."""
        if not isinstance(move, KulamiMove):
            return False
        bit = self._geometry.bit_at.get((move.x, move.y))
        return (bit is not None and bool(self.legal_mask() >> bit & 1)
                and self._marbles_left(self.turn))

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
        bit = self._geometry.bit_at[(move.x, move.y)]
        self.occupancy[(move.x, move.y)] = self.turn
        self._own[self.turn] |= 1 << bit
        self._placed.append(bit)

    def _undo(self, move: KulamiMove) -> None:
        del self.occupancy[(move.x, move.y)]
        self._own[self.turn] &= ~(1 << self._placed.pop())

    # --- the end ------------------------------------------------------------------------
    def scores(self) -> dict[str, int]:
        """The score of ``occupancy`` (read afresh: a score sheet may be set up by hand)."""
        bit_at, own = self._geometry.bit_at, {"b": 0, "w": 0}
        for field, player in self.occupancy.items():
            own[player] |= 1 << bit_at[field]
        points_b, points_w = self._geometry.score(own["b"], own["w"], self.scoring,
                                                  self.chain_lines)
        return {"b": points_b, "w": points_w}

    def score_parts(self) -> list[ScorePart]:
        """The panels won, then each bonus the scoring level adds (see ``breakdown``)."""
        return breakdown(self.layout, self.occupancy, self.scoring, self.chain_lines)

    def outcome(self) -> Outcome | None:
        if self._outcome_at != self._changes:
            self._outcome, self._outcome_at = self._ending(), self._changes
        return self._outcome

    def _ending(self) -> Outcome | None:
        if len(self.move_stack) >= 2 * MARBLES_EACH:
            reason = "all marbles placed"
        elif not self.legal_mask():  # the mover has marbles left: not all are placed
            reason = f"{self.turn} has no legal field"
        else:
            return None
        scores = self.scores()
        winner = None if scores["b"] == scores["w"] else max(PLAYERS, key=scores.get)
        return Outcome(winner, MappingProxyType(scores), reason)

    def playout(self, rng: random.Random, trace: list | None = None) -> str | None:
        """Play random legal fields from here to the end and say who wins (``None``: a
        draw), leaving the board as it is: the search's random playout.

        It works on copies of the masks and never makes a move value. With ``trace``, it
        appends ``(legal, bit)`` per marble: the legal fields as a mask and the bit chosen
        (:attr:`Geometry.field_at` names it), so tests can replay the game move for move.
        The compiled core plays the same game when it is in use (:mod:`.compiled`).
        """
        if compiled.enabled() and compiled.draws_alike(rng):
            return compiled.playout(self.core_position(), self.scoring, self.chain_lines,
                                    rng, trace)
        outcome = self.outcome()
        if outcome is not None:
            return outcome.winner
        geometry = self._geometry
        line, panel, random = geometry.line, geometry.panel, rng.random
        own = [self._own["b"], self._own["w"]]
        free = geometry.fields & ~(own[0] | own[1])
        ply = len(self._placed)
        last = self._placed[-1] if ply else -1
        banned = self._banned() if ply else 0
        last_panel = panel[last] if ply else 0
        while ply < 2 * MARBLES_EACH:
            legal = free & line[last] & ~banned if last >= 0 else free
            if not legal:
                break
            chosen, skip = legal, int(random() * legal.bit_count())
            while skip:
                chosen &= chosen - 1
                skip -= 1
            chosen &= -chosen
            if trace is not None:
                trace.append((legal, chosen.bit_length() - 1))
            free ^= chosen
            own[ply & 1] |= chosen
            ply += 1
            last = chosen.bit_length() - 1
            banned, last_panel = last_panel | panel[last], panel[last]
        points_b, points_w = geometry.score(own[0], own[1], self.scoring, self.chain_lines)
        return None if points_b == points_w else "b" if points_b > points_w else "w"

    # --- views --------------------------------------------------------------------------
    def sensor_view(self) -> dict[str, str]:
        return {field_name(*f): player for f, player in self.occupancy.items()}

    def panel_owners(self) -> dict[str, str]:
        owners = {}
        own_b, own_w = self._own["b"], self._own["w"]
        for panel, mask, _ in self._geometry.panels:
            on_b, on_w = (own_b & mask).bit_count(), (own_w & mask).bit_count()
            if on_b != on_w:
                owners[panel] = "b" if on_b > on_w else "w"
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
        clone = type(self)(self.layout, self.scoring, self.chain_lines)
        clone.occupancy = dict(self.occupancy)
        clone._own, clone._placed = dict(self._own), list(self._placed)
        self._copy_history(clone)
        return clone
