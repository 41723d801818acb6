"""Boards far apart: how soon a move typed on one board is lit on the other, through a
local mosquitto started as the tests start it (Debian's broker, TLS, passwords,
set_tcp_nodelay), for one pair of boards alone and for ten pairs (twenty boards) on the
one broker at once. Every pair is invited with its own code and plays a whole game of
Kulami with seeded random moves, each board a session and its link turned as the table
loop turns them (every millisecond here). Target (issue 33): p95 under 200 ms.
``python -m bench.remote [PAIRS]``.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from app.remote.broker import Broker
from app.remote.far_board import FarGame, FarLink
from app.remote.invitation import Host, join
from app.table.session import Session
from tests.mosquitto import Mosquitto

CLUB = "bench"


class Board:
    """One board: a session with no sensors (moves typed) and its link."""

    def __init__(self, game: FarGame, config) -> None:
        self.link = FarLink(game, config)
        self.session = Session(game.board(), seats=self.link.seats(), physical=False)
        self.link.start()
        if not self.link.broker.connected.wait(30):
            raise SystemExit(f"a board did not connect: {self.link.broker.failure}")

    def turn(self) -> None:
        for command in self.link.commands():
            command(self)
        self.link.publish(self.session)

    def lit(self) -> str | None:
        pending = self.session.pending
        return None if pending is None else self.session.board.move_text(pending)


def connected(config, client_id: str) -> Broker:
    broker = Broker(config, client_id)
    broker.start()
    if not broker.connected.wait(30):
        raise SystemExit(f"cannot reach the broker: {broker.failure}")
    return broker


def pair(broker: Mosquitto, directory: Path, number: int) -> tuple[Board, Board]:
    """Two boards that agreed a game of Kulami through an invitation."""
    hosting = connected(broker.config("anna"), f"invites-{number}")
    joining = connected(broker.config("ben"), f"joins-{number}")
    host = Host(hosting, CLUB, "kulami", {"layout": f"random:{number}"}, "b", "A")
    agreed = {}
    waiting = threading.Thread(target=lambda: agreed.update(host=host.wait(60)))
    waiting.start()
    guest = join(joining, CLUB, host.code, "B")
    waiting.join()
    hosting.stop()
    joining.stop()
    return (Board(FarGame.agreed(directory / f"{number}-a.json", agreed["host"], CLUB, True),
                  broker.config("anna")),
            Board(FarGame.agreed(directory / f"{number}-b.json", guest, CLUB, False),
                  broker.config("ben")))


def play(a: Board, b: Board, seed: int, delays: list[float]) -> None:
    """A whole game; each move's time from typed on one board to lit on the other."""
    chooser = random.Random(seed)
    while not a.session.board.is_game_over():
        mover, other = (a, b) if a.session.board.turn == "b" else (b, a)
        board = mover.session.board
        move = board.move_text(chooser.choice(list(board.legal_moves)))
        start = time.perf_counter()
        mover.session.confirm(move)
        mover.turn()
        while other.lit() != move:
            other.turn()
            mover.turn()
            time.sleep(0.001)
        delays.append(time.perf_counter() - start)
        other.session.confirm(move)
        other.turn()


def run(broker: Mosquitto, directory: Path, pairs: int) -> list[float]:
    boards = [pair(broker, directory, number) for number in range(pairs)]
    delays: list[float] = []
    games = [threading.Thread(target=play, args=(a, b, number, delays))
             for number, (a, b) in enumerate(boards)]
    for game in games:
        game.start()
    for game in games:
        game.join()
    for a, b in boards:
        a.link.stop()
        b.link.stop()
    return delays


def report(label: str, delays: list[float]) -> None:
    ms = sorted(d * 1000 for d in delays)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    print(f"{label}: {len(ms)} moves, typed to lit p50 {statistics.median(ms):.1f} ms, "
          f"p95 {p95:.1f} ms, max {ms[-1]:.1f} ms (target p95 < 200 ms)")


def main() -> None:
    pairs = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    with tempfile.TemporaryDirectory() as scratch:
        directory = Path(scratch)
        broker = Mosquitto(directory / "broker")
        broker.start()
        try:
            report("1 pair of boards", run(broker, directory / "one", 1))
            report(f"{pairs} pairs ({2 * pairs} boards) at once",
                   run(broker, directory / "many", pairs))
        finally:
            broker.stop()


if __name__ == "__main__":
    main()
