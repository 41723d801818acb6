"""What an Akron position implies, worked out from its masks of balls: the covered
balls, the playable points, the visible groups, the drop chain of a ball leaving and a
ball's destinations.

Plain functions of Python ints (a bit per point of :mod:`.geometry`), shared by the
board (:mod:`.board`) and the fast playout (:mod:`.playout`), so both follow one copy
of each rule.
"""

from __future__ import annotations

from engines.akron.geometry import (ABOVE, BELOW, HOLE_MASK, SIDES, TOUCHING_AT, UNDER,
                                    points_of, step_up)


def playable_points(occupied: int) -> int:
    """The empty holes, and the empty points above the board with all four points
    below them filled."""
    held_up = 0
    for point in points_of(occupied):
        held_up |= ABOVE[point]
    playable = HOLE_MASK & ~occupied
    for point in points_of(held_up & ~occupied):
        if BELOW[point] & occupied == BELOW[point]:
            playable |= 1 << point
    return playable


def covered_by(occupied: int) -> int:
    """The balls with a ball straight two levels above them."""
    covered = 0
    for point in points_of(occupied & ~HOLE_MASK):
        below = UNDER[point]
        if below >= 0:
            covered |= 1 << below
    return covered


def visible_neighbours(point: int, own: int, occupied: int, covered: int) -> int:
    """The own balls a visible ball at ``point`` touches visibly: beside it with the
    contact not bridged over by two balls, below it, above it; none covered."""
    found = (BELOW[point] | ABOVE[point]) & own
    for neighbour, bridges in SIDES[point]:
        if own >> neighbour & 1 and occupied & bridges != bridges:
            found |= 1 << neighbour
    return found & ~covered


def group_of(start: int, own: int, occupied: int, covered: int) -> int:
    """The visible group of the ball at ``start`` among the balls ``own``: the balls
    joined to it by visible contacts, itself included. ``occupied`` and ``covered`` say
    which contacts are cut and which balls are covered, so they may hold balls that
    ``own`` leaves out of every path (the balls dropping in a move)."""
    group, frontier = 1 << start, [start]
    while frontier:
        new = visible_neighbours(frontier.pop(), own, occupied, covered) & ~group
        group |= new
        frontier.extend(points_of(new))
    return group


def groups(own: int, occupied: int, covered: int) -> list[int]:
    """The visible groups of the balls ``own``: each a mask of balls joined by visible
    contacts. Covered balls are in none."""
    left = own & ~covered
    found = []
    while left:
        group = group_of((left & -left).bit_length() - 1, own, occupied, covered)
        found.append(group)
        left &= ~group
    return found


def drop_chain(point: int, occupied: int) -> list[int]:
    """The balls that drop when the ball at ``point`` leaves, lowest first: the one
    resting on it, the one resting on that one along the same diagonal, and so on. Only
    for a ball at most one ball rests on."""
    chain = []
    resting = ABOVE[point] & occupied
    below = point
    while resting:
        above = resting.bit_length() - 1
        chain.append(above)
        nxt = step_up(below, above)
        below, resting = above, (1 << nxt) & occupied if nxt >= 0 else 0
    return chain


def reach_of(group: int) -> tuple[int, int]:
    """The points some ball of ``group`` touches, and the points two or more of its
    balls touch: together they say what the group touches without any one ball."""
    once = twice = 0
    for point in points_of(group):
        touching = TOUCHING_AT[point]
        twice |= once & touching
        once |= touching
    return once, twice


def destinations(source: int, mine: int, occupied: int, mine_groups: list[int],
                 playable: int, reaches: dict[int, tuple[int, int]]) -> int:
    """The points the ball at ``source`` may move to, as a mask: playable points that
    touch a ball of its group and rest neither on its place nor on the place of a ball
    that drops. ``mine`` are the mover's balls, ``mine_groups`` their visible groups
    in this position; ``reaches`` keeps each group's :func:`reach_of` (fill it in,
    empty at first) for the next ball of the same position (the search asks this for every ball it may move).

    A drop never helps the move's connection: the mover's own balls that drop are no
    link of the group's paths, yet every dropping ball still stands where it was for
    covering and cutting, as on the board before the move. So the group differs from
    the position's only when one of the mover's balls drops, and only then is it worked
    out again (rarely)."""
    gone = barred = 0
    for point in drop_chain(source, occupied):
        gone |= 1 << point
        barred |= ABOVE[point]
    if gone & mine:
        once, twice = reach_of(group_of(source, mine & ~gone, occupied,
                                        covered_by(occupied)))
    else:
        group = next((candidate for candidate in mine_groups if candidate >> source & 1), 0)
        if group not in reaches:
            reaches[group] = reach_of(group)
        once, twice = reaches[group]
    # What the other balls of the group touch: all the group touches but the source's
    # own contacts, save those another ball shares.
    own = TOUCHING_AT[source]
    near = (once & ~own) | (twice & own)
    return near & playable & ~ABOVE[source] & ~barred


def move_ball(own: dict[str, int], player: str, source: int, target: int) -> None:
    """Move ``player``'s ball from ``source`` to ``target`` in ``own`` (player -> mask),
    the balls above ``source`` dropping one step each along their diagonal."""
    places = [source, *drop_chain(source, own["b"] | own["w"])]
    own[player] &= ~(1 << source)
    for lower, upper in zip(places, places[1:]):
        owner = "b" if own["b"] >> upper & 1 else "w"
        own[owner] = own[owner] & ~(1 << upper) | (1 << lower)
    own[player] |= 1 << target


__all__ = ["covered_by", "destinations", "drop_chain", "group_of", "groups", "move_ball",
           "playable_points", "reach_of", "visible_neighbours"]
