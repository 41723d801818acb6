"""Pentobi's SGF for Blokus Duo, read and written.

The form Pentobi reads and writes::

    (;FF[4]CA[UTF-8]GM[Blokus Duo]PB[first]PW[second]RE[B+12]
    ;B[f9,e10,f10,g10,f11]
    ;W[i4,h5,i5,j5,i6]
    ...)

``B`` is the first player (our ``b``), ``W`` the second, each move the piece's squares
in Pentobi's text. There are no pass moves: a player who cannot place is skipped, so
the same colour may move several times in a row, exactly as the board's turn goes.
``RE`` is written once the game is over (``B+n``, ``W+n``, ``0``), or ``B+R``/``W+R``
when the player to move resigned.

Turned games. Pentobi's first player always starts on ``e10``. A game of the sheet's
rule (option ``start=either``) whose first player took ``j5`` is that game turned by 180
degrees, so its moves are written turned, which Pentobi reads; the root then carries our
own ``TURNED[true]``, and reading turns the moves back, so the table gets its game as it
was played. A game with Pentobi's fixed start says ``START[fixed]``; a record without
``START`` is read with the default, the sheet's rule, under which every Pentobi game is
legal. Other readers ignore both properties, as SGF readers ignore what they do not
know. Setup properties (``AB``, ``AW``, ``AE``) and variations are refused.

This module builds boards, so it depends on ``board.py`` and never the other way round:
the package (``__init__.py``) sets :attr:`BlokusDuoBoard.record_format`.
"""

from __future__ import annotations

from collections.abc import Mapping

from engines import sgf
from engines.blokus_duo.board import START, BlokusDuoBoard
from engines.blokus_duo.pieces import BY_MASK, turned
from engines.core import GameRecord, other
from engines.errors import EngineError, RecordError
from engines.options import Option

GAME = "Blokus Duo"
_COLOURS = {"B": "b", "W": "w"}
TURNED = Option("turned", False, bool, "the game's moves are written turned by 180 degrees")
_OPTIONS = {"START": START}
_SETUP = ("AB", "AW", "AE")


def read(text: str) -> GameRecord:
    """Replay a Pentobi SGF record of Blokus Duo; :class:`RecordError` names the broken
    part, :class:`~engines.sgf.RecordOptionError` an option this version refuses."""
    root, *nodes = sgf.parse(text)
    game = root.get("GM", ["?"])[0]
    if game != GAME:
        raise RecordError(f"not a Blokus Duo record: GM[{game}] (expected GM[{GAME}])")
    for node in (root, *nodes):
        setup = [name for name in _SETUP if name in node]
        if setup:
            raise RecordError(f"setup properties ({', '.join(setup)}) are not supported: "
                              f"a record must be moves from the empty board")
    if any(name in root for name in _COLOURS):
        raise RecordError("the root node holds a move; moves belong in their own nodes")
    board = BlokusDuoBoard.new(**sgf.read_options(root, _OPTIONS))
    turn_back = sgf.read_options(root, {"TURNED": TURNED}).get("turned", False)
    if turn_back and board.options["start"] == "fixed":
        raise RecordError("TURNED[true] in a game with start fixed: such a game is never "
                          "turned")
    for number, node in enumerate(nodes, 1):
        props = [name for name in node if name in _COLOURS]
        if len(props) != 1:
            raise RecordError(f"move {number}: a node needs exactly one of B[..] or W[..], "
                              f"found {len(props)}")
        prop = props[0]
        value = node[prop][0].strip()
        where = f"move {number} ({prop}[{value}])"
        player = _COLOURS[prop]
        if board.is_game_over():
            raise RecordError(f"{where}: the game is already over")
        if player != board.turn:
            raise RecordError(f"{where}: it is {board.turn}'s turn, not {player}'s "
                              f"({other(player)} can still place)")
        try:
            move = board.parse_move(value)
            if turn_back:
                move = BY_MASK[turned(move.mask)]
            board.push(move)
        except EngineError as error:
            raise RecordError(f"{where}: {error}") from None
    if turn_back and board.move_stack and not board.turned:
        raise RecordError("TURNED[true], but the first piece is not on j5 once turned back")
    record = GameRecord(board, sgf.player_names(root), _resigned(root, board))
    sgf.check_result(root, record.winner, _COLOURS)
    return record


def read_board(text: str) -> BlokusDuoBoard:
    """The board a record leaves, for :meth:`BlokusDuoBoard.from_record`."""
    return read(text).board


def write(board: BlokusDuoBoard, players: Mapping[str, str] | None = None,
          resigned: str | None = None) -> str:
    """The game as Pentobi SGF, turned when its first player took ``j5``."""
    record = GameRecord(board, players or {}, resigned)
    root: sgf.Node = {"FF": ["4"], "CA": ["UTF-8"], "GM": [GAME]}
    if board.options["start"] != START.default:
        root["START"] = [sgf.option_text(board.options["start"])]
    turn = board.turned
    if turn:
        root["TURNED"] = [sgf.option_text(True)]
    root.update(sgf.name_properties(record.players))
    outcome = record.outcome()
    if outcome is not None:
        root["RE"] = [outcome.result()]
    nodes = [root]
    for ply, move in enumerate(board.move_stack):
        written = BY_MASK[turned(move.mask)] if turn else move
        nodes.append({board.mover(ply).upper(): [str(written)]})
    return sgf.dumps(nodes)


def _resigned(root: sgf.Node, board: BlokusDuoBoard) -> str | None:
    """Who resigned, if ``RE`` says so (``W+R`` or ``W+Resign``: b resigned); an ``RE``
    that is not a result is a :class:`RecordError` (:func:`engines.sgf.read_result`)."""
    winner = sgf.read_result(root, _COLOURS)
    result = root.get("RE", [""])[0].strip().upper()
    if winner is None or not result.endswith(("+R", "+RESIGN")):
        return None
    if board.is_game_over():
        raise RecordError(f"RE[{result}]: a resignation in a game already over")
    return other(winner)


__all__ = ["GAME", "read", "read_board", "write"]
