"""The simulator's piece tray, for games whose pieces are shapes (Blokus Duo).

Beside the board lie the pieces each player has left, as the engine counts them. A click
on a piece picks it up (a second click puts it back); ``R`` or the Rotate button turns
it a quarter turn, ``F`` or the Flip button turns it over. Over the board the piece in
hand casts its shadow, anchored at the square under the mouse: outlined in white where
its player may place it now, dark where not. Nothing here plays: the simulator puts the
piece down whole through its simulated sensors, exactly as a hand puts a piece on the
board, so the sensing pipeline and the session judge it like any other placement.

The tray keeps the piece's shape as ``(x, y)`` cells, ``y`` up as on the board, and
turns it itself, so its turning matches what a hand does with a piece, whatever order
the engine keeps its orientations in.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from app.games import game
from app.screen.paint import font
from engines.blokus_duo.pieces import COLUMNS, PIECES, SIDE

RGB = tuple[int, int, int]
Cells = tuple[tuple[int, int], ...]

TRAY: RGB = (38, 42, 50)
SLOT: RGB = (48, 53, 62)
HELD: RGB = (255, 255, 255)
LABEL: RGB = (190, 196, 206)
BUTTON: RGB = (60, 90, 140)
#: The share of the board's square the tray takes, below the board.
SHARE = 0.3
#: Pieces per row in a player's half of the tray.
PER_ROW = 7
ROTATE, FLIP = "rotate", "flip"

_SHAPES: dict[str, Cells] = {piece.name: piece.orientations[0] for piece in PIECES}


def has_tray(board) -> bool:
    """Whether ``board``'s game is played with shaped pieces from a tray (the registry
    says, :attr:`app.games.GameInfo.tray`)."""
    return game(board.game).tray


def split(area: pygame.Rect) -> tuple[pygame.Rect, pygame.Rect]:
    """The board's part of ``area`` and the tray's, below it."""
    tray_h = round(area.height * SHARE)
    return (pygame.Rect(area.x, area.y, area.width, area.height - tray_h),
            pygame.Rect(area.x, area.bottom - tray_h, area.width, tray_h))


def normal(cells) -> Cells:
    """``cells`` moved to the lowest ``x`` and ``y`` at 0, sorted."""
    low_x = min(x for x, _ in cells)
    low_y = min(y for _, y in cells)
    return tuple(sorted((x - low_x, y - low_y) for x, y in cells))


def rotated(cells: Cells) -> Cells:
    """A quarter turn clockwise, as seen on the board (``y`` up)."""
    return normal([(y, -x) for x, y in cells])


def flipped(cells: Cells) -> Cells:
    """Turned over, left to right."""
    return normal([(-x, y) for x, y in cells])


@dataclass
class Held:
    """The piece in hand: whose, which, and its shape as it is turned now."""

    player: str
    piece: str
    cells: Cells


class Tray:
    """The pieces left, the piece in hand and the tray's buttons, with hit testing."""

    def __init__(self) -> None:
        self.held: Held | None = None
        #: What the last :meth:`draw` put where: (rect, ("piece", player, name)) or
        #: (rect, (ROTATE,)) / (rect, (FLIP,)).
        self.spots: list[tuple[pygame.Rect, tuple[str, ...]]] = []

    # --- the piece in hand ------------------------------------------------------------
    def pick(self, player: str, piece: str) -> None:
        """Pick up ``piece`` of ``player``; picking the one in hand puts it back."""
        if self.held is not None and (self.held.player, self.held.piece) == (player, piece):
            self.held = None
        else:
            self.held = Held(player, piece, _SHAPES[piece])

    def drop(self) -> None:
        self.held = None

    def rotate(self) -> None:
        if self.held is not None:
            self.held.cells = rotated(self.held.cells)

    def flip(self) -> None:
        if self.held is not None:
            self.held.cells = flipped(self.held.cells)

    def squares_at(self, square: str) -> list[str] | None:
        """The squares the piece in hand covers with its anchor on ``square`` (the cell
        nearest the middle of its shape), or ``None`` when any falls off the board."""
        if self.held is None:
            return None
        ax, ay = self.anchor()
        x0, y0 = COLUMNS.index(square[0]) - ax, int(square[1:]) - 1 - ay
        out = []
        for x, y in self.held.cells:
            cx, cy = x0 + x, y0 + y
            if not (0 <= cx < SIDE and 0 <= cy < SIDE):
                return None
            out.append(f"{COLUMNS[cx]}{cy + 1}")
        return out

    def anchor(self) -> tuple[int, int]:
        """The cell of the piece in hand that sits under the mouse."""
        cells = self.held.cells
        mx = sum(x for x, _ in cells) / len(cells)
        my = sum(y for _, y in cells) / len(cells)
        return min(cells, key=lambda c: ((c[0] - mx) ** 2 + (c[1] - my) ** 2, c))

    # --- drawing and hit testing ------------------------------------------------------
    def at(self, pos: tuple[int, int]) -> tuple[str, ...] | None:
        for rect, what in self.spots:
            if rect.collidepoint(pos):
                return what
        return None

    def draw(self, surface: pygame.Surface, area: pygame.Rect, board) -> None:
        """Each player's pieces left in their half of ``area`` (the player to move's
        half headed in bold), the piece in hand framed, and the Rotate and Flip
        buttons."""
        self.spots = []
        surface.fill(TRAY, area)
        players = game(board.game).players
        pad = max(2, area.height // 40)
        button_h = max(14, area.height // 7)
        label_h = max(12, area.height // 9)
        half_w = area.width // 2
        text = font(max(10, label_h - 2))
        for side, player in enumerate(("b", "w")):
            left = area.x + side * half_w
            names = board.pieces_left(player)
            squares = sum(len(_SHAPES[n]) for n in names)
            label = (f"{players[player].title}: {len(names)} pieces, {squares} squares"
                     + (" - to move" if not board.is_game_over() and board.turn == player
                        else ""))
            surface.blit(text.render(label, True, LABEL), (left + pad, area.y + pad))
            top = area.y + label_h + 2 * pad
            rows = 3
            slot_w = (half_w - 2 * pad) // PER_ROW
            slot_h = (area.bottom - button_h - 2 * pad - top) // rows
            for number, name in enumerate(names):
                rect = pygame.Rect(left + pad + (number % PER_ROW) * slot_w,
                                   top + (number // PER_ROW) * slot_h, slot_w - 2, slot_h - 2)
                held = self.held is not None and (self.held.player, self.held.piece) == (
                    player, name)
                pygame.draw.rect(surface, SLOT, rect, border_radius=4)
                if held:
                    pygame.draw.rect(surface, HELD, rect, 2, border_radius=4)
                cells = self.held.cells if held else _SHAPES[name]
                _draw_shape(surface, rect.inflate(-4, -4), cells, players[player].piece)
                self.spots.append((rect, ("piece", player, name)))
        width = (area.width - 3 * pad) // 2
        for index, (label, what) in enumerate((("Rotate (R)", ROTATE), ("Flip (F)", FLIP))):
            rect = pygame.Rect(area.x + pad + index * (width + pad),
                               area.bottom - button_h - pad, width, button_h)
            pygame.draw.rect(surface, BUTTON, rect, border_radius=6)
            image = text.render(label, True, (255, 255, 255))
            surface.blit(image, image.get_rect(center=rect.center))
            self.spots.append((rect, (what,)))


def _draw_shape(surface: pygame.Surface, rect: pygame.Rect, cells: Cells, colour: RGB) -> None:
    """``cells`` as small squares centred in ``rect``, ``y`` up."""
    width = max(x for x, _ in cells) + 1
    height = max(y for _, y in cells) + 1
    unit = max(2, min(rect.width // 5, rect.height // 5))
    x0 = rect.centerx - width * unit // 2
    y0 = rect.centery + height * unit // 2
    for x, y in cells:
        square = pygame.Rect(x0 + x * unit, y0 - (y + 1) * unit, unit, unit)
        pygame.draw.rect(surface, colour, square)
        pygame.draw.rect(surface, (15, 15, 15), square, 1)
