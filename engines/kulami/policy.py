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
from engines.kulami import compiled
from engines.kulami.bits import geometry_of
from engines.search import Policy

#: Twice the largest panel's fields: the largest swing one marble can make.
_LARGEST_SWING = 12


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


#: The strongest level's playouts a move in Python and through the compiled core, which
#: makes them some ninety times faster: in matches here (``bench.strength kulami --pairs
#: max:max=20 --weaker-in-python``, then 10 more with ``--seed 2`` and 10 with ``--seed 3``;
#: loaded) the 400000 won 39 of 40 games against the 12000 at the same time a move, 2.38 s
#: against 2.42 s on average, then 1.91 against 1.90 and 1.12 against 1.14
#: (:mod:`.compiled`).
PYTHON_PLAYOUTS, COMPILED_PLAYOUTS = 12000, 400000


class _BudgetOfThePath:
    """The strongest level's budget on the path in use: more playouts in no more time
    where the compiled core runs, today's where the engine plays in Python. Read only
    (no ``__set__``), so that a budget set on the policy itself (a test's) is read first."""

    def __get__(self, policy, owner=None) -> int:
        return COMPILED_PLAYOUTS if compiled.enabled() else PYTHON_PLAYOUTS


class KulamiPolicy(Policy):
    max_playouts = _BudgetOfThePath()
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

    def native_tree(self, board, rng):
        """The search's tree grown in C (:class:`.compiled.Tree`) when the core is in use
        and draws as Python would; the tree there knows this policy's priors and no
        widening, prior visits or minimax (a subclass that sets them searches in Python)."""
        if (not compiled.enabled() or not compiled.draws_alike(rng) or self.widening
                is not None or self.prior_visits or self.minimax_weight
                or type(self).priors is not KulamiPolicy.priors
                or type(self).value is not Policy.value
                or board.turn != "bw"[len(board.move_stack) % 2]):
            return None
        return compiled.Tree(board, self.exploration, self.prior_weight, _LARGEST_SWING, rng)
