"""ConHex: gems in holes claim cells; a chain of own cells between the own sides wins.

The package joins the board to its record format: ``record.py`` builds boards, so
``board.py`` cannot import it without a cycle; importing any part of the package runs
this and sets :attr:`ConHexBoard.record_format` once both modules are loaded.
"""

from engines.conhex import record
from engines.conhex.board import ConHexBoard
from engines.core import RecordFormat

ConHexBoard.record_format = RecordFormat(write=record.write, read=record.read_board,
                                         read_record=record.read)
