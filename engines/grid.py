"""Where a hole sits on its board's grid, read off its name.

Every game here names a hole by its column letter and row number, as a chess board does
(``d4``; Akron adds its level in front, ``1c3``), so the name alone places the hole: the
terminal's drawing, the setup scene's colouring and the screen's move lists all read it
here, in one way, instead of each parsing names of its own.
"""

from __future__ import annotations

import re

#: An optional level digit (Akron), the column letter, the row number.
_NAME = re.compile(r"(\d?)([a-z])(\d+)")


def column_row(name: str) -> tuple[int, int] | None:
    """``(column, row)`` of a hole: ``a`` is column 0, the bottom row is row 1 (``d4``
    is ``(3, 4)``; Akron's ``1c3`` is ``(2, 3)``, its level left out). ``None`` for a
    name that is not a place on a grid (ConHex's ``swap``)."""
    match = _NAME.fullmatch(name)
    if match is None:
        return None
    return ord(match[2]) - ord("a"), int(match[3])


def level(name: str) -> int:
    """The level of a place that names one (Akron's ``2d4`` is on level 2); a hole of a
    flat board, or a name that is no place, is level 1."""
    match = _NAME.fullmatch(name)
    return int(match[1]) if match and match[1] else 1
