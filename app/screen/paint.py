"""Fonts, the screen's palette, and a painter that remembers what it drew.

Screens are designed at 800x480, the official Raspberry Pi touch display, and scale up
to any larger window. Every text and every touch button goes through a :class:`Painter`,
which records it in a :class:`Drawn`; the tests read that record instead of OCR-ing the
PNG, and it is also how a tap finds its button.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import pygame

#: The size every screen is designed at, in pixels.
DESIGN_SIZE = (800, 480)

RGB = tuple[int, int, int]

#: The palette: dark background for contrast on a small LCD, one accent per message kind.
BACKGROUND: RGB = (22, 26, 33)
PANEL: RGB = (36, 42, 52)
TEXT: RGB = (236, 238, 241)
MUTED: RGB = (160, 168, 180)
BUTTON: RGB = (58, 92, 140)
BUTTON_DISABLED: RGB = (48, 52, 60)
BUTTON_SELECTED: RGB = (214, 160, 40)
MESSAGE_COLOURS: dict[str, RGB] = {
    "info": (52, 60, 74),
    "error": (150, 36, 36),
    "sync": (150, 100, 20),
    "waiting": (30, 110, 70),
    "confirm": (120, 90, 10),
    "over": (70, 60, 130),
}


@lru_cache(maxsize=None)
def font(size: int) -> pygame.font.Font:
    """pygame's own font at ``size``, so nothing needs installing on a Pi."""
    if not pygame.font.get_init():
        pygame.font.init()
    return pygame.font.Font(None, size)


@dataclass(frozen=True)
class Action:
    """What a tap asks for: ``name`` (``new``, ``hint``, ``undo``, ``confirm``, a menu
    action) and an optional value (the move to confirm, the option value chosen)."""

    name: str
    value: Any = None


@dataclass(frozen=True)
class Button:
    rect: pygame.Rect
    label: str
    action: Action
    enabled: bool = True


@dataclass
class Drawn:
    """What a screen drew: every text line with its rectangle, and the touch buttons."""

    texts: list[tuple[str, pygame.Rect]] = field(default_factory=list)
    buttons: list[Button] = field(default_factory=list)

    def action_at(self, pos: tuple[int, int]) -> Action | None:
        """The action of the enabled button under ``pos``, if any."""
        for button in self.buttons:
            if button.enabled and button.rect.collidepoint(pos):
                return button.action
        return None

    def button(self, label: str) -> Button:
        """The button labelled ``label`` (tests tap it by name)."""
        for button in self.buttons:
            if button.label == label:
                return button
        raise KeyError(f"no button labelled {label!r} (have: "
                       f"{', '.join(b.label for b in self.buttons)})")

    @property
    def text(self) -> str:
        """All text drawn, one space between lines, for searching."""
        return " ".join(line for line, _ in self.texts)

    def overlaps(self) -> list[tuple[str, str]]:
        """Pairs of texts whose rectangles intersect: a layout bug on this surface."""
        pairs = []
        for i, (a, rect_a) in enumerate(self.texts):
            for b, rect_b in self.texts[i + 1:]:
                if rect_a.colliderect(rect_b):
                    pairs.append((a, b))
        return pairs

    def outside(self, area: pygame.Rect) -> list[str]:
        """Texts and buttons not wholly inside ``area``: cut off at the screen's edge."""
        return ([text for text, rect in self.texts if not area.contains(rect)]
                + [b.label for b in self.buttons if not area.contains(b.rect)])


class Painter:
    """Draws in design units (the 800x480 screen) scaled into ``area`` of ``surface``,
    centred where the area's shape differs from the design's."""

    def __init__(self, surface: pygame.Surface, area: pygame.Rect | None = None) -> None:
        self.surface = surface
        self.area = pygame.Rect(area or surface.get_rect())
        width, height = DESIGN_SIZE
        self.scale = min(self.area.width / width, self.area.height / height)
        self.origin = (self.area.x + (self.area.width - round(width * self.scale)) // 2,
                       self.area.y + (self.area.height - round(height * self.scale)) // 2)
        self.drawn = Drawn()

    def px(self, units: float) -> int:
        return max(1, round(units * self.scale))

    def rect(self, x: float, y: float, w: float, h: float) -> pygame.Rect:
        """A rectangle in design units, relative to the painter's area."""
        return pygame.Rect(self.origin[0] + round(x * self.scale),
                           self.origin[1] + round(y * self.scale), self.px(w), self.px(h))

    def font(self, size: float) -> pygame.font.Font:
        return font(self.px(size))

    def fill(self, rect: pygame.Rect, colour: RGB, radius: float = 0) -> None:
        pygame.draw.rect(self.surface, colour, rect, border_radius=self.px(radius) if radius else 0)

    def text(self, text: str, pos: tuple[int, int], size: float, colour: RGB = TEXT,
             anchor: str = "topleft") -> pygame.Rect:
        """One line at ``pos`` (``anchor`` names which point of its rectangle that is)."""
        image = self.font(size).render(text, True, colour)
        rect = image.get_rect(**{anchor: pos})
        self.surface.blit(image, rect)
        self.drawn.texts.append((text, rect))
        return rect

    def fitted(self, text: str, rect: pygame.Rect, size: float, colour: RGB = TEXT,
               min_size: float = 22, anchor: str = "midleft") -> pygame.Rect:
        """One line in ``rect``, shrunk down to ``min_size`` until it fits."""
        size = self._largest(size, min_size, lambda f: f.size(text)[0] <= rect.width)
        pos = getattr(rect, anchor)
        return self.text(text, pos, size, colour, anchor)

    def wrapped(self, text: str, rect: pygame.Rect, size: float, colour: RGB = TEXT,
                min_size: float = 22) -> pygame.Rect:
        """``text`` word-wrapped into ``rect``, shrunk down to ``min_size`` until every
        line fits; returns the rectangle the lines took."""

        def fits(f: pygame.font.Font) -> bool:
            lines = wrap(text, f, rect.width)
            return (all(f.size(line)[0] <= rect.width for line in lines)
                    and len(lines) * f.get_linesize() <= rect.height)

        size = self._largest(size, min_size, fits)
        f = self.font(size)
        y = rect.y
        used = pygame.Rect(rect.x, rect.y, 0, 0)
        for line in wrap(text, f, rect.width):
            line_rect = self.text(line, (rect.x, y), size, colour)
            used.union_ip(line_rect)
            y += f.get_linesize()
        return used

    def _largest(self, size: float, min_size: float, fits) -> float:
        """The largest size from ``size`` down to ``min_size`` (in steps of 2) that fits."""
        while size > min_size and not fits(self.font(size)):
            size -= 2
        return max(size, min_size)

    def button(self, rect: pygame.Rect, label: str, action: Action, enabled: bool = True,
               selected: bool = False, size: float = 34) -> Button:
        """A rounded touch button with its label centred; disabled ones are greyed."""
        colour = BUTTON_SELECTED if selected else BUTTON if enabled else BUTTON_DISABLED
        self.fill(rect, colour, radius=10)
        inner = rect.inflate(-self.px(12), -self.px(6))
        self.fitted(label, inner, size, TEXT if enabled else MUTED, min_size=20,
                    anchor="center")
        button = Button(pygame.Rect(rect), label, action, enabled)
        self.drawn.buttons.append(button)
        return button

    def disc(self, centre: tuple[int, int], radius: float, colour: RGB) -> None:
        """A player's piece as a token: a filled circle with a light rim."""
        pygame.draw.circle(self.surface, colour, centre, self.px(radius))
        pygame.draw.circle(self.surface, MUTED, centre, self.px(radius), max(1, self.px(2)))


def wrap(text: str, f: pygame.font.Font, width: int) -> list[str]:
    """Greedy word wrap; a word wider than ``width`` gets a line of its own."""
    lines: list[str] = []
    for word in text.split():
        if lines and f.size(f"{lines[-1]} {word}")[0] <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def columns(x: float, width: float, count: int, gap: float) -> Iterable[tuple[float, float]]:
    """``count`` equal columns across ``width`` from ``x`` with ``gap`` between them:
    (left, width) of each, in design units."""
    each = (width - gap * (count - 1)) / count
    for i in range(count):
        yield x + i * (each + gap), each
