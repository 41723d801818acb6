"""A club's boards as its page shows them (``static/club.html`` and ``club.js``, which
draws a board with ``board.js``): the JSON of the list and of one board, made from what
a :class:`app.remote.club.Spectator` heard on the broker. Two servers serve the page
with these answers alike: ``tabletop watch`` (:mod:`app.cli.watch`, the standard
library's server) and a board's own page (:mod:`app.web.server`, aiohttp), so the club
looks the same from either.

The list's answer waits (up to :data:`WAIT_S`) for the next change when the page says
which revision it has, and the page then asks for the board it follows, so a move shows
within a round trip without polling. Everything shown came from the broker, that is
from anyone the broker lets publish on the club's topics: the page puts every name and
word in as text, never as markup.
"""

from __future__ import annotations

from typing import Any

from app.games import game as game_info
from app.web.snapshot import board_view, players

#: Longest a request for the list waits for a change, in seconds.
WAIT_S = 20.0
#: The club page's own files: (name in ``static/``, its type).
PAGE = ("club.html", "text/html")
SCRIPTS = {"club.js": "text/javascript", "board.js": "text/javascript",
           "style.css": "text/css"}


def since(text: str) -> int | None:
    """The revision a page says it has (``?since=N``), if it says one."""
    return int(text) if text.lstrip("-").isdigit() and len(text) < 20 else None


def listing(spectator: Any, revision: int, home: bool) -> dict[str, Any]:
    """The list's answer: the club, its broker and whether the watcher reaches it, the
    messages dropped, and every board's line (:func:`summary`); ``home``: the page is
    served by a board, whose own page it links back to."""
    broker = spectator.broker
    return {"revision": revision, "club": spectator.club, "home": home,
            "broker": broker.config.broker, "connected": broker.connected.is_set(),
            "failure": broker.failure,
            "dropped": {"malformed": spectator.malformed,
                        "oversized": spectator.oversized,
                        "crowded": spectator.crowded},
            "boards": [summary(b) for b in spectator.boards()]}


def summary(board: Any) -> dict[str, Any]:
    """One board (a :class:`~app.remote.club.LiveBoard`) as the list shows it."""
    record = board.record
    shown = {"id": board.id, "name": board.name, "online": board.online,
             "heard": board.heard, "revision": board.revision, "game": None}
    if record is None:
        return shown
    return {**shown, "game": record["game"], "title": game_info(record["game"]).title,
            "players": players(record["game"]),
            "seats": record["seats"],
            "moves": None if record["moves"] is None else len(record["moves"]),
            "turn": record["turn"], "state": record["state"], "scores": record["scores"],
            "message": record["message"], "end": record["end"], "at": record["at"]}


def detail(board: Any) -> dict[str, Any]:
    """One board as its page draws it: the list's line, the moves, and the position
    replayed by this machine's engine as the board's own page's JSON."""
    shown = summary(board)
    if board.record is None:
        return shown
    return {**shown, "move_list": board.record["moves"],
            "view": board_view(board.board) if board.board is not None else None}
