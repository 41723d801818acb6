"""Blokus Duo's own GTP commands, those of Pentobi's engine that scripts use beyond the
standard ones, registered on the board in ``gtp_commands``.

- ``set_game Blokus Duo``: as Pentobi, starts a new game of that variant (the options of
  the game so far are kept); any other variant is refused.
- ``p MOVE``: Pentobi's short ``play`` for the player to move.
- ``cputime``: the processor time used so far, in seconds.

``all_legal COLOUR`` (either colour, whoever is to move), ``final_score``, ``undo``,
``showboard``, ``loadsgf`` and ``savesgf`` are the standard commands of every game.
"""

from __future__ import annotations

import time
from types import MappingProxyType

from engines.core import Board
from engines.errors import EngineError

VARIANT = "Blokus Duo"


def set_game(board: Board, args: list[str]) -> tuple[Board | None, str]:
    variant = " ".join(args)
    if variant != VARIANT:
        raise EngineError(f"this engine plays {VARIANT} only, not {variant!r}")
    return type(board).from_options(board.options), ""


def p(board: Board, args: list[str]) -> tuple[Board | None, str]:
    if len(args) != 1:
        raise EngineError("p wants a move")
    move = board.parse_move(args[0])
    board.push(move)
    return None, ""


def cputime(board: Board, args: list[str]) -> tuple[Board | None, str]:
    return None, f"{time.process_time():.3f}"


GTP_COMMANDS = MappingProxyType({"set_game": set_game, "p": p, "cputime": cputime})

__all__ = ["GTP_COMMANDS", "VARIANT"]
