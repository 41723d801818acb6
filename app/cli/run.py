"""``tabletop run --profile P``: the product itself, as the Pi's service runs it.

It builds the table from the profile and the configuration and turns the table loop
(:mod:`app.table.loop`): scan the sensors, play the moves, light the scene, draw the
status screen, publish to the web page, feed systemd's watchdog. The screen is the Pi's
display (SDL's KMS/DRM driver without a desktop); with no display at all the board says
so in one log line and plays on without one. Its web page (``[web]``) is part of the
board: an address that is no address of this machine, or a port that cannot be had,
stops it in one line, as any other mistake in the configuration does. The devices are
opened before anything else: a board that cannot light or sense its pieces leaves no
game behind. Games are saved after every move and the game of this board (its game and
profile) is resumed at the next start; the screen's load list continues any other saved
game, in a new session on the same devices, between two turns of the loop. The screen
and the page offer the same games: the board's own.
With ``[remote]`` the board also plays boards far away through that MQTT broker
(:mod:`app.remote.play`): the screen's menu offers and joins such a game, which takes
over between two turns as a saved game does, and the game with a far board that was on
when the board stopped (a restart, a power cut) is continued at its next start, its
link started once the table turns. Another game started on the board leaves it.
A ``[remote]`` naming a ``club`` also lists every game the board plays, far or not, in
the club's live listing (:mod:`app.remote.club`), offline once the board stops.
With ``--log`` a simulated board is driven by a sensor log instead of people, in log
time (``--speed`` replays it at that multiple of real time), which is how the tests play
whole games and pull the plug in the middle of them. Logs go to standard output for the
journal; SIGTERM turns the LEDs off and stops cleanly.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable

from app.cli import logging_to_stdout, speed
from app.errors import ConfigError, install_extra
from app.remote import config as remote_config
from app.hardware.profile import ProfileError, load_profile
from app.table.sensorlog import read_log_file
from app.table.config import load_config
from app.table.service import Notifier, ServiceStop, stop_on_signals
from app.table.assembly import Asked, Assembly, open_devices, start_game
from app.table.session import Session
from app.table.store import RecordStore
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
    address = web_address_of(config) if readings is None else None
    far_config = far_config_of(config)
    notifier = Notifier.from_environ()
    devices = assembly = remote = far = feed = session = None
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
            assembly = Assembly.configured(
                config, store, profile,
                thinker=InlineThinker() if readings is not None else ProcessThinker())
            # The page's address before the game: a board that cannot serve its page
            # stops, and leaves no game behind either.
            if address is not None:
                remote = web_page(store, (profile.game,), address, config.pairing_code,
                                  new_game=lambda table, *game: own_game(far, table, *game),
                                  far=lambda: far, club=lambda: feed and feed.broker.config)
            link = None
            if far_config is not None and readings is None:
                from app.remote.play import FarPlay, far_game_path
                far = FarPlay(far_config, far_game_path(config.data_dir), (profile.game,))
                link = far.resume()  # the game with a board far away, if one was on
                from app.remote.club import live_feed
                # The club's listing sees every game of this board, far or not.
                feed = live_feed(config.remote, str(config.path or "the configuration"))
            if link is not None:  # its own record, or a new one if it has none yet
                record = far.record(store)
                session = assembly.session(link.game.game, link.game.options,
                                           seats=link.seats(), record=record,
                                           new=record is None)
                far.recorded()
            else:
                session = assembly.session(profile.game, options)
            asked = Asked()
            screen = status_screen(session, load=None if readings is not None
                                   else asked.load, board=profile.sensors.driver != "simulated",
                                   games=(profile.game,))
            if remote is not None and screen is not None:
                screen.console.note = remote.note
            if far is not None and screen is not None:
                screen.console.far = far
                start = screen.console.start
                # A new game from the menu is this board's own: the far one is left.
                screen.console.start = lambda choice: (far.leave(screen.console.session),
                                                       start(choice))
            while True:
                table = assembly.table(session, devices, screen=screen, notifier=notifier,
                                       blink_s=config.blink_s, remote=remote,
                                       remotes=[part for part in (link, feed)
                                                if part is not None])
                if link is not None:
                    link.start()
                notifier.ready(f"playing {session.board.game}")
                if readings is not None:
                    table.replay(readings, args.speed)
                    log.info("end of sensor log")
                    break
                chosen = turn_until_asked(table, asked, config.poll_s, far=far)
                if chosen is None:
                    break
                if session.thought is not None:
                    session.thought.cancel()
                if chosen[0] == "far":
                    link = chosen[1]
                    session = assembly.session(link.game.game, link.game.options,
                                               new=True, seats=link.seats())
                    far.recorded()
                else:
                    if far is not None:
                        far.leave(session)
                    link = None
                    saved = chosen[1]
                    log.info("continuing %s from the load list", saved.path.name)
                    session = assembly.session(saved.game, {}, record=saved.path.name)
                if screen is not None:
                    screen.console.session, screen.dirty = session, True
        except ServiceStop as stop:
            log.info("stopping on %s", stop)
        finally:
            notifier.stopping()
            if far is not None:
                far.stop(session)
            for part in (remote, feed, assembly):
                if part is not None:
                    part.close()
            if devices is not None:
                devices.close()
                log.info("LEDs off, stopped")
            notifier.close()
    return 0


def own_game(far, table, game: str, options, seats, level: int) -> None:
    """A new game of this board's own on ``table``, as the page starts one: with a far
    board's game on (``far``'s, set once the page serves), that game is left first, on
    both boards, as the menu's new game leaves it, for the page seats no far board."""
    if far is not None:
        far.leave(table.session)
    start_game(table.session, game, options, seats, level)


def turn_until_asked(table, asked: Asked, period: float,
                     clock: Callable[[], float] = time.monotonic,
                     sleep: Callable[[float], None] = time.sleep, far=None):
    """Turn the table loop until a turn ends with a game asked for (returned, as
    :meth:`Asked.take` gives it, or ``("far", link)``: a game agreed with a board far
    away, from ``far``'s :meth:`~app.remote.play.FarPlay.take`) or the screen asks to
    stop (``None``): a game is changed between turns, never inside one. The screen is
    drawn again whenever the far game's invitation moves on (its code, its end)."""
    shown = far.state if far is not None else None
    while table.turn(clock()):
        chosen = asked.take()
        if chosen is not None:
            return chosen
        if far is not None:
            link = far.take(table.session)
            if link is not None:
                return "far", link
            if far.state != shown:
                shown = far.state
                if table.screen is not None:
                    table.screen.dirty = True
        sleep(period)
    return None


def far_config_of(config):
    """``config``'s ``[remote]`` checked (``None``: the board plays no board far away);
    a mistake is one line naming the file and the key."""
    if config.remote is None:
        return None
    where = str(config.path or "the configuration")
    parsed = remote_config.parse(config.remote, where)
    try:  # the library before the devices, as any other mistake of the file
        import app.remote.play  # noqa: F401
    except ImportError as error:
        raise ConfigError(f"{where}: remote: needs the "
                          f"{(error.name or 'paho').partition('.')[0]} library: "
                          f"{install_extra('remote')}") from None
    return parsed


def web_address_of(config) -> tuple[str, int] | None:
    """Where ``config``'s page is served (``None``: ``[web]`` turns it off); an address
    that is none is the configuration's mistake, in one line naming the file."""
    if config.web is None:
        return None
    from app.web.address import web_address
    try:
        return web_address(config.web)
    except ValueError as error:
        raise ConfigError(f"{config.path or 'the configuration'}: web: {error}") from None


def web_page(store: RecordStore, games: tuple[str, ...], address: tuple[str, int],
             pairing_code: str | None = None, new_game=None, far=None, club=None):
    """The board's page at ``address`` offering ``games``, serving until closed, a new
    game started by ``new_game(table, game, options, seats, level)`` (by default
    :func:`~app.table.assembly.start_game` on the table's session): the one way every
    front end serves its page. ``far()`` gives the board's
    :class:`~app.remote.play.FarPlay` once there is one (``[remote]``), for the page's
    Far board part, and ``club()`` the broker's settings of the club the board lists its
    games in (``[remote]`` naming a ``club``), for the page's Club view. ``None``, said
    in one WARNING line, when the web library is not installed: the board plays on
    without it, as it does without a screen. An
    address that cannot be served is a :class:`~app.web.server.WebError` in one line."""
    try:
        from app.web.pairing import Pairing
        from app.web.server import Actions, WebFront
    except ImportError as error:
        log.warning("no web page (the %s library is not installed): playing without it; "
                    "%s", error.name, install_extra("web"))
        return None
    if new_game is None:
        def new_game(table, game, options, seats, level):
            start_game(table.session, game, options, seats, level)
    host, port = address
    pairing = Pairing(code=pairing_code) if pairing_code else Pairing()
    return WebFront(store, Actions(new_game, games), host=host, port=port,
                    pairing=pairing, far=far, club=club).start()


def status_screen(session: Session, load: Callable | None = None, board: bool = False,
                  games: tuple[str, ...] = ()):
    """The status screen on the display there is, or ``None`` (said in one log line)
    when there is none a person could see. ``load`` takes a game from its load list;
    its menu offers ``games`` (a board's: its own game), started by
    :func:`~app.table.assembly.start_game`.

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
        from app.screen.awaited import RETRY_S, AwaitedScreen
        from app.screen.console import Console
        from app.screen.display import open_display, open_when_ready
        from app.screen.paint import DESIGN_SIZE
        from app.screen.window import StatusWindow
    except ImportError as error:
        log.log(level, "no display (the %s library is not installed): playing without a "
                       "screen; %s", error.name or "pygame", install_extra("screen"))
        return None
    console = Console(session, games or (session.board.game,),
                      start=lambda choice: start_game(console.session, choice.game,
                                                      choice.options, choice.seats,
                                                      choice.level),
                      load=load)
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
