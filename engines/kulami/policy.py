"""Kulami's search policy: random playouts, and moves looked at first by what they do to
the panel majorities.

A random playout already ends in the true score, so it stays; what random play misses
is which fields matter now. A marble matters by the majority it changes on its panel: a
panel the opponent holds turned into a tie, a tie turned into the mover's, each worth
the panel's fields. That swing, from 0 to twice the largest panel, is the prior.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from engines.core import other
from engines.kulami.bits import geometry_of
from engines.search import Policy

#: Twice the largest panel's fields: the largest swing one marble can make.
_LARGEST_SWING = 12


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


class KulamiPolicy(Policy):
    max_playouts = 12000
    prior_weight = 1.0

    def priors(self, board, moves: Sequence[Hashable]) -> Sequence[float]:
        geometry = geometry_of(board.layout)
        own, rival = board.marbles(board.turn), board.marbles(other(board.turn))
        priors = []
        for move in moves:
            panel = geometry.panel[geometry.bit_at[(move.x, move.y)]]
            size = panel.bit_count()
            lead = (own & panel).bit_count() - (rival & panel).bit_count()
            priors.append((_sign(lead + 1) - _sign(lead)) * size / _LARGEST_SWING)
        return priors
