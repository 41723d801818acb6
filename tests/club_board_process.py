"""One board of a club, in a process of its own, for the tests: it publishes a game of
Kulami to the club, plays MOVES moves, prints ``ready`` and waits to be killed (a power
cut: its last will is all the club hears of it after).

    python -m tests.club_board_process HOST PORT USER PASSWORD CA CLUB NAME MOVES
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from app.games import new_game
from app.remote.club import LiveFeed
from app.remote.config import RemoteConfig
from app.table.session import Session


def main(host, port, user, password, ca, club, name, moves) -> int:
    config = RemoteConfig(host=host, port=int(port), user=user, password=password,
                          ca=Path(ca), club=club, name=name)
    feed = LiveFeed(config).start()
    if not feed.broker.connected.wait(30):
        print(feed.broker.failure, file=sys.stderr)
        return 1
    session = Session(new_game("kulami"), seats={"b": "person", "w": "person"},
                      physical=False)
    for _ in range(int(moves)):
        board = session.board
        session.confirm(board.move_text(next(iter(board.legal_moves))))
    feed.publish(session)
    print("ready", flush=True)
    while True:
        time.sleep(1)


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
