"""Blokus Duo: polyominoes placed corner to corner on a 14x14 board.

The package joins the board to its record format: ``record.py`` builds boards, so
``board.py`` cannot import it without a cycle; importing any part of the package runs
this and sets :attr:`BlokusDuoBoard.record_format` once both modules are loaded.
"""

from engines.blokus_duo import record
from engines.blokus_duo.board import BlokusDuoBoard
from engines.core import RecordFormat

BlokusDuoBoard.record_format = RecordFormat(write=record.write, read=record.read_board,
                                            read_record=record.read)
