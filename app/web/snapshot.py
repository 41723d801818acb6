"""The table as the web page shows it: one plain, JSON-ready snapshot after each change.

The table loop makes a snapshot whenever the session's ``revision`` moves, from the same
:class:`~app.table.status.Status` the status screen draws and the same scene the LEDs
light, so the page, the screen and the board never disagree. The page draws the board
from it alone: every place a piece can stand at, as the board places it (``x``, ``y`` in
hole spacings and the level, :meth:`~engines.core.Board.place`; a name the board does not
place is an error here, never a piece left off the page), the names of the columns and
rows, the areas as lists of holes (Kulami's panels, ConHex's cells), the pieces, each
lit place's role and colour, the legend, and the game in words.
How the pieces look is the registry's: shaped pieces (``tray``) are squares, stacking
pieces (``pile``) balls by level, any other a marble in its hole.

Nothing here imports pygame or the web server, so the snapshot is tested as data and
made on a Pi without a screen.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from app.games import game
from app.table import texts
from app.table.legend import legend_roles, meaning
from app.table.scene import last_move_holes, role_colour
from app.table.seats import Browser, words_of
from app.table.session import Session
from app.table.status import Status
from engines.core import Board

RGB = tuple[int, int, int]


def hex_colour(colour: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def places(board: Board, names: Iterable[str]) -> dict[str, list[float]]:
    """Each of ``names`` -> ``[x, y, level]``, where ``board`` places it."""
    return {name: [place.x, place.y, place.level]
            for name in names for place in (board.place(name),)}


def labels(board: Board) -> dict[str, list[list[float | str]]]:
    """The names of the board's columns by ``x`` and of its rows by ``y``."""
    axes = board.axes()
    return {"columns": [[x, text] for x, text in axes.columns.items()],
            "rows": [[y, text] for y, text in axes.rows.items()]}


def board_view(board: Board) -> dict[str, Any]:
    """What a board looks like, apart from its lights: the places, the areas and the
    pieces, and how the game's pieces are drawn. Also the page's replay of a saved game,
    one of these a move."""
    pieces = board.piece_view()
    info = game(board.game)
    return {
        "holes": places(board, board.holes),
        "places": places(board, pieces),  # pieces above the holes (a pile's) stand here too
        "labels": labels(board),
        "areas": {name: sorted(holes) for name, holes in board.areas.items()},
        "pieces": pieces,
        "last": sorted(last_move_holes(board)) if board.move_stack else [],
        "shape": "square" if info.tray else "ball" if info.pile else "marble",
    }


def players(name: str) -> dict[str, dict[str, str]]:
    return {wire: {"name": player.name, "title": player.title,
                   "colour": hex_colour(player.piece), "led": hex_colour(player.led)}
            for wire, player in game(name).players.items()}


def status_view(status: Status) -> dict[str, Any]:
    """The game in words, as the status screen shows it."""
    outcome = status.outcome
    return {
        "turn": status.turn,
        "state": status.state,
        "scores": dict(status.scores),
        "score_label": game(status.game).score_label(status.options),
        "in_hand": dict(status.in_hand) if status.in_hand is not None else None,
        "hand": game(status.game).hand,
        "moves": list(status.moves),
        "message": texts.sentence(status.message),
        "message_kind": status.message_kind,
        "pending": status.pending,
        "thinking": status.thinking,
        "options": texts.options(status.game, status.options),
        "seats": texts.seats(status.game, status.seats, status.level),
        "result": None if outcome is None else {
            "winner": outcome.winner, "text": texts.won_by(status.game, outcome),
            "record": outcome.result()},
    }


def snapshot(session: Session) -> dict[str, Any]:
    """Everything the page shows of ``session`` now."""
    board = session.board
    status = session.status()
    lights = {name: {"role": light.role, "colour": hex_colour(light.colour),
                     "blink": light.blink}
              for name, light in session.scene().lights.items()}
    legend = [{"role": role, "colour": hex_colour(role_colour(board.game, role)),
               "meaning": meaning(status, role)} for role in legend_roles(status)]
    to_move = status.turn
    remote_to_move = (to_move is not None and isinstance(session.seats[to_move], Browser)
                      and session.pending is None)
    return {
        "revision": session.revision,
        "seats": words_of(session.seats),
        "offer": session.offer,
        # The moves a player in a browser may make now (none while the table is to act).
        "legal": [board.move_text(m) for m in board.legal_moves] if remote_to_move else [],
        "game": board.game,
        "title": game(board.game).title,
        "players": players(board.game),
        "board": board_view(board),
        "lights": lights,
        "legend": legend,
        "status": status_view(status),
        "sheet": texts.score_sheet(board),
    }
