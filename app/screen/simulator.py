"""The desktop simulator: the board to scale on the left, the status screen on the right.

Nothing here plays the game. The simulator is the board's own table loop
(:mod:`app.table.loop`) with two parts plugged in: simulated sensors that the mouse puts
pieces into, exactly as hands put them into holes, and this window as the screen, which
draws the board with each hole glowing in the colour its LED was sent. The readings go
through the same session and sensing pipeline as on the Pi, and the LED frames through a
simulated strip with the profile's brightness and current cap. So what works here works
on the board.

Mouse: left click on an empty hole places a piece of the player to move, right click one
of the other colour (to try mistakes); a click on a piece lifts it. Esc quits.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import pygame

from app.games import GAMES, new_game
from app.hardware.leds import SimulatedStrip
from app.hardware.profile import Profile, load_profile
from app.hardware.sensors import SimulatedSensors
from app.screen.boards import BoardDrawer, drawer_for
from app.screen.console import Console
from app.screen.menu import Choice
from app.screen.paint import DESIGN_SIZE, Drawn
from app.table.loop import BLINK_S, Table
from app.table.session import Session
from app.table.store import RecordStore
from app.table.thinker import Thinker
from engines.core import other

#: The window on a desktop: a square board beside an 800-wide status screen.
WINDOW = (1460, 660)
#: Loop turns a second: the sensors are scanned and the window answers this often.
FPS = 30


class Simulator:
    """One simulated board with its session, and the window that shows it: the screen of
    its table loop. ``clock`` gives seconds (monotonic); tests pass a fake one to step
    through debounce and settle times, and an inline ``thinker`` to have the engine's
    move at once."""

    #: The window shows the LEDs: it is redrawn when they change.
    shows_leds = True

    def __init__(self, choice: Choice, *, clock: Callable[[], float] = time.monotonic,
                 seed: int | None = None, store: RecordStore | None = None,
                 thinker: Thinker | None = None) -> None:
        self.clock = clock
        self.store = store
        self.thinker = thinker or Thinker()
        self.rng = random.Random(seed)
        self.surface: pygame.Surface | None = None
        self.dirty = True
        self._running = True
        self.console = Console(None, tuple(GAMES), start=self.start)
        self.start(choice)

    def start(self, choice: Choice) -> None:
        """A fresh board for ``choice``: its simulated profile, sensors, LEDs and session."""
        board = new_game(choice.game, **choice.options)
        self.profile: Profile = load_profile(f"{choice.game}-sim")
        colour = self.profile.sensors.colour
        self.sensors = SimulatedSensors(self.profile.holes, colour_sensing=colour)
        self.strip = SimulatedStrip(self.profile.led_count, brightness=self.profile.brightness,
                                    max_ma=self.profile.max_ma)
        self.session = Session(board, seats=choice.seats, level=choice.level,
                               store=self.store, seed=self.rng.randrange(2**32),
                               colour_sensing=colour, thinker=self.thinker)
        if self.store is not None:
            self.store.start(board)
        self.console.session = self.session
        self.pieces: dict[str, str] = {}
        self.table = Table(self.session, self.profile, self.strip, self.sensors, screen=self,
                           blink_s=BLINK_S)
        self._drawer: BoardDrawer | None = None
        self.dirty = True
        self.step()

    # --- the hand -----------------------------------------------------------------------
    def place(self, hole: str, colour: str | None = None) -> None:
        """Put a piece in ``hole``: the mover's colour unless ``colour`` says otherwise."""
        colour = colour or self.session.board.turn
        self.sensors.place(hole, colour)
        self.pieces[hole] = colour
        self.step()

    def lift(self, hole: str) -> None:
        self.sensors.lift(hole)
        self.pieces.pop(hole, None)
        self.step()

    def click(self, pos: tuple[int, int], button: int = 1) -> None:
        """A mouse click: on a hole it places or lifts, elsewhere it taps the screen."""
        hole = self._drawer.hole_at(pos) if self._drawer else None
        if hole is None:
            self.console.tap(pos)
            self.step()
        elif hole in self.pieces:
            self.lift(hole)
        else:
            turn = self.session.board.turn
            self.place(hole, turn if button == 1 else other(turn))

    # --- time ---------------------------------------------------------------------------
    def step(self) -> None:
        """One turn of the table loop now: readings to the session, time, the LEDs, and
        the window if it is open and something changed."""
        now = self.clock()
        self.table.sense(now)
        self.table.step(now)

    def hole_leds(self) -> dict[str, tuple[int, int, int]]:
        """The colour each hole's LED shows now (a hole's first LED, in chain order)."""
        lit = self.strip.lit
        return {name: lit[hole.leds[0]] for name, hole in self.profile.holes.items()
                if hole.leds}

    def area_leds(self) -> dict[str, tuple[int, int, int]]:
        lit = self.strip.lit
        return {name: lit[leds[0]] for name, leds in self.profile.areas.items() if leds}

    # --- drawing ------------------------------------------------------------------------
    def areas(self, size: tuple[int, int]) -> tuple[pygame.Rect, pygame.Rect]:
        """The board's square and the status screen (at least 800 wide) in a window."""
        width, height = size
        side = max(min(height, width - DESIGN_SIZE[0]), 0)
        return pygame.Rect(0, 0, side, height), pygame.Rect(side, 0, width - side, height)

    def draw(self, surface: pygame.Surface) -> Drawn:
        board_area, screen_area = self.areas(surface.get_size())
        board = self.session.board
        if (self._drawer is None or self._drawer.board is not board
                or self._drawer.area != board_area):
            self._drawer = drawer_for(board, board_area)
        self._drawer.draw(surface, self.pieces, self.hole_leds(), self.area_leds())
        return self.console.draw(surface, screen_area)

    @property
    def drawer(self) -> BoardDrawer | None:
        """The drawer of the last frame drawn (hole centres in window pixels)."""
        return self._drawer

    # --- the window: the table loop's screen -------------------------------------------
    def handle(self, event: pygame.event.Event) -> bool:
        """One pygame event; ``False`` when the window should close."""
        if event.type == pygame.QUIT:
            return False
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button in (1, 3):
            self.click(event.pos, event.button)
            self.dirty = True
        elif event.type in (pygame.VIDEORESIZE, pygame.WINDOWEXPOSED,
                            pygame.WINDOWSIZECHANGED):
            self.surface = pygame.display.get_surface()
            self.dirty = True
        return True

    def pump(self) -> bool:
        """The window's events, for the table loop; ``False`` once it should close."""
        return all([self.handle(event) for event in pygame.event.get()])

    def run(self, surface: pygame.Surface) -> None:
        """The table loop, until the window closes: about ``FPS`` turns a second."""
        self.surface = surface
        while self.table.turn(self.clock()):  # a new game brings a new table
            time.sleep(1 / FPS)

    def redraw(self) -> None:
        """Draw the window, for the table loop (only when something changed)."""
        if self.surface is not None:
            self.draw(self.surface)
            pygame.display.flip()
        self.dirty = False
