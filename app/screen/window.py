"""The board's own screen for the table loop: the status screen (or the new-game menu)
on the Pi's display, answering taps.

The loop asks it to draw only when the session changed or the screen itself needs it
(a tap opened the menu, the window was exposed or resized), so an idle board draws
nothing. On a Pi without a desktop the surface is SDL's KMS/DRM full screen. SDL turns
a finger on the touch display into a mouse click as well as a touch event, so clicks
alone are taken as taps (taking both would press every button twice).
"""

from __future__ import annotations

import pygame

from app.screen.console import Console
from app.screen.display import resized

#: pygame events that ask for the whole screen to be drawn again.
_REDRAW = (pygame.VIDEORESIZE, pygame.VIDEOEXPOSE, pygame.WINDOWEXPOSED,
           pygame.WINDOWSIZECHANGED)


class StatusWindow:
    """The status screen of ``console`` on ``surface``, for :class:`app.table.loop.Table`."""

    shows_leds = False

    def __init__(self, surface: pygame.Surface, console: Console) -> None:
        self.surface = surface
        self.console = console
        self.dirty = True

    def pump(self) -> bool:
        """Taps become session calls; the service never closes its own screen."""
        for event in pygame.event.get():
            if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                self.console.tap(event.pos)
                self.dirty = True
            elif event.type in _REDRAW:
                self.surface = resized(getattr(event, "size", None)) or self.surface
                self.dirty = True
        return True

    def redraw(self) -> None:
        self.console.draw(self.surface)
        pygame.display.flip()
        self.dirty = False
