"""A stand-in outside engine for the tests: a small GTP engine over our own rules that
behaves, or misbehaves in one chosen way, at ``genmove``.

    python tests/gtp_standin.py GAME MODE LOG [--from N] [--delay S]

Every command line it receives is appended to LOG (without its id), after a first line
``pid N``, so a test can see what the table told it and whether the process is gone.
From the N-th ``genmove`` on (default the first) it answers ``genmove`` by MODE:

- ``good``: the first of the legal moves with the longest text, its squares written in
  reverse order (as Pentobi writes a Blokus Duo piece's squares in an order of its own);
- ``slow``: the same after ``--delay`` seconds;
- ``crash``: exits with status 3, answering nothing;
- ``hang``: never answers;
- ``refuse``: ``? not now``;
- ``illegal``: the last move played (an occupied place), or else a hole no move takes;
- ``nomove``: ``= zz99``, no move of any game;
- ``garbage``: a line that is no GTP answer;
- ``pass``: ``= pass`` while it has moves to play;
- ``noundo``: plays as ``good`` but refuses every ``undo``;
- ``resign``: ``= resign``.

Before the N-th ``genmove`` it plays as ``good``.
"""

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.games import new_game  # noqa: E402
from engines import EngineError  # noqa: E402

MODES = ("good", "slow", "crash", "hang", "refuse", "illegal", "nomove", "garbage", "pass",
         "noundo", "resign")


def choose(board):
    moves = list(board.legal_moves)
    longest = max(len(board.move_text(move)) for move in moves)
    return next(move for move in moves if len(board.move_text(move)) == longest)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("game")
    parser.add_argument("mode", choices=MODES)
    parser.add_argument("log")
    parser.add_argument("--from", dest="start", type=int, default=1)
    parser.add_argument("--delay", type=float, default=1.0)
    args = parser.parse_args()
    log = open(args.log, "a", encoding="utf-8", buffering=1)
    log.write(f"pid {os.getpid()}\n")
    print("stand-in engine started", file=sys.stderr, flush=True)
    board = new_game(args.game)
    asked = 0

    def answer(ident, text, mark="="):
        sys.stdout.write(f"{mark}{ident} {text}\n\n")
        sys.stdout.flush()

    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        ident = ""
        if words[0].isdigit():
            ident, words = words[0], words[1:]
        log.write(" ".join(words) + "\n")
        name, rest = words[0], words[1:]
        if name == "quit":
            answer(ident, "")
            return 0
        if name in ("protocol_version",):
            answer(ident, "2")
        elif name == "name":
            answer(ident, "stand-in")
        elif name == "clear_board":
            board = new_game(args.game)
            answer(ident, "")
        elif name == "play":
            colour, text = rest
            try:
                if colour != board.turn:
                    raise EngineError(f"it is {board.turn}'s turn")
                board.push_text(text)
            except EngineError as error:
                answer(ident, str(error), "?")
            else:
                answer(ident, "")
        elif name == "undo":
            if args.mode == "noundo" or not board.move_stack:
                answer(ident, "cannot undo", "?")
            else:
                board.pop()
                answer(ident, "")
        elif name == "genmove":
            asked += 1
            mode = args.mode if asked >= args.start else "good"
            if mode == "slow":
                time.sleep(args.delay)
            if mode in ("good", "slow", "noundo"):
                move = choose(board)
                text = ",".join(reversed(board.move_text(move).split(",")))
                board.push(move)
                answer(ident, text)
            elif mode == "crash":
                log.close()
                os._exit(3)
            elif mode == "hang":
                time.sleep(3600)
            elif mode == "refuse":
                answer(ident, "not now", "?")
            elif mode == "illegal":
                if board.move_stack:
                    answer(ident, board.move_text(board.move_stack[-1]))
                else:
                    legal = {board.move_text(move) for move in board.legal_moves}
                    answer(ident, next(h for h in board.holes if h not in legal))
            elif mode == "nomove":
                answer(ident, "zz99")
            elif mode == "garbage":
                sys.stdout.write("thinking very hard...\n\n")
                sys.stdout.flush()
            elif mode == "pass":
                answer(ident, "pass")
            elif mode == "resign":
                answer(ident, "resign")
        else:
            answer(ident, "unknown command", "?")
    return 0


if __name__ == "__main__":
    sys.exit(main())
