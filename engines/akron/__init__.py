"""Akron: balls stacked on a square pyramid, joined in visible chains.

The package joins the board to its record format: ``record.py`` builds boards, so
``board.py`` cannot import it without a cycle; importing any part of the package runs
this and sets :attr:`AkronBoard.record_format` once both modules are loaded.
"""

from engines.akron import record
from engines.akron.board import AkronBoard
from engines.core import RecordFormat

AkronBoard.record_format = RecordFormat(write=record.write, read=record.read_board,
                                        read_record=record.read)
