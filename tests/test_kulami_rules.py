"""Kulami rules from the rule sheet: placement, off-limits panels, the end, scoring."""

import random

import pytest

from app.games import new_game
from engines.core import IllegalMoveError, InvalidMoveError, OptionError
from engines.kulami.layout import Layout
from engines.kulami.scoring import chains, largest_area, panel_scores, score, surplus

# square-1, rows top (8) to bottom (1):
#   8 aaabbccd   5 iigjjhhk   2 mmloonnp
#   7 aaaeeccd   4 iiljjhhk   1 qqqoonnp
#   6 ffgeehhd   3 mmljjnnk
SQUARE = "aaabbccd/aaaeeccd/ffgeehhd/iigjjhhk/iiljjhhk/mmljjnnk/mmloonnp/qqqoonnp"
# The same panels with an empty column d between them: rows run across the gap.
GAPPED = "/".join(row[:3] + "." + row[3:] for row in SQUARE.split("/"))


def legal(board):
    return sorted(str(m) for m in board.legal_moves)


def play(board, *fields):
    for field in fields:
        board.push_text(field)
    return board


def test_the_first_marble_goes_anywhere():
    assert new_game("kulami", layout=SQUARE).legal_moves.count() == 64


def test_next_marble_in_the_row_or_column_but_not_on_the_same_panel():
    board = play(new_game("kulami", layout=SQUARE), "d4")  # panel j
    # Row 4 and column d, without e4, d5 and d3 (panel j).
    assert legal(board) == ["a4", "b4", "c4", "d1", "d2", "d6", "d7", "d8", "f4", "g4", "h4"]


def test_the_two_panels_last_used_are_off_limits():
    board = play(new_game("kulami", layout=SQUARE), "d4", "f4")  # panels j, h
    # Column f loses f6 and f5 (panel h); row 4 loses e4 (j) and g4 (h). Rows run
    # across the occupied d4.
    assert legal(board) == ["a4", "b4", "c4", "f1", "f2", "f3", "f7", "f8", "h4"]
    assert board.lights().off_limits == {"j", "h"}


def test_a_panel_used_before_that_is_free_again():
    board = play(new_game("kulami", layout=SQUARE), "d4", "d7", "d2")  # j, e, o
    # Panel j (d4's) is two marbles back: d5 and d3 are playable again.
    assert legal(board) == ["a2", "b2", "c2", "d3", "d5", "d8", "f2", "g2", "h2"]
    board.push_text("d5")


def test_rows_continue_across_gaps():
    board = play(new_game("kulami", layout=GAPPED), "a5")  # panel i, then the gap d
    row_5 = [f for f in legal(board) if f.endswith("5")]
    assert row_5 == ["c5", "e5", "f5", "g5", "h5", "i5"]
    with pytest.raises(InvalidMoveError, match="d5 is not a field of this layout"):
        board.parse_move("d5")


@pytest.mark.parametrize("moves, field, reason", [
    (["d4"], "d4", "d4 is already taken"),
    (["d4"], "e5", "e5 is not in the row or column of the last marble d4"),
    (["d4"], "e4", "e4 is on an off-limits panel"),
    (["d4", "f4"], "g4", "g4 is on an off-limits panel"),
])
def test_illegal_placements_are_refused_with_the_reason_and_change_nothing(moves, field, reason):
    board = play(new_game("kulami", layout=SQUARE), *moves)
    before = (board.ascii(), list(board.move_stack), board.turn)
    with pytest.raises(IllegalMoveError, match=reason):
        board.push_text(field)
    assert (board.ascii(), list(board.move_stack), board.turn) == before


@pytest.mark.parametrize("text", ["", "d", "k1", "a11", "a0", "4d", "d4x", "passe"])
def test_malformed_fields_are_refused(text):
    with pytest.raises(InvalidMoveError, match="is not a field"):
        new_game("kulami").parse_move(text)


def test_pass_is_no_field_but_the_pass_move_which_kulami_refuses():
    board = new_game("kulami")
    with pytest.raises(InvalidMoveError, match="is not a field"):
        board.parse_notation("pass")
    with pytest.raises(IllegalMoveError, match="kulami has no passing"):
        board.push_text("pass")


def random_game(seed, **options):
    rng = random.Random(seed)
    board = new_game("kulami", **options)
    while not board.is_game_over():
        board.push(rng.choice(list(board.legal_moves)))
    return board


def test_the_game_ends_when_all_56_marbles_are_placed():
    board = next(b for b in (random_game(s) for s in range(200)) if len(b.move_stack) == 56)
    assert board.outcome().reason == "all marbles placed"
    assert list(board.sensor_view().values()).count("b") == 28
    assert not board.legal_moves.any() and not board.legal_moves_for("b").any()
    # The rule itself leaves b nothing: all 28 marbles are placed.
    assert list(board.generate_legal_moves("b")) == []


def test_the_game_ends_when_the_player_to_move_has_no_legal_field():
    board = next(b for b in (random_game(s) for s in range(200)) if len(b.move_stack) < 56)
    outcome = board.outcome()
    assert outcome.reason == f"{board.turn} has no legal field"
    # No passing: the rule itself leaves nothing, and there were marbles left.
    board_rule = board.copy()
    assert list(board_rule.generate_legal_moves(board.turn)) == []
    with pytest.raises(IllegalMoveError, match="the game is over"):
        board.push(board.parse_move(board.holes[0]))


def test_push_and_pop_restore_everything():
    board = random_game(7)
    states = []
    replay = new_game("kulami")
    for move in board.move_stack:
        states.append((replay.ascii(), legal(replay), replay.turn, replay.lights()))
        replay.push(move)
    for expected in reversed(states):
        replay.pop()
        assert (replay.ascii(), legal(replay), replay.turn, replay.lights()) == expected


def test_copy_is_independent():
    board = play(new_game("kulami"), "d4")
    clone = board.copy()
    clone.push_text("d7")
    assert len(board.move_stack) == 1 and len(clone.move_stack) == 2


# --- scoring ---------------------------------------------------------------------------

def test_a_panel_goes_to_the_strict_majority_and_a_tie_scores_nothing():
    layout = Layout.parse(SQUARE)
    # Panel a (2x3, fields a8 b8 c8 a7 b7 c7): 2 red against 1 black.
    occupancy = {(0, 7): "b", (1, 7): "b", (2, 7): "w"}
    assert panel_scores(layout, occupancy) == {"b": 6, "w": 0}
    # Panel d (1x3, d8 d7 d6... column h): one each is a tie.
    occupancy.update({(7, 7): "b", (7, 6): "w"})
    assert panel_scores(layout, occupancy) == {"b": 6, "w": 0}
    occupancy[(7, 5)] = "w"
    assert panel_scores(layout, occupancy) == {"b": 6, "w": 3}


def block(x0, y0, w, h):
    return {(x, y) for x in range(x0, x0 + w) for y in range(y0, y0 + h)}


def test_level_1_sheet_figures_largest_areas_12_and_17_give_5_to_black():
    # Red (first, b) has a largest area of 12 fields, black (w) of 17; diagonal
    # neighbours do not join areas, so the red corner marble stays apart.
    red = block(0, 0, 4, 3) | {(4, 3)}
    black = block(5, 0, 5, 3) | {(5, 3), (6, 3)}
    occupancy = {f: "b" for f in red} | {f: "w" for f in black}
    assert largest_area(occupancy, "b") == 12
    assert largest_area(occupancy, "w") == 17
    assert surplus(12, 17) == {"b": 0, "w": 5}


def test_level_2_sheet_figures_chains_7_5_against_5_5_5_give_3_to_black():
    # Red: a chain of 7 on one diagonal, 5 on the other. Black: three chains of five
    # on diagonals clear of red and of each other.
    red = {(i, i) for i in range(7)} | {(9 - i, i) for i in range(5)}
    black = {(i, 9 - i) for i in range(5)} | {(11 + i, i) for i in range(5)} | \
        {(11 + i, 9 - i) for i in range(5)}
    occupancy = {f: "b" for f in red} | {f: "w" for f in black}
    assert sorted(chains(occupancy, "b")) == [5, 7]
    assert sorted(chains(occupancy, "w")) == [5, 5, 5]
    assert surplus(12, 15) == {"b": 0, "w": 3}


def test_levels_add_the_surplus_to_the_panel_score():
    layout = Layout.parse(SQUARE)
    # Red holds the top two rows (two straight rows of 8, no long diagonal); black a 2x2
    # block on panel o and one 5-chain on the diagonal a1..e5.
    red = block(0, 6, 8, 2)
    black = {(3, 1), (4, 1), (3, 0), (4, 0)} | {(i, i) for i in range(5)}
    occupancy = {f: "b" for f in red} | {f: "w" for f in black}
    panels = panel_scores(layout, occupancy)
    area_b, area_w = largest_area(occupancy, "b"), largest_area(occupancy, "w")
    assert (area_b, area_w) == (16, 4)
    assert score(layout, occupancy, level=0) == panels
    assert score(layout, occupancy, level=1) == {"b": panels["b"] + 12, "w": panels["w"]}
    # Chains on every line (the default): red's rows of 8 (twice) outweigh the diagonal.
    assert score(layout, occupancy, level=2) == {"b": panels["b"] + 12 + 11, "w": panels["w"]}
    assert score(layout, occupancy, level=2, chain_lines="all") == \
        score(layout, occupancy, level=2)
    # On the diagonals only, black's chain of five is the only one.
    assert score(layout, occupancy, level=2, chain_lines="diagonal") == \
        {"b": panels["b"] + 12, "w": panels["w"] + 5}


def test_level_2_counts_chains_on_every_straight_line_by_default():
    """The English sheet's chain example (red 1 x 7 and 1 x 5, black 3 x 5: 3 extra
    points for black) laid out with rows and columns, as "all same-coloured chains"
    reads: red a row of 7 and a column of 5, black a row, a column and a diagonal."""
    layout = Layout.parse(SQUARE)
    red = {(x, 7) for x in range(7)} | {(7, y) for y in range(5)}
    black = ({(x, 0) for x in range(5)} | {(0, y) for y in range(2, 7)}
             | {(i, i) for i in range(2, 7)})
    occupancy = {f: "b" for f in red} | {f: "w" for f in black}
    assert sorted(chains(occupancy, "b")) == [5, 7]
    assert sorted(chains(occupancy, "w")) == [5, 5, 5]
    level_1 = score(layout, occupancy, level=1)
    extra = {p: score(layout, occupancy, level=2)[p] - level_1[p] for p in "bw"}
    assert extra == {"b": 0, "w": 3}
    assert new_game("kulami").options["chain_lines"] == "all"
    board = new_game("kulami", layout=SQUARE, scoring=2)
    board.occupancy.update(occupancy)
    assert board.scores() == score(layout, occupancy, level=2, chain_lines="all")
    # The option keeps the diagonal reading: black's one diagonal chain of five.
    diagonal = {p: score(layout, occupancy, level=2, chain_lines="diagonal")[p] - level_1[p]
                for p in "bw"}
    assert diagonal == {"b": 0, "w": 5}
    assert chains(occupancy, "w", directions=((1, 1), (1, -1))) == [5]


def test_chains_shorter_than_five_score_nothing():
    assert chains({(i, i): "b" for i in range(4)}, "b") == []


@pytest.mark.parametrize("options, message", [
    ({"scoring": "3"}, "scoring must be 0, 1 or 2"),
    ({"scoring": "x"}, "scoring must be 0, 1 or 2, not 'x'"),
    ({"chain_lines": "zigzag"}, "chain_lines must be diagonal or all"),
    ({"colour": "red"}, "kulami has no option 'colour'"),
])
def test_bad_options_are_refused(options, message):
    with pytest.raises(OptionError, match=message):
        new_game("kulami", **options)
