"""``tabletop run --profile P``: the product itself, as the Pi's service runs it.

It builds the table from the profile and the configuration and turns the table loop
(:mod:`app.table.loop`): scan the sensors, play the moves, light the scene, draw the
status screen, publish to the web page, feed systemd's watchdog. The screen is the Pi's
display (SDL's KMS/DRM driver without a desktop); with no display at all the board says
so in one log line and plays on without one, and likewise without its web page
(``[web]``) when that cannot be served. The devices are opened before anything else: a board that cannot
light or sense its pieces leaves no game behind. Games are saved after every move and the
game of this board (its game and profile) is resumed at the next start; the screen's load
list continues any other saved game.
With ``--log`` a simulated board is driven by a sensor log instead of people, in log
time (``--speed`` replays it at that multiple of real time), which is how the tests play
whole games and pull the plug in the middle of them. Logs go to standard output for the
journal; SIGTERM turns the LEDs off and stops cleanly.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable

from app.cli import logging_to_stdout, speed
from app.errors import install_extra
from app.hardware.profile import ProfileError, load_profile
from app.table.sensorlog import read_log_file
from app.table.config import load_config
from app.table.service import Notifier, ServiceStop, stop_on_signals
from app.table.assembly import Assembly, open_devices
from app.table.session import Session
from app.table.store import RecordStore, Saved
from app.table.engine_process import ProcessThinker
from app.table.thinker import InlineThinker

log = logging.getLogger("tabletop")


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "run", help="run a board: sensors, LEDs, buttons, saving",
        description="Run a board as its service does: scan the sensors, play the moves, "
                    "light the LEDs, draw the status screen and serve the web page the "
                    "configuration asks for. Every move is saved, and the board's "
                    "unfinished game is continued at the next start. SIGTERM or Ctrl-C "
                    "turns the LEDs off and stops.")
    parser.add_argument("--profile", required=True,
                        help="board profile name (shipped) or .toml path")
    parser.add_argument("--config", help="configuration file (default: "
                                         "/etc/tabletop/tabletop.toml if it exists)")
    parser.add_argument("--log", help="simulated profiles: play the readings of this sensor "
                                      "log instead of scanning, then stop")
    parser.add_argument("--speed", type=speed, default=0.0,
                        help="with --log: replay at this multiple of real time, 0 as "
                             "fast as possible (default: %(default)g)")
    parser.set_defaults(run=run)


class ContinueSaved(Exception):
    """The screen's load list chose a saved game. Raised out of the table loop, which
    ends there; :func:`run` continues that record in a new session and a new loop on the
    same devices, as a start would: the new loop's first scan tells the new session every
    piece on the board."""

    def __init__(self, saved: Saved) -> None:
        super().__init__(saved.path.name)
        self.saved = saved


def run(args) -> int:
    with logging_to_stdout():
        return _run(args)


def _run(args) -> int:
    profile = load_profile(args.profile)
    config = load_config(args.config)
    config.check_buttons(profile)
    options, readings = config.options_for(profile.game), None
    if args.log:
        if profile.sensors.driver != "simulated":
            raise ProfileError(f"--log drives simulated sensors; profile {profile.name} "
                               f"has {profile.sensors.driver} sensors")
        header, readings = read_log_file(args.log, profile)  # of the profile's game
        options = dict(header.options)
    notifier = Notifier.from_environ()
    devices = assembly = remote = None
    with stop_on_signals():
        try:
            # The devices first: a board that cannot light or sense its pieces cannot
            # play, and must not start (and save) a game either.
            devices = open_devices(config.leds(profile), sensors=readings is None,
                                   buttons=config.buttons)  # [leds] brightness, if set
            store = RecordStore(config.data_dir, profile=profile.name)
            log.info("profile %s, game %s, records in %s", profile.name, profile.game,
                     store.directory)
            # A replayed log plays in log time: the engine answers at once, as it would
            # have had all the time in the world between the logged readings. A board
            # searches in a process of its own, so its scans never wait for the search.
            assembly = Assembly(store, profile, settings=dict(
                seats=config.seats, level=config.level, seed=config.seed,
                show_legal=config.show_legal),
                thinker=InlineThinker() if readings is not None else ProcessThinker(),
                engines=config.engines)
            session = assembly.session(profile.game, options)
            screen = status_screen(session, load=None if readings is not None
                                   else _continue_saved,
                                   board=profile.sensors.driver != "simulated")
            if config.web is not None and readings is None:
                remote = web_page(config, store, profile.game)
                if remote is not None and screen is not None:
                    screen.console.note = remote.note
            while True:
                table = assembly.table(session, devices, screen=screen, notifier=notifier,
                                       blink_s=config.blink_s, remote=remote)
                notifier.ready(f"playing {session.board.game}")
                try:
                    if readings is None:
                        table.run(config.poll_s)
                    else:
                        table.replay(readings, args.speed)
                        log.info("end of sensor log")
                    break
                except ContinueSaved as chosen:
                    if session.thought is not None:
                        session.thought.cancel()
                    log.info("continuing %s from the load list", chosen.saved.path.name)
                    session = assembly.session(chosen.saved.game, {},
                                               record=chosen.saved.path.name)
                    screen.console.session, screen.dirty = session, True
        except ServiceStop as stop:
            log.info("stopping on %s", stop)
        finally:
            notifier.stopping()
            for part in (remote, assembly):
                if part is not None:
                    part.close()
            if devices is not None:
                devices.close()
                log.info("LEDs off, stopped")
            notifier.close()
    return 0


def web_page(config, store: RecordStore, game: str):
    """The board's page on the home network (``[web]``), serving until closed; ``None``,
    said in one WARNING line, when it cannot be served: the board plays on without it,
    as it does without a screen."""
    from app.web.address import web_address
    try:
        from app.web.pairing import Pairing
        from app.web.server import Actions, WebError, WebFront, new_game_on
    except ImportError as error:
        log.warning("no web page (the %s library is not installed): playing without it; "
                    "%s", error.name, install_extra("web"))
        return None
    try:
        host, port = web_address(config.web)
        pairing = Pairing(code=config.pairing_code) if config.pairing_code else Pairing()
        return WebFront(store, Actions(new_game_on, (game,)), host=host, port=port,
                        pairing=pairing).start()
    except (ValueError, WebError) as error:
        log.warning("%s: playing without the web page", error)
        return None


def _continue_saved(saved: Saved) -> None:
    raise ContinueSaved(saved)


def status_screen(session: Session, load: Callable[[Saved], None] | None = None,
                  board: bool = False):
    """The status screen on the display there is, or ``None`` (said in one log line)
    when there is none a person could see. ``load`` takes a game from its load list.

    On a ``board`` (a real profile) a screen that does not open is a WARNING that says
    why and what fixes it, so ``journalctl -p warning`` shows it; on a simulated profile
    playing headless is ordinary and said at INFO. A board waits for its display: the
    service may start before the kernel makes the screen's device, or a screen may be
    plugged in later, and the screen opens when it can (:mod:`app.screen.awaited`)."""
    from app.screen.display import (NoDisplayError, choose_display, draws_nowhere,
                                    no_display_reason, screen_fix)
    level = logging.WARNING if board else logging.INFO

    def without_screen(reason: str, until: str = "") -> None:
        fix = f"; {screen_fix()}" if board else ""
        log.log(level, "no display (%s): playing without a screen%s%s", reason, until, fix)

    display = choose_display()
    if display is None and (not board or draws_nowhere()):
        without_screen(no_display_reason())
        return None
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        from app.games import GAMES
        from app.screen.awaited import RETRY_S, AwaitedScreen
        from app.screen.console import Console
        from app.screen.display import open_display, open_when_ready
        from app.screen.paint import DESIGN_SIZE
        from app.screen.window import StatusWindow
    except ImportError as error:
        log.log(level, "no display (the %s library is not installed): playing without a "
                       "screen; %s", error.name or "pygame", install_extra("screen"))
        return None
    console = Console(session, tuple(GAMES), load=load)
    if board:
        screen = AwaitedScreen(console, lambda: open_when_ready(DESIGN_SIZE, "Tabletop"))
        if screen.window is None:
            without_screen(screen.waiting_for, f" until it opens (looking every "
                                               f"{RETRY_S:g} s)")
        return screen
    try:
        surface = open_display(display, DESIGN_SIZE, caption="Tabletop")
    except NoDisplayError as error:
        without_screen(str(error))
        return None
    return StatusWindow(surface, console)
