"""The sensor scan while the engine thinks: in a thread of the table's process, and in
a process of its own.

A GPIO diode matrix is scanned a row at a time with a settle sleep after each row
(``MatrixScanner``, gpiozero's mock pins, the profiles' 20 us). A search in a thread
holds the interpreter's lock, and every settle sleep hands it over: the scan then waits
for the search to give it back. This scans a 10x10 matrix (Kulami's board) and a 14x14
one (Blokus Duo's size) every 10 ms, as the table loop does, first idle and then while
the engine searches at its strongest level on a real position of that game (searches
started again until the time is up; idle and thinking in turns of half a second, so
that other work on the machine weighs on both alike), with the old thread thinker and
with the process thinker the table now uses, and prints p50/p95/max of the scan's time.
The target: thinking p95 within 2 ms of idle p95. ``python -m bench.scan_thinking [SECONDS]``
(seconds of scanning for each row of the table, default 3).
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from app.games import new_game
from app.hardware.sensors import MatrixScanner
from app.table.engine_process import ProcessThinker
from app.table.thinker import Thinker
from engines.core import Board
from engines.players import GREEDY, MAX_LEVEL, choose_move

#: The table loop's period between scans (the configuration's ``poll_s``).
PERIOD_S = 0.01
#: The matrices: side, the game whose position the engine searches, moves into it.
MATRICES = ((10, "kulami", 12), (14, "blokus-duo", 8))
#: Idle and thinking are measured in turns of this long.
WINDOW_S = 0.5
#: The issue's target: thinking p95 at most this much above idle p95.
TARGET_MS = 2.0


def matrix(side: int) -> MatrixScanner:
    """A side x side diode matrix on mock pins, settling 20 us a row as the profiles do.
    gpiozero is imported here: the engine's worker process imports this module again
    (as a process started with spawn imports the main module) and needs no pins."""
    from gpiozero.pins.mock import MockFactory
    pins = list(range(28 - 2 * side, 28))
    channels = {r * side + c: f"h{r}_{c}" for r in range(side) for c in range(side)}
    return MatrixScanner(pins[:side], pins[side:], channels, settle_us=20,
                         pin_factory=MockFactory())


def game_position(game: str, moves: int) -> Board:
    """A real game: ``moves`` moves of the engine's greedy level against itself."""
    board, rng = new_game(game), random.Random(1)
    for _ in range(moves):
        board.push(choose_move(board, GREEDY, rng))
    return board


def scan_times(scanner: MatrixScanner, seconds: float, thinking=None) -> list[float]:
    """Milliseconds of each scan, one every :data:`PERIOD_S` for ``seconds``; with
    ``thinking`` (a function starting a search) while a search runs, a new one started
    whenever the last is done, and the last cancelled and ended at the close."""
    samples, thought = [], None
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if thinking is not None and (thought is None or thought.done):
            thought = thinking()
        start = time.perf_counter()
        scanner.read()
        samples.append((time.perf_counter() - start) * 1000)
        time.sleep(PERIOD_S)
    if thought is not None:
        thought.cancel()
        thought.wait(30)
    return samples


def idle_and_thinking(scanner: MatrixScanner, seconds: float,
                      thinking) -> tuple[list[float], list[float]]:
    """Scan times idle and thinking, ``seconds`` of each, taken in turns of
    :data:`WINDOW_S`: whatever else the machine is doing weighs on both alike."""
    idle, busy = [], []
    for _ in range(max(1, round(seconds / WINDOW_S))):
        idle += scan_times(scanner, WINDOW_S)
        busy += scan_times(scanner, WINDOW_S, thinking)
    return idle, busy


def figures(samples: list[float]) -> tuple[float, float, float]:
    """p50, p95 and max of ``samples``."""
    cuts = statistics.quantiles(samples, n=20, method="inclusive")
    return statistics.median(samples), cuts[18], max(samples)


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    print(f"matrix scan on mock pins, 20 us settle a row, one every {PERIOD_S * 1000:.0f} "
          f"ms for {seconds:g} s; engine at level {MAX_LEVEL} (strongest); "
          f"ms p50 / p95 / max:")
    print(f"  {'matrix':7} {'engine in':9} {'idle':>20} {'thinking':>22} {'scans':>11}  "
          f"p95 within {TARGET_MS:g} ms")
    for side, game, moves in MATRICES:
        board = game_position(game, moves)
        scanner = matrix(side)
        for name, thinker in (("a thread", Thinker()), ("a process", ProcessThinker())):
            thinker.think(board, 1, random.Random(1)).wait(30)  # a process: started
            seeds = iter(range(10**6))
            idle, busy = idle_and_thinking(scanner, seconds, lambda: thinker.think(
                board, MAX_LEVEL, random.Random(next(seeds))))
            thinker.close()
            (i50, i95, imax), (t50, t95, tmax) = figures(idle), figures(busy)
            met = "yes" if t95 - i95 <= TARGET_MS else "no"
            print(f"  {side}x{side:<4} {name:9} {i50:6.2f} / {i95:5.2f} / {imax:5.2f} "
                  f"{t50:6.2f} / {t95:6.2f} / {tmax:6.2f} {len(idle):5} {len(busy):5}  {met}")
        scanner.close()


if __name__ == "__main__":
    main()
