"""``tabletop gtp GAME [key=value ...]``: the engine on standard input and output."""

from __future__ import annotations

import sys

from app.games import GAMES, game
from engines.gtp import GtpEngine, version
from engines.players import DEFAULT_LEVEL


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "gtp", help="speak GTP on stdin/stdout",
        description="The engine of one game as a GTP version 2 engine on standard input "
                    "and output, for GTP tools (GoGui, Pentobi's twogtp) and scripts: "
                    "clear_board, play, genmove, undo, showboard, final_score, all_legal "
                    "and the rest of list_commands. Moves are written as docs/rules.md "
                    "writes them; b is the first player and w the second.")
    # As GTP engines answer ``--version`` (Pentobi's does), for scripts that log what
    # played a match; GTP's own ``version`` command says the same.
    parser.add_argument("--version", action="version", version=f"tabletop {version()}")
    parser.add_argument("game", help=f"the game: {', '.join(GAMES)}")
    parser.add_argument("options", nargs="*", metavar="key=value",
                        help=f"game options, plus level=N (1-4, or max: the strongest; "
                             f"default {DEFAULT_LEVEL}) and seed=N for genmove, and "
                             f"coords=gogui to write points as GoGui does")
    parser.set_defaults(run=run)


def run(args) -> int:
    from app.cli import split_options
    engine = GtpEngine(game(args.game).board_class, **split_options(args.options))
    # Bytes in and out: the engine decodes each line itself, so a byte that is not UTF-8
    # is one error answer rather than a decoding error that ends the session, whatever
    # the locale; answers are UTF-8 whatever the locale too.
    for line in sys.stdin.buffer:
        answer = engine.handle(line)
        if answer is not None:
            sys.stdout.buffer.write(answer.encode("utf-8"))
            sys.stdout.buffer.flush()
        if engine.finished:
            break
    return 0
