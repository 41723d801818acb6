"""Akron: balls stacked on a square pyramid, joined in visible chains.

The package joins the board to its record format and its search policy: both modules
read the board's moves, so ``board.py`` cannot import them without a cycle; importing
any part of the package runs this and sets :attr:`AkronBoard.record_format` and
:attr:`AkronBoard.search_policy` once they are all loaded.
"""

from engines.akron import record
from engines.akron.board import AkronBoard
from engines.akron.policy import AkronPolicy
from engines.core import RecordFormat

AkronBoard.record_format = RecordFormat(write=record.write, read=record.read_board,
                                        read_record=record.read)
AkronBoard.search_policy = AkronPolicy()
