"""``tabletop gtp GAME [key=value ...]``: the engine on standard input and output."""

from __future__ import annotations

import sys

from app.games import game
from engines.gtp import GtpEngine


def register(subparsers) -> None:
    parser = subparsers.add_parser("gtp", help="speak GTP on stdin/stdout")
    parser.add_argument("game")
    parser.add_argument("options", nargs="*", metavar="key=value",
                        help="game options, plus level=N and seed=N for genmove")
    parser.set_defaults(run=run)


def run(args) -> int:
    from app.cli import split_options
    engine = GtpEngine(game(args.game).board_class, **split_options(args.options))
    for line in sys.stdin:
        answer = engine.handle(line)
        if answer is not None:
            sys.stdout.write(answer)
            sys.stdout.flush()
        if engine.finished:
            break
    return 0
