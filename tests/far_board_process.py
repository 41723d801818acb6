"""One board far away, in a process of its own, for the tests: it resumes the game kept
at PATH, plays its colour with seeded random legal moves typed as the terminal types
them, places the other board's moves as they are lit, and ends once the game is over
and both boards have the same record. Killing it is a power cut; starting it again
resumes from what it kept.

    python -m tests.far_board_process PATH HOST PORT USER PASSWORD CA SEED
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

from app.remote.config import RemoteConfig
from app.remote.far_board import FarGame, FarLink, moves_of
from app.table.session import Session


class Table:
    """What the link's commands are handed: the table, of which they need the session."""

    def __init__(self, session):
        self.session = session


def main(path, host, port, user, password, ca, seed) -> int:
    game = FarGame.load(Path(path))
    config = RemoteConfig(host=host, port=int(port), user=user, password=password,
                          ca=Path(ca))
    link = FarLink(game, config)
    session = Session(game.board(), seats=link.seats(), seed=1, physical=False)
    table = Table(session)
    link.start()
    try:
        while True:
            for command in link.commands():
                command(table)
            board = session.board
            if game.stopped:
                print(game.stopped, file=sys.stderr)
                return 1
            if session.pending is not None:
                session.confirm(board.move_text(session.pending))
            elif board.turn == game.colour and not board.is_game_over():
                moves = moves_of(board)
                chooser = random.Random(f"{seed}:{len(moves)}")
                session.confirm(board.move_text(chooser.choice(list(board.legal_moves))))
            link.publish(session)
            if board.is_game_over() and game.peer_moves == moves_of(board) == game.sent:
                return 0
            time.sleep(0.005)
    finally:
        link.stop()


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
