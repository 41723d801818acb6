"""What each light on the board means right now, in words: the legend that the status
screen draws and the web page shows.

One entry per role the board lights in this state, most urgent first, read from the
:class:`~app.table.status.Status` alone; the words come from :mod:`app.colours`, the one
colour language, and :mod:`app.table.texts`.
"""

from __future__ import annotations

from app.colours import ROLES, role_of
from app.games import game
from app.table import texts as words
from app.table.status import Status


def legend_roles(status: Status) -> list[str]:
    """The roles the board lights for ``status``, most urgent first (``seen`` lasts
    less than a settle time and is left out)."""
    if status.state == "setup":
        return ["setup"]
    shown: set[str] = set()
    if status.faults:
        shown.add("fault")
    if status.sync_fill or status.sync_empty or status.state == "sync":
        shown.update(role for role, holes in (("fill", status.sync_fill),
                                              ("empty", status.sync_empty)) if holes)
        return _ordered(shown)
    if status.message_kind == "error":
        shown.add("error")
    if status.pending or len(status.candidates) > 1 or status.hint is not None:
        shown.add("suggestion")
    if status.candidates:
        shown.add("candidate")
    playing = status.end is None
    if playing:
        shown.add("legal")
        if status.moves:
            shown.add("last")
            if "off_limits" in game(status.game).roles:
                shown.add("off_limits")
    for player in ("b", "w"):
        if status.scores.get(player):
            won = status.end is not None and status.end.winner == player
            role = f"{'won' if won else 'owned'}_{player}"
            if role in game(status.game).roles:  # a game with areas to own
                shown.add(role)
    return _ordered(shown)


def _ordered(roles: set[str]) -> list[str]:
    """In :data:`~app.colours.ROLES` order (``owned_b`` where ``owned`` is), then by name."""
    rank = {name: i for i, name in enumerate(ROLES)}
    return sorted(roles, key=lambda r: (rank[r if r in ROLES else r.rpartition("_")[0]], r))


def meaning(status: Status, role: str) -> str:
    """The legend's words for ``role`` in this state."""
    look, player = role_of(role)
    if role == "suggestion":
        if len(status.candidates) > 1:
            return "Move chosen"
        if status.pending:  # the seat to move chose it: the engine, or a player away
            return status.seats[status.turn].move_called(status.game, status.turn)
        if status.hint is not None:
            return words.hint_legend(status.hint_sureness)
    if role == "candidate" and len(status.candidates) > 1:
        return "Other possible move"
    if player is not None:
        return look.meaning.format(player=words.player(status.game, player))
    return look.meaning
