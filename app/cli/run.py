"""``tabletop run --profile P``: the product itself, as the Pi's service runs it.

It builds the table from the profile and the configuration and turns the table loop
(:mod:`app.table.loop`): scan the sensors, play the moves, light the scene, draw the
status screen, feed systemd's watchdog. The screen is the Pi's display (SDL's KMS/DRM
driver without a desktop); with no display at all the board says so in one log line and
plays on without one. Games are saved after every move and resumed at the next start.
With ``--log`` a simulated board is driven by a sensor log instead of people, in log
time (``--speed`` replays it at that multiple of real time), which is how the tests play
whole games and pull the plug in the middle of them. Logs go to standard output for the
journal; SIGTERM turns the LEDs off and stops cleanly.
"""

from __future__ import annotations

import logging
import os
import sys

from app.cli import log_to_stdout
from app.hardware.buttons import Buttons
from app.hardware.leds import open_strip
from app.hardware.profile import ProfileError, load_profile
from app.hardware.sensors import open_source
from app.sensing.sensorlog import SensorLogError, read_log_file
from app.table.config import ConfigError, load_config
from app.table.loop import Table
from app.table.service import Notifier, ServiceStop, stop_on_signals
from app.table.session import Session
from app.table.store import RecordStore
from app.table.thinker import InlineThinker, Thinker
from engines import EngineError

log = logging.getLogger("tabletop")


def register(subparsers) -> None:
    parser = subparsers.add_parser("run", help="run a board: sensors, LEDs, buttons, saving")
    parser.add_argument("--profile", required=True,
                        help="board profile name (shipped) or .toml path")
    parser.add_argument("--config", help="configuration file (default: "
                                         "/etc/tabletop/tabletop.toml if it exists)")
    parser.add_argument("--log", help="simulated profiles: play the readings of this sensor "
                                      "log instead of scanning, then stop")
    parser.add_argument("--speed", type=float, default=0.0,
                        help="with --log: replay at this multiple of real time "
                             "(default 0: as fast as possible)")
    parser.set_defaults(run=run)


def run(args) -> int:
    log_to_stdout()
    try:
        profile = load_profile(args.profile)
        config = load_config(args.config)
        config.check_buttons(profile)
        options, readings = dict(config.options), None
        if args.log:
            if profile.sensors.driver != "simulated":
                raise ProfileError(f"--log drives simulated sensors; profile {profile.name} "
                                   f"has {profile.sensors.driver} sensors")
            header, readings = read_log_file(args.log, profile)
            if header.game != profile.game:
                raise SensorLogError(f"the log is a {header.game} game, the profile "
                                     f"{profile.game}")
            options = dict(header.options)
        store = RecordStore(config.data_dir)
        # A replayed log plays in log time: the engine answers at once, as it would
        # have had all the time in the world between the logged readings.
        session = Session.resume_or_start(
            store, profile.game, options, seats=config.seats, level=config.level,
            seed=config.seed, show_legal=config.show_legal,
            colour_sensing=profile.sensors.colour,
            thinker=InlineThinker() if readings is not None else Thinker())
    except (OSError, ProfileError, ConfigError, SensorLogError, EngineError) as error:
        print(f"tabletop run: {error}", file=sys.stderr)
        return 2
    log.info("profile %s, game %s, records in %s", profile.name, profile.game, store.directory)
    notifier = Notifier.from_environ()
    strip = source = buttons = None
    with stop_on_signals():
        try:
            strip = open_strip(profile)
            if config.buttons:
                buttons = Buttons(config.buttons)
            if readings is None:
                source = open_source(profile)
            table = Table(session, profile, strip, source, screen=status_screen(session),
                          buttons=buttons, notifier=notifier, blink_s=config.blink_s)
            notifier.ready(f"playing {profile.game}")
            if readings is None:
                table.run(config.poll_s)
            else:
                table.replay(readings, args.speed)
                log.info("end of sensor log")
        except ServiceStop as stop:
            log.info("stopping on %s", stop)
        finally:
            notifier.stopping()
            for device in (buttons, source, strip):
                if device is not None:
                    device.close()
            log.info("LEDs off, stopped")
            notifier.close()
    return 0


def status_screen(session: Session):
    """The status screen on the display there is, or ``None`` (said in one log line)
    when there is none a person could see."""
    from app.screen.display import NoDisplayError, choose_display
    display = choose_display()
    if display is None:
        log.info("no display (no DISPLAY or WAYLAND_DISPLAY, no KMS/DRM device): "
                 "playing without a screen")
        return None
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from app.games import GAMES
    from app.screen.console import Console
    from app.screen.display import open_display
    from app.screen.paint import DESIGN_SIZE
    from app.screen.window import StatusWindow
    try:
        surface = open_display(display, DESIGN_SIZE, caption="Tabletop")
    except NoDisplayError as error:
        log.info("no display (%s): playing without a screen", error)
        return None
    return StatusWindow(surface, Console(session, tuple(GAMES)))
