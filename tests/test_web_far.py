"""The page's Far board part through a real mosquitto: a board's page offers its game and
a paired browser reads the code (with its link and QR code), another board's flow joins
with it; a page joins another board's offer, and says a wrong code's line; a browser
that is not paired never sees the code and can neither offer, join nor cancel; a board
with no ``[remote]`` shows no Far board part.

Each board with a page is a simulated board whose loop the test turns (the page's
commands are carried out at a turn, in the test's thread, as the loop's); the other
board is a :class:`FarPlay` alone, as in test_remote_play.py. Every wait is for
something to happen, with a generous limit."""

from __future__ import annotations

import asyncio
import json
import time

import aiohttp
import pytest

from app.remote.play import AGREED, FAILED, IDLE, OFFERING, FarPlay, far_game_path
from app.table.simulated_board import SimulatedBoard
from app.table.store import RecordStore
from app.table.thinker import InlineThinker
from app.web import server
from app.web.far import HIDDEN
from app.web.pairing import TOKEN_HEADER, Pairing
from app.web.server import Actions, WebFront, new_game_on
from tests.web_table import TWO_PEOPLE, Clock, call

CODE = "246813"
CLUB = "riverside"
LIMIT_S = 30.0


class Board:
    """A simulated Kulami board with its page on a free port and, unless ``far`` is
    False, its far flow as ``tabletop run`` makes it."""

    def __init__(self, tmp_path, monkeypatch, mosquitto=None, user="anna", name="Anna"):
        monkeypatch.setattr(server, "ANSWER_DELAY_S", 0.0)
        store = RecordStore(tmp_path / user / "records")
        self.far = None if mosquitto is None else FarPlay(
            mosquitto.config(user, club=CLUB, name=name), far_game_path(tmp_path / user),
            ("kulami",), answer_s=5.0)
        self.front = WebFront(store, Actions(new_game_on, ("kulami",)), host="127.0.0.1",
                              port=0, pairing=Pairing(code=CODE),
                              far=lambda: self.far).start()
        self.board = SimulatedBoard("kulami", {}, TWO_PEOPLE, 2, clock=Clock(),
                                    store=store, thinker=InlineThinker(),
                                    remote=self.front)

    @property
    def url(self):
        return self.front.url

    def token(self):
        status, body, _ = call("POST", self.url + "api/pair", json={"code": CODE})
        assert status == 200
        return {TOKEN_HEADER: body["token"]}

    def close(self):
        if self.far is not None:
            self.far.stop()
        self.front.close()
        self.board.close()


@pytest.fixture
def boards(tmp_path, monkeypatch):
    made = []

    def board(*args, **kwargs):
        made.append(Board(tmp_path, monkeypatch, *args, **kwargs))
        return made[-1]

    yield board
    for made_board in made:
        made_board.close()


@pytest.fixture
def far_flows(mosquitto, tmp_path):
    """A board far away without a page: its flow alone."""
    made = []

    def flow(user, name):
        made.append(FarPlay(mosquitto.config(user, club=CLUB, name=name),
                            far_game_path(tmp_path / user), ("kulami",), answer_s=5.0))
        return made[-1]

    yield flow
    for made_flow in made:
        made_flow.stop()


def until(condition, *boards, what="it"):
    """Turn the boards' loops until ``condition()``."""
    deadline = time.monotonic() + LIMIT_S
    while time.monotonic() < deadline:
        for board in boards:
            board.board.step()
        if condition():
            return
        time.sleep(0.01)
    raise AssertionError(f"{what} did not happen within {LIMIT_S} s")


def shown_far(board):
    """What the open page's snapshot says of the far invitation now."""
    status, state, _ = call("GET", board.url + "api/state")
    assert status == 200
    return state["far"]


def test_a_page_offers_and_the_other_board_joins_with_the_code_it_shows(
        boards, far_flows, mosquitto):
    anna, ben = boards(mosquitto), far_flows("ben", "Ben")
    token = anna.token()
    status, body, _ = call("POST", anna.url + "api/command", headers=token,
                           json={"action": "far_offer", "options": {"scoring": 1},
                                 "colour": "w"})
    assert status == 202, body
    until(lambda: anna.far.state.phase == OFFERING, anna, what="the offer on the broker")
    until(lambda: shown_far(anna)["phase"] == OFFERING, anna, what="the offer on the page")
    status, invitation, _ = call("GET", anna.url + "api/far", headers=token)
    assert status == 200 and invitation["phase"] == OFFERING
    code = invitation["code"]
    assert code == anna.far.state.code and code in invitation["line"]
    # The link opens the Join form of the board in the network of whoever scans it,
    # with the code and nothing else; the QR code is an SVG picture of it.
    port = anna.front.port
    assert invitation["link"] == f"http://tabletop.local:{port}/#join={code}"
    assert invitation["qr"].startswith("data:image/svg+xml")
    ben.join(code)
    until(lambda: ben.state.phase == AGREED and anna.far.state.phase == AGREED, anna,
          what="both boards agreed")
    until(lambda: shown_far(anna)["phase"] == AGREED, anna, what="the page told")
    assert "Ben's board" in shown_far(anna)["line"]


def test_an_open_page_hears_the_offer_move_on_without_the_code(boards, mosquitto):
    anna = boards(mosquitto)
    token = anna.token()

    async def watch():
        async with aiohttp.ClientSession() as client:
            async with client.ws_connect(anna.url + "ws") as socket:
                first = json.loads((await socket.receive(timeout=10)).data)
                await asyncio.to_thread(lambda: call(
                    "POST", anna.url + "api/command", headers=token,
                    json={"action": "far_offer", "colour": "b"}))
                heard = [first]
                while heard[-1]["far"]["phase"] != OFFERING:
                    await asyncio.to_thread(anna.board.step)  # the loop takes the offer
                    try:
                        message = await socket.receive(timeout=0.5)
                    except TimeoutError:
                        continue
                    heard.append(json.loads(message.data))
                return heard, message.data

    heard, text = asyncio.run(watch())
    assert heard[0]["far"] == {"phase": IDLE, "line": "", "busy": False, "seen": 1}
    code = anna.far.state.code
    assert heard[-1]["far"]["line"].startswith(f"offering {HIDDEN}")
    assert code not in text and code.replace("-", "") not in text
    status, state, _ = call("GET", anna.url + "api/state")
    assert code not in json.dumps(state)


def test_a_page_joins_with_a_code_and_says_a_wrong_one(boards, far_flows, mosquitto):
    anna, ben = far_flows("anna", "Anna"), boards(mosquitto, "ben", "Ben")
    token = ben.token()
    anna.offer("kulami", {}, "b")
    until(lambda: anna.state.phase == OFFERING, ben, what="Anna's offer on the broker")
    code = anna.state.code
    status, _, _ = call("POST", ben.url + "api/command", headers=token,
                        json={"action": "far_join", "code": "K7QM"})
    assert status == 202
    until(lambda: shown_far(ben)["phase"] == FAILED, ben, what="the line on the page")
    assert shown_far(ben)["line"].startswith("an invitation code is 8 letters and digits")
    status, _, _ = call("POST", ben.url + "api/command", headers=token,
                        json={"action": "far_join", "code": code.lower()})
    assert status == 202
    until(lambda: anna.state.phase == AGREED and shown_far(ben)["phase"] == AGREED, ben,
          what="the game agreed")


def test_a_browser_not_paired_sees_no_code_and_changes_nothing(boards, mosquitto):
    anna = boards(mosquitto)
    anna.far.offer("kulami", {}, "b")
    until(lambda: anna.far.state.phase == OFFERING, anna, what="the offer on the broker")
    code = anna.far.state.code
    for headers in ({}, {TOKEN_HEADER: "guessed"}):
        status, body, _ = call("GET", anna.url + "api/far", headers=headers)
        assert status == 401 and code not in json.dumps(body)
        for command in ({"action": "far_offer", "colour": "w"},
                        {"action": "far_join", "code": code},
                        {"action": "far_cancel"}):
            status, body, _ = call("POST", anna.url + "api/command", json=command,
                                   headers=headers)
            assert status == 401 and "pair this browser first" in body["error"]
    until(lambda: shown_far(anna)["phase"] == OFFERING, anna, what="the page told")
    status, text, _ = call("GET", anna.url + "api/state")
    assert code not in json.dumps(text) and code.replace("-", "") not in json.dumps(text)
    anna.board.step()
    assert anna.front.commands() == []
    assert anna.far.state.phase == OFFERING and anna.far.state.code == code  # untouched
    # A paired browser cancels it.
    status, _, _ = call("POST", anna.url + "api/command", headers=anna.token(),
                        json={"action": "far_cancel"})
    assert status == 202
    until(lambda: anna.far.state.phase == IDLE, anna, what="the offer cancelled")


def test_bad_far_commands_are_one_line_and_change_nothing(boards, mosquitto):
    anna = boards(mosquitto)
    token = anna.token()
    cases = [({"action": "far_offer", "colour": "red"}, "b or w"),
             ({"action": "far_offer", "colour": "b", "game": "chess"}, "not 'chess'"),
             ({"action": "far_offer", "colour": "b", "options": {"scoring": "9"}},
              "scoring"),
             ({"action": "far_join", "code": 42}, "8 letters and digits"),
             ({"action": "far_join", "code": "x" * 100}, "8 letters and digits")]
    for body, words in cases:
        status, answer, _ = call("POST", anna.url + "api/command", json=body,
                                 headers=token)
        assert status == 400 and words in answer["error"], body
    anna.board.step()
    assert anna.far.state.phase == IDLE


def test_a_board_with_no_remote_shows_no_far_board_part(boards):
    lone = boards()
    token = lone.token()
    lone.board.step()
    assert shown_far(lone) is None
    status, body, _ = call("POST", lone.url + "api/command", headers=token,
                           json={"action": "far_offer", "colour": "b"})
    assert status == 400 and "no [remote]" in body["error"]
    status, body, _ = call("GET", lone.url + "api/far", headers=token)
    assert status == 404 and "no [remote]" in body["error"]
