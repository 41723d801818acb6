"""``tabletop selftest``: check a freshly built board, LED by LED and hole by hole.

The lamp test lights every LED in turn (a dead LED or a break in the chain shows where
the light stops), then all of them at once at the capped brightness, the worst case for
the power supply. The sensor test lights one hole at a time and waits for a piece there:
a hole that never closes, one that stays closed, and a piece seen in another hole (two
wires swapped) are reported by name.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from app.hardware.leds import LedStrip, frame_ma, open_strip
from app.hardware.profile import Profile, ProfileError, load_profile
from app.hardware.sensors import SensorSource, open_source
from app.table.scene import single_scene

WHITE = (255, 255, 255)
BLACK = (0, 0, 0)


@dataclass
class SensorReport:
    """Holes that never closed, holes closed with no piece, and crossed wires
    (the lit hole -> the hole whose sensor answered)."""

    never_closed: list[str] = field(default_factory=list)
    stuck_closed: list[str] = field(default_factory=list)
    crossed: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not (self.never_closed or self.stuck_closed or self.crossed)


class SelfTest:
    def __init__(self, profile: Profile, strip: LedStrip, source: SensorSource | None = None,
                 *, say: Callable[[str], None] = print,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.profile, self.strip, self.source = profile, strip, source
        self.say, self.clock, self.sleep = say, clock, sleep

    def lamps(self, step_s: float = 0.2, hold_s: float = 3.0) -> None:
        """Each LED white in turn, then all white, dimmed by the strip to its cap."""
        count = self.strip.count
        for index in range(count):
            self.strip.show([WHITE if i == index else BLACK for i in range(count)])
            self.sleep(step_s)
        everything = [WHITE] * count
        asked = frame_ma([(int(c * self.strip.brightness),) * 3 for c, _, _ in everything])
        self.strip.show(everything)
        self.say(f"all {count} LEDs white at brightness {self.strip.brightness:g}: "
                 f"{asked:.0f} mA, capped to {min(asked, self.strip.max_ma):.0f} mA")
        self.sleep(hold_s)
        self.strip.off()

    def sensors(self, timeout_s: float = 20.0, poll_s: float = 0.01) -> SensorReport:
        """Light one hole at a time; wait for a piece there and for it to be lifted."""
        report = SensorReport()
        closed = {hole for hole, on in self.source.read().items() if on}
        report.stuck_closed.extend(sorted(closed))
        for hole in self.profile.holes:
            if hole in closed:
                continue
            self.strip.show(single_scene([hole], "fill").frame(self.profile))
            answered = self._wait(lambda scan: {h for h, on in scan.items() if on} - closed,
                                  timeout_s, poll_s)
            if not answered:
                report.never_closed.append(hole)
                continue
            if hole not in answered:
                report.crossed[hole] = sorted(answered)[0]
            self.strip.show(single_scene([hole], "empty").frame(self.profile))
            if self._wait(lambda scan: answered - {h for h, on in scan.items() if on},
                          timeout_s, poll_s) is None:
                report.stuck_closed.extend(sorted(answered))
                closed |= answered
        self.strip.off()
        for label, holes in (("never closed", report.never_closed),
                             ("stuck closed", report.stuck_closed)):
            if holes:
                self.say(f"{label}: {' '.join(holes)}")
        for lit, seen in report.crossed.items():
            self.say(f"crossed: a piece on {lit} was seen on {seen}")
        self.say("all sensors answered" if report.ok else "sensor test failed")
        return report

    def _wait(self, found: Callable, timeout_s: float, poll_s: float):
        """Poll until ``found(scan)`` is non-empty; that set, or ``None`` after the timeout."""
        deadline = self.clock() + timeout_s
        while self.clock() < deadline:
            answer = found(self.source.read())
            if answer:
                return answer
            self.sleep(poll_s)
        return None


def register(subparsers) -> None:
    parser = subparsers.add_parser("selftest", help="test every LED and every sensor")
    parser.add_argument("--profile", required=True,
                        help="board profile name (shipped) or .toml path")
    parser.add_argument("--only", choices=("lamps", "sensors"), help="run one test")
    parser.add_argument("--step", type=float, default=0.2, help="seconds per LED")
    parser.add_argument("--timeout", type=float, default=20.0,
                        help="seconds to wait for a piece in each hole")
    parser.set_defaults(run=run)


def run(args) -> int:
    try:
        profile = load_profile(args.profile)
        strip = open_strip(profile)
    except ProfileError as error:
        print(f"tabletop selftest: {error}", file=sys.stderr)
        return 2
    source = None
    try:
        if args.only != "lamps":
            source = open_source(profile)
        test = SelfTest(profile, strip, source)
        if args.only != "sensors":
            test.lamps(args.step)
        if source is not None:
            print("clear the board, then put a piece in each lit hole and lift it again")
            return 0 if test.sensors(args.timeout).ok else 1
        return 0
    except ProfileError as error:
        print(f"tabletop selftest: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    finally:
        if source is not None:
            source.close()
        strip.close()
