"""The touch screen in front of a session: the status screen, or the menu while a new game
is being chosen; taps become session calls.

This is the one piece of the screen that knows the session; everything it draws comes
from :meth:`Session.status`. The Pi's screen and the desktop simulator both use it, so a
tap does the same on both.

With a ``load`` callback the menu also lists the games saved in the session's store
(every game and board but the one being played), and a saved game picked there goes to
``load``: continuing it means a new session, which whoever runs the table loop makes.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

import pygame

from app.games import GAMES
from app.screen.menu import BACK, Choice, Continue, Menu
from app.screen.paint import Action, Drawn
from app.screen.status import CONFIRM, HINT, NEW, PLAY, UNDO, draw_status
from app.table.seats import words_of
from app.table.store import RecordStore, Saved


def restart(session, choice: Choice) -> None:
    """Start ``choice`` on the same board: seats and level first, then the new game."""
    session.seats = dict(choice.seats)
    session.level = choice.level
    session.new_game(choice.game, **choice.options)


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
    if board.is_game_over():
        words.append("over")
    if resumed.profile != store.profile:
        words.append(f"board {resumed.profile}" if resumed.profile else "another board")
    return ", ".join(words), True


def by_button(board) -> Callable[[Hashable], bool]:
    """Whether a move in ``board``'s position is one made by button: its text names no
    hole, and it puts nothing on an empty hole (it only recolours pieces, or moves balls
    above the board). A move that puts a piece down (a Blokus piece, whose text names
    its squares) is made by hand, where the sensors see it."""
    holes, occupied = set(board.holes), board.sensor_view().keys()
    return lambda move: (board.move_text(move) not in holes
                         and board.holes_of(move) <= occupied)


#: Moves offered by a button of their own, at most.
OFFERS = 2


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
        #: The moves offered by button in the last position asked about.
        self._offered: tuple[object, tuple[str, ...]] = (None, ())

    def draw(self, surface: pygame.Surface, area: pygame.Rect | None = None) -> Drawn:
        if self.menu is not None:
            self.drawn = self.menu.draw(surface, area)
        else:
            self.drawn = draw_status(surface, self.session.status(), area, self.offers(),
                                     note=self.note)
        return self.drawn

    def offers(self) -> tuple[str, ...]:
        """Moves that can be made only by button, as their texts: the legal moves of a
        person to move that are no hole's and put nothing on an empty hole (ConHex's
        swap, which only recolours a gem: a colour-blind board cannot see it at all), or
        the engine's move waiting to be made when it is such a move. A move that puts a
        piece on the board (a Blokus piece, though its text is no hole's) is made by
        hand, as the sensors see it: a button would play it with no piece there. At most
        :data:`OFFERS` of them: where there are more (Akron's moves above the board),
        Confirm offers them to pick from."""
        session = self.session
        board = session.board
        if board.is_game_over():
            return ()
        if session.pending is not None:
            move = session.pending
            return (board.move_text(move),) if by_button(board)(move) else ()
        if not session.seats[board.turn].at_table:
            return ()
        # Worked out once per position.
        key = (id(board), board.game, board.turn, tuple(board.move_stack))
        if self._offered[0] != key:
            made_by_button = by_button(board)
            offered = tuple(board.move_text(move) for move in board.legal_moves
                            if made_by_button(move))
            # Many such moves (Akron's above the board) are picked after Confirm instead.
            self._offered = (key, offered if len(offered) <= OFFERS else ())
        return self._offered[1]

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
            elif isinstance(result, Continue):
                self.menu = None
                self.load(result.saved)
        elif action.name == NEW:
            self.menu = self._menu()
        elif action.name == HINT:
            self.session.hint(int(action.value) if action.value else 1)
        elif action.name == UNDO:
            self.session.undo()
        elif action.name in (CONFIRM, PLAY):
            self.session.confirm(action.value)

    def _menu(self) -> Menu:
        """The new-game menu, with the load list when there is a ``load`` to take it."""
        store = self.session.store
        if self.load is None or store is None:
            return Menu(self.games, current_choice(self.session))
        saved = [s for s in store.saved() if s.path != store.current]
        return Menu(self.games, current_choice(self.session), saved=saved,
                    describe=lambda item: describe_saved(store, item))
