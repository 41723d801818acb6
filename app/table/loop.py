"""The table loop: sensors in, session, LEDs and screen out, turn after turn.

One loop runs the board (``tabletop run``) and the desktop simulator alike; they differ
only in the parts plugged in: the sensor source (a GPIO matrix, or simulated sensors a
mouse puts pieces on), the LED strip, and the screen (the Pi's status screen, the
simulator's window with the board drawn, or none). Each turn hands the session the
holes whose readings changed, lets time pass, takes the engine's move once its search
(off the loop) is done, takes the buttons' presses, and then shows what changed: the
session's view (:mod:`app.table.view`, made once a revision) is what the LEDs, the
screen and the web page all show, and they are redrawn only when the ``revision``
moved, the LED frame also when blinking lights turn on or off. An idle board therefore
costs a sensor scan and a few comparisons per turn. systemd's watchdog is fed every turn, so a hung
loop is restarted.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from typing import Protocol

from app.errors import DisconnectError
from app.hardware.brightness import BRIGHTNESS_RULE, is_brightness
from app.hardware.buttons import Buttons
from app.hardware.leds import LedStrip
from app.hardware.profile import Profile
from app.hardware.sensors import SensorSource
from app.table.sensorlog import Reading
from app.table.service import Notifier
from app.table.session import Session
from app.table.view import View

log = logging.getLogger("tabletop")

#: Blinking lights are on for this long, then off for as long.
BLINK_S = 0.5


class Screen(Protocol):
    """What the loop needs of a screen: take its input, and draw when asked."""

    #: Whether the screen shows the LEDs (the simulator does): it is then redrawn when
    #: the LED frame changes too.
    shows_leds: bool

    def pump(self) -> bool:
        """Handle pending input (taps, clicks, window events); ``False`` to stop."""

    @property
    def dirty(self) -> bool:
        """Whether something only the screen knows of (a resize, the menu) needs a redraw."""

    def redraw(self) -> None:
        """Draw the session as it is now."""


class Remote(Protocol):
    """What the loop needs of a front end in another thread (the web page, the link to a
    board far away): to be told of every change, and to hand over what it was asked to
    do, which the loop carries out in its own thread, as it does a button's press."""

    def publish(self, session: Session) -> None:
        """The session changed (or is another one): its :meth:`Session.view` is new."""

    def commands(self) -> list[Callable[["Table"], None]]:
        """What was asked since the last call, oldest first."""


class Table:
    """A session wired to its sensors, LEDs, buttons, screen, front ends in other threads
    (the web page, a board far away) and systemd. ``remote`` is the web page alone, as
    its callers give it; ``remotes`` are the others."""

    def __init__(self, session: Session, profile: Profile, strip: LedStrip,
                 source: SensorSource | None = None, *, screen: Screen | None = None,
                 buttons: Buttons | None = None, notifier: Notifier | None = None,
                 blink_s: float = BLINK_S, remote: Remote | None = None,
                 remotes: Iterable[Remote] = ()) -> None:
        self.session, self.profile, self.strip = session, profile, strip
        self.source, self.screen, self.buttons = source, screen, buttons
        #: Every front end in another thread, each told of every change and asked for
        #: its commands in this order (the web page first, when there is one).
        self.remotes: list[Remote] = [*filter(None, [remote]), *remotes]
        self._page = remote
        self.notifier = notifier or Notifier(None)
        self.blink_s = blink_s
        self._scan = None  # the last scan, to skip unchanged ones at C speed
        self._readings: dict[str, tuple[bool, str | None]] = {}
        self._shown: tuple | None = None  # (session, revision) last shown
        self._scene = None  # the scene of the view shown
        self._lit: tuple | None = None  # (session, revision, blink phase) on the LEDs
        self._frame: list | None = None
        self._message: tuple[str, str] | None = None

    def turn(self, t: float) -> bool:
        """One turn of the loop at time ``t``; ``False`` once the screen asks to stop."""
        if self.source is not None:
            self.sense(t)
        keep_going = self.screen.pump() if self.screen is not None else True
        self.step(t)
        return keep_going

    def sense(self, t: float) -> None:
        """Hand the session every hole whose reading changed since the last scan, stamped
        with the time of the scan, or with the time the source saw the change where it
        says (a sensor board's scan has ``times``, on this clock: the pipeline's debounce
        and settle time then count from the moment the piece moved); a source that went
        away is reported, not fatal."""
        try:
            scan = self.source.read()
        except DisconnectError as error:
            self.session.on_disconnect(str(error))
            return
        if self.session.disconnected:
            self.session.on_reconnect()
        if scan is self._scan or (scan == self._scan and scan.colours == self._scan.colours):
            return
        self._scan = scan
        colours = scan.colours
        times = getattr(scan, "times", None)
        changed = []
        for hole, on in scan.items():
            state = (on, colours.get(hole))
            if self._readings.get(hole, (False, None)) != state:
                self._readings[hole] = state
                changed.append((min(t, times.get(hole, t)) if times else t, hole, on,
                                state[1]))
        if times:
            changed.sort(key=lambda reading: reading[0])  # in the order they happened
        for stamp, hole, on, colour in changed:
            self.session.on_reading(hole, on, stamp, colour)

    def step(self, t: float) -> None:
        """Everything but the sensors: time, the engine, the buttons, then what to show."""
        session = self.session
        session.tick(t)
        session.poll()
        for action in self.buttons.presses() if self.buttons else ():
            log.info("button: %s", action)
            {"confirm": session.confirm, "hint": session.hint, "undo": session.undo,
             "new_game": session.new_game}[action]()
        for remote in self.remotes:
            for command in remote.commands():
                command(self)
        self.show(t)
        self.notifier.watchdog()

    def show(self, t: float) -> None:
        """Light the LEDs and draw the screen, each only if what it shows changed."""
        session = self.session
        changed = self._shown != (session, session.revision)
        if changed:
            self._shown = (session, session.revision)
            view = session.view()
            self._scene = view.scene
            self._report(view)
            for remote in self.remotes:
                remote.publish(session)
        blink_on = int(t / self.blink_s) % 2 == 0
        lit = False
        if self._lit != (session, session.revision, blink_on):
            self._lit = (session, session.revision, blink_on)
            frame = self._scene.frame(self.profile, blink_on=blink_on)
            lit = frame != self._frame
            if lit:
                self.strip.show(frame)
                self._frame = frame
        screen = self.screen
        if screen is not None and (changed or screen.dirty or (lit and screen.shows_leds)):
            screen.redraw()

    @property
    def remote(self) -> Remote | None:
        """The web page, one of :attr:`remotes` (``None``: no page)."""
        return self._page

    @remote.setter
    def remote(self, page: Remote) -> None:
        """A web page started after the loop (the simulator's ``--page``, a page
        restarted) takes the place of the page before it, or the first place."""
        if self._page is not None:
            self.remotes[self.remotes.index(self._page)] = page
        else:
            self.remotes.insert(0, page)
        self._page = page

    def set_brightness(self, brightness: float) -> None:
        """Light the LEDs at ``brightness`` (above 0, at most 1) from now on: the frame
        is sent again at once."""
        if not is_brightness(brightness):
            raise ValueError(f"brightness must be {BRIGHTNESS_RULE}, not {brightness!r}")
        self.strip.brightness = brightness
        self._lit = self._frame = None

    def _report(self, view: View) -> None:
        """A new message goes to the journal and to systemd's status line."""
        status = view.status
        message = (status.message, status.message_kind)
        if message != self._message:
            self._message = message
            if status.message:
                log.info("%s: %s", status.message_kind, status.message)
                self.notifier.status(status.message)

    def run(self, period: float, clock: Callable[[], float] = time.monotonic,
            sleep: Callable[[float], None] = time.sleep) -> None:
        """Turn, sleep, until the screen asks to stop (the service: until a signal)."""
        while self.turn(clock()):
            sleep(period)

    def replay(self, readings: Iterable[Reading], speed: float = 0.0,
               clock: Callable[[], float] = time.monotonic,
               sleep: Callable[[float], None] = time.sleep) -> None:
        """Feed a sensor log in log time instead of scanning, then let the board settle;
        ``speed`` > 0 paces it at that multiple of real time."""
        session = self.session
        start = None
        for reading in readings:
            while (due := session.pipeline.deadline) is not None and due <= reading.t:
                self.step(due)
            if speed > 0:
                start = start or (clock() - reading.t / speed)
                sleep(max(0.0, start + reading.t / speed - clock()))
            session.on_reading(reading.hole, reading.on, reading.t, reading.colour)
            self.step(reading.t)
        while (due := session.pipeline.deadline) is not None:
            self.step(due)
