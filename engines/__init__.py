"""Rules engines for the four games: pure Python, no hardware, no I/O.

``new_game(name, **options)`` is the one door in; each game registers its board class
here by import path so that importing the registry stays cheap on a Pi. A board class
also builds games itself: ``KulamiBoard.new(scoring="2")``.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from engines.core import PASS, PLAYERS, Board, LegalMoves, Lights, Outcome, other
from engines.errors import (EngineError, IllegalMoveError, InvalidMoveError, OptionError,
                            RecordError, TabletopError)
from engines.options import Option

#: Game name -> "module:BoardClass". Later engines add one line each.
GAMES: dict[str, str] = {
    "kulami": "engines.kulami.board:KulamiBoard",
    "conhex": "engines.conhex.board:ConHexBoard",
}


def board_class(name: str) -> type[Board]:
    """The board class registered under ``name``."""
    try:
        path = GAMES[name.strip().lower()]
    except KeyError:
        raise OptionError(f"unknown game {name!r} (known: {', '.join(sorted(GAMES))})") from None
    module, _, cls = path.partition(":")
    return getattr(import_module(module), cls)


def new_game(name: str, **options: Any) -> Board:
    """A new game of ``name`` with ``options`` (text is converted to each option's type)."""
    return board_class(name).new(**options)


__all__ = ["GAMES", "PASS", "PLAYERS", "Board", "EngineError", "IllegalMoveError",
           "InvalidMoveError", "LegalMoves", "Lights", "Option", "OptionError", "Outcome",
           "RecordError", "TabletopError", "board_class", "new_game", "other"]
