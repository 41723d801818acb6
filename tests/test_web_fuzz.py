"""Thousands of random and malformed requests and WebSocket frames at a running page:
no crash, no answer 500, the game untouched, and the page still serving afterwards."""

import asyncio
import json
import random

import aiohttp

from app.web.pairing import TOKEN_HEADER
from tests.web_table import served, settle

REQUESTS, FRAMES = 2500, 500
PATHS = ["/", "/ws", "/api/state", "/api/games", "/api/games/000001-kulami.sgf",
         "/api/games/000001-kulami.sgf/record", "/api/pair", "/api/command", "/api/log",
         "/api/catalogue", "/static/app.js", "/static/../server.py", "/static/%2e%2e/x",
         "/api/games/..%2f..%2fetc%2fpasswd", "/api/games/%00", "/nothing", "//api/state"]
ACTIONS = ["undo", "hint", "confirm", "new_game", "brightness", "shutdown", None, 7, [], {}]


def junk(rng: random.Random) -> bytes:
    kind = rng.randrange(6)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(64)))
    if kind == 1:
        return b"{" * rng.randrange(1, 3000)  # deep nesting
    if kind == 2:
        return json.dumps({"action": rng.choice(ACTIONS), "game": rng.choice(
            ["kulami", "../x", None, 3]), "options": rng.choice([{}, [], "x", {"a" * 50: 1}]),
            "seats": rng.choice([{}, {"b": "person", "w": "engine"}, "x"]),
            "level": rng.choice([1, 9, "max", None, True]),
            "value": rng.choice([0.5, -1, 2, "x", None, True]),
            "code": rng.choice(["", "1", "000000", None, 5])}).encode()
    if kind == 3:
        return "é☃\ud800".encode("utf-8", "surrogatepass")
    if kind == 4:
        return b"x" * rng.choice([10, 17000, 70000])
    return b""


def test_random_and_malformed_requests_change_nothing_and_break_nothing(tmp_path,
                                                                       monkeypatch):
    with served(tmp_path, monkeypatch, "112233") as (board, front):
        board.place("d4")
        settle(board)
        attack_and_check(board, front)


def attack_and_check(board, front) -> None:
    """Send the requests and frames, then check the page and the game are as before."""
    rng = random.Random(20261125)

    async def attack() -> list[int]:
        statuses = []
        async with aiohttp.ClientSession() as client:
            async def one(i: int) -> None:
                method = rng.choice(["GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS"])
                headers = {}
                if rng.random() < 0.3:
                    headers[TOKEN_HEADER] = rng.choice(["", "x" * 300, "abc", "\t"])
                if rng.random() < 0.3:
                    headers["Content-Type"] = rng.choice(["application/json", "text/plain",
                                                          "multipart/form-data; boundary=x"])
                try:
                    async with client.request(method, front.url.rstrip("/") +
                                              rng.choice(PATHS), data=junk(rng),
                                              headers=headers) as answer:
                        await answer.read()
                        statuses.append(answer.status)
                except aiohttp.ClientError:
                    statuses.append(0)  # the server may refuse a request outright

            for start in range(0, REQUESTS, 50):
                await asyncio.gather(*(one(i) for i in range(start, start + 50)))
            for _ in range(FRAMES // 50):
                async with client.ws_connect(front.url + "ws") as socket:
                    await socket.receive(timeout=5)
                    for _ in range(50):
                        try:
                            if rng.random() < 0.5:
                                await socket.send_str(junk(rng).decode("latin-1"))
                            else:
                                await socket.send_bytes(junk(rng))
                        except ConnectionError:
                            break
            async with client.get(front.url + "api/state") as answer:
                statuses.append(answer.status)
                state = json.loads(await answer.text())
        assert state["status"]["moves"] == ["d4"]
        return statuses

    statuses = asyncio.run(attack())
    assert 500 not in statuses and statuses[-1] == 200
    assert {400, 401, 404, 405, 413} & set(statuses)  # the refusals were exercised
    board.step()
    assert front.commands() == []
    assert [board.session.board.move_text(m) for m in board.session.board.move_stack] \
        == ["d4"]
    assert front.pairing.tokens == set()
