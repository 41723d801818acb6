"""The sensing pipeline: debounce, settle and inference turn noisy readings into exactly
the moves played, and an unclear board never changes the game."""

import random
from collections.abc import Mapping

import pytest

from app.games import new_game
from app.sensing.debounce import Change, Debouncer
from app.sensing.events import (Candidates, InSync, Moved, OutOfSync, Quarantined,
                                Rejoined, Seen, Takeback, Waiting)
from app.sensing.inference import Inference
from app.sensing.pipeline import DEBOUNCE_S, SETTLE_S, Pipeline
from app.sensing.reading import Reading
from app.sensing.script import Hand
from engines.core import Board, Lights
from holes_in_a_row import HolesInARow
from pipeline_driver import drive

BOARD_HOLES = [f"{c}{r}" for r in range(1, 11) for c in "abcdefghij"]  # Kulami 10x10


def kulami(*moves):
    board = new_game("kulami", layout="square-1")
    for move in moves:
        board.push_text(move)
    return board


def hand(seed=1, start=1.0):
    return Hand(BOARD_HOLES, random.Random(seed), start=start)


def moves_of(events, board):
    return [board.move_text(e.move) for e in events if isinstance(e, Moved)]


# --- debounce -----------------------------------------------------------------------------

def test_a_reading_counts_once_it_has_held_for_the_debounce_time():
    debouncer = Debouncer(0.05)
    assert debouncer.feed("d4", "", 1.0) == []
    assert debouncer.pending and debouncer.deadline == pytest.approx(1.05)
    assert debouncer.tick(1.04) == []
    assert debouncer.tick(1.05) == [Change("d4", "", 1.0)]
    assert debouncer.state == {"d4": ""} and not debouncer.pending


def test_a_glitch_shorter_than_the_debounce_time_is_never_seen():
    debouncer = Debouncer(0.05)
    debouncer.feed("d4", "", 1.0)
    debouncer.feed("d4", None, 1.02)
    assert not debouncer.pending and debouncer.tick(5.0) == [] and debouncer.state == {}


def test_bounce_restarts_the_hold_from_the_last_flip():
    debouncer = Debouncer(0.05)
    for i, on in enumerate([True, False, True, False, True]):
        debouncer.feed("d4", "" if on else None, 1.0 + i * 0.005)
    assert debouncer.tick(1.069) == []
    assert debouncer.tick(1.07) == [Change("d4", "", 1.02)]


def test_a_colour_change_is_a_change():
    debouncer = Debouncer(0.0)
    debouncer.feed("d4", "b", 0.0)
    assert debouncer.feed("d4", "w", 1.0) == [Change("d4", "w", 1.0)]


def test_negative_times_are_refused():
    with pytest.raises(ValueError, match="debounce time must not be negative"):
        Debouncer(-1)
    with pytest.raises(ValueError, match="settle time must not be negative"):
        Pipeline(kulami(), settle=-0.1)


# --- inference on Kulami ------------------------------------------------------------------

def seen(*holes):
    return {hole: "" for hole in holes}


def test_one_marble_on_a_legal_field_is_that_move():
    board = kulami("d4")
    assert Inference(board).judge(seen("d4", "d1")) == Moved(board.parse_move("d1"))


def test_the_game_as_it_is_is_in_sync():
    assert Inference(kulami("d4")).judge(seen("d4")) == InSync()


def test_a_marble_on_an_illegal_field_is_out_of_sync():
    board = kulami("d4")
    assert "e5" not in board.lights().legal
    assert Inference(board).judge(seen("d4", "e5")) == OutOfSync(frozenset(), {"e5"})


def test_two_new_marbles_at_once_are_out_of_sync():
    assert Inference(kulami()).judge(seen("a1", "b1")) == OutOfSync(frozenset(), {"a1", "b1"})


def test_the_last_marble_lifted_is_a_takeback_once_it_was_seen_in_place():
    board = kulami("d4", "d1")
    assert Inference(board).judge(seen("d4"), may_take_back=True) == Takeback(
        board.parse_move("d1"))
    assert Inference(board).judge(seen("d4")) == OutOfSync({"d1"}, frozenset())


def test_an_earlier_marble_lifted_is_out_of_sync_with_a_hole_to_fill():
    assert Inference(kulami("d4", "d1")).judge(seen("d1")) == OutOfSync({"d4"}, frozenset())


def test_holes_outside_the_layout_are_ignored():
    assert Inference(kulami("d4")).judge(seen("d4", "j10", "i9")) == InSync()


# --- inference on any game: a tiny board of dominoes --------------------------------------

class Dominoes(HolesInARow, Board):
    """Four holes; a move covers two neighbours. One move also stacks an invisible piece
    on top, so the sensors cannot tell it from the plain move (as Akron's upper levels)."""

    game = "dominoes"
    MOVES = (("a1", "b1"), ("b1", "c1"), ("c1", "d1"), ("a1", "b1", "top"))

    def __init__(self):
        super().__init__()
        self.pieces = {}

    options = property(lambda self: {})
    holes = property(lambda self: ("a1", "b1", "c1", "d1"))

    def parse_move(self, text):
        return tuple(text.split(","))

    def move_text(self, move):
        return ",".join(move)

    def generate_legal_moves(self, player):
        return (m for m in self.MOVES if not set(m) & self.pieces.keys())

    def _apply(self, move):
        self.pieces.update(dict.fromkeys(move, self.turn))

    def _undo(self, move):
        for hole in move:
            del self.pieces[hole]

    def outcome(self):
        return None

    def scores(self):
        return {"b": 0, "w": 0}

    def sensor_view(self) -> Mapping[str, str]:
        return {h: p for h, p in self.pieces.items() if h in self.holes}

    def lights(self):
        return Lights.build(self.turn, legal={h for m in self.legal_moves for h in m})

    def ascii(self):
        return repr(self.pieces)


    @classmethod
    def from_options(cls, options):
        return cls()

    def to_record(self):
        return ";".join(map(self.move_text, self.move_stack))

    @classmethod
    def from_record(cls, text):
        board = cls()
        for move in filter(None, text.split(";")):
            board.push(board.parse_move(move))
        return board


def test_part_of_a_legal_move_waits():
    assert Inference(Dominoes()).judge(seen("c1")) == Waiting({"c1"}, frozenset())


def test_a_whole_move_is_that_move():
    assert Inference(Dominoes()).judge(seen("c1", "d1")) == Moved(("c1", "d1"))


def test_moves_the_sensors_cannot_tell_apart_are_candidates():
    assert Inference(Dominoes()).judge(seen("a1", "b1")) == Candidates(
        (("a1", "b1"), ("a1", "b1", "top")))


def test_colour_sensing_compares_colours_and_blindness_ignores_them():
    board = Dominoes()
    board.push(("c1", "d1"))  # b's domino
    wrong = {"c1": "w", "d1": "b"}
    assert Inference(board).judge(wrong) == InSync()
    assert Inference(board, colour_sensing=True).judge(wrong) == OutOfSync(frozenset(),
                                                                           {"c1"})
    right = {"c1": "b", "d1": "b", "a1": "w", "b1": "w"}
    assert Inference(board, colour_sensing=True).judge(right) == Candidates(
        (("a1", "b1"), ("a1", "b1", "top")))


def test_a_piece_of_the_wrong_colour_is_no_move():
    board = Dominoes()
    assert Inference(board, colour_sensing=True).judge({"c1": "w", "d1": "w"}) == \
        OutOfSync(frozenset(), {"c1", "d1"})


def test_a_domino_going_down_square_by_square_through_the_pipeline():
    board = Dominoes()
    pipeline = Pipeline(board)
    touches = [Reading(1.0, "c1", True), Reading(2.0, "d1", True)]
    events = drive(pipeline, board, touches)
    assert events == [InSync(), Waiting({"c1"}, frozenset()), Moved(("c1", "d1"))]


# --- the pipeline on Kulami: what people really do ----------------------------------------

def test_a_bouncing_placement_is_one_move_and_nothing_else():
    board, h = kulami(), hand()
    h.place("d4")
    events = drive(Pipeline(board), board, h.readings)
    assert events == [InSync(), Moved(board.parse_move("d4"))]


def test_the_move_comes_one_settle_time_after_the_last_bounce():
    board, h = kulami(), hand(start=0.0)
    h.place("d4")
    pipeline = Pipeline(board)
    for touch in h.readings:
        assert pipeline.feed(touch.hole, touch.on, touch.t) == []
    last = h.readings[-1].t
    assert pipeline.deadline == pytest.approx(last + DEBOUNCE_S)
    assert pipeline.tick(last + DEBOUNCE_S - 0.001) == []
    # lit as soon as the reading has held: the hand sees it was noticed
    assert pipeline.tick(last + DEBOUNCE_S) == [Seen(frozenset({"d4"}))]
    assert pipeline.seen == {"d4"}
    assert pipeline.tick(last + SETTLE_S - 0.001) == []
    assert pipeline.deadline == pytest.approx(last + SETTLE_S)
    assert pipeline.tick(last + SETTLE_S) == [Moved(board.parse_move("d4"))]
    assert pipeline.deadline is None


def test_flicker_alone_never_makes_a_move():
    board, h = kulami(), hand()
    for hole in ("d4", "e5", "a1"):
        h.flicker(hole)
    assert drive(Pipeline(board), board, h.readings) == [InSync()]
    assert board.move_stack == []


def test_a_marble_rolling_over_a_hole_is_the_move_where_it_stops():
    board, h = kulami(), hand()
    h.roll("c4", "d4")
    events = drive(Pipeline(board), board, h.readings)
    assert moves_of(events, board) == ["d4"]
    assert [e for e in events if not isinstance(e, (InSync, Moved))] == []


def test_a_hovering_hand_then_a_placement_is_one_move():
    board, h = kulami(), hand()
    h.hover(["c3", "d3", "e3"])
    h.place("d4")
    assert moves_of(drive(Pipeline(board), board, h.readings), board) == ["d4"]


def test_a_slow_hesitant_placement_is_one_move():
    board, h = kulami(), hand()
    for seed in range(5):
        h.rng = random.Random(seed)
        h.slow_place("d4" if seed % 2 == 0 else "d1")
        h.pause(2.0)
        h.lift("d4" if seed % 2 == 0 else "d1")
        h.pause(2.0)
    h.slow_place("d4")
    events = drive(Pipeline(board), board, h.readings)
    takebacks = [e for e in events if isinstance(e, Takeback)]
    assert moves_of(events, board) == ["d4", "d1", "d4", "d1", "d4", "d4"]
    assert len(takebacks) == 5 and [str(m) for m in board.move_stack] == ["d4"]


def test_a_stuck_sensor_is_quarantined_and_the_move_beside_it_counts():
    """e4 reads a marble in d4's panel, where none can go: alone it is an illegal
    placement to point at; once the board also shows a move, e4 is taken as stuck and
    judged as empty, the move counts, and e4 rejoins when it reads empty again."""
    h = hand(start=0.0)
    h.place("d4")
    h.pause(2.0)
    h.place("e4")  # d4's panel: not a legal field, a sensor stuck on
    h.pause(2.0)
    h.place("d1")  # the real move, while e4 still reads occupied
    h.pause(2.0)
    h.lift("e4")  # the sensor frees itself
    board = kulami()
    board.push_text("d4")
    events = drive(Pipeline(board), board, h.readings)
    assert events == [InSync(), OutOfSync(frozenset(), {"e4"}), Quarantined("e4", "stuck"),
                      Moved(board.parse_move("d1")), Rejoined("e4")]
    assert [str(m) for m in board.move_stack] == ["d4", "d1"]


def test_a_stuck_sensor_outside_the_layout_is_ignored():
    board, h = kulami(), hand()
    h.place("j10")
    h.pause(1.0)
    h.place("d4")
    events = drive(Pipeline(board), board, h.readings)
    assert events == [InSync(), Moved(board.parse_move("d4"))]


def test_lifting_the_last_marble_takes_it_back_and_placing_again_replays_the_turn():
    board, h = kulami(), hand()
    h.place("d4")
    h.pause(2.0)
    h.lift("d4")
    h.pause(2.0)
    h.place("e5")
    events = drive(Pipeline(board), board, h.readings)
    assert [type(e) for e in events] == [InSync, Moved, Takeback, Moved]
    assert [str(m) for m in board.move_stack] == ["e5"] and board.turn == "w"


def test_the_pipeline_reports_moves_but_never_pushes_them():
    board = kulami()
    pipeline = Pipeline(board)
    pipeline.feed("d4", True, 0.0)
    assert pipeline.tick(1.0) == [Seen(frozenset({"d4"})), Moved(board.parse_move("d4"))]
    assert board.move_stack == [] and pipeline.occupancy == {"d4": ""}
    assert pipeline.tick(2.0) == []  # said once, not every scan


def test_a_move_pushed_by_the_session_asks_for_its_marble_until_it_is_placed():
    board = kulami()
    pipeline = Pipeline(board)
    assert pipeline.tick(0.0) == [] and pipeline.tick(1.0) == [InSync()]
    board.push_text("d4")  # the engine's move
    assert pipeline.resync(board) == [OutOfSync({"d4"}, frozenset())]
    pipeline.feed("d4", True, 2.0)
    assert pipeline.tick(3.0) == [InSync()]
    assert pipeline.resync(board) == []


def test_a_resync_before_the_first_reading_waits_for_the_board_to_settle():
    board = kulami("d4")
    pipeline = Pipeline(board)
    assert pipeline.resync(board) == []
    pipeline.tick(100.0)
    assert pipeline.tick(100.0 + SETTLE_S) == [OutOfSync({"d4"}, frozenset())]


def test_readings_after_the_game_is_over_never_change_it():
    board = kulami()
    while not board.is_game_over():
        board.push(board.legal_moves[0])
    pipeline = Pipeline(board)
    for hole in board.sensor_view():
        pipeline.feed(hole, True, 0.0)
    pipeline.feed("a1" if "a1" not in board.sensor_view() else "h8", True, 0.0)
    before = list(board.move_stack)
    events = pipeline.tick(5.0)
    assert len(events) == 2 and isinstance(events[1], OutOfSync)
    assert board.move_stack == before


def test_colour_readings_reach_the_inference_only_when_sensed():
    board = Dominoes()
    blind, sensing = Pipeline(board), Pipeline(board, colour_sensing=True)
    for pipeline in (blind, sensing):
        pipeline.feed("c1", True, 0.0, colour="w")
        pipeline.feed("d1", True, 0.0, colour="w")
    new = Seen(frozenset({"c1", "d1"}))
    assert blind.tick(1.0) == [new, Moved(("c1", "d1"))]
    assert blind.occupancy == {"c1": "", "d1": ""}
    assert sensing.tick(1.0) == [new, OutOfSync(frozenset(), {"c1", "d1"})]
    assert sensing.occupancy == {"c1": "w", "d1": "w"}


def test_the_clock_is_whatever_the_caller_says():
    board, h = kulami(), hand(start=1e6)
    h.place("d4")
    pipeline = Pipeline(board)
    events = []
    for touch in h.readings:
        events += pipeline.feed(touch.hole, touch.on, touch.t)
    events += pipeline.tick(h.readings[-1].t + SETTLE_S)
    assert events == [Seen(frozenset({"d4"})), Moved(board.parse_move("d4"))]


# --- timing edges --------------------------------------------------------------------------

def test_a_colour_misread_corrected_within_the_debounce_is_the_right_move():
    """A hall sensor reads the other polarity for 20 ms as the magnet swings into place:
    only the colour that held for the debounce time counts."""
    board = new_game("conhex")
    pipeline = Pipeline(board, colour_sensing=True)
    assert pipeline.tick(0.0) == [] and pipeline.tick(1.0) == [InSync()]
    pipeline.feed("f6", True, 2.0, colour="w")  # not red's colour: no move for red
    corrected = 2.0 + DEBOUNCE_S - 0.03
    pipeline.feed("f6", True, corrected, colour="b")
    assert pipeline.tick(corrected + SETTLE_S - 0.001) == [Seen(frozenset({"f6"}))]
    assert pipeline.tick(corrected + SETTLE_S) == [Moved(board.parse_move("f6"))]
    assert pipeline.occupancy == {"f6": "b"}


def test_a_colour_misread_that_holds_is_no_move():
    board = new_game("conhex")
    pipeline = Pipeline(board, colour_sensing=True)
    pipeline.tick(0.0)
    pipeline.feed("f6", True, 2.0, colour="w")
    assert pipeline.tick(2.0 + DEBOUNCE_S + SETTLE_S) == [Seen(frozenset({"f6"})),
                                                          OutOfSync(frozenset(), {"f6"})]


@pytest.mark.parametrize("away, taken_back", [(SETTLE_S - 0.02, False),
                                              (SETTLE_S + 0.05, True)])
def test_a_marble_lifted_and_put_back_within_the_settle_time_is_no_takeback(away,
                                                                           taken_back):
    """Lifted for just under the settle time, the board never settled without it; just
    over, it did, and that is a takeback."""
    board = kulami()
    pipeline = Pipeline(board)
    pipeline.tick(0.0)
    pipeline.feed("d4", True, 1.0)
    assert pipeline.tick(2.0) == [Seen(frozenset({"d4"})), Moved(board.parse_move("d4"))]
    board.push_text("d4")
    assert pipeline.resync(board) == []
    pipeline.feed("d4", False, 3.0)
    events = []
    t = 3.0
    while t < 3.0 + away:  # the session ticks the pipeline every scan
        events += pipeline.tick(t)
        t = round(t + 0.01, 6)
    events += pipeline.feed("d4", True, 3.0 + away)
    for step in range(300):
        events += pipeline.tick(3.0 + away + step * 0.01)
    # (the takeback is not applied here: the marble put back then matches the game again)
    assert events == ([Takeback(board.parse_move("d4")), InSync()] if taken_back else [])
