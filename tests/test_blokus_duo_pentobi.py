"""Blokus Duo against Pentobi's own GTP engine, from its recorded answers.

``tests/data/pentobi-duo.json`` holds what ``pentobi-gtp`` answered in six seeded random
games (``scripts/record_pentobi.py`` recorded them with a binary built from Pentobi's
source): at every position both colours' ``all_legal`` lists (their count and a SHA-256
of the sorted moves), the move then played, ``final_score`` at the end, and the record
Pentobi wrote. Our engine must give the same lists at every position, the same score,
load Pentobi's record to the same game, and write one that loads back to it.
"""

import hashlib
import json
from pathlib import Path

import pytest

from engines.blokus_duo.board import BlokusDuoBoard

RECORDED = json.loads((Path(__file__).parent / "data" / "pentobi-duo.json")
                      .read_text(encoding="utf-8"))


def digest(moves) -> str:
    """As the recorder hashed Pentobi's lists: sorted, one move per line."""
    return hashlib.sha256("\n".join(sorted(moves)).encode()).hexdigest()


@pytest.mark.parametrize("game", RECORDED["games"], ids=lambda game: f"seed {game['seed']}")
def test_every_position_of_pentobis_games_has_pentobis_legal_moves(game):
    board = BlokusDuoBoard(start="fixed")
    for ply, theirs in enumerate(game["plies"]):
        for colour in ("b", "w"):
            ours = [str(move) for move in board.legal_moves_for(colour)]
            assert [len(ours), digest(ours)] == theirs[colour], (ply, colour)
        if "play" in theirs:
            colour, move = theirs["play"].split()
            assert board.turn == colour, ply  # the same implicit passes
            board.push_text(move)
    assert board.is_game_over()
    assert board.outcome().result() == game["final_score"]


@pytest.mark.parametrize("game", RECORDED["games"], ids=lambda game: f"seed {game['seed']}")
def test_pentobis_records_load_and_ours_load_back_the_same(game):
    theirs = BlokusDuoBoard.from_record(game["record"])
    played = [ply["play"].split()[1] for ply in game["plies"] if "play" in ply]
    assert [str(move) for move in theirs.move_stack] == played
    assert theirs.outcome().result() == game["final_score"]
    again = BlokusDuoBoard.from_record(theirs.to_record())
    assert again.move_stack == theirs.move_stack
