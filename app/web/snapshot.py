"""The table as the web page shows it: the session's view (:mod:`app.table.view`) as
plain JSON, made once a revision.

The view is the one the LEDs light and the status screen draws, so the page, the screen
and the board never disagree, and nothing here works out a game fact or reaches into the
session: it only spells the view in JSON. The page draws the board from it alone: every
place a piece can stand at (``x``, ``y`` in hole spacings and the level), the names of
the columns and rows, the areas as lists of holes (Kulami's panels, ConHex's cells),
each player's goal edges as lists of holes (Akron's sides), the pieces, each lit place's
role and colour (and whose move a move to place is), the legend, the moves made by button, the moves a player away may send, and the game in
words. A saved game's replay is one board a move (:func:`board_view`).

Nothing here imports pygame or the web server, so the snapshot is tested as data and
made on a Pi without a screen.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games import Player, game
from app.table.view import BoardView, View
from engines.core import Board, Place

RGB = tuple[int, int, int]


def hex_colour(colour: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def _place(place: Place) -> list[float]:
    return [place.x, place.y, place.level]


def board_json(board: BoardView) -> dict[str, Any]:
    """What a board looks like, apart from its lights."""
    return {
        "holes": {name: _place(place) for name, place in board.holes.items()},
        "places": {name: _place(place) for name, place in board.places.items()},
        "labels": {"columns": [[x, text] for x, text in board.columns],
                   "rows": [[y, text] for y, text in board.rows]},
        "areas": {name: list(holes) for name, holes in board.areas.items()},
        "goal_edges": {player: [list(edge) for edge in edges]
                       for player, edges in board.goal_edges.items()},
        "pieces": dict(board.pieces),
        "last": list(board.last),
        "shape": board.shape,
    }


def board_view(board: Board) -> dict[str, Any]:
    """``board`` as the page draws it: the page's replay of a saved game, one of these a
    move."""
    return board_json(BoardView.of(board))


def players_json(players: Mapping[str, Player]) -> dict[str, dict[str, str]]:
    return {colour: {"name": player.name, "title": player.title,
                     "colour": hex_colour(player.piece), "led": hex_colour(player.led)}
            for colour, player in players.items()}


def players(name: str) -> dict[str, dict[str, str]]:
    """The players of the game ``name``: the page's replay of a saved game."""
    return players_json(game(name).players)


def snapshot(view: View) -> dict[str, Any]:
    """Everything the page shows of the table at ``view``'s revision."""
    status, end = view.status, view.end
    turn = status.turn
    return {
        "revision": view.revision,
        "seats": {colour: seat.kind for colour, seat in status.seats.items()},
        # Who plays each colour in the page's words, and whether a browser may take it.
        "seating": {colour: {"who": seat.shown(status.level), "open": seat.page_may_take}
                    for colour, seat in status.seats.items()},
        "offer": status.offer,
        # The moves the player in a browser may make now (none while the table is to act).
        "legal": list(view.legal.get(turn, ())) if turn is not None else [],
        "legal_by_seat": {colour: list(moves) for colour, moves in view.legal.items()},
        "game": status.game,
        "title": view.title,
        "players": players_json(view.players),
        "board": board_json(view.board),
        "lights": {name: {"role": light.role, "colour": hex_colour(light.colour),
                          "blink": light.blink, "by": light.by}
                   for name, light in view.scene.lights.items()},
        "legend": [{"role": row.role, "colour": hex_colour(row.colour),
                    "meaning": row.meaning, "blink": row.blink, "player": row.player}
                   for row in view.legend],
        "offers": [{"move": offer.move, "words": offer.words} for offer in view.offers],
        "status": {
            "turn": turn,
            "state": status.state,
            "scores": dict(status.scores),
            "score_label": view.score_label,
            "in_hand": dict(status.in_hand) if status.in_hand is not None else None,
            "hand": view.hand,
            "moves": list(status.moves),
            "message": view.message,
            "message_kind": status.message_kind,
            "pending": status.pending,
            "hint": status.hint,
            "thinking": status.thinking,
            "options": view.described,
            "seats": view.seated,
            "result": None if end is None else {
                "winner": end.winner, "text": view.end_short, "record": end.record},
        },
        "end": None if end is None else {
            "termination": end.termination.value, "winner": end.winner,
            "short": view.end_short, "long": view.end_long, "record": end.record},
        "sheet": list(view.sheet),
    }
