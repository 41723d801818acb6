"""Akron's rules, clause by clause from the rule sheet, each built as a position.

Positions are set up ball by ball (``AkronBoard.from_balls``) with the points named as
the notation names them: level digit, column, row on the doubled grid (``1c3`` a hole,
``2d4`` the ball resting on ``1c3``, ``1e3``, ``1c5`` and ``1e5``).
"""

import random

import pytest

from engines.akron.board import SUPPLY, AkronBoard, Movement, Placement
from engines.akron.geometry import INDEX
from engines.core import PASS
from engines.errors import EngineError, IllegalMoveError, InvalidMoveError
from engines.players import GREEDY, choose_move


def balls(b: str = "", w: str = "") -> dict[str, str]:
    """A piece map from two lists of point names."""
    return {**dict.fromkeys(b.split(), "b"), **dict.fromkeys(w.split(), "w")}


def targets(board: AkronBoard, source: str) -> set[str]:
    return {str(move).split("-")[1] for move in board.moves_from(source)}


COLUMN_G = "1g1 1g3 1g5 1g7 1g9 1g11 1g13 1g15"


# --- the board, the supply, the first move --------------------------------------------
def test_white_moves_first_and_adds_a_ball_from_its_supply_to_an_empty_hole():
    board = AkronBoard()
    assert board.turn == "b" and board.supply("b") == board.supply("w") == SUPPLY == 32
    assert board.legal_moves.count() == 64  # every hole, and nothing to move yet
    board.push_text("1e5")
    assert board.ball_at("1e5") == "b" and board.supply("b") == 31 and board.turn == "w"
    assert board.sensor_view() == {"1e5": "b"}


def test_a_ball_from_the_supply_goes_into_a_hole_only():
    board = AkronBoard.from_balls(balls(b="1c3 1e3 1c5 1e5"), turn="b")
    assert "2d4" in board.playable()
    with pytest.raises(InvalidMoveError, match="2d4 is above the board"):
        board.parse_move("2d4")
    with pytest.raises(IllegalMoveError, match="1c3 already holds a ball"):
        board.push_text("1c3")


def test_with_the_supply_used_up_only_moves_are_left():
    board = AkronBoard.from_balls(balls(b="1c3 1e3"), turn="b", supply={"b": 0, "w": 30})
    moves = list(board.legal_moves)
    assert moves and all(isinstance(move, Movement) for move in moves)
    with pytest.raises(IllegalMoveError, match="b has no balls left to add"):
        board.push_text("1a1")


# --- playable points and touching -----------------------------------------------------
def test_a_point_above_the_board_is_playable_on_four_balls_of_any_colours():
    board = AkronBoard.from_balls(balls(b="1c3 1e3", w="1c5"), turn="w")
    assert "2d4" not in board.playable()
    board.push_text("1e5")
    assert "2d4" in board.playable()
    assert {p for p in board.playable() if not p.startswith("1")} == {"2d4"}


def test_a_ball_touches_twelve_neighbours_and_never_a_diagonal_one_on_its_level():
    holes = [f"1{c}{r}" for c in "cegik" for r in (3, 5, 7, 9, 11)]
    level1 = [f"2{c}{r}" for c in "dfhj" for r in (4, 6, 8, 10)]
    board = AkronBoard.from_balls({**dict.fromkeys(holes[:20] + level1[:12], "b"),
                                   **dict.fromkeys(holes[20:] + level1[12:] + ["3e5"], "w")})
    beside = {"2d6", "2h6", "2f4", "2f8"}
    below = {"1g5", "1e7", "1g7"}  # and 1e5, covered by 3e5: it touches nothing
    above = {"3e5"}
    for other in beside | below | above:
        assert board.touching("2f6", other), other
    assert not board.touching("2f6", "1e5") and "1e5" in board.covered()
    assert not board.touching("2f6", "2d4")  # diagonal on one level
    assert not board.touching("2f6", "2h8")
    assert not board.touching("1g7", "3g7")  # straight two levels above: not there anyway


def test_a_covered_ball_connects_nothing():
    holes = "1e5 1g5 1i5 1e7 1g7 1i7 1e9 1g9 1i9"
    board = AkronBoard.from_balls(balls(b=holes + " 2f6 2h6 2f8", w="2h8 3g7"))
    assert board.covered() == {"1g7"}
    assert board.visible_group("1g7") == frozenset()
    assert not board.touching("1g7", "1g5") and not board.touching("1g7", "2f6")
    assert "1g7" not in board.visible_group("1g5")


def test_an_overpass_cuts_a_contact_beneath_it_whatever_the_colours():
    board = AkronBoard.from_balls(balls(b="1c3 1e3 1c5 1e5 1c1 1e1", w="2d4"))
    assert board.touching("1c3", "1e3")  # only one of 2d2 and 2d4 is there
    board = AkronBoard.from_balls(balls(b="1c3 1e3 1c5 1e5 1c1 1e1 2d2", w="2d4"))
    assert not board.touching("1c3", "1e3")  # both bridges: cut
    assert board.touching("1c3", "1c5")  # 2b4 is not there


def test_a_contact_along_the_edge_has_one_bridge_and_is_never_cut():
    board = AkronBoard.from_balls(balls(b="1a1 1a3 1c1", w="1c3 2b2"))
    assert board.touching("1a1", "1a3") and board.touching("1a1", "1c1")
    # White's column a under a red wall resting on it and on red's column c.
    column_a = [f"1a{r}" for r in range(1, 16, 2)]
    red = [f"1c{r}" for r in range(1, 16, 2)] + [f"2b{r}" for r in range(2, 15, 2)]
    board = AkronBoard.from_balls({**dict.fromkeys(column_a, "b"), **dict.fromkeys(red, "w")})
    assert board.winning_chain("b") == tuple(column_a)


# --- movements ----------------------------------------------------------------------
def test_the_legal_moves_of_a_ball_touch_its_group_not_itself():
    board = AkronBoard.from_balls(balls(b="1c3 1e3 1g3", w="1o15"))
    assert targets(board, "1c3") == {"1e1", "1e5", "1g1", "1g5", "1i3"}
    # 1a3, 1c1 and 1c5 touch only the moving ball itself, which leaves.
    assert Movement(INDEX["1c3"], INDEX["1a3"]) not in board.legal_moves
    assert targets(board, "1o15") == set()  # red's lone ball, and it is white's turn


def test_a_lone_ball_has_nowhere_to_go():
    board = AkronBoard.from_balls(balls(b="1e5", w="1a1"))
    assert targets(board, "1e5") == set()
    with pytest.raises(IllegalMoveError, match="1e7 touches no ball visibly connected "
                                                "to 1e5"):
        board.push_text("1e5-1e7")


def test_a_ball_moves_up_onto_a_platform_its_group_touches():
    board = AkronBoard.from_balls(balls(b="1a3 1c3 1e3 1c5 1i9", w="1e5"))
    assert "2d4" in board.playable()
    assert "2d4" in targets(board, "1a3")
    assert targets(board, "1i9") == set()  # 1i9 touches nothing of its colour
    assert "2d4" not in targets(board, "1c3")  # it would rest on 1c3's own place


def test_a_ball_with_one_ball_on_it_moves_and_that_ball_drops_into_its_place():
    board = AkronBoard.from_balls(balls(b="1c3 1e3 1c5 1e5 1g3 1g5", w="2d4"))
    move = board.parse_move("1c3-1i3")
    assert board.drops(move) == [("2d4", "1c3")]
    board.push(move)
    assert board.ball_at("1c3") == "w" and board.ball_at("2d4") is None
    assert board.ball_at("1i3") == "b"
    assert board.sensor_view()["1c3"] == "w"  # a colour-sensing hole sees the change
    board.pop()
    assert board.balls() == balls(b="1c3 1e3 1c5 1e5 1g3 1g5", w="2d4")


def test_a_chain_of_drops_falls_one_step_each_along_a_diagonal():
    holes = "1c3 1e3 1g3 1c5 1e5 1g5 1c7 1e7 1g7"
    board = AkronBoard.from_balls(balls(b=holes + " 2f4 2d6", w="2d4 2f6 3e5"))
    move = board.parse_move("1c3-1i3")
    assert board.drops(move) == [("2d4", "1c3"), ("3e5", "2d4")]
    board.push(move)
    assert (board.ball_at("1c3"), board.ball_at("2d4"), board.ball_at("3e5")) == ("w", "w",
                                                                                   None)
    assert board.holes_of(board.move_stack[-1]) >= {"1c3", "1i3"}


def test_pinned_balls_cannot_move():
    holes = "1c3 1e3 1g3 1c5 1e5 1g5 1c7 1e7 1g7"
    board = AkronBoard.from_balls(balls(b=holes + " 2f4 2d6", w="2d4 2f6 3e5"))
    # Two or four balls rest on the middle of each side and on the centre; one on each
    # corner hole and on each ball of level 2, which may move.
    assert board.pinned() == {"1e3", "1c5", "1e5", "1g5", "1e7"}
    assert "1e5" in board.covered()  # a covered ball is always pinned too
    with pytest.raises(IllegalMoveError, match="pinned: two or more balls rest on it"):
        board.push_text("1e3-1i3")
    assert targets(board, "1e3") == set()


def test_no_ball_lands_on_a_ball_that_just_dropped_so_these_balls_have_no_moves():
    # White 1c3 and 1e3 carry red 2d4; red walls them in. Each white ball could go to
    # 2d2 (playable, touching the other) but 2d2 rests on the moving ball's own place,
    # where 2d4 drops: moving there would just swap places with the dropped ball.
    board = AkronBoard.from_balls(balls(b="1c3 1e3", w="1c5 1e5 2d4 1e1 1g3 1c1 1a3"))
    assert "2d2" in board.playable()
    assert targets(board, "1c3") == set() and targets(board, "1e3") == set()
    with pytest.raises(IllegalMoveError, match="rests on 1c3's old place or on a ball "
                                                "that drops"):
        board.push_text("1c3-2d2")


def test_balls_that_drop_do_not_count_for_the_connection_of_the_move():
    # White 1c3 carries white 2d4; 2d6 touches 2d4 and is playable, but the path from
    # 1c3 to it runs through 2d4, which drops in this very move.
    board = AkronBoard.from_balls(balls(b="1c3 2d4", w="1e3 1c5 1e5 1c7 1e7"))
    assert board.touching("1c3", "2d4") and "2d6" in board.playable()
    assert targets(board, "1c3") == set()


def test_a_multi_step_cut_ends_with_the_ball_resting_on_the_ball_it_made_drop():
    # White's 2d4 links white 2f4 and 2d6 (diagonal on one level: they do not touch,
    # and 1e5 under both is red). Red's O on 1c3 carries 2d4.
    board = AkronBoard.from_balls(balls(b="2d4 2f4 2d6 1g3 1g5 1c7 1e7 1o15",
                                        w="1c3 1e3 1c5 1e5"), turn="w")
    assert len(board.visible_group("2f4")) == 7  # 2d4 joins white's two halves
    assert "2d4" not in targets(board, "1c3")  # not playable: 2d4 is where it stands
    board.push_text("1c3-1e1")  # 2d4 drops into 1c3: white falls apart
    assert board.ball_at("1c3") == "b" and board.ball_at("2d4") is None
    assert board.visible_group("2f4") == {"2f4", "1g3", "1g5"}
    assert board.visible_group("1c3") == {"1c3"}
    board.push_text("1a1")
    board.push_text("1e1-2d4")  # a move later, O rests on the ball it made drop
    assert board.ball_at("2d4") == "w" and board.ball_at("1c3") == "b"
    assert board.visible_group("2d6") == {"2d6", "1c7", "1e7"}


# --- the win --------------------------------------------------------------------------
RED_ROW = "1a7 1c7 1e7 1e9 1i7 1i9 1k7 1m7 1o7 2f8 1k9"


def test_overpasses_cut_underpasses_and_the_win_comes_at_the_start_of_a_turn():
    board = AkronBoard.from_balls(balls(b=COLUMN_G, w=RED_ROW), turn="w")
    assert board.winning_chain("b") and not board.winning_chain("w")
    board.push_text("1k9-2h8")  # the second bridge over 1g7-1g9
    assert not board.touching("1g7", "1g9")
    assert not board.winning_chain("b") and board.winning_chain("w")
    assert board.outcome() is None  # white is to move; red's chain must last a turn
    board.push_text("1a15")
    outcome = board.outcome()
    assert outcome.winner == "w" and outcome.result() == "W+"
    assert set(board.winning_chain("w")) >= {"2f8", "2h8"}
    assert board.lights().won >= {"1e7", "1g7", "1e9", "1g9", "1i7", "1i9"}
    assert not list(board.legal_moves)


def test_a_connection_at_the_end_of_a_move_but_not_at_the_start_of_the_next_turn_wins_nothing():
    board = AkronBoard.from_balls(balls(b=COLUMN_G.replace(" 1g15", ""), w=RED_ROW),
                                  turn="b")
    board.push_text("1g15")
    assert board.winning_chain("b") and board.outcome() is None  # red to move
    board.push_text("1k9-2h8")
    assert not board.winning_chain("b") and board.outcome() is None


def test_a_tactical_drop_cuts_the_connection_it_stood_on():
    # Red joins west and east through 2d4, which rests on white 1c3: moving 1c3 drops
    # 2d4 into the hole, where it joins nothing.
    red = "1a7 1c7 2d6 2d4 2f4 1g3 1i3 1k3 1m3 1o3"
    white = "1c3 1e3 1c5 1e5 1e7 1g5"
    board = AkronBoard.from_balls(balls(b=white, w=red), turn="b")
    assert board.winning_chain("w")
    board.push_text("1c3-1e1")
    assert board.ball_at("1c3") == "w" and not board.winning_chain("w")
    board.push_text("1o15")
    assert board.outcome() is None


def test_a_corner_hole_counts_for_both_its_sides_and_only_holes_touch_a_side():
    board = AkronBoard.from_balls(balls(w="1a1 1c1 1e1 1g1 1i1 1k1 1m1 1o1"), turn="w")
    assert board.outcome().winner == "w"
    assert board.winning_chain("w")[0] == "1a1" and board.winning_chain("w")[-1] == "1o1"
    board = AkronBoard.from_balls(balls(w="1a1 1c1 1e1 1g1 1i1 1k1 1m1"), turn="w")
    assert board.outcome() is None


# --- passing and the draw -------------------------------------------------------------
def test_a_player_passes_only_with_no_legal_action_and_two_passes_draw():
    board = AkronBoard.from_balls({}, turn="b", supply={"b": 0, "w": 0})
    assert list(board.legal_moves) == [PASS]
    board.push(PASS)
    board.push(PASS)
    outcome = board.outcome()
    assert outcome.winner is None and outcome.result() == "0"
    board = AkronBoard()
    with pytest.raises(IllegalMoveError, match="may pass only with no legal action"):
        board.push(PASS)


def test_a_pass_between_moves_does_not_end_the_game():
    board = AkronBoard.from_balls(balls(w="1c3"), turn="b", supply={"b": 0, "w": 31})
    board.push(PASS)
    board.push_text("1e3")
    assert board.outcome() is None and board.turn == "b"


# --- notation and setting up ----------------------------------------------------------
@pytest.mark.parametrize("text, message", [
    ("1b2", "'1b2' is not on level 1: a level-1 point has an odd column and row number "
            "from 1 to 15"),
    ("2a1", "not on level 2"),
    ("9a1", "off the pyramid"),
    ("1p1", "is not a point"),
    ("1c3-", "is not a point"),
    ("1c3-2d4-3e5", "is not a move"),
    ("1c3-1c3", "moves a ball to where it is"),
    ("8h9", "not on level 8"),
])
def test_bad_move_text_is_one_clear_error(text, message):
    with pytest.raises(InvalidMoveError, match=message):
        AkronBoard().parse_move(text)


def test_moves_round_trip_through_text():
    board = AkronBoard()
    for text in ("1a1", "1o15", "1c3-2d4", "2b2-1a1", "8h8-1a1"):
        move = board.parse_move(text)
        assert str(move) == text and board.parse_move(str(move)) == move
    assert board.parse_move("  1C3-2D4 ") == Movement(INDEX["1c3"], INDEX["2d4"])
    assert board.parse_move("1c3") == Placement(INDEX["1c3"])


def test_a_ball_in_the_air_or_too_many_balls_is_refused_when_setting_up():
    with pytest.raises(EngineError, match="2d4 does not rest on four balls"):
        AkronBoard.from_balls(balls(b="1c3 1e3 2d4"))
    with pytest.raises(EngineError, match="32 in all at most"):
        AkronBoard.from_balls(balls(b="1c3"), supply={"b": 32, "w": 32})
    with pytest.raises(EngineError, match="not a point"):
        AkronBoard.from_balls({"1z1": "b"})


# --- a drop never helps the connection ------------------------------------------------
#: The position of the issue: white 1i5, 1k5 and 1k3; red 2j4 rests on 1i5 and with red
#: 2l4 bridges over the contact 1k3-1k5 (red 1i3, 1m3 and 1m5 hold them up).
DROP_CUTS = balls(b="1i5 1k5 1k3", w="1i3 1m3 1m5 2j4 2l4")


def test_a_ball_that_drops_still_cuts_the_contact_it_bridges_for_that_move():
    board = AkronBoard.from_balls(DROP_CUTS, turn="b")
    assert not board.touching("1k3", "1k5")
    assert board.visible_group("1i5") == {"1i5", "1k5"}
    # Moving 1i5 drops 2j4 into its place, which would open 1k3-1k5; but before the move
    # 1k3 is cut off from 1i5's group, so 1k1 (touching only 1k3) is out of reach.
    move = board.parse_move("1i5-1k1")
    assert board.drops(move) == [("2j4", "1i5")]
    assert move not in board.legal_moves and move not in list(board.legal_moves)
    with pytest.raises(IllegalMoveError, match="1k1 touches no ball visibly connected"):
        board.push(move)
    # 1k7 touches 1k5, which the group holds without any drop's help: still legal.
    assert targets(board, "1i5") == {"1k7"}
    board.push_text("1i5-1k7")
    assert board.ball_at("1i5") == "w" and board.ball_at("2j4") is None
    assert board.touching("1k3", "1k5")  # after the move the contact is open again


def test_a_ball_that_drops_still_covers_the_ball_beneath_it_for_that_move():
    # White 2d4 carries white 3e5, which covers white 1e5. White 2f6 is reached from 2d4
    # only through 3e5 (which drops) or 1e5 (covered by it), so 2h6 beside 2f6 is out of
    # reach; with 3e5 gone 1e5 would join 2d4 to 2f6.
    board = AkronBoard.from_balls(balls(b="1c3 1e5 2d4 2f6 3e5",
                                        w="1e3 1g3 1c5 1g5 1c7 1e7 1g7 1i5 1i7 2f4 2d6"))
    assert "1e5" in board.covered() and "2h6" in board.playable()
    assert board.drops(board.parse_move("2d4-2h6")) == [("3e5", "2d4")]
    assert targets(board, "2d4") == {"1a3", "1c1"}  # beside 1c3, the rest of its group


def reference_targets(board: AkronBoard, source: str) -> set[str]:
    """The destinations of the ball at ``source`` read off the rule sheet with the
    board's public views only: its group is found by walking visible contacts of the
    position before the move (``touching``, in which the dropping balls still cover and
    cut) through own balls other than the dropping ones."""
    def place(name):
        return int(name[0]) - 1, ord(name[1]) - ord("a"), int(name[2:]) - 1

    def touch(a, b):
        (la, xa, ya), (lb, xb, yb) = place(a), place(b)
        if la == lb:
            return sorted((abs(xa - xb), abs(ya - yb))) == [0, 2]
        return abs(la - lb) == 1 and abs(xa - xb) == abs(ya - yb) == 1

    def supporters(name):
        level, x, y = place(name)
        return {(level - 1, x + dx, y + dy) for dx in (-1, 1) for dy in (-1, 1)}

    player = board.ball_at(source)
    if source in board.pinned():
        return set()
    # The drops follow from where the ball leaves; the target here is any other point.
    dropping = {above for above, _ in board.drops(Movement(INDEX[source], INDEX["8h8"]))}
    own = {name for name, owner in board.balls().items()
           if owner == player and name not in dropping}
    group, frontier = {source}, [source]
    while frontier:
        ball = frontier.pop()
        for other in own - group:
            if board.touching(ball, other):
                group.add(other)
                frontier.append(other)
    group.discard(source)
    barred = {place(source)} | {place(above) for above in dropping}
    return {point for point in board.playable()
            if any(touch(point, ball) for ball in group)
            and not supporters(point) & barred}


@pytest.mark.parametrize("seed", range(8))
def test_every_movement_listed_is_the_rule_sheets_over_random_games(seed):
    """An independent reading of the movement rule, position by position: the engine's
    destinations of every ball are exactly the sheet's (a drop never helps)."""
    board, rng = AkronBoard(), random.Random(seed)
    while not board.is_game_over() and len(board.move_stack) < 110:
        if len(board.move_stack) >= 50:
            for name, owner in board.balls().items():
                if owner == board.turn:
                    assert targets(board, name) == reference_targets(board, name), (
                        name, [str(m) for m in board.move_stack])
        board.push(rng.choice(list(board.legal_moves)))


@pytest.mark.parametrize("seed", range(2))
def test_the_win_read_from_the_grid_layout_is_the_chain_the_board_draws(seed):
    """The board checks the win at every node of the search with one closure of bit
    shifts (engines/akron/distance.py); the chain it draws at the end comes from its
    visible groups: over games of the greedy level the two agree for both players, to
    the win."""
    board, rng = AkronBoard(), random.Random(seed)
    joined = 0
    while len(board.move_stack) < 200:
        for player in "bw":
            joins = board.position.layout.joins(player)
            assert joins == bool(board.winning_chain(player)), [str(m) for m in board.move_stack]
            joined += joins
        if board.is_game_over():
            break
        board.push(choose_move(board, GREEDY, rng))
    assert joined
