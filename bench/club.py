"""A club's boards in one place: twenty boards publishing their live games to one local
mosquitto (started as the tests start it: Debian's broker, TLS, passwords) and one
watcher following them all, as ``tabletop watch`` does. Each board is a session of one
of the four games, in turn, with seeded random moves typed, its feed handed the session
after every change as the table loop hands it; a game that ends starts again.

Two paces: boards played as people play (a move every second on each board, the boards
out of step), and boards changing far faster than the feed sends (a change every 50 ms
each, where the feed sends at most one record every quarter second). For each: the
records a second the watcher takes in, and the delay from a record made on a board to
the watcher having it checked and replayed by its engine (p50, p95; a record held back
by the feed's pace counts from when it was made). ``python -m bench.club [BOARDS]``.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from app.games import new_game
from app.remote.club import LiveFeed, Spectator
from app.table.session import Session
from tests.mosquitto import Mosquitto

CLUB = "bench"
GAMES = ("kulami", "conhex", "akron", "blokus-duo")
SECONDS = 15.0


class Table:
    """One board of the club: a session with moves typed, and its feed."""

    def __init__(self, broker: Mosquitto, number: int) -> None:
        self.session = Session(new_game(GAMES[number % len(GAMES)]),
                               seats={"b": "person", "w": "person"}, physical=False)
        self.feed = LiveFeed(broker.config("anna", club=CLUB, name=f"Board {number + 1}"))
        self.feed.start()
        if not self.feed.broker.connected.wait(30):
            raise SystemExit(f"a board did not connect: {self.feed.broker.failure}")
        self.chooser = random.Random(number)
        self.feed.publish(self.session)

    def change(self) -> None:
        board = self.session.board
        if board.is_game_over():
            self.session.new_game()
        else:
            self.session.confirm(board.move_text(self.chooser.choice(list(board.legal_moves))))
        self.feed.publish(self.session)


def watch(spectator: Spectator, stop: threading.Event, delays: list[float],
          counted: list[int]) -> None:
    """Every change the watcher keeps: its delay, and how many records it took."""
    revision = spectator.revision
    seen = {board.id: board.revision for board in spectator.boards()}
    while not stop.is_set():
        revision = spectator.wait(revision, 0.5)
        for board in spectator.boards():
            if board.revision > seen.get(board.id, 0) and board.record is not None:
                counted[0] += board.revision - seen.get(board.id, 0)
                seen[board.id] = board.revision
                delays.append(board.heard - board.record["at"])


def run(tables: list[Table], spectator: Spectator, period: float) -> None:
    delays: list[float] = []
    counted = [0]
    stop = threading.Event()
    watcher = threading.Thread(target=watch, args=(spectator, stop, delays, counted))
    watcher.start()
    sent = sum(table.feed.sent for table in tables)
    start = time.monotonic()
    due = [start + period * n / len(tables) for n in range(len(tables))]  # out of step
    while time.monotonic() - start < SECONDS:
        now = time.monotonic()
        for n, table in enumerate(tables):
            if now >= due[n]:
                table.change()
                due[n] += period
        time.sleep(0.002)
    time.sleep(1.0)  # the last records arrive
    stop.set()
    watcher.join()
    elapsed = time.monotonic() - start - 1.0
    sent = sum(table.feed.sent for table in tables) - sent
    ms = sorted(d * 1000 for d in delays)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    print(f"{len(tables)} boards, a change every {period * 1000:.0f} ms each: "
          f"{sent / elapsed:.0f} records/s sent, {counted[0] / elapsed:.0f}/s taken by the "
          f"watcher; made to kept p50 {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, "
          f"max {ms[-1]:.1f} ms; dropped {spectator.malformed + spectator.oversized}")


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    with tempfile.TemporaryDirectory() as scratch:
        broker = Mosquitto(Path(scratch) / "broker")
        broker.start()
        tables: list[Table] = []
        spectator = Spectator(broker.config("ben", club=CLUB)).start()
        try:
            if not spectator.broker.connected.wait(30):
                raise SystemExit(f"the watcher did not connect: {spectator.broker.failure}")
            tables = [Table(broker, number) for number in range(count)]
            run(tables, spectator, 1.0)
            run(tables, spectator, 0.05)
        finally:
            for table in tables:
                table.feed.close()
            spectator.stop()
            broker.stop()


if __name__ == "__main__":
    main()
