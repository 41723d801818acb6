"""The desktop simulator: the board to scale beside the status screen, in any window.

Nothing here plays the game. The simulator is a simulated board
(:mod:`app.table.simulated_board`: the board's own table loop, with simulated sensors
that a simulated hand puts pieces into, exactly as hands put them into holes) with this
window as the loop's screen, which draws the board with each hole glowing in the colour
its LED was sent, and the mouse as the hand. The readings go through the same session
and sensing pipeline as on the Pi, and the LED frames through a simulated strip with the
profile's brightness and current cap. So what works here works on the board. The
simulated sensors tell the colours apart (``sensors.colour`` in the ``-sim`` profiles),
as a hall-sensor board can.

Mouse: left click on an empty hole places a piece of the player to move, right click one
of the other colour (to try mistakes); a left click on a piece lifts it, a right click
turns it into a piece of the other colour (a hand swapping it in one go). Esc leaves,
after asking while a game is in progress.

Blokus Duo's pieces are shapes: a tray under the board holds the pieces each player has
left (:mod:`app.screen.tray`). A piece picked there casts its shadow on the board under
the mouse, turns with R or Rotate and over with F or Flip, and a left click puts it down
whole, every square through the simulated sensors at once; a right click puts it back in
the tray. With no piece in hand, clicks put down or lift single squares as on the other
boards, so a piece may also be placed square by square.

Akron's balls stack above the holes (the physics of the pile is the engine's, named by
the game's ``GameInfo.pile``): the simulated board holds balls at every level while its
sensors see only the holes. A left click on a ball lifts the topmost one there into the hand (a pinned ball will not come out) and gravity
acts at once, the ball resting on it dropping into its place; a left click then puts
the ball in hand down on the highest point under the mouse where a ball can go (a right
click puts it aside). Only changes in the holes reach the sensors; a ball moved above
the board changes nothing they see, as on the real board. Each player's supply shows
under the board.

The window can be any size: the board takes a square beside the status screen (above it
in a tall window), and both scale to it. Every game is saved as it is played, in the
store given (``tabletop simulate`` uses the user's data directory, as ``tabletop run``
does): it resumes after a crash, and the menu's load list continues any saved game.

With ``serial`` (``tabletop simulate --serial``) the board is a sensor board over USB:
the mouse sets the sensors of a virtual device (:mod:`app.hardware.virtual_device`, the
firmware's own logic behind a pseudo-terminal) and the table reads them through the
real serial driver, opened from the ``-sim`` profile with its sensors on the device's
port. So the wire protocol, its framing and the driver's timing run end
to end on a desktop.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

import pygame

from app.games import GAMES, game
from app.screen.boards import BoardDrawer, drawer_for
from app.screen.console import Console
from app.screen.display import resized
from app.screen.menu import Choice
from app.screen.scoresheet import winning_areas
from app.screen.supplies import draw_supplies, has_supplies, split as split_supplies
from app.screen.tray import FLIP, ROTATE, Tray, has_tray, split
from app.screen.paint import BACKGROUND, MUTED, PANEL, TEXT, Action, Drawn, Painter, columns
from app.table.assembly import Asked, Assembly
from app.table.loop import BLINK_S, Remote
from app.table.simulated_board import SimulatedBoard
from app.table.store import RecordStore
from app.table.thinker import Thinker
from engines.core import other

#: The window asked for on a desktop: a square board beside an 800-wide status screen.
#: A smaller desktop gets a smaller window (see app/screen/display.py), and any window
#: can be resized.
WINDOW = (1460, 660)
#: Loop turns a second: the sensors are scanned and the window answers this often.
FPS = 30
#: The outline of a winning chain on the drawn board.
CHAIN = (255, 255, 255)
#: The leave dialog's buttons.
LEAVE, STAY = "leave", "stay"
#: The window darkened behind the leave dialog.
SHADE = (0, 0, 0, 150)

__all__ = ["BLINK_S", "FPS", "WINDOW", "Simulator", "layout"]


def layout(size: tuple[int, int]) -> tuple[pygame.Rect, pygame.Rect]:
    """The board's square and the status screen's area in a window of ``size``.

    Side by side, the board takes the height but at most half the width, so the status
    screen (drawn in 800x480 design units) keeps room to be read; a window taller than
    wide puts the board above the screen instead.
    """
    width, height = size
    if height > width:
        side = max(min(width, height - height * 2 // 5), 0)
        return (pygame.Rect((width - side) // 2, 0, side, side),
                pygame.Rect(0, side, width, height - side))
    side = max(min(height, width // 2), 0)
    return pygame.Rect(0, (height - side) // 2, side, side), \
        pygame.Rect(side, 0, width - side, height)


class Simulator(SimulatedBoard):
    """A simulated board (:class:`~app.table.simulated_board.SimulatedBoard`: its
    devices, session, loop and hand) in the window that shows it, the screen of its
    table loop, played with the mouse. The game is ``choice``'s (a new one, or with
    ``resume`` the one in progress on this board); the menu starts others."""

    #: The window shows the LEDs: it is redrawn when they change.
    shows_leds = True

    def __init__(self, choice: Choice, *, clock: Callable[[], float] = time.monotonic,
                 seed: int | None = None, store: RecordStore | None = None,
                 thinker: Thinker | None = None, resume: bool = False,
                 serial: bool = False, remote: Remote | None = None,
                 settings: Mapping[str, Any] | None = None) -> None:
        #: What every session of this board is given besides its game's seats, level
        #: and seed (the configuration's: ``show_legal``, as
        #: :meth:`~app.table.assembly.Assembly.configured` reads it for a board).
        self.settings = dict(settings or {})
        self.surface: pygame.Surface | None = None
        self.drawn = Drawn()
        #: The leave dialog is open: Esc was pressed during a game.
        self.asking = False
        self._dirty = True
        #: The blink phase and the blinking pieces of the last frame drawn.
        self._blink_drawn: bool | None = None
        self._blinking: frozenset[str] = frozenset()
        self._drawer: BoardDrawer | None = None
        #: The piece tray, for games played with shaped pieces; the square under the
        #: mouse, for the shadow of the piece in hand.
        self.tray = Tray()
        self.hover: str | None = None
        #: Where the mouse is, for the ball in hand.
        self.mouse: tuple[int, int] | None = None
        #: Games the menu or the page asked for during a turn of the loop, and whether
        #: a turn is under way: a game asked for then begins once the turn is over.
        self.asked = Asked()
        self._turning = False
        self.console = Console(None, tuple(GAMES), start=self.ask,
                               load=self.asked.load if store is not None else None)
        super().__init__(choice.game, choice.options, choice.seats, choice.level,
                         clock=clock, seed=seed, store=store, thinker=thinker,
                         resume=resume, serial=serial, remote=remote)

    def _open(self, game: str) -> Assembly:
        """The simulated board of ``game``, its sessions given :attr:`settings` under
        the simulated board's own (a game's seats, level and seed are its choice's)."""
        assembly = super()._open(game)
        assembly.settings = {**self.settings, **assembly.settings}
        return assembly

    def choose(self, choice: Choice) -> None:
        """A new game, at once."""
        self.start(choice.game, choice.options, choice.seats, choice.level)

    def ask(self, choice: Choice) -> None:
        """The menu's or the page's new game: begun once the turn of the loop that asked
        for it is over (a new board and session under a turn still at work on the old
        ones was a turn of the loop within a turn)."""
        self.asked.new(choice)
        if not self._turning:
            self.carry_out()

    def carry_out(self) -> None:
        """Begin the game asked for, if any: a new one, or a saved one continued."""
        asked = self.asked.take()
        if asked is None:
            return
        what, chosen = asked
        self.choose(chosen) if what == "new" else self.load(chosen)

    def turn(self) -> bool:
        """One turn of the table loop, then the game asked for during it; ``False``
        once the window should close."""
        self._turning = True
        try:
            keep_going = self.table.turn(self.clock())
        finally:
            self._turning = False
        self.carry_out()
        return keep_going

    def step(self) -> None:
        """One turn of the table loop now, outside the loop (a script, a test), the game
        asked for since begun first. Inside a turn (a click or a tap the turn's
        :meth:`pump` handles) it does nothing: the pieces the hand put down are on the
        sensors, which the next turn reads, and what a tap did the turn under way shows
        once the pump is done, so a click never runs a turn within the turn."""
        if self._turning:
            return
        self.carry_out()
        super().step()

    @property
    def screen(self) -> "Simulator":
        """The table loop draws on this window."""
        return self

    def _began(self) -> None:
        self.console.session = self.session
        self._drawer = None
        self.tray = Tray(self.session.board)
        self.asking = False
        self._dirty = True

    def _pile_click(self, pos: tuple[int, int], button: int) -> bool:
        """A click on a board of stacked balls; returns whether it was on the board.

        With a ball in hand, a left click puts it on the highest point under the mouse
        where it can go and a right click puts it aside. With none, a click on a ball
        lifts the topmost one there (left; a pinned ball stays) or turns it into one of
        the other colour (right), and a click on an empty hole places a new ball, as on
        the other boards."""
        if self.pile is None or self._drawer is None:
            return False
        drawer = self._drawer
        ball = drawer.ball_at(pos, self.pieces)
        point = drawer.point_at(pos, self.pieces)
        if ball is None and point is None and drawer.hole_at(pos) is None:
            return False
        if self.held is not None:
            if button != 1:
                self.held = None
            elif point is not None:
                colour, self.held = self.held, None
                self.put_ball(point, colour)
        elif ball is not None:
            if button != 1:
                self.put_ball(ball, other(self.pieces[ball]))
            elif self.hand.can_lift(ball):
                self.lift_ball(ball)
        elif point is not None and point in self.profile.holes:
            turn = self.session.board.turn
            self.place(point, turn if button == 1 else other(turn))
        return True

    def shadow(self) -> list[str] | None:
        """The squares the piece in hand would cover at the square under the mouse."""
        if self.tray.held is None or self.hover is None:
            return None
        return self.tray.squares_at(self.hover)

    def _tray_click(self, pos: tuple[int, int], button: int) -> bool:
        """A click for the tray: on it, or on the board with a piece in hand. Returns
        whether the tray took it."""
        if not has_tray(self.session.board):
            return False
        spot = self.tray.at(pos)
        if spot is not None:
            if spot[0] == "piece":
                self.tray.pick(spot[1], spot[2])
            elif spot[0] == ROTATE:
                self.tray.rotate()
            elif spot[0] == FLIP:
                self.tray.flip()
            return True
        hole = self._drawer.hole_at(pos) if self._drawer else None
        if self.tray.held is None or hole is None:
            return False
        if button != 1:
            self.tray.drop()
            return True
        squares = self.tray.squares_at(hole)
        if squares and not set(squares) & self.pieces.keys():
            colour = self.tray.held.player
            self.tray.drop()
            self.put_piece(squares, colour)
        return True

    def click(self, pos: tuple[int, int], button: int = 1) -> Action | None:
        """A mouse click: on a hole it places, lifts or turns a piece, elsewhere it taps
        the screen (returning the action tapped). On the tray it picks, turns or flips a
        piece; on the board with a piece in hand it puts that piece down whole."""
        if self._tray_click(pos, button) or self._pile_click(pos, button):
            self.dirty = True
            return None
        hole = self._drawer.hole_at(pos) if self._drawer else None
        if hole is None:
            action = self.console.tap(pos)
            if action is not None and action.name == "play":
                self.follow_the_game()
            self.step()
            return action
        if hole in self.pieces:
            self.lift(hole) if button == 1 else self.turn_over(hole)
        else:
            turn = self.session.board.turn
            self.place(hole, turn if button == 1 else other(turn))
        return None

    # --- what the window shows -----------------------------------------------------
    def blinking(self) -> frozenset[str]:
        """Pieces that blink on the drawn board: those a move offered by button would
        turn over (ConHex's first gem, while the swap may take it)."""
        board = self.session.board
        if self.console.menu is not None or self.pile is not None:
            return frozenset()  # Akron's candidates blink on the LEDs, as sent
        holes: set[str] = set()
        for text in self.console.offers():
            holes |= board.holes_of(board.parse_move(text))
        return frozenset(holes & self.pieces.keys())

    def marked(self) -> dict[str, tuple[int, int, int]]:
        """Areas outlined on the drawn board: the winning chain of a finished ConHex game
        (the end screen lists its cells), in white, which shows on every player's cells."""
        return {area: CHAIN for area in winning_areas(self.session.board)}

    def blink_on(self) -> bool:
        return int(self.clock() / BLINK_S) % 2 == 0

    # --- drawing ------------------------------------------------------------------------
    def areas(self, size: tuple[int, int]) -> tuple[pygame.Rect, pygame.Rect]:
        """The board's square and the status screen in a window of ``size``."""
        return layout(size)

    def draw(self, surface: pygame.Surface) -> Drawn:
        """The whole window: the board, the status screen (or the menu), and the leave
        dialog over them while it is open. Returns what the screen drew (the dialog's,
        while it is open): their texts and buttons, for taps and tests."""
        surface.fill(BACKGROUND)
        board_area, screen_area = self.areas(surface.get_size())
        board = self.session.board
        tray_area = supply_area = None
        if has_tray(board):
            board_area, tray_area = split(board, board_area, screen_area)
        elif has_supplies(board):
            board_area, supply_area = split_supplies(board_area)
        if (self._drawer is None or self._drawer.board is not board
                or self._drawer.area != board_area):
            self._drawer = drawer_for(board, board_area)
        blink_on = self.blink_on()
        self._blink_drawn = blink_on
        self._blinking = self.blinking()
        self._drawer.draw(surface, self.pieces, self.hole_leds(), self.area_leds(),
                          blinking=self._blinking, blink_on=blink_on,
                          marked=self.marked())
        if tray_area is not None:
            shadow = self.shadow()
            if shadow:
                held = self.tray.held
                fits = (held.player == board.turn and not board.is_game_over()
                        and board.is_legal(board.parse_move(",".join(shadow))))
                self._drawer.draw_shadow(surface, shadow,
                                         game(board.game).players[held.player].piece, fits)
            self.tray.draw(surface, tray_area, board)
        if self.held is not None and self.mouse is not None:
            self._drawer.draw_held(surface, self.mouse,
                                   game(board.game).players[self.held].piece)
        self.drawn = self.console.draw(surface, screen_area)
        if supply_area is not None:
            self.drawn.texts += draw_supplies(surface, supply_area, board)
        if self.asking:
            self.drawn = self._draw_leave(surface)
        return self.drawn

    def _draw_leave(self, surface: pygame.Surface) -> Drawn:
        """The question before leaving a game in progress, over the whole window."""
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill(SHADE)
        surface.blit(shade, (0, 0))
        paint = Painter(surface)
        box = paint.rect(120, 110, 560, 260)
        paint.fill(box, PANEL, radius=16)
        paint.fitted("Leave this game?", paint.rect(150, 124, 500, 56), 48, TEXT,
                     min_size=28)
        saved = ("It is saved: it continues at the next start, or from New game, Saved "
                 "games." if self.store else "It is not saved.")
        paint.wrapped(saved, paint.rect(150, 186, 500, 86), 34, MUTED, min_size=22)
        for (left, width), (label, name) in zip(columns(150, 500, 2, 20),
                                                (("Stay", STAY), ("Leave", LEAVE))):
            paint.button(paint.rect(left, 288, width, 64), label, Action(name),
                         selected=name == STAY)
        return paint.drawn

    @property
    def drawer(self) -> BoardDrawer | None:
        """The drawer of the last frame drawn (hole centres in window pixels)."""
        return self._drawer

    # --- the window: the table loop's screen -------------------------------------------
    @property
    def dirty(self) -> bool:
        """Something only the window knows of needs a redraw: a resize, the menu, the
        dialog, or a blinking piece due to change."""
        if self._dirty:
            return True
        return bool(self._blinking) and self._blink_drawn != self.blink_on()

    @dirty.setter
    def dirty(self, value: bool) -> None:
        self._dirty = value

    def handle(self, event: pygame.event.Event) -> bool:
        """One pygame event; ``False`` when the window should close."""
        if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN
                                         and event.key == pygame.K_ESCAPE):
            return self._leave()
        if event.type == pygame.MOUSEBUTTONDOWN and event.button in (1, 3):
            self.dirty = True
            if self.asking:
                action = self.drawn.action_at(event.pos)
                if action == Action(LEAVE):
                    return False
                if action == Action(STAY):
                    self.asking = False
                return True
            self.click(event.pos, event.button)
        elif event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            self.dirty = self.dirty or self.held is not None
            hole = self._drawer.hole_at(event.pos) if self._drawer else None
            if hole != self.hover:
                self.hover = hole
                self.dirty = self.dirty or self.tray.held is not None
        elif event.type == pygame.KEYDOWN and event.key in (pygame.K_r, pygame.K_f):
            self.tray.rotate() if event.key == pygame.K_r else self.tray.flip()
            self.dirty = True
        elif event.type in (pygame.VIDEORESIZE, pygame.WINDOWEXPOSED,
                            pygame.WINDOWSIZECHANGED):
            self._resized(getattr(event, "size", None))
        return True

    def _leave(self) -> bool:
        """Esc (or closing the window): leave at once when no game is under way, else
        ask; asked already, leave."""
        if self.asking or not self.in_progress:
            return False
        self.asking = True
        self.dirty = True
        return True

    def _resized(self, size: tuple[int, int] | None) -> None:
        """The window changed size: draw to the display's surface at its new size."""
        surface = resized(size)
        if surface is not None:
            self.surface = surface
        self.dirty = True

    def pump(self) -> bool:
        """The window's events, for the table loop; ``False`` once it should close."""
        return all([self.handle(event) for event in pygame.event.get()])

    def run(self, surface: pygame.Surface) -> None:
        """The table loop, until the window closes: about ``FPS`` turns a second."""
        self.surface = surface
        try:
            while self.turn():  # a new game brings a new table
                time.sleep(1 / FPS)
        finally:
            if self.session.thought is not None:
                self.session.thought.cancel()
            self.leave()
            self.close()
            self.thinker.close()

    def redraw(self) -> None:
        """Draw the window, for the table loop (only when something changed)."""
        if self.surface is not None:
            self.draw(self.surface)
            pygame.display.flip()
        self.dirty = False
