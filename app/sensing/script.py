"""A scripted hand: acts out moves the way people place pieces, with what sensors see.

Real placements are not clean edges. A marble bounces in its dimple, may roll over
another hole first; a hand hovering over the board makes optical sensors flicker; some
players put a piece down hesitantly, on and off again. The hand produces those raw
changes, seeded and timed, so that logs for tests, benchmarks and makers' demos are
reproducible. Timings are in seconds and describe people and marbles, not the pipeline.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable

from app.sensing.reading import Reading
from engines.core import Board

#: The disturbances :meth:`Hand.play` picks from for each placement (bounce is always on).
NOISES = ("clean", "flicker", "roll", "hover", "slow")


class Hand:
    """Builds a timeline of raw sensor changes over ``holes`` (every hole with a sensor)."""

    def __init__(self, holes: Iterable[str], rng: random.Random, *, start: float = 0.0) -> None:
        self.holes = tuple(holes)
        self.rng = rng
        self.t = start
        self.readings: list[Reading] = []
        self.occupied: set[str] = set()

    def pause(self, low: float, high: float | None = None) -> None:
        self.t += low if high is None else self.rng.uniform(low, high)

    def _set(self, hole: str, on: bool, colour: str | None = None) -> None:
        self.readings.append(Reading(round(self.t, 4), hole, on, colour=colour if on else None))

    def bounce(self, hole: str, on: bool, colour: str | None = None) -> None:
        """Contact bounce: a few millisecond flips before the sensor stays ``on``."""
        for _ in range(self.rng.randint(1, 3)):
            self._set(hole, on, colour)
            self.pause(0.001, 0.012)
            self._set(hole, not on, colour)
            self.pause(0.001, 0.012)
        self._set(hole, on, colour)

    def place(self, hole: str, colour: str | None = None) -> None:
        self.bounce(hole, True, colour)
        self.occupied.add(hole)

    def lift(self, hole: str) -> None:
        self.bounce(hole, False)
        self.occupied.discard(hole)

    def flicker(self, hole: str) -> None:
        """An electrical glitch or a shadow: a few pulses far shorter than any placement."""
        for _ in range(self.rng.randint(1, 3)):
            self._set(hole, True)
            self.pause(0.002, 0.02)
            self._set(hole, False)
            self.pause(0.01, 0.1)

    def roll(self, via: str, hole: str, colour: str | None = None) -> None:
        """The marble drops into ``via``, rocks there a moment, rolls on into ``hole``."""
        self.bounce(via, True, colour)
        self.pause(0.08, 0.25)
        self.bounce(via, False)
        self.pause(0.03, 0.12)
        self.place(hole, colour)

    def hover(self, holes: Iterable[str]) -> None:
        """A hand over the board for about a second: short pulses on the holes under it."""
        holes = tuple(holes)
        end = self.t + self.rng.uniform(0.3, 1.2)
        while self.t < end:
            hole = self.rng.choice(holes)
            self._set(hole, True)
            self.pause(0.005, 0.03)
            self._set(hole, False)
            self.pause(0.02, 0.15)

    def slow_place(self, hole: str, colour: str | None = None) -> None:
        """A hesitant placement: down, up, down again, with pauses under half a second."""
        for _ in range(self.rng.randint(1, 3)):
            self.bounce(hole, True, colour)
            self.pause(0.03, 0.15)
            self.bounce(hole, False)
            self.pause(0.05, 0.3)
        self.place(hole, colour)

    def empty_holes(self, avoid: Iterable[str] = ()) -> list[str]:
        busy = self.occupied | set(avoid)
        return [hole for hole in self.holes if hole not in busy]

    def play(self, board: Board, moves: Iterable[Hashable], *, think=(1.0, 3.0)) -> None:
        """Act out ``moves`` from ``board``'s position (the board is left after them),
        each placement with bounce and one disturbance picked at random from NOISES."""
        for move in moves:
            before = board.sensor_view()
            board.push(move)
            after = board.sensor_view()
            self.pause(*think)
            recoloured = {h for h in before.keys() & after.keys() if before[h] != after[h]}
            for hole in sorted(before.keys() - after.keys() | recoloured):
                self.lift(hole)
                self.pause(0.1, 0.4)
            for hole in sorted(h for h in after if before.get(h) != after[h]):
                self._place_noisily(hole, after[hole])
                self.pause(0.05, 0.2)

    def _place_noisily(self, hole: str, colour: str) -> None:
        noise = self.rng.choice(NOISES)
        spare = self.empty_holes(avoid=[hole])
        if noise == "flicker" and spare:
            self.flicker(self.rng.choice(spare))
        elif noise == "hover" and spare:
            self.hover(self.rng.sample(spare, min(3, len(spare))))
        if noise == "roll" and spare:
            self.roll(self.rng.choice(spare), hole, colour)
        elif noise == "slow":
            self.slow_place(hole, colour)
        else:
            self.place(hole, colour)
