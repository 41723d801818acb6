"""The status screen: one :class:`~app.table.view.View` drawn onto any surface >= 800x480.

Laid out for the official 7" Pi touch display and read at arm's length: the turn and the
score in large type, the message of the moment in a box coloured by its kind, the move
list down the right, and finger-sized buttons along the bottom. The screen keeps no
state: the same view always draws the same picture and the same buttons, and every
word and game fact it shows is the view's (the page shows the same view).

Resign asks before it ends a game, so that a stray tap does not: its button (lit while a
person at the table is to move) only asks, and the message box then puts the question
with a button to resign and one to play on. Whether the question is up is the caller's
to keep (:class:`~app.screen.console.Console`), passed in as ``resigning``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import pygame

from app.table import texts as words
from app.screen.paint import (BACKGROUND, MESSAGE_COLOURS, MUTED, PANEL, TEXT, Action,
                              Drawn, Painter, columns, wrap)
from app.screen.legend import draw_legend
from app.table.status import Status
from app.table.view import View

NEW, HINT, UNDO, CONFIRM = "new", "hint", "undo", "confirm"
#: Resign asks (its value: the colour to move); the question's buttons resign that
#: colour (its value) or play on.
RESIGN, RESIGN_SURE, PLAY_ON = "resign", "resign_sure", "play_on"
#: A move the sensors cannot see made by its own button (ConHex's swap); the value is
#: the move's text.
PLAY = "play"
#: Buttons for moves to choose between, at most: beyond, the last shows the next ones.
CHIPS = 4

#: Regions in design units (800x480): x, y, width, height.
LEFT_X, LEFT_W, RIGHT_X, RIGHT_W = 16, 524, 556, 228
HEADER = (LEFT_X, 12, LEFT_W, 36)
SEATS = (LEFT_X, 48, LEFT_W, 28)
TURN = (LEFT_X, 84, LEFT_W, 56)
SCORES = (LEFT_X, 146, LEFT_W, 44)
SCORE_LABEL_W = 200
MESSAGE = (LEFT_X, 198, LEFT_W, 194)
THINKING_H = 44
MOVES = (RIGHT_X, 12, RIGHT_W, 180)
#: The move list's text sizes (design units), one for all its lines: the largest at
#: which every pair of moves fits a line, else the smallest, at which a move of five
#: squares with its number (``10. c12,d12,d13,e13,f13``) still does.
MOVES_SIZES = (32, 30, 28, 26)
#: The engine's move waiting to be placed is the largest text in the message box.
PENDING_SIZE = 44
LEGEND = (RIGHT_X, 200, RIGHT_W, 192)  # what the lights mean (app/screen/legend.py)
BUTTONS = (LEFT_X, 404, 768, 64)


def draw_status(surface: pygame.Surface, view: View, area: pygame.Rect | None = None,
                note: str = "", resigning: str | None = None) -> Drawn:
    """Draw ``view`` into ``area`` (default: the whole surface); return what was drawn.
    The moves a person may make only by button (ConHex's swap) each get a button of
    their own and a line saying what they do. ``note`` follows the players' line (the
    web page's address and pairing code); ``resigning``, the colour whose Resign was
    tapped, puts the question in the message box while that colour may still resign."""
    paint = Painter(surface, area)
    paint.fill(paint.area, BACKGROUND)
    _header(paint, view, note)
    _turn(paint, view)
    _scores(paint, view)
    if resigning is not None and resigning == may_resign(view):
        _resign_question(paint, view, resigning)
    else:
        _message(paint, view)
    _moves(paint, view.status)
    draw_legend(paint, view, LEGEND)
    _buttons(paint, view)
    return paint.drawn


def _header(paint: Painter, view: View, note: str = "") -> None:
    paint.fitted(f"{view.title}: {view.described}", paint.rect(*HEADER), 36, TEXT,
                 min_size=24)
    paint.fitted(f"{view.seated} · {note}" if note else view.seated, paint.rect(*SEATS),
                 30, MUTED, min_size=22)


def _turn(paint: Painter, view: View) -> None:
    x, y, w, h = TURN
    status = view.status
    if view.end is not None:
        colour = view.end.winner
        text = view.end_short
    else:
        colour = status.turn
        who = status.seats[colour].words(status.level)
        text = f"{view.players[colour].title} to move ({who})"
    if colour is not None:
        paint.disc(paint.rect(x, y, 40, h).center, 18, view.players[colour].piece)
    paint.fitted(text, paint.rect(x + 50, y, w - 50, h), 56, TEXT, min_size=30)


def _scores(paint: Painter, view: View) -> None:
    x, y, w, h = SCORES
    status = view.status
    left_in_hand = status.in_hand
    for (left, width), colour in zip(columns(x, w - SCORE_LABEL_W - 10, 2, 10), ("b", "w")):
        player = view.players[colour]
        paint.disc(paint.rect(left, y, 30, h).center, 12, player.piece)
        text = f"{player.title} {status.scores.get(colour, 0)}"
        paint.fitted(text, paint.rect(left + 34, y, width - 34, h), 44, TEXT, min_size=26)
    # What the score counts, which for Kulami depends on its scoring level; in a game
    # whose pieces come from a hand or a supply (Blokus Duo, Akron), how many each
    # player has left, in seat order.
    label = view.score_label
    if left_in_hand is not None:
        label = f"{left_in_hand['b']} / {left_in_hand['w']} {view.hand}"
    paint.fitted(label,
                 paint.rect(x + w - SCORE_LABEL_W, y, SCORE_LABEL_W, h), 30, MUTED,
                 min_size=20, anchor="midright")


def _message(paint: Painter, view: View) -> None:
    x, y, w, h = MESSAGE
    status = view.status
    if status.thinking is not None:
        h -= THINKING_H + 8
        _thinking(paint, status.thinking, (x, y + h + 8, w, THINKING_H))
    box = paint.rect(x, y, w, h)
    kind = "over" if view.end is not None and status.message_kind == "info" else \
        status.message_kind
    paint.fill(box, MESSAGE_COLOURS.get(kind, PANEL), radius=12)
    if view.end is not None and status.message_kind in ("info", "over"):
        _score_sheet(paint, view, paint.rect(x + 14, y + 10, w - 28, h - 20))
        return
    lines = _message_lines(view)
    chips = _chips(status)
    chip_h = 52 if chips else 0
    inner = paint.rect(x + 14, y + 10, w - 28, h - 20 - chip_h - (8 if chips else 0))
    top = inner.y
    for i, (text, size) in enumerate(lines):
        room = pygame.Rect(inner.x, top, inner.width, inner.bottom - top)
        # Later lines (hole lists, the pending move) are short; the message takes the rest.
        if i == 0 and len(lines) > 1:
            room.height -= sum(paint.font(s).get_linesize() for _, s in lines[1:])
        used = paint.wrapped(text, room, size, TEXT, min_size=22)
        top = used.bottom + paint.px(4)
    if chips:
        chip_y = y + h - 10 - chip_h
        for (left, width), (label, action) in zip(columns(x + 14, w - 28, len(chips), 10),
                                                  chips):
            paint.button(paint.rect(left, chip_y, width, chip_h), label, action,
                         selected=label == status.candidates[status.choice])


def may_resign(view: View) -> str | None:
    """The colour the screen's Resign resigns now: a person at the table to move, in a
    game going on; ``None`` when there is none."""
    status = view.status
    if view.end is not None or status.turn is None or not status.seats[status.turn].at_table:
        return None
    return status.turn


def _resign_question(paint: Painter, view: View, colour: str) -> None:
    """Resign tapped: the question, who would win, and the two answers."""
    x, y, w, h = MESSAGE
    paint.fill(paint.rect(x, y, w, h), MESSAGE_COLOURS["confirm"], radius=12)
    loser, winner = view.players[colour].title, view.players["w" if colour == "b" else "b"].title
    chip_h = 60
    inner = paint.rect(x + 14, y + 10, w - 28, h - 20 - chip_h - 8)
    used = paint.wrapped(f"Resign for {loser}?", inner, 44, TEXT, min_size=28)
    paint.wrapped(f"The game ends here and {winner} wins.",
                  pygame.Rect(inner.x, used.bottom + paint.px(6), inner.width,
                              inner.bottom - used.bottom - paint.px(6)), 34, TEXT, min_size=22)
    answers = (("Yes, resign", Action(RESIGN_SURE, colour)), ("Play on", Action(PLAY_ON)))
    for (left, width), (label, action) in zip(columns(x + 14, w - 28, 2, 16), answers):
        paint.button(paint.rect(left, y + h - 10 - chip_h, width, chip_h), label, action)


def _chips(status: Status) -> list[tuple[str, Action]]:
    """A button per move to choose between; with more than fit, the one lit now and
    those after it, then one that shows the next few."""
    moves = status.candidates
    if len(moves) <= 1:
        return []
    if len(moves) <= CHIPS:
        return [(move, Action(CONFIRM, move)) for move in moves]
    shown = [moves[(status.choice + i) % len(moves)] for i in range(CHIPS - 1)]
    return [*((move, Action(CONFIRM, move)) for move in shown),
            (f"More ({len(moves)})", Action(HINT, str(CHIPS - 1)))]


def _score_sheet(paint: Painter, view: View, inner: pygame.Rect) -> None:
    """The end of the game: the whole score line by line (Kulami's panels and bonuses,
    ConHex's cells and winning chain), then how it ended and who won by how much, all
    in the largest one size that fits the box."""
    status = view.status
    lines = [*view.sheet, view.end_long]
    lines += [words.sentence(line) for line in (status.saving, *status.faults) if line]
    size = 36
    while size > 18:
        f = paint.font(size)
        height = sum(len(wrap(line, f, inner.width)) * f.get_linesize() for line in lines)
        if height + paint.px(4) * (len(lines) - 1) <= inner.height:
            break
        size -= 2
    top = inner.y
    for line in lines:
        used = paint.wrapped(line, pygame.Rect(inner.x, top, inner.width, inner.bottom - top),
                             size, TEXT, min_size=size)
        top = used.bottom + paint.px(4)


def _message_lines(view: View) -> list[tuple[str, float]]:
    """The message box's lines with their sizes: the message, then what it refers to.

    A seat's move waiting to be placed (the engine's, a player's away) is named once,
    large (read at arm's length while placing it): by the message where it names the
    move ("The engine plays d4: place it there"), else by a line of its own, called as
    its seat calls it."""
    status = view.status
    message = view.message or view.end_long
    named = status.pending is not None and names_move(message, status.pending)
    lines = [(message, PENDING_SIZE if named else 40)] if message else []
    places = view.board.holes  # the sync lists in board order, from the board's geometry
    if status.sync_fill:
        lines.append((f"Put a piece on: {words.holes(status.sync_fill, places)}", 36))
    if status.sync_empty:
        lines.append((f"Take the piece off: {words.holes(status.sync_empty, places)}", 36))
    if status.pending and not named:
        whose = status.seats[status.turn].move_called(status.game, status.turn)
        lines.append((f"{whose}: {status.pending}", PENDING_SIZE))
    if len(status.candidates) > 1:
        lines.append(("Tap the move you made:", 36))
    if status.unseen > len(view.offers):
        lines.append(("Moved a piece the sensors cannot see? Press Confirm.", 32))
    lines += [(offer.words, 34) for offer in view.offers]
    shown = {text for text, _ in lines}
    lines += [(words.sentence(line), 32) for line in (status.saving, *status.faults)
              if line and words.sentence(line) not in shown]  # not twice if the message
    return lines


def names_move(text: str, move: str) -> bool:
    """Whether ``text`` names ``move`` as a word of its own (``d4`` is not named by
    ``d44``); a move's own commas and dashes stay part of it."""
    return move in (word.strip(".,:;!?()") for word in text.split())


def _thinking(paint: Painter, progress: float, region: tuple[float, float, float, float]
              ) -> None:
    x, y, w, h = region
    paint.fitted("Engine thinking", paint.rect(x, y, 220, h), 34, TEXT, min_size=24)
    bar = paint.rect(x + 230, y + 8, w - 230, h - 16)
    paint.fill(bar, PANEL, radius=6)
    done = pygame.Rect(bar.x, bar.y, round(bar.width * min(max(progress, 0.0), 1.0)),
                       bar.height)
    if done.width:
        paint.fill(done, MESSAGE_COLOURS["waiting"], radius=6)


def _moves(paint: Painter, status: Status) -> None:
    """The move list, numbered by pairs, every line in one size (:data:`MOVES_SIZES`):
    a pair too long for a line (Blokus Duo's pieces, ``k4,j5,k5,l5,k6``) puts its second
    move on a line of its own, indented, and a move too long for a line goes on after a
    comma or a dash. The list shows its end, the latest move always in sight, and only
    whole pairs, each under its number."""
    x, y, w, h = MOVES
    region = paint.rect(x, y, w, h)
    paint.fill(region, PANEL, radius=12)
    title = paint.rect(x + 12, y + 6, w - 24, 34)
    paint.fitted(f"Moves ({len(status.moves)})", title, 32, MUTED, min_size=22)
    for size in MOVES_SIZES:
        f = paint.font(size)
        pairs = move_lines(status.moves, f, title.width)
        if all(len(pair) == 1 for pair in pairs):
            break
    # A line's height: at the smallest sizes a descender ("j") reaches a pixel below
    # the font's line, so the glyphs the list uses are measured.
    glyphs = "".join(sorted({c for pair in pairs for _, line in pair for c in line}))
    step = max(f.get_linesize(), f.render(glyphs, True, TEXT).get_height() if glyphs else 0)
    top = title.bottom + paint.px(4)
    room = max((region.bottom - paint.px(8) - top) // step, 0)
    shown: list[tuple[int, str]] = []
    for pair in reversed(pairs):
        if len(shown) + len(pair) > room:
            break
        shown[:0] = pair
    for indent, line in shown:
        paint.text(line, (title.x + indent, top), size, TEXT)
        top += step


def move_lines(moves: Sequence[str], f: pygame.font.Font, width: int
               ) -> list[list[tuple[int, str]]]:
    """``moves`` as the move list's lines in ``f`` no wider than ``width``, pair by pair:
    each pair's lines as (indent in pixels, text), on one line where it fits."""
    pairs = []
    for n in range(0, len(moves), 2):
        number = f"{n // 2 + 1}. "
        line = number + "  ".join(moves[n:n + 2])
        if f.size(line)[0] <= width:
            pairs.append([(0, line)])
            continue
        indent = f.size(number)[0]
        lines: list[tuple[int, str]] = []
        for move in moves[n:n + 2]:
            lines += [(indent, part) for part in _broken(move, f, width - indent)]
        pairs.append([(0, number + lines[0][1]), *lines[1:]])
    return pairs


def _broken(move: str, f: pygame.font.Font, width: int) -> list[str]:
    """``move`` in parts no wider than ``width``, each but the last ending at a comma or
    a dash (a hole's name is never near that wide)."""
    parts: list[str] = []
    for piece in re.findall(r"[^,-]*[,-]|[^,-]+", move):
        if parts and f.size(parts[-1] + piece)[0] <= width:
            parts[-1] += piece
        else:
            parts.append(piece)
    return parts


def _buttons(paint: Painter, view: View) -> None:
    x, y, w, h = BUTTONS
    status = view.status
    playing = view.end is None
    person_to_move = playing and status.seats[status.turn].at_table
    confirm = status.candidates[0] if len(status.candidates) == 1 else None
    # Confirm with no move named: offers the moves the sensors cannot see, or accepts
    # the takeback a player away asked for.
    unseen = confirm is None and not status.candidates and status.unseen > 0
    accepts = status.offer not in (None, "table")
    # Confirm also says the board is laid out (Kulami's panels), as the session takes it.
    set_up = status.state == "setup"
    specs = (("New game", Action(NEW), True),
             ("Hint", Action(HINT), person_to_move and status.pending is None),
             ("Undo", Action(UNDO), bool(status.moves)),
             ("Resign", Action(RESIGN, may_resign(view)), may_resign(view) is not None),
             ("Confirm", Action(CONFIRM, confirm),
              confirm is not None or unseen or accepts or set_up),
             *((words.sentence(offer.move), Action(PLAY, offer.move), playing)
               for offer in view.offers))
    for (left, width), (label, action, enabled) in zip(columns(x, w, len(specs), 12), specs):
        # A move made by button stands out: it is there only while it may be made.
        paint.button(paint.rect(left, y, width, h), label, action, enabled,
                     selected=enabled and action.name == PLAY)
