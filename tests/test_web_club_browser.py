"""The club from a board's own page in Chromium at a phone's size (390x844), through a
real mosquitto: the board's page shows a Club link, which opens the club's page listing
the club's boards live; a board opened there is drawn by board.js; the page fits the
phone's width, passes axe-core, and links back to the board's page."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from tests.test_club import CLUB, Board
from tests.test_club_browser import rows
from tests.test_web_browser import names, wait
from tests.test_web_browser_layout import AXE, AXE_RUN, TOO_WIDE, browser_of
from tests.test_web_club import page

LIMIT_S = 30.0


def test_the_club_opened_from_a_board_s_page_on_a_phone(mosquitto):
    kitchen = Board(mosquitto, "Anna's kitchen", "kulami")
    front = page(mosquitto.config("ben", club=CLUB))
    phone = browser_of(390, 844)
    try:
        kitchen.play(2)
        phone.get(front.url)
        wait(phone, lambda d: d.find_element(By.ID, "club-tab").is_displayed(), LIMIT_S)
        phone.find_element(By.ID, "club-tab").click()
        wait(phone, lambda d: [row[0] for row in rows(d)] == ["Anna's kitchen"]
             and rows(d)[0][3] == "2", LIMIT_S)
        scroll, width, wide = phone.execute_script(TOO_WIDE)
        assert scroll <= width and not wide, wide
        phone.execute_script(AXE.read_text(encoding="utf-8"))
        phone.set_script_timeout(60)
        assert phone.execute_async_script(AXE_RUN) == []
        phone.find_element(By.CSS_SELECTOR, "#board-list tbody button").click()
        wait(phone, lambda d: names(d, "#board [data-last]", "data-last")
             == [kitchen.moves()[-1]], LIMIT_S)
        kitchen.play()  # live: the next move shows without a reload
        wait(phone, lambda d: names(d, "#board [data-last]", "data-last")
             == [kitchen.moves()[-1]], LIMIT_S)
        phone.find_element(By.ID, "close").click()
        phone.find_element(By.ID, "home").click()
        wait(phone, lambda d: d.find_element(By.ID, "connection").text == "live", LIMIT_S)
        errors = [entry["message"] for entry in phone.get_log("browser")
                  if "/favicon.ico" not in entry["message"]]
        assert errors == []
    finally:
        phone.quit()
        front.close()
        kitchen.feed.close()
