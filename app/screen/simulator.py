"""The desktop simulator: the board to scale on the left, the status screen on the right.

Nothing here plays the game. The mouse puts pieces into simulated sensors, exactly as
hands put them into holes; the readings go through the same session and sensing
pipeline as on the Pi; the session's LED scene is rendered into a simulated strip with
the profile's brightness and current cap; and each hole glows in the colour its LED was
sent. So what works here works on the board.

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
from app.table.session import Session
from app.table.store import RecordStore
from engines.core import other

#: The window on a desktop: a square board beside an 800-wide status screen.
WINDOW = (1460, 660)
FPS = 30
#: LEDs that blink are lit for this long, then dark for as long.
BLINK_S = 0.5


class Simulator:
    """One simulated board with its session. ``clock`` gives seconds (monotonic); tests
    pass a fake one to step through debounce and settle times."""

    def __init__(self, choice: Choice, *, clock: Callable[[], float] = time.monotonic,
                 seed: int | None = None, store: RecordStore | None = None) -> None:
        self.clock = clock
        self.store = store
        self.rng = random.Random(seed)
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
                               colour_sensing=colour)
        if self.store is not None:
            self.store.start(board)
        self.console.session = self.session
        self.pieces: dict[str, str] = {}
        self._scan = self.sensors.read()
        self._drawer: BoardDrawer | None = None
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
        """Send changed readings to the session, let time pass, and light the LEDs."""
        now = self.clock()
        scan = self.sensors.read()
        for hole, on in scan.items():
            if on != self._scan[hole] or scan.colours.get(hole) != self._scan.colours.get(hole):
                self.session.on_reading(hole, on, now, scan.colours.get(hole))
        self._scan = scan
        self.session.tick(now)
        blink_on = int(now / BLINK_S) % 2 == 0
        frame = self.session.scene().frame(self.profile, blink_on=blink_on)
        if frame != self._shown():
            self.strip.show(frame)

    def _shown(self) -> list | None:
        return self.strip.frames[-1] if self.strip.frames else None

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

    # --- the window ---------------------------------------------------------------------
    def handle(self, event: pygame.event.Event) -> bool:
        """One pygame event; ``False`` when the window should close."""
        if event.type == pygame.QUIT:
            return False
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button in (1, 3):
            self.click(event.pos, event.button)
        return True

    def run(self, surface: pygame.Surface) -> None:
        """The event loop: until the window closes, about ``FPS`` frames a second."""
        ticker = pygame.time.Clock()
        while True:
            for event in pygame.event.get():
                if not self.handle(event):
                    return
                if event.type == pygame.VIDEORESIZE:
                    surface = pygame.display.get_surface()
            self.step()
            self.draw(surface)
            pygame.display.flip()
            ticker.tick(FPS)
