"""Rules engines for the four games: pure Python, no hardware, no I/O.

Each game is one package with a board class (``engines.kulami.board.KulamiBoard``) that
builds its games itself: ``KulamiBoard.new(scoring="2")`` converts and checks the options.
Which games the product offers, and by what names, is the table's registry
(``app/games.py``); the engines keep no list of their own.
"""

from __future__ import annotations

from engines.core import PASS, PLAYERS, Board, LegalMoves, Lights, Outcome, other
from engines.errors import (EngineError, IllegalMoveError, InvalidMoveError, OptionError,
                            RecordError, TabletopError)
from engines.options import Option

__all__ = ["PASS", "PLAYERS", "Board", "EngineError", "IllegalMoveError", "InvalidMoveError",
           "LegalMoves", "Lights", "Option", "OptionError", "Outcome", "RecordError",
           "TabletopError", "other"]
