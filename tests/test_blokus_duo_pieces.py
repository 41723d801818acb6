"""Blokus Duo's pieces as data: the 21 pieces, their orientations, every placement and
the move text, Pentobi's."""

import pytest

from engines.blokus_duo.board import BlokusDuoBoard
from engines.blokus_duo.pieces import (BOARD, BY_MASK, PIECES, PLACEMENTS, Placement, bit,
                                       corners, edges, names, orientations, turned)
from engines.core import InvalidMoveError

PENTOBI_NAMES = ["1", "2", "I3", "V3", "I4", "L4", "O", "T4", "Z4", "F", "I5", "L5", "N",
                 "P", "T5", "U", "V5", "W", "X", "Y", "Z5"]


def test_the_21_pieces_have_pentobis_names_and_89_squares():
    assert [piece.name for piece in PIECES] == PENTOBI_NAMES
    assert [piece.size for piece in PIECES].count(5) == 12
    assert sum(piece.size for piece in PIECES) == 89


def test_91_distinct_orientations():
    counts = {piece.name: len(piece.orientations) for piece in PIECES}
    assert sum(counts.values()) == 91
    assert counts["X"] == counts["O"] == counts["1"] == 1
    assert counts["F"] == counts["L5"] == counts["Y"] == 8
    assert counts["I5"] == 2 and counts["T5"] == 4


def test_every_orientation_is_one_turn_or_flip_of_the_drawing():
    for piece in PIECES:
        for shape in piece.orientations:
            assert orientations(shape) == piece.orientations


def test_13729_placements_on_the_empty_board():
    """Distinct (piece, squares) pairs that fit on the empty board: a symmetric piece's
    orientations covering the same squares count once. It is Pentobi's move count."""
    assert len(PLACEMENTS) == 13_729
    assert len(BY_MASK) == 13_729
    assert all(placement.mask & ~BOARD == 0 for placement in PLACEMENTS)
    by_piece = {}
    for placement in PLACEMENTS:
        by_piece[placement.piece] = by_piece.get(placement.piece, 0) + 1
    assert by_piece["1"] == 196 and by_piece["2"] == 2 * 14 * 13 and by_piece["X"] == 144


def test_move_text_is_pentobis_in_its_canonical_order():
    board = BlokusDuoBoard()
    move = board.parse_move("f11,g10,f10,e10,f9")
    assert str(move) == "f9,e10,f10,g10,f11"
    assert move.piece == "X" and move.squares == ("f9", "e10", "f10", "g10", "f11")
    assert board.parse_move(" F9, E10 ,f10,g10,f11") == move
    assert board.parse_move(str(move)) is move
    assert all(board.parse_move(str(p)) == p for p in PLACEMENTS[::97])


def test_moves_are_small_values():
    move = BY_MASK[bit("a1") | bit("b1")]
    assert move == Placement("2", bit("a1") | bit("b1"))
    assert hash(move) == hash(Placement("2", move.mask))
    assert str(move) == "a1,b1"


@pytest.mark.parametrize("text, words", [
    ("", "is not a square"),
    ("e10,", "'' is not a square"),
    ("o3", "'o3' is not a square"),
    ("a15", "'a15' is not a square"),
    ("a0", "'a0' is not a square"),
    ("e10,e10", "e10 appears twice"),
    ("a1,a2,a3,a4,a5,a6", "has 6 squares; a piece has 1 to 5"),
    ("a1,c1", "a1,c1 is not the shape of any Blokus piece"),
    ("a1,b2", "a1,b2 is not the shape of any Blokus piece"),
])
def test_bad_move_text_is_one_clear_line(text, words):
    board = BlokusDuoBoard()
    with pytest.raises(InvalidMoveError) as error:
        board.parse_move(text)
    assert words in str(error.value) and "\n" not in str(error.value)


def test_any_shape_of_a_piece_reads_as_that_piece():
    board = BlokusDuoBoard()
    assert board.parse_move("a1,b1,c1,a2,b2").piece == "P"
    assert board.parse_move("a1,a2,a3,b3,b4").piece == "N"


def test_edges_and_corners_do_not_wrap_round_the_board():
    assert names(edges(bit("a5"))) == ["a4", "b5", "a6"]
    assert names(edges(bit("n5"))) == ["n4", "m5", "n6"]
    assert names(corners(bit("n5"))) == ["m4", "m6"]
    assert names(corners(bit("a1"))) == ["b2"]
    assert names(corners(bit("n14"))) == ["m13"]
    domino = bit("e5") | bit("f5")
    assert names(corners(domino)) == ["d4", "g4", "d6", "g6"]


def test_turning_by_180_degrees():
    assert names(turned(bit("e10"))) == ["j5"]
    assert names(turned(bit("a1") | bit("b1"))) == ["m14", "n14"]
    assert all(turned(turned(p.mask)) == p.mask and turned(p.mask) in BY_MASK
               for p in PLACEMENTS[::31])
