"""Akron on the table: sensors under the 64 holes only, through the board's own session.

What a level-0 sensor sees decides what is played by itself; a lifted ball lights where
it may go; a reading several moves fit, or a move above the board that changes nothing
a sensor sees, is confirmed by a person; a drop is lit with the move.
"""

import random

import pytest

from app.sensing.events import Candidates
from app.table.session import LIT_CANDIDATES, Session, State
from engines.akron.board import AkronBoard, Movement
from engines.akron.geometry import LEVEL

SCAN = 0.01


class Table:
    """A session fed hole by hole, ticked every scan as the table loop does."""

    def __init__(self, board, *, colour_sensing=True, seats=None):
        self.session = Session(board, seats=seats or {"b": "person", "w": "person"},
                               seed=1, colour_sensing=colour_sensing)
        self.t = 0.0
        self.events = []
        for hole, colour in board.sensor_view().items():
            self.events += self.session.on_reading(hole, True, self.t, colour)
        self.wait()

    @property
    def board(self):
        return self.session.board

    def wait(self, seconds=1.0):
        end = self.t + seconds
        while self.t <= end:
            self.events += self.session.tick(self.t)
            self.t = round(self.t + SCAN, 6)

    def put(self, hole, colour=None):
        self.events += self.session.on_reading(hole, True, self.t, colour or self.board.turn)
        self.wait()

    def lift(self, hole):
        self.events += self.session.on_reading(hole, False, self.t)
        self.wait()

    def recolour(self, hole, colour):
        self.events += self.session.on_reading(hole, True, self.t, colour)
        self.wait()

    def moves(self):
        return [str(move) for move in self.board.move_stack]


def balls(b="", w=""):
    return {**dict.fromkeys(b.split(), "b"), **dict.fromkeys(w.split(), "w")}


def test_a_ball_added_to_a_hole_is_played_by_itself():
    table = Table(AkronBoard())
    table.put("1e5")
    assert table.moves() == ["1e5"] and table.session.state is State.WAITING
    assert table.session.scene().named("last") == {"1e5"}


def test_a_ball_that_could_come_from_the_supply_or_from_above_is_confirmed():
    # White 2d4 (above the board) could move to 1g3 as well as a new ball could go there.
    board = AkronBoard.from_balls(balls(b="1c3 1e3 1c5 1e5 2d4", w="1o15"))
    table = Table(board)
    assert "2d4-1g3" in [str(m) for m in board.moves_sensed_at("1g3")]
    table.put("1g3")
    (offered,) = [e for e in table.events if isinstance(e, Candidates)]
    texts = [str(m) for m in offered.moves]
    assert texts[0] == "1g3" and "2d4-1g3" in texts  # the supply first: the likely one
    assert table.session.state is State.CONFIRM and table.moves() == []
    table.session.confirm()
    assert table.moves() == ["1g3"]


def test_the_candidate_above_the_board_is_picked_with_hint_and_confirm():
    board = AkronBoard.from_balls(balls(b="1c3 1e3 1c5 1e5 2d4", w="1o15"))
    table = Table(board)
    table.put("1g3")
    # Any ball under 2d4 but 1e3 (whose only link to 1g3 is itself) could have come too:
    # 2d4 would drop into its place, and its hole reads the same.
    assert set(table.session.status().candidates) == {"1g3", "2d4-1g3", "1c3-1g3",
                                                      "1c5-1g3", "1e5-1g3"}
    while table.session.status().candidates[table.session.status().choice] != "2d4-1g3":
        table.session.hint()  # the next candidate
    assert table.session.scene().named("suggestion") >= {"1g3", "1c3", "1e3"}
    table.session.confirm()
    assert table.moves() == ["2d4-1g3"] and table.board.ball_at("2d4") is None
    assert table.board.supply("b") == 32 - 5


def test_a_lifted_ball_lights_where_it_may_go_and_a_hole_it_goes_to_is_the_move():
    board = AkronBoard.from_balls(balls(b="1c3 1e3 1g3", w="1o15"))
    table = Table(board)
    table.lift("1c3")
    assert table.moves() == []  # a ball in the hand is no move yet
    assert table.session.scene().named("legal") == {"1e1", "1e5", "1g1", "1g5", "1i3"}
    table.put("1i3", "b")
    assert table.moves() == ["1c3-1i3"]


def test_a_lift_that_one_move_above_the_board_explains_is_never_played_by_itself():
    # 1a3 may go up to 2d4 only (its other targets are holes): lifted, it might be in
    # the hand, so the move waits for a person to confirm it.
    board = AkronBoard.from_balls(balls(b="1a3 1c3 1e3 1c5", w="1e5 1a5 1a1 1c1 1o15"))
    table = Table(board)
    assert [str(m) for m in board.moves_from("1a3") if LEVEL[m.target]] == ["1a3-2d4"]
    table.lift("1a3")
    assert table.moves() == [] and table.session.state is State.CONFIRM
    assert table.session.status().candidates == ("1a3-2d4",)
    table.session.confirm()
    assert table.moves() == ["1a3-2d4"]


def test_a_move_above_the_board_is_offered_by_confirm_and_picked_on_the_screen():
    # Red's 2d4 and 2f4 are above the board; moving one up or across changes no hole.
    holes = "1c3 1e3 1g3 1c5 1e5 1g5 1c7 1e7 1g7"
    board = AkronBoard.from_balls({**balls(b=holes + " 1o15"), **balls(w="2d4 2f4 2d6 1a15")},
                                  turn="w")
    table = Table(board)
    unseen = [str(m) for m in table.session.pipeline.unseen_moves()]
    assert unseen and all(LEVEL[m.source] and LEVEL[m.target]
                          for m in table.session.pipeline.unseen_moves())
    assert table.session.status().unseen == len(unseen)
    table.session.confirm()
    assert table.session.state is State.CONFIRM
    assert list(table.session.status().candidates) == unseen
    pick = unseen[-1]
    table.session.confirm(pick)  # tapped on the screen
    assert table.moves() == [pick] and table.session.state is State.WAITING
    assert table.session.sync is None  # the sensors see what they saw before


def many_unseen(least):
    """A position of a random game where the player to move has at least ``least``
    moves above the board."""
    rng = random.Random(3)
    while True:
        board = AkronBoard()
        while not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
            if sum(1 for m in board.legal_moves
                   if isinstance(m, Movement) and LEVEL[m.source] and LEVEL[m.target]) >= least:
                return board


def test_with_many_candidates_only_the_picked_one_blinks():
    table = Table(many_unseen(LIT_CANDIDATES + 1))
    table.session.confirm()
    assert len(table.session.candidates) > LIT_CANDIDATES
    scene = table.session.scene()
    assert scene.named("candidate") == frozenset()
    assert scene.named("suggestion") == table.board.holes_of(table.session.candidates[0])


def test_a_drop_is_lit_with_the_move_so_players_see_the_ball_that_falls():
    board = AkronBoard.from_balls(balls(b="1c3 1e3 1c5 1e5 1g3 1g5", w="2d4 1o15"))
    table = Table(board)
    # White lifts 1c3: red 2d4 drops into the hole, which a colour-sensing sensor sees
    # turn red; the white ball goes on to 1i3.
    table.recolour("1c3", "w")
    table.put("1i3", "b")
    assert table.moves() == ["1c3-1i3"]
    assert table.session.scene().named("last") >= {"1c3", "1i3", "1e3", "1c5", "1e5"}
    assert table.board.ball_at("1c3") == "w"


def test_the_engines_move_above_the_board_counts_once_a_person_confirms_it_made():
    holes = "1c3 1e3 1g3 1c5 1e5 1g5 1c7 1e7 1g7"
    board = AkronBoard.from_balls({**balls(b=holes + " 1o15"), **balls(w="2d4 2f4 2d6 1a15")},
                                  turn="w")
    table = Table(board, seats={"b": "person", "w": "engine"})
    unseen = table.session.pipeline.unseen_moves()
    table.session.pending = unseen[0]
    table.session.confirm()
    assert table.board.move_stack == [unseen[0]]


@pytest.mark.parametrize("colour_sensing", [True, False])
def test_a_whole_game_is_played_through_the_sensors_to_its_end(colour_sensing):
    """Random legal moves made by hand: what the holes see is fed, and what they cannot
    tell apart or cannot see is confirmed by its text, as a person taps it."""
    rng = random.Random(11)
    table = Table(AkronBoard(), colour_sensing=colour_sensing)
    confirmed = 0
    while not table.board.is_game_over() and len(table.board.move_stack) < 150:
        move = rng.choice(list(table.board.legal_moves))
        before = len(table.board.move_stack)
        probe = table.board.copy()
        seen_before = probe.sensor_view()
        probe.push(move)
        seen_after = probe.sensor_view()
        # The hand lifts first (a ball on the lifted one drops at once), then puts down.
        for hole in sorted(seen_before.keys() - seen_after.keys()):
            table.lift(hole)
        for hole, colour in sorted(seen_after.items(), key=lambda item: item[0] not in
                                   seen_before):
            if seen_before.get(hole) != colour:
                table.put(hole, colour)
        if len(table.board.move_stack) == before:
            confirmed += 1
            if not table.session.candidates:
                table.session.confirm()
            table.session.confirm(table.board.move_text(move))
        assert table.board.move_stack[before:] == [move], table.session.message
        assert table.session.sync is None
    assert table.board.is_game_over() and confirmed


def test_when_the_engines_move_is_among_the_candidates_it_is_the_one_picked():
    board = AkronBoard.from_balls(balls(b="1c3 1e3 1c5 1e5 2d4", w="1o15"))
    table = Table(board, seats={"b": "engine", "w": "person"})
    table.session.pending = board.parse_move("2d4-1g3")  # as if the engine chose it
    table.put("1g3", "b")
    status = table.session.status()
    assert len(status.candidates) > 1 and status.candidates[status.choice] == "2d4-1g3"
    table.session.confirm()
    assert table.moves() == ["2d4-1g3"]
