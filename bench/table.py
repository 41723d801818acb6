"""The table loop at rest: how much of one core a board costs while nobody moves.

Runs the real loop (simulated sensors scanned every 10 ms, the session, the LED strip,
and the status screen on SDL's dummy driver) in real time for a few seconds, idle and
then with the engine thinking, and prints the CPU time it used as a share of one core.
The target is under 2% idle. ``python -m bench.table [SECONDS]``.
"""

from __future__ import annotations

import os
import sys
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from app.games import GAMES, new_game  # noqa: E402
from app.hardware.leds import SimulatedStrip  # noqa: E402
from app.hardware.profile import load_profile  # noqa: E402
from app.hardware.sensors import SimulatedSensors  # noqa: E402
from app.screen.console import Console  # noqa: E402
from app.screen.window import StatusWindow  # noqa: E402
from app.table.loop import Table  # noqa: E402
from app.table.session import Session  # noqa: E402

PERIOD = 0.01


def idle_share(game: str, seconds: float, screen: bool) -> tuple[float, int]:
    """CPU seconds per wall second of the loop at rest, and the turns it made."""
    profile = load_profile(f"{game}-sim")
    session = Session(new_game(game), seats={"b": "person", "w": "person"})
    window = None
    if screen:
        pygame.display.init()
        pygame.font.init()
        window = StatusWindow(pygame.display.set_mode((800, 480)),
                              Console(session, tuple(GAMES)))
    table = Table(session, profile, SimulatedStrip(profile.led_count),
                  SimulatedSensors(profile.holes), screen=window)
    table.turn(time.monotonic())  # the first picture is not "idle"
    turns = 0
    wall, cpu = time.monotonic(), time.process_time()
    while time.monotonic() - wall < seconds:
        table.turn(time.monotonic())
        turns += 1
        time.sleep(PERIOD)
    return (time.process_time() - cpu) / (time.monotonic() - wall), turns


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    print(f"idle table loop, {PERIOD * 1000:.0f} ms period, {seconds:g} s each "
          f"(share of one core):")
    for game in GAMES:
        for screen in (False, True):
            share, turns = idle_share(game, seconds, screen)
            where = "with the status screen" if screen else "headless"
            print(f"  {game:7} {where:23} {share * 100:5.2f}%  ({turns / seconds:.0f} "
                  f"turns/s)")


if __name__ == "__main__":
    main()
