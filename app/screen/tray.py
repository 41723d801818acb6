"""The simulator's piece tray, for games whose pieces are shapes (Blokus Duo).

Under the board lie the pieces each player has left, as the engine counts them: the
player to move's large enough to pick with a finger on the Pi's 800x480 touch display,
the other player's in a row of small ones below (still there to pick, to try a mistake,
and to see what they have left). A click on a piece picks it up (a second click puts it
back); ``R`` or the Rotate button turns it a quarter turn, ``F`` or the Flip button turns
it over. Over the board the piece in hand casts its shadow, anchored at the square under
the mouse: outlined in white where its player may place it now, dark where not. Nothing
here plays: the simulator puts the piece down whole through its simulated sensors,
exactly as a hand puts a piece on the board, so the sensing pipeline and the session
judge it like any other placement.

The shapes come from the engine (:meth:`engines.core.Board.shapes`) and where each square
lands from the board's geometry (:meth:`engines.core.Board.point_at`), so the tray knows
no game. It keeps the piece's shape as ``(x, y)`` cells, ``y`` up as on the board, and
turns it itself, so its turning matches what a hand does with a piece, whatever order
the engine keeps its orientations in.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pygame

from app.games import game
from app.screen.paint import BUTTON_SELECTED, font
from engines.core import Board

RGB = tuple[int, int, int]
Cells = tuple[tuple[int, int], ...]

TRAY: RGB = (38, 42, 50)
SLOT: RGB = (52, 58, 68)
#: Around every piece, so a dark colour (purple) still reads on the dark tray: a contrast
#: of 9:1 with a slot, where WCAG asks 3:1 of a graphic's edge.
OUTLINE: RGB = (226, 230, 236)
#: The frame of the piece in hand: the colour of a chosen button on the status screen.
HELD: RGB = BUTTON_SELECTED
LABEL: RGB = (190, 196, 206)
BUTTON: RGB = (60, 90, 140)
#: Pieces of the player to move per row (Blokus Duo's 21 make three full rows), and
#: the width of the Rotate and Flip buttons' column beside them, in pieces' places. In
#: the 800x480 window the tray is 400 pixels wide, so a place is 46: on the Pi's 7"
#: display (5.2 pixels a millimetre) 8.8 mm, a fingertip's target (touch guidelines
#: ask 7 to 9 mm).
PER_ROW = 7
BUTTONS_W = 1.4
#: The largest place a piece takes: a bigger window gives the board the room.
MOST_SLOT = 52
#: The smallest text in the tray (12 pixels high), and the small pieces' smallest place.
TEXT_SIZE, LEAST_SMALL = 16, 6
ROTATE, FLIP = "rotate", "flip"


def has_tray(board) -> bool:
    """Whether ``board``'s game is played with shaped pieces from a tray (the registry
    says, :attr:`app.games.GameInfo.tray`)."""
    return game(board.game).tray


@dataclass(frozen=True)
class Layout:
    """The tray's measures in pixels for a tray ``width`` wide holding ``count`` pieces a
    player: margins, the place of each piece of the player to move (``slot``) and of the
    other player's (``small``), the text size and the height all of it takes."""

    width: int
    count: int

    @property
    def pad(self) -> int:
        return max(2, self.width // 100)

    @property
    def slot(self) -> int:
        return min(MOST_SLOT, int((self.width - 3 * self.pad) / (PER_ROW + BUTTONS_W)))

    @property
    def rows(self) -> int:
        return math.ceil(self.count / PER_ROW)

    @property
    def small(self) -> int:
        return max(LEAST_SMALL, min(self.slot * 3 // 5,
                                    (self.width - 2 * self.pad) // max(self.count, 1)))

    @property
    def text(self) -> int:
        return max(TEXT_SIZE, self.slot // 3)

    @property
    def line(self) -> int:
        return font(self.text).get_linesize()

    @property
    def height(self) -> int:
        pad = self.pad
        return (pad + self.line + pad + self.rows * self.slot + pad + self.line
                + self.small + pad)


def split(board: Board, square: pygame.Rect,
          screen: pygame.Rect) -> tuple[pygame.Rect, pygame.Rect]:
    """The board's part and the tray's, below it, of the board's ``square`` and the room
    around it: with the status ``screen`` beside the square, the window's whole height
    (a landscape window leaves room above and below the square, which the tray's
    finger-sized pieces need on the 800x480 display); with the screen below, the square
    alone. The tray takes the height its pieces need, at most half."""
    column = pygame.Rect(square)
    if screen.left >= square.right:
        column = pygame.Rect(square.x, screen.y, square.width, screen.height)
    tray_h = min(Layout(column.width, len(board.shapes())).height, column.height // 2)
    return (pygame.Rect(column.x, column.y, column.width, column.height - tray_h),
            pygame.Rect(column.x, column.bottom - tray_h, column.width, tray_h))


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
    """The pieces left of ``board`` (none without one), the piece in hand and the tray's
    buttons, with hit testing."""

    def __init__(self, board: Board | None = None) -> None:
        self.board = board
        self.shapes = dict(board.shapes()) if board is not None else {}
        #: The longest side of any piece, in squares: every piece is drawn at one scale.
        self.longest = max((max(x, y) + 1 for cells in self.shapes.values()
                            for x, y in cells), default=1)
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
            self.held = Held(player, piece, normal(self.shapes[piece]))

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
        if self.held is None or self.board is None:
            return None
        place = self.board.place(square)
        ax, ay = self.anchor()
        out = []
        for x, y in self.held.cells:
            hole = self.board.point_at(place.x - ax + x, place.y - ay + y)
            if hole is None:
                return None
            out.append(hole)
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

    def draw(self, surface: pygame.Surface, area: pygame.Rect, board: Board) -> None:
        """The player to move's pieces in ``area``, each in a place of its own that keeps
        it where it lay as others are played, with the Rotate and Flip buttons beside
        them; under them the other player's, small; each row headed by whose they are
        and how much is left. The piece in hand is framed."""
        self.spots = []
        surface.fill(TRAY, area)
        size = Layout(area.width, len(self.shapes))
        pad, slot, small = size.pad, size.slot, size.small
        text = font(size.text)
        players = game(board.game).players
        mover = board.turn
        playing = not board.is_game_over()
        top = area.y + pad
        for player, place in ((mover, slot), ("w" if mover == "b" else "b", small)):
            names = board.pieces_left(player)
            squares = sum(len(self.shapes[name]) for name in names)
            label = (f"{players[player].title}: {len(names)} pieces, {squares} squares"
                     + (" - to move" if playing and player == mover else ""))
            surface.blit(text.render(label, True, LABEL), (area.x + pad, top))
            top += size.line + pad
            per_row = PER_ROW if place == slot else len(self.shapes)
            for number, name in enumerate(self.shapes):
                if name not in names:
                    continue
                rect = pygame.Rect(area.x + pad + number % per_row * place,
                                   top + number // per_row * place, place, place)
                self._draw_piece(surface, rect, player, name, players[player].piece)
            top += (size.rows * slot if place == slot else small) + pad
        buttons = pygame.Rect(area.x + 2 * pad + PER_ROW * slot, area.y + 2 * pad + size.line,
                              int(BUTTONS_W * slot), size.rows * slot)
        buttons.width = min(buttons.width, area.right - pad - buttons.x)
        half = buttons.height // 2
        for index, (label, what) in enumerate((("Rotate (R)", ROTATE), ("Flip (F)", FLIP))):
            rect = pygame.Rect(buttons.x, buttons.y + index * half, buttons.width, half)
            pygame.draw.rect(surface, BUTTON, rect.inflate(-2, -2), border_radius=6)
            image = text.render(label, True, (255, 255, 255))
            surface.blit(image, image.get_rect(center=rect.center))
            self.spots.append((rect, (what,)))

    def _draw_piece(self, surface: pygame.Surface, rect: pygame.Rect, player: str,
                    name: str, colour: RGB) -> None:
        """One piece in its place ``rect``, which is also where a click picks it."""
        held = self.held is not None and (self.held.player, self.held.piece) == (player,
                                                                                 name)
        inner = rect.inflate(-2, -2)
        pygame.draw.rect(surface, SLOT, inner, border_radius=max(1, inner.width // 10))
        if held:
            pygame.draw.rect(surface, HELD, inner, max(2, inner.width // 16),
                             border_radius=max(1, inner.width // 10))
        cells = self.held.cells if held else self.shapes[name]
        _draw_shape(surface, inner.inflate(-2, -2), cells, colour, self.longest)
        self.spots.append((rect, ("piece", player, name)))


def _draw_shape(surface: pygame.Surface, rect: pygame.Rect, cells: Cells, colour: RGB,
                longest: int) -> None:
    """``cells`` as squares (``y`` up) at the scale that fits a piece ``longest`` squares
    long into ``rect``, centred, in ``colour`` and ringed in :data:`OUTLINE`; a darker
    seam between squares where they are large enough to count."""
    width = max(x for x, _ in cells) + 1
    height = max(y for _, y in cells) + 1
    edge = max(1, min(rect.width, rect.height) // 40)
    unit = max(2, (min(rect.width, rect.height) - 2 * edge) // longest)
    x0 = rect.centerx - width * unit // 2
    y0 = rect.centery + height * unit // 2
    squares = [pygame.Rect(x0 + x * unit, y0 - (y + 1) * unit, unit, unit) for x, y in cells]
    for square in squares:  # the outline: each square grown, under the squares
        pygame.draw.rect(surface, OUTLINE, square.inflate(2 * edge, 2 * edge))
    seam = tuple(c * 3 // 5 for c in colour)
    for square in squares:
        pygame.draw.rect(surface, colour, square)
        if unit >= 6:
            pygame.draw.rect(surface, seam, square, 1)
