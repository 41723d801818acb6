"""Akron played out at random to the end, fast: the search's playout.

A random playout here never lists every legal move. Each turn a ball is added from the
supply (while it lasts and a hole is empty) with the weight of the empty holes against
one for each ball of the mover that may move, about as often as a uniform choice among
every action would add one; otherwise a ball is picked at random and moved to one of
its destinations at random, the next ball tried when one has none. That is a random
policy, though not uniform over the moves (a ball counts once whatever its number of
destinations), and it costs one visible grouping per turn instead of one per ball. A
game that reaches ``limit`` actions, or two passes in a row, is a draw.

The state is the board's two masks and supplies, copied into locals; the win, the
groups, the drops and the destinations are the functions of :mod:`.rules` that the
board uses too, and the tests replay a ``trace`` through the public API move for move.
"""

from __future__ import annotations

import itertools
import random

from engines.akron.geometry import ABOVE, EDGES, HOLE_MASK, PLAYER_SIDES, points_of
from engines.akron.rules import (covered_by, destinations, groups, move_ball,
                                 playable_points)

#: Actions after which a playout stops as a draw (a random game may wander forever).
LIMIT = 300
_SIDES = {player: (EDGES[a], EDGES[b]) for player, (a, b) in PLAYER_SIDES.items()}


def play_out(own: dict[str, int], supply: dict[str, int], turn: str, passes: int,
             rng: random.Random, limit: int = LIMIT,
             trace: list | None = None) -> str | None:
    """The winner (``None`` for a draw) of the game played out from this state, which
    is changed in place. With ``trace``, appends each action as ``(source, target)``
    point indices (``source`` ``None`` for a ball from the supply, both ``None`` for a
    pass)."""
    choice, random_bits = rng.choice, rng.getrandbits
    for played in itertools.count():
        occupied = own["b"] | own["w"]
        covered = covered_by(occupied)
        mine = own[turn]
        start, end = _SIDES[turn]
        found = groups(mine, occupied, covered)
        if mine & start and mine & end:
            for group in found:
                if group & start and group & end:
                    return turn
        if passes >= 2 or played == limit:
            return None
        sources = [p for p in points_of(mine)
                   if (ABOVE[p] & occupied).bit_count() <= 1]
        empty_holes = HOLE_MASK & ~occupied
        action = None
        if supply[turn] and empty_holes:
            holes = points_of(empty_holes)
            # The supply weighs as much as its holes: a ball is added about as often
            # as a uniform choice among every action would add one.
            if random_bits(16) % (len(holes) + len(sources)) < len(holes):
                action = (None, choice(holes))
        playable, reaches = None, {}
        while sources and action is None:
            index = random_bits(16) % len(sources)
            source = sources[index]
            sources[index] = sources[-1]
            sources.pop()
            if playable is None:
                playable = playable_points(occupied)
            targets = destinations(source, mine, occupied, found, playable, reaches)
            if targets:
                action = (source, choice(points_of(targets)))
        if action is None and supply[turn] and empty_holes:
            action = (None, choice(points_of(empty_holes)))
        other = "w" if turn == "b" else "b"
        if action is None:
            passes += 1
            if trace is not None:
                trace.append((None, None))
            turn = other
            continue
        passes = 0
        source, target = action
        if source is None:
            own[turn] |= 1 << target
            supply[turn] -= 1
        else:
            move_ball(own, turn, source, target)
        if trace is not None:
            trace.append(action)
        turn = other


__all__ = ["LIMIT", "play_out"]
