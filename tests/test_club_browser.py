"""The club's page (``tabletop watch``) in a real browser (Debian's Chromium, driven by
Selenium, as tests/test_web_browser.py drives the board's page): two boards listed live,
a board's name that is markup shown as the text it is, one board opened and followed
move by move, drawn by the board page's own drawing code, and a board that stops shown
offline."""

import threading

from selenium.webdriver.common.by import By

from app.cli.watch import page_server
from app.remote.club import Spectator
from tests.test_club import CLUB, LIMIT_S, Board, connected, follows, until
from tests.test_web_browser import browser, names, pieces, wait  # noqa: F401 (fixture)

#: A name a stranger could give a board: run as markup, it would retitle the page.
MARKUP = '<img src=x onerror="document.title=1">'


def rows(driver):
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#board-list tbody tr'), "
        "r => Array.from(r.cells, c => c.textContent))")


def test_the_club_s_page_lists_the_boards_and_follows_one_move_by_move(mosquitto,
                                                                       browser):
    spectator = connected(Spectator(mosquitto.config("ben", club=CLUB)))
    boards = [Board(mosquitto, "Anna's kitchen", "kulami"), Board(mosquitto, MARKUP, "akron")]
    page = page_server(spectator, "127.0.0.1", 0)
    threading.Thread(target=page.serve_forever, daemon=True).start()
    try:
        for board in boards:
            board.play(2)
            until(lambda: follows(spectator, board), "the board listed")
        browser.get(f"http://127.0.0.1:{page.server_address[1]}/")
        wait(browser, lambda d: len(rows(d)) == 2, LIMIT_S)
        listed = rows(browser)
        assert [row[0] for row in listed] == [MARKUP, "Anna's kitchen"]
        assert listed[1][1:5] == ["Kulami", "Red: person · Black: person", "2", "Red to move"]
        assert browser.find_elements(By.CSS_SELECTOR, "#board-list img") == []
        assert browser.title == "Tabletop club"
        kitchen = boards[0]
        browser.find_element(By.CSS_SELECTOR,
                             f'tr[data-board="{kitchen.feed.topic.rpartition("/")[2]}"] button'
                             ).click()
        for _ in range(3):
            wait(browser, lambda d: pieces(d) == dict(kitchen.session.board.piece_view()),
                 LIMIT_S)
            assert names(browser, "#board [data-last]", "data-last") == [kitchen.moves()[-1]]
            kitchen.play()
        wait(browser, lambda d: d.find_element(By.ID, "moves").text.split()
             == kitchen.moves(), LIMIT_S)
        kitchen.feed.close()
        wait(browser, lambda d: d.find_element(By.ID, "turn").text.startswith("offline"),
             LIMIT_S)
    finally:
        page.shutdown()
        page.server_close()
        spectator.stop()
        for board in boards:
            board.feed.close()
