"""The new-game menu: the game, its options, who plays each colour (a person or the
engine) and the engine's level, by touch; and the load list of saved games to continue
instead.

The rows are data: each game's entry in :mod:`app.games` lists its options with the
values a player may pick, so the menu knows no game by name. A row of a few values is a row of buttons;
a longer one (Kulami's layouts) steps through its values with arrows. The menu draws
like the status screen, in 800x480 design units, and answers taps with a
:class:`Choice` once the player presses Start.

Given a flow for boards far away (``far``, :class:`app.remote.play.FarPlay`: the board's
configuration has ``[remote]``), the menu offers "Far board": the pages of
:mod:`app.screen.far`, which invite a board far away to the game picked here, or join
another board's game.

Given saved games, the menu offers them under "Saved games", newest first, a page at a
time: one button each, in the words ``describe`` gives it (only the page shown is
described, as describing reads the record), and a tap answers :class:`Continue`. The
menu knows nothing of records: whatever ``saved`` holds is handed back as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pygame

from app.games import game as game_info
from app.table import texts as words
from app.screen.paint import BACKGROUND, MUTED, TEXT, Action, Drawn, Painter, columns
from app.table.seats import TABLE_KINDS, parse
from engines.players import DEFAULT_LEVEL, LEVEL_WORDS, LEVELS, MAX_LEVEL

SET, START, BACK = "menu-set", "menu-start", "menu-back"
SAVED, PAGE, LOAD = "menu-saved", "menu-page", "menu-load"
FAR = "menu-far"
#: A row with more values than this steps through them instead of showing them all.
MOST_BUTTONS = 4
#: Saved games on one page of the load list.
SAVED_PER_PAGE = 4


@dataclass(frozen=True)
class Row:
    """One line of the menu: ``key`` is the option name (or ``game``, ``level``, or
    ``seat_b``/``seat_w``: who plays that colour); ``names`` turns a value into the
    words on its button."""

    key: str
    label: str
    values: Sequence[Any]
    names: Callable[[Any], str] = str


def level_words(level: int) -> str:
    """The words on a level's button: its number and how it plays, ``max`` for the
    strongest."""
    if level == MAX_LEVEL:
        return "max"
    return f"{level}: {LEVEL_WORDS[level]}" if level in LEVEL_WORDS else str(level)


def option_rows(game: str) -> list[Row]:
    """The rows of ``game``'s options (values computed when the menu opens)."""
    return [Row(option.key, option.label, option.choices(), option.words)
            for option in game_info(game).menu]


@dataclass(frozen=True)
class Choice:
    """What the menu chose: a game with its options, the seats and the engine's level."""

    game: str
    options: dict[str, Any]
    seats: dict[str, str]
    level: int


@dataclass(frozen=True)
class Continue:
    """What the load list chose: one of the menu's ``saved``, to continue."""

    saved: Any


class Menu:
    """Menu state: the values picked so far. ``games`` are the games this board plays."""

    def __init__(self, games: Sequence[str], current: Choice | None = None,
                 saved: Sequence[Any] = (),
                 describe: Callable[[Any], tuple[str, bool]] | None = None,
                 far: Any = None) -> None:
        if not games:
            raise ValueError("the menu needs at least one game")
        self.games = tuple(games)
        #: Saved games, newest first, and how each reads: (words, whether it loads).
        self.saved = tuple(saved)
        self._describe = describe or (lambda item: (str(item), True))
        self._described: dict[int, tuple[str, bool]] = {}
        #: The page of the load list shown, or ``None`` while the new-game rows are.
        self.page: int | None = None
        self.far = far
        #: The far board's pages while they are shown (:mod:`app.screen.far`).
        self.far_pages = None
        self.values: dict[str, Any] = {"game": self.games[0], "seat_b": "person",
                                       "seat_w": "engine", "level": DEFAULT_LEVEL}
        if current is not None and current.game in self.games:
            self.values.update(game=current.game, level=current.level,
                               seat_b=current.seats.get("b", "person"),
                               seat_w=current.seats.get("w", "person"))
            self._options = {current.game: dict(current.options)}
        else:
            self._options = {}

    def rows(self) -> list[Row]:
        game = self.values["game"]
        rows = [Row("game", "Game", self.games, words.title)] if len(self.games) > 1 else []
        rows += option_rows(game)
        for colour, first in (("b", " (starts)"), ("w", "")):
            rows.append(Row(f"seat_{colour}", words.player(game, colour) + first,
                            TABLE_KINDS, lambda v: parse(v).called))
        if any(parse(self.values[key]).thinks for key in ("seat_b", "seat_w")):
            rows.append(Row("level", "Engine level", LEVELS, level_words))
        return rows

    def value(self, row: Row) -> Any:
        if row.key in self.values:
            return self.values[row.key]
        picked = self._options.get(self.values["game"], {})
        if row.key in picked and picked[row.key] in row.values:
            return picked[row.key]
        default = game_info(self.values["game"]).new_board().options.get(row.key)
        return default if default in row.values else row.values[0]

    def press(self, action: Action | None) -> Choice | Continue | str | None:
        """Apply a tap: ``Choice`` on Start, ``Continue`` on a saved game, ``BACK`` to
        close, else ``None``. Back from the load list returns to the new-game rows."""
        if action is None:
            return None
        if self.far_pages is not None:
            if self.far_pages.press(action):  # back to the new-game rows
                self.far_pages = None
            return None
        if action.name == FAR and self.far is not None:
            from app.screen.far import FarPages  # the remote extra: only with [remote]
            choice = self.choice()
            self.far_pages = FarPages(self.far, choice.game, choice.options)
            return None
        if action.name == START:
            return self.choice()
        if action.name == BACK:
            if self.page is not None:
                self.page = None
                return None
            return BACK
        if action.name == SAVED:
            self.page = 0
        elif action.name == PAGE:
            self.page = action.value
        elif action.name == LOAD:
            return Continue(self.saved[action.value])
        if action.name == SET:
            key, value = action.value
            if key in self.values:
                self.values[key] = value
            else:
                self._options.setdefault(self.values["game"], {})[key] = value
        return None

    @property
    def done(self) -> bool:
        """Whether the menu has nothing more to ask: a game with a far board was agreed
        on its pages and is on the table."""
        return self.far_pages is not None and self.far_pages.done

    def choice(self) -> Choice:
        game = self.values["game"]
        # A value drawn at random (Kulami's "random" layout) is the game's to draw, as
        # it is for the page's new game and the configuration's.
        options = {row.key: self.value(row) for row in option_rows(game)}
        seats = {colour: self.values[f"seat_{colour}"] for colour in ("b", "w")}
        return Choice(game, options, seats, self.values["level"])

    # --- drawing ----------------------------------------------------------------------
    def described(self, index: int) -> tuple[str, bool]:
        """The words of saved game ``index`` and whether it loads, asked once."""
        if index not in self._described:
            self._described[index] = self._describe(self.saved[index])
        return self._described[index]

    def draw(self, surface: pygame.Surface, area: pygame.Rect | None = None) -> Drawn:
        if self.far_pages is not None:
            return self.far_pages.draw(surface, area)
        paint = Painter(surface, area)
        paint.fill(paint.area, BACKGROUND)
        if self.page is not None:
            self._draw_saved(paint, self.page)
            return paint.drawn
        paint.fitted("New game", paint.rect(16, 8, 768, 44), 48, TEXT, min_size=30)
        rows = self.rows()
        row_h = min(60, 336 / max(len(rows), 1))
        for i, row in enumerate(rows):
            self._row(paint, row, 60 + i * row_h, row_h)
        buttons = [("Back", BACK), ("Saved games", SAVED), ("Far board", FAR),
                   ("Start", START)]
        if self.far is None:
            del buttons[2]
        if not self.saved:
            del buttons[1]
        for (left, width), (label, name) in zip(columns(16, 768, len(buttons), 12), buttons):
            paint.button(paint.rect(left, 404, width, 64), label, Action(name),
                         selected=name == START)
        return paint.drawn

    def _draw_saved(self, paint: Painter, page: int) -> None:
        """One page of the load list, with Back and the pages either side."""
        pages = -(-len(self.saved) // SAVED_PER_PAGE)
        title = "Saved games" + (f" ({page + 1} of {pages})" if pages > 1 else "")
        paint.fitted(title, paint.rect(16, 8, 768, 44), 48, TEXT, min_size=30)
        first = page * SAVED_PER_PAGE
        for slot, index in enumerate(range(first, min(first + SAVED_PER_PAGE,
                                                      len(self.saved)))):
            words, loads = self.described(index)
            paint.button(paint.rect(16, 60 + slot * 84, 768, 72), words, Action(LOAD, index),
                         enabled=loads, size=30)
        for (left, width), (label, action, enabled) in zip(columns(16, 768, 3, 12), (
                ("Back", Action(BACK), True),
                ("Newer", Action(PAGE, page - 1), page > 0),
                ("Older", Action(PAGE, page + 1), page + 1 < pages))):
            paint.button(paint.rect(left, 404, width, 64), label, action, enabled=enabled)

    def _row(self, paint: Painter, row: Row, y: float, h: float) -> None:
        paint.fitted(row.label, paint.rect(16, y, 200, h - 8), 34, MUTED, min_size=24)
        current = self.value(row)
        x, w, button_h = 226, 558, h - 8
        if len(row.values) <= MOST_BUTTONS:
            for (left, width), value in zip(columns(x, w, len(row.values), 10), row.values):
                paint.button(paint.rect(left, y, width, button_h), row.names(value),
                             Action(SET, (row.key, value)), selected=value == current)
            return
        index = list(row.values).index(current)
        step = lambda d: Action(SET, (row.key, row.values[(index + d) % len(row.values)]))
        paint.button(paint.rect(x, y, 80, button_h), "<", step(-1))
        paint.fitted(row.names(current), paint.rect(x + 90, y, w - 180, button_h), 38, TEXT,
                     min_size=24, anchor="center")
        paint.button(paint.rect(x + w - 80, y, 80, button_h), ">", step(1))
