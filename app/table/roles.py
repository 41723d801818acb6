"""What each hole is for right now, as one role name: the bridge from game to light.

Roles are plain words (``legal``, ``off_limits``, ``owned_b``, ``owned_w``, ``last``,
``fill``, ``empty``, ``won_b``); the scene turns them into colours and the replay prints
them. A hole with several roles takes the most urgent: fixing the board comes first,
then a winning chain of pieces (Akron's), the last move, where to play, the areas.
"""

from __future__ import annotations

from app.sensing.events import OutOfSync
from engines.core import PLAYERS, Board

#: Most urgent first.
ROLES = ("fill", "empty", "won_b", "won_w", "last", "legal", "off_limits", "owned_b",
         "owned_w")


def hole_roles(board: Board, sync: OutOfSync | None = None) -> dict[str, str]:
    """Hole -> its most urgent role, from ``board.lights()`` and the sync state."""
    lights = board.lights()
    areas = board.areas
    candidates: dict[str, set[str]] = {
        "fill": set(sync.fill) if sync else set(),
        "empty": set(sync.empty) if sync else set(),
        "last": set(lights.last),
        "legal": set(lights.legal),
        "off_limits": {hole for area in lights.off_limits for hole in areas[area]},
    }
    winner = board.outcome().winner if lights.won else None
    for player in PLAYERS:
        candidates[f"won_{player}"] = set(lights.won) if player == winner else set()
        candidates[f"owned_{player}"] = {hole for area in lights.owned[player]
                                         for hole in areas[area]}
    roles: dict[str, str] = {}
    for role in reversed(ROLES):
        roles.update(dict.fromkeys(candidates[role], role))
    return roles


def by_role(roles: dict[str, str]) -> dict[str, list[str]]:
    """Role -> sorted holes, in :data:`ROLES` order, leaving out roles no hole has."""
    grouped = {role: sorted(h for h, r in roles.items() if r == role) for role in ROLES}
    return {role: holes for role, holes in grouped.items() if holes}
