"""``tabletop run --profile P``: the product itself, as the Pi's service runs it.

One loop: scan the sensors, hand what changed to the session, read the buttons, light
the scene, feed systemd's watchdog. Games are saved after every move and resumed at the
next start. With ``--log`` a simulated board is driven by a sensor log instead of
people, in log time (``--speed`` replays it at that multiple of real time), which is how
the tests play whole games and pull the plug in the middle of them. Logs go to standard
output for the journal; SIGTERM turns the LEDs off and stops cleanly.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable, Iterable

from app.hardware.buttons import Buttons
from app.table.config import ConfigError, load_config
from app.hardware.leds import LedStrip, open_strip
from app.hardware.profile import Profile, ProfileError, load_profile
from app.hardware.sensors import Scan, SensorSource, open_source
from app.sensing.sensorlog import Reading, SensorLogError, read_log
from app.table.service import Notifier, ServiceStop, stop_on_signals
from app.table.session import Session
from app.table.store import RecordStore
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


class Table:
    """A session wired to its LEDs, buttons and systemd: what the main loop turns."""

    def __init__(self, session: Session, profile: Profile, strip: LedStrip, *,
                 buttons: Buttons | None = None, notifier: Notifier | None = None,
                 blink_s: float = 0.5) -> None:
        self.session, self.profile, self.strip = session, profile, strip
        self.buttons = buttons
        self.notifier = notifier or Notifier(None)
        self.blink_s = blink_s
        self._scan: dict[str, tuple[bool, str | None]] = {}
        self._frame: list | None = None
        self._message = None

    def scan(self, scan: Scan, t: float) -> None:
        """Hand the session every hole whose reading changed since the last scan."""
        for hole, on in scan.items():
            state = (on, scan.colours.get(hole))
            if self._scan.get(hole, (False, None)) != state:
                self._scan[hole] = state
                self.session.on_reading(hole, on, t, state[1])

    def step(self, t: float) -> None:
        """Everything but the sensors, once per loop turn at time ``t``."""
        self.session.tick(t)
        for action in self.buttons.presses() if self.buttons else ():
            log.info("button: %s", action)
            {"confirm": self.session.confirm, "hint": self.session.hint,
             "undo": self.session.undo, "new_game": self.session.new_game}[action]()
        self.render(t)
        status = self.session.status()
        if (status.message, status.message_kind) != self._message:
            self._message = (status.message, status.message_kind)
            if status.message:
                log.info("%s: %s", status.message_kind, status.message)
                self.notifier.status(status.message)
        self.notifier.watchdog()

    def render(self, t: float) -> None:
        blink_on = int(t / self.blink_s) % 2 == 0
        frame = self.session.scene().frame(self.profile, blink_on=blink_on)
        if frame != self._frame:
            self.strip.show(frame)
            self._frame = frame


def poll(table: Table, source: SensorSource, period: float,
         clock: Callable[[], float] = time.monotonic,
         sleep: Callable[[float], None] = time.sleep) -> None:
    """Scan, step, sleep, for ever: the service's main loop."""
    while True:
        t = clock()
        table.scan(source.read(), t)
        table.step(t)
        sleep(period)


def replay(table: Table, readings: Iterable[Reading], speed: float = 0.0,
           clock: Callable[[], float] = time.monotonic,
           sleep: Callable[[float], None] = time.sleep) -> None:
    """Feed a sensor log in log time, then let the board settle; ``speed`` > 0 paces it."""
    session = table.session
    start = None
    for reading in readings:
        while (due := session.pipeline.deadline) is not None and due <= reading.t:
            table.step(due)
        if speed > 0:
            start = start or (clock() - reading.t / speed)
            sleep(max(0.0, start + reading.t / speed - clock()))
        session.on_reading(reading.hole, reading.on, reading.t, reading.colour)
        table.step(reading.t)
    while (due := session.pipeline.deadline) is not None:
        table.step(due)


def run(args) -> int:
    logging.basicConfig(stream=sys.stdout, level=logging.INFO,
                        format="%(levelname)s %(name)s: %(message)s", force=True)
    try:
        profile = load_profile(args.profile)
        config = load_config(args.config)
        config.check_buttons(profile)
        options, readings = dict(config.options), None
        if args.log:
            if profile.sensors.driver != "simulated":
                raise ProfileError(f"--log drives simulated sensors; profile {profile.name} "
                                   f"has {profile.sensors.driver} sensors")
            with open(args.log, encoding="utf-8") as stream:
                header, readings = read_log(stream)
            if header.game != profile.game:
                raise SensorLogError(f"the log is a {header.game} game, the profile "
                                     f"{profile.game}")
            options = dict(header.options)
        store = RecordStore(config.data_dir)
        session = Session.resume_or_start(
            store, profile.game, options, seats=config.seats, level=config.level,
            seed=config.seed, show_legal=config.show_legal,
            colour_sensing=profile.sensors.colour)
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
            table = Table(session, profile, strip, buttons=buttons, notifier=notifier,
                          blink_s=config.blink_s)
            if readings is None:
                source = open_source(profile)
            notifier.ready(f"playing {profile.game}")
            if readings is None:
                poll(table, source, config.poll_s)
            else:
                replay(table, readings, args.speed)
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
