"""The touch screen in front of a session: the status screen, or the menu while a new game
is being chosen; taps become session calls.

This is the one piece of the screen that knows the session; everything it draws comes
from :meth:`Session.view`, the view the LEDs and the web page show too. The Pi's screen
and the desktop simulator both use it, so a tap does the same on both.

With a ``load`` callback the menu also lists the games saved in the session's store
(every game and board but the one being played), and a saved game picked there goes to
``load``: continuing it means a new session, which whoever runs the table loop makes.
With ``far`` (:class:`app.remote.play.FarPlay`, set by ``tabletop run`` when the board
has ``[remote]``) the menu offers games with boards far away, and closes once one is
agreed and on the table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pygame

from app.games import GAMES
from app.screen.menu import BACK, Choice, Continue, Menu
from app.screen.paint import Action, Drawn
from app.screen.status import CONFIRM, HINT, NEW, PLAY, RESIGN, RESIGN_SURE, UNDO, draw_status
from app.table.assembly import start_game
from app.table.seats import words_of
from app.table.store import RecordStore, Saved


def restart(session, choice: Choice) -> None:
    """Start ``choice`` on the same board: seats and level first, then the new game."""
    start_game(session, choice.game, choice.options, choice.seats, choice.level)


def current_choice(session) -> Choice:
    board = session.board
    return Choice(board.game, dict(board.options), words_of(session.seats), session.level)


def describe_saved(store: RecordStore, saved: Saved) -> tuple[str, bool]:
    """How the load list names a saved game, and whether it loads: the game and its
    record number (never a date: a Pi without a clock battery may not know it), the
    moves played, the options in words, and the board when it was another one."""
    info = GAMES.get(saved.game)
    name = f"{info.title if info else saved.game} {saved.number}"
    resumed = store.read(saved.path)
    board = resumed.board
    if board is None:
        return f"{name}: does not load", False
    moves = len(board.move_stack)
    words = [name, f"{moves} move{'' if moves == 1 else 's'}", *info.describe(board.options)]
    if resumed.over:
        words.append("over")
    if resumed.profile != store.profile:
        words.append(f"board {resumed.profile}" if resumed.profile else "another board")
    return ", ".join(words), True


class Console:
    """``games`` are those the menu offers; ``start`` begins a chosen game (by default on
    the same session; the simulator swaps in a new board); ``load``, when given,
    continues a saved game from the menu's load list."""

    def __init__(self, session, games: Sequence[str],
                 start: Callable[[Choice], None] | None = None,
                 load: Callable[[Saved], None] | None = None) -> None:
        self.session = session
        self.games = tuple(games)
        self.start = start or (lambda choice: restart(self.session, choice))
        self.load = load
        self.menu: Menu | None = None
        self.drawn = Drawn()
        #: A line about the table that no game says (where its web page is, and the
        #: pairing code that lets a browser change the table).
        self.note = ""
        #: The flow of games with boards far away (``None``: the board plays none).
        self.far = None
        #: The colour whose Resign was tapped, while the screen asks whether to resign
        #: (the question lasts only while that colour may resign).
        self.resigning: str | None = None

    def draw(self, surface: pygame.Surface, area: pygame.Rect | None = None) -> Drawn:
        if self.menu is not None and self.menu.done:
            self.menu = None  # the far game agreed on its pages is on the table
        if self.menu is not None:
            self.drawn = self.menu.draw(surface, area)
        else:
            self.drawn = draw_status(surface, self.session.view(), area, note=self.note,
                                     resigning=self.resigning)
        return self.drawn

    def offers(self) -> tuple[str, ...]:
        """The moves that can be made only by button now, as their texts (the view's
        :attr:`~app.table.view.View.offers`)."""
        return tuple(offer.move for offer in self.session.view().offers)

    def tap(self, pos: tuple[int, int]) -> Action | None:
        """A tap at ``pos`` on what was drawn last; returns the action it triggered."""
        action = self.drawn.action_at(pos)
        if action is not None:
            self.act(action)
        return action

    def act(self, action: Action) -> None:
        # Any tap answers the question: only its own Resign resigns, anything else is no.
        asked, self.resigning = self.resigning, None
        if self.menu is not None:
            result = self.menu.press(action)
            if result == BACK:
                self.menu = None
            elif isinstance(result, Choice):
                self.menu = None
                self.start(result)
            elif isinstance(result, Continue):
                self.menu = None
                self.load(result.saved)
        elif action.name == NEW:
            self.menu = self._menu()
        elif action.name == HINT:
            self.session.hint(int(action.value) if action.value else 1)
        elif action.name == UNDO:
            self.session.undo()
        elif action.name == RESIGN:
            self.resigning = action.value
        elif action.name == RESIGN_SURE and action.value == asked:
            self.session.resign(action.value)
        elif action.name in (CONFIRM, PLAY):
            self.session.confirm(action.value)

    def _menu(self) -> Menu:
        """The new-game menu, with the load list when there is a ``load`` to take it."""
        store = self.session.store
        if self.load is None or store is None:
            return Menu(self.games, current_choice(self.session), far=self.far)
        saved = [s for s in store.saved() if s.path != store.current]
        return Menu(self.games, current_choice(self.session), saved=saved,
                    describe=lambda item: describe_saved(store, item), far=self.far)
