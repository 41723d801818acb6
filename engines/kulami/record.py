"""The Kulami game record: SGF-style, with the layout, so any game loads back.

    (;GM[Kulami]FF[4]CA[UTF-8]AP[Tabletop]LY[aaabbccd/...]SC[0]CL[diagonal]RE[B+5]
    ;B[d4]
    ;W[d7]
    ...)

``GM[Kulami]`` names the game; ``LY`` holds the layout text (rows top to bottom, ``/``
between rows, a panel letter per field, ``.`` for none); ``SC`` the scoring level (0, 1
or 2); ``CL`` the chain lines of level 2 (``diagonal`` or ``all``); ``RE`` the result in
GTP's form once the game is over. Each later node holds one move: ``B`` for the first
player, ``W`` for the second, a field in the board's notation (``a1`` lower left).
"""

from __future__ import annotations

from engines import sgf
from engines.core import EngineError, PLAYERS, RecordError

GAME = "Kulami"


def write(options: dict, moves: list[str], result: str | None) -> str:
    root = {"GM": [GAME], "FF": ["4"], "CA": ["UTF-8"], "AP": ["Tabletop"],
            "LY": [options["layout"]], "SC": [str(options["scoring"])],
            "CL": [options["chain_lines"]]}
    if result is not None:
        root["RE"] = [result]
    nodes = [root] + [{PLAYERS[i % 2].upper(): [move]} for i, move in enumerate(moves)]
    return sgf.dumps(nodes)


def read(text: str) -> tuple[dict, list[tuple[str, str]]]:
    """The game options and the moves as (colour, field text) pairs."""
    root, *nodes = sgf.parse(text)
    if root.get("GM") != [GAME]:
        raise RecordError(f"not a Kulami record (GM is {root.get('GM', ['missing'])[0]!r})")
    if "LY" not in root:
        raise RecordError("Kulami record has no layout (LY)")
    options = {"layout": root["LY"][0], "scoring": root.get("SC", ["0"])[0],
               "chain_lines": root.get("CL", ["diagonal"])[0]}
    if options["scoring"] not in ("0", "1", "2"):
        raise RecordError(f"SC must be 0, 1 or 2, not {options['scoring']!r}")
    options["scoring"] = int(options["scoring"])
    moves = []
    for number, node in enumerate(nodes, start=1):
        colours = [key for key in node if key in ("B", "W")]
        if len(colours) != 1:
            raise RecordError(f"move {number}: a node must hold exactly one B or W move")
        moves.append((colours[0].lower(), node[colours[0]][0]))
    return options, moves


def replay(board, moves: list[tuple[str, str]]) -> None:
    """Play recorded moves on ``board``, naming the move that breaks the rules."""
    for number, (colour, text) in enumerate(moves, start=1):
        if colour != board.turn:
            raise RecordError(f"move {number}: {colour} moves, but it is {board.turn}'s turn")
        try:
            board.push_text(text)
        except EngineError as error:
            raise RecordError(f"move {number} ({text}): {error}") from None
