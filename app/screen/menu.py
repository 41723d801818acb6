"""The new-game menu: the game, its options, the opponent and who starts, by touch.

The rows are data: each game's entry in :mod:`app.games` lists its options with the
values a player may pick, so the menu knows no game by name. A row of a few values is a row of buttons;
a longer one (Kulami's layouts) steps through its values with arrows. The menu draws
like the status screen, in 800x480 design units, and answers taps with a
:class:`Choice` once the player presses Start.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pygame

from app.games import RANDOM_LAYOUT, game as game_info
from app.table import texts as words
from app.screen.paint import BACKGROUND, MUTED, TEXT, Action, Drawn, Painter, columns
from engines.players import LEVELS

SET, START, BACK = "menu-set", "menu-start", "menu-back"
#: A row with more values than this steps through them instead of showing them all.
MOST_BUTTONS = 4


@dataclass(frozen=True)
class Row:
    """One line of the menu: ``key`` is the option name (or ``game``, ``opponent``,
    ``level``, ``starts``); ``names`` turns a value into the words on its button."""

    key: str
    label: str
    values: Sequence[Any]
    names: Callable[[Any], str] = str


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


class Menu:
    """Menu state: the values picked so far. ``games`` are the games this board plays."""

    def __init__(self, games: Sequence[str], current: Choice | None = None,
                 rng: random.Random | None = None) -> None:
        if not games:
            raise ValueError("the menu needs at least one game")
        self.games = tuple(games)
        self.rng = rng or random.Random()
        self.values: dict[str, Any] = {"game": self.games[0], "opponent": "engine",
                                       "level": LEVELS[-1], "starts": "person"}
        if current is not None and current.game in self.games:
            engine_seats = [c for c, kind in current.seats.items() if kind == "engine"]
            self.values.update(game=current.game, level=current.level,
                               opponent="engine" if len(engine_seats) == 1 else "person",
                               starts="engine" if engine_seats == ["b"] else "person")
            self._options = {current.game: dict(current.options)}
        else:
            self._options = {}

    def rows(self) -> list[Row]:
        game = self.values["game"]
        rows = [Row("game", "Game", self.games, words.title)] if len(self.games) > 1 else []
        rows += option_rows(game)
        rows.append(Row("opponent", "Opponent", ("person", "engine"),
                        lambda v: "a person" if v == "person" else "the engine"))
        if self.values["opponent"] == "engine":
            rows.append(Row("level", "Engine level", LEVELS))
            rows.append(Row("starts", "Who starts", ("person", "engine"),
                            lambda v: "you" if v == "person" else "the engine"))
        return rows

    def value(self, row: Row) -> Any:
        if row.key in self.values:
            return self.values[row.key]
        picked = self._options.get(self.values["game"], {})
        if row.key in picked and picked[row.key] in row.values:
            return picked[row.key]
        default = game_info(self.values["game"]).new_board().options.get(row.key)
        return default if default in row.values else row.values[0]

    def press(self, action: Action | None) -> Choice | str | None:
        """Apply a tap: ``Choice`` on Start, ``BACK`` to close, else ``None``."""
        if action is None:
            return None
        if action.name == START:
            return self.choice()
        if action.name == BACK:
            return BACK
        if action.name == SET:
            key, value = action.value
            if key in self.values:
                self.values[key] = value
            else:
                self._options.setdefault(self.values["game"], {})[key] = value
        return None

    def choice(self) -> Choice:
        game = self.values["game"]
        options = {row.key: self.value(row) for row in option_rows(game)}
        if options.get("layout") == RANDOM_LAYOUT:
            options["layout"] = f"random:{self.rng.randrange(10**6)}"
        if self.values["opponent"] == "person":
            seats = {"b": "person", "w": "person"}
        elif self.values["starts"] == "person":
            seats = {"b": "person", "w": "engine"}
        else:
            seats = {"b": "engine", "w": "person"}
        return Choice(game, options, seats, self.values["level"])

    # --- drawing ----------------------------------------------------------------------
    def draw(self, surface: pygame.Surface, area: pygame.Rect | None = None) -> Drawn:
        paint = Painter(surface, area)
        paint.fill(paint.area, BACKGROUND)
        paint.fitted("New game", paint.rect(16, 8, 768, 44), 48, TEXT, min_size=30)
        rows = self.rows()
        row_h = min(60, 336 / max(len(rows), 1))
        for i, row in enumerate(rows):
            self._row(paint, row, 60 + i * row_h, row_h)
        for (left, width), (label, name) in zip(columns(16, 768, 2, 12),
                                                (("Back", BACK), ("Start", START))):
            paint.button(paint.rect(left, 404, width, 64), label, Action(name),
                         selected=name == START)
        return paint.drawn

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
