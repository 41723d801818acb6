"""The web page's costs: how soon a move shows in a browser, what the server costs idle,
how fast the page first loads, and how much memory it adds.

Runs a simulated Kulami board's real table loop (10 ms period) in a thread with the web
page on it, and Debian's Chromium (headless, driven by Selenium) looking at the page.
Each move is committed by the loop; the page notes, with a MutationObserver, the wall
time its board took the new revision, and the bench compares it with the time the loop
published it. Targets (issue 23): commit to page p95 under 100 ms; the server idle
under 0.5% of a core; the first load under 1 s; at most 25 MB more memory with the
server on. ``python -m bench.web [MOVES]``.

``python -m bench.web attack``: what the network can do to the page (issue 32), update
latency p95 with 200 pages open and reading and with 400 idle connections open, and the
memory 50 WebSocket clients that never read add over 2,000 changes.
"""

from __future__ import annotations

import os
import resource
import shutil
import socket
import statistics
import sys
import tempfile
import threading
import time

from app.games import new_game
from app.table.simulated_board import SimulatedBoard
from app.table.store import RecordStore
from app.table.thinker import InlineThinker
from engines.players import choose_move

PERIOD = 0.01


def rss_mb() -> float:
    """The process's resident memory now, in MB (from /proc)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def idle_cpu(seconds: float) -> float:
    """The share of one core this process uses while it only waits."""
    wall, cpu = time.monotonic(), time.process_time()
    time.sleep(seconds)
    return (time.process_time() - cpu) / (time.monotonic() - wall)


class Loop(threading.Thread):
    """The table loop turning in real time, as ``tabletop run`` turns it."""

    def __init__(self, board: SimulatedBoard) -> None:
        super().__init__(daemon=True)
        self.board, self.lock, self.stop = board, threading.Lock(), threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            with self.lock:
                self.board.table.turn(time.monotonic())
            time.sleep(PERIOD)


def main() -> None:
    moves = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    from selenium import webdriver
    from selenium.webdriver.support.ui import WebDriverWait

    store = RecordStore(tempfile.mkdtemp(prefix="tabletop-bench-"))
    board = SimulatedBoard("kulami", {}, {"b": "person", "w": "person"}, 2, store=store,
                           thinker=InlineThinker())
    loop = Loop(board)
    loop.start()
    time.sleep(1.0)
    idle_without = idle_cpu(10.0)
    before = rss_mb()
    from app.web.server import Actions, WebFront, new_game_on
    front = WebFront(store, Actions(new_game_on, ("kulami",)), host="127.0.0.1",
                     port=0).start()
    published: dict[tuple[int, int], float] = {}

    def publish(session, send=front.publish) -> None:
        """The loop's publish, noting when each revision left it."""
        send(session)
        published.setdefault((id(session), session.revision), time.time())

    front.publish = publish
    with loop.lock:
        board.remote = board.table.remote = front
        front.publish(board.session)  # the loop publishes changes; this is the first
    time.sleep(1.0)
    idle_server = idle_cpu(10.0)

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(
        executable_path=shutil.which("chromedriver")))
    try:
        started = time.monotonic()
        driver.get(front.url)
        WebDriverWait(driver, 10, poll_frequency=0.005).until(
            lambda d: d.execute_script("return document.querySelectorAll('[data-hole]').length"))
        first_load = time.monotonic() - started
        idle_page = idle_cpu(10.0)
        driver.execute_script("""
            window.seen = {};
            new MutationObserver(() => {
              const r = document.body.dataset.revision;
              if (!(r in window.seen)) window.seen[r] = performance.timeOrigin + performance.now();
            }).observe(document.body, {attributes: true});""")
        rule = new_game("kulami")
        import random
        rng = random.Random(1)
        delays = []
        for _ in range(moves):
            if rule.is_game_over():
                break
            move = choose_move(rule, 1, rng)
            hole = rule.move_text(move)
            rule.push(move)
            with loop.lock:
                board.hand.place(hole, board.session.board.turn)
                board.table.sense(time.monotonic())
            time.sleep(1.0)  # debounce and settle, then the loop commits the move
            with loop.lock:
                revision = board.session.revision
            committed = published[(id(board.session), revision)]
            seen = WebDriverWait(driver, 5, poll_frequency=0.005).until(
                lambda d: d.execute_script(f"return window.seen['{revision}']"))
            delays.append(seen / 1000 - committed)
        grown = rss_mb() - before
    finally:
        driver.quit()
        loop.stop.set()
        loop.join()
        front.close()
        board.close()
    delays.sort()
    p95 = delays[max(0, round(0.95 * len(delays)) - 1)]
    print(f"commit to page, {len(delays)} moves: median {statistics.median(delays) * 1000:.1f} "
          f"ms, p95 {p95 * 1000:.1f} ms, worst {delays[-1] * 1000:.1f} ms (target p95 < 100 ms)")
    print(f"first load to the board drawn: {first_load * 1000:.0f} ms (target < 1000 ms)")
    print(f"idle, share of one core: the table loop alone {idle_without * 100:.2f}%, with "
          f"the server {idle_server * 100:.2f}% (the server: "
          f"{(idle_server - idle_without) * 100:.2f}%, target < 0.5%), with a page open "
          f"{idle_page * 100:.2f}%")
    print(f"memory: {grown:.1f} MB more with the server, a page and {len(delays)} moves "
          f"(target <= 25 MB); peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


def latencies(front, board, changes: int) -> list[float]:
    """Seconds from each publish to a reading page's WebSocket having it."""
    import asyncio
    import json

    import aiohttp

    async def watch() -> list[float]:
        delays = []
        async with aiohttp.ClientSession() as client:
            async with client.ws_connect(front.url + "ws") as socket:
                await socket.receive(timeout=10)
                for _ in range(changes):
                    board.session.revision += 1
                    started = time.monotonic()
                    await asyncio.to_thread(front.publish, board.session)
                    while json.loads((await socket.receive(timeout=10)).data)[
                            "revision"] != board.session.revision:
                        pass
                    delays.append(time.monotonic() - started)
        return sorted(delays)
    return asyncio.run(watch())


class OpenPages(threading.Thread):
    """``count`` pages open on the board, each a WebSocket that reads every snapshot as
    a browser does, from ten loopback addresses standing for the family's phones (the
    page takes at most 64 connections from one address)."""

    def __init__(self, front, count: int) -> None:
        super().__init__(daemon=True)
        self.front, self.count = front, count
        self.ready, self.received = threading.Event(), 0
        self._done = None

    def run(self) -> None:
        import asyncio

        import aiohttp

        async def page(address: str, opened: list) -> None:
            connector = aiohttp.TCPConnector(local_addr=(address, 0))
            async with aiohttp.ClientSession(connector=connector) as client:
                async with client.ws_connect(self.front.url + "ws") as socket:
                    opened.append(socket)
                    if len(opened) == self.count:
                        self.ready.set()
                    async for _ in socket:
                        self.received += 1

        async def all_pages() -> None:
            self._done = asyncio.get_running_loop().create_future()
            opened: list = []
            tasks = [asyncio.ensure_future(page(f"127.0.0.{2 + i % 10}", opened))
                     for i in range(self.count)]
            await self._done
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        self._loop = asyncio.new_event_loop()
        self._loop.run_until_complete(all_pages())
        self._loop.close()

    def close(self) -> None:
        self._loop.call_soon_threadsafe(self._done.set_result, None)
        self.join(timeout=30)


def raw_connection(front, source: str, receive_buffer: int | None = None):
    """A raw connection to the page from ``source`` (a loopback address standing for
    another device), its receive buffer made small to play a client that reads slowly."""
    sock = socket.socket()
    if receive_buffer:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", front.port))
    return sock


def under_attack(idle: int = 400, readers: int = 50, changes: int = 2000,
                 pages: int = 200) -> None:
    """What the network can do to the page (issue 32): update latency p95 with ``pages``
    pages open and reading, and with ``idle`` idle connections open from ten other
    addresses, and the memory the server grows with ``readers`` WebSocket clients that
    never read over ``changes`` changes."""
    import base64

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    from app.web.server import Actions, WebFront, new_game_on
    store = RecordStore(tempfile.mkdtemp(prefix="tabletop-bench-"))
    front = WebFront(store, Actions(new_game_on, ("kulami",)), host="127.0.0.1",
                     port=0).start()
    board = SimulatedBoard("kulami", {}, {"b": "person", "w": "person"}, 2, store=store,
                           thinker=InlineThinker(), remote=front)
    try:
        front.publish(board.session)
        quiet = latencies(front, board, 200)
        open_pages = OpenPages(front, pages)
        open_pages.start()
        if not open_pages.ready.wait(60):
            raise SystemExit(f"bench: only some of the {pages} pages opened")
        crowded = latencies(front, board, 200)
        open_pages.close()
        taken = open_pages.received
        time.sleep(1.0)
        flood = [raw_connection(front, f"127.0.0.{2 + i % 10}") for i in range(idle)]
        flooded = latencies(front, board, 200)
        for sock in flood:
            sock.close()
        time.sleep(1.0)
        silent = []
        for _ in range(readers):
            sock = raw_connection(front, "127.0.0.1", receive_buffer=4096)
            sock.sendall(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                         b"Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
                         b"Sec-WebSocket-Version: 13\r\n\r\n" % base64.b64encode(os.urandom(16)))
            silent.append(sock)
        time.sleep(1.0)
        before = rss_mb()
        started = time.monotonic()
        for _ in range(changes):
            board.session.revision += 1
            front.publish(board.session)
        spent = time.monotonic() - started
        time.sleep(2.0)
        grown = rss_mb() - before
        for sock in silent:
            sock.close()
    finally:
        front.close()
        board.close()
    p95 = lambda delays: delays[max(0, round(0.95 * len(delays)) - 1)] * 1000
    print(f"update latency, publish to a reading page, 200 changes: p95 {p95(quiet):.1f} ms "
          f"alone, {p95(crowded):.1f} ms with {pages} other pages open and reading "
          f"({taken} snapshots taken by them, their clients in this process), "
          f"{p95(flooded):.1f} ms with {idle} idle connections open")
    print(f"memory: the server grew {grown:.1f} MB with {readers} clients that never read "
          f"over {changes} changes ({spent:.1f} s to publish them)")


if __name__ == "__main__":
    if sys.argv[1:2] == ["attack"]:
        under_attack()
    else:
        main()
