"""ConHex's search policy: fill playouts, and moves looked at first by connection
distance.

The distance of a player is how many more gems they need, at the least, for a chain of
cells between their sides: a cell they own costs nothing, a cell the opponent owns is a
wall, any other costs the gems it still needs for them to claim it. The holes of the
cells on a shortest chain of the mover are where their chain is built, those on a
shortest chain of the opponent where it is cut; a hole scores by both, more for the
mover's own chain and for a cell one gem from claiming.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from engines.conhex import compiled
from engines.conhex.geometry import CELLS, HOLE_INDEX, NEIGHBOURS, PLAYER_SIDES, SIDES
from engines.core import other
from engines.paths import WALL, shortest_chains
from engines.search import Policy


def _costs(board, player: str) -> list[int]:
    counts, rival = board.cell_counts(player), other(player)
    return [0 if board.owner(c) == player else WALL if board.owner(c) == rival
            else CELLS[c].threshold - counts[c] for c in range(len(CELLS))]


def chain_cells(board, player: str) -> tuple[int, set[int]]:
    """``player``'s connection distance and the cells on their shortest chains that
    they do not own yet."""
    costs = _costs(board, player)
    start, end = PLAYER_SIDES[player]
    best, cells = shortest_chains(costs, SIDES[start], SIDES[end], NEIGHBOURS)
    return best, {cell for cell in cells if costs[cell]}


#: The strongest level's playouts a move in Python and through the compiled core, which
#: makes them some thirteen to nineteen times faster: in matches here (``bench.strength
#: conhex --pairs max:max=20 --weaker-in-python``, ``--seed 1`` and ``--seed 2``; loaded)
#: the 100000 won 31 of 40 games against the 10000 in less time a move, 2.23 s against
#: 3.47 s on average, then 1.64 against 2.58 (:mod:`.compiled`).
PYTHON_PLAYOUTS, COMPILED_PLAYOUTS = 10000, 100000


class _BudgetOfThePath:
    """The strongest level's budget on the path in use: more playouts in no more time
    where the compiled core runs, today's where the engine plays in Python. Read only
    (no ``__set__``), so that a budget set on the policy itself (a test's) is read first."""

    def __get__(self, policy, owner=None) -> int:
        return COMPILED_PLAYOUTS if compiled.enabled() else PYTHON_PLAYOUTS


class ConHexPolicy(Policy):
    max_playouts = _BudgetOfThePath()
    prior_weight = 1.0

    def priors(self, board, moves: Sequence[Hashable]) -> Sequence[float]:
        mover = board.turn
        _, own_chain = chain_cells(board, mover)
        _, rival_chain = chain_cells(board, other(mover))
        counts = board.cell_counts(mover)
        priors = []
        for move in moves:
            hole = HOLE_INDEX.get(move.name)
            if hole is None:  # the swap: no hole of its own
                priors.append(0.0)
                continue
            score = 0.0
            for cell in board.cells_of(hole):
                if cell in own_chain:
                    score += 0.5 if CELLS[cell].threshold - counts[cell] == 1 else 0.3
                if cell in rival_chain:
                    score += 0.2
            priors.append(min(score, 1.0))
        return priors

    def native_tree(self, board, rng):
        """The search's tree grown in C (:class:`.compiled.Tree`) when the core is in use
        and draws as Python would; the tree there knows this policy's priors and no
        widening, prior visits or minimax (a subclass that sets them searches in Python)."""
        if (not compiled.enabled() or not compiled.draws_alike(rng)
                or self.widening is not None or self.prior_visits or self.minimax_weight
                or type(self).priors is not ConHexPolicy.priors
                or type(self).value is not Policy.value):
            return None
        return compiled.Tree(board, self.exploration, self.prior_weight, rng)
