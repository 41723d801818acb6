"""Record what Pentobi's own GTP engine answers in Blokus Duo games, for the tests.

    PENTOBI_GTP=/path/to/pentobi-gtp .venv/bin/python scripts/record_pentobi.py

Pentobi (built from its source with ``-DPENTOBI_BUILD_GUI=OFF -DPENTOBI_BUILD_GTP=ON``)
is the reference engine players of Blokus Duo know. This plays seeded random games on
it alone: at every position it asks ``all_legal`` for both colours, picks the next move
at random from Pentobi's own list, and at the end keeps ``final_score`` and the record
Pentobi writes with ``savesgf``. The answers go to ``tests/data/pentobi-duo.json``: each
legal-move list as its count and a SHA-256 of its sorted moves (the lists themselves
would be megabytes), so the tests compare our engine with Pentobi's answers on any
machine, with no Pentobi there.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "pentobi-duo.json"
SEEDS = range(6)


def digest(moves: list[str]) -> str:
    """The SHA-256 of the moves in sorted order, one per line: what the tests compare."""
    return hashlib.sha256("\n".join(sorted(moves)).encode()).hexdigest()


class Pentobi:
    def __init__(self, binary: str) -> None:
        self.process = subprocess.Popen([binary, "--game", "duo", "--nobook", "--quiet"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True)

    def ask(self, command: str) -> str:
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        lines = []
        while (line := self.process.stdout.readline()) not in ("\n", ""):
            lines.append(line.rstrip("\n"))
        answer = "\n".join(lines)
        if not answer.startswith("="):
            raise SystemExit(f"pentobi-gtp refused {command!r}: {answer}")
        return answer[1:].strip()

    def close(self) -> None:
        self.ask("quit")
        self.process.wait(timeout=10)


def record_game(pentobi: Pentobi, seed: int, folder: Path) -> dict:
    rng = random.Random(seed)
    pentobi.ask("clear_board")
    plies: list[dict] = []
    turn = "b"
    while True:
        legal = {colour: pentobi.ask(f"all_legal {colour}").split() for colour in "bw"}
        plies.append({colour: [len(moves), digest(moves)] for colour, moves in legal.items()})
        if not legal[turn]:
            turn = "w" if turn == "b" else "b"  # a blocked colour passes
        if not legal[turn]:
            break  # neither can place: the end
        move = rng.choice(sorted(legal[turn]))
        pentobi.ask(f"play {turn} {move}")
        plies[-1]["play"] = f"{turn} {move}"
        turn = "w" if turn == "b" else "b"
    record = folder / f"{seed}.blksgf"
    pentobi.ask(f"savesgf {record}")
    return {"seed": seed, "plies": plies, "final_score": pentobi.ask("final_score"),
            "record": record.read_text(encoding="utf-8")}


def main() -> None:
    binary = os.environ.get("PENTOBI_GTP", "")
    if not (binary and os.access(binary, os.X_OK)):
        sys.exit("set PENTOBI_GTP to a pentobi-gtp binary")
    pentobi = Pentobi(binary)
    pentobi.ask("set_game Blokus Duo")
    with tempfile.TemporaryDirectory() as folder:
        games = [record_game(pentobi, seed, Path(folder)) for seed in SEEDS]
    pentobi.close()
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps({"engine": "pentobi-gtp", "games": games}, indent=1) + "\n",
                   encoding="utf-8")
    print(f"{OUT}: {len(games)} games, {sum(len(g['plies']) for g in games)} positions")


if __name__ == "__main__":
    main()
