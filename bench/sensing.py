"""How fast the sensing pipeline answers, and what a full scan costs, as a table.

Run from the repository: ``.venv/bin/python -m bench.sensing``. Times are CPU work only:
the settle time (SETTLE_S) the pipeline waits on purpose comes on top of "settled ->
decision".
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import replace

from gpiozero.pins.mock import MockFactory

from app.hardware.leds import SimulatedStrip
from app.hardware.profile import load_profile
from app.hardware.sensors import MatrixScanner, SimulatedSensors
from app.games import new_game
from app.sensing.events import Moved
from app.sensing.pipeline import SETTLE_S, Pipeline
from app.sensing.script import Hand
from app.sensing.reading import Reading
from app.table.sensorlog import Header
from app.table.replay import replay
from app.table.roles import hole_roles
from bench.polyominoes import Placement, PolyominoBoard
from engines.core import Board
from engines.players import choose_move

#: Bench-only colours per role, standing in for the session's scene.
PALETTE = {"legal": (0, 40, 0), "off_limits": (40, 0, 0), "last": (80, 80, 80),
           "owned_b": (60, 0, 30), "owned_w": (0, 30, 60), "fill": (0, 0, 120),
           "empty": (120, 60, 0)}


def timed(action, repeat: int) -> float:
    """Median seconds of ``action()`` over ``repeat`` runs."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def kulami_after(moves: int, seed: int = 7):
    board, rng = new_game("kulami", layout="square-1"), random.Random(seed)
    for _ in range(moves):
        board.push(rng.choice(list(board.legal_moves)))
    return board


def decision(board) -> float:
    """A placement has settled: the tick that judges it and reports the move."""
    move = next(iter(board.legal_moves))
    hole = board.move_text(move)

    def run():
        pipeline = Pipeline(board)
        for occupied in board.sensor_view():
            pipeline.feed(occupied, True, 0.0)
        pipeline.feed(hole, True, 1.0)
        start = time.perf_counter()
        events = pipeline.tick(1.0 + SETTLE_S)
        run.elapsed = time.perf_counter() - start
        assert isinstance(events[-1], Moved), events

    samples = []
    for _ in range(30):
        run()
        samples.append(run.elapsed)
    return statistics.median(samples)


def akron_after(moves: int, seed: int = 7):
    """An Akron game of ``moves`` random moves whose player to move has a move above the
    board (one no sensor sees): the first such game from ``seed`` on."""
    while True:
        board, rng = new_game("akron"), random.Random(seed)
        while len(board.move_stack) < moves and not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
        if not board.is_game_over() and any(
                "-" in str(m) and all(p[0] != "1" for p in str(m).split("-"))
                for m in board.legal_moves):
            return board
        seed += 1


def akron_decision(board) -> tuple[float, str]:
    """An Akron ball added to a hole has settled: the tick that judges it (a move, or
    the candidates when a ball from above could have come there too)."""
    hole = next(board.move_text(m) for m in board.legal_moves if "-" not in str(m))

    def run():
        pipeline = Pipeline(board, colour_sensing=True)
        for occupied, colour in board.sensor_view().items():
            pipeline.feed(occupied, True, 0.0, colour)
        pipeline.feed(hole, True, 1.0, board.turn)
        start = time.perf_counter()
        events = pipeline.tick(1.0 + SETTLE_S)
        run.elapsed, run.event = time.perf_counter() - start, type(events[-1]).__name__
        assert run.event in ("Moved", "Candidates"), events

    samples = []
    for _ in range(30):
        run()
        samples.append(run.elapsed)
    return statistics.median(samples), run.event


def akron_unseen(board) -> tuple[float, int]:
    """Confirm pressed with nothing to confirm: every move the sensors cannot see."""
    def run():
        run.found = Pipeline(board, colour_sensing=True).unseen_moves()
    seconds = timed(run, 10)
    return seconds, len(run.found)


def frame(board, profile, strip) -> float:
    """From a changed game to an LED frame: roles, colours in chain order, the cap."""
    def run():
        colours = [(0, 0, 0)] * strip.count
        for hole, role in hole_roles(board).items():
            for index in profile.holes[hole].leds:
                colours[index] = PALETTE[role]
        strip.show(colours)
    return timed(run, 200)


def settled_to_frame(board: Board, profile, strip, repeat: int = 30) -> float:
    """A tromino has settled on a 196-hole board: the tick that judges it, the move
    played and the pipeline resynchronised, and the new LED frame shown."""
    move = Placement([(6, 6), (7, 6), (8, 6)])
    pipeline = Pipeline(board)
    for hole in board.sensor_view():
        pipeline.feed(hole, True, 0.0)
    pipeline.tick(SETTLE_S)
    samples = []
    for round_ in range(repeat):
        t = 10.0 * (round_ + 1)
        for hole in str(move).split(","):
            pipeline.feed(hole, True, t)
        start = time.perf_counter()
        events = pipeline.tick(t + SETTLE_S)
        assert events[-1] == Moved(move), events
        board.push(move)
        pipeline.resync(board)
        colours = [(0, 0, 0)] * strip.count
        for hole, role in hole_roles(board).items():
            for index in profile.holes[hole].leds:
                colours[index] = PALETTE[role]
        strip.show(colours)
        samples.append(time.perf_counter() - start)
        board.pop()
        for hole in str(move).split(","):
            pipeline.feed(hole, False, t + 1)
        pipeline.tick(t + 1 + SETTLE_S)
        pipeline.resync(board)
    return statistics.median(samples)


def two_at_once(board: Board, repeat: int = 10) -> tuple[float, str]:
    """Two trominoes put down within one settle time: no single move explains the board,
    so the pipeline looks for the pairs of moves that would (the costly unclear case).
    Returns the median time of the judging tick and what it decided."""
    pieces = [(6, 6), (7, 6), (8, 6)], [(2, 2), (2, 3), (2, 4)]
    holes = [str(Placement(cells)).split(",") for cells in pieces]
    samples, decided = [], ""
    for _ in range(repeat):
        pipeline = Pipeline(board)
        pipeline.tick(0.0)
        for hole in holes[0] + holes[1]:
            pipeline.feed(hole, True, 1.0)
        start = time.perf_counter()
        events = pipeline.tick(1.0 + SETTLE_S)
        samples.append(time.perf_counter() - start)
        decided = type(events[-1]).__name__
    return statistics.median(samples), decided


#: The noisy whole games the latency figures come from: each game's simulated board,
#: colour-blind Kulami (where a phantom move is likeliest) and colour-sensing ConHex.
LATENCY_GAMES = (("kulami", False), ("conhex", True))
LATENCY_SEEDS = range(6)
SETTLES = (0.25, 0.3, 0.35, 0.4, 0.5)


def noisy_game(game: str, colour: bool, seed: int) -> tuple[list[str], list[Reading]]:
    """A whole seeded game at level 1, acted out by the scripted hand with its noise."""
    profile = load_profile(f"{game}-sim")
    board, rng = new_game(game), random.Random(seed)
    moves, probe = [], board.copy()
    while not probe.is_game_over():
        moves.append(choose_move(probe, 1, rng))
        probe.push(moves[-1])
    hand = Hand(profile.holes, rng)
    hand.play(board, moves)
    readings = hand.readings if colour else [replace(r, colour=None) for r in hand.readings]
    return [board.move_text(m) for m in moves], readings


#: What a board says when it has misread a hand (a correct replay says none of these).
FALSE_ALARMS = ("out_of_sync", "not_legal", "correction", "candidates", "quarantined")


def latencies(settles=SETTLES) -> tuple[dict[float, tuple[int, int, int]], list[float],
                                        list[float]]:
    """Replays every noisy game at each settle time: phantom moves, missed moves and false
    alarms per settle time; and at SETTLE_S, from each piece coming to rest (its last raw
    change) to its first light and to its move being committed."""
    logs = [(game, colour, *noisy_game(game, colour, seed))
            for game, colour in LATENCY_GAMES for seed in LATENCY_SEEDS]
    errors, light, commit = {}, [], []
    for settle in settles:
        phantom = missed = alarms = 0
        for game, colour, played, readings in logs:
            records = list(replay(Header(game, {}, f"{game}-sim", colour), readings,
                                  settle=settle))
            moved = [r["move"] for r in records if r["event"] == "moved"]
            phantom += len(moved) - len(played) + sum(r["event"] == "takeback"
                                                      for r in records)
            missed += sum(1 for a, b in zip(played, moved) if a != b) + max(
                0, len(played) - len(moved))
            alarms += sum(r["event"] in FALSE_ALARMS for r in records)
            if settle == SETTLE_S:
                light_at, commit_at = _latency(readings, records)
                light += light_at
                commit += commit_at
        errors[settle] = (phantom, missed, alarms)
    return errors, light, commit


def _latency(readings: list[Reading], records: list[dict]) -> tuple[list[float], list[float]]:
    light, commit = [], []
    for record in records:
        if record["event"] != "moved" or record["move"] == "swap":
            continue
        hole, t = record["move"], record["t"]
        rest = max(r.t for r in readings if r.hole == hole and r.t <= t)
        lit = min(r["t"] for r in records if r["event"] == "seen" and hole in r["holes"]
                  and r["t"] >= rest)
        light.append(lit - rest)
        commit.append(t - rest)
    return light, commit


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


class EveryMoveBoard(PolyominoBoard):
    """The same game with the generic ``moves_sensed_at``: every legal move pushed."""

    moves_sensed_at = Board.moves_sensed_at


def matrix_scan(side: int) -> float:
    """One scan of a side x side matrix on mock pins (14x14 takes all 28 GPIO lines,
    which is why the Blokus profile scans on a Pico: this measures the Pi's CPU cost)."""
    pins = list(range(28 - 2 * side, 28))
    channels = {r * side + c: f"h{r}_{c}" for r in range(side) for c in range(side)}
    scanner = MatrixScanner(pins[:side], pins[side:], channels, settle_us=0,
                            pin_factory=MockFactory())
    seconds = timed(scanner.read, 200)
    scanner.close()
    return seconds


def pipeline_scan(holes: list[str]) -> float:
    """Feeding one unchanged full scan of every hole into the pipeline."""
    pipeline = Pipeline(kulami_after(0))
    clock = iter(range(10**9))

    def run():
        t = next(clock) * 0.01
        for hole in holes:
            pipeline.feed(hole, False, t)
        pipeline.tick(t)
    return timed(run, 200)


def main() -> None:
    profile = load_profile("kulami-sim")
    strip = SimulatedStrip(profile.led_count, max_ma=profile.max_ma)
    holes_196 = [f"{c}{r}" for r in range(1, 15) for c in "abcdefghijklmn"]
    rows = []
    profile_196 = load_profile("blokus-duo-sim")
    strip_196 = SimulatedStrip(profile_196.led_count, max_ma=profile_196.max_ma)
    for cls, how, repeat in ((PolyominoBoard, "moves sensed at one hole", 30),
                             (EveryMoveBoard, "every legal move pushed", 3)):
        board = cls()
        legal = board.legal_moves.count()
        rows.append((f"196 holes, {legal:,} legal moves: settled -> LED frame ({how})",
                     settled_to_frame(board, profile_196, strip_196, repeat)))
    seconds, decided = two_at_once(PolyominoBoard())
    rows.append((f"196 holes: two pieces down at once -> decision ({decided})", seconds))
    for moves in (0, 20, 40):
        board = kulami_after(moves)
        legal = len(board.legal_moves)
        rows.append((f"Kulami after {moves} moves ({legal} legal): settled -> decision",
                     decision(board)))
        rows.append((f"Kulami after {moves} moves: game -> LED frame (100 LEDs, capped)",
                     frame(board, profile, strip)))
    for moves in (20, 60):
        board = akron_after(moves)
        legal = len(board.legal_moves)
        seconds, event = akron_decision(board)
        rows.append((f"Akron after {moves} moves ({legal} legal): a ball added -> "
                     f"decision ({event})", seconds))
        seconds, unseen = akron_unseen(board)
        rows.append((f"Akron after {moves} moves: Confirm -> the {unseen} moves no sensor "
                     f"sees", seconds))
    sensors = SimulatedSensors(holes_196)
    rows.append(("196 holes: simulated source, one full scan", timed(sensors.read, 500)))
    rows.append(("196 holes: gpiozero matrix 14x14 (mock pins), one full scan",
                 matrix_scan(14)))
    rows.append(("100 holes: gpiozero matrix 10x10 (mock pins), one full scan",
                 matrix_scan(10)))
    rows.append(("196 holes: pipeline fed one unchanged full scan", pipeline_scan(holes_196)))
    width = max(len(name) for name, _ in rows)
    print(f"{'measure':<{width}}  {'median':>10}")
    print(f"{'-' * width}  {'-' * 10}")
    for name, seconds in rows:
        print(f"{name:<{width}}  {seconds * 1000:>7.3f} ms")
    print(f"\nOn top of these the pipeline waits SETTLE_S = {SETTLE_S} s of quiet on purpose.")

    errors, light, commit = latencies()
    games = len(LATENCY_GAMES) * len(LATENCY_SEEDS)
    print(f"\nNoisy whole games replayed ({games}: Kulami colour-blind, ConHex colour-sensing)")
    print(f"{'settle (s)':>10}  {'phantom moves':>13}  {'missed moves':>12}  "
          f"{'false alarms':>12}")
    for settle, (phantom, missed, alarms) in errors.items():
        mark = "  <- SETTLE_S" if settle == SETTLE_S else ""
        print(f"{settle:>10.2f}  {phantom:>13}  {missed:>12}  {alarms:>12}{mark}")
    print(f"\nFrom a piece at rest (its last raw change), over {len(light)} placements, "
          f"at SETTLE_S = {SETTLE_S} s:")
    for name, values in (("first light (seen)", light), ("move committed", commit)):
        print(f"  {name:<20} median {statistics.median(values) * 1000:5.0f} ms   "
              f"95th percentile {percentile(values, 0.95) * 1000:5.0f} ms")
    print("  (the table loop scans every 10 ms: add up to one scan period on a board)")


if __name__ == "__main__":
    main()
