"""The touch screen's "Far board" pages (app/screen/far.py in the menu): only on a board
with ``[remote]``; Invite shows the code, Join types it on a keypad of the code's
alphabet; a wrong code is one line on the joining screen; a game agreed closes both
menus with the far board seated. Two consoles play through a real mosquitto, the code
read off one screen and tapped on the other, as two people would."""

from __future__ import annotations

import re
import time

import pygame
import pytest

from app.games import new_game
from app.remote.far_board import FarBoard
from app.remote.invitation import ALPHABET
from app.remote.play import FarPlay, far_game_path
from app.screen.console import Console
from app.screen.far import FarPages
from app.screen.menu import Menu
from app.table.session import Session

LIMIT_S = 30.0
SIZES = [(800, 480), (1280, 800), (480, 320)]


def board(mosquitto, tmp_path, user, name):
    """A Kulami board's console with its far flow, as ``tabletop run`` sets it up."""
    console = Console(Session(new_game("kulami"), physical=False), ("kulami",))
    console.far = FarPlay(mosquitto.config(user, club="riverside", name=name),
                          far_game_path(tmp_path / user), ("kulami",))
    return console


def tap(console, label):
    console.draw(pygame.Surface((800, 480)))
    console.tap(console.drawn.button(label).rect.center)


def between_turns(console):
    """What ``tabletop run`` does between two turns: a game agreed takes the table."""
    link = console.far.take(console.session)
    if link is not None:
        console.session = Session(link.game.board([]), seats=link.seats(), physical=False)
        link.start()


def until(condition, *consoles, what="it"):
    deadline = time.monotonic() + LIMIT_S
    while time.monotonic() < deadline:
        for console in consoles:
            between_turns(console)
            console.draw(pygame.Surface((800, 480)))
        if condition():
            return
        time.sleep(0.01)
    raise AssertionError(f"{what} did not happen within {LIMIT_S} s")


def shown_code(console) -> str | None:
    for text, _ in console.drawn.texts:
        if re.fullmatch(r"[0-9A-Z]{4}-[0-9A-Z]{4}", text):
            return text
    return None


def test_the_far_board_entry_is_there_only_with_remote(tmp_path):
    surface = pygame.Surface((800, 480))
    labels = [b.label for b in Menu(["kulami"]).draw(surface).buttons]
    assert "Far board" not in labels
    from app.remote.config import RemoteConfig
    far = FarPlay(RemoteConfig("localhost", 1883, tls=False), far_game_path(tmp_path),
                  ("kulami",))
    assert "Far board" in [b.label for b in Menu(["kulami"], far=far).draw(surface).buttons]


@pytest.mark.parametrize("size", SIZES)
def test_every_page_fits_the_screen(tmp_path, size):
    from app.remote.config import RemoteConfig
    far = FarPlay(RemoteConfig("localhost", 1883, tls=False), far_game_path(tmp_path),
                  ("kulami", "conhex"))
    pages = FarPages(far, "conhex", {})
    surface = pygame.Surface(size)
    for page in ("home", "joining"):
        pages.page = page
        far.join("K7Q")  # a failed try: its line is the longest the pages show
        drawn = pages.draw(surface)
        assert drawn.overlaps() == [] and drawn.outside(surface.get_rect()) == []
        assert "not 'K7Q'" in drawn.text


def test_the_keypad_types_only_the_code_s_alphabet_and_eight_of_them(tmp_path):
    from app.remote.config import RemoteConfig
    far = FarPlay(RemoteConfig("localhost", 1883, tls=False), far_game_path(tmp_path),
                  ("kulami",))
    pages = FarPages(far, "kulami", {})
    pages.page = "joining"
    surface = pygame.Surface((800, 480))
    drawn = pages.draw(surface)
    keys = [b.label for b in drawn.buttons if b.action.name == "far-key"]
    assert "".join(keys) == ALPHABET and not {"I", "L", "O", "U"} & set(keys)
    assert not drawn.button("Join").enabled and not drawn.button("Delete").enabled
    for key in "K7QMR2XDZ":  # one too many: the ninth is not taken
        action = pages.draw(surface).action_at(drawn.button(key).rect.center)
        if action is not None:
            pages.press(action)
    assert pages.typed == "K7QMR2XD"
    drawn = pages.draw(surface)
    assert "Join: K7QM-R2XD" in drawn.text and drawn.button("Join").enabled
    assert not drawn.button("Z").enabled
    pages.press(drawn.button("Delete").action)
    assert pages.typed == "K7QMR2X" and "Join: K7QM-R2X_" in pages.draw(surface).text


def test_a_game_is_offered_on_one_screen_and_joined_on_the_other(mosquitto, tmp_path):
    anna = board(mosquitto, tmp_path, "anna", "Anna")
    ben = board(mosquitto, tmp_path, "ben", "Ben")
    try:
        tap(anna, "New game")
        tap(anna, "Far board")
        tap(anna, "Black")  # Anna plays second
        tap(anna, "Invite")
        until(lambda: shown_code(anna) is not None, anna, what="the code on Anna's screen")
        code = shown_code(anna)
        assert "waiting for the other board to join" in anna.drawn.text
        assert anna.drawn.overlaps() == []

        tap(ben, "New game")
        tap(ben, "Far board")
        tap(ben, "Join")
        wrong = code[:2] + ("0000000" if code[2:] != "00-0000" else "1111111")[:6]
        for key in wrong.replace("-", ""):
            tap(ben, key)
        tap(ben, "Join")
        until(lambda: "does not match" in ben.drawn.text, anna, ben,
              what="the wrong code said on Ben's screen")
        assert ben.drawn.overlaps() == [] and ben.menu is not None
        for _ in range(6):
            tap(ben, "Delete")
        for key in code.replace("-", "")[2:]:
            tap(ben, key)
        tap(ben, "Join")
        until(lambda: anna.menu is None and ben.menu is None, anna, ben,
              what="the game on both tables, the menus closed")
        assert isinstance(anna.session.seats["b"], FarBoard)
        assert isinstance(ben.session.seats["w"], FarBoard)
        assert anna.session.seats["b"].name == "Ben" and ben.session.seats["w"].name == "Anna"
        assert anna.session.board.options == ben.session.board.options
    finally:
        anna.far.stop()
        ben.far.stop()


def test_cancel_takes_the_offer_back_and_returns_to_the_far_page(mosquitto, tmp_path):
    anna = board(mosquitto, tmp_path, "anna", "Anna")
    try:
        tap(anna, "New game")
        tap(anna, "Far board")
        tap(anna, "Invite")
        until(lambda: shown_code(anna) is not None, anna, what="the code shown")
        tap(anna, "Cancel")
        assert anna.far.state.phase == "idle" and anna.menu.far_pages.page == "home"
        tap(anna, "Back")  # to the new-game menu, and on
        assert anna.menu.far_pages is None
    finally:
        anna.far.stop()
