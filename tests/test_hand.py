"""The one simulated hand: pieces put in and taken out of holes reach the sensors it
holds, a pile's changes above the holes reach none, and a simulated board plays a game
with no window and no pygame."""

import subprocess
import sys

from app.games import game
from app.hardware.sensors import SimulatedSensors
from app.table.hand import Hand
from app.table.simulated_board import SimulatedBoard
from app.table.thinker import InlineThinker


class Recorder:
    """Sensors that note what the hand did to them."""

    def __init__(self):
        self.done = []

    def place(self, hole, colour=None):
        self.done.append(("place", hole, colour))

    def lift(self, hole):
        self.done.append(("lift", hole))


def test_pieces_in_holes_reach_the_sensors_as_they_go_down_and_come_off():
    sensors = SimulatedSensors(["d4", "d5"], colour_sensing=True)
    hand = Hand(sensors, ["d4", "d5"])
    hand.place("d4", "b")
    hand.turn_over("d4")
    scan = sensors.read()
    assert hand.pieces == {"d4": "w"} and scan["d4"] and scan.colours["d4"] == "w"
    hand.put_piece(["d4", "d5"], "b")
    hand.lift("d4")
    scan = sensors.read()
    assert hand.pieces == {"d5": "b"} and not scan["d4"] and scan["d5"]


def test_a_pile_passes_only_what_changed_in_its_holes():
    from tests.test_akron_simulator import PYRAMID, played

    board = played(PYRAMID)
    sensors = Recorder()
    hand = Hand(sensors, board.holes, game("akron").pile_physics)
    hand.set_out(board)
    assert hand.pieces == board.piece_view() and "3c3" in hand.pieces
    assert sorted(hole for _, hole, _ in sensors.done) == sorted(board.sensor_view())
    sensors.done.clear()
    assert not hand.can_lift("1c1")  # 2b2 and 2d2 rest on it
    hand.lift_ball("1a1")  # 2b2 drops into its place, 3c3 on to 2b2
    assert hand.held == "b" and hand.pieces["1a1"] == "b" and "3c3" not in hand.pieces
    assert sensors.done == []  # the hole was full and is full again, within one scan
    hand.put_ball("3c3", "w")  # above the holes: no sensor sees it
    assert sensors.done == [] and hand.pieces["3c3"] == "w"
    assert hand.can_put("1o15")
    hand.put_ball("1o15", "w")
    assert sensors.done == [("place", "1o15", "w")]


def test_a_simulated_board_plays_a_game_through_its_sensors_without_a_window():
    clock = [0.0]
    sim = SimulatedBoard("kulami", {}, {"b": "person", "w": "engine"}, 2,
                         clock=lambda: clock[0], seed=3, thinker=InlineThinker())
    sim.place("d4")
    clock[0] += 2.0
    sim.step()
    reply = sim.session.board.move_text(sim.session.pending)
    sim.place(reply)
    clock[0] += 2.0
    sim.step()
    assert [sim.session.board.move_text(m) for m in sim.session.board.move_stack] == \
        ["d4", reply]
    assert sim.hole_leds()[reply] != (0, 0, 0)  # the last move is lit


def test_the_simulated_board_and_hand_import_no_pygame():
    code = ("import sys, app.table.simulated_board, app.table.hand; "
            "sys.exit('pygame' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0
