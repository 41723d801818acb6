"""Blokus Duo from a browser's seat in Chromium, through the piece picker: a tap on the
board sends nothing until a piece is chosen, placed and confirmed; the pieces left are
listed, turned and flipped, and the preview says whether the piece fits."""

import time

from selenium.webdriver.common.by import By

from app.table.seats import words_of
from tests.test_web_browser import browser, names, paired_page, wait  # noqa: F401 (the fixture)
from tests.web_table import served, settle

CODE = "135790"


def click(driver, selector):
    """Click what ``selector`` finds, found and clicked in one go (the board is drawn
    anew at every change)."""
    return wait(driver, lambda d: d.execute_script(
        "const e = document.querySelector(arguments[0]);"
        "if (e && !e.disabled) e.dispatchEvent(new MouseEvent('click', {bubbles: true}));"
        "return Boolean(e && !e.disabled);", selector))


def orange_from_the_page(browser, board, url):
    """The page paired, orange (the second player) taken from it, and the table's first
    player's monomino on its start point: orange's turn, at the page."""
    paired_page(browser, url, CODE)
    wait(browser, lambda d: d.execute_script(
        "const b = [...document.querySelectorAll('#seats button')]"
        ".find(b => b.textContent === 'Play orange from here');"
        "if (b) b.click(); return Boolean(b);"))
    deadline = time.monotonic() + 10
    while words_of(board.session.seats)["w"] != "remote" and time.monotonic() < deadline:
        board.step()
        time.sleep(0.02)
    assert words_of(board.session.seats)["w"] == "remote"
    board.place("e10")
    settle(board)


def suggestions(driver):
    return names(driver, "#legal-moves option", "value")


def test_blokus_duo_played_from_the_page_through_the_piece_picker(tmp_path, monkeypatch,
                                                                  browser):
    with served(tmp_path, monkeypatch, CODE, "blokus-duo", {"start": "fixed"}) as (
            board, front):
        orange_from_the_page(browser, board, front.url)
        # The picker lists the 21 pieces left, and the typed move is gone, with its list
        # of suggestions (it held 2,000 of the moves, built at every change for no one).
        wait(browser, lambda d: len(names(d, "#picker [data-piece]", "data-piece")) == 21)
        assert not browser.find_element(By.ID, "move-form").is_displayed()
        assert suggestions(browser) == []

        # A tap on the start square with no piece chosen sends nothing (it played the
        # monomino at once before the picker).
        click(browser, '#board [data-hole="j5"]')
        for _ in range(5):
            board.step()
            time.sleep(0.05)
        assert board.session.pending is None

        # The pentomino X chosen and put on j5 centred: a preview, still nothing sent.
        click(browser, '#picker [data-piece="X"]')
        click(browser, '#board [data-hole="j5"]')
        wait(browser, lambda d: sorted(names(d, "#board [data-preview].legal",
                                             "data-preview"))
             == ["i5", "j4", "j5", "j6", "k5"])
        for _ in range(5):
            board.step()
            time.sleep(0.05)
        assert board.session.pending is None
        # Put where it does not touch the start point: crossed, Confirm not offered.
        click(browser, '#board [data-hole="c3"]')
        wait(browser, lambda d: names(d, "#board [data-preview].illegal", "data-preview"))
        assert browser.find_element(By.ID, "picker-confirm").get_attribute("disabled")
        # The L5 chosen, turned (R from the keyboard) and flipped (the button): its
        # preview on j5 covers the squares of each orientation in turn.
        click(browser, '#picker [data-piece="L5"]')
        click(browser, '#board [data-hole="j5"]')
        seen = [sorted(names(browser, "#board [data-preview]", "data-preview"))]
        browser.find_element(By.TAG_NAME, "body").send_keys("r")
        click(browser, '#board [data-hole="j5"]')
        seen.append(sorted(names(browser, "#board [data-preview]", "data-preview")))
        click(browser, "#picker-flip")
        click(browser, '#board [data-hole="j5"]')
        seen.append(sorted(names(browser, "#board [data-preview]", "data-preview")))
        assert all(len(squares) == 5 for squares in seen) and len(
            {tuple(squares) for squares in seen}) == 3
        # Back to the X, put on j5 with the keyboard's Enter, and confirmed.
        click(browser, '#picker [data-piece="X"]')
        click(browser, '#board [data-hole="j5"]')
        click(browser, "#picker-cancel")
        browser.find_element(By.TAG_NAME, "body").send_keys("\ue007")  # Enter at j5
        wait(browser, lambda d: not d.find_element(By.ID, "picker-confirm")
             .get_attribute("disabled"))
        click(browser, "#picker-confirm")
        deadline = time.monotonic() + 10
        while board.session.pending is None and time.monotonic() < deadline:
            board.step()
            time.sleep(0.02)
        game = board.session.board
        assert sorted(game.holes_of(board.session.pending)) == ["i5", "j4", "j5", "j6", "k5"]
        # The table places it; the picker no longer lists the X.
        for square in ("i5", "j4", "j5", "j6", "k5"):
            board.place(square)
        settle(board)
        assert len(board.session.board.move_stack) == 2
        wait(browser, lambda d: "X" not in names(d, "#picker [data-piece]", "data-piece"))


def test_without_the_picker_the_typed_move_suggests_a_bounded_list_that_narrows(
        tmp_path, monkeypatch, browser):
    """picker.js not loaded (blocked), so the page falls back on the typed move: its
    suggestions are built when the input is used, at most 100 of orange's 414 legal
    placements, and only those beginning with what is typed."""
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/static/picker.js"]})
    with served(tmp_path, monkeypatch, CODE, "blokus-duo", {"start": "fixed"}) as (
            board, front):
        orange_from_the_page(browser, board, front.url)
        assert len(board.session.board.legal_moves) == 414
        move = wait(browser, lambda d: d.find_element(By.ID, "move").is_displayed()
                    and d.find_element(By.ID, "move"))
        assert suggestions(browser) == []  # nothing built before the input is used
        move.click()
        wait(browser, lambda d: len(suggestions(d)) == 100)
        move.send_keys("i5,")
        legal = {board.session.board.move_text(m) for m in board.session.board.legal_moves}
        beginning = sorted(m for m in legal if m.startswith("i5,"))
        assert 0 < len(beginning) < 100
        wait(browser, lambda d: sorted(suggestions(d)) == beginning)
