"""The touch screen in front of a session: the status screen, or the menu while a new game
is being chosen; taps become session calls.

This is the one piece of the screen that knows the session; everything it draws comes
from :meth:`Session.status`. The Pi's screen and the desktop simulator both use it, so a
tap does the same on both.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pygame

from app.screen.menu import BACK, Choice, Menu
from app.screen.paint import Action, Drawn
from app.screen.status import CONFIRM, HINT, NEW, UNDO, draw_status


def restart(session, choice: Choice) -> None:
    """Start ``choice`` on the same board: seats and level first, then the new game."""
    session.seats = dict(choice.seats)
    session.level = choice.level
    session.new_game(choice.game, **choice.options)


def current_choice(session) -> Choice:
    board = session.board
    return Choice(board.game, dict(board.options), dict(session.seats), session.level)


class Console:
    """``games`` are those the menu offers; ``start`` begins a chosen game (by default on
    the same session; the simulator swaps in a new board)."""

    def __init__(self, session, games: Sequence[str],
                 start: Callable[[Choice], None] | None = None) -> None:
        self.session = session
        self.games = tuple(games)
        self.start = start or (lambda choice: restart(self.session, choice))
        self.menu: Menu | None = None
        self.drawn = Drawn()

    def draw(self, surface: pygame.Surface, area: pygame.Rect | None = None) -> Drawn:
        if self.menu is not None:
            self.drawn = self.menu.draw(surface, area)
        else:
            self.drawn = draw_status(surface, self.session.status(), area)
        return self.drawn

    def tap(self, pos: tuple[int, int]) -> Action | None:
        """A tap at ``pos`` on what was drawn last; returns the action it triggered."""
        action = self.drawn.action_at(pos)
        if action is not None:
            self.act(action)
        return action

    def act(self, action: Action) -> None:
        if self.menu is not None:
            result = self.menu.press(action)
            if result == BACK:
                self.menu = None
            elif isinstance(result, Choice):
                self.menu = None
                self.start(result)
        elif action.name == NEW:
            self.menu = Menu(self.games, current_choice(self.session))
        elif action.name == HINT:
            self.session.hint()
        elif action.name == UNDO:
            self.session.undo()
        elif action.name == CONFIRM:
            self.session.confirm(action.value)
