"""Akron's search policy: positions valued, and moves looked at first, by connection
distance on the holes.

The distance of a player is how many more balls they need, at the least, in the holes
for a path of holes between their sides: a hole holding their ball costs nothing, an
empty hole one, a hole holding the opponent's ball is a wall. It reads only the board
level, where most of a game's chains run; what happens above it, the search sees
through the moves it tries.
The empty holes on a shortest path of the mover are where their chain is built, those
on a shortest path of the opponent where it is cut: a ball added or moved to such a
hole scores by both, more for the mover's own path. A ball moved out of a hole on its
own shortest path scores less, and a move onto the pile the least.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence

from engines.akron.board import Movement, Placement
from engines.akron.geometry import EDGES, LEVEL, PLAYER_SIDES, SIDE, points_of
from engines.core import other
from engines.paths import WALL, shortest_chains
from engines.search import Policy, result_for_b

#: Each hole's neighbours on the board level (beside it, two grid steps away).
_HOLE_NEIGHBOURS = tuple(
    tuple(y2 * SIDE + x2 for x2, y2 in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1))
          if 0 <= x2 < SIDE and 0 <= y2 < SIDE)
    for y in range(SIDE) for x in range(SIDE))


def shortest_path_holes(board, player: str) -> tuple[int, set[int]]:
    """``player``'s connection distance on the holes and the holes on their shortest
    paths (hole indices), their own balls' included."""
    seen = board.sensor_view()  # the balls in the holes
    costs = [0 if seen.get(name) == player else WALL if name in seen else 1
             for name in board.holes]
    start, end = (points_of(EDGES[side]) for side in PLAYER_SIDES[player])
    return shortest_chains(costs, start, end, _HOLE_NEIGHBOURS)


class AkronPolicy(Policy):
    """Random playouts judge Akron poorly (a random game's chains come and go with every
    move above the board), so a position is valued by the difference of the two
    players' connection distances instead, the player to move counted half a ball
    ahead: a logistic estimate of the first player's chances."""

    #: An evaluation and a step of the tree take about a third of a millisecond here:
    #: some 1.5 s a move.
    max_playouts = 4500
    prior_weight = 1.0
    #: How sharply a ball of distance turns into chances.
    steepness = 0.8

    def value(self, board, rng) -> float:
        outcome = board.outcome()
        if outcome is not None:
            return result_for_b(outcome.winner)
        ahead = shortest_path_holes(board, "w")[0] - shortest_path_holes(board, "b")[0]
        ahead += 0.5 if board.turn == "b" else -0.5
        return 1.0 / (1.0 + math.exp(-self.steepness * max(-40.0, min(40.0, ahead))))

    def priors(self, board, moves: Sequence[Hashable]) -> Sequence[float]:
        mover = board.turn
        _, own_path = shortest_path_holes(board, mover)
        _, rival_path = shortest_path_holes(board, other(mover))
        priors = []
        for move in moves:
            if isinstance(move, Placement):
                target, source = move.point, None
            elif isinstance(move, Movement):
                target, source = move.target, move.source
            else:  # the pass
                priors.append(0.0)
                continue
            if LEVEL[target]:
                priors.append(0.05)
                continue
            score = (0.6 if target in own_path else 0.0) + (0.4 if target in rival_path
                                                             else 0.0)
            if source is not None and source in own_path:
                score -= 0.3
            priors.append(min(max(score, 0.0), 1.0))
        return priors


__all__ = ["AkronPolicy", "shortest_path_holes"]
