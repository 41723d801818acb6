"""A simulated board with its web page on a free local port, for the web tests: the
board's clock moves only when a test moves it, the engine answers at once, and a pairing
code (right or wrong) is answered at once too; and one request to it from outside."""

import asyncio
import json
from contextlib import contextmanager

import aiohttp

from app.table.simulated_board import SimulatedBoard
from app.table.store import RecordStore
from app.table.thinker import InlineThinker
from app.web import server
from app.web.pairing import Pairing
from app.web.server import Actions, WebFront, new_game_on

TWO_PEOPLE = {"b": "person", "w": "person"}


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


@contextmanager
def served(tmp_path, monkeypatch, code, game="kulami", options=None, seats=TWO_PEOPLE,
           resume=False):
    """``(board, front)``: the simulated board of ``game`` and its page, closed after;
    ``resume``: the game saved in ``tmp_path`` continues, as after a restart."""
    monkeypatch.setattr(server, "ANSWER_DELAY_S", 0.0)
    store = RecordStore(tmp_path)
    front = WebFront(store, Actions(new_game_on, (game,)), host="127.0.0.1", port=0,
                     pairing=Pairing(code=code)).start()
    clock = Clock()
    board = SimulatedBoard(game, options or {}, seats, 2, clock=clock, store=store,
                           thinker=InlineThinker(), remote=front, resume=resume)
    board.clock_ = clock
    try:
        yield board, front
    finally:
        front.close()
        board.close()


def settle(board):
    """Let the pieces just put down settle, and the loop take them."""
    board.clock_.now += 2.0
    board.step()


def call(method, url, **kwargs):
    """One request: (status, parsed JSON or text, headers)."""
    async def go():
        async with aiohttp.ClientSession() as client:
            async with client.request(method, url, **kwargs) as answer:
                text = await answer.text()
                try:
                    body = json.loads(text)
                except ValueError:
                    body = text
                return answer.status, body, answer.headers
    return asyncio.run(go())
