"""Blokus Duo's search policy: playouts that place the largest pieces first, and moves
looked at first by area and mobility.

Random placements waste the large pieces that only fit early, so a random playout says
little; the playout here places at random among the largest pieces that still fit
(``largest_first``), which is both stronger and faster. A move is looked at first by its
area (the piece's squares) and its mobility: the new corners it opens to its player,
where later pieces may attach. With hundreds of moves a position, the tree widens
progressively, in that order.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence

from engines.blokus_duo.pieces import corners
from engines.search import Policy, result_for_b

#: The most new corners one piece opens (the X, the W and the long pieces near eight).
_MOST_CORNERS = 8


class BlokusDuoPolicy(Policy):
    max_playouts = 800
    prior_weight = 1.0
    widening = 1.0

    def value(self, board, rng: random.Random) -> float:
        return result_for_b(board.playout(rng, largest_first=True))

    def priors(self, board, moves: Sequence[Hashable]) -> Sequence[float]:
        closed = board.closed_to(board.turn)
        return [0.7 * move.mask.bit_count() / 5
                + 0.3 * min(1.0, (corners(move.mask) & ~closed).bit_count() / _MOST_CORNERS)
                for move in moves]
