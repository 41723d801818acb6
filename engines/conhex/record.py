"""Little Golem's ConHex SGF, read and written.

The form, as Little Golem exports it::

    (;FF[CONHEX]VA[CONHEX]EV[...]PB[first]PW[second]SO[https://www.littlegolem.net]
    ;B[J3];R[H5];B[I6];...;R[resign])

``B`` is the first player (our ``b``), ``R`` the second (our ``w``; ``W`` is read too),
holes in upper case, ``swap`` and ``resign`` as move values; ``PB`` and ``PW`` name the
players. We add ``HA[n]`` for a handicap game (``b`` places the first n gems),
``PIE[false]`` for a game without the pie rule, and ``RE[B+]``/``RE[W+]`` (``B+R``/``W+R``
for a resignation) once the game is decided. Only the player to move can resign, and a
record's resignation is its last move: reading it back gives the game to the other
player (:class:`~engines.core.GameRecord`).

The options. Little Golem's games always offer the swap and have no property for it, so
a record without ``PIE`` has the pie rule, and only a game without it says so; likewise a
record without ``HA`` has no handicap. A Little Golem game therefore writes exactly as
Little Golem does, and readers that do not know ``PIE`` ignore it, as SGF readers ignore
every property they do not know. Both are read through the board's typed options: a
value they refuse (``HA[2.0]``, ``PIE[maybe]``) is a
:class:`~engines.sgf.RecordOptionError` naming the property and the allowed values,
which a record store tells from a damaged record.

The swap. Little Golem keeps each player's colour and direction and answers the swap by
mirroring the first gem in the a1-k11 diagonal: after ``B[J3];R[swap]`` the second player
has a gem on C10 and J3 is empty again (players do play J3 later). Our swap, the seed's,
recolours the gem in its own hole. Both leave the same position when our first gem is
the mirror of Little Golem's, so reading turns ``B[J3];R[swap]`` into ``c10 swap`` and
writing turns ``c10 swap`` back into ``B[J3];R[swap]``; every later move is unchanged.

This module builds boards, so it depends on ``board.py`` and never the other way round:
the package (``__init__.py``) gives the board its ``to_record``/``from_record`` by
setting :attr:`ConHexBoard.record_format` to :func:`write`, :func:`read_board` and
:func:`read`.
"""

from __future__ import annotations

from collections.abc import Mapping

from engines import sgf
from engines.conhex.board import HANDICAP, PIE, SWAP, ConHexBoard, player_at
from engines.conhex.geometry import HOLE_INDEX, mirror
from engines.core import GameRecord
from engines.errors import RecordError

#: SGF move property -> our player.
_COLOURS = {"B": "b", "R": "w", "W": "w"}
#: The root properties of the board's options.
_OPTIONS = {"PIE": PIE, "HA": HANDICAP}


def read(text: str) -> GameRecord:
    """Replay a Little Golem SGF record; :class:`RecordError` names the broken part,
    :class:`~engines.sgf.RecordOptionError` an option this version refuses."""
    root, *nodes = sgf.parse(text)
    game = root.get("FF", ["?"])[0]
    if game.upper() != "CONHEX" or root.get("VA", ["CONHEX"])[0].upper() != "CONHEX":
        raise RecordError(f"not a Little Golem ConHex record: FF[{game}] (expected FF[CONHEX])")
    if any(name in root for name in _COLOURS):
        raise RecordError("the root node holds a move; moves belong in their own nodes")
    board = ConHexBoard.new(**sgf.read_options(root, _OPTIONS))
    moves = sgf.moves_of(nodes, _COLOURS)
    if len(moves) > 1 and moves[1][2].lower() == SWAP.name and moves[0][2].lower() in HOLE_INDEX:
        where, player, value = moves[0]
        moves[0] = (where, player, mirror(value.lower()))
    resigned = sgf.replay(board, moves)
    record = GameRecord(board, sgf.player_names(root), resigned)
    sgf.check_result(root, record.winner, _COLOURS)
    return record


def read_board(text: str) -> ConHexBoard:
    """The board a record leaves, for :meth:`ConHexBoard.from_record`."""
    return read(text).board


def write(board: ConHexBoard, players: Mapping[str, str] | None = None,
          resigned: str | None = None) -> str:
    """The game as Little Golem SGF; ``resigned`` (the player to move) adds a resignation."""
    if resigned is not None and (board.is_game_over() or resigned != board.turn):
        raise RecordError(f"only the player to move can resign, and {resigned} is not")
    record = GameRecord(board, players or {}, resigned)
    root: sgf.Node = {"FF": ["CONHEX"], "VA": ["CONHEX"]}
    handicap = board.options["handicap"]
    if handicap:
        root["HA"] = [sgf.option_text(handicap)]
    if not board.options["pie"]:
        root["PIE"] = [sgf.option_text(False)]
    root.update(sgf.name_properties(record.players))
    outcome = record.outcome()
    if outcome is not None:
        root["RE"] = [outcome.result()]
    values = [move.name.upper() if move != SWAP else SWAP.name for move in board.move_stack]
    if len(values) > 1 and values[1] == SWAP.name:
        values[0] = mirror(values[0].lower()).upper()
    if resigned is not None:
        values.append(sgf.RESIGN)
    nodes = [root] + [{"B" if player_at(ply, handicap) == "b" else "R": [value]}
                      for ply, value in enumerate(values)]
    return sgf.dumps(nodes)
