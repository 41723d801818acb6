"""The reasons an engine gives for refusing a move reach people as they are (the log, a
terminal, a board far away), so none names a player by its wire letter (``b``, ``w``):
"touches no corner of b's own pieces" read as if the player were called b."""

import random
import re

import pytest

from app.games import GAMES, new_game
from engines.errors import EngineError
from engines.players import choose_move

#: A player's wire letter standing alone as a word, as app.table.texts finds it.
WIRE_LETTER = re.compile(r"(?<![\w'-])([bw])(?![\w-])")


def refusals(board):
    """Why each move the board refuses now is refused: the other player's legal moves
    (the mover's first piece off its start, a piece it has placed, a square beside its
    own) and a move at every hole."""
    other = "w" if board.turn == "b" else "b"
    moves = list(board.generate_legal_moves(other))
    for hole in board.holes:
        try:
            moves.append(board.parse_move(hole))
        except EngineError as error:
            yield str(error)
    for move in moves:
        if not board.is_legal(move):
            yield board.illegal_reason(move)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_no_refusal_names_a_player_by_its_wire_letter(name):
    board, rng = new_game(name), random.Random(2)
    reasons = set()
    for _ in range(12):
        reasons.update(refusals(board))
        if board.is_game_over():
            break
        board.push(choose_move(board, 1, rng))
    assert reasons
    named = sorted(reason for reason in reasons if WIRE_LETTER.search(reason))
    assert named == [], named
