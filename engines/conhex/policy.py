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

import heapq
from collections.abc import Hashable, Sequence

from engines.conhex.geometry import CELLS, HOLE_INDEX, NEIGHBOURS, PLAYER_SIDES, SIDES
from engines.core import other
from engines.search import Policy

_WALL = 1 << 20


def _costs(board, player: str) -> list[int]:
    counts, rival = board.cell_counts(player), other(player)
    return [0 if board.owner(c) == player else _WALL if board.owner(c) == rival
            else CELLS[c].threshold - counts[c] for c in range(len(CELLS))]


def _distances(costs: list[int], side: str) -> list[int]:
    """Gems needed from ``side`` up to and including each cell (Dijkstra on cells)."""
    distance = [_WALL] * len(costs)
    queue = [(costs[c], c) for c in SIDES[side] if costs[c] < _WALL]
    for cost, cell in queue:
        distance[cell] = cost
    heapq.heapify(queue)
    while queue:
        reached, cell = heapq.heappop(queue)
        if reached > distance[cell]:
            continue
        for neighbour in NEIGHBOURS[cell]:
            through = reached + costs[neighbour]
            if through < distance[neighbour]:
                distance[neighbour] = through
                heapq.heappush(queue, (through, neighbour))
    return distance


def chain_cells(board, player: str) -> tuple[int, set[int]]:
    """``player``'s connection distance and the cells on their shortest chains."""
    costs = _costs(board, player)
    start, end = PLAYER_SIDES[player]
    from_start, from_end = _distances(costs, start), _distances(costs, end)
    through = [a + b - c for a, b, c in zip(from_start, from_end, costs)]
    best = min(through)
    if best >= _WALL:
        return best, set()
    return best, {c for c, total in enumerate(through) if total == best and costs[c]}


class ConHexPolicy(Policy):
    max_playouts = 10000
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
