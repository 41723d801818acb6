"""Resigning from the page in Debian's Chromium: the seat's Resign asks first, Play on
leaves the game as it was, Yes resigns, and the page shows the end."""

import time

from selenium.webdriver.common.by import By

from tests.test_web_browser import CODE, browser, paired_page, table, wait  # noqa: F401
from tests.web_table import settle


def click(driver, text):
    """The button labelled ``text``, clicked once it is there (the seats' box is drawn
    anew at every change)."""
    wait(driver, lambda d: d.find_element(By.XPATH, f"//button[text()='{text}']").click()
         or True)


def test_a_seat_resigns_from_the_page_after_saying_yes(table, browser):
    board, front = table
    paired_page(browser, front.url, CODE)
    click(browser, "Play black from here")
    wait(browser, lambda d: "Black: you, here" in d.find_element(By.ID, "seats").text)
    board.step()
    board.place("d4")
    settle(board)
    click(browser, "Resign")
    wait(browser, lambda d: d.find_element(By.ID, "resign-question").text ==
         "Resign for Black? The game ends here and Red wins.")
    click(browser, "Play on")
    wait(browser, lambda d: not d.find_elements(By.ID, "resign-question"))
    board.step()
    assert board.session.resigned is None
    click(browser, "Resign")
    click(browser, "Yes, resign")
    deadline = time.monotonic() + 10
    while board.session.resigned is None and time.monotonic() < deadline:
        board.step()
        time.sleep(0.02)
    assert board.session.resigned == "w"
    wait(browser, lambda d: d.find_element(By.ID, "turn").text == "Game over")
    wait(browser, lambda d: "Red wins: black resigned" in d.find_element(By.ID, "sheet").text)
    assert not browser.find_elements(By.XPATH, "//button[text()='Resign']")
