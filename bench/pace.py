"""What each level costs at a Raspberry Pi's pace, and the strength a cut search keeps.

The levels are budgets of playouts, so a level plays the same wherever its search runs
to the end; what differs on a slower machine is the time it takes, and where a cap in
seconds stops the search first (:data:`engines.players.MOST_SECONDS`, or a game's own
``most_seconds`` scaled by :mod:`engines.pace`), the strength. For each game this prints
the seconds a move of level 3 and of the strongest level here: the processor's, mean
and worst, through the compiled cores where built (what a move costs on this machine
alone, however loaded it is), and the clock's worst; then the worst a Pi 4 and a Pi
Zero 2 W would take (:data:`SLOWER`: about five and twelve times slower until a real
Pi measures them), and whether the 8 s cap would cut there. Then what a cut costs: the
strongest level's search cut to a fifth and a twelfth of its budget (what a cap in
seconds does on those machines) against the full budget, colours alternating, with
Wilson's 95% interval.

Run from the repository: ``nice .venv/bin/python -m bench.pace [GAME ...] [--games N]
[--timed N] [--shares N ...]``; ``--games 0`` prints the times alone, ``--timed 0`` the
matches alone.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from app.games import GAMES
from bench.strength import EnginePlayer, game_name, match, play, report
from engines.players import MAX_LEVEL, MOST_SECONDS, judge, playouts
from engines.search import search

#: How many times slower than this machine each board's processor runs the engine
#: (single core; estimates until a real Pi measures them).
SLOWER = {"Pi 4": 5, "Pi Zero 2 W": 12}
#: The levels timed: level 3 and the strongest.
TIMED = (3, MAX_LEVEL)


class CutPlayer(EnginePlayer):
    """The strongest level's search with ``1 / share`` of its budget (``share`` 1: all of
    it), as a cap in seconds cuts it on a machine ``share`` times slower. No clock: the
    budget alone ends the search, so a match measures budgets, whatever else loads the
    machine."""

    def __init__(self, share: int, seed: int, times: list[float]) -> None:
        super().__init__(MAX_LEVEL, seed, times)
        self.share = share
        self.name = "max" if share == 1 else f"max / {share}"

    def move(self, board):
        started = time.perf_counter()
        budget = max(1, round(playouts(board, MAX_LEVEL) / self.share))
        move = search(board, self.rng, playouts=budget)
        self.times.append(time.perf_counter() - started)
        return move


class TimedPlayer(EnginePlayer):
    """A level as it plays (its caps in seconds included), keeping the processor's
    seconds of each move (``times``: what the move costs wherever it runs alone, however
    loaded this machine is), the clock's (``wall``), and how many moves a cap in seconds
    cut short of the level's budget."""

    def __init__(self, level: int, seed: int, times: list[float]) -> None:
        super().__init__(level, seed, times)
        self.wall, self.cut = [], 0

    def move(self, board):
        started, processor = time.perf_counter(), time.process_time()
        judgement = judge(board, self.level, self.rng)
        self.times.append(time.process_time() - processor)
        self.wall.append(time.perf_counter() - started)
        self.cut += not judgement.only and judgement.walks < judgement.budget
        return judgement.move


def time_levels(game: str, games: int, seed: int) -> list[TimedPlayer]:
    """Each level of :data:`TIMED` after ``games`` games against itself."""
    timed = []
    for level in TIMED:
        player = TimedPlayer(level, seed + level, [])
        for _ in range(games):
            play(game, {"b": player, "w": player}, {})
        timed.append(player)
    return timed


def print_times(timed: list[TimedPlayer]) -> None:
    """Processor seconds a move (mean, worst), the clock's worst and the moves a cap cut
    here, and the worst a move would take on each board of :data:`SLOWER`."""
    machines = "".join(f" {name + ' worst':>17}" for name in SLOWER)
    print(f"  {'cpu s a move':<13} {'mean':>6} {'worst':>6} {'wall worst':>10} "
          f"{'cut here':>8}{machines}  8 s cap cuts")
    for player in timed:
        worst = max(player.times)
        slower = "".join(f" {worst * factor:>17.1f}" for factor in SLOWER.values())
        capped = [name for name, factor in SLOWER.items()
                  if worst * factor > MOST_SECONDS]
        name = f"level {player.level}" + (" (max)" if player.level == MAX_LEVEL else "")
        print(f"  {name:<13} {statistics.mean(player.times):>6.3f} {worst:>6.2f} "
              f"{max(player.wall):>10.2f} {f'{player.cut}/{len(player.times)}':>8}"
              f"{slower}  {', '.join(capped) or 'nowhere'}", flush=True)


def bench_game(game: str, games: int, timed: int, seed: int,
               shares=tuple(SLOWER.values())) -> None:
    if timed:
        print(f"{game}: {timed} game(s) of each level against itself, timed", flush=True)
        print_times(time_levels(game, timed, seed))
    if not games:
        return
    print(f"{game}: the full strongest level against a cut one, {games} games each, "
          f"95% interval (Wilson)", flush=True)
    full: list[float] = []
    for share in shares:
        strong = CutPlayer(1, seed, full)
        weak = CutPlayer(share, seed + share, [])
        report(f"max vs {weak.name}", match(game, strong, weak, games), games)
    print(f"  the full budget in those games, no cap: {statistics.mean(full):.3f} s a "
          f"move, {max(full):.2f} at worst", flush=True)
    print(flush=True)


def share(text: str) -> int:
    """An argparse type: a share's divisor, a whole number of at least 1."""
    if not text.isdigit() or not int(text):
        raise argparse.ArgumentTypeError(f"a share is a whole number of at least 1, "
                                         f"not {text!r}")
    return int(text)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", metavar="GAME", type=game_name,
                        help=f"games to measure (default: all, {', '.join(GAMES)})")
    parser.add_argument("--games", dest="count", type=int, default=20,
                        help="games a match of the full strongest level against a cut "
                             "one, half with each colour (default: 20; 0: times only)")
    parser.add_argument("--timed", type=int, default=1,
                        help="games of each timed level against itself (default: 1)")
    parser.add_argument("--shares", type=share, nargs="+", default=tuple(SLOWER.values()),
                        metavar="N", help="the cut players' shares of the budget, as 1/N "
                                          "(default: 5 12, a Pi 4's and a Pi Zero 2 W's)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the players")
    args = parser.parse_args(argv)
    for game in args.games or list(GAMES):
        bench_game(game, args.count, args.timed, args.seed, args.shares)


if __name__ == "__main__":
    main()
