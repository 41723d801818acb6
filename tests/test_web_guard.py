"""The page held against the rest of the network, attacked from outside the program:
raw sockets and HTTP clients at a real server on a free loopback port. Idle and slow
connections, pairing tries sent at once, foreign pages and names, malformed requests
and WebSocket clients that never read, and after each the page still serves."""

import asyncio
import base64
import json
import logging
import os
import pathlib
import select
import time

import aiohttp
import pytest

from app.games import GAMES
from app.web import guard, server
from app.web.pairing import TOKEN_HEADER, TRIES
from bench.web import raw_connection
from tests.web_table import call, served, settle

CODE = "424242"
ATTACKER = "127.0.0.2"  # another device: the loopback network is all this machine's


@pytest.fixture
def table(tmp_path, monkeypatch):
    with served(tmp_path, monkeypatch, CODE) as pair:
        yield pair


def connect(front, source=ATTACKER, receive_buffer=None):
    """A raw connection to the page from ``source`` (another device, by default)."""
    return raw_connection(front, source, receive_buffer)


def closed_by_server(sock, deadline_s=30.0) -> bool:
    """Whether the server closes ``sock`` within the deadline (anything it sends first
    read and thrown away)."""
    end = time.monotonic() + deadline_s
    while True:
        ready, _, _ = select.select([sock], [], [], min(0.5, deadline_s))
        if ready:
            try:
                if not sock.recv(65536):
                    return True
            except ConnectionError:
                return True
        elif time.monotonic() >= end:
            return False


def closed_of(socks, expected, deadline_s=30.0) -> int:
    """How many of ``socks`` the server closes: waits until ``expected`` are (or the
    deadline), then a little more for any beyond."""
    open_, closed = list(socks), 0
    end = time.monotonic() + deadline_s
    while open_ and time.monotonic() < end:
        ready, _, _ = select.select(open_, [], [], 0.5)
        for sock in ready:
            if closed_by_server(sock, deadline_s=0.0):
                open_.remove(sock)
                closed += 1
        if closed >= expected:
            end = min(end, time.monotonic() + 1.0)
    return closed


def answer_of(sock, deadline_s=30.0) -> bytes:
    """Everything the server sends on ``sock`` until it closes it or the deadline."""
    sock.settimeout(deadline_s)
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
            if b"\r\n\r\n" in data and data.startswith(b"HTTP/1.1"):
                head, _, rest = data.partition(b"\r\n\r\n")
                length = [int(line.split(b":")[1]) for line in head.split(b"\r\n")
                          if line.lower().startswith(b"content-length:")]
                if length and len(rest) >= length[0]:
                    return data
    except (TimeoutError, ConnectionError):
        pass
    return data


def pair_and_command(front) -> None:
    """The page still loads and a change still works (from the family's own address)."""
    status, page, _ = call("GET", front.url)
    assert status == 200 and "<svg id=\"board\"" in page
    status, body, _ = call("POST", front.url + "api/pair", json={"code": CODE})
    assert status == 200
    status, _, _ = call("POST", front.url + "api/command", json={"action": "hint"},
                        headers={TOKEN_HEADER: body["token"]})
    assert status == 202


def test_idle_connections_from_one_address_are_capped_and_the_page_still_serves(table):
    board, front = table
    socks = [connect(front) for _ in range(100)]
    try:
        assert closed_of(socks, 100 - guard.PER_ADDRESS) == 100 - guard.PER_ADDRESS
        pair_and_command(front)
    finally:
        for sock in socks:
            sock.close()


def test_connections_are_capped_in_total(tmp_path, monkeypatch):
    monkeypatch.setattr(guard, "TOTAL", 10)
    with served(tmp_path, monkeypatch, CODE) as (board, front):
        socks = [connect(front, source=f"127.0.0.{3 + i % 5}") for i in range(20)]
        try:
            assert closed_of(socks, 10) == 10
        finally:
            for sock in socks:
                sock.close()
        pair_and_command(front)


def test_a_request_never_finished_is_closed_and_a_body_sent_slowly_is_refused(
        tmp_path, monkeypatch):
    monkeypatch.setattr(guard, "HEADER_S", 1.0)
    monkeypatch.setattr(guard, "BODY_S", 1.0)
    with served(tmp_path, monkeypatch, CODE) as (board, front):
        silent, half = connect(front), connect(front)
        half.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        slow_body = connect(front)
        slow_body.sendall(b"POST /api/pair HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          b"Content-Type: application/json\r\nContent-Length: 50\r\n\r\n{")
        try:
            assert closed_by_server(silent) and closed_by_server(half)
            assert answer_of(slow_body).startswith(b"HTTP/1.1 408")
        finally:
            for sock in (silent, half, slow_body):
                sock.close()
        pair_and_command(front)


def test_pairing_tries_sent_at_once_are_counted_before_any_is_judged(table):
    board, front = table
    body = json.dumps({"code": "000000"}).encode()
    socks = [connect(front) for _ in range(20)]
    try:
        for sock in socks:  # every request's headers first, their bodies after
            sock.sendall(b"POST /api/pair HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                         b"application/json\r\nContent-Length: %d\r\n\r\n" % len(body))
        time.sleep(1.0)  # let the server start on every one: the count must still hold
        for sock in socks:
            sock.sendall(body)
        statuses = [answer_of(sock)[9:12] for sock in socks]
    finally:
        for sock in socks:
            sock.close()
    assert statuses.count(b"403") == TRIES and statuses.count(b"429") == 20 - TRIES


def test_a_right_and_a_wrong_code_are_answered_after_the_same_wait(table, monkeypatch):
    board, front = table
    monkeypatch.setattr(server, "ANSWER_DELAY_S", 0.5)
    answers = []
    for code in ("000000", CODE):
        started = time.monotonic()
        status, _, _ = call("POST", front.url + "api/pair", json={"code": code})
        answers.append((status, time.monotonic() - started >= 0.5))
    assert answers == [(403, True), (200, True)]


def test_another_site_can_neither_watch_nor_spend_the_pairing_tries(table):
    board, front = table
    foreign = {"Origin": "http://evil.example"}
    for _ in range(TRIES + 1):
        status, _, _ = call("POST", front.url + "api/pair", json={"code": "000000"},
                            headers=foreign)
        assert status == 403
    own = {"Origin": front.url.rstrip("/")}
    status, _, _ = call("POST", front.url + "api/pair", json={"code": CODE}, headers=own)
    assert status == 200

    async def watch(origin):
        async with aiohttp.ClientSession() as client:
            try:
                async with client.ws_connect(front.url + "ws", origin=origin) as ws:
                    return json.loads((await ws.receive(timeout=10)).data)["game"]
            except aiohttp.WSServerHandshakeError as refused:
                return refused.status

    assert asyncio.run(watch("http://evil.example")) == 403
    assert asyncio.run(watch("http://tabletop.local")) == "kulami"


@pytest.mark.parametrize("host, allowed", [
    ("evil.example", False), ("tabletop.local.evil.example", False), ("", False),
    ("tabletop.local", True), ("tabletop-2.local:8080", True), ("localhost:80", True),
    ("127.0.0.1", True), ("[::1]:8080", True), ("192.168.1.20", True)])
def test_only_the_boards_own_names_are_served(table, host, allowed):
    board, front = table
    status, _, _ = call("GET", front.url + "api/state", headers={"Host": host})
    assert status == (200 if allowed else 421)


def test_every_answer_forbids_framing_and_sniffing(table):
    board, front = table
    for path in ("", "static/app.js", "static/style.css", "api/state", "nothing"):
        _, _, headers = call("GET", front.url + path)
        assert headers["X-Frame-Options"] == "DENY"
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
        assert "unsafe-inline" not in headers["Content-Security-Policy"]
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "no-referrer"
    # and the page's own files need nothing the policy forbids
    page = (server.STATIC / "index.html").read_text()
    assert "<style" not in page and " style=" not in page
    assert all(tag.startswith("<script src=\"/static/")
               for tag in page.split("<script")[1:] for tag in ("<script" + tag,))
    assert "http://" not in page and "https://" not in page


def test_malformed_input_is_refused_in_4xx_and_logged_without_a_traceback(table, caplog):
    board, front = table
    sent = [
        b"GET /api/log HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Tabletop-Token: \xc3\xa9\xff\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nBroken header line\r\n\r\n",
        b"GET /\x00 HTTP/1.1\r\n\r\n",
    ]
    for body in ('{"code": "\\ud800"}', '{"code": ' + "[" * 5000 + "]" * 5000 + "}",
                 "[" * 10000):
        data = body.encode()
        sent.append(b"POST /api/pair HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                    b"application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(data), data))
    statuses = []
    with caplog.at_level(logging.DEBUG):
        for request in sent:
            sock = connect(front, source="127.0.0.1")
            sock.sendall(request)
            statuses.append(answer_of(sock)[9:12])
            sock.close()
    assert statuses == [b"401", b"400", b"400", b"403", b"400", b"400"]
    assert not [record for record in caplog.records if record.exc_info]
    pair_and_command(front)


def test_a_page_that_never_reads_is_dropped_and_holds_no_growing_queue(table,
                                                                       monkeypatch):
    board, front = table
    monkeypatch.setattr(server, "SEND_S", 2.0)
    readers = []
    for _ in range(10):
        sock = connect(front, source="127.0.0.1", receive_buffer=4096)
        key = base64.b64encode(os.urandom(16))
        sock.sendall(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                     b"Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
                     b"Sec-WebSocket-Version: 13\r\n\r\n" % key)
        readers.append(sock)  # and never read again
    time.sleep(0.5)
    before = rss_mb()
    for _ in range(2000):
        board.session.revision += 1
        front.publish(board.session)
    time.sleep(1.0)
    grown = rss_mb() - before
    try:
        assert all(closed_by_server(sock, deadline_s=60.0) for sock in readers)
    finally:
        for sock in readers:
            sock.close()
    assert grown < 30, f"the server grew {grown:.0f} MB"
    pair_and_command(front)


def rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def test_new_games_from_the_pages_are_bounded(table):
    board, front = table
    status, body, _ = call("POST", front.url + "api/pair", json={"code": CODE})
    token = {TOKEN_HEADER: body["token"]}
    new = {"action": "new_game", "game": "kulami", "options": {},
           "seats": {"b": "person", "w": "person"}, "level": 1}
    statuses = [call("POST", front.url + "api/command", json=new, headers=token)[0]
                for _ in range(server.NEW_GAMES + 5)]
    assert statuses == [202] * server.NEW_GAMES + [429] * 5


def test_a_record_numbered_past_a_million_is_listed_and_fetched(table):
    board, front = table
    board.place("d4")
    settle(board)
    first = next(front.store.games.glob("*.sgf"))
    (front.store.games / "1000000-kulami.sgf").write_bytes(first.read_bytes())
    status, listed, _ = call("GET", front.url + "api/games")
    names = [entry["name"] for entry in listed]
    assert "1000000-kulami.sgf" in names
    assert [call("GET", front.url + f"api/games/{name}")[0] for name in names] \
        == [200] * len(names)


def test_a_record_that_names_no_seats_is_listed(table):
    """A record from elsewhere says nothing of who sat where: it is listed without
    players, where the list answered 500 (KeyError 'b')."""
    board, front = table
    board.place("d4")
    settle(board)
    record = GAMES["kulami"].board_class.new(layout="square-1")
    record.push_text("d4")
    (front.store.games / "000007-kulami.sgf").write_text(record.to_record())
    status, listed, _ = call("GET", front.url + "api/games")
    assert status == 200
    entry = next(entry for entry in listed if entry["name"] == "000007-kulami.sgf")
    assert entry["moves"] == 1 and entry["players"] == ""


def test_a_snapshot_reads_no_file(table, monkeypatch):
    board, front = table
    reads = []
    read_text = pathlib.Path.read_text
    monkeypatch.setattr(pathlib.Path, "read_text",
                        lambda self, *a, **k: reads.append(self.name) or read_text(self, *a, **k))
    for _ in range(50):
        board.session.revision += 1
        front.publish(board.session)
    assert reads == []


def test_the_list_of_games_reads_each_record_once(table, monkeypatch):
    board, front = table
    board.place("d4")
    settle(board)
    assert call("GET", front.url + "api/games")[0] == 200
    reads = []
    read = front.store.read
    monkeypatch.setattr(front.store, "read", lambda path: reads.append(path) or read(path))
    for _ in range(5):
        status, listed, _ = call("GET", front.url + "api/games")
        assert status == 200 and listed[0]["moves"] == 1
    assert reads == []
    rules = board.session.board
    board.place(rules.move_text(rules.legal_moves[0]))
    settle(board)  # a record that changed is read again
    assert call("GET", front.url + "api/games")[1][0]["moves"] == 2


def test_the_pairing_code_is_not_written_to_the_log(tmp_path, monkeypatch, caplog):
    with caplog.at_level(logging.INFO):
        with served(tmp_path, monkeypatch, CODE) as (board, front):
            assert front.note == f"web code {CODE}"  # the status screen shows it
    assert CODE not in caplog.text
