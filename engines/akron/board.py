"""Akron: balls stacked on a square pyramid; join your two sides with a visible chain.

Rules as ``docs/rules.md`` states them, with these readings made explicit:

- A turn adds a ball from the supply (32 each) to an empty hole, or moves an own ball
  that at most one ball rests on (two or more pin it; a covered ball is always pinned)
  to a playable point: an empty hole, or an empty point with all four points below it
  filled, whatever their colours.
- The moving ball's group is the own balls visibly connected to it on the board before
  the move, through no ball that drops in this move: a dropping ball is no link of a
  path, yet it still covers and cuts as it stands before the move, so a drop never helps
  the connection. The ball itself is not in its group. The destination must touch a ball
  of the group, and must not rest on the ball's old place or on the old place of a ball
  that drops.
- When a ball leaves, the one ball resting on it drops into its place, and the ball
  resting on that one drops into the place it left, and so on up the diagonal: a chain
  of drops in a straight line (a ball with one ball on it can carry no other).
- Visible touching: balls beside each other on one level (two grid steps apart), and a
  ball with each of the four it rests on. A covered ball (one straight two levels above
  it) touches nothing; a contact beside is cut when both points bridging over it hold a
  ball, of any colour.
- The win is checked at the start of a turn: the player to move wins when a visible
  chain of their balls joins their two sides (``b`` south to north, ``w`` west to east;
  only holes on the edge row touch a side). A connection made and broken again within
  one turn never counts, and a move may hand the opponent the win.
- A player with no legal action passes (:data:`~engines.core.PASS`, legal only then);
  two passes in a row end the game in a draw.

State: one mask of points per player, the supplies and the count of passes in a row;
``push`` saves them as one tuple, so ``pop`` restores the position exactly. What a
position implies (covered balls, visible groups, the win) is worked out once per
position and kept until the next push or pop. The legal moves, the win and the playout
go through Akron's compiled core where it is built (:mod:`.compiled`: the same answers),
the code here and in :mod:`.rules` being its reference.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import Any

from engines.akron import compiled
from engines.akron.distance import Layout
from engines.akron.geometry import (ABOVE, AT, BELOW, COLUMNS, EDGES, GRID, HOLE_MASK,
                                    HOLES, HOLES_UNDER, INDEX, LEVEL, NAMES, OVER,
                                    PLAYER_SIDES, POINTS, parse_point, points_of)
from engines.akron.playout import LIMIT as PLAYOUT_LIMIT
from engines.akron.playout import play_out
from engines.akron.rules import (covered_by, destinations, drop_chain, groups, move_ball,
                                 playable_points, visible_neighbours)
from engines.core import PASS, Axes, Board, Lights, Outcome, Place, ScorePart, check_player
from engines.errors import EngineError, InvalidMoveError, PointError

#: Balls each player starts with.
SUPPLY = 32


@dataclass(frozen=True, slots=True)
class Placement:
    """A ball from the supply put into an empty hole: ``1c3``."""

    point: int

    def __str__(self) -> str:
        return NAMES[self.point]


@dataclass(frozen=True, slots=True)
class Movement:
    """A ball moved from one point to another: ``1c3-2d4``."""

    source: int
    target: int

    def __str__(self) -> str:
        return f"{NAMES[self.source]}-{NAMES[self.target]}"


#: Each point's place: the doubled grid's steps are half units.
_PLACES = tuple(Place(x / 2, y / 2, level + 1) for level, x, y in POINTS)
#: The holes' columns (a, c, ... o) and rows (1, 3, ... 15) by their places.
#: Each player's two sides as their holes in order along them: what the page draws.
_GOAL_EDGES = MappingProxyType({
    player: tuple(tuple(HOLES[p] for p in points_of(EDGES[side])) for side in sides)
    for player, sides in PLAYER_SIDES.items()})
_AXES = Axes(MappingProxyType({x / 2: COLUMNS[x] for x in range(0, GRID, 2)}),
             MappingProxyType({y / 2: str(y + 1) for y in range(0, GRID, 2)}))


class _Position:
    """What one position implies, worked out once and only when asked: the filled
    points, the covered balls, the playable points, each player's visible groups, and
    the position in the grid layout of :mod:`.distance` (where the win is one closure
    of bit shifts: the search asks for it at every node)."""

    def __init__(self, own: Mapping[str, int]) -> None:
        self._own = dict(own)  # the board changes its own dict in place
        self.occupied = own["b"] | own["w"]
        self._groups: dict[str, list[int]] = {}
        #: Each group's reach (:func:`.rules.reach_of`), as the balls' destinations
        #: are asked for.
        self.reaches: dict[str, dict[int, tuple[int, int]]] = {"b": {}, "w": {}}

    @cached_property
    def covered(self) -> int:
        return covered_by(self.occupied)

    @cached_property
    def playable(self) -> int:
        return playable_points(self.occupied)

    @cached_property
    def layout(self) -> Layout:
        return Layout(self._own["b"], self._own["w"])

    def groups(self, player: str) -> list[int]:
        """``player``'s visible groups, as masks."""
        if player not in self._groups:
            self._groups[player] = groups(self._own[player], self.occupied, self.covered)
        return self._groups[player]

    def group_of(self, player: str, point: int) -> int:
        for group in self.groups(player):
            if group >> point & 1:
                return group
        return 0


class AkronBoard(Board):
    """An Akron game on the 8x8 board. No options: the rule sheet leaves none open."""

    turn_can_be_handed = True

    game = "akron"
    won_on_points = False
    pass_refused = ("a player may pass only with no legal action: there is a ball to add "
                    "or to move")

    def __init__(self) -> None:
        super().__init__()
        self._own = {"b": 0, "w": 0}
        self._supply = {"b": SUPPLY, "w": SUPPLY}
        self._passes = 0
        self._history: list[tuple[int, int, int, int, int]] = []
        self._position: _Position | None = None
        self._position_at = -1
        self._winner_at = -1
        self._winner: str | None = None
        #: Set up ball by ball (:meth:`from_balls`) rather than played from the start.
        self.set_up = False

    @classmethod
    def from_balls(cls, balls: Mapping[str, str], turn: str = "b",
                   supply: Mapping[str, int] | None = None) -> "AkronBoard":
        """A position set up ball by ball (point name -> ``b``/``w``), for study and
        tests, as python-chess sets up a board from a piece map. Each player's supply is
        32 less their balls on the board unless given. A ball above the board must rest
        on four balls; :class:`~engines.errors.EngineError` says which does not. A set-up
        position has no moves to write as a record."""
        board = cls()
        for name, player in balls.items():
            point = INDEX.get(name.strip().lower())
            if point is None:
                raise EngineError(f"{name!r} is not a point of the pyramid")
            if player not in ("b", "w"):
                raise EngineError(f"{name}: a ball is b or w, not {player!r}")
            board._own[player] |= 1 << point
        occupied = board._own["b"] | board._own["w"]
        for point in points_of(occupied):
            if BELOW[point] & occupied != BELOW[point]:
                raise EngineError(f"{NAMES[point]} does not rest on four balls")
        for player in ("b", "w"):
            count = board._own[player].bit_count()
            left = SUPPLY - count if supply is None else supply[player]
            if not 0 <= left <= SUPPLY - count:
                raise EngineError(f"{player} has {count} balls on the board and "
                                  f"{left} in supply: 32 in all at most")
            board._supply[player] = left
        board._turn = check_player(turn)
        board.set_up = True
        return board

    # --- identity ---------------------------------------------------------------------
    @property
    def options(self) -> Mapping[str, Any]:
        return MappingProxyType({})

    @property
    def holes(self) -> tuple[str, ...]:
        return HOLES

    @property
    def points(self) -> tuple[str, ...]:
        """Every point of the pyramid, the holes first."""
        return NAMES

    def goal_edges(self) -> Mapping[str, tuple[tuple[str, ...], ...]]:
        """The two sides each player joins, as the holes along each (:data:`PLAYER_SIDES`)."""
        return _GOAL_EDGES

    def place(self, name: str) -> Place:
        """A point of the pyramid: ``1a1`` at ``(0, 0)`` on level 1, the holes a unit
        apart, ``2b2`` between the four holes under it at ``(0.5, 0.5)`` on level 2."""
        try:
            return _PLACES[parse_point(name)]
        except ValueError as error:
            raise PointError(str(error)) from None

    def axes(self) -> Axes:
        return _AXES

    def ball_at(self, name: str) -> str | None:
        """Whose ball is at the point named ``name``, if any."""
        point = INDEX[name]
        for player in ("b", "w"):
            if self._own[player] >> point & 1:
                return player
        return None

    def balls(self) -> dict[str, str]:
        """Every ball on the board: point name -> ``b`` or ``w``."""
        return {NAMES[point]: player for player in ("b", "w")
                for point in points_of(self._own[player])}

    piece_view = balls

    def masks(self) -> tuple[int, int]:
        """The balls of ``b`` and of ``w``, as masks of points (:mod:`.geometry`)."""
        return self._own["b"], self._own["w"]

    @property
    def passes(self) -> int:
        """The passes in a row that led here (two end the game)."""
        return self._passes

    def supply(self, player: str) -> int:
        """The balls ``player`` has left to add."""
        return self._supply[player]

    left_in_hand = supply

    @property
    def position(self) -> _Position:
        if self._position_at != self._changes:
            self._position, self._position_at = _Position(self._own), self._changes
        return self._position

    def covered(self) -> frozenset[str]:
        """The balls with a ball straight two levels above them: they touch nothing."""
        return frozenset(NAMES[p] for p in points_of(self.position.covered))

    def pinned(self) -> frozenset[str]:
        """The balls two or more balls rest on: they cannot move."""
        occupied = self.position.occupied
        return frozenset(NAMES[p] for p in points_of(occupied)
                         if (ABOVE[p] & occupied).bit_count() >= 2)

    def playable(self) -> frozenset[str]:
        """The empty points a ball may be put on now (holes and filled platforms)."""
        return frozenset(NAMES[p] for p in points_of(self.position.playable))

    def visible_group(self, name: str) -> frozenset[str]:
        """The balls visibly connected to the ball at ``name``, itself included (empty
        for a covered ball)."""
        point = INDEX[name]
        player = self.ball_at(name)
        if player is None:
            return frozenset()
        return frozenset(NAMES[p] for p in points_of(self.position.group_of(player, point)))

    def touching(self, a: str, b: str) -> bool:
        """Whether the balls at ``a`` and ``b`` touch visibly (own colour or not)."""
        pa, pb = INDEX[a], INDEX[b]
        occupied, covered = self.position.occupied, self.position.covered
        if not (occupied >> pa & 1 and occupied >> pb & 1) or covered >> pa & 1:
            return False
        return bool(visible_neighbours(pa, occupied, occupied, covered) >> pb & 1)

    # --- moves ------------------------------------------------------------------------
    def parse_notation(self, text: str) -> Placement | Movement:
        """A point (``1c3``: a ball added) or two joined by ``-`` (``1c3-2d4``: moved)."""
        parts = text.strip().split("-")
        if len(parts) > 2:
            raise InvalidMoveError(f"{text.strip()!r} is not a move: a move is a hole "
                                   f"(1c3) or a point to point (1c3-2d4)")
        try:
            points = [parse_point(part) for part in parts]
        except ValueError as error:
            raise InvalidMoveError(str(error)) from None
        if len(points) == 1:
            if LEVEL[points[0]]:
                raise InvalidMoveError(f"{NAMES[points[0]]} is above the board: a ball "
                                       f"from the supply goes into a hole (level 1)")
            return Placement(points[0])
        if points[0] == points[1]:
            raise InvalidMoveError(f"{text.strip()!r} moves a ball to where it is")
        return Movement(*points)

    def generate_legal_moves(self, player: str) -> Iterator[Placement | Movement]:
        """The placements (while the supply lasts), then each movable ball's moves."""
        if compiled.enabled():  # the same moves in the same order (compiled.py)
            yield from compiled.legal_moves(self._own["b"], self._own["w"],
                                            self._supply[player], player)
            return
        if self._supply[player]:
            for hole in points_of(HOLE_MASK & ~self.position.occupied):
                yield Placement(hole)
        for source in self._movable(player):
            for target in points_of(self._targets(player, source)):
                yield Movement(source, target)

    def _movable(self, player: str) -> list[int]:
        """The balls of ``player`` at most one ball rests on."""
        occupied = self.position.occupied
        return [p for p in points_of(self._own[player])
                if (ABOVE[p] & occupied).bit_count() <= 1]

    def _targets(self, player: str, source: int) -> int:
        """The points the ball at ``source`` may move to, as a mask."""
        position = self.position
        return destinations(source, self._own[player], position.occupied,
                            position.groups(player), position.playable,
                            position.reaches[player])

    def moves_from(self, hole: str) -> Iterator[Movement]:
        """The legal moves of the ball in ``hole`` (a point name: any level)."""
        point = INDEX.get(hole)
        player = self.turn
        if (point is None or self.is_game_over() or not self._own[player] >> point & 1
                or (ABOVE[point] & self.position.occupied).bit_count() > 1):
            return iter(())
        return iter([Movement(point, target)
                     for target in points_of(self._targets(player, point))])

    def is_legal(self, move: Hashable) -> bool:
        if self.is_game_over():
            return False
        player = self.turn
        if move == PASS:
            return self.may_pass(player)
        if isinstance(move, Placement):
            return (self._supply[player] > 0 and LEVEL[move.point] == 0
                    and not self.position.occupied >> move.point & 1)
        if isinstance(move, Movement):
            return (self._own[player] >> move.source & 1 == 1
                    and (ABOVE[move.source] & self.position.occupied).bit_count() <= 1
                    and self._targets(player, move.source) >> move.target & 1 == 1)
        return False

    def may_pass(self, player: str) -> bool:
        """Only a player with no legal action passes."""
        for _ in self.generate_legal_moves(player):
            return False
        return True

    def _why_illegal(self, move: Hashable) -> str:
        player = self.turn
        occupied = self.position.occupied
        if isinstance(move, Placement):
            if not self._supply[player]:
                return f"{player} has no balls left to add: move a ball instead"
            return f"{move} already holds a ball"
        if not isinstance(move, Movement):
            return f"{move!r} is not an Akron move"
        source, target = move.source, move.target
        owner = self.ball_at(NAMES[source])
        if owner is None:
            return f"there is no ball on {NAMES[source]}"
        if owner != player:
            return f"the ball on {NAMES[source]} is the other player's"
        if occupied & OVER[source]:
            return f"the ball on {NAMES[source]} is covered"
        if (ABOVE[source] & occupied).bit_count() > 1:
            return f"the ball on {NAMES[source]} is pinned: two or more balls rest on it"
        if occupied >> target & 1:
            return f"{NAMES[target]} already holds a ball"
        if not self.position.playable >> target & 1:
            return f"{NAMES[target]} is not playable: the four points below it must hold balls"
        if BELOW[target] & ((1 << source) | sum(1 << p for p in drop_chain(source, occupied))):
            return (f"{NAMES[target]} rests on {NAMES[source]}'s old place or on a ball that "
                    f"drops")
        return (f"{NAMES[target]} touches no ball visibly connected to {NAMES[source]} "
                f"(balls that drop do not count)")

    def moves_sensed_at(self, hole: str) -> Iterator[Placement | Movement]:
        """The moves a sensor under ``hole`` notices: a ball added there, a ball moved
        from or to it. Moves above the board change nothing a hole's sensor sees."""
        point = INDEX.get(hole)
        if point is None or LEVEL[point] or self.is_game_over():
            return iter(())
        player = self.turn
        found: list[Placement | Movement] = []
        if self._supply[player] and not self.position.occupied >> point & 1:
            found.append(Placement(point))
        for source in self._movable(player):
            targets = self._targets(player, source)
            if source == point:
                found.extend(Movement(source, t) for t in points_of(targets))
            elif targets >> point & 1:
                found.append(Movement(source, point))
        return iter(found)

    def drops(self, move: Hashable) -> list[tuple[str, str]]:
        """The balls ``move`` makes drop, as (from, to) point names, lowest first."""
        if not isinstance(move, Movement):
            return []
        chain = drop_chain(move.source, self.position.occupied)
        places = [move.source, *chain]
        return [(NAMES[places[i + 1]], NAMES[places[i]]) for i in range(len(chain))]

    def holes_of(self, move: Hashable) -> frozenset[str]:
        """The holes that show ``move``: under where the ball comes from and goes to,
        and under each place a drop fills."""
        if isinstance(move, Placement):
            return HOLES_UNDER[move.point]
        if isinstance(move, Movement):
            holes = HOLES_UNDER[move.source] | HOLES_UNDER[move.target]
            for point in drop_chain(move.source, self.position.occupied):
                holes |= HOLES_UNDER[point]
            return holes
        return frozenset()

    def _apply(self, move: Hashable) -> None:
        player = self.turn
        own = self._own
        self._history.append((own["b"], own["w"], self._supply["b"], self._supply["w"],
                              self._passes))
        if move == PASS:
            self._passes += 1
            return
        self._passes = 0
        if isinstance(move, Placement):
            own[player] |= 1 << move.point
            self._supply[player] -= 1
            return
        move_ball(own, player, move.source, move.target)

    def _undo(self, move: Hashable) -> None:
        b, w, supply_b, supply_w, self._passes = self._history.pop()
        self._own = {"b": b, "w": w}
        self._supply = {"b": supply_b, "w": supply_w}

    def playout(self, rng: random.Random, trace: list | None = None,
                limit: int = PLAYOUT_LIMIT) -> str | None:
        """Who wins (``None``: a draw) when the game is played out from here at random,
        at most ``limit`` actions, leaving the board as it is: the search's playout
        (:mod:`.playout`). With ``trace``, appends each action played."""
        if self.is_game_over():
            return self.outcome().winner
        if compiled.enabled() and compiled.draws_alike(rng):  # the same game (compiled.py)
            return compiled.play_out(self._own["b"], self._own["w"], self._supply,
                                     self.turn, self._passes, rng, limit, trace)
        return play_out(dict(self._own), dict(self._supply), self.turn, self._passes, rng,
                        limit, trace)

    # --- the end ----------------------------------------------------------------------
    def winner(self) -> str | None:
        """The player to move, when their visible chain joins their sides now."""
        if self._winner_at != self._changes:
            self._winner, self._winner_at = None, self._changes
            if compiled.enabled():  # the same answer (compiled.py)
                joins = compiled.joins(self._own["b"], self._own["w"], self.turn)
            else:
                joins = self.position.layout.joins(self.turn)
            if joins:
                self._winner = self.turn
        return self._winner

    def winning_chain(self, player: str) -> tuple[str, ...]:
        """The fewest balls of one of ``player``'s visible groups that join their two
        sides, from the first side to the second; empty when none joins them."""
        start, end = (EDGES[side] for side in PLAYER_SIDES[player])
        position = self.position
        for group in position.groups(player):
            if group & start and group & end:
                return tuple(NAMES[p] for p in self._shortest(player, group, start, end))
        return ()

    def _shortest(self, player: str, group: int, start: int, end: int) -> list[int]:
        position = self.position
        own, occupied, covered = self._own[player], position.occupied, position.covered
        came_from: dict[int, int] = {p: -1 for p in points_of(group & start)}
        frontier = list(came_from)
        while frontier:
            following = []
            for point in frontier:
                if end >> point & 1:
                    path = []
                    while point >= 0:
                        path.append(point)
                        point = came_from[point]
                    return path[::-1]
                for neighbour in points_of(visible_neighbours(point, own, occupied, covered)):
                    if neighbour not in came_from:
                        came_from[neighbour] = point
                        following.append(neighbour)
            frontier = following
        return []

    def outcome(self) -> Outcome | None:
        winner = self.winner()
        if winner is not None:
            start, end = PLAYER_SIDES[winner]
            return Outcome(winner, MappingProxyType(self.scores()),
                           f"{winner} joins {start} and {end} with a visible chain",
                           by_score=False)
        if self._passes >= 2:
            return Outcome(None, MappingProxyType(self.scores()),
                           "neither player could act: two passes in a row", by_score=False)
        return None

    def scores(self) -> dict[str, int]:
        """Balls on the board per player: the progress measure; the win is the chain."""
        return {player: self._own[player].bit_count() for player in ("b", "w")}

    def score_parts(self) -> list[ScorePart]:
        """The balls each player has on the board: all an Akron sheet counts, the chain
        aside."""
        return [ScorePart("balls", "Balls on the board", self.scores())]

    # --- views ------------------------------------------------------------------------
    def sensor_view(self) -> dict[str, str]:
        """The balls in the holes: the sensors see nothing above the board."""
        return {NAMES[p]: player for player in ("b", "w")
                for p in points_of(self._own[player] & HOLE_MASK)}

    def lights(self) -> Lights:
        """Holes the mover may add a ball to (or, with the supply used up, the holes
        under the points a ball may move to), the holes of the last move and its drops,
        and the winning chain's holes."""
        last: frozenset[str] = frozenset()
        if self.move_stack and self.move_stack[-1] != PASS:
            probe = self.copy()
            probe.pop()
            last = probe.holes_of(self.move_stack[-1])
        outcome = self.outcome()
        if outcome is not None:
            won = ()
            if outcome.winner is not None:
                won = {hole for point in self.winning_chain(outcome.winner)
                       for hole in HOLES_UNDER[INDEX[point]]}
            return Lights.build(None, last=last, won=won)
        player = self.turn
        if self._supply[player]:
            legal = [HOLES[p] for p in points_of(HOLE_MASK & ~self.position.occupied)]
        else:
            legal = {hole for move in self.generate_legal_moves(player)
                     for hole in HOLES_UNDER[move.target]}
        return Lights.build(player, legal=legal, last=last)

    def ascii(self) -> str:
        """The grid seen from above: each column's top ball as ``X`` (b) or ``O`` (w)
        with its level (1-8), ``.`` an empty hole; row 15 at the top."""
        top: dict[tuple[int, int], tuple[str, int]] = {}
        for player, mark in (("b", "X"), ("w", "O")):
            for point in points_of(self._own[player]):
                level, x, y = POINTS[point]
                if (x, y) not in top or top[(x, y)][1] < level:
                    top[(x, y)] = (mark, level)
        lines = []
        for y in range(GRID - 1, -1, -1):
            cells = []
            for x in range(GRID):
                if (x, y) in top:
                    mark, level = top[(x, y)]
                    cells.append(f"{mark}{level + 1}")
                elif (0, x, y) in AT:
                    cells.append(" .")
                else:
                    cells.append("  ")
            lines.append(f"{y + 1:>2} " + " ".join(cells).rstrip())
        lines.append("   " + " ".join(f" {c}" for c in COLUMNS))
        lines.append(f"supply: b {self._supply['b']}, w {self._supply['w']}")
        outcome = self.outcome()
        lines.append("game over" if outcome else f"to move: {self.turn}")
        return "\n".join(lines)

    # --- copying ----------------------------------------------------------------------
    def copy(self) -> "AkronBoard":
        clone = type(self)()
        self._copy_history(clone)
        clone._own, clone._supply = dict(self._own), dict(self._supply)
        clone._passes = self._passes
        clone._history = list(self._history)
        clone.set_up = self.set_up
        return clone


compiled.setup(Placement, Movement)

__all__ = ["AkronBoard", "Movement", "Placement", "SUPPLY"]
