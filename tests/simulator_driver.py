"""Drive the desktop simulator as a person at the window does, for the simulator tests
of every game: a clock the test moves, time passing, clicks and taps on the screen."""

import pygame

from app.screen.simulator import BLINK_S


class Clock:
    """The simulator's clock, moved by the test."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def wait(sim, seconds=1.0, blink_on=True):
    """Let the board settle, ending in the blink phase asked for, and redraw."""
    clock = sim.clock_
    end = clock.now + seconds
    while clock.now < end:
        clock.now += 0.1
        sim.step()
    if (int(clock.now / BLINK_S) % 2 == 0) != blink_on:
        clock.now += BLINK_S
        sim.step()
    return sim.draw(sim.window)


def press(sim, pos, button=1):
    """A mouse button pressed at ``pos`` in the window."""
    sim.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))


def tap(sim, label):
    """Tap the screen's button labelled ``label``; returns the window redrawn."""
    press(sim, sim.draw(sim.window).button(label).rect.center)
    return wait(sim)
