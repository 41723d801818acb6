"""The board in a colour terminal: panels or cells shaded, pieces, legal holes marked.

Works for every game whose holes are named column letter + row number (Kulami, ConHex,
Blokus Duo): the grid is read off the hole names, so no game needs its own drawing.
"""

from __future__ import annotations

import re
import string

from app.games import game
from engines.core import Board
from engines.kulami.layout import colour_panels

RESET = "\x1b[0m"
#: Background shades for areas, chosen so that touching areas differ.
AREA_SHADES = ("\x1b[48;5;180m", "\x1b[48;5;137m", "\x1b[48;5;223m", "\x1b[48;5;95m")
NO_AREA = "\x1b[48;5;250m"
LEGAL = "\x1b[38;5;28m\u00b7"
LAST = "\x1b[1m"
_HOLE = re.compile(r"([a-z])(\d+)")


def _fg(rgb: tuple[int, int, int]) -> str:
    return "\x1b[38;2;%d;%d;%dm" % rgb


def _grid(board: Board) -> dict[tuple[int, int], str]:
    cells = {}
    for hole in board.holes:
        match = _HOLE.fullmatch(hole)
        if match:
            cells[(string.ascii_lowercase.index(match[1]), int(match[2]) - 1)] = hole
    return cells


def _shades(board: Board) -> dict[str, str]:
    """A hole -> shade map: each area gets a shade none of its neighbours has. A hole
    in several areas (a ConHex cell corner) is left unshaded, and does not count as
    touching."""
    area_of: dict[str, list[str]] = {}
    for name, holes in board.areas.items():
        for hole in holes:
            area_of.setdefault(hole, []).append(name)
    position = {hole: xy for xy, hole in _grid(board).items()}
    fields = {name: [position[hole] for hole in holes
                     if hole in position and len(area_of[hole]) == 1]
              for name, holes in board.areas.items()}
    colour = colour_panels(fields, len(AREA_SHADES))
    return {hole: AREA_SHADES[colour[names[0]]] for hole, names in area_of.items()
            if len(names) == 1}


def render(board: Board) -> str:
    """The board as ANSI-coloured text, top row first, with coordinates."""
    grid = _grid(board)
    if not grid:
        return board.ascii()
    width = max(x for x, _ in grid) + 1
    height = max(y for _, y in grid) + 1
    shades = _shades(board)
    pieces = board.sensor_view()
    players = game(board.game).players
    lights = board.lights()
    lines = []
    for y in reversed(range(height)):
        row = [f"{y + 1:>2} "]
        for x in range(width):
            hole = grid.get((x, y))
            if hole is None:
                row.append("   ")
                continue
            shade = shades.get(hole, NO_AREA)
            bold = LAST if hole in lights.last else ""
            if hole in pieces:
                mark = _fg(players[pieces[hole]].piece) + "\u25cf"
            elif hole in lights.legal:
                mark = LEGAL
            else:
                mark = " "
            row.append(f"{shade}{bold} {mark} {RESET}")
        lines.append("".join(row))
    lines.append("   " + "".join(f" {c} " for c in string.ascii_lowercase[:width]))
    return "\n".join(lines)
