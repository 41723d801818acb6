"""Blokus Duo against Pentobi's own GTP engine, when one is at hand.

Set ``PENTOBI_GTP`` to the path of a ``pentobi-gtp`` binary (built from Pentobi's source
with ``-DPENTOBI_BUILD_GUI=OFF -DPENTOBI_BUILD_GTP=ON``); without one these tests are
skipped. Random games are played on both engines at once: at every ply both colours'
``all_legal`` lists must be the same sets, and at the end ``final_score`` the same text.
"""

import os
import random
import subprocess

import pytest

from engines.blokus_duo.board import BlokusDuoBoard
from tests.test_blokus_duo_rules import ALL_PLACED

BINARY = os.environ.get("PENTOBI_GTP", "")
pytestmark = pytest.mark.skipif(not (BINARY and os.access(BINARY, os.X_OK)),
                                reason="PENTOBI_GTP names no pentobi-gtp binary")


class Pentobi:
    def __init__(self) -> None:
        self.process = subprocess.Popen([BINARY, "--game", "duo", "--nobook", "--quiet"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True)

    def ask(self, command: str) -> str:
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        lines = []
        while True:
            line = self.process.stdout.readline()
            if line == "\n" or line == "":
                break
            lines.append(line.rstrip("\n"))
        answer = "\n".join(lines)
        assert answer.startswith("="), (command, answer)
        return answer[1:].strip()

    def close(self) -> None:
        self.ask("quit")
        self.process.wait(timeout=10)


@pytest.mark.parametrize("seed", range(6))
def test_random_games_agree_with_pentobi(seed, tmp_path):
    rng = random.Random(seed)
    pentobi = Pentobi()
    try:
        pentobi.ask("set_game Blokus Duo")
        board = BlokusDuoBoard(start="fixed")
        while True:
            for colour in ("b", "w"):
                theirs = set(pentobi.ask(f"all_legal {colour}").split())
                ours = {str(move) for move in board.legal_moves_for(colour)}
                assert ours == theirs, (seed, len(board.move_stack), colour)
            if board.is_game_over():
                break
            move = rng.choice(list(board.legal_moves))
            pentobi.ask(f"play {board.turn} {move}")
            board.push(move)
        final = pentobi.ask("final_score")
        scores = board.scores()
        margin = scores["b"] - scores["w"]
        assert final == ("0" if margin == 0 else f"{'B' if margin > 0 else 'W'}+{abs(margin)}")
        assert final == board.outcome().result()
        # Records both ways: Pentobi's file loads here, ours loads there.
        pentobi.ask(f"savesgf {tmp_path / 'theirs.blksgf'}")
        theirs = BlokusDuoBoard.from_record((tmp_path / "theirs.blksgf").read_text("utf-8"))
        assert theirs.move_stack == board.move_stack
        (tmp_path / "ours.blksgf").write_text(board.to_record(), "utf-8")
        pentobi.ask("clear_board")
        pentobi.ask(f"loadsgf {tmp_path / 'ours.blksgf'}")
        assert pentobi.ask("final_score") == final
    finally:
        pentobi.close()


def test_the_bonuses_agree_with_pentobi():
    pentobi = Pentobi()
    try:
        board = BlokusDuoBoard(start="fixed")
        for text in ALL_PLACED:
            pentobi.ask(f"play {board.turn} {text}")
            board.push_text(text)
        assert pentobi.ask("final_score") == board.outcome().result()
    finally:
        pentobi.close()
