"""A reply placed before the move ahead of it settled, on a colour-blind board, where the
two pieces could have gone down in either order: the readings' times tell which came
first once they are further apart than the debounce; closer, the board is not guessed."""

import random

import pytest

from app.games import new_game
from app.hardware.profile import load_profile
from app.sensing.events import Candidates, InSync, Moved, OutOfSync
from app.sensing.inference import Inference
from app.sensing.pipeline import DEBOUNCE_S, SETTLE_S, Pipeline
from app.sensing.reading import Reading
from app.sensing.script import Hand
from pipeline_driver import drive

KULAMI_HOLES = [f"{c}{r}" for r in range(1, 11) for c in "abcdefghij"]
CONHEX_HOLES = tuple(load_profile("conhex-sim").holes)
REPLY_AFTER = 0.3  # the reply goes down this long after the move: inside the settle time


def kulami():
    return new_game("kulami", layout="square-1")


def played(board):
    return [board.move_text(move) for move in board.move_stack]


def both_orders_legal(board, one, other):
    """Whether ``one`` then ``other`` and ``other`` then ``one`` are both legal."""
    for first, second in ((one, other), (other, one)):
        probe = board.copy()
        if probe.parse_move(first) not in probe.legal_moves:
            return False
        probe.push_text(first)
        if probe.parse_move(second) not in probe.legal_moves:
            return False
    return True


def place_two(board, holes, first, second, gap, *, seed=1, colours=(None, None)):
    """``first`` placed (bouncing) at 1.0 s, ``second`` ``gap`` seconds after the first's
    reading settled on its value; the pipeline is colour-blind. Returns the events."""
    h = Hand(holes, random.Random(seed), start=1.0)
    h.place(first, colours[0])
    h.t = h.readings[-1].t + gap
    h.place(second, colours[1])
    return drive(Pipeline(board), board, h.readings)


def test_the_settle_time_outlasts_the_reply():
    assert DEBOUNCE_S < REPLY_AFTER < SETTLE_S


@pytest.mark.parametrize("first, second", [("d4", "d7"), ("d7", "d4"), ("g8", "b8"),
                                           ("b8", "g8")])
def test_a_reply_within_the_settle_time_is_played_after_the_move_the_times_say(first,
                                                                               second):
    """Kulami: red's marble then black's, 0.3 s apart, where black's first and red's
    after would be legal as well. d7 then d4 and b8 then g8 put the reply on a hole
    that sorts before the move's."""
    board = kulami()
    assert both_orders_legal(board, first, second)
    events = place_two(board, KULAMI_HOLES, first, second, REPLY_AFTER)
    assert played(board) == [first, second]
    assert [e for e in events if isinstance(e, (OutOfSync, Candidates))] == []
    assert [type(e) for e in events] == [InSync, Moved, Moved]


@pytest.mark.parametrize("first, second", [("f6", "c2"), ("c2", "f6")])
def test_a_conhex_reply_within_the_settle_time_follows_the_move(first, second):
    """ConHex, colour-blind: the gems' colours are not seen, only their times."""
    board = new_game("conhex")
    assert both_orders_legal(board, first, second)
    place_two(board, CONHEX_HOLES, first, second, REPLY_AFTER, colours=("b", "w"))
    assert played(board) == [first, second]


def clean(first, second, gap):
    """Two placements without bounce, ``gap`` seconds apart (the times the readings get)."""
    return [Reading(1.0, first, True), Reading(round(1.0 + gap, 6), second, True)]


@pytest.mark.parametrize("gap", [0.0, DEBOUNCE_S / 2, DEBOUNCE_S - 0.01])
def test_readings_closer_than_the_debounce_are_not_ordered(gap):
    """Closer than the debounce the order of two readings is not to be trusted: with
    both orders legal the board is out of sync, as with no times at all."""
    board = kulami()
    events = drive(Pipeline(board), board, clean("d4", "d7", gap))
    assert played(board) == []
    assert events == [InSync(), OutOfSync(frozenset(), frozenset({"d4", "d7"}))]


@pytest.mark.parametrize("gap", [DEBOUNCE_S + 0.01, SETTLE_S - 0.01])
def test_readings_further_apart_than_the_debounce_are_ordered(gap):
    board = kulami()
    events = drive(Pipeline(board), board, clean("d7", "d4", gap))
    assert played(board) == ["d7", "d4"]
    assert events == [InSync(), Moved(board.parse_move("d7")), Moved(board.parse_move("d4"))]


def test_the_order_comes_from_the_times_not_from_which_hole_was_read_before():
    """d4 was played and taken back earlier, so its reading is older news than d7's;
    then red's d7 goes down and black's d4 0.3 s later: d7 first, as the times say."""
    board = kulami()
    h = Hand(KULAMI_HOLES, random.Random(3), start=1.0)
    h.place("d4")
    h.pause(2.0)
    h.lift("d4")
    h.pause(2.0)
    h.place("d7")
    h.t = h.readings[-1].t + REPLY_AFTER
    h.place("d4")
    events = drive(Pipeline(board), board, h.readings)
    assert [type(e).__name__ for e in events] == ["InSync", "Moved", "Takeback", "Moved",
                                                  "Moved"]
    assert played(board) == ["d7", "d4"]


def test_one_legal_order_is_played_whatever_the_times_say():
    """Kulami: red g5 read; black's g8 and red's a8 placed with a8 first by the clock:
    only g8 then a8 is legal (a8 is in neither g5's row nor its column), so that stands."""
    board = kulami()
    board.push_text("g5")
    events = drive(Pipeline(board), board, [Reading(0.0, "g5", True), Reading(2.0, "a8", True),
                                            Reading(2.0 + REPLY_AFTER, "g8", True)])
    assert played(board) == ["g5", "g8", "a8"]
    assert not [e for e in events if isinstance(e, (OutOfSync, Candidates))]


def test_inference_orders_two_moves_by_when_their_holes_were_read():
    board, seen = kulami(), {"d4": "", "d7": ""}
    inference = Inference(board)
    out = OutOfSync(frozenset(), frozenset({"d4", "d7"}))
    assert inference.judge(seen) == out
    assert inference.judge(seen, since={"d4": 1.0, "d7": 1.3}, apart=DEBOUNCE_S) == \
        Moved(board.parse_move("d4"))
    assert inference.judge(seen, since={"d4": 1.3, "d7": 1.0}, apart=DEBOUNCE_S) == \
        Moved(board.parse_move("d7"))
    assert inference.judge(seen, since={"d4": 1.0, "d7": 1.04}, apart=DEBOUNCE_S) == out
    assert inference.judge(seen, since={"d4": 1.0}, apart=DEBOUNCE_S) == out
    assert inference.judge(seen, since={"d7": 1.0, "d4": 0.9}, apart=0.2) == out
    assert inference.judge(seen, since={"d7": 1.0, "d4": 0.5}, apart=0.2) == \
        Moved(board.parse_move("d4"))
