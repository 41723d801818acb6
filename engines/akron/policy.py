"""Akron's search policy: positions valued, and moves looked at first, by connection
distance over the whole pyramid (:mod:`.distance`).

The distance of a player is how many more balls they need, at the least, for a visible
chain between their sides: their own visible balls cost nothing, a playable point one,
the opponent's balls and the points not yet playable are walls, and the contacts an
overpass cuts are no contacts. It sees the chains that run above the board (a level-2
ball bridging two holes diagonally apart) and the ones an overpass or a covering ball
breaks, which a distance on the holes alone misses once the holes fill up.

The points on a shortest path of the mover are where their chain is built, those on a
shortest path of the opponent where it is cut: a ball added or moved to such a point
scores by both, more for the mover's own path, whatever its level. A ball moved off its
own shortest path scores less; a move on neither path scores nothing, or a little for
a point above the board (it may cut or cover what the paths do not see).

Values are evaluations, not random games' results, so each node also keeps the minimax
of the values below it, and the selection mixes it in (``minimax_weight``): a reply
that refutes a move counts at once, rather than after the walks through that move's
other replies have been outweighed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Sequence

from engines.akron import compiled
from engines.akron.board import Movement, Placement
from engines.akron.distance import GRID_BIT, Layout
from engines.akron.geometry import LEVEL
from engines.core import other
from engines.search import Policy, result_for_b


def layout_of(board) -> Layout:
    """The board's position in the grid layout the distances work on (worked out once a
    position: the board's win check has usually asked for it already)."""
    return board.position.layout


def distances(board) -> tuple[int, int]:
    """The connection distances of ``b`` and ``w`` (:data:`.distance.WALL`: no path)."""
    if compiled.enabled():  # the same distances (compiled.py)
        return compiled.distances(*board.masks())
    layout = layout_of(board)
    return layout.distance("b"), layout.distance("w")


#: The strongest level's walks a move in Python (a walk costs about a quarter of a
#: millisecond here, most of it listing and ranking the moves of a node the search
#: enters again: about half a second a move) and through the compiled core, which
#: walks some twenty times faster: 32000 take it no longer (:mod:`.compiled`), and won
#: 38.5 of 40 games against the 2000 in Python (``bench.strength akron --pairs max:max
#: --weaker-in-python``: 0.92 s a move against 1.10 on a loaded machine).
PYTHON_PLAYOUTS, COMPILED_PLAYOUTS = 2000, 32000


class _BudgetOfThePath:
    """The strongest level's budget on the path in use: more walks in no more time where
    the compiled core runs, today's where the engine plays in Python. Read only (no
    ``__set__``), so that a budget set on the policy itself (a test's) is read first."""

    def __get__(self, policy, owner=None) -> int:
        return COMPILED_PLAYOUTS if compiled.enabled() else PYTHON_PLAYOUTS


class AkronPolicy(Policy):
    """Random playouts judge Akron poorly (a random game's chains come and go with every
    move above the board), so a position is valued by the difference of the two
    players' connection distances instead, the player to move counted half a ball
    ahead: a logistic estimate of the first player's chances."""

    max_playouts = _BudgetOfThePath()
    prior_weight = 1.0
    #: Progressive widening: once balls move above the board a position has hundreds of
    #: moves, most on neither player's shortest path; a node looks at those the priors
    #: rank best and takes in more as its visits grow, so the search reads deeper along
    #: the paths rather than one ply across every move.
    widening = 1.5
    #: A new child starts as if visited twice at a value that grows with its prior, so
    #: the search leaves the moves on the paths only on the evidence of its walks.
    prior_visits = 2.0
    #: The share of the minimax of the evaluations below a child in its selection value.
    minimax_weight = 0.7
    #: How sharply a ball of distance turns into chances: a ball ahead is worth 83%.
    steepness = 1.6
    #: A distance no path reaches counts as this many balls.
    no_path = 40

    def value(self, board, rng) -> float:
        outcome = board.outcome()
        if outcome is not None:
            return result_for_b(outcome.winner)
        b, w = distances(board)
        ahead = min(w, self.no_path) - min(b, self.no_path)
        ahead += 0.5 if board.turn == "b" else -0.5
        return 1.0 / (1.0 + math.exp(-self.steepness * ahead))

    def priors(self, board, moves: Sequence[Hashable]) -> Sequence[float]:
        mover = board.turn
        layout = layout_of(board)
        _, own_path = layout.shortest(mover)
        _, rival_path = layout.shortest(other(mover))
        priors = []
        for move in moves:
            if isinstance(move, Placement):
                target, source = move.point, None
            elif isinstance(move, Movement):
                target, source = move.target, move.source
            else:  # the pass
                priors.append(0.0)
                continue
            bit = GRID_BIT[target]
            score = (0.6 if own_path & bit else 0.0) + (0.4 if rival_path & bit else 0.0)
            if source is not None and own_path & GRID_BIT[source]:
                score -= 0.3
            priors.append(min(max(score, 0.05 if LEVEL[target] else 0.0), 1.0))
        return priors

    def native_tree(self, board, rng: random.Random):
        """The whole tree in the compiled core when it is in use (the same walks as the
        Python tree for the same seed): with the moves and the values in C, walking the
        tree in Python cost more than both. Not for a subclass that values or ranks
        otherwise."""
        if (compiled.enabled() and compiled.draws_alike(rng)
                and type(self).value is AkronPolicy.value
                and type(self).priors is AkronPolicy.priors
                and type(self).expansion is AkronPolicy.expansion):
            b, w = board.masks()
            return compiled.tree(b, w, {"b": board.supply("b"), "w": board.supply("w")},
                                 board.turn, board.passes,
                                 (self.exploration, self.prior_weight, self.widening,
                                  self.prior_visits, self.prior_value, self.minimax_weight,
                                  self.steepness, self.no_path), rng)
        return None

    def expansion(self, board, rng: random.Random) -> list[tuple[Hashable, float]]:
        """:meth:`Policy.expansion`, in the compiled core when it is in use: listing a
        new node's moves and ranking them by both shortest paths is most of a Python
        search's time (the same moves in the same order for the same seed)."""
        if compiled.enabled() and compiled.draws_alike(rng) and not board.is_game_over():
            b, w = board.masks()
            pairs = compiled.expansion(b, w, board.supply(board.turn), board.turn, rng)
            if pairs:  # else the pass alone, which draws nothing
                return pairs
        return super().expansion(board, rng)


__all__ = ["AkronPolicy", "distances", "layout_of"]
