"""The board in a colour terminal: panels shaded or cells drawn, pieces, what is lit marked.

The terminal draws the session's :class:`~app.table.view.View`, the one the LEDs light,
the status screen draws and the page shows: the holes where its board view places them,
the pieces, the column and row names, the areas and their owners, and what its scene
lights (the legal holes, a hint), with a key from its legend. So the terminal works out
no game fact of its own, and a game whose holes lie on a square grid (Kulami, ConHex,
Blokus Duo) needs no drawing of its own; a board of another shape (a hexagonal one) is
drawn row by row, each hole at its place across in half steps. A game whose pieces
stack above its holes (the view's ``ball`` pieces, Akron) places every point between
and above the holes, so it is drawn from above the same way on a grid of half steps:
each place shows its top piece with its level, the holes on level 1.
Areas that share no hole (Kulami's panels) shade their holes. Areas that share holes
(ConHex's cells, each between the holes around it) cannot, so the board is drawn on a
grid of half steps instead, with a mark for each cell between its holes: filled in its
owner's colour once claimed, hollow while nobody owns it.

Colour only where someone sees it: :func:`wants_colour` follows no-color.org (a
non-empty ``NO_COLOR``), ``TERM=dumb`` and a standard output that is not a terminal (a
pipe, a file), and the board is then drawn in plain text: each piece is its player's
initial (``R``, ``B``), an owned ConHex cell the initial in lower case, and each Kulami
hole carries its panel's letter where the colour drawing shades it.
"""

from __future__ import annotations

import os
import re
import string
from collections.abc import Mapping
from typing import TextIO

from app.colours import role_of
from app.table.view import BoardView, View
from engines.map_colours import colour_panels

RESET = "\x1b[0m"
#: Background shades for areas, chosen so that touching areas differ.
AREA_SHADES = ("\x1b[48;5;180m", "\x1b[48;5;137m", "\x1b[48;5;223m", "\x1b[48;5;95m")
NO_AREA = "\x1b[48;5;250m"
LEGAL = "\x1b[38;5;28m\u00b7"
#: A hole the scene lights as a move to make (a hint): drawn over its legal mark.
SUGGESTED = "\u25c7"
LAST = "\x1b[1m"
#: A hole no piece may go in now (the game is over), and a piece.
EMPTY = "\x1b[38;5;245m\u2218"
PIECE = "\u25cf"
#: A cell nobody owns yet, and one a player owns (in the player's colour).
OPEN_CELL = "\x1b[38;5;245m\u25a1"
OWNED_CELL = "\u25a0"
#: Any of the escape sequences above: what a plain drawing leaves out.
_SGR = re.compile(r"\x1b\[[0-9;]*m")


def wants_colour(stream: TextIO, environ: Mapping[str, str] = os.environ) -> bool:
    """Whether to draw in ANSI colour on ``stream``: not when ``NO_COLOR`` is set to
    anything but the empty string (no-color.org), not for ``TERM=dumb``, and not into
    anything but a terminal, where the escapes would be noise in a file or a pipe."""
    if environ.get("NO_COLOR") or environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


def _initials(view: View) -> dict[str, str]:
    """Each player's mark on a plain drawing: the initial of its colour (``R``, ``B``),
    or ``X`` and ``O`` should two colours share one."""
    players = view.players
    initials = {player: info.name[:1].upper() for player, info in players.items()}
    if len(set(initials.values())) < len(initials) or not all(initials.values()):
        initials = dict(zip(players, "XO"))
    return initials


def _fg(rgb: tuple[int, int, int]) -> str:
    return "\x1b[38;2;%d;%d;%dm" % rgb


class _Lit:
    """What the view's scene lights that the drawing marks: the legal holes, the holes
    of a move suggested (a hint), and each area's owner; and the last move, bold."""

    def __init__(self, view: View, colour: bool) -> None:
        scene = view.scene
        self.legal = scene.named("legal")
        self.suggested = scene.named("suggestion")
        self.last = frozenset(view.board.last)
        self.owner = {name: player for name, light in scene.lights.items()
                      for player in (role_of(light.role)[1],)
                      if player is not None and name in view.board.areas}
        light = scene.lights.get(next(iter(self.suggested), ""), None)
        #: The mark of a suggested hole, in the colour the scene lights it.
        self.suggestion = (_fg(light.colour) if colour and light is not None else "") \
            + SUGGESTED

    def empty(self, hole: str, otherwise: str) -> str:
        """The mark of an empty ``hole``: a move suggested, legal, or ``otherwise``."""
        if hole in self.suggested:
            return self.suggestion
        return LEGAL if hole in self.legal else otherwise


def key(view: View, colour: bool = True) -> str:
    """The key to the marks :func:`render` draws, in the view's legend's words (``·
    Legal move, ◇ Hint``), for the roles lit now that the drawing marks; empty when
    there are none."""
    lit = _Lit(view, colour)
    marks = {"legal": (LEGAL, lit.legal), "suggestion": (lit.suggestion, lit.suggested),
             "last": (LAST + "bold" + RESET, lit.last if colour else ())}
    parts = [f"{marks[row.role][0]}{RESET} {row.meaning}" for row in view.legend
             if row.role in marks and marks[row.role][1]]
    text = "Key: " + ", ".join(parts) if parts else ""
    return text if colour else _SGR.sub("", text)


def hole_positions(board: BoardView) -> dict[str, tuple[int, int]]:
    """Each hole's column and row from 0 (``a1`` is ``(0, 0)``), where the board places
    it: where :func:`render` draws it."""
    return {hole: xy for xy, hole in _grid(board).items()}


def _grid(board: BoardView) -> dict[tuple[int, int], str]:
    """Each hole by its column and row; empty where the holes are not on a square grid."""
    cells = {}
    for hole, place in board.holes.items():
        if place.x != int(place.x) or place.y != int(place.y):
            return {}
        cells[(int(place.x), int(place.y))] = hole
    return cells


def _shades(board: BoardView) -> dict[str, str]:
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


def _overlapping(board: BoardView) -> bool:
    """Whether some hole lies in two areas (ConHex's cells), so areas cannot shade holes."""
    seen: set[str] = set()
    for holes in board.areas.values():
        if seen.intersection(holes):
            return True
        seen.update(holes)
    return False


def render(view: View, colour: bool = True) -> str:
    """The board of ``view`` as ANSI-coloured text, top row first, with coordinates;
    with ``colour`` false, as plain text (see the module's docstring)."""
    board = view.board
    lit = _Lit(view, colour)
    if board.shape == "ball":
        text = _render_pile(view, lit, colour)
    else:
        grid = _grid(board)
        if not grid:
            text = _render_rows(view, lit, colour)
        elif _overlapping(board):
            text = _render_cells(view, grid, lit, colour)
        else:
            text = _render_holes(view, grid, lit, colour)
    return text if colour else _SGR.sub("", text)


def _piece(view: View, player: str, colour: bool) -> str:
    return (_fg(view.players[player].piece) + PIECE if colour
            else _initials(view)[player])


def _render_rows(view: View, lit: _Lit, colour: bool) -> str:
    """Holes not on a square grid (a hexagonal board's): each row of holes on a line of
    its own, top row first, each hole at its place across in half steps, one character
    a half step, the row's name on the left and the columns' below."""
    board = view.board
    rows = sorted({round(place.y, 6) for place in board.holes.values()})
    index = {y: i for i, y in enumerate(rows)}
    at = {(round(2 * place.x), index[round(place.y, 6)]): hole
          for hole, place in board.holes.items()}
    width = max(x for x, _ in at) + 1
    row_names = {round(y, 6): name for y, name in board.rows}
    lines = []
    for i in reversed(range(len(rows))):
        row = [f"{row_names.get(rows[i], ''):>2} "]
        for x in range(width):
            hole = at.get((x, i))
            if hole is None:
                row.append(" ")
                continue
            player = board.pieces.get(hole)
            mark = (_piece(view, player, colour) if player is not None
                    else lit.empty(hole, EMPTY))
            row.append(f"{LAST if hole in lit.last else ''}{mark}{RESET}")
        lines.append("".join(row).rstrip())
    columns = {round(2 * x): name for x, name in board.columns}
    lines.append("   " + "".join(columns.get(x, " ") for x in range(width)).rstrip())
    return "\n".join(lines)


def _render_pile(view: View, lit: _Lit, colour: bool) -> str:
    """Pieces stacked on the holes, seen from above: each place shows its top piece as its
    player's mark and level (``W2``; in colour a dot in the player's colour), an empty
    hole as a dot when legal; the places between holes belong to the levels above."""
    board = view.board
    players = view.players
    initials = _initials(view)
    top: dict[tuple[int, int], tuple[int, str]] = {}
    for name, player in board.pieces.items():
        place = board.places[name]
        spot = _half_steps(place)
        if spot not in top or top[spot][0] < place.level:
            top[spot] = (place.level, player)
    holes = {_half_steps(place): hole for hole, place in board.holes.items()}
    places = [*holes, *top]
    width = max(x for x, _ in places) + 1
    height = max(y for _, y in places) + 1
    lines = []
    for y in reversed(range(height)):
        row = [f"{y + 1:>2} "]
        for x in range(width):
            hole = holes.get((x, y))
            bold = LAST if hole in lit.last else ""
            if (x, y) in top:
                level, player = top[(x, y)]
                mark = (f"{_fg(players[player].piece)}{PIECE}{level}" if colour
                        else f"{initials[player]}{level}")
            elif hole is not None:
                mark = lit.empty(hole, EMPTY) + " "
            else:
                mark = "  "
            row.append(f"{bold}{mark}{RESET} ")
        lines.append("".join(row))
    lines.append("   " + "".join(f"{c}  " for c in string.ascii_lowercase[:width]).rstrip())
    return "\n".join(line if colour else _SGR.sub("", line).rstrip() for line in lines)


def _half_steps(place) -> tuple[int, int]:
    """``place`` in half steps from the first hole."""
    return round(2 * place.x), round(2 * place.y)


def _render_holes(view: View, grid: dict[tuple[int, int], str], lit: _Lit,
                  colour: bool) -> str:
    """Holes in rows, each area's holes shaded alike (plain: its letter beside them)."""
    board = view.board
    width = max(x for x, _ in grid) + 1
    height = max(y for _, y in grid) + 1
    shades = _shades(board)
    pieces = board.pieces
    area_of = {hole: name for name, holes in board.areas.items() for hole in holes
               if len(name) == 1}
    columns, rows = dict(board.columns), dict(board.rows)
    lines = []
    for y in reversed(range(height)):
        row = [f"{rows.get(y, ''):>2} "]
        for x in range(width):
            hole = grid.get((x, y))
            if hole is None:
                row.append("   ")
                continue
            shade = shades.get(hole, NO_AREA)
            bold = LAST if hole in lit.last else ""
            if hole in pieces:
                mark = _piece(view, pieces[hole], colour)
            else:
                mark = lit.empty(hole, " " if colour or hole in area_of else EMPTY)
            left = " " if colour else area_of.get(hole, " ")
            row.append(f"{shade}{bold}{left}{mark} {RESET}")
        lines.append("".join(row))
    lines.append("   " + "".join(f" {columns.get(x, ' ')} " for x in range(width)))
    return "\n".join(lines)


def cell_places(board: BoardView, grid: dict[tuple[int, int], str] | None = None
                ) -> dict[str, tuple[int, int]]:
    """Where each area's mark goes on the grid of half steps, where the hole at column
    ``x``, row ``y`` (from 0) is the point ``(2x, 2y)``: the middle of its holes. An
    edge cell's holes lie on one line, and the centre cell's middle is its centre hole,
    so a middle that is a hole (or another cell's mark) moves half a step outward, away
    from the middle of the board (up, at the middle itself)."""
    grid = _grid(board) if grid is None else grid
    point = {hole: (2 * x, 2 * y) for (x, y), hole in grid.items()}
    holes = set(point.values())
    centre_x = max(x for x, _ in holes) / 2
    centre_y = max(y for _, y in holes) / 2
    places: dict[str, tuple[int, int]] = {}
    for name, members in board.areas.items():
        points = [point[hole] for hole in members if hole in point]
        x = round(sum(p[0] for p in points) / len(points))
        y = round(sum(p[1] for p in points) / len(points))
        if (x, y) in holes or (x, y) in places.values():
            dx, dy = x - centre_x, y - centre_y
            if abs(dx) > abs(dy):
                x += 1 if dx > 0 else -1
            else:
                y += -1 if dy < 0 else 1
        places[name] = (x, y)
    return places


def _render_cells(view: View, grid: dict[tuple[int, int], str], lit: _Lit,
                  colour: bool) -> str:
    """Holes on the even points of a grid of half steps, each cell's mark between its
    holes; two characters per half step, so a column is four wide and a row two high."""
    board = view.board
    players = view.players
    initials = _initials(view)
    if colour:
        owned = {p: _fg(players[p].piece) + OWNED_CELL for p in players}
    else:
        owned = {p: initial.lower() for p, initial in initials.items()}
    places = cell_places(board, grid)
    pieces = board.pieces
    at = {(2 * x, 2 * y): hole for (x, y), hole in grid.items()}
    at.update({place: area for area, place in places.items()})
    width = max(x for x, _ in at) + 1
    height = max(y for _, y in at) + 1
    columns, rows = dict(board.columns), dict(board.rows)
    lines = []
    for y in reversed(range(height)):
        row = [f"{rows.get(y // 2, ''):>2} " if y % 2 == 0 else "   "]
        for x in range(width):
            name = at.get((x, y))
            if name is None:
                mark = " "
            elif name in places:
                mark = owned[lit.owner[name]] if name in lit.owner else OPEN_CELL
            elif name in pieces:
                mark = _piece(view, pieces[name], colour)
            else:
                mark = lit.empty(name, EMPTY)
            bold = LAST if name in lit.last else ""
            row.append(f"{bold}{mark}{RESET} " if name is not None else "  ")
        lines.append("".join(row).rstrip())
    lines.append("   " + "".join(f"{columns.get(x, ' ')}   " for x in range(width // 2 + 1))
                 .rstrip())
    legend = "   ".join(f"{owned[p]}{RESET} {players[p].name}'s cell" for p in players)
    lines.append(f"   {legend}   {OPEN_CELL}{RESET} nobody's yet")
    return "\n".join(lines)
