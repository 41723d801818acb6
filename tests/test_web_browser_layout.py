"""The page as a person meets it, in a real browser (Debian's Chromium) at a phone's
size (390x844) and a laptop's (1280x900), for every game and every view: nothing wider
than the window, the chosen view alone on screen, text and pieces big enough to read,
no serious or critical accessibility fault found by axe-core (run in the page), and the
live board looking as its committed picture does (within a tolerance: Chromium's text
may move a pixel between releases, a broken layout moves far more).

axe-core comes from the npm registry into .venv/axe (the Makefile's ``axe`` target,
part of ``make test``); the pictures are made again by ``make screenshots``."""

import base64
import io
import os
import random
import time
from pathlib import Path
from types import SimpleNamespace

import pygame
import pytest
from selenium.webdriver.common.by import By

from app.games import game
from app.hardware.profile import load_profile
from app.table.seats import words_of
from app.table.store import RecordStore
from engines.players import choose_move
from tests.test_web_browser import CHROMIUM, CODE, DRIVER, wait
from tests.web_table import served

ROOT = Path(__file__).resolve().parents[1]
AXE = ROOT / ".venv" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
PICTURES = ROOT / "docs" / "screenshots" / "page"
SIZES = {"phone": (390, 844), "laptop": (1280, 900)}
#: A game a little way in, its moves chosen by the engine from a fixed seed.
POSITIONS = {"kulami": ({"layout": "square-1"}, 12), "conhex": ({"pie": False}, 12),
             "blokus-duo": ({}, 8), "akron": ({}, 14)}
REMAKE = os.environ.get("TABLETOP_REMAKE_PAGE_PICTURES") == "1"
#: The smallest text a person reads without zooming, in CSS pixels.
SMALLEST_TEXT = 12
#: A picture matches its committed one when at most this share of its pixels differ by
#: more than a tenth of the range in any channel.
TOLERANCE = 0.02

if not AXE.exists():
    pytest.fail("the page's accessibility checks need axe-core: make axe (part of make "
                "test) installs it from npm", pytrace=False)


def browser_of(width, height):
    from selenium import webdriver
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                 "--disable-dev-shm-usage", "--force-device-scale-factor=1"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "SEVERE"})
    driver = webdriver.Chrome(options=options,
                              service=webdriver.ChromeService(executable_path=DRIVER))
    # The viewport itself, whatever the window's frame takes.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    return driver


@pytest.fixture(params=list(SIZES), scope="module")
def browser(request):
    driver = browser_of(*SIZES[request.param])
    driver.size_name = request.param
    yield driver
    driver.quit()


@pytest.fixture(params=list(POSITIONS))
def table(request, tmp_path, monkeypatch):
    """The game a few moves in, saved and resumed by the simulated board."""
    name = request.param
    options, moves = POSITIONS[name]
    board, rng = game(name).new_board(**{k: str(v).lower() if isinstance(v, bool) else v
                                          for k, v in options.items()}), random.Random(5)
    store = RecordStore(tmp_path, profile=load_profile(f"{name}-sim").name)
    # Saved as a table saves it: its seats named in the record.
    store.players = SimpleNamespace(seats={"b": "person", "w": "person"}, level=2, seed=5,
                                    engine_name="tabletop")
    store.start(board)
    for _ in range(moves):
        board.push(choose_move(board, 1, rng))
    store.save(board)
    with served(tmp_path, monkeypatch, CODE, name, options, resume=True) as pair:
        assert len(pair[0].session.board.move_stack) == moves
        pair[0].step()
        yield name, pair


def opened(driver, front):
    """The page, paired, live."""
    driver.get(front.url)
    driver.execute_script("localStorage.clear()")
    driver.get(front.url)
    wait(driver, lambda d: d.find_element(By.ID, "connection").text == "live")
    wait(driver, lambda d: d.execute_script("return document.body.dataset.revision"))
    driver.find_element(By.CSS_SELECTOR, 'nav [data-view="settings"]').click()
    driver.find_element(By.ID, "code").send_keys(CODE)
    driver.find_element(By.CSS_SELECTOR, "#pair-form button").click()
    wait(driver, lambda d: "paired" in d.find_element(By.TAG_NAME, "body").get_attribute("class"))


def show_view(driver, view):
    driver.find_element(By.CSS_SELECTOR, f'nav [data-view="{view}"]').click()
    if view == "games":
        button = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#game-list button"))[0]
        driver.execute_script("arguments[0].click()", button)
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#replay-board [data-hole]"))


#: Every visible element wider than the window or reaching past its right edge.
TOO_WIDE = """
const width = document.documentElement.clientWidth;
const found = [];
for (const e of document.querySelectorAll("body *")) {
  const box = e.getBoundingClientRect();
  if (box.width === 0 || box.height === 0) continue;
  if (box.right > width + 1 || box.width > width + 1) {
    found.push(`${e.tagName}#${e.id}.${e.getAttribute("class")}: ${Math.round(box.left)}..${Math.round(box.right)}`);
  }
}
return [document.documentElement.scrollWidth, width, found.slice(0, 5)];
"""

#: The views with anything on screen.
SHOWN_VIEWS = """
return Array.from(document.querySelectorAll(".view"))
  .filter((v) => v.getClientRects().length > 0 && v.getBoundingClientRect().height > 0)
  .map((v) => v.id);
"""

#: Visible text smaller than arguments[0] px, on the page and in the boards' drawings.
SMALL_TEXT = """
const found = [];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
while (walker.nextNode()) {
  const node = walker.currentNode;
  if (!node.textContent.trim()) continue;
  const e = node.parentElement;
  const box = e.getBoundingClientRect();
  if (box.width === 0 || box.height === 0) continue;
  const size = e instanceof SVGElement ? box.height : parseFloat(getComputedStyle(e).fontSize);
  if (size < arguments[0]) found.push(`${e.tagName} "${node.textContent.trim().slice(0, 20)}": ${size.toFixed(1)}px`);
}
return found.slice(0, 5);
"""

#: The smallest piece drawn on the visible boards, in CSS pixels.
SMALLEST_PIECE = """
const sizes = Array.from(document.querySelectorAll("svg [data-piece]"))
  .map((p) => p.getBoundingClientRect()).filter((b) => b.width > 0).map((b) => Math.min(b.width, b.height));
return sizes.length ? Math.min(...sizes) : null;
"""

AXE_RUN = """
const done = arguments[arguments.length - 1];
axe.run(document, {resultTypes: ["violations"]}).then(
  (r) => done(r.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
               .map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}`)),
  (e) => done([`axe failed: ${e}`]));
"""


@pytest.mark.parametrize("view", ["live", "games", "settings"])
def test_every_view_of_every_game_fits_reads_and_passes_axe(browser, table, view):
    name, (board, front) = table
    opened(browser, front)
    show_view(browser, view)
    where = f"{name}, {view} view, {browser.size_name}"
    errors = [entry["message"] for entry in browser.get_log("browser")
              if "/favicon.ico" not in entry["message"]]  # the browser's own asking
    assert errors == [], f"{where}: {errors}"

    scroll, width, wide = browser.execute_script(TOO_WIDE)
    assert scroll <= width and not wide, f"{where}: wider than the window {width}px: {wide}"
    assert browser.execute_script(SHOWN_VIEWS) == [view], where
    small = browser.execute_script(SMALL_TEXT, SMALLEST_TEXT)
    assert not small, f"{where}: text under {SMALLEST_TEXT}px: {small}"
    if view in ("live", "games"):
        piece = browser.execute_script(SMALLEST_PIECE)
        assert piece is None or piece >= 8, f"{where}: pieces {piece:.1f}px across"
    browser.execute_script(AXE.read_text(encoding="utf-8"))
    browser.set_script_timeout(60)
    violations = browser.execute_async_script(AXE_RUN)
    assert violations == [], f"{where}: {violations}"


def seated(driver, board, front):
    """The page paired and on Live, holding the seat of the player to move: the seat
    buttons, the takeback offer and the move form (a game played by holes) or the piece
    picker with a piece chosen and put where it fits, Confirm offered (Blokus Duo)."""
    opened(driver, front)
    show_view(driver, "live")
    colour = board.session.board.turn
    line = "bw".index(colour) + 1
    wait(driver, lambda d: d.execute_script(
        "const b = document.querySelector(arguments[0]);"
        "if (b) b.click(); return Boolean(b);", f"#seats p:nth-child({line}) button"))
    deadline = time.monotonic() + 20
    while words_of(board.session.seats)[colour] != "remote" and time.monotonic() < deadline:
        board.step()
        time.sleep(0.02)
    assert words_of(board.session.seats)[colour] == "remote"
    wait(driver, lambda d: "you, here" in d.find_element(By.ID, "seats").text, 20)
    if board.session.board.shapes():
        for selector in ("#picker [data-piece]", "#board [data-fits]"):
            wait(driver, lambda d: d.execute_script(
                "const e = document.querySelector(arguments[0]);"
                "if (e) e.dispatchEvent(new MouseEvent('click', {bubbles: true}));"
                "return Boolean(e);", selector), 20)
        wait(driver, lambda d: not d.find_element(By.ID, "picker-play")
             .get_attribute("disabled"), 20)
    else:
        wait(driver, lambda d: d.find_element(By.ID, "move").is_displayed(), 20)
        driver.find_element(By.ID, "move").click()  # its suggestions shown
    return colour


def test_a_seat_held_from_the_page_fits_reads_and_passes_axe(browser, table):
    """What a seat adds (the seat's buttons, the move form, Blokus Duo's piece picker
    with a piece put down) is checked as every view is."""
    name, (board, front) = table
    seated(browser, board, front)
    where = f"{name}, a seat held, {browser.size_name}"
    scroll, width, wide = browser.execute_script(TOO_WIDE)
    assert scroll <= width and not wide, f"{where}: wider than the window {width}px: {wide}"
    small = browser.execute_script(SMALL_TEXT, SMALLEST_TEXT)
    assert not small, f"{where}: text under {SMALLEST_TEXT}px: {small}"
    browser.execute_script(AXE.read_text(encoding="utf-8"))
    browser.set_script_timeout(60)
    violations = browser.execute_async_script(AXE_RUN)
    assert violations == [], f"{where}: {violations}"


def picture(driver):
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png"})
    image = pygame.image.load(io.BytesIO(base64.b64decode(shot["data"])), "page.png")
    return image


def differing_share(now, before) -> float:
    """The share of pixels that differ by more than a tenth of the range in a channel."""
    a, b = pygame.image.tobytes(now, "RGB"), pygame.image.tobytes(before, "RGB")
    far = sum(1 for i in range(0, len(a), 3)
              if max(abs(a[i] - b[i]), abs(a[i + 1] - b[i + 1]), abs(a[i + 2] - b[i + 2])) > 25)
    return far / (len(a) // 3)


def test_the_live_board_looks_as_its_committed_picture(browser, table):
    name, (board, front) = table
    opened(browser, front)
    show_view(browser, "live")
    browser.execute_script("document.getAnimations().forEach((a) => a.pause())")
    browser.execute_script("document.getAnimations().forEach((a) => { a.currentTime = 0; })")
    matches_committed_picture(picture(browser), f"{name}-{browser.size_name}")


def matches_committed_picture(now, name):
    """``now`` against docs/screenshots/page/``name``.png, within :data:`TOLERANCE`
    (written first under ``make screenshots``)."""
    path = PICTURES / f"{name}.png"
    if REMAKE:
        path.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(now, str(path))
    before = pygame.image.load(str(path))
    assert now.get_size() == before.get_size(), f"{path.name}: make screenshots"
    share = differing_share(now, before)
    assert share <= TOLERANCE, (f"{path.relative_to(ROOT)}: {share:.1%} of the pixels "
                                f"differ (at most {TOLERANCE:.0%}): make screenshots")


# --- what a person reads off the board at a glance -------------------------------------
@pytest.fixture(scope="module")
def phone():
    driver = browser_of(*SIZES["phone"])
    yield driver
    driver.quit()


#: The piece picker's committed pictures, at a phone's size: the board with a piece's
#: preview, and the picker below it.
PICKER_PICTURES = ("blokus-duo-picker-board-phone", "blokus-duo-picker-phone")


#: The last piece listed (the set runs from small to large) that fits somewhere chosen,
#: and put on the first square where it fits; whether there was one.
LARGEST_THAT_FITS_PUT_DOWN = """
const tap = (e) => e.dispatchEvent(new MouseEvent("click", {bubbles: true}));
const pieces = Array.from(document.querySelectorAll("#picker [data-piece]"), (b) => b.dataset.piece);
for (const name of pieces.reverse()) {
  tap(document.querySelector(`#picker [data-piece="${name}"]`));
  const fits = document.querySelector("#board [data-fits]");
  if (fits) { tap(document.querySelector(`#board [data-hole="${fits.dataset.fits}"]`)); return true; }
}
return false;
"""


def test_the_piece_picker_looks_as_its_committed_picture(phone, tmp_path, monkeypatch):
    """Blokus Duo's picker on a phone, a seat held: the largest piece that fits chosen and
    put down, seen twice, the board with the piece's preview and the picker's pieces and
    buttons (scrolled to, below the board)."""
    with game_table("blokus-duo", tmp_path, monkeypatch) as (board, front):
        seated(phone, board, front)
        assert phone.execute_script(LARGEST_THAT_FITS_PUT_DOWN)
        wait(phone, lambda d: not d.find_element(By.ID, "picker-play")
             .get_attribute("disabled"))
        phone.execute_script("document.getAnimations().forEach((a) => a.pause())")
        phone.execute_script("document.getAnimations().forEach((a) => { a.currentTime = 0; })")
        phone.execute_script("window.scrollTo(0, 0)")
        board_picture, picker_picture = PICKER_PICTURES
        matches_committed_picture(picture(phone), board_picture)
        phone.execute_script("document.getElementById('picker').scrollIntoView({block: 'end'})")
        matches_committed_picture(picture(phone), picker_picture)


def game_table(name, tmp_path, monkeypatch):
    """``table``'s position for one game, as a context manager."""
    from contextlib import contextmanager

    @contextmanager
    def made():
        generator = table.__wrapped__(SimpleNamespace(param=name), tmp_path, monkeypatch)
        try:
            yield next(generator)[1]
        finally:
            generator.close()
    return made()


#: For every light over a ball: whether a person looking at its centre sees the light.
LIGHTS_SEEN_ON_BALLS = """
const seen = {};
for (const piece of document.querySelectorAll("#board [data-piece]")) {
  const name = piece.dataset.piece;
  const lights = document.querySelectorAll(`#board [data-light="${name}"]`);
  if (!lights.length) continue;
  const box = piece.getBoundingClientRect();
  const top = document.elementFromPoint(box.x + box.width / 2, box.y + box.height * 0.12);
  seen[name] = Array.from(lights).some((l) => l === top || l.contains(top));
}
return seen;
"""


def test_akron_lights_a_ball_over_it_so_that_it_is_seen(phone, tmp_path, monkeypatch):
    """The last move's ball is lit: the light is on top of the ball, not under it (a ball,
    radius 0.48, covered its light, 0.36)."""
    with game_table("akron", tmp_path, monkeypatch) as (board, front):
        opened(phone, front)
        show_view(phone, "live")
        seen = phone.execute_script(LIGHTS_SEEN_ON_BALLS)
        assert seen and all(seen.values()), seen


#: Each goal bar's player, colour and box on the screen.
GOAL_BARS = """
return Array.from(document.querySelectorAll("#board [data-goal]"), (bar) => {
  const r = bar.getBoundingClientRect();
  return {player: bar.dataset.goal, stroke: bar.getAttribute("stroke"),
          bar: [r.left, r.top, r.right, r.bottom]};
});
"""


def test_akron_draws_each_player_s_goal_edges_in_its_colour(phone, tmp_path, monkeypatch):
    """Two bars a player, each in that player's colour, lying along a row of holes that
    player joins and outside it (the page drew no goal edges)."""
    with game_table("akron", tmp_path, monkeypatch) as (board, front):
        opened(phone, front)
        show_view(phone, "live")
        state = json_state(front)
        bars = phone.execute_script(GOAL_BARS)
        assert sorted(bar["player"] for bar in bars) == ["b", "b", "w", "w"]
        for bar in bars:
            assert bar["stroke"] == state["players"][bar["player"]]["colour"]
        holes = phone.execute_script(
            "return Array.from(document.querySelectorAll('#board [data-hole]'), (h) => {"
            "const r = h.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })")
        left, top = min(h[0] for h in holes), min(h[1] for h in holes)
        right, bottom = max(h[2] for h in holes), max(h[3] for h in holes)
        sides = {"b": set(), "w": set()}
        for bar in bars:
            x1, y1, x2, y2 = bar["bar"]
            if x2 - x1 > y2 - y1:  # along a row: below the bottom row or above the top
                assert x1 < left and x2 > right
                sides[bar["player"]].add("south" if y1 >= bottom else "north" if y2 <= top
                                         else "inside")
            else:  # along a column: left of the first or right of the last
                assert y1 < top and y2 > bottom
                sides[bar["player"]].add("west" if x2 <= left else "east" if x1 >= right
                                         else "inside")
        assert sides == {"b": {"south", "north"}, "w": {"west", "east"}}


def test_a_blinking_light_dims_and_never_goes_dark(phone, tmp_path, monkeypatch):
    with game_table("kulami", tmp_path, monkeypatch) as (board, front):
        opened(phone, front)
        lowest = phone.execute_script("""
          const found = [];
          for (const sheet of document.styleSheets) for (const rule of sheet.cssRules) {
            if (rule instanceof CSSKeyframesRule && rule.name === "blink") {
              for (const frame of rule.cssRules) found.push(parseFloat(frame.style.opacity || "1"));
            }
          }
          return found.length ? Math.min(...found) : null;""")
        assert lowest is not None and lowest >= 0.4


def luma(colour):
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b


def test_kulami_panels_apart_and_dark_marbles_rimmed_in_light(phone, tmp_path, monkeypatch):
    """Panels side by side in woods a person tells apart (the four browns were within 16
    of each other in every channel), and a black marble on a navy "owned by black" panel
    rimmed in light."""
    with game_table("kulami", tmp_path, monkeypatch) as (board, front):
        opened(phone, front)
        tones = set(phone.execute_script(
            "return Array.from(document.querySelectorAll('#board [data-area]'), "
            "(a) => a.getAttribute('fill'))")) - {
            light["colour"] for light in json_state(front)["lights"].values()}
        assert len(tones) >= 3
        for one in tones:
            for other in tones - {one}:
                assert max(abs(int(one[i:i + 2], 16) - int(other[i:i + 2], 16))
                           for i in (1, 3, 5)) >= 36, (one, other)
        rims = phone.execute_script(
            "return Array.from(document.querySelectorAll('#board [data-piece]'), "
            "(p) => [p.getAttribute('fill'), p.getAttribute('stroke')])")
        dark = [(fill, rim) for fill, rim in rims if luma(fill) < 85]
        assert dark and all(luma(rim[:7]) > 170 for _, rim in dark), dark


def json_state(front):
    import json
    import urllib.request
    with urllib.request.urlopen(front.url + "api/state") as answer:
        return json.load(answer)


def test_the_legend_names_only_colours_lit_on_the_board(phone, tmp_path, monkeypatch):
    """An error said with no hole to light (the sensor board gone) gave the legend a red
    "Not a legal move" while nothing on the board was red."""
    with game_table("conhex", tmp_path, monkeypatch) as (board, front):
        board.session.say("the sensor board stopped answering", "error")
        board.step()
        opened(phone, front)
        show_view(phone, "live")
        wait(phone, lambda d: "stopped answering" in d.find_element(By.ID, "message").text)
        lit = {light["colour"] for light in json_state(front)["lights"].values()}
        shown = phone.execute_script(
            "return Array.from(document.querySelectorAll('#legend .lamp'), "
            "(l) => getComputedStyle(l).backgroundColor)")
        def hex_of(rgb):
            return "#" + "".join(f"{int(v):02x}" for v in rgb[4:-1].split(", "))
        assert shown and {hex_of(c) for c in shown} <= lit


def test_the_replay_buttons_draw_their_arrows(phone, tmp_path, monkeypatch):
    """First and last were U+23EE and U+23ED, which the usual fonts lack: empty boxes."""
    with game_table("kulami", tmp_path, monkeypatch) as (board, front):
        opened(phone, front)
        show_view(phone, "games")
        for button in ("first", "back", "forward", "last"):
            drawn = phone.execute_script(
                "const b = document.getElementById(arguments[0]);"
                "const shapes = b.querySelectorAll('svg rect, svg polygon');"
                "return [b.getAttribute('aria-label'), shapes.length,"
                " Math.min(...Array.from(shapes, (s) => s.getBoundingClientRect().height))];",
                button)
            assert drawn[0] and drawn[1] and drawn[2] >= 8, (button, drawn)


def test_the_replay_is_scrolled_into_sight(phone, tmp_path, monkeypatch):
    with game_table("conhex", tmp_path, monkeypatch) as (board, front):
        for _ in range(3):  # a list longer than a phone's screen
            board.start("conhex", {"pie": False}, {"b": "person", "w": "person"}, 2)
            first = board.session.board
            board.place(first.move_text(choose_move(first, 1, random.Random(1))))
            board.clock_.now += 2.0
            board.step()
        opened(phone, front)
        show_view(phone, "games")
        top = phone.execute_script(
            "return document.getElementById('replay-title').getBoundingClientRect().top")
        assert 0 <= top < 844


# --- New game --------------------------------------------------------------------------
def test_new_game_starts_from_the_table_and_asks_before_replacing(phone, tmp_path,
                                                                  monkeypatch):
    """At a ConHex table (the table's LEDs at full brightness) with a game in progress:
    New game offers ConHex, names its seats Red and Blue, starts the slider at the
    table's brightness, and asks before it replaces the game; "no" leaves it."""
    with game_table("conhex", tmp_path, monkeypatch) as (board, front):
        opened(phone, front)
        assert board.table.strip.brightness == 1.0  # the -sim profile's
        wait(phone, lambda d: d.find_element(By.ID, "game-choice")
             .get_attribute("value") == "conhex")
        assert [phone.find_element(By.ID, f"seat-{c}-name").text for c in "bw"] == \
            ["Red", "Blue"]
        wait(phone, lambda d: d.find_element(By.ID, "brightness")
             .get_attribute("value") == "1")
        moves = len(board.session.board.move_stack)
        phone.execute_script("document.querySelector('#new-game button').click()")
        alert = wait(phone, lambda d: d.switch_to.alert)
        assert "in progress" in alert.text
        alert.dismiss()
        board.step()
        assert len(board.session.board.move_stack) == moves
        phone.execute_script("document.querySelector('#new-game button').click()")
        wait(phone, lambda d: d.switch_to.alert).accept()
        deadline = time.monotonic() + 10
        while board.session.board.move_stack and time.monotonic() < deadline:
            board.step()
            time.sleep(0.02)
        assert board.session.board.game == "conhex" and not board.session.board.move_stack


# --- the connection --------------------------------------------------------------------
def test_the_page_reconnects_after_the_server_drops_its_socket(phone, tmp_path,
                                                               monkeypatch):
    """A socket the server closes (a reader too slow, dropped) is opened again by the
    page, which then shows the next change."""
    with game_table("kulami", tmp_path, monkeypatch) as (board, front):
        opened(phone, front)
        sockets = list(front._sockets)
        assert sockets
        for outbox in sockets:  # as a reader too slow is dropped: its connection cut
            front._loop.call_soon_threadsafe(outbox.close)
        wait(phone, lambda d: len(front._sockets) == 1 and front._sockets.isdisjoint(sockets))
        wait(phone, lambda d: d.find_element(By.ID, "connection").text == "live")
        before = phone.execute_script("return document.body.dataset.revision")
        board.session.hint()
        board.step()
        wait(phone, lambda d: d.execute_script("return document.body.dataset.revision")
             != before)
