"""Blokus Duo: 21 pieces each on a 14x14 board, every new piece touching an own piece
at a corner and never along an edge.

Rules as ``docs/rules.md`` states them, with these readings made explicit:

- The start (option ``start``). ``either``, the rule sheet's and the default: the first
  player covers either start point (``e10`` or ``j5``) with the first piece and the
  second player covers the other. ``fixed``, Pentobi's: the first player covers ``e10``
  and the second ``j5``. A game of the sheet whose first player took ``j5`` is a
  ``fixed`` game turned by 180 degrees; records are written that way (``record.py``).
- Passing is implicit, as in Pentobi: a player who cannot place any piece left is
  skipped, so the other may move several times in a row, and there is no pass move
  (:meth:`may_pass` is always false). The game ends when neither player can place.
- Score: minus one per square of the pieces left in hand; +15 for placing all 21, +5
  more if the last of them was the monomino (``1``).

State per player, kept as bit masks (``pieces.py``): the own squares, the forbidden
squares (every occupied square and every square along an edge of an own piece) and the
attachment points (own corner squares not forbidden, or the start points before the
first piece). A placement is legal when its piece is still in hand, it covers no
forbidden square and it covers an attachment point: two ``&`` on Python ints.
Legal moves grow from the attachment points only: the placements covering each point
(precomputed per square and piece), each reported once, at the lowest attachment point
it covers. ``push`` saves the whole state as one tuple, so ``pop`` restores it exactly.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterator, Mapping
from types import MappingProxyType
from typing import Any

from engines.blokus_duo import compiled
from engines.blokus_duo.gtp import GTP_COMMANDS
from engines.blokus_duo.playout import play_out
from engines.blokus_duo.policy import BlokusDuoPolicy
from engines.blokus_duo.pieces import (ALL_PIECES, BY_MASK, COLUMNS, COVERING, INDEX,
                                       NAMES, PIECE_INDEX, PIECES, SIDE, SQUARES, STRIDE,
                                       Placement, bit, corners, edges, names)
from engines.bits import indices
from engines.core import PLAYERS, Axes, Board, Lights, Outcome, Place, other
from engines.errors import InvalidMoveError, PointError
from engines.options import Option

START_RULES = ("either", "fixed")
START = Option("start", "either", str,
               "either: the first player covers either start point, the second the other "
               "(the rule sheet); fixed: the first covers e10, the second j5 (Pentobi)",
               choices=START_RULES)
#: The start points: ``e10`` is the first player's in Pentobi's fixed assignment.
FIRST_START, SECOND_START = "e10", "j5"
_FIRST, _SECOND = bit(FIRST_START), bit(SECOND_START)
_SIZE = tuple(piece.size for piece in PIECES)
_MONOMINO = PIECE_INDEX["1"]
ALL_PLACED_BONUS, MONOMINO_LAST_BONUS = 15, 5
#: Each piece in its first orientation, for a tray to draw (:meth:`Board.shapes`).
_SHAPES = MappingProxyType({piece.name: piece.orientations[0] for piece in PIECES})


#: The columns a-n and rows 1-14 by their places.
_AXES = Axes(MappingProxyType(dict(enumerate(COLUMNS))),
             MappingProxyType({y: str(y + 1) for y in range(SIDE)}))


class BlokusDuoBoard(Board):
    """A Blokus Duo game. Option: ``start`` (``either``, the default, or ``fixed``)."""

    turn_can_be_handed = True

    game = "blokus-duo"
    OPTIONS = (START,)
    #: Pentobi's ``set_game``, ``p`` and ``cputime`` (``gtp.py``).
    gtp_commands = GTP_COMMANDS
    #: Pentobi's engine fixes the start points; a script written for it expects that.
    gtp_options = MappingProxyType({"start": "fixed"})
    #: How the shared search (engines/search.py) plays Blokus Duo.
    search_policy = BlokusDuoPolicy()
    pass_refused = ("Blokus Duo has no pass move: a player who cannot place a piece is "
                    "skipped by itself")

    def __init__(self, start: str = "either") -> None:
        super().__init__()
        self._options = MappingProxyType({"start": START.accept(start)})
        both = _FIRST | _SECOND
        fixed = self._options["start"] == "fixed"
        self._occupied = 0
        self._own = {"b": 0, "w": 0}
        self._forbidden = {"b": 0, "w": 0}
        self._attach = {"b": _FIRST if fixed else both, "w": _SECOND if fixed else both}
        self._left = {"b": ALL_PIECES, "w": ALL_PIECES}
        #: The number of the last piece each player placed (for the monomino bonus).
        self._last = {"b": None, "w": None}
        self._over = False
        self._history: list[tuple] = []

    # --- identity ---------------------------------------------------------------------
    @property
    def options(self) -> Mapping[str, Any]:
        return self._options

    @property
    def holes(self) -> tuple[str, ...]:
        return SQUARES

    def place(self, name: str) -> Place:
        """A square, ``a1`` at ``(0, 0)``."""
        index = INDEX.get(name)
        if index is None:
            raise PointError(f"{name!r} is not a square (a column a-n and a row 1-14, "
                             f"e.g. e10)")
        row, column = divmod(index, STRIDE)
        return Place(column, row)

    def axes(self) -> Axes:
        return _AXES

    def owner(self, square: str) -> str | None:
        """Whose piece covers ``square``, if anyone's."""
        mask = bit(square)
        for player in ("b", "w"):
            if self._own[player] & mask:
                return player
        return None

    def pieces_left(self, player: str) -> tuple[str, ...]:
        """The names of the pieces ``player`` still has in hand, in the order of the set."""
        left = self._left[player]
        return tuple(piece.name for number, piece in enumerate(PIECES) if left >> number & 1)

    def left_in_hand(self, player: str) -> int:
        return self._left[player].bit_count()

    def shapes(self) -> Mapping[str, tuple[tuple[int, int], ...]]:
        return _SHAPES

    def piece_of(self, move: Placement) -> str:
        """The name of the piece ``move`` puts down (a name :meth:`shapes` gives), so a
        front end that lists the pieces left can group the legal moves by piece without
        reading the notation."""
        return move.piece

    def attachment_points(self, player: str) -> frozenset[str]:
        """The squares a new piece of ``player`` may attach at: own corners not forbidden,
        or the start points still open to the first piece."""
        return frozenset(names(self._attach[player]))

    def masks(self, player: str) -> tuple[int, int, int, int]:
        """``player``'s state as bit masks (``pieces.py``): own squares, forbidden squares,
        attachment points and pieces in hand (a bit per piece number); for the policy."""
        return (self._own[player], self._forbidden[player], self._attach[player],
                self._left[player])

    def last_placed(self, player: str) -> int | None:
        """The number of the piece ``player`` placed last (the monomino's bonus), if any."""
        return self._last[player]

    def placed(self, player: str) -> int:
        """How many pieces ``player`` has placed."""
        return len(PIECES) - self._left[player].bit_count()

    def recent_corners(self, player: str) -> int:
        """The attachment points that ``player``'s latest piece opened and that are still
        open to them, as a mask (0 when their latest piece is not among the last two
        moves): where they threaten to go next."""
        stack = self.move_stack
        for back in (1, 2):
            if len(stack) >= back and self.mover(-back) == player:
                return corners(stack[-back].mask) & self._attach[player]
        return 0

    @property
    def turned(self) -> bool:
        """Whether the first player took ``j5``: the game is then a Pentobi game (first
        player on ``e10``) turned by 180 degrees."""
        return bool(self.move_stack) and bool(self.move_stack[0].mask & _SECOND)

    # --- moves ------------------------------------------------------------------------
    def parse_notation(self, text: str) -> Placement:
        """Pentobi's move text: a piece's squares joined by commas, in any order."""
        mask = 0
        parts = text.strip().split(",")
        if len(parts) > 5:
            raise InvalidMoveError(f"{text.strip()!r} has {len(parts)} squares; a piece has "
                                   f"1 to 5")
        for part in parts:
            name = part.strip().lower()
            index = INDEX.get(name)
            if index is None:
                raise InvalidMoveError(
                    f"{part.strip()!r} is not a square: a square is a column a-n and a row "
                    f"1-14 (e10), and a move is its squares joined by commas "
                    f"(f9,e10,f10,g10,f11)")
            if mask >> index & 1:
                raise InvalidMoveError(f"{name} appears twice in {text.strip()!r}")
            mask |= 1 << index
        placement = BY_MASK.get(mask)
        if placement is None:
            raise InvalidMoveError(f"{','.join(names(mask))} is not the shape of any Blokus "
                                   f"piece")
        return placement

    def generate_legal_moves(self, player: str) -> Iterator[Placement]:
        """The placements covering the attachment points of ``player``, each once."""
        left = self._left[player]
        if not left:
            return
        forbidden, attach = self._forbidden[player], self._attach[player]
        if compiled.enabled():  # the same placements in the same order (compiled.py)
            yield from compiled.placements(left, forbidden, attach)
            return
        pieces = [number for number in range(len(PIECES)) if left >> number & 1]
        for index in indices(attach):
            below = attach & ((1 << index) - 1)
            by_piece = COVERING[index]
            for number in pieces:
                for mask, placement in by_piece[number]:
                    if not mask & forbidden and not mask & below:
                        yield placement

    def can_place(self, player: str) -> bool:
        """Whether ``player`` has any legal placement now."""
        if compiled.enabled():
            return compiled.can_place(self._left[player], self._forbidden[player],
                                      self._attach[player])
        for _ in self.generate_legal_moves(player):
            return True
        return False

    def _legal_for(self, player: str, move: Hashable) -> bool:
        return (isinstance(move, Placement) and BY_MASK.get(move.mask) == move
                and bool(self._left[player] >> PIECE_INDEX[move.piece] & 1)
                and not move.mask & self._forbidden[player]
                and bool(move.mask & self._attach[player]))

    def is_legal(self, move: Hashable) -> bool:
        return not self._over and self._legal_for(self.turn, move)

    def _why_illegal(self, move: Hashable) -> str:
        player = self.turn
        if not isinstance(move, Placement) or BY_MASK.get(move.mask) != move:
            return f"{move!r} is not a Blokus Duo placement"
        if not self._left[player] >> PIECE_INDEX[move.piece] & 1:
            return f"the {move.piece} piece of this colour is already on the board"
        # The move leads the reason when it has more than the one square the reason names.
        lead = f"{move}: " if move.mask & (move.mask - 1) else ""
        taken = move.mask & self._occupied
        if taken:
            return f"{lead}{', '.join(names(taken))} already covered"
        if not self._own[player]:
            starts = " or ".join(names(self._attach[player]))
            return f"{lead}the first piece of a colour must cover the start point {starts}"
        touching = move.mask & self._forbidden[player]
        if touching:
            return (f"{lead}{', '.join(names(touching))} touches a piece of its own colour "
                    f"along an edge")
        return f"{move} touches no corner of a piece of its own colour"

    def moves_sensed_at(self, hole: str) -> Iterator[Placement]:
        """The legal placements of the player to move that cover ``hole``."""
        index = INDEX.get(hole)
        if index is None or self._over:
            return iter(())
        player = self.turn
        left, forbidden, attach = (self._left[player], self._forbidden[player],
                                   self._attach[player])
        if (1 << index) & forbidden:
            return iter(())
        return iter([placement for number, pairs in enumerate(COVERING[index])
                     if left >> number & 1
                     for mask, placement in pairs
                     if not mask & forbidden and mask & attach])

    def _apply(self, move: Placement) -> None:
        player, rival = self.turn, other(self.turn)
        self._history.append((self._occupied, dict(self._own), dict(self._forbidden),
                              dict(self._attach), dict(self._left), dict(self._last),
                              self._over))
        mask, number = move.mask, PIECE_INDEX[move.piece]
        first = not self._own[player]
        self._occupied |= mask
        self._own[player] |= mask
        self._forbidden[player] |= mask | edges(mask)
        forbidden = self._forbidden[player]
        self._attach[player] = ((0 if first else self._attach[player]) | corners(mask)) \
            & ~forbidden
        self._forbidden[rival] |= mask
        # Before their first piece the rival's attachment points are the start points
        # still open: under ``either``, the one the first player did not cover.
        self._attach[rival] &= ~mask
        self._left[player] &= ~(1 << number)
        self._last[player] = number

    def _undo(self, move: Placement) -> None:
        (self._occupied, self._own, self._forbidden, self._attach, self._left, self._last,
         self._over) = self._history.pop()

    def _turn_after(self, move: Hashable) -> str:
        """The other player if they can place, else the mover again if they can; when
        neither can, the game is over."""
        mover, rival = self._turn, other(self._turn)
        if self.can_place(rival):
            return rival
        if self.can_place(mover):
            return mover
        self._over = True
        return rival

    def playout(self, rng: random.Random, trace: list | None = None,
                largest_first: bool = False, guided: bool = False) -> str | None:
        """Who wins (``None``: a draw) when the game is played out from here, each
        placement at random (among the largest pieces that fit, with ``largest_first``;
        weighted towards answering the opponent's latest piece and towards large
        pieces, with ``guided``),
        leaving the board as it is: the search's playout (:mod:`.playout`). With
        ``trace``, appends ``(player, mask)`` per placement (player 0 is ``b``)."""
        if self._over:
            outcome = self.outcome()
            return outcome.winner
        score_b, score_w = self.playout_scores(rng, trace, largest_first, guided)
        return "b" if score_b > score_w else "w" if score_w > score_b else None

    def playout_scores(self, rng: random.Random, trace: list | None = None,
                       largest_first: bool = False, guided: bool = False) -> tuple[int, int]:
        """The scores of ``b`` and ``w`` at the end of a playout from here (as
        :meth:`playout`), the board left as it is."""
        if self._over:
            scores = self.scores()
            return scores["b"], scores["w"]
        state = {"own": [self._own["b"], self._own["w"]],
                 "forbidden": [self._forbidden["b"], self._forbidden["w"]],
                 "attach": [self._attach["b"], self._attach["w"]],
                 "left": [self._left["b"], self._left["w"]],
                 "last": [self._last["b"], self._last["w"]],
                 "recent": [self.recent_corners("b"), self.recent_corners("w")]}
        return play_out(state, PLAYERS.index(self.turn), rng, largest_first, trace, guided)

    # --- the end ----------------------------------------------------------------------
    def is_game_over(self) -> bool:
        return self._over

    def scores(self) -> dict[str, int]:
        """The sheet's score: minus the squares left in hand, plus the bonuses."""
        out = {}
        for player in ("b", "w"):
            left = self._left[player]
            if left:
                out[player] = -sum(_SIZE[n] for n in range(len(PIECES)) if left >> n & 1)
            else:
                out[player] = ALL_PLACED_BONUS + (
                    MONOMINO_LAST_BONUS if self._last[player] == _MONOMINO else 0)
        return out

    def outcome(self) -> Outcome | None:
        if not self._over:
            return None
        scores = self.scores()
        margin = scores["b"] - scores["w"]
        winner = "b" if margin > 0 else "w" if margin < 0 else None
        return Outcome(winner, MappingProxyType(scores), "neither player can place a piece")

    # --- views ------------------------------------------------------------------------
    def sensor_view(self) -> dict[str, str]:
        return {NAMES[i]: player for player in ("b", "w")
                for i in indices(self._own[player])}

    def lights(self) -> Lights:
        """The mover's attachment points that some legal placement covers, and the squares
        of the last piece."""
        last = self.move_stack[-1].squares if self.move_stack else ()
        if self._over:
            return Lights.build(None, last=last)
        usable = 0
        for placement in self.generate_legal_moves(self.turn):
            usable |= placement.mask
        return Lights.build(self.turn, legal=names(usable & self._attach[self.turn]),
                            last=last)

    def ascii(self) -> str:
        """The board, row 14 at the top: ``X`` b, ``O`` w, ``+`` an open start point."""
        lines = []
        starts = _FIRST | _SECOND
        for y in range(SIDE - 1, -1, -1):
            marks = []
            for x in range(SIDE):
                mask = 1 << (y * STRIDE + x)
                marks.append("X" if self._own["b"] & mask else "O" if self._own["w"] & mask
                             else "+" if starts & mask else ".")
            lines.append(f"{y + 1:>2} " + " ".join(marks))
        lines.append("   " + " ".join(COLUMNS))
        for player in ("b", "w"):
            lines.append(f"{player} left: " + (" ".join(self.pieces_left(player)) or "-"))
        lines.append("game over" if self._over else f"to move: {self.turn}")
        return "\n".join(lines)

    # --- copying ----------------------------------------------------------------------
    def copy(self) -> "BlokusDuoBoard":
        clone = type(self)(**self._options)
        self._copy_history(clone)
        clone._occupied = self._occupied
        clone._own, clone._forbidden = dict(self._own), dict(self._forbidden)
        clone._attach, clone._left = dict(self._attach), dict(self._left)
        clone._last, clone._over = dict(self._last), self._over
        clone._history = list(self._history)
        return clone


__all__ = ["ALL_PLACED_BONUS", "BlokusDuoBoard", "FIRST_START", "MONOMINO_LAST_BONUS",
           "SECOND_START", "START", "START_RULES"]
