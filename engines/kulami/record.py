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

This module builds boards, so it depends on ``board.py`` and never the other way round:
the package (``__init__.py``) gives the board its ``to_record``/``from_record`` by
setting :attr:`KulamiBoard.record_format` to :func:`write` and :func:`read`.
"""

from __future__ import annotations

from engines import sgf
from engines.core import PLAYERS
from engines.errors import EngineError, OptionError, RecordError
from engines.kulami.board import KulamiBoard

GAME = "Kulami"


def write(board: KulamiBoard) -> str:
    """The game so far as a record, with its result once it is over."""
    options, outcome = board.options, board.outcome()
    root = {"GM": [GAME], "FF": ["4"], "CA": ["UTF-8"], "AP": ["Tabletop"],
            "LY": [options["layout"]], "SC": [str(options["scoring"])],
            "CL": [options["chain_lines"]]}
    if outcome is not None:
        root["RE"] = [outcome.result()]
    nodes = [root] + [{PLAYERS[i % 2].upper(): [str(move)]}
                      for i, move in enumerate(board.move_stack)]
    return sgf.dumps(nodes)


def read(text: str) -> KulamiBoard:
    """The game a record holds, replayed; :class:`RecordError` names the broken part."""
    root, *nodes = sgf.parse(text)
    options = _options(root)
    try:
        board = KulamiBoard.new(**options)
    except OptionError as error:
        raise RecordError(f"record options: {error}") from None
    _replay(board, [_move(number, node) for number, node in enumerate(nodes, start=1)])
    return board


def _options(root: sgf.Node) -> dict:
    if root.get("GM") != [GAME]:
        raise RecordError(f"not a Kulami record (GM is {root.get('GM', ['missing'])[0]!r})")
    if "LY" not in root:
        raise RecordError("Kulami record has no layout (LY)")
    scoring = root.get("SC", ["0"])[0]
    if scoring not in ("0", "1", "2"):
        raise RecordError(f"SC must be 0, 1 or 2, not {scoring!r}")
    return {"layout": root["LY"][0], "scoring": scoring,
            "chain_lines": root.get("CL", ["diagonal"])[0]}


def _move(number: int, node: sgf.Node) -> tuple[str, str]:
    """A move node as (colour, field text)."""
    colours = [key for key in node if key in ("B", "W")]
    if len(colours) != 1:
        raise RecordError(f"move {number}: a node must hold exactly one B or W move")
    return colours[0].lower(), node[colours[0]][0]


def _replay(board: KulamiBoard, moves: list[tuple[str, str]]) -> None:
    """Play recorded moves on ``board``, naming the move that breaks the rules."""
    for number, (colour, text) in enumerate(moves, start=1):
        if colour != board.turn:
            raise RecordError(f"move {number}: {colour} moves, but it is {board.turn}'s turn")
        try:
            board.push_text(text)
        except EngineError as error:
            raise RecordError(f"move {number} ({text}): {error}") from None
