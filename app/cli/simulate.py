"""``tabletop simulate [GAME] [key=value ...]``: the board and its screen on a desktop.

Every game is saved as it is played, in the user's data directory as ``tabletop run``
saves its own, each under its simulated board's profile (``kulami-sim``). Started with no
options, the simulator continues the newest unfinished game of the game named (after a
crash too); given options, or ``--new``, it starts a new one. The menu's load list
continues any saved game.

With no display to open (no X11 or Wayland session, no KMS/DRM device), it says so and
plays an engine-against-engine demo game in the terminal instead, so the first command a
newcomer types always shows a game.

With ``--serial`` the simulated board is a sensor board over USB: the mouse sets the
sensors of a virtual device (the firmware's own logic behind a pseudo-terminal) and the
table reads them through the real serial driver, as ``tabletop run`` reads a Pico.
"""

from __future__ import annotations

import logging
import os
import random
import sys
import time

from app.cli import add_game_arguments, game_from_args, seconds
from app.games import game as game_info
from app.cli.terminal import render, wants_colour
from app.table import texts
from engines.players import DEFAULT_LEVEL, LEVELS, choose_move, level_argument

log = logging.getLogger(__name__)


def register(subparsers) -> None:
    parser = subparsers.add_parser("simulate", help="play on the desktop simulator")
    add_game_arguments(parser)
    parser.add_argument("--opponent", choices=("engine", "person"), default="engine",
                        help="who plays against you (default: the engine)")
    parser.add_argument("--level", type=level_argument, default=DEFAULT_LEVEL,
                        help=f"the engine's level, {', '.join(map(str, LEVELS))} or max "
                             f"(the strongest) (default: {DEFAULT_LEVEL})")
    parser.add_argument("--engine-starts", action="store_true",
                        help="the engine plays the first colour")
    parser.add_argument("--seed", type=int, default=None, help="seed for the engine")
    parser.add_argument("--new", action="store_true",
                        help="start a new game even if one of this game is unfinished")
    parser.add_argument("--serial", action="store_true",
                        help="the board is a virtual sensor board read by the real serial "
                             "driver, over a pseudo-terminal (the mouse sets its sensors)")
    parser.add_argument("--pause", type=seconds, default=0.3, metavar="SECONDS",
                        help="seconds between moves of the terminal demo (default 0.3)")
    parser.set_defaults(run=run)


def run(args) -> int:
    from app.screen.display import NoDisplayError, choose_display, no_display_reason
    board = game_from_args(args)
    display = choose_display()
    if display is not None:
        try:
            return _window(board, display, args)
        except NoDisplayError as error:
            why = str(error)
    else:
        why = no_display_reason()
    unused = " (no sensor board: --serial needs the window)" if args.serial else ""
    print(f"tabletop simulate: no display ({why}); playing an engine-against-engine "
          f"demo in the terminal instead{unused}.", flush=True)
    return demo(board, random.Random(args.seed), sys.stdout, args.pause, args.level)


def _window(board, display, args) -> int:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from app.screen.display import open_display
    from app.screen.menu import Choice
    from app.screen.simulator import WINDOW, Simulator
    from app.table.store import RecordStore, default_data_dir

    if args.opponent == "person":
        seats = {"b": "person", "w": "person"}
    else:
        seats = {"b": "engine", "w": "person"} if args.engine_starts else \
            {"b": "person", "w": "engine"}
    logging.basicConfig(level=logging.INFO, format="tabletop: %(message)s")
    surface = open_display(display, WINDOW, caption="Tabletop simulator")
    store = RecordStore(default_data_dir())
    log.info("games are saved in %s", store.games)
    simulator = Simulator(Choice(board.game, dict(board.options), seats, args.level),
                          seed=args.seed, store=store, resume=not (args.new or args.options),
                          serial=args.serial)
    if args.serial:
        log.info("sensor board: a virtual device on %s, read by the serial driver",
                 simulator.device.path)
    simulator.run(surface)
    return 0


def demo(board, rng: random.Random, out, pause: float = 0.0,
         level: int = DEFAULT_LEVEL) -> int:
    """Engine against engine to the end, the board printed after every move (in colour
    where ``out`` is a terminal that wants it)."""
    say = lambda text="": print(text, file=out, flush=True)
    colour = wants_colour(out)
    players = game_info(board.game).players
    say(render(board, colour))
    while not board.is_game_over():
        mover = board.turn
        move = choose_move(board, level, rng)
        board.push(move)
        say(f"\n{players[mover].name} plays {board.move_text(move)}")
        say(render(board, colour))
        time.sleep(pause)
    say(f"{texts.sentence(texts.game_over(board.game, board.outcome()))}.")
    return 0
