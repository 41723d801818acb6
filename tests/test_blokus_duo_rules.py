"""Blokus Duo rules from the rule sheet and rules.md: starts, corner-only contact, the
legal moves against a brute-force reading of the rules, implicit passes, the end and
every scoring case on the sheet."""

import random

import pytest

from engines.blokus_duo.board import BlokusDuoBoard
from engines.blokus_duo.pieces import BY_MASK, PLACEMENTS, bit, corners, edges
from engines.core import PASS, IllegalMoveError, OptionError
from tests.positions import play, state

#: A game (start fixed) in which b places all 21 pieces, the monomino (n4) last, while
#: w is blocked after its 14th piece (move 28) and b makes the last seven moves.
ALL_PLACED = ("g9,e10,f10,g10,g11 h4,i4,j4,j5 e7,f7,d8,e8,f8 l5,k6,l6,k7,l7 "
              "i10,i11,j11,h12,i12 e1,e2,f2,g2,g3 k8,j9,k9,l9,k10 j2,k2,l2,k3 "
              "m10,l11,m11,k12,l12 f4 h6,i6,j6,h7,j7 b2,b3,c3,d3,b4 c4,c5,b6,c6,c7 "
              "m8,n8,n9,n10,n11 e13,f13,g13,d14,e14 e5,d6,e6,f6,g6 a1,a2,a3,a4,a5 "
              "m12,l13,m13 b12,c12,d12,b13,b14 n2,m3,n3,m4 a7,a8,a9,a10,b10 i8,j8 "
              "h14,i14,j14,k14 h9,h10,h11 l3,k4,l4,k5 d11,e11,e12,f12,g12 h1,i1,i2,i3,j3 "
              "b8,c8,c9,d9,c10 m5,m6,m7,n7 l1,m1,n1,m2 n12,n13,n14 g4,f5,g5 e3,f3 "
              "c1,d1,c2,d2 n4").split()


def reference_moves(board, player):
    """The rules read literally, from the squares alone: every placement of a piece in
    hand on empty squares, touching no own square along an edge, and touching an own
    square at a corner, or covering the player's start point for the first piece."""
    view = board.sensor_view()
    own = sum(bit(s) for s, who in view.items() if who == player)
    occupied = sum(bit(s) for s in view)
    left = set(board.pieces_left(player))
    if own:
        need = corners(own)
    elif board.options["start"] == "fixed":
        need = bit("e10" if player == "b" else "j5")
    else:
        need = (bit("e10") | bit("j5")) & ~occupied
    return {str(p) for p in PLACEMENTS
            if p.piece in left and not p.mask & occupied and not p.mask & edges(own)
            and p.mask & need}


# --- first moves ------------------------------------------------------------------------

def test_414_first_moves_for_either_colour_with_fixed_start_points():
    board = BlokusDuoBoard(start="fixed")
    assert board.legal_moves.count() == 414
    assert len(list(board.legal_moves_for("w"))) == 414
    assert all(move.mask & bit("e10") for move in board.legal_moves)
    assert all(move.mask & bit("j5") for move in board.legal_moves_for("w"))


def test_828_first_moves_for_the_first_player_under_the_sheets_rule():
    board = BlokusDuoBoard()
    assert board.options["start"] == "either"
    assert board.legal_moves.count() == 828


@pytest.mark.parametrize("first, second", [("e10", "j5"), ("j5", "e10")])
def test_the_second_player_covers_the_other_start_point(first, second):
    board = BlokusDuoBoard()
    board.push_text(first)
    moves = list(board.legal_moves)
    assert len(moves) == 414 and all(move.mask & bit(second) for move in moves)
    with pytest.raises(IllegalMoveError, match=f"must cover the start point {second}"):
        board.push_text("a1")
    assert board.turned == (first == "j5")


def test_fixed_start_refuses_the_other_point_first():
    board = BlokusDuoBoard(start="fixed")
    with pytest.raises(IllegalMoveError, match="start point e10"):
        board.push_text("j5")


def test_the_start_option_is_checked():
    assert BlokusDuoBoard.new(start="fixed").options["start"] == "fixed"
    with pytest.raises(OptionError, match="start must be either or fixed"):
        BlokusDuoBoard.new(start="centre")


# --- contact ----------------------------------------------------------------------------

def test_corner_only_contact_with_own_pieces():
    board = play(BlokusDuoBoard(start="fixed"), "e10,e11", "j5")
    with pytest.raises(IllegalMoveError,
                       match="f10 touches a piece of its own colour along an edge"):
        board.push_text("f10")
    with pytest.raises(IllegalMoveError, match="touches no corner of a piece of its own colour"):
        board.push_text("a1")
    with pytest.raises(IllegalMoveError, match="e10 already covered"):
        board.push_text("e10")
    board.push_text("f12")
    assert board.sensor_view() == {"e10": "b", "e11": "b", "j5": "w", "f12": "b"}


def test_contact_with_the_other_colour_is_free():
    rng = random.Random(6)
    board = BlokusDuoBoard()
    touching = 0
    while not board.is_game_over():
        rival = sum(bit(s) for s, who in board.sensor_view().items() if who != board.turn)
        touching += sum(1 for move in board.legal_moves if edges(move.mask) & rival)
        board.push(rng.choice(list(board.legal_moves)))
    assert touching > 0


def test_a_reused_piece_is_refused_by_name():
    board = play(BlokusDuoBoard(start="fixed"), "e10,f10", "j5")
    with pytest.raises(IllegalMoveError,
                       match="the 2 piece of this colour is already on the board"):
        board.push_text("g11,h11")


def test_pass_is_never_a_move():
    board = BlokusDuoBoard()
    assert not board.may_pass("b") and PASS not in board.legal_moves
    with pytest.raises(IllegalMoveError, match="skipped by itself"):
        board.push_text("pass")


# --- legal moves against the reference ----------------------------------------------------

@pytest.mark.parametrize("seed, start", [(1, "either"), (2, "fixed"), (3, "either")])
def test_legal_moves_match_the_rules_read_literally(seed, start):
    rng = random.Random(seed)
    board = BlokusDuoBoard(start=start)
    while not board.is_game_over():
        for player in ("b", "w"):
            generated = [str(m) for m in board.legal_moves_for(player)]
            assert len(generated) == len(set(generated))
            assert set(generated) == reference_moves(board, player)
        moves = list(board.legal_moves)
        assert all(move in board.legal_moves for move in moves[::7])
        board.push(rng.choice(moves))
    assert not reference_moves(board, "b") and not reference_moves(board, "w")


def test_in_is_answered_by_the_rule():
    board = play(BlokusDuoBoard(start="fixed"), "e10,e11", "j5")
    assert BY_MASK[bit("f12")] in board.legal_moves
    assert BY_MASK[bit("f11")] not in board.legal_moves
    assert BY_MASK[bit("e10") | bit("e9")] not in board.legal_moves
    assert "f12" not in board.legal_moves


def test_moves_sensed_at_are_the_legal_placements_covering_the_square():
    rng = random.Random(5)
    board = BlokusDuoBoard()
    for _ in range(12):
        board.push(rng.choice(list(board.legal_moves)))
    legal = list(board.legal_moves)
    for square in ("a1", "e10", "g7", "n14", *sorted(board.attachment_points(board.turn))):
        sensed = set(board.moves_sensed_at(square))
        assert sensed == {m for m in legal if m.mask & bit(square)}
    assert list(board.moves_sensed_at("z9")) == []


def test_pop_restores_everything():
    rng = random.Random(9)
    board = BlokusDuoBoard()
    before = []
    while not board.is_game_over():
        before.append(state(board))
        board.push(rng.choice(list(board.legal_moves)))
    copy = board.copy()
    assert state(copy) == state(board)
    while board.move_stack:
        board.pop()
        assert state(board) == before.pop()


# --- passes, the end and the score --------------------------------------------------------

def test_a_blocked_player_is_skipped_and_the_other_plays_on():
    board = BlokusDuoBoard(start="fixed")
    for text in ALL_PLACED[:28]:
        board.push_text(text)
    assert board.turn == "b" and not board.can_place("w")
    assert board.legal_moves_for("w").count() == 0
    for text in ALL_PLACED[28:]:
        assert board.turn == "b" and not board.is_game_over()
        board.push_text(text)
    movers = "".join(board.mover(i) for i in range(len(board.move_stack)))
    assert movers == "bw" * 14 + "b" * 7
    assert board.is_game_over() and board.legal_moves.count() == 0


def test_all_pieces_with_the_monomino_last_scores_20():
    board = play(BlokusDuoBoard(start="fixed"), *ALL_PLACED)
    left = board.pieces_left("w")
    sizes = {"1": 1, "2": 2, "I3": 3, "V3": 3, "I4": 4, "L4": 4, "O": 4, "T4": 4, "Z4": 4}
    assert board.pieces_left("b") == ()
    assert board.scores() == {"b": 20, "w": -sum(sizes.get(name, 5) for name in left)}
    outcome = board.outcome()
    assert outcome.winner == "b" and outcome.result() == f"B+{20 - board.scores()['w']}"


def test_all_pieces_with_another_piece_last_scores_15():
    moves = list(ALL_PLACED)
    moves[-2], moves[-1] = moves[-1], moves[-2]  # the monomino before the O
    board = play(BlokusDuoBoard(start="fixed"), *moves)
    assert board.is_game_over() and board.scores()["b"] == 15


def test_pieces_left_count_minus_one_per_square():
    """The sheet's blue player: two three-square pieces and one four-square piece left
    score -10; here every position's score is minus the squares in hand."""
    rng = random.Random(4)
    board = BlokusDuoBoard()
    while not board.is_game_over():
        board.push(rng.choice(list(board.legal_moves)))
        for player in ("b", "w"):
            placed = sum(1 for who in board.sensor_view().values() if who == player)
            if board.pieces_left(player):
                assert board.scores()[player] == -(89 - placed)


def test_an_equal_score_is_a_draw():
    board = BlokusDuoBoard()
    assert board.scores() == {"b": -89, "w": -89}
    assert board.outcome() is None
