"""The remote-seat flow from the page in Chromium, for each game whose pieces fill one
hole (Blokus Duo's goes through the piece picker: test_web_picker_browser.py): pair, take
the second player's seat, see the table's move, tap a legal hole for one's own, and see
the table carry it out and answer."""

import random
import time

import pytest
from selenium.webdriver.common.by import By

from app.games import game as game_info
from app.table.seats import words_of
from app.web.snapshot import hex_colour
from engines.players import choose_move
from tests.test_web_browser import browser, paired_page, pieces, wait  # noqa: F401 (the fixture)
from tests.web_table import served, settle

CODE = "135790"
OPTIONS = {"kulami": {}, "conhex": {"pie": False}, "akron": {}}


def step_until(board, condition):
    deadline = time.monotonic() + 10
    while not condition() and time.monotonic() < deadline:
        board.step()
        time.sleep(0.02)
    assert condition()


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_a_seat_played_from_the_page(tmp_path, monkeypatch, browser, name):
    with served(tmp_path, monkeypatch, CODE, name, OPTIONS[name]) as (board, front):
        paired_page(browser, front.url, CODE)
        wait(browser, lambda d: d.execute_script(
            "const b = [...document.querySelectorAll('#seats button')]"
            ".filter(b => b.textContent.endsWith(' from here'))[1];"
            "if (b) b.click(); return Boolean(b);"))
        step_until(board, lambda: words_of(board.session.seats)["w"] == "remote")
        rng = random.Random(3)
        for _ in range(2):  # two rounds: the table's move, then the browser's
            game = board.session.board
            move = game.move_text(choose_move(game, 1, rng))
            for hole in game.holes_of(game.parse_move(move)):
                board.place(hole)
            settle(board)
            assert board.session.board.move_text(board.session.board.last_move) == move
            game = board.session.board
            wait(browser, lambda d: d.execute_script(
                "return document.body.dataset.revision") == str(board.session.revision))
            mine = [m for m in map(game.move_text, game.legal_moves) if m in game.holes]
            assert mine, f"{name}: no move a tap on one hole plays"
            tap = rng.choice(mine)
            wait(browser, lambda d: d.execute_script(
                "const hole = document.querySelector(arguments[0]);"
                "if (hole) hole.dispatchEvent(new MouseEvent('click', {bubbles: true}));"
                "return Boolean(hole);", f'#board.my-turn [data-hole="{tap}"]'))
            step_until(board, lambda: board.session.pending is not None)
            assert game.move_text(board.session.pending) == tap
            wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR,
                                                    f'#board [data-light="{tap}"]'))
            # Lit in the player's own colour, not the suggestion green, and named theirs.
            light = browser.find_element(By.CSS_SELECTOR, f'#board [data-light="{tap}"]')
            assert light.get_attribute("fill") == hex_colour(game_info(name).players["w"].piece)
            assert "Engine" not in browser.find_element(By.ID, "legend").text
            board.place(tap)  # the person at the table carries it out
            settle(board)
            assert board.session.board.move_text(board.session.board.last_move) == tap
            wait(browser, lambda d: pieces(d).get(tap) == "w")
