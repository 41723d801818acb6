"""``tabletop gtp GAME [key=value ...]``: the engine on standard input and output.

It reads the configuration file ``tabletop run`` reads (``--config``, else
/etc/tabletop/tabletop.toml if there is one) for what applies to an engine: the level
and seed of ``[game]`` and the game's ``[options]``; the ``key=value`` words override
them. A mistake in the file is the file's one line, as for every other command."""

from __future__ import annotations

import sys
from typing import Any

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
                             f"default: the configuration's, else {DEFAULT_LEVEL}) and "
                             f"seed=N for genmove, and coords=gogui to write points as "
                             f"GoGui does; each over the configuration's")
    parser.add_argument("--config", help="configuration file (default: "
                                         "/etc/tabletop/tabletop.toml if it exists): its "
                                         "[game] level and seed and the game's [options]")
    parser.set_defaults(run=run)


def configured(config, name: str) -> dict[str, Any]:
    """What of ``config`` (:class:`~app.table.config.Config`) applies to a GTP engine of
    the game ``name``: the engine's level and seed (``[game]``) and the game's
    ``[options]``. The seats, outside engines and the page are a table's, not an
    engine's."""
    seed = {} if config.seed is None else {"seed": config.seed}
    return {"level": config.level, **seed, **config.options_for(name)}


def run(args) -> int:
    from app.cli import split_options
    from app.table.config import load_config
    info = game(args.game)
    typed = split_options(args.options)
    settings = {**configured(load_config(args.config), info.name), **typed}
    engine = GtpEngine(info.board_class, **settings)
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
