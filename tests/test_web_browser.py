"""The page in a real browser (Debian's Chromium, driven by Selenium) beside a simulated
board: the board drawn live as pieces go down, pairing with a wrong and a right code, a
takeback asked from the page, the saved game replayed and downloaded, and the page
coming back by itself after the server was away, and a whole game with one colour
played from the browser."""

import shutil
import time
import urllib.request

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from app.games import GAMES
from app.table.seats import words_of
from app.web.pairing import Pairing
from app.web.server import Actions, WebFront, new_game_on
from tests.web_table import served, settle

CODE = "135790"
CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")
if CHROMIUM is None or DRIVER is None:  # `make test` installs both (Debian's packages)
    pytest.fail("the browser test needs Debian's chromium and chromium-driver: make test "
                "installs them", pytrace=False)


@pytest.fixture
def table(tmp_path, monkeypatch):
    with served(tmp_path, monkeypatch, CODE) as pair:
        yield pair


@pytest.fixture
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu",
                 "--disable-dev-shm-usage", "--window-size=1280,900"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options,
                              service=webdriver.ChromeService(executable_path=DRIVER))
    yield driver
    driver.quit()


def wait(driver, condition, timeout=10.0):
    """``condition`` once it holds; the page redraws its board at every change, so an
    element found a moment ago may be gone: that is tried again, not a failure."""
    return WebDriverWait(driver, timeout, poll_frequency=0.01,
                         ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda d: condition(d))


def names(driver, selector, attribute):
    """``attribute`` of every element ``selector`` finds, read in one go in the page."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0]), "
        "e => e.getAttribute(arguments[1]))", selector, attribute)


def pieces(driver):
    return dict(zip(names(driver, "#board [data-piece]", "data-piece"),
                    names(driver, "#board [data-piece]", "data-owner")))


def paired_page(driver, url, code):
    """The page at ``url``, live, paired with ``code`` in Settings, back on Live: where
    every test of a seat from the page starts."""
    driver.get(url)
    wait(driver, lambda d: d.find_element(By.ID, "connection").text == "live")
    driver.find_element(By.CSS_SELECTOR, 'nav [data-view="settings"]').click()
    driver.find_element(By.ID, "code").send_keys(code)
    driver.find_element(By.CSS_SELECTOR, "#pair-form button").click()
    wait(driver, lambda d: "paired" in d.find_element(By.TAG_NAME, "body")
         .get_attribute("class"))
    driver.find_element(By.CSS_SELECTOR, 'nav [data-view="live"]').click()


def test_a_game_seen_paired_taken_back_and_replayed_in_the_browser(table, browser):
    board, front = table
    browser.get(front.url)
    wait(browser, lambda d: d.find_element(By.ID, "connection").text == "live")
    # The socket is open a moment before its first snapshot is drawn.
    wait(browser, lambda d: d.execute_script("return document.body.dataset.revision"))
    game = board.session.board
    assert sorted(names(browser, "#board [data-hole]", "data-hole")) == sorted(game.holes)
    assert sorted(names(browser, "#board [data-area]", "data-area")) == sorted(game.areas)

    # Live: a marble put down reaches the page with no reload.
    board.place("d4")
    settle(board)
    wait(browser, lambda d: pieces(d) == {"d4": "b"})  # how soon: bench/web.py measures
    assert "d4" in browser.find_element(By.ID, "moves").text
    assert browser.find_element(By.ID, "turn").text == "Black to move"
    assert browser.find_elements(By.CSS_SELECTOR, '#board [data-last="d4"]')

    # Pairing: a wrong code is refused on the page, the right one pairs it.
    browser.find_element(By.CSS_SELECTOR, 'nav [data-view="settings"]').click()
    code = browser.find_element(By.ID, "code")
    code.send_keys("000000")
    browser.find_element(By.CSS_SELECTOR, "#pair-form button").click()
    wait(browser, lambda d: "wrong pairing code" in d.find_element(By.ID, "pair-error").text)
    assert "paired" not in browser.find_element(By.TAG_NAME, "body").get_attribute("class")
    code.clear()
    code.send_keys(CODE)
    browser.find_element(By.CSS_SELECTOR, "#pair-form button").click()
    wait(browser, lambda d: "paired" in d.find_element(By.TAG_NAME, "body")
         .get_attribute("class"))

    # A takeback from the page: the loop carries it out on its next turn, and the
    # page shows the marble to lift.
    browser.find_element(By.CSS_SELECTOR, 'nav [data-view="live"]').click()
    browser.find_element(By.CSS_SELECTOR, '[data-command="undo"]').click()
    deadline = time.monotonic() + 10
    while board.session.board.move_stack and time.monotonic() < deadline:
        board.step()
        time.sleep(0.02)
    assert board.session.board.move_stack == []
    wait(browser, lambda d: pieces(d) == {})
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, '#board [data-light="d4"]'))
    board.lift("d4")
    settle(board)
    for hole in ("d4", "d7"):
        board.place(hole)
        settle(board)
    wait(browser, lambda d: pieces(d) == {"d4": "b", "d7": "w"})

    # The saved game: listed, replayed move by move, and its record downloaded.
    browser.find_element(By.CSS_SELECTOR, 'nav [data-view="games"]').click()
    row = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#game-list tbody tr"))[0]
    assert "Kulami" in row.text and "unfinished" in row.text
    row.find_element(By.TAG_NAME, "button").click()
    wait(browser, lambda d: d.find_element(By.ID, "ply").text == "move 2: d7")
    browser.find_element(By.ID, "back").click()
    wait(browser, lambda d: d.find_element(By.ID, "ply").text == "move 1: d4")
    assert names(browser, "#replay-board [data-piece]", "data-piece") == ["d4"]
    link = browser.find_element(By.ID, "download").get_attribute("href")
    with urllib.request.urlopen(link) as answer:
        record = answer.read().decode()
    loaded = GAMES["kulami"].board_class.from_record(record)
    assert [loaded.move_text(m) for m in loaded.move_stack] == ["d4", "d7"]


def test_the_page_comes_back_by_itself_when_the_server_returns(table, browser):
    board, front = table
    browser.get(front.url)
    wait(browser, lambda d: d.find_element(By.ID, "connection").text == "live")
    port = front.port
    front.close()
    wait(browser, lambda d: d.find_element(By.ID, "connection").text == "reconnecting")
    again = WebFront(board.store, Actions(new_game_on, ("kulami",)), host="127.0.0.1",
                     port=port, pairing=Pairing(code=CODE)).start()
    try:
        board.table.remote = again
        board.place("e5")
        settle(board)
        wait(browser, lambda d: d.find_element(By.ID, "connection").text == "live")
        wait(browser, lambda d: pieces(d) == {"e5": "b"})
    finally:
        again.close()


def test_a_whole_game_with_one_colour_played_from_the_browser(tmp_path, monkeypatch,
                                                             browser):
    """ConHex: red at the table (the simulated sensors), blue in the browser. Blue takes
    its seat, taps its moves on the page; each is lit on the board, placed by the person
    at the table, and the game goes on only once the board matches, to the end."""
    import random
    from engines.players import choose_move

    with served(tmp_path, monkeypatch, CODE, "conhex", {"pie": False}) as (board, front):
        paired_page(browser, front.url, CODE)
        wait(browser, lambda d: d.find_elements(By.XPATH,
                                                "//button[text()='Play blue from here']"))
        wait(browser, lambda d: d.find_element(
            By.XPATH, "//button[text()='Play blue from here']").click() or True)
        wait(browser, lambda d: "Blue: you, here" in d.find_element(By.ID, "seats").text)
        board.step()
        assert words_of(board.session.seats) == {"b": "person", "w": "remote"}
        rng, game = random.Random(7), board.session.board
        while not game.is_game_over():
            move = game.move_text(choose_move(game, 1, rng))
            if game.turn == "b":
                board.place(move)
                settle(board)
            else:
                # A tap on the hole, found and tapped in one go in the page (the board
                # is drawn anew at every change).
                wait(browser, lambda d: d.execute_script(
                    "const hole = document.querySelector(arguments[0]);"
                    "if (hole) hole.dispatchEvent(new MouseEvent('click', {bubbles: true}));"
                    "return Boolean(hole);", f'#board.my-turn [data-hole="{move}"]'))
                deadline = time.monotonic() + 10
                while board.session.pending is None and time.monotonic() < deadline:
                    board.step()
                    time.sleep(0.01)
                assert game.move_text(board.session.pending) == move
                board.place(move)  # the person at the table carries it out
                settle(board)
            game = board.session.board
            assert game.move_text(game.last_move) == move
        wait(browser, lambda d: d.find_element(By.ID, "turn").text == "Game over")
        result = browser.find_element(By.ID, "sheet").text
        assert ("Red wins" in result) or ("Blue wins" in result)
        assert len(game.move_stack) > 10
