"""The page's Far board part in Chromium at a phone's size (390x844), through a real
mosquitto: Anna's page invites and shows the code, its link and QR code; Ben's page,
opened at that link (as a phone that scanned the QR code in Ben's home would open Ben's
own board's page), pairs and joins with the code filled in; both pages say the game is
agreed. The Far board view, with its invitation shown, fits the phone's width and passes
axe-core, as every other view does (test_web_browser_layout.py)."""

from __future__ import annotations

import subprocess

from selenium.webdriver.common.by import By

from app.remote.play import AGREED, OFFERING
from tests.test_web_browser_layout import AXE, AXE_RUN, TOO_WIDE, browser_of
from tests.test_web_far import CODE, Board
from tests.test_web_browser import wait

LIMIT_S = 30.0


def far_page(driver, board, url=None):
    """``board``'s page (at ``url``, its own by default), live and paired, on Far board."""
    driver.get(url or board.url)
    wait(driver, lambda d: d.find_element(By.ID, "connection").text == "live")
    wait(driver, lambda d: d.find_element(By.ID, "far-tab").is_displayed())
    driver.find_element(By.CSS_SELECTOR, 'nav [data-view="settings"]').click()
    driver.find_element(By.ID, "code").send_keys(CODE)
    driver.find_element(By.CSS_SELECTOR, "#pair-form button").click()
    wait(driver, lambda d: "paired" in d.find_element(By.TAG_NAME, "body")
         .get_attribute("class"))
    driver.find_element(By.CSS_SELECTOR, 'nav [data-view="far"]').click()


def stepping(*boards):
    """A wait's condition that turns the boards' loops (the page's commands are carried
    out at a turn) each time it looks."""
    def condition(test):
        def look(driver):
            for board in boards:
                board.board.step()
            return test(driver)
        return look
    return condition


def test_a_page_invites_and_a_page_opened_at_its_link_joins(tmp_path, monkeypatch,
                                                              mosquitto):
    anna = Board(tmp_path, monkeypatch, mosquitto, "anna", "Anna")
    ben = Board(tmp_path, monkeypatch, mosquitto, "ben", "Ben")
    phone, other = browser_of(390, 844), browser_of(390, 844)
    try:
        on = stepping(anna, ben)
        far_page(phone, anna)
        phone.find_element(By.CSS_SELECTOR, '#far-colour option[value="w"]').click()
        phone.find_element(By.CSS_SELECTOR, "#far-invite button").click()
        wait(phone, on(lambda d: d.find_element(By.ID, "far-code").text), LIMIT_S)
        assert anna.far.state.phase == OFFERING
        code = phone.find_element(By.ID, "far-code").text
        assert code == anna.far.state.code
        # A paired browser reads the line with its code; the forms wait for a Cancel.
        wait(phone, lambda d: code in d.find_element(By.ID, "far-line").text)
        assert not phone.find_element(By.ID, "far-invite").is_displayed()
        assert phone.find_element(By.ID, "far-cancel").is_displayed()
        link = phone.find_element(By.ID, "far-link").get_attribute("href")
        assert link.endswith(f"/#join={code}")
        assert phone.find_element(By.ID, "far-qr").get_attribute("src").startswith(
            "data:image/svg+xml")
        assert phone.find_element(By.ID, "far-qr").size["width"] > 100
        # The QR code as the phone's screen shows it, read by ZBar (a reader no one here
        # wrote, as a phone's camera app would): the link, and nothing else.
        shot = tmp_path / "qr.png"
        shot.write_bytes(phone.find_element(By.ID, "far-qr").screenshot_as_png)
        read = subprocess.run(["zbarimg", "--quiet", "--raw", str(shot)],
                              capture_output=True, text=True, timeout=LIMIT_S)
        assert read.returncode == 0, read.stderr
        assert read.stdout.splitlines() == [link]
        # The view as a phone shows it: nothing wider than the window, no serious
        # accessibility fault.
        scroll, width, wide = phone.execute_script(TOO_WIDE)
        assert scroll <= width and not wide, wide
        phone.execute_script(AXE.read_text(encoding="utf-8"))
        phone.set_script_timeout(60)
        assert phone.execute_async_script(AXE_RUN) == []

        # Ben's phone opens the link on Ben's board (here: its address, the same path).
        far_page(other, ben, ben.url + f"#join={code}")
        assert other.find_element(By.ID, "far-join-code").get_attribute("value") == code
        other.find_element(By.CSS_SELECTOR, "#far-join button").click()
        wait(other, on(lambda d: ben.far.state.phase == AGREED
                       and "agreed" in d.find_element(By.ID, "far-line").text), LIMIT_S)
        wait(phone, on(lambda d: "agreed with Ben's board"
                       in d.find_element(By.ID, "far-line").text), LIMIT_S)
        assert not phone.find_element(By.ID, "far-invitation").is_displayed()
        errors = [entry["message"] for driver in (phone, other)
                  for entry in driver.get_log("browser") if "/favicon.ico" not in
                  entry["message"]]
        assert errors == []
    finally:
        phone.quit()
        other.quit()
        anna.close()
        ben.close()
