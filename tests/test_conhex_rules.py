"""ConHex rules from the seed sheet and rules.md: claims, the chain win, pie, handicap."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.games import new_game
from engines.conhex.board import PLACEMENTS, SWAP, ConHexBoard, Move
from engines.conhex.geometry import CELLS, HOLES, NEIGHBOURS, PLAYER_SIDES, SIDES
from engines.core import IllegalMoveError, InvalidMoveError, OptionError
from tests.positions import play, state


def connected(owned, player):
    """The rule sheet's win, by flood fill from scratch: own cells joining own sides."""
    start, end = (SIDES[s] & owned for s in PLAYER_SIDES[player])
    seen, todo = set(start), list(start)
    while todo:
        for n in NEIGHBOURS[todo.pop()]:
            if n in owned and n not in seen:
                seen.add(n)
                todo.append(n)
    return bool(seen & end)


def cells_of(board, player):
    return {int(c) for c in board.owned(player)}


# --- claiming -------------------------------------------------------------------------

def test_an_edge_cell_is_claimed_by_two_of_its_three_holes():
    board = play(ConHexBoard(), "c10", "f6")
    assert board.owner(1) is None
    play(board, "d10")
    assert board.owner(1) == "b" and board.owned("b") == {"1"}


def test_an_inner_cell_needs_three_of_six_and_the_first_to_three_keeps_it():
    board = play(ConHexBoard(), "e3", "f3", "e4", "g3")   # cell 33: b e3 e4, w f3 g3
    assert board.owner(33) is None
    play(board, "f4")
    assert board.owner(33) == "b"
    play(board, "g4")                                        # w's third in cell 33
    assert board.owner(33) == "b"


def test_the_centre_cell_needs_three_of_its_five_holes():
    board = play(ConHexBoard(), "f6", "a1", "e6")
    assert board.owner(40) is None
    play(board, "a11", "f5")
    assert board.owner(40) == "b"


def test_gems_of_both_colours_do_not_add_up():
    board = play(ConHexBoard(), "c10", "d10")                # cell 1: one gem each
    assert board.owner(1) is None
    play(board, "e10")
    assert board.owner(1) == "b"


def test_a_gem_in_an_owned_cell_changes_nothing():
    board = play(ConHexBoard(), "c10", "a1", "e10", "d10")
    assert board.owner(1) == "b" and board.scores() == {"b": 1, "w": 0}


def test_one_gem_can_claim_three_cells():
    # d9 lies in cells 16, 17 and 28; b already holds two gems in each (b8 c8, e9 f10, c8 e9).
    board = play(ConHexBoard(), "b8", "a1", "c8", "k1", "e9", "f6", "f10", "j5")
    assert board.owned("b") == frozenset()
    play(board, "d9")
    assert cells_of(board, "b") == {16, 17, 28}


def test_claims_are_never_lost_over_whole_random_games():
    rng = random.Random(7)
    for _ in range(30):
        board = ConHexBoard()
        owned = {"b": set(), "w": set()}
        while not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
            for player in "bw":
                now = cells_of(board, player)
                assert owned[player] <= now
                owned[player] = now


# --- the win --------------------------------------------------------------------------

def test_b_wins_down_the_west_edge_with_both_corner_cells():
    """Cells 0 (N+W), 15, 14, 13, 12 (S+W): the corners count as N and S for b."""
    board = ConHexBoard()
    b_moves = ["a11", "b9", "b7", "b5", "b3", "a1"]
    w_moves = ["f6", "h9", "g3", "e8", "h6"]
    for ply in range(10):
        play(board, (b_moves if ply % 2 == 0 else w_moves)[ply // 2])
        assert board.outcome() is None
    play(board, "a1")
    outcome = board.outcome()
    assert outcome.winner == "b" and "N and S" in outcome.reason
    assert {0, 12, 13, 14, 15} <= cells_of(board, "b")
    assert list(board.legal_moves) == [] and board.lights().mover is None


def test_w_wins_along_the_north_edge_with_both_corner_cells():
    """Cells 0 (N+W) to 4 (N+E): the same corners count as W and E for w."""
    board = ConHexBoard(pie=False)
    b_moves = ["f6", "d6", "h3", "e4", "h6", "c4"]
    w_moves = ["a11", "c10", "e10", "g10", "i10", "k11"]
    for ply in range(11):
        play(board, (b_moves if ply % 2 == 0 else w_moves)[ply // 2])
        assert board.outcome() is None
    play(board, "k11")
    assert board.outcome().winner == "w" and cells_of(board, "w") >= {0, 1, 2, 3, 4}


def test_a_chain_between_the_wrong_sides_does_not_win():
    """b along the north edge joins W and E: not b's sides."""
    board = ConHexBoard(pie=False)
    for b_move, w_move in zip(["a11", "c10", "e10", "g10", "i10", "k11"],
                              ["f6", "d6", "h3", "e4", "h6", "c4"]):
        play(board, b_move, w_move)
    assert cells_of(board, "b") >= {0, 1, 2, 3, 4} and board.outcome() is None


def test_moves_after_the_win_are_refused():
    board = ConHexBoard()
    for b_move, w_move in zip(["a11", "b9", "b7", "b5", "b3"], ["f6", "h9", "g3", "e8", "h6"]):
        play(board, b_move, w_move)
    play(board, "a1")
    with pytest.raises(IllegalMoveError, match="the game is over"):
        board.push_text("j5")


moves_orders = st.permutations(range(len(HOLES)))


@settings(max_examples=60, deadline=None)
@given(order=moves_orders, swap=st.booleans())
def test_the_incremental_win_matches_a_flood_fill_and_pop_restores_exactly(order, swap):
    board = ConHexBoard()
    history = []
    moves = [PLACEMENTS[i] for i in order]
    if swap:
        moves.insert(1, SWAP)
    for move in moves:
        if board.is_game_over():
            break
        history.append(state(board))
        board.push(move)
        owned = {p: cells_of(board, p) for p in "bw"}
        winner = board.outcome().winner if board.outcome() else None
        assert connected(owned["b"], "b") == (winner == "b")
        assert connected(owned["w"], "w") == (winner == "w")
    assert board.is_game_over()
    while board.move_stack:
        board.pop()
        assert state(board) == history.pop()


def replayed(board):
    """The same moves played on a fresh board: what the position must be, however the
    board reached it."""
    fresh = ConHexBoard(**board.options)
    for move in board.move_stack:
        fresh.push(move)
    return fresh


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), options=st.sampled_from(
    [{}, {"pie": False}, {"handicap": 2}, {"handicap": 3}]))
def test_play_after_takebacks_is_exactly_a_fresh_replay(seed, options):
    """Takebacks undo the union-find joins; play then goes on over the undone cells. A
    join left behind would join cells that are not connected any more: a win without a
    chain, or one missed. At every step the position equals the same moves replayed on a
    fresh board, and the winner is whoever the flood fill says is connected."""
    rng = random.Random(seed)
    board = ConHexBoard(**options)
    took_back = 0
    for _ in range(150):
        if board.move_stack and (board.is_game_over() or rng.random() < 0.15):
            for _ in range(rng.randint(1, min(6, len(board.move_stack)))):
                board.pop()
                took_back += 1
        else:
            board.push(rng.choice(list(board.legal_moves)))
        assert state(board) == state(replayed(board))
        owned = {p: cells_of(board, p) for p in "bw"}
        winner = board.outcome().winner if board.outcome() else None
        assert (connected(owned["b"], "b"), connected(owned["w"], "w")) == (
            winner == "b", winner == "w")
    assert took_back


@settings(max_examples=60, deadline=None)
@given(order=moves_orders)
def test_a_full_board_always_has_exactly_one_winner_and_it_is_the_engines(order):
    """Fill all 69 holes alternately, claiming as the rules say (a full board has every
    cell claimed); exactly one player is connected, and the engine, which stops at the
    first chain, named that player."""
    board, owner, counts = ConHexBoard(pie=False), {}, {"b": {}, "w": {}}
    for ply, hole in enumerate(order):
        player = "b" if ply % 2 == 0 else "w"
        if not board.is_game_over():
            board.push(PLACEMENTS[hole])
        for cell in CELLS:
            if hole in cell.holes:
                counts[player][cell.number] = counts[player].get(cell.number, 0) + 1
                if cell.number not in owner and counts[player][cell.number] >= cell.threshold:
                    owner[cell.number] = player
    assert len(owner) == len(CELLS)
    winners = [p for p in "bw" if connected({c for c, o in owner.items() if o == p}, p)]
    assert len(winners) == 1
    assert board.outcome().winner == winners[0]


# --- the pie rule ---------------------------------------------------------------------

def test_swap_makes_the_first_gem_w_in_the_same_hole_and_b_moves_next():
    board = play(ConHexBoard(), "j3")
    assert SWAP in board.legal_moves and SWAP not in board.legal_moves_for("b")
    before = state(board)
    play(board, "swap")
    assert board.sensor_view() == {"j3": "w"}
    assert board.turn == "b" and board.scores() == {"b": 0, "w": 0}
    lights = board.lights()
    assert lights.last == {"j3"} and "j3" not in lights.legal and lights.mover == "b"
    assert board.gem("j3") == "w"
    board.pop()
    assert state(board) == before and board.sensor_view() == {"j3": "b"}


def test_after_a_swap_w_owns_the_opening_gem_in_its_cells():
    board = play(ConHexBoard(), "i2", "swap", "a1", "j3")    # cell 8: i2 j3 k1
    assert board.owner(8) == "w"


@pytest.mark.parametrize("setup, moves, reason", [
    ({}, [], "only legal as w's first action"),
    ({}, ["j3", "a1"], "only legal as w's first action"),
    ({"pie": False}, ["j3"], "pie rule, which is off"),
    ({"handicap": 2}, ["j3", "j4"], "not allowed in a handicap game"),
])
def test_swap_is_refused_outside_ws_first_action(setup, moves, reason):
    board = play(ConHexBoard(**setup), *moves)
    before = state(board)
    with pytest.raises(IllegalMoveError, match=reason):
        board.push_text("swap")
    assert state(board) == before


@pytest.mark.parametrize("handicap", [2, 3])
def test_swap_is_never_legal_in_a_handicap_game(handicap):
    """Not after any number of gems, for either player: the pie rule is off with a
    handicap, even at the one moment (one gem on the board) a pie game allows it."""
    board = ConHexBoard(handicap=handicap)
    for hole in ["j3", "a1", "k1", "f6", "b9"]:
        assert SWAP not in board.legal_moves_for("b") and SWAP not in board.legal_moves_for("w")
        assert not board.is_legal(SWAP)
        assert SWAP not in list(board.moves_sensed_at(board.move_stack[0].name)
                                if board.move_stack else [])
        before = state(board)
        with pytest.raises(IllegalMoveError, match="swap is not allowed in a handicap game"):
            board.push_text("swap")
        assert state(board) == before
        play(board, hole)


def test_swap_twice_is_refused():
    board = play(ConHexBoard(), "j3", "swap")
    with pytest.raises(IllegalMoveError, match="only legal as w's first action"):
        board.push(SWAP)


# --- handicap -------------------------------------------------------------------------

@pytest.mark.parametrize("handicap", [2, 3])
def test_handicap_gems_are_placed_by_b_in_a_row_then_w_moves(handicap):
    board = new_game("conhex", handicap=str(handicap))
    turns = []
    for hole in ["f6", "a1", "k1", "a11", "k11", "j5"]:
        turns.append(board.turn)
        play(board, hole)
    assert turns == ["b"] * handicap + ["w", "b", "w", "b", "w", "b"][:6 - handicap]
    assert SWAP not in board.legal_moves_for("w")


def test_handicap_gems_claim_cells_like_any_other():
    board = play(ConHexBoard(handicap=2), "c10", "d10")
    assert board.owner(1) == "b" and board.turn == "w"


@pytest.mark.parametrize("options, message", [
    ({"handicap": "1"}, "handicap must be 0, 2 or 3, not '1'"),
    ({"handicap": "4"}, "handicap must be 0, 2 or 3"),
    ({"handicap": "two"}, "handicap must be 0, 2 or 3, not 'two'"),
    ({"pie": "maybe"}, "pie must be true or false, not 'maybe'"),
    ({"komi": "1"}, "no option 'komi'"),
])
def test_bad_options_are_refused(options, message):
    with pytest.raises(OptionError, match=message):
        new_game("conhex", **options)


def test_pie_can_be_turned_off_by_option_text():
    board = new_game("conhex", pie="off")
    assert board.options == {"pie": False, "handicap": 0}
    assert SWAP not in play(board, "j3").legal_moves


# --- moves, views, copies -------------------------------------------------------------

@pytest.mark.parametrize("text", ["c9", "b2", "f11", "l5", "a0", "swapp", "", "j 3"])
def test_text_that_is_not_a_hole_is_refused_by_name(text):
    with pytest.raises(InvalidMoveError, match="not a ConHex hole"):
        ConHexBoard().parse_move(text)


def test_the_bad_hole_message_points_at_a_diagram_that_exists():
    """It named conhex-board.md, which is not in the repository."""
    from pathlib import Path
    import re

    root = Path(__file__).resolve().parents[1]
    with pytest.raises(InvalidMoveError) as error:
        ConHexBoard().parse_move("c9")
    message = str(error.value)
    assert message.startswith("'c9' is not a ConHex hole (")
    assert "docs/rules.md" in message and "ConHex" in message
    named = re.findall(r"[\w./-]+\.(?:md|txt)", message)
    assert named and all((root / name).is_file() for name in named), named


def test_moves_read_in_any_case_and_print_in_lower_case():
    board = ConHexBoard()
    assert board.parse_move(" J3 ") == Move("j3") and board.move_text(Move("j3")) == "j3"
    assert board.parse_move("SWAP") is SWAP and str(SWAP) == "swap"


def test_a_taken_hole_is_refused_and_the_board_is_untouched():
    board = play(ConHexBoard(), "j3", "f6")
    before = state(board)
    with pytest.raises(IllegalMoveError, match="j3 is taken"):
        board.push_text("j3")
    assert state(board) == before


def test_a_foreign_value_is_refused_as_a_move():
    with pytest.raises(IllegalMoveError, match="not a ConHex move"):
        ConHexBoard().push(("j", 3))


def test_lights_show_open_holes_owned_cells_and_the_last_hole():
    board = play(ConHexBoard(), "c10", "f6", "d10")
    lights = board.lights()
    assert lights.mover == "w" and lights.last == {"d10"} and lights.off_limits == frozenset()
    assert lights.legal == set(HOLES) - {"c10", "f6", "d10"}
    assert lights.owned == {"b": {"1"}, "w": frozenset()}
    assert board.areas["1"] == {"c10", "d10", "e10"} and len(board.areas) == 41


def test_sensor_view_and_holes():
    board = play(ConHexBoard(), "c10", "f6")
    assert board.sensor_view() == {"c10": "b", "f6": "w"}
    assert board.holes == HOLES


def test_copy_is_independent_and_pops_like_the_original():
    board = play(ConHexBoard(), "c10", "f6", "d10")
    clone = board.copy()
    play(clone, "e10")
    assert board.gem("e10") is None and clone.gem("e10") == "w"
    clone.pop()
    assert state(clone) == state(board)
    clone.pop()
    assert clone.owner(1) is None and board.owner(1) == "b"


def test_ascii_shows_gems_cells_and_the_player_to_move():
    text = play(ConHexBoard(), "c10", "f6", "d10").ascii()
    assert text.splitlines()[1] == "10  . . X X o o o o o . ."
    assert "b cells: 1" in text and "w cells: -" in text and text.endswith("to move: w")
