"""The club's page on a board's own page, through a real mosquitto: a board whose
``[remote]`` names a club serves the page ``tabletop watch`` serves (at /club, with the
same answers, linking back to the board), lists the club's boards live, waits for the
next change when asked since a revision, and opens one; a board in no club serves none
and says so in one line."""

from __future__ import annotations

import threading
import time


from app.games import new_game
from app.table.session import Session
from app.web import server
from app.web.pairing import Pairing
from app.web.server import Actions, WebFront, new_game_on
from tests.test_club import CLUB, Board
from tests.web_table import call

LIMIT_S = 30.0


def page(club=None):
    """A board's page, ``club`` its club's broker settings (``None``: no club), with a
    game published to it as the table loop would."""
    front = WebFront(None, Actions(new_game_on, ("kulami",)), host="127.0.0.1", port=0,
                     pairing=Pairing(code="123456"), club=lambda: club).start()
    front.publish(Session(new_game("kulami"), physical=False))
    return front


def until(condition, what="it"):
    deadline = time.monotonic() + LIMIT_S
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"{what} did not happen within {LIMIT_S} s")


def listed(front, since=""):
    status, body, _ = call("GET", front.url + f"api/club{since}")
    assert status == 200, body
    return body


def test_a_board_in_a_club_lists_the_club_s_boards_live_and_opens_one(mosquitto):
    kitchen = Board(mosquitto, "Anna's kitchen", "kulami")
    front = page(mosquitto.config("ben", club=CLUB))
    try:
        status, state, _ = call("GET", front.url + "api/state")
        assert state["club"] is True
        status, html, _ = call("GET", front.url + "club")
        assert status == 200 and '<script src="/static/board.js"' in html
        assert 'href="/"' in html  # back to the board's own page
        kitchen.play(2)
        until(lambda: [b["moves"] for b in listed(front)["boards"]] == [2],
              "the board listed")
        club = listed(front)
        assert club["club"] == CLUB and club["home"] is True and club["connected"]
        (line,) = club["boards"]
        assert line["name"] == "Anna's kitchen" and line["title"] == "Kulami"
        # Asked since the revision it has, the list answers at the next change.
        answer = {}
        asking = threading.Thread(target=lambda: answer.update(
            listed(front, f"?since={club['revision']}")))
        asking.start()
        kitchen.play()
        asking.join(LIMIT_S)
        assert answer["revision"] > club["revision"]
        until(lambda: listed(front)["boards"][0]["moves"] == 3, "the third move listed")
        status, board, _ = call("GET", front.url + f"api/boards/{line['id']}")
        assert status == 200 and board["move_list"] == kitchen.moves()
        assert board["view"]["pieces"] == dict(kitchen.session.board.piece_view())
        status, body, _ = call("GET", front.url + "api/boards/nobody")
        assert status == 404 and body["error"] == "no such board"
    finally:
        front.close()
        kitchen.feed.close()


def test_a_board_in_no_club_serves_no_club_page():
    front = page()
    try:
        status, state, _ = call("GET", front.url + "api/state")
        assert state["club"] is False
        for path in ("club", "api/club", "api/boards/x"):
            status, body, _ = call("GET", front.url + path)
            assert status == 404 and body["error"] == server.NO_CLUB, path
    finally:
        front.close()
