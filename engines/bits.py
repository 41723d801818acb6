"""Sets of small integers as Python ints, the bitboards every engine keeps.

Each game numbers its points (holes, squares, fields) and keeps sets of them as one int
with bit ``i`` for point ``i``; these two helpers go between such a set and its points,
so no engine writes the loop again. The innermost search loops still write ``1 << i`` and
``mask & -mask`` inline where a call per bit would cost measurable speed.
"""

from __future__ import annotations

from collections.abc import Iterable


def indices(mask: int) -> list[int]:
    """The points (bit indices) set in ``mask``, lowest first."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def mask_of(points: Iterable[int]) -> int:
    """The set of ``points`` (bit indices) as one int."""
    mask = 0
    for point in points:
        mask |= 1 << point
    return mask


__all__ = ["indices", "mask_of"]
