"""The Akron game record: SGF-style, one action per node, in the board's notation.

    (;GM[Akron]FF[4]CA[UTF-8]AP[Tabletop]PB[Ann]PW[Tabletop (level 2)]RE[B+]
    ;B[1c3]
    ;W[1e5]
    ...
    ;B[1c3-2d4]
    ;W[pass]
    ...)

``GM[Akron]`` names the game; ``B`` is the first player (white balls, our ``b``), ``W``
the second (red, ``w``). A node holds one action: a hole (a ball added), two points
joined by ``-`` (a ball moved, ``1c3-2d4``), or ``pass``. Drops are not written: they
follow from the rules. ``PB`` and ``PW`` name the players where known; ``RE`` is the
result once the game is over (``B+`` or ``W+``: a connection game has no margin; ``0``
for the draw of two passes; ``B+R``/``W+R`` after a resignation, written as the
resigning player's last node ``B[resign]`` or ``W[resign]``). The game has no options,
so the root holds no option properties. On reading, the moves decide, and an ``RE``
that names the other winner is refused.

This module builds boards, so it depends on ``board.py`` and never the other way round:
the package (``__init__.py``) sets :attr:`AkronBoard.record_format`.
"""

from __future__ import annotations

from collections.abc import Mapping

from engines import sgf
from engines.akron.board import AkronBoard
from engines.core import GameRecord
from engines.errors import EngineError, RecordError

GAME = "Akron"
_COLOURS = {"B": "b", "W": "w"}


def write(board: AkronBoard, players: Mapping[str, str] | None = None,
          resigned: str | None = None) -> str:
    """The game so far, with the players' names where given, a resignation of the player
    to move when ``resigned`` names them, and the result once it is over."""
    if board.set_up:
        raise EngineError("a position set up ball by ball has no record: a record is "
                          "the moves from the empty board")
    record = GameRecord(board, players or {}, resigned)
    root: sgf.Node = {"GM": [GAME], "FF": ["4"], "CA": ["UTF-8"], "AP": ["Tabletop"]}
    root.update(sgf.name_properties(record.players))
    outcome = record.outcome()
    if outcome is not None:
        root["RE"] = [outcome.result()]
    nodes = [root] + [{board.mover(ply).upper(): [board.move_text(move)]}
                      for ply, move in enumerate(board.move_stack)]
    if resigned is not None:
        nodes.append({resigned.upper(): [sgf.RESIGN]})
    return sgf.dumps(nodes)


def read(text: str) -> GameRecord:
    """The game a record holds: the board replayed, the players' names and a
    resignation; :class:`RecordError` names the broken part."""
    root, *nodes = sgf.parse(text)
    if root.get("GM") != [GAME]:
        raise RecordError(f"not an Akron record (GM is {root.get('GM', ['missing'])[0]!r})")
    if any(name in root for name in _COLOURS):
        raise RecordError("the root node holds a move; moves belong in their own nodes")
    board = AkronBoard()
    resigned = sgf.replay(board, sgf.moves_of(nodes, _COLOURS))
    record = GameRecord(board, sgf.player_names(root), resigned)
    sgf.check_result(root, record.winner, _COLOURS)
    return record


def read_board(text: str) -> AkronBoard:
    """The board a record leaves, for :meth:`AkronBoard.from_record`."""
    return read(text).board


__all__ = ["GAME", "read", "read_board", "write"]
