"""The settle stage: judge the board only once it has been quiet for a while.

A marble rolls over a hole before it stops, a Blokus piece goes down one edge first, a
hand reaches across the board: none of these is a move. Waiting until no debounced hole
has changed for ``quiet`` seconds (and none is about to) turns them into one reading.
"""

from __future__ import annotations


class Settle:
    """Tracks the last change; says when the board has been quiet for ``quiet`` seconds."""

    def __init__(self, quiet: float) -> None:
        if quiet < 0:
            raise ValueError(f"settle time must not be negative, not {quiet}")
        self.quiet = quiet
        self._last: float | None = None
        self._dirty = True  # nothing judged yet: the first quiet moment is worth a look

    def start(self, t: float) -> None:
        """The clock's first reading: the quiet period counts from here at the earliest."""
        if self._last is None:
            self._last = t

    def changed(self, t: float) -> None:
        """A hole's debounced state changed; its raw reading took that value at ``t``."""
        self._last = t if self._last is None else max(self._last, t)
        self._dirty = True

    @property
    def due(self) -> float | None:
        """When the board will count as settled, if nothing changes before then."""
        if not self._dirty or self._last is None:
            return None
        return self._last + self.quiet

    def settled(self, t: float) -> bool:
        """True once per quiet period: the board has not changed for ``quiet`` seconds."""
        due = self.due
        if due is None or t < due:
            return False
        self._dirty = False
        return True
