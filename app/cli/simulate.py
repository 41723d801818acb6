"""``tabletop simulate [GAME] [key=value ...]``: the board and its screen on a desktop.

It reads the configuration file ``tabletop run`` reads (``--config``, else
/etc/tabletop/tabletop.toml if there is one): the seats, the engine's level and seed,
the game's ``[options]`` for a new game, ``show_legal``, the outside engines of
``[engines]``, and with ``--web`` the page's ``[web]`` (its host, port and pairing code,
read as ``tabletop run`` reads them, and the page served the way run serves it); its own
flags (``--opponent``, ``--level``, ``--web HOST:PORT``, options on the command line)
override the file's. Every game is saved as it is played, in the data
directory as ``tabletop run`` saves its own, each under its simulated board's profile (``kulami-sim``). Started with no
options, the simulator continues the newest unfinished game of the game named (after a
crash too); given options, or ``--new``, it starts a new one. The menu's load list
continues any saved game.

With no display to open (no X11 or Wayland session, no KMS/DRM device), it says so and
plays an engine-against-engine demo game in the terminal instead, so the first command a
newcomer types always shows a game; with ``--web`` it serves the simulated board's page
instead, the board drawn nowhere (SDL's dummy driver), until SIGTERM or Ctrl-C. A
``--web`` address that is none is refused in one line before anything starts.

With ``--serial`` the simulated board is a sensor board over USB: the mouse sets the
sensors of a virtual device (the firmware's own logic behind a pseudo-terminal) and the
table reads them through the real serial driver, as ``tabletop run`` reads a Pico.

With ``--screenshot PATH`` or ``--screen PATH`` it opens no window and plays nothing:
it sets out a position (``--moves N`` moves the engine chooses, seeded, or the moves of
``--play``), lets the simulator settle on it with the engine's answer lit, and saves
the window (the board beside its status screen) and the status screen alone as PNG
pictures, drawn off-screen on SDL's dummy driver. The same arguments make the same
pictures: the README's are made so (``make screenshots``), and a test checks they are
current.
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import signal
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

from app.cli import add_game_arguments, number_type, seconds, split_options
from app.games import GAMES, new_game
from app.games import game as game_info
from app.cli.terminal import render, wants_colour
from engines.errors import EngineError, TabletopError
from engines.players import DEFAULT_LEVEL, LEVELS, choose_move, engine_name, level_argument

log = logging.getLogger(__name__)


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "simulate", help="play on the desktop simulator",
        description="Play on a simulated board in a window: the mouse places and lifts "
                    "pieces, the board lights as a real one does, and the status screen "
                    "shows beside it. Every move is saved; with no options the newest "
                    "unfinished game of GAME on the simulator is continued. Without a "
                    "display the engine plays itself in the terminal.")
    add_game_arguments(parser)
    parser.add_argument("--config", help="configuration file (default: "
                                         "/etc/tabletop/tabletop.toml if it exists)")
    parser.add_argument("--opponent", type=seat_argument, default=None, metavar="KIND",
                        help="who plays against you, person or engine (default: the "
                             "configuration's second seat, else the engine)")
    parser.add_argument("--level", type=level_argument, default=None,
                        help=f"the engine's level, {', '.join(map(str, LEVELS))} or max "
                             f"(the strongest) (default: the configuration's, else "
                             f"{DEFAULT_LEVEL})")
    parser.add_argument("--engine-starts", action="store_true",
                        help="the engine plays the first colour")
    parser.add_argument("--seed", type=int, default=None, help="seed for the engine")
    parser.add_argument("--new", action="store_true",
                        help="start a new game even if one of this game is unfinished")
    parser.add_argument("--serial", action="store_true",
                        help="the board is a virtual sensor board read by the real serial "
                             "driver, over a pseudo-terminal (the mouse sets its sensors)")
    parser.add_argument("--web", nargs="?", const=CONFIGURED, default=None,
                        metavar="[HOST:]PORT",
                        help="serve the board's web page too: at [HOST:]PORT, else where "
                             "the configuration's [web] serves a board's (its host and "
                             "port), else on every address of this machine and port "
                             f"{SIMULATOR_PORT}; the pairing code is the configuration's, "
                             "else a new one on the status screen")
    parser.add_argument("--pause", type=seconds, default=0.3, metavar="SECONDS",
                        help="seconds between moves of the terminal demo (default 0.3)")
    pictures = parser.add_argument_group(
        "pictures", "save a position as pictures instead of playing: no window opens "
        "(SDL's dummy driver), nothing is saved but the pictures, and the same arguments "
        "make the same pictures (the seed is 0 unless given). The position is the moves "
        "of --moves or --play, with the engine's answer lit where it is to move. "
        "Example: tabletop simulate --moves 17 --screenshot board.png --screen "
        "screen.png")
    pictures.add_argument("--screenshot", type=Path, metavar="PATH",
                          help="save the window as it opens on a large desktop, the "
                               "board beside its status screen, as a PNG")
    pictures.add_argument("--screen", type=Path, metavar="PATH",
                          help="save the status screen alone, 800x480 as on the Pi's "
                               "display, as a PNG")
    pictures.add_argument("--page", type=Path, metavar="PATH",
                          help="save the board's web page as a browser shows it, "
                               f"{PAGE_SIZE[0]}x{PAGE_SIZE[1]}, as a PNG (drawn by "
                               "Chromium, headless)")
    position = pictures.add_mutually_exclusive_group()
    position.add_argument("--moves", type=move_count, default=0, metavar="N",
                          help="first play N moves the engine chooses at --level, seeded "
                               "by --seed (fewer if the game ends)")
    position.add_argument("--play", metavar="MOVES",
                          help="first play these moves, in one argument separated by "
                               "spaces ('f9,e10,f10,g10,f11 j5')")
    parser.set_defaults(run=run)


#: ``--web`` given without an address: the page goes where the configuration says.
CONFIGURED = ""
#: The simulator's page without an address from the flag or a configuration file: not
#: a board's port 80, which a desktop user may not have.
SIMULATOR_PORT = 8080
#: The browser window the web page is pictured in: a laptop's.
PAGE_SIZE = (1280, 860)
#: A number of moves to play, 0 or more.
move_count = number_type("a number of moves", "0 moves or more", lambda v: v >= 0, kind=int)


def seat_argument(word: str):
    """A seat's word (``person`` or ``engine``), checked where seats are
    (:func:`app.table.seats.parse`)."""
    from app.table.seats import TABLE_KINDS, SeatError, parse
    try:
        return parse(word, TABLE_KINDS)
    except SeatError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def run(args) -> int:
    from app.screen.display import (DisplayChoice, NoDisplayError, choose_display,
                                    no_display_reason)
    from app.table.config import load_config
    config = load_config(args.config)
    name = game_info(args.game).name if args.game in GAMES else args.game
    board = new_game(args.game, **{**config.options_for(name),
                                   **split_options(args.options)})
    args.level = args.level or config.level
    args.seed = args.seed if args.seed is not None else config.seed
    args.seats = _seats(args, config.seats)
    args.address = _web_address(args.web, config)
    if any(path is not None for path in (args.screenshot, args.screen, args.page)):
        if args.web is not None:
            raise TabletopError("--web serves a window's board: it takes no pictures")
        return pictures(board, args)
    if args.moves or args.play is not None:
        raise TabletopError("--moves and --play set out a position for a picture: give "
                            "--screenshot or --screen too")
    display = choose_display()
    if display is not None:
        try:
            return _window(board, display, args, config)
        except NoDisplayError as error:
            why = str(error)
    else:
        why = no_display_reason()
    if args.address is not None:
        # The page needs no window: the simulated board is drawn nowhere.
        print(f"tabletop simulate: no display ({why}); serving the simulated board's web "
              f"page alone.", flush=True)
        return _window(board, DisplayChoice("dummy", False), args, config)
    unused = " (no sensor board: --serial needs the window)" if args.serial else ""
    print(f"tabletop simulate: no display ({why}); playing an engine-against-engine "
          f"demo in the terminal instead{unused}.", flush=True)
    return demo(board, args.seed, sys.stdout, args.pause, args.level)


def _seats(args, configured=None) -> dict[str, str]:
    """Who plays: the configuration's seats, unless ``--opponent`` or ``--engine-starts``
    say otherwise; the seat's own word decides whether the opponent thinks."""
    from app.table.seats import parse, words_of
    if args.opponent is None and not args.engine_starts and configured:
        return dict(configured)
    opponent = args.opponent or parse("engine")
    if not opponent.thinks:
        return {"b": "person", "w": "person"}
    you = parse("person")
    return words_of({"b": opponent, "w": you} if args.engine_starts else
                    {"b": you, "w": opponent})


def _web_address(text: str | None, config) -> tuple[str, int] | None:
    """Where ``--web`` serves the page (``None``: no ``--web``, no page): at its
    ``[HOST:]PORT``, else where ``config``'s ``[web]`` serves a board's, read as
    ``tabletop run`` reads it (:func:`app.cli.run.web_address_of`), else on every address
    and :data:`SIMULATOR_PORT` when no file was read or its page is off. A mistake is one
    line: the flag's, or the file's naming its key."""
    if text is None:
        return None
    from app.cli.run import web_address_of
    from app.web.address import LAN, web_address
    if text == CONFIGURED:
        configured = web_address_of(config) if config.path is not None else None
        return configured or (LAN, SIMULATOR_PORT)
    try:
        return web_address(text)
    except ValueError as error:
        raise TabletopError(f"--web: {error}") from None


def _window(board, display, args, config) -> int:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from app.table.service import ServiceStop, stop_on_signals

    seats = args.seats
    logging.basicConfig(level=logging.INFO, format="tabletop: %(message)s")
    # SIGTERM stops the simulator as it stops a board: SDL would turn it into a window's
    # close, which asks "Leave this game?" of nobody. Every move is saved as it is played,
    # so nothing is left to ask. (Ctrl-C stays Python's KeyboardInterrupt.)
    os.environ["SDL_NO_SIGNAL_HANDLERS"] = "1"
    with stop_on_signals((signal.SIGTERM,)):
        try:
            return _simulate(board, display, args, seats, config)
        except ServiceStop as stop:
            log.info("stopping on %s; every move is saved", stop)
            return 0


def _simulate(board, display, args, seats, config) -> int:
    from app.screen.display import open_display
    from app.screen.menu import Choice
    from app.screen.simulator import WINDOW, Simulator
    from app.table.assembly import Assembly
    from app.table.engine_process import ProcessThinker
    from app.table.store import RecordStore

    surface = open_display(display, WINDOW, caption="Tabletop simulator")
    store = RecordStore(config.data_dir)
    log.info("games are saved in %s", store.games)
    remote = simulator = None
    if args.address is not None:
        remote = _web_page(args.address, store, lambda: simulator, config.pairing_code)
    # The table as the configuration describes it, as run assembles a board's: the
    # outside engines of [engines] play their games and our own search the others, and
    # what every session is given ([game] show_legal) is the file's.
    table = Assembly.configured(config, store, thinker=ProcessThinker(), seats=seats,
                                level=args.level, seed=args.seed)
    try:
        simulator = Simulator(Choice(board.game, dict(board.options), seats, args.level),
                              seed=args.seed, store=store, thinker=table.thinker,
                              resume=not (args.new or args.options), serial=args.serial,
                              remote=remote, settings=table.settings)
        if remote is not None:
            simulator.console.note = remote.note
        if args.serial:
            log.info("sensor board: a virtual device on %s, read by the serial driver",
                     simulator.device.path)
        simulator.run(surface)
    finally:
        if remote is not None:
            remote.close()
    return 0


def _web_page(address: tuple[str, int], store, simulator, pairing_code=None):
    """The web page for the simulator at ``address``, served as a board's is
    (:func:`app.cli.run.web_page`): every game offered, as the simulator's menu offers
    them, a new one asked of the simulator as its menu asks (``simulator()`` is the
    simulator, made once the page is up), started between turns of its loop."""
    from app.cli.run import web_page
    from app.errors import install_extra
    from app.screen.menu import Choice

    def new_game(table, game, options, seats, level) -> None:
        simulator().ask(Choice(game, dict(options), dict(seats), level))

    front = web_page(store, tuple(GAMES), address, pairing_code, new_game)
    if front is None:
        raise TabletopError(f"--web needs the web library: {install_extra('web')}")
    return front


def pictures(board, args) -> int:
    """Set out the position the arguments give on ``board`` and save its pictures.

    The position is set out as the simulator continues a saved game after a restart
    (its pieces put on the simulated board, through the sensors): saved in a throw-away
    store, so the user's games are never touched, and resumed with the seats and level
    given; the engine, if it is to move, answers at once. The clock then stands at the
    start of a blink's on phase, so a blinking light shows lit. Bad paths and moves are
    refused before anything is drawn."""
    if args.serial:
        raise TabletopError("--serial needs the window: a picture reads no sensor board")
    paths = [path for path in (args.screenshot, args.screen, args.page) if path is not None]
    for path in paths:
        _check_writable(path)
    seed = 0 if args.seed is None else args.seed
    _set_out(board, args, random.Random(seed))
    # Nothing here opens a window; the dummy driver makes sure nothing can.
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame
    from app.screen.menu import Choice
    from app.screen.paint import DESIGN_SIZE
    from app.screen.simulator import BLINK_S, WINDOW, Simulator
    from app.table.store import RecordStore
    from app.table.thinker import InlineThinker

    with tempfile.TemporaryDirectory(prefix="tabletop-picture-") as data:
        store = RecordStore(data, profile=f"{board.game}-sim")
        # The record says who plays, as a session's own does: resumed or loaded, the
        # game keeps these seats, level and seed.
        store.players = SimpleNamespace(seats=args.seats, level=args.level, seed=seed,
                                        engine_name=engine_name(args.level))
        record = store.start(board)
        clock = _Clock()
        simulator = Simulator(Choice(board.game, dict(board.options), args.seats,
                                     args.level),
                              clock=clock, seed=seed, store=store, thinker=InlineThinker(),
                              resume=True)
        if board.is_game_over():  # the simulator resumes only a game still going
            simulator.load(next(saved for saved in store.saved() if saved.path == record))
        clock.now = 1.0  # the pieces set out have settled on the sensors
        simulator.step()
        clock.now = (int(clock.now / (2 * BLINK_S)) + 1) * 2 * BLINK_S
        simulator.step()
        for path, size, draw in ((args.screenshot, WINDOW, simulator.draw),
                                 (args.screen, DESIGN_SIZE, simulator.console.draw)):
            if path is not None:
                surface = pygame.Surface(size)
                draw(surface)
                try:
                    pygame.image.save(surface, str(path))
                except (pygame.error, OSError) as error:
                    raise TabletopError(f"cannot write {path}: {error}") from None
                print(f"saved {path}", flush=True)
        if args.page is not None:
            _page_picture(simulator, store, args.page)
            print(f"saved {args.page}", flush=True)
    return 0


def _page_picture(simulator, store, path: Path) -> None:
    """The board's web page for ``simulator``'s position, as Chromium draws it headless:
    the page served on this machine alone, on a free port, for as long as it takes."""
    import shutil
    import subprocess
    from app.cli.run import web_page
    browser = next(filter(None, map(shutil.which, ("chromium", "chromium-browser"))), None)
    if browser is None:
        raise TabletopError("--page needs Chromium to draw the page: install Debian's "
                            "chromium package")
    front = web_page(store, (), ("127.0.0.1", 0), new_game=lambda *_: None)
    if front is None:
        raise TabletopError("--page needs the web library to serve the page")
    try:
        simulator.remote = simulator.table.remote = front
        front.publish(simulator.session)
        # Root (a container, CI) must give up Chromium's sandbox to start it at all; the
        # page is this program's own, on this machine.
        sandbox = ["--no-sandbox"] if os.geteuid() == 0 else []
        done = subprocess.run(
            [browser, "--headless=new", *sandbox, "--disable-gpu", "--hide-scrollbars",
             f"--window-size={PAGE_SIZE[0]},{PAGE_SIZE[1]}", "--virtual-time-budget=4000",
             f"--screenshot={path.resolve()}", front.url],
            capture_output=True, text=True, timeout=120)
        if done.returncode != 0 or not path.exists():
            raise TabletopError(f"cannot picture the page: Chromium ended with "
                                f"{done.returncode}: {done.stderr.strip()[-200:]}")
    finally:
        front.close()


class _Clock:
    """The simulator's clock while a picture is taken: it moves only when told."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _check_writable(path: Path) -> None:
    """Refuse a picture's ``path`` that cannot be written, as one line."""
    if path.suffix.lower() != ".png":
        raise TabletopError(f"{path}: pictures are saved as PNG, name it .png")
    folder = path.parent
    if not folder.is_dir():
        raise TabletopError(f"cannot write {path}: there is no directory {folder}")
    if path.is_dir():
        raise TabletopError(f"cannot write {path}: it is a directory")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise TabletopError(f"cannot write {path}: permission denied")


def _set_out(board, args, rng: random.Random) -> None:
    """Play the moves of ``--play`` on ``board``, or ``--moves`` moves the engine chooses
    with ``rng``; a move that is no move or not legal is one line naming it."""
    if args.play is None:
        for _ in range(args.moves):
            if board.is_game_over():
                break
            board.push(choose_move(board, args.level, rng))
        return
    for number, text in enumerate(args.play.split(), 1):
        try:
            board.push_text(text)
        except EngineError as error:
            raise type(error)(f"move {number} of --play, {text!r}: {error}") from None


def demo(board, seed: int | None, out, pause: float = 0.0,
         level: int = DEFAULT_LEVEL) -> int:
    """Engine against engine to the end, in a session with no board as ``tabletop play``
    plays one (the engine's choices seeded by ``seed``), its view printed after every
    move (in colour where ``out`` is a terminal that wants it), then its end."""
    from app.table.session import Session
    from app.table.thinker import InlineThinker
    say = lambda text="": print(text, file=out, flush=True)
    colour = wants_colour(out)
    players = game_info(board.game).players
    session = Session(board, seats={"b": "engine", "w": "engine"}, level=level, seed=seed,
                      physical=False, thinker=InlineThinker())
    say(render(session.view(), colour))
    while (view := session.view()).end is None:
        moves = len(board.move_stack)
        session.poll()
        for index in range(moves, len(board.move_stack)):
            say(f"\n{players[board.mover(index)].name} plays "
                f"{board.move_text(board.move_stack[index])}")
        say(render(session.view(), colour))
        time.sleep(pause)
    say(view.end_long)
    return 0
