"""Kulami scoring: panel majorities, and the two advanced levels' bonuses.

Each function takes a layout and an occupancy (field -> player) so the sheet's figures
can be tested on any position, not only one reached by play.
"""

from __future__ import annotations

from collections.abc import Mapping

from engines.core import PLAYERS, ScorePart
from engines.kulami.layout import Layout

Field = tuple[int, int]
ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONALS = ((1, 1), (1, -1))
STRAIGHT = ((1, 0), (0, 1))
#: The directions level 2 counts chains on, by the ``chain_lines`` option: every straight
#: line (rows, columns and both diagonals: the English sheet's "all same-coloured
#: chains"), or the diagonals only.
CHAIN_LINES = {"all": STRAIGHT + DIAGONALS, "diagonal": DIAGONALS}
MIN_CHAIN = 5


def panel_owner(layout: Layout, occupancy: Mapping[Field, str], panel: str) -> str | None:
    """The colour with a strict majority of marbles on ``panel``, if any."""
    counts = {p: 0 for p in PLAYERS}
    for field in layout.panels[panel]:
        if field in occupancy:
            counts[occupancy[field]] += 1
    if counts["b"] == counts["w"]:
        return None
    return "b" if counts["b"] > counts["w"] else "w"


def panel_scores(layout: Layout, occupancy: Mapping[Field, str]) -> dict[str, int]:
    """Each panel scores its number of fields for its majority; a tie scores nothing."""
    scores = {p: 0 for p in PLAYERS}
    for panel, fields in layout.panels.items():
        owner = panel_owner(layout, occupancy, panel)
        if owner:
            scores[owner] += len(fields)
    return scores


def largest_area(occupancy: Mapping[Field, str], player: str) -> int:
    """Size of the largest orthogonally connected group of ``player``'s marbles."""
    own = {f for f, p in occupancy.items() if p == player}
    best, seen = 0, set()
    for start in own:
        if start in seen:
            continue
        seen.add(start)
        stack, size = [start], 0
        while stack:
            x, y = stack.pop()
            size += 1
            for dx, dy in ORTHOGONAL:
                nxt = (x + dx, y + dy)
                if nxt in own and nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        best = max(best, size)
    return best


def chains(occupancy: Mapping[Field, str], player: str,
           directions=CHAIN_LINES["all"]) -> list[int]:
    """Lengths of maximal lines of 5+ of ``player``'s marbles on consecutive fields, on
    every straight line unless ``directions`` says which."""
    own = {f for f, p in occupancy.items() if p == player}
    found = []
    for dx, dy in directions:
        for x, y in own:
            if (x - dx, y - dy) in own:
                continue  # not the start of a line
            length = 1
            while (x + length * dx, y + length * dy) in own:
                length += 1
            if length >= MIN_CHAIN:
                found.append(length)
    return sorted(found, reverse=True)


def surplus(value_b: int, value_w: int) -> dict[str, int]:
    """The larger value scores the difference; equal values score nothing."""
    return {"b": max(0, value_b - value_w), "w": max(0, value_w - value_b)}


def score(layout: Layout, occupancy: Mapping[Field, str], level: int = 0,
          chain_lines: str = "all") -> dict[str, int]:
    """Total score at scoring ``level`` 0 (panels), 1 (+ largest area) or 2 (+ chains)."""
    total = panel_scores(layout, occupancy)
    if level >= 1:
        bonus = surplus(largest_area(occupancy, "b"), largest_area(occupancy, "w"))
        total = {p: total[p] + bonus[p] for p in PLAYERS}
    if level >= 2:
        directions = CHAIN_LINES[chain_lines]
        bonus = surplus(sum(chains(occupancy, "b", directions)),
                        sum(chains(occupancy, "w", directions)))
        total = {p: total[p] + bonus[p] for p in PLAYERS}
    return total


#: How a score sheet heads each part: ``counted`` is the panels won, the largest area's
#: size, the length of chains of five or more; ``points`` the panels' fields, or a
#: bonus: the larger count's surplus.
LABELS = {"panels": "Panels", "area": "Largest area", "chains": f"Chains of {MIN_CHAIN}+"}


def breakdown(layout: Layout, occupancy: Mapping[Field, str], level: int = 0,
              chain_lines: str = "all") -> list[ScorePart]:
    """The score of :func:`score` in its parts, as a score sheet lists them: ``panels``,
    then ``area`` from level 1 and ``chains`` at level 2. The parts' points add up to
    :func:`score`'s totals."""
    won = {p: 0 for p in PLAYERS}
    for panel in layout.panels:
        owner = panel_owner(layout, occupancy, panel)
        if owner:
            won[owner] += 1
    parts = [ScorePart("panels", LABELS["panels"], won, panel_scores(layout, occupancy))]
    if level >= 1:
        area = {p: largest_area(occupancy, p) for p in PLAYERS}
        parts.append(ScorePart("area", LABELS["area"], area, surplus(area["b"], area["w"]),
                               bonus=True))
    if level >= 2:
        lengths = {p: sum(chains(occupancy, p, CHAIN_LINES[chain_lines])) for p in PLAYERS}
        parts.append(ScorePart("chains", LABELS["chains"], lengths,
                               surplus(lengths["b"], lengths["w"]), bonus=True))
    return parts
