"""Kulami: panels of fields, marbles placed in the row or column of the last one.

The package joins the board to its record format: ``record.py`` builds boards, so
``board.py`` cannot import it without a cycle; importing any part of the package runs
this and sets :attr:`KulamiBoard.record_format` once both modules are loaded.
"""

from engines.core import RecordFormat
from engines.kulami import record
from engines.kulami.board import KulamiBoard

KulamiBoard.record_format = RecordFormat(write=record.write, read=record.read_board,
                                         read_record=record.read)
