"""A board's status screen that opens when its display appears.

At boot the service may start before the kernel has made ``/dev/dri/card*`` (the GPU's
driver loads late), and a screen may be plugged in while the board plays. Tried once at
start, such a board played without a screen until it was restarted. An
:class:`AwaitedScreen` stands in the table loop where the status window would, and tries
again from the loop's own turns: a look every ``retry_s`` at a few files, without SDL
(:class:`~app.screen.display.DisplayNotReady`), and SDL only once there is a device and a
screen on it. A display SDL then fails to open waits twice as long before the next try,
up to :data:`MAX_RETRY_S`, so a screen that will never open (a GPU driver missing) costs
the loop a failed SDL start now and then, not every few seconds. The caller says once
that it waits (:attr:`AwaitedScreen.waiting_for`); the screen says once that it opened.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import pygame

from app.screen.console import Console
from app.screen.display import DisplayNotReady, NoDisplayError
from app.screen.window import StatusWindow

log = logging.getLogger(__name__)

#: Seconds between looks for a display that is not there yet.
RETRY_S = 5.0
#: The longest wait between SDL's tries at a display it failed to open.
MAX_RETRY_S = 60.0


class AwaitedScreen:
    """The status screen of ``console`` once ``open_surface`` (which raises
    :class:`~app.screen.display.NoDisplayError` until it can) gives it a surface; tried
    at once, then from :meth:`pump`. Until then it takes no input and draws nothing."""

    shows_leds = False

    def __init__(self, console: Console, open_surface: Callable[[], pygame.Surface], *,
                 retry_s: float | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        retry_s = RETRY_S if retry_s is None else retry_s
        self.console = console
        self.window: StatusWindow | None = None
        #: Why there is no screen yet (``None`` once it opened).
        self.waiting_for: str | None = None
        self._open, self._retry_s, self._clock = open_surface, retry_s, clock
        self._since = clock()
        self._gap = retry_s
        self._try()

    @property
    def dirty(self) -> bool:
        return self.window is not None and self.window.dirty

    @dirty.setter
    def dirty(self, value: bool) -> None:
        if self.window is not None:
            self.window.dirty = value

    def pump(self) -> bool:
        if self.window is None and self._clock() >= self._next:
            self._try()
        return self.window.pump() if self.window is not None else True

    def redraw(self) -> None:
        if self.window is not None:
            self.window.redraw()

    def _try(self) -> None:
        now = self._clock()
        try:
            surface = self._open()
        except DisplayNotReady as error:
            self.waiting_for, self._next = str(error), now + self._retry_s
            return
        except NoDisplayError as error:
            self.waiting_for, self._next = str(error), now + self._gap
            self._gap = min(2 * self._gap, MAX_RETRY_S)
            return
        if self.waiting_for is not None:
            log.info("the display appeared %.0f s after start: the status screen is on",
                     now - self._since)
        self.window, self.waiting_for = StatusWindow(surface, self.console), None
