"""The Kulami game record: SGF-style, with the layout, so any game loads back.

    (;GM[Kulami]FF[4]CA[UTF-8]AP[Tabletop]LY[aaabbccd/...]SC[0]CL[all]RE[B+5]
    ;B[d4]
    ;W[d7]
    ...)

``GM[Kulami]`` names the game; ``LY`` holds the layout text (rows top to bottom, ``/``
between rows, a panel letter per field, ``.`` for none); ``SC`` the scoring level (0, 1
or 2); ``CL`` the chain lines of level 2 (``all`` or ``diagonal``); ``PB`` and ``PW``
the players' names, where known; ``RE`` the result in GTP's form once the game is over
(``B+5``, ``0`` for a draw, ``W+R`` when the first player resigned). Each later node
holds one move: ``B`` for the first player, ``W`` for the second, a field in the
board's notation (``a1`` lower left). A resignation is the last node, the resigning
player's ``B[resign]`` or ``W[resign]`` (as Little Golem writes one); only the player
to move can resign, and reading it back gives the game to the other player.
``RE`` is written for people and other programs: on reading, the moves decide who won,
and ``RE`` need only be a result in SGF's forms (``RE[a0]`` is refused).

``LY``, ``SC`` and ``CL`` are the board's options, every one always written, and read
back through the board's typed options: a value this version refuses (``SC[1.5]``, a
layout that is not the Kulami panel set) is a :class:`~engines.sgf.RecordOptionError`
naming the property and the allowed values, which a record store tells from a damaged
record. Other root properties are ignored, as SGF
readers ignore every property they do not know.

This module builds boards, so it depends on ``board.py`` and never the other way round:
the package (``__init__.py``) gives the board its ``to_record``/``from_record`` by
setting :attr:`KulamiBoard.record_format` to :func:`write`, :func:`read_board` and
:func:`read`, as every game's record module does.
"""

from __future__ import annotations

from collections.abc import Mapping

from engines import sgf
from engines.core import GameRecord
from engines.errors import OptionError, RecordError
from engines.kulami.board import OPTIONS, KulamiBoard

GAME = "Kulami"
#: The root property of each option.
_PROPERTIES = dict(zip(("LY", "SC", "CL"), OPTIONS))
_COLOURS = {"B": "b", "W": "w"}


def write(board: KulamiBoard, players: Mapping[str, str] | None = None,
          resigned: str | None = None) -> str:
    """The game so far as a record, with the players' names where given, a resignation
    of the player to move when ``resigned`` names them, and the result once it is over."""
    record = GameRecord(board, players or {}, resigned)
    root = {"GM": [GAME], "FF": ["4"], "CA": ["UTF-8"], "AP": ["Tabletop"]}
    root.update(sgf.name_properties(record.players))
    root.update({name: [sgf.option_text(board.options[option.name])]
                 for name, option in _PROPERTIES.items()})
    outcome = record.outcome()
    if outcome is not None:
        root["RE"] = [outcome.result()]
    nodes = [root] + [{board.mover(i).upper(): [str(move)]}
                      for i, move in enumerate(board.move_stack)]
    if resigned is not None:
        nodes.append({resigned.upper(): [sgf.RESIGN]})
    return sgf.dumps(nodes)


def read(text: str) -> GameRecord:
    """The game a record holds: the board replayed, the players' names and a
    resignation. :class:`RecordError` names the broken part,
    :class:`~engines.sgf.RecordOptionError` an option this version refuses."""
    root, *nodes = sgf.parse(text)
    if root.get("GM") != [GAME]:
        raise RecordError(f"not a Kulami record (GM is {root.get('GM', ['missing'])[0]!r})")
    if "LY" not in root:
        raise RecordError("Kulami record has no layout (LY)")
    options = sgf.read_options(root, _PROPERTIES)
    try:
        board = KulamiBoard.new(**options)
    except OptionError as error:  # the layout text: its panels, rows and size
        raise sgf.RecordOptionError(f"LY: {error}") from None
    sgf.read_result(root, _COLOURS)  # a result, if any, though the moves decide the winner
    resigned = sgf.replay(board, sgf.moves_of(nodes, _COLOURS))
    return GameRecord(board, sgf.player_names(root), resigned)


def read_board(text: str) -> KulamiBoard:
    """The board a record leaves, replayed (see :func:`read`), for
    :meth:`KulamiBoard.from_record`."""
    return read(text).board
