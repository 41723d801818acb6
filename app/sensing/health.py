"""Sensor health: which holes' sensors are not to be believed just now.

A hand changes a hole a few times per move (a placement, a hesitant one, a lift). A
failing reed switch or a loose wire flips it on and off for as long as it is left, and a
stuck sensor reads a piece where the game allows none. Either would hold the whole
board: a chattering hole keeps the settle stage from ever seeing a quiet board, a stuck
one makes every later move look like two pieces. So such a hole is quarantined: the
pipeline judges the board without it (as the game says it should be), the session names
it on the screen and the LEDs, and the game goes on. A chattering hole rejoins once its
raw reading has been quiet for ``rejoin`` seconds; a stuck one once it reads what the
game says. Times come from the caller, as everywhere in the pipeline.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable

#: A hole chatters when its debounced state changes this often within CHATTER_WINDOW_S.
#: The most a hand makes is a hesitant placement: down and up three times, then down,
#: seven changes in about two seconds (app/sensing/script.py acts it out).
CHATTER_CHANGES = 10
CHATTER_WINDOW_S = 3.0
#: A chattering hole rejoins after its raw reading has not changed for this long.
REJOIN_S = 5.0

CHATTER, STUCK = "chatter", "stuck"


class Health:
    """Counts each hole's changes and keeps the quarantined holes with their problem."""

    def __init__(self, *, changes: int = CHATTER_CHANGES, window: float = CHATTER_WINDOW_S,
                 rejoin: float = REJOIN_S) -> None:
        self.changes, self.window, self.rejoin = changes, window, rejoin
        #: Quarantined hole -> its problem (CHATTER or STUCK).
        self.quarantined: dict[str, str] = {}
        self._recent: dict[str, deque[float]] = {}
        self._last_raw: dict[str, float] = {}

    def raw(self, hole: str, t: float) -> None:
        """A raw reading of ``hole`` at ``t``: a chattering hole is not quiet yet."""
        self._last_raw[hole] = t

    def changed(self, hole: str, t: float) -> bool:
        """A debounced change of ``hole`` at ``t``; true when it now counts as chatter
        (and is quarantined for it)."""
        recent = self._recent.setdefault(hole, deque())
        recent.append(t)
        # As a difference, not ``recent[0] <= t - window``: at a time so large that
        # ``t - window == t`` that would drop the change just added too.
        while recent and t - recent[0] >= self.window:
            recent.popleft()
        if hole in self.quarantined or len(recent) < self.changes:
            return False
        self.quarantined[hole] = CHATTER
        recent.clear()
        return True

    def stuck(self, hole: str) -> None:
        """``hole`` reads a piece the game allows nowhere near: believe it no more."""
        self.quarantined[hole] = STUCK

    def rejoining(self, t: float, as_the_game_says: Callable[[str], bool]) -> list[str]:
        """The quarantined holes that behave again at ``t``, taken out of quarantine."""
        back = sorted(hole for hole, problem in self.quarantined.items()
                      if (problem == CHATTER and t >= self._quiet_at(hole))
                      or (problem == STUCK and as_the_game_says(hole)))
        for hole in back:
            del self.quarantined[hole]
        return back

    @property
    def deadline(self) -> float | None:
        """When the next chattering hole will have been quiet long enough to rejoin."""
        return min((self._quiet_at(hole) for hole, problem in self.quarantined.items()
                    if problem == CHATTER), default=None)

    def _quiet_at(self, hole: str) -> float:
        return self._last_raw.get(hole, -math.inf) + self.rejoin
