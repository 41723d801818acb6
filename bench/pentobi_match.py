"""Blokus Duo against Pentobi's GTP engine: our engine's score against ``pentobi-gtp`` at
the levels asked, with 95% intervals (Wilson) and our seconds a move (mean and worst).

Run from the repository, with Pentobi's ``pentobi-gtp`` (and, for the match the README
quotes, its ``twogtp``) built from Pentobi's source and on the PATH or named:

``.venv/bin/python -m bench.pentobi_match [--levels 1 2 3] [--games 40] [--ours level=max]``

Two ways to play the games:

- With ``twogtp`` found (``--twogtp PATH`` or on the PATH), the match is Pentobi's own
  tool: ``twogtp --black OURS --white PENTOBI --game duo --nugames N`` (it alternates
  the colours: our engine is ``b`` in the even games), and the figures come from its
  ``.dat`` file. Our engine runs behind this module's ``proxy``, which passes every line
  through untouched and notes the wall-clock time of each ``genmove``; the commands
  are printed, so the match can be repeated by hand. ``--keep DIR`` keeps twogtp's files
  (the games as Pentobi's SGF, ``.blksgf``).
- Otherwise (or with ``--direct``) this module drives ``pentobi-gtp`` itself and plays
  our engine in process, the colours alternating the same way; ``--jobs N`` plays N games
  at a time (a quick look; the times then share the processor).

A draw counts half a win. Times are wall-clock seconds for our ``genmove`` answers, and
the playouts a move are the search's walks (fewer than the level's budget where its
clock, ``most_seconds``, stopped it first: on a loaded machine the engine plays weaker).

``--policy KEY=VALUE`` sets an attribute of Blokus Duo's search policy in our engine for
the match (``max_playouts=4000 most_seconds=0.5 prior_weight=1.5``): a change measured
in games before it is made. Our engine then runs as this module's ``engine`` (the GTP
engine with the policy changed), which also logs each search's walks.
"""

from __future__ import annotations

import argparse
import os
import random
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path

from bench.strength import wilson

ROOT = Path(__file__).resolve().parents[1]
#: Pentobi's engine as the matches start it (``--level`` added); ``--nobook`` so that
#: its opening book does not play the first moves for it.
PENTOBI_ARGS = ("--game", "duo", "--quiet", "--nobook")


def ours_command(options: list[str], policy: list[str] | None = None,
                 walks: Path | None = None) -> list[str]:
    """Our GTP engine as a command line: ``tabletop gtp blokus-duo`` with ``options``,
    or, with a ``policy`` to change or ``walks`` to log, this module's ``engine``."""
    if policy or walks:
        return [sys.executable, "-m", "bench.pentobi_match", "engine",
                *(["--policy", *policy] if policy else []),
                *(["--walks", str(walks)] if walks else []), "--", *options]
    tabletop = Path(sys.executable).with_name("tabletop")
    program = [str(tabletop)] if tabletop.exists() else [sys.executable, "-m", "app.cli"]
    return program + ["gtp", "blokus-duo", *options]


def policy_change(pairs: list[str]) -> dict:
    """``KEY=VALUE`` pairs as attributes of Blokus Duo's policy, each value of the type
    the attribute has (one clear line for a name it does not have)."""
    from engines.blokus_duo.policy import BlokusDuoPolicy
    change = {}
    for pair in pairs:
        key, _, text = pair.partition("=")
        if not key.isidentifier() or not hasattr(BlokusDuoPolicy, key) or not text:
            raise SystemExit(f"--policy takes KEY=VALUE with KEY an attribute of "
                             f"BlokusDuoPolicy, not {pair!r}")
        kind = type(getattr(BlokusDuoPolicy, key))
        change[key] = (text.lower() in ("1", "true", "yes")) if kind is bool else \
            float(text) if kind in (float, type(None)) else kind(text)
    return change


def engine(policy: list[str], walks: Path | None, options: list[str]) -> int:
    """Our GTP engine with Blokus Duo's policy changed by ``policy`` and, with ``walks``,
    each search's walks appended to that file, one a line."""
    from app.cli import main as cli
    from engines.blokus_duo.policy import BlokusDuoPolicy
    for key, value in policy_change(policy).items():
        setattr(BlokusDuoPolicy, key, value)
    if walks is not None:
        def logged(count: int) -> None:
            with walks.open("a", encoding="utf-8") as log:
                log.write(f"{count}\n")

        with count_walks(logged):
            return cli(["gtp", "blokus-duo", *options])
    return cli(["gtp", "blokus-duo", *options])


@contextmanager
def count_walks(note):
    """While in this block, every search our levels make passes its walks to ``note``."""
    import engines.players
    search = engines.players.search

    def counted(*args, **kwargs):
        stats = kwargs.setdefault("stats", {})  # the caller's own, where it asks for them
        move = search(*args, **kwargs)
        note(stats["walks"])
        return move

    engines.players.search = counted
    try:
        yield
    finally:
        engines.players.search = search


# --- the timing proxy -----------------------------------------------------------------
def proxy(log: Path, command: list[str]) -> int:
    """Run ``command`` (a GTP engine), passing standard input and output through line by
    line, and append the seconds of each ``genmove`` answer to ``log``, one a line."""
    engine = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              bufsize=0)
    with log.open("a", encoding="utf-8") as times:
        for line in sys.stdin.buffer:
            started = time.perf_counter()
            engine.stdin.write(line)
            engine.stdin.flush()
            words = line.split()
            if words and words[0].isdigit():
                words = words[1:]
            # An answer ends with its blank line.
            while True:
                answer = engine.stdout.readline()
                if not answer:
                    return engine.wait()
                sys.stdout.buffer.write(answer)
                if answer in (b"\n", b"\r\n"):
                    break
            sys.stdout.buffer.flush()
            if words and words[0] in (b"genmove", b"reg_genmove"):
                times.write(f"{time.perf_counter() - started:.4f}\n")
                times.flush()
            if words and words[0] == b"quit":
                break
    engine.stdin.close()
    return engine.wait()


# --- twogtp ---------------------------------------------------------------------------
def twogtp_match(twogtp: str, pentobi: list[str], options: list[str], policy: list[str],
                 games: int, folder: Path) -> dict:
    """One twogtp match in ``folder``: our score, the games, our move times and the
    walks of our searches (our engine run with ``options`` and ``policy``)."""
    log, walks_log = folder / "ours-times.txt", folder / "ours-walks.txt"
    # twogtp carries on a match whose files it finds: start this one afresh.
    for name in ("match.dat", "match.blksgf", log.name, walks_log.name):
        (folder / name).unlink(missing_ok=True)
    ours = ours_command(options, policy, walks_log)
    black = [sys.executable, "-m", "bench.pentobi_match", "proxy", "--log", str(log),
             "--", *ours]
    command = [twogtp, "--black", shlex.join(black), "--white", shlex.join(pentobi),
               "--game", "duo", "--nugames", str(games), "--file", str(folder / "match"),
               "--quiet"]
    print("  $ " + shlex.join(command), flush=True)
    subprocess.run(command, check=True, cwd=ROOT)
    score, played = 0.0, 0
    for line in (folder / "match.dat").read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        columns = line.split("\t")
        score += float(columns[1])
        played += 1
    times = [float(t) for t in log.read_text(encoding="utf-8").split()]
    walks = [int(w) for w in walks_log.read_text(encoding="utf-8").split()] \
        if walks_log.exists() else []
    return {"score": score, "games": played, "times": times, "walks": walks}


# --- driving pentobi-gtp directly -------------------------------------------------------
def direct_game(number: int, binary: str, pentobi_level: int, level: int,
                seed: int, policy: list[str]) -> dict:
    """Game ``number`` of a match, played here: ours ``b`` when ``number`` is even."""
    from app.games import new_game
    from bench.strength import PentobiPlayer
    from engines.blokus_duo.policy import BlokusDuoPolicy
    from engines.players import choose_move

    for key, value in policy_change(policy).items():
        setattr(BlokusDuoPolicy, key, value)
    walks = []

    ours_colour = "b" if number % 2 == 0 else "w"
    rng = random.Random(seed * 1000 + number)
    board = new_game("blokus-duo", start="fixed")
    theirs = PentobiPlayer(binary, pentobi_level, seed * 1000 + number)
    times = []
    try:
        theirs.start(board)
        while not board.is_game_over():
            if board.turn == ours_colour:
                started = time.perf_counter()
                with count_walks(walks.append):
                    move = choose_move(board, level, rng)
                times.append(time.perf_counter() - started)
                theirs.seen(board, move)
            else:
                answer = theirs.ask(f"genmove {board.turn}")
                if answer.lower() == "resign":  # Pentobi gives up a game it sees lost
                    break
                move = board.parse_move(answer)
            board.push(move)
    finally:
        theirs.close()
    scores = board.scores()
    margin = scores[ours_colour] - scores["w" if ours_colour == "b" else "b"]
    if not board.is_game_over():
        return {"score": 1.0, "times": times, "margin": margin, "walks": walks}
    winner = board.outcome().winner
    score = 1.0 if winner == ours_colour else 0.5 if winner is None else 0.0
    return {"score": score, "times": times, "margin": margin, "walks": walks}


def direct_match(binary: str, pentobi_level: int, level: int, games: int, seed: int,
                 jobs: int, policy: list[str]) -> dict:
    args = (range(games), [binary] * games, [pentobi_level] * games, [level] * games,
            [seed] * games, [policy] * games)
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(direct_game, *args))
    else:
        results = list(map(direct_game, *args))
    return {"score": sum(r["score"] for r in results), "games": games,
            "times": [t for r in results for t in r["times"]],
            "walks": [w for r in results for w in r["walks"]],
            "margins": [r["margin"] for r in results],
            # Ours is ``b``, the first player, in the even games.
            "as_first": sum(r["score"] for r in results[::2]),
            "as_second": sum(r["score"] for r in results[1::2])}


def report(label: str, result: dict) -> None:
    score, games, times = result["score"], result["games"], result["times"]
    low, high = wilson(score, games)
    spent = (f"{statistics.mean(times):.2f} / {max(times):.2f}" if times else "-")
    # Moves with one choice or none are answered without a search (no walks).
    walks = [w for w in result.get("walks", []) if w]
    made = (f"  playouts/move mean / median / least: {statistics.mean(walks):.0f} / "
            f"{statistics.median(walks):.0f} / {min(walks)}" if walks else "")
    sides = (f"  as first / second: {result['as_first']:g} / {result['as_second']:g} of "
             f"{(games + 1) // 2} / {games // 2}" if "as_first" in result else "")
    print(f"  {label:<24} {score / games:>5.0%} [{low:.0%}, {high:.0%}]  "
          f"({score:g} of {games}){sides}  ours s/move mean / worst: {spent}{made}",
          flush=True)


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["proxy"]:
        parser = argparse.ArgumentParser(prog="bench.pentobi_match proxy")
        parser.add_argument("--log", type=Path, required=True)
        parser.add_argument("command", nargs=argparse.REMAINDER)
        args = parser.parse_args(argv[1:])
        command = args.command[1:] if args.command[:1] == ["--"] else args.command
        raise SystemExit(proxy(args.log, command))
    if argv[:1] == ["engine"]:
        parser = argparse.ArgumentParser(prog="bench.pentobi_match engine")
        parser.add_argument("--policy", nargs="+", default=[], metavar="KEY=VALUE")
        parser.add_argument("--walks", type=Path)
        parser.add_argument("options", nargs=argparse.REMAINDER)
        args = parser.parse_args(argv[1:])
        options = args.options[1:] if args.options[:1] == ["--"] else args.options
        raise SystemExit(engine(args.policy, args.walks, options))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", type=int, nargs="+", default=[1, 2, 3],
                        help="Pentobi's levels to meet (default: 1 2 3)")
    parser.add_argument("--games", type=int, default=40, help="games a match (default 40)")
    parser.add_argument("--ours", nargs="+", default=["level=max"], metavar="KEY=VALUE",
                        help="our engine's options (default: level=max)")
    parser.add_argument("--pentobi-gtp", default=shutil.which("pentobi-gtp"),
                        help="Pentobi's engine (default: pentobi-gtp on the PATH)")
    parser.add_argument("--twogtp", default=shutil.which("twogtp"),
                        help="Pentobi's match tool (default: twogtp on the PATH)")
    parser.add_argument("--direct", action="store_true",
                        help="drive pentobi-gtp here even when twogtp is found")
    parser.add_argument("--jobs", type=int, default=1,
                        help="games at a time when driving pentobi-gtp here")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, help="keep twogtp's files in this folder")
    parser.add_argument("--policy", nargs="+", default=[], metavar="KEY=VALUE",
                        help="Blokus Duo's policy changed for our engine (max_playouts=4000)")
    args = parser.parse_args(argv)
    policy_change(args.policy)  # a mistake stops here, before any game
    if not args.pentobi_gtp:
        parser.exit(1, "pentobi-gtp is not on the PATH: build it from Pentobi's source "
                       "(cmake -DPENTOBI_BUILD_GTP=ON -DPENTOBI_BUILD_GUI=OFF) or name it "
                       "with --pentobi-gtp\n")
    level_option = next((o.split("=", 1)[1] for o in args.ours if o.startswith("level=")),
                        "2")
    changed = f" (policy: {' '.join(args.policy)})" if args.policy else ""
    print(f"Blokus Duo, {' '.join(args.ours)}{changed} against Pentobi: our score, 95% "
          f"interval (Wilson)", flush=True)
    for level in args.levels:
        pentobi = [args.pentobi_gtp, *PENTOBI_ARGS, "--level", str(level)]
        if args.twogtp and not args.direct:
            folder = args.keep / f"level{level}" if args.keep else Path(tempfile.mkdtemp())
            folder.mkdir(parents=True, exist_ok=True)
            result = twogtp_match(args.twogtp, pentobi, args.ours, args.policy, args.games,
                                  folder)
        else:
            from engines.players import parse_level
            result = direct_match(args.pentobi_gtp, level, parse_level(level_option),
                                  args.games, args.seed, args.jobs, args.policy)
        report(f"vs pentobi-gtp --level {level}", result)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
