"""A simulated board: the table a ``-sim`` profile describes, with a hand to play it.

This is the desktop simulator without its window, and without pygame: the profile's
simulated sensors and LED strip (or, with ``serial``, a virtual sensor board behind a
pseudo-terminal read by the real serial driver), the session and the table loop, all
assembled as ``tabletop run`` assembles a board (:mod:`app.table.assembly`), and the
one simulated :class:`~app.table.hand.Hand` that puts pieces into the holes. The window
(:mod:`app.screen.simulator`) adds the drawing and the mouse; tests and scripts can
play a whole game here with no display at all.

Every game is saved as it is played when a store is given, and ``resume`` continues the
newest unfinished game of the chosen game on this board, its pieces set out again.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from types import ModuleType
from typing import Any

from app.games import game as game_info
from app.hardware.profile import Profile, load_profile
from app.table.assembly import Assembly, Devices, open_devices
from app.table.engine_process import ProcessThinker
from app.table.hand import Hand
from app.table.loop import BLINK_S, Remote
from app.table.session import Session
from app.table.store import RecordStore, Saved
from app.table.thinker import Thinker

RGB = tuple[int, int, int]


class SimulatedBoard:
    """One simulated board with its session and hand. ``clock`` gives seconds
    (monotonic); tests pass a fake one to step through debounce and settle times, and an
    inline ``thinker`` to have the engine's move at once. The game is ``game`` with
    ``options``, ``seats`` and ``level`` (a new one, or with ``resume`` the one in
    progress on this board)."""

    #: What the table loop draws on: nothing here (the window gives itself).
    screen = None

    def __init__(self, game: str, options: Mapping[str, Any], seats: Mapping[str, str],
                 level: int, *, clock: Callable[[], float] = time.monotonic,
                 seed: int | None = None, store: RecordStore | None = None,
                 thinker: Thinker | None = None, resume: bool = False,
                 serial: bool = False, remote: Remote | None = None) -> None:
        self.clock = clock
        #: A front end in another thread that follows the table (the web page).
        self.remote = remote
        self.serial = serial
        self.store = store
        #: Our engine searches in a process of its own unless told otherwise (one
        #: started at the first search), as on a board.
        self.thinker = thinker or ProcessThinker()
        self.rng = random.Random(seed)
        self.device = None  # the virtual sensor board, with serial
        self.devices: Devices | None = None
        self.session: Session | None = None
        if resume and store is not None:
            self.resume(game, options, seats, level)
        else:
            self.start(game, options, seats, level)

    # --- games: new, resumed, loaded -------------------------------------------------
    def start(self, game: str, options: Mapping[str, Any], seats: Mapping[str, str],
              level: int) -> None:
        """A fresh board for a new game: its simulated profile, devices and session, and
        a new record in the store."""
        self.leave()
        self._begin(self._open(game).session(game, options, new=True, seats=dict(seats),
                                             level=level, seed=self._seed()))

    def resume(self, game: str, options: Mapping[str, Any], seats: Mapping[str, str],
               level: int) -> None:
        """Continue the newest unfinished game of ``game`` saved on this board, as
        ``tabletop run`` does (its pieces are still on the board after a crash), even
        where a newer one has finished since; with none, a new game."""
        self.leave()
        session = self._open(game).session(game, options, seats=dict(seats), level=level,
                                           seed=self._seed(), finished=False)
        self._begin(session, set_out=session.resumed)

    def leave(self) -> None:
        """The game on the board is left (another begins, the window closes): one begun
        here and left before its first move is not kept
        (:meth:`~app.table.store.RecordStore.drop_empty` says why)."""
        if self.store is not None and self.session is not None and not self.session.resumed:
            self.store.drop_empty(self.session.board)

    def load(self, saved: Saved) -> None:
        """Continue a saved game from the load list, its pieces set out on the simulated
        board as a person would set them out."""
        if self.store is None or saved.path != self.store.current:
            self.leave()
        session = self._open(saved.game).session(saved.game, {}, record=saved.path.name,
                                                 seed=self._seed())
        self._begin(session, set_out=True)

    def _seed(self) -> int:
        return self.rng.randrange(2**32)

    def _open(self, game: str) -> Assembly:
        """The simulated board of ``game``: its profile, devices and hand, and what its
        sessions are assembled from."""
        self.close()
        self.profile: Profile = load_profile(f"{game}-sim")
        if self.store is not None:
            self.store.profile = self.profile.name
        if self.serial:
            self._open_serial()
        else:
            self.devices = open_devices(self.profile)
            self.sensors = self.devices.source
        self.hand = Hand(self.sensors, self.profile.holes, game_info(game).pile_physics)
        # The simulated board's panels are drawn where they go: nothing to lay out.
        return Assembly(self.store, self.profile, settings={"lay_out": False},
                        thinker=self.thinker)

    def _open_serial(self) -> None:
        """A virtual sensor board for the profile, the hand on its sensors, and the
        serial driver reading it, through a profile whose sensors are on its port."""
        from app.hardware.virtual_device import DeviceSensors, device_for
        self.device = device_for(self.profile).start()
        self.profile = replace(self.profile, sensors=replace(
            self.profile.sensors, driver="serial", port=self.device.path))
        self.sensors = DeviceSensors(self.device, self.profile)
        try:
            self.devices = open_devices(self.profile)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Close the devices, and stop the virtual sensor board if there is one."""
        if self.devices is not None:
            self.devices.close()
            self.devices = None
        if self.device is not None:
            self.device.stop()
            self.device = None

    def _begin(self, session: Session, set_out: bool = False) -> None:
        if self.session is not None and self.session.thought is not None:
            self.session.thought.cancel()
        self.session = session
        if set_out:
            self.hand.set_out(session.board)
        self.table = Assembly(self.store, self.profile).table(
            session, self.devices, screen=self.screen, remote=self.remote, blink_s=BLINK_S)
        self._began()
        self.step()

    def _began(self) -> None:
        """A new session is on the board (the window resets what it shows)."""

    # --- the board --------------------------------------------------------------------
    @property
    def strip(self):
        return self.devices.strip

    @property
    def source(self):
        """What the table reads: the simulated sensors, or the serial driver."""
        return self.devices.source

    @property
    def pieces(self) -> dict[str, str]:
        """What lies on the board: point -> colour."""
        return self.hand.pieces

    @property
    def held(self) -> str | None:
        """The colour of the piece taken off a pile and held, if any."""
        return self.hand.held

    @held.setter
    def held(self, colour: str | None) -> None:
        self.hand.held = colour

    @property
    def pile(self) -> ModuleType | None:
        """The physics of the pile the hand works on, in a game whose pieces stack;
        ``None`` in the others."""
        return self.hand.pile

    @property
    def in_progress(self) -> bool:
        """A game is under way: moves played and the game not over."""
        board = self.session.board
        return bool(board.move_stack) and not board.is_game_over()

    # --- the hand, then one turn of the loop ----------------------------------------
    def place(self, hole: str, colour: str | None = None) -> None:
        """Put a piece in ``hole``: the mover's colour unless ``colour`` says otherwise."""
        self.hand.place(hole, colour or self.session.board.turn)
        self.step()

    def lift(self, hole: str) -> None:
        self.hand.lift(hole)
        self.step()

    def turn_over(self, hole: str) -> None:
        """Swap the piece in ``hole`` for one of the other colour, in one go."""
        self.hand.turn_over(hole)
        self.step()

    def put_piece(self, squares: list[str], colour: str) -> None:
        """A whole piece put down: every square at the same moment, then one turn."""
        self.hand.put_piece(squares, colour)
        self.step()

    def lift_ball(self, point: str) -> None:
        """Take the ball at ``point`` into the hand; the balls resting on it drop."""
        self.hand.lift_ball(point)
        self.step()

    def put_ball(self, point: str, colour: str) -> None:
        """Put a ball of ``colour`` down at ``point`` (a hole, or on four balls), or in
        place of the ball there."""
        self.hand.put_ball(point, colour)
        self.step()

    def follow_the_game(self) -> None:
        """A move made by button: the hand makes the board match it, as the person at
        the board would (a swap's pieces turned over, a pile's balls moved)."""
        self.hand.follow(self.session.board)

    def step(self) -> None:
        """One turn of the table loop now: readings to the session, time, the LEDs, and
        the screen if there is one and something changed."""
        now = self.clock()
        self.table.sense(now)
        self.table.step(now)

    # --- what the LEDs show ---------------------------------------------------------
    def hole_leds(self) -> dict[str, RGB]:
        """The colour each hole's LED shows now (a hole's first LED, in chain order)."""
        lit = self.strip.lit
        return {name: lit[hole.leds[0]] for name, hole in self.profile.holes.items()
                if hole.leds}

    def area_leds(self) -> dict[str, RGB]:
        lit = self.strip.lit
        return {name: lit[leds[0]] for name, leds in self.profile.areas.items() if leds}
