"""Per-hole debounce: a hole changes state only once its raw reading has held steady.

Contact bounce, electrical noise and shadows make a sensor flip for a few milliseconds;
a real piece stays. Times are passed in, never read from a clock, so the debounce is
exact and testable. gpiozero's ``bounce_time`` is not used: its mock pins ignore it.
"""

from __future__ import annotations

from dataclasses import dataclass

#: A hole's state: ``None`` when empty, else the colour seen (``""`` when colour-blind).
State = str | None
EMPTY: State = None


@dataclass(frozen=True)
class Change:
    """A hole's debounced state changed; ``since`` is when the raw reading took that value."""

    hole: str
    state: State
    since: float


class Debouncer:
    """Accepts a hole's new reading after it has held for ``hold`` seconds."""

    def __init__(self, hold: float) -> None:
        if hold < 0:
            raise ValueError(f"debounce time must not be negative, not {hold}")
        self.hold = hold
        self._stable: dict[str, State] = {}
        self._pending: dict[str, tuple[State, float]] = {}

    @property
    def state(self) -> dict[str, str]:
        """Debounced occupied holes -> colour (``""`` when colour-blind)."""
        return {hole: state for hole, state in self._stable.items() if state is not EMPTY}

    @property
    def pending(self) -> bool:
        """Whether some hole reads differently from its debounced state just now."""
        return bool(self._pending)

    @property
    def pending_holes(self) -> frozenset[str]:
        """The holes that read differently from their debounced state just now."""
        return frozenset(self._pending)

    @property
    def deadline(self) -> float | None:
        """The earliest time a pending reading would be accepted."""
        return min((since + self.hold for _, since in self._pending.values()), default=None)

    def feed(self, hole: str, state: State, t: float) -> list[Change]:
        """A raw reading at time ``t``; returns the changes accepted up to ``t``."""
        changes = self.tick(t)
        if state == self._stable.get(hole, EMPTY):
            self._pending.pop(hole, None)
        elif hole not in self._pending or self._pending[hole][0] != state:
            self._pending[hole] = (state, t)
        return changes + self.tick(t)

    def tick(self, t: float) -> list[Change]:
        """Accept every pending reading that has held for ``hold`` seconds by ``t``."""
        due = [(hole, state, since) for hole, (state, since) in self._pending.items()
               if since + self.hold <= t]
        for hole, state, _ in due:
            del self._pending[hole]
            self._stable[hole] = state
        return [Change(hole, state, since) for hole, state, since in sorted(
            due, key=lambda d: d[2])]
