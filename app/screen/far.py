"""The menu's "Far board" pages: invite a board far away to this board's game, or join
the game another board offers, by touch.

Invite offers the game picked in the menu (its options), the person here playing the
colour picked on the first page, and shows the invitation's code once it is on the
broker, in large characters, for the other board's player to type; Join is a keypad of
the code's alphabet (Crockford's: no I, L, O or U to misread) and a Join button once
the eight characters are in. Both show the flow's one line as it moves on (connecting,
waiting, the reason it failed); the flow is :class:`app.remote.play.FarPlay`, which
hands an agreed game to the table between turns, after which the menu closes
(:attr:`FarPages.done`). This module draws and answers taps; the table's run loop
redraws the screen whenever the flow's state changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pygame

from app.remote.invitation import ALPHABET, CODE_CHARS
from app.remote.play import FAILED, OFFERING
from app.screen.paint import (BACKGROUND, MESSAGE_COLOURS, MUTED, TEXT, Action, Drawn,
                              Painter, columns)
from app.table import texts as words

INVITE, JOIN, COLOUR, KEY, DELETE, SEND, CANCEL, BACK = (
    "far-invite", "far-join", "far-colour", "far-key", "far-delete", "far-send",
    "far-cancel", "far-back")
HOME, INVITING, JOINING = "home", "inviting", "joining"
#: Keys in a row of the keypad: the 32 characters in four rows.
KEYS_PER_ROW = 8


class FarPages:
    """The pages of ``far`` (a :class:`~app.remote.play.FarPlay`) for a game of ``game``
    with ``options``, the menu's choice."""

    def __init__(self, far, game: str, options: Mapping[str, Any]) -> None:
        self.far, self.game, self.options = far, game, dict(options)
        self.page = HOME
        #: The colour the person here plays in a game offered (``b`` moves first).
        self.colour = "b"
        #: The characters typed on the keypad so far.
        self.typed = ""
        self._taken = far.taken

    @property
    def done(self) -> bool:
        """Whether a game was agreed and taken since the pages opened: the menu closes."""
        return self.far.taken != self._taken

    def press(self, action: Action) -> bool:
        """Apply a tap; ``True`` when the person leaves the pages for the menu."""
        name = action.name
        if name == BACK:
            self.far.cancel()
            if self.page == HOME:
                return True
            self.page = HOME
        elif name == COLOUR:
            self.colour = action.value
        elif name == INVITE:
            self.page = INVITING
            self.far.offer(self.game, self.options, self.colour)
        elif name == JOIN:
            self.page, self.typed = JOINING, ""
            self.far.cancel()
        elif name == CANCEL:
            self.far.cancel()
            self.page = HOME
        elif name == KEY and len(self.typed) < CODE_CHARS:
            self.typed += action.value
            if self.far.state.phase == FAILED:
                self.far.cancel()  # a new try: the last one's line goes
        elif name == DELETE:
            self.typed = self.typed[:-1]
        elif name == SEND and len(self.typed) == CODE_CHARS:
            self.far.join(self.typed)
        return False

    # --- drawing ----------------------------------------------------------------------
    def draw(self, surface: pygame.Surface, area: pygame.Rect | None = None) -> Drawn:
        paint = Painter(surface, area)
        paint.fill(paint.area, BACKGROUND)
        {HOME: self._home, INVITING: self._inviting, JOINING: self._joining}[self.page](paint)
        return paint.drawn

    def _line(self, paint: Painter, y: float, h: float) -> None:
        """The flow's line, in the error's colour when it failed."""
        state = self.far.state
        if state.line:
            box = paint.rect(16, y, 768, h)
            if state.phase == FAILED:
                paint.fill(box, MESSAGE_COLOURS["error"], radius=8)
            paint.wrapped(state.line, box.inflate(-paint.px(16), -paint.px(8)), 28, TEXT,
                          min_size=20)

    def _home(self, paint: Painter) -> None:
        paint.fitted(f"Far board: {words.title(self.game)}", paint.rect(16, 8, 768, 44),
                     48, TEXT, min_size=30)
        paint.fitted("Play a board far away through the broker: invite it to this game, "
                     "or join its invitation.", paint.rect(16, 60, 768, 40), 28, MUTED,
                     min_size=18)
        paint.fitted("You play", paint.rect(16, 130, 200, 52), 34, MUTED, min_size=24)
        for (left, width), colour in zip(columns(226, 558, 2, 10), "bw"):
            label = words.player(self.game, colour) + (" (starts)" if colour == "b" else "")
            paint.button(paint.rect(left, 130, width, 52), label, Action(COLOUR, colour),
                         selected=colour == self.colour)
        self._line(paint, 210, 120)
        for (left, width), (label, name) in zip(columns(16, 768, 3, 12), (
                ("Back", BACK), ("Join", JOIN), ("Invite", INVITE))):
            paint.button(paint.rect(left, 404, width, 64), label, Action(name),
                         selected=name == INVITE)

    def _inviting(self, paint: Painter) -> None:
        state = self.far.state
        paint.fitted("Invite a far board", paint.rect(16, 8, 768, 44), 48, TEXT,
                     min_size=30)
        code = state.code if state.phase == OFFERING else ""
        paint.fitted(code or "...", paint.rect(16, 80, 768, 140), 120,
                     TEXT if code else MUTED, min_size=40, anchor="center")
        self._line(paint, 240, 140)
        paint.button(paint.rect(16, 404, 768, 64), "Back" if state.phase == FAILED
                     else "Cancel", Action(CANCEL))

    def _joining(self, paint: Painter) -> None:
        shown = self.typed.ljust(CODE_CHARS, "_")
        paint.fitted("Join: " + f"{shown[:4]}-{shown[4:]}", paint.rect(16, 8, 768, 52),
                     52, TEXT, min_size=30)
        for row in range(len(ALPHABET) // KEYS_PER_ROW):
            keys = ALPHABET[row * KEYS_PER_ROW:(row + 1) * KEYS_PER_ROW]
            for (left, width), key in zip(columns(16, 768, KEYS_PER_ROW, 8), keys):
                paint.button(paint.rect(left, 68 + row * 60, width, 52), key,
                             Action(KEY, key), enabled=len(self.typed) < CODE_CHARS)
        self._line(paint, 312, 84)
        for (left, width), (label, name, enabled) in zip(columns(16, 768, 3, 12), (
                ("Back", BACK, True), ("Delete", DELETE, bool(self.typed)),
                ("Join", SEND, len(self.typed) == CODE_CHARS
                 and not self.far.state.busy))):
            paint.button(paint.rect(left, 404, width, 64), label, Action(name),
                         enabled=enabled, selected=name == SEND and enabled)
