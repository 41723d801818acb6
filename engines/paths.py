"""Shortest paths across a board for connection games' search policies.

A connection game's distance is how many more pieces a player needs, at the least, for
a chain between their two sides: each node of the board graph (a ConHex cell, an Akron
hole) costs what it still needs, nothing once the player holds it, and is a wall
(:data:`WALL`) once the opponent does. Dijkstra from each side gives every node's
distance from it; a node lies on a shortest chain when the two add up, less its own
cost counted twice, to the least total.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence

#: The cost of a node no chain can pass: more than any board's whole path.
WALL = 1 << 20


def distances(costs: Sequence[int], starts: Iterable[int],
              neighbours: Sequence[Sequence[int]]) -> list[int]:
    """The least cost from a node of ``starts`` up to and including each node."""
    distance = [WALL] * len(costs)
    queue = [(costs[node], node) for node in starts if costs[node] < WALL]
    for cost, node in queue:
        distance[node] = cost
    heapq.heapify(queue)
    while queue:
        reached, node = heapq.heappop(queue)
        if reached > distance[node]:
            continue
        for neighbour in neighbours[node]:
            through = reached + costs[neighbour]
            if through < distance[neighbour]:
                distance[neighbour] = through
                heapq.heappush(queue, (through, neighbour))
    return distance


def shortest_chains(costs: Sequence[int], start: Iterable[int], end: Iterable[int],
                    neighbours: Sequence[Sequence[int]]) -> tuple[int, set[int]]:
    """The least cost of a chain from ``start`` to ``end``, and every node on such a
    chain; ``WALL`` or more and no node when the opponent's walls cut every chain."""
    from_start = distances(costs, start, neighbours)
    from_end = distances(costs, end, neighbours)
    through = [a + b - c for a, b, c in zip(from_start, from_end, costs)]
    best = min(through)
    if best >= WALL:
        return best, set()
    return best, {node for node, total in enumerate(through) if total == best}


__all__ = ["WALL", "distances", "shortest_chains"]
