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
        assert browser.find_element(By.ID, "picker-play").get_attribute("disabled")
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
        wait(browser, lambda d: not d.find_element(By.ID, "picker-play")
             .get_attribute("disabled"))
        click(browser, "#picker-play")
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


def tap(driver, selector):
    """A finger's tap on the middle of what ``selector`` finds (scrolled into sight), sent
    as Chromium's touch input: a touch down and up at that point, no mouse and no script
    click; the browser makes of it what a phone's would."""
    x, y = wait(driver, lambda d: d.execute_script(
        "const e = document.querySelector(arguments[0]);"
        "if (!e || e.disabled) return null;"
        "e.scrollIntoView({block: 'center'});"
        "const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2];",
        selector))
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {
        "type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def normal(cells):
    """Cells moved to start at 0 and sorted, as the picker turns a shape."""
    lx, ly = min(x for x, _ in cells), min(y for _, y in cells)
    return sorted((x - lx, y - ly) for x, y in cells)


#: Each pointer's kind as the page received it, and how many touches began.
INPUTS_SEEN = """
window.inputs = {pointers: [], touches: 0};
document.addEventListener("pointerdown", (e) => window.inputs.pointers.push(e.pointerType), true);
document.addEventListener("touchstart", () => { window.inputs.touches += 1; }, true);
"""


def test_a_piece_chosen_turned_flipped_placed_and_confirmed_by_touch_on_a_phone(
        tmp_path, monkeypatch, browser):
    """Orange's L5 on a phone's screen with the finger alone: chosen, turned, flipped, put
    where it fits and confirmed; the table is asked for the L5 in that orientation."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    browser.execute_cdp_cmd("Emulation.setTouchEmulationEnabled",
                            {"enabled": True, "maxTouchPoints": 5})
    with served(tmp_path, monkeypatch, CODE, "blokus-duo", {"start": "fixed"}) as (
            board, front):
        orange_from_the_page(browser, board, front.url)
        wait(browser, lambda d: len(names(d, "#picker [data-piece]", "data-piece")) == 21)
        browser.execute_script(INPUTS_SEEN)
        game = board.session.board
        # The L5 as the engine gives it, turned a quarter clockwise and flipped left to
        # right as the picker does: another orientation than the one listed.
        listed = normal(game.shapes()["L5"])
        expected = normal([(-y, -x) for x, y in listed])
        assert expected != listed

        tap(browser, '#picker [data-piece="L5"]')
        wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, '#picker [data-piece="L5"]')
             .get_attribute("aria-pressed") == "true")
        tap(browser, "#picker-turn")
        tap(browser, "#picker-flip")
        fits = wait(browser, lambda d: names(d, "#board [data-fits]", "data-fits"))
        tap(browser, f'#board [data-hole="{fits[0]}"]')
        wait(browser, lambda d: not d.find_element(By.ID, "picker-play")
             .get_attribute("disabled"))
        previewed = sorted(names(browser, "#board [data-preview].legal", "data-preview"))
        assert board.session.pending is None  # nothing sent before Confirm
        tap(browser, "#picker-play")
        deadline = time.monotonic() + 20
        while board.session.pending is None and time.monotonic() < deadline:
            board.step()
            time.sleep(0.02)
        move = board.session.pending
        assert move is not None and game.piece_of(move) == "L5"
        squares = sorted(game.holes_of(move))
        assert squares == previewed
        assert normal([(int(game.place(s).x), int(game.place(s).y)) for s in squares]) \
            == expected
        inputs = browser.execute_script("return window.inputs")
        assert inputs["touches"] == 5 and set(inputs["pointers"]) == {"touch"}, inputs
        for square in squares:  # the table puts it down: the move is played
            board.place(square)
        settle(board)
        assert len(game.move_stack) == 2 and game.piece_of(game.move_stack[-1]) == "L5"


#: The page's requests for the pieces held until the test lets them go, as on a busy
#: board that answers late.
PIECES_HELD = """
const fetchNow = window.fetch;
window.held = [];
window.fetch = (url, ...rest) => url === "/api/pieces"
  ? new Promise((answer) => window.held.push(() => fetchNow(url, ...rest).then(answer)))
  : fetchNow(url, ...rest);
"""


def test_the_picker_stays_while_the_pieces_of_a_new_position_are_on_their_way(
        tmp_path, monkeypatch, browser):
    """A change on the table (a message said) while the pieces for it are slow to come:
    the picker stays on screen, the typed move does not take its place, and a tap on a
    start square plays nothing (the page played the monomino at once there)."""
    with served(tmp_path, monkeypatch, CODE, "blokus-duo", {"start": "fixed"}) as (
            board, front):
        orange_from_the_page(browser, board, front.url)
        wait(browser, lambda d: len(names(d, "#picker [data-piece]", "data-piece")) == 21)
        before = browser.execute_script("return document.body.dataset.revision")
        browser.execute_script(PIECES_HELD)
        board.session.say("a word from the table")
        board.step()
        wait(browser, lambda d: d.execute_script("return document.body.dataset.revision")
             != before and d.execute_script("return window.held.length") == 1)
        assert browser.find_element(By.ID, "picker").is_displayed()
        assert not browser.find_element(By.ID, "move-form").is_displayed()
        click(browser, '#board [data-hole="j5"]')
        for _ in range(5):
            board.step()
            time.sleep(0.05)
        assert board.session.pending is None
        # The answer comes: the picker plays again.
        browser.execute_script("window.held.forEach((go) => go())")
        click(browser, '#picker [data-piece="X"]')
        click(browser, '#board [data-hole="j5"]')
        wait(browser, lambda d: not d.find_element(By.ID, "picker-play")
             .get_attribute("disabled"))


def test_a_refused_first_answer_for_the_pieces_is_asked_again(tmp_path, monkeypatch,
                                                              browser):
    """The server too busy to answer the picker's first request (a 503): no error in the
    page (it read the revision of pieces it never had), and the next change asks again."""
    with served(tmp_path, monkeypatch, CODE, "blokus-duo", {"start": "fixed"}) as (
            board, front):
        paired_page(browser, front.url, CODE)
        browser.execute_script("""
          window.errors = [];
          window.addEventListener("unhandledrejection", (e) => window.errors.push(String(e.reason)));
          const fetchNow = window.fetch;
          let refused = 0;
          window.fetch = (url, ...rest) => url === "/api/pieces" && refused++ === 0
            ? Promise.resolve(new Response('{"error": "busy"}', {status: 503}))
            : fetchNow(url, ...rest);""")
        wait(browser, lambda d: d.execute_script(
            "const b = [...document.querySelectorAll('#seats button')]"
            ".find(b => b.textContent === 'Play orange from here');"
            "if (b) b.click(); return Boolean(b);"))
        deadline = time.monotonic() + 10
        while words_of(board.session.seats)["w"] != "remote" and time.monotonic() < deadline:
            board.step()
            time.sleep(0.02)
        board.place("e10")
        settle(board)
        wait(browser, lambda d: len(names(d, "#picker [data-piece]", "data-piece")) == 21)
        assert browser.execute_script("return window.errors") == []


def test_a_piece_put_down_is_judged_again_by_the_pieces_of_a_new_position(
        tmp_path, monkeypatch, browser):
    """The X put on j5, then a change after which the engine no longer lists it there (the
    answer for the new position stripped of it here, as a takeback or a new game would
    leave it): Confirm is no longer offered for the move of the old position."""
    with served(tmp_path, monkeypatch, CODE, "blokus-duo", {"start": "fixed"}) as (
            board, front):
        orange_from_the_page(browser, board, front.url)
        click(browser, '#picker [data-piece="X"]')
        click(browser, '#board [data-hole="j5"]')
        wait(browser, lambda d: not d.find_element(By.ID, "picker-play")
             .get_attribute("disabled"))
        browser.execute_script("""
          const fetchNow = window.fetch;
          window.fetch = (url, ...rest) => url !== "/api/pieces" ? fetchNow(url, ...rest)
            : fetchNow(url, ...rest).then((r) => r.json()).then((pieces) => {
                pieces.placements.X = [];
                return new Response(JSON.stringify(pieces));
              });""")
        before = browser.execute_script("return document.body.dataset.revision")
        board.session.say("a word from the table")
        board.step()
        wait(browser, lambda d: d.execute_script("return document.body.dataset.revision")
             != before)
        wait(browser, lambda d: d.find_element(By.ID, "picker-play")
             .get_attribute("disabled"))
        assert browser.find_element(By.ID, "picker-note").text == "X cannot go there"
