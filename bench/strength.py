"""Playing strength of the engine's levels: matches between levels and against a random
player for every registered game, win rates with 95% confidence intervals, and the time
per move at each level; for Blokus Duo, matches against Pentobi's GTP engine at its
lowest levels when ``pentobi-gtp`` is on the PATH.

Run from the repository:
``.venv/bin/python -m bench.strength [GAME ...] [--games N] [--pairs 4:1 max:3=80 ...]``.
Every game of ``app.games.GAMES`` by default, so a game joins the table once registered,
and every pair of :data:`PAIRS` unless ``--pairs`` names some (``max`` for the strongest).
Each match plays ``--games`` games a pair (half with each colour), or the number a pair
names after ``=``; a draw counts half a win. The README's table comes from
``nice .venv/bin/python -m bench.strength GAME --games 40`` for each game.
The interval is Wilson's score interval, right for win rates near 0 or 1 where the
normal approximation is not. Level 1 plays at random: matches against it are the
matches against a random player. Times are wall-clock seconds per move on this
machine, for the searching player's moves only; a Pi 4 runs the engine about five times
slower, so multiply by 5 for its figure (the levels are budgets of playouts, so their
strength is the same there; bench/pace.py says what each level costs on a Pi).
"""

from __future__ import annotations

import argparse
import math
import random
import shutil
import statistics
import subprocess
import time
from collections import defaultdict

from app.games import GAMES, new_game
from engines.akron import compiled as akron_compiled
from engines.conhex import compiled as conhex_compiled
from engines.kulami import compiled as kulami_compiled
from engines.players import LEVELS, MAX_LEVEL, choose_move, level_argument

#: Level pairs (stronger, weaker) each game is measured on: each level against the one
#: below, and every level against random play (level 1).
PAIRS = tuple((level, level - 1) for level in LEVELS[1:]) + tuple(
    (level, LEVELS[0]) for level in LEVELS[2:])
#: Pentobi's levels the strongest level meets in Blokus Duo.
PENTOBI_LEVELS = (1, 2, 3)
#: How much slower a Pi 4 runs the engine than this machine (bench/pace.py's estimate,
#: until a real Pi measures it).
PI_FACTOR = 5


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's 95% score interval for a win rate of ``wins`` out of ``games``."""
    if not games:
        return 0.0, 1.0
    rate = wins / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / (
        1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


class EnginePlayer:
    """One of our levels; keeps the time of each move it makes."""

    def __init__(self, level: int, seed: int, times: list[float]) -> None:
        self.level, self.rng, self.times = level, random.Random(seed), times
        self.name = "max" if level == MAX_LEVEL else f"level {level}"

    def start(self, board) -> None:
        pass

    def move(self, board):
        started = time.perf_counter()
        move = choose_move(board, self.level, self.rng)
        self.times.append(time.perf_counter() - started)
        return move

    def seen(self, board, move) -> None:
        pass


#: The games' compiled cores that ``--weaker-in-python`` turns off for the weaker
#: player's moves (each has ``enabled()`` and ``use(bool)``).
CORES = (kulami_compiled, akron_compiled, conhex_compiled)


class PythonPlayer(EnginePlayer):
    """One of our levels played by the pure-Python engines, today's engine: every compiled
    core of :data:`CORES` off for its moves (and its level's budget the Python one)."""

    def __init__(self, level: int, seed: int, times: list[float]) -> None:
        super().__init__(level, seed, times)
        self.name += " (python)"

    def move(self, board):
        before = [core.enabled() for core in CORES]
        for core in CORES:
            core.use(False)
        try:
            return super().move(board)
        finally:
            for core, was in zip(CORES, before):
                core.use(was)


class PentobiPlayer:
    """Pentobi's GTP engine at ``level``, kept in step with the game move by move."""

    def __init__(self, binary: str, level: int, seed: int) -> None:
        self.name = f"Pentobi {level}"
        self.process = subprocess.Popen(
            [binary, "--game", "duo", "--nobook", "--quiet", "--level", str(level),
             "--seed", str(seed)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, command: str) -> str:
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line.strip() and lines:
                break
            if line.strip():
                lines.append(line.strip())
        answer = " ".join(lines)
        if not answer.startswith("="):
            raise RuntimeError(f"pentobi-gtp refused {command!r}: {answer}")
        return answer[1:].strip()

    def start(self, board) -> None:
        self.ask("clear_board")

    def move(self, board):
        return board.parse_move(self.ask(f"genmove {board.turn}"))

    def seen(self, board, move) -> None:
        """Tell Pentobi a move made by the other side (``board`` before it)."""
        self.ask(f"play {board.turn} {board.move_text(move)}")

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=10)


#: Actions after which a game is a draw (an Akron game may otherwise wander for ever).
LIMIT = 300


def play(game: str, players: dict, options: dict) -> str | None:
    """One game between ``players`` by colour; the winner's colour or ``None`` (a draw,
    or :data:`LIMIT` actions played)."""
    board = new_game(game, **options)
    for player in players.values():
        player.start(board)
    while not board.is_game_over() and len(board.move_stack) < LIMIT:
        mover = players[board.turn]
        move = mover.move(board)
        for other in players.values():
            if other is not mover:
                other.seen(board, move)
        board.push(move)
    outcome = board.outcome()
    return outcome.winner if outcome is not None else None


def match(game: str, strong, weak, games: int, options: dict | None = None) -> float:
    """``strong``'s score (wins plus half the draws) over ``games`` games, colours
    alternating."""
    score = 0.0
    for number in range(games):
        players = {"b": strong, "w": weak} if number % 2 == 0 else {"b": weak, "w": strong}
        winner = play(game, players, options or {})
        colour = "b" if players["b"] is strong else "w"
        score += 1.0 if winner == colour else 0.5 if winner is None else 0.0
    return score


def report(label: str, score: float, games: int) -> None:
    low, high = wilson(score, games)
    print(f"  {label:<22} {score / games:>6.0%}  [{low:>4.0%}, {high:>4.0%}]  "
          f"({score:g} of {games})", flush=True)


def pair(text: str) -> tuple[int, int] | tuple[int, int, int]:
    """An argparse type: ``STRONG:WEAK`` levels, ``max`` allowed, and after ``=`` the
    games of that match (``max:3=80``) where it plays other than ``--games``."""
    levels, equals, count = text.partition("=")
    strong, sep, weak = levels.partition(":")
    if not sep:
        raise argparse.ArgumentTypeError(
            f"expected two levels as STRONG:WEAK[=GAMES], not {text!r}")
    if not equals:
        return level_argument(strong), level_argument(weak)
    if not count.isdigit() or not int(count):
        raise argparse.ArgumentTypeError(f"the games of {levels} are a number, not {count!r}")
    return level_argument(strong), level_argument(weak), int(count)


def game_name(text: str) -> str:
    """An argparse type: a registered game (argparse's ``choices`` would refuse the
    empty list that means every game)."""
    if text not in GAMES:
        raise argparse.ArgumentTypeError(f"no game {text!r}: {', '.join(GAMES)}")
    return text


def bench_game(game: str, games: int, seed: int, pairs=PAIRS,
               weaker_in_python: bool = False) -> None:
    print(f"{game}: win rate of the first named, 95% interval (Wilson)", flush=True)
    times: dict[int, list[float]] = defaultdict(list)
    python_times: dict[int, list[float]] = defaultdict(list)
    for strong, weak, *count in pairs:
        played = count[0] if count else games
        first = EnginePlayer(strong, seed + strong, times[strong])
        second = (PythonPlayer(weak, seed + 10 + weak, python_times[weak]) if weaker_in_python
                  else EnginePlayer(weak, seed + 10 + weak, times[weak]))
        report(f"{first.name} vs {second.name}", match(game, first, second, played), played)
    if game == "blokus-duo":
        bench_pentobi(games, seed, times)
    print(f"  {'time a move (s)':<22} {'mean':>6} {'median':>7} {'max':>6} "
          f"{'Pi 4 max (x' + str(PI_FACTOR) + ')':>14}")
    for level in LEVELS:
        spent = times[level]
        if spent:
            print(f"  {'level ' + str(level) + (' (max)' if level == MAX_LEVEL else ''):<22}"
                  f" {statistics.mean(spent):>6.3f} {statistics.median(spent):>7.3f}"
                  f" {max(spent):>6.2f} {max(spent) * PI_FACTOR:>14.1f}")
    for level, spent in python_times.items():
        print(f"  {'level ' + str(level) + ' (python)':<22} {statistics.mean(spent):>6.3f}"
              f" {statistics.median(spent):>7.3f} {max(spent):>6.2f}"
              f" {max(spent) * PI_FACTOR:>14.1f}")
    print(flush=True)


def bench_pentobi(games: int, seed: int, times: dict) -> None:
    binary = shutil.which("pentobi-gtp")
    if binary is None:
        print("  Pentobi: pentobi-gtp is not on the PATH, those matches are skipped",
              flush=True)
        return
    for level in PENTOBI_LEVELS:
        pentobi = PentobiPlayer(binary, level, seed)
        try:
            ours = EnginePlayer(MAX_LEVEL, seed, times[MAX_LEVEL])
            report(f"max vs {pentobi.name}",
                   match("blokus-duo", ours, pentobi, games, {"start": "fixed"}), games)
        finally:
            pentobi.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", metavar="GAME", type=game_name,
                        help=f"games to measure (default: all, {', '.join(GAMES)})")
    parser.add_argument("--games", dest="count", type=int, default=40,
                        help="games per match, half with each colour (default: 40; 2 "
                             "for a quick look)")
    parser.add_argument("--pairs", type=pair, nargs="+", default=PAIRS, metavar="S:W[=N]",
                        help="the matches, as levels STRONG:WEAK, each with its own "
                             "number of games after = if given (default: each level "
                             "against the one below and against level 1)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the players")
    parser.add_argument("--weaker-in-python", action="store_true",
                        help="the second level of each pair plays in pure Python (today's "
                             "engine), the first through the compiled cores: --pairs max:max "
                             "--weaker-in-python is the compiled strongest against Python's")
    args = parser.parse_args(argv)
    for game in args.games or list(GAMES):
        bench_game(game, args.count, args.seed, args.pairs, args.weaker_in_python)


if __name__ == "__main__":
    main()
