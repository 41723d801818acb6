"""Sensor health: a chattering or stuck sensor is quarantined, named, and the game goes on.

Measured before: one sensor chattering with pulses longer than the debounce (80 ms on,
80 ms off) kept the board from ever settling, so every move was missed, nothing named
the sensor, and the pieces placed meanwhile were flagged for removal once it stopped.
"""

import random

import pytest

from app.games import new_game
from app.sensing.events import InSync, Moved, Quarantined, Rejoined
from app.sensing.health import CHATTER_CHANGES, CHATTER_WINDOW_S, REJOIN_S, Health
from app.sensing.pipeline import Pipeline
from app.sensing.script import Hand
from app.table.sensorlog import Header, Reading
from app.table.replay import replay
from app.table.session import Session
from pipeline_driver import drive

HOLES = [f"{c}{r}" for r in range(1, 11) for c in "abcdefghij"]


def kulami():
    return new_game("kulami", layout="square-1")


def chatter(h: Hand, hole: str, seconds: float, period: float = 0.08) -> None:
    """A failing switch: on and off every ``period`` seconds, each edge clean."""
    end = h.t + seconds
    while h.t < end:
        h._set(hole, True)
        h.pause(period)
        h._set(hole, False)
        h.pause(period)


def a_game_beside_a_chattering_sensor():
    """b2 chatters for 12 s while red and black play three moves beside it; black's
    fourth comes once b2 has been quiet long enough to rejoin."""
    h = Hand(HOLES, random.Random(4), start=1.0)
    start = h.t
    chatter(h, "b2", 12.0)
    h.t = start + 1.5
    h.place("g5")
    h.t = start + 4.0
    h.place("g8")
    h.t = start + 7.0
    h.place("a8")
    h.t = start + 20.0  # b2 has been quiet for 8 s by now
    h.place("e8")  # black's reply, once b2 is back
    return h


def test_a_chattering_sensor_is_quarantined_and_every_move_beside_it_counts():
    board = kulami()
    h = a_game_beside_a_chattering_sensor()
    events = drive(Pipeline(board), board, h.readings, until=30.0)
    health = [e for e in events if isinstance(e, (Quarantined, Rejoined))]
    assert health == [Quarantined("b2", "chatter"), Rejoined("b2")]
    assert events.index(health[0]) < events.index(Moved(board.parse_move("g5")))
    assert [board.move_text(e.move) for e in events if isinstance(e, Moved)] == \
        ["g5", "g8", "a8", "e8"]
    # b2 ended empty (its last edge was off): rejoining asks nothing of the players
    assert [e for e in events if not isinstance(e, (Moved, Quarantined, Rejoined))] == \
        [InSync()]  # the empty board, at the start


def test_a_piece_placed_on_the_chattering_hole_counts_once_it_rejoins():
    """While b2 chatters nobody can know what is on it; when it is quiet again with a
    marble on it (its last edge on), that marble is red's move, not a piece to remove."""
    h = Hand(HOLES, random.Random(4), start=1.0)
    chatter(h, "b2", 3.0)
    h._set("b2", True)  # ... and stays on: a marble placed there while it chattered
    h.pause(REJOIN_S + 2.0)
    board = kulami()
    events = drive(Pipeline(board), board, h.readings, until=h.t + 1.0)
    assert events[:2] == [InSync(), Quarantined("b2", "chatter")]
    assert events[2:] == [Rejoined("b2"), Moved(board.parse_move("b2"))]
    assert [board.move_text(m) for m in board.move_stack] == ["b2"]


def test_the_replay_names_the_sensor_and_its_lights_show_it():
    h = a_game_beside_a_chattering_sensor()
    readings = [Reading(t.t, t.hole, t.on) for t in h.readings]
    records = list(replay(Header("kulami", {"layout": "square-1"}), readings))
    quarantined = [r for r in records if r["event"] == "quarantined"]
    assert quarantined == [{"t": quarantined[0]["t"], "event": "quarantined", "hole": "b2",
                            "problem": "chatter", "lights": quarantined[0]["lights"]}]
    assert quarantined[0]["lights"]["fault"] == ["b2"]
    assert [r["move"] for r in records if r["event"] == "moved"] == ["g5", "g8", "a8", "e8"]
    assert [r["event"] for r in records if r["event"] == "rejoined"] == ["rejoined"]


def test_the_session_names_the_hole_and_the_problem_on_screen_and_leds():
    session = Session(kulami(), seats={"b": "person", "w": "person"})
    h = Hand(HOLES, random.Random(4), start=1.0)
    chatter(h, "b2", 2.0)
    said = []
    for touch in h.readings:
        session.on_reading(touch.hole, touch.on, touch.t)
        said.append((session.message_kind, session.message))
    fault = "b2: its sensor flickers; ignored until it is quiet"
    assert ("error", fault) in said  # said when it happened
    assert session.status().faults == (fault,)  # and listed on the screen while it lasts
    assert session.scene().named("fault") == {"b2"}


def test_a_hesitant_placement_is_not_chatter():
    """The most changes a hand makes on one hole: down and up three times, then down."""
    for seed in range(30):
        h = Hand(HOLES, random.Random(seed), start=1.0)
        h.slow_place("d4")
        board = kulami()
        events = drive(Pipeline(board), board, h.readings)
        assert not any(isinstance(e, Quarantined) for e in events), seed
        assert events[-1] == Moved(board.parse_move("d4"))


def test_chatter_is_counted_within_its_window_only():
    health = Health()
    spaced = CHATTER_WINDOW_S / (CHATTER_CHANGES - 1) + 0.01  # just too slow to count
    assert not any(health.changed("d4", i * spaced) for i in range(3 * CHATTER_CHANGES))
    fast = CHATTER_WINDOW_S / CHATTER_CHANGES
    results = [health.changed("e4", 100 + i * fast) for i in range(CHATTER_CHANGES)]
    assert results == [False] * (CHATTER_CHANGES - 1) + [True]
    assert health.quarantined == {"e4": "chatter"}


def test_a_chattering_hole_rejoins_only_after_a_whole_quiet_spell():
    health = Health()
    for i in range(CHATTER_CHANGES):
        health.raw("d4", i * 0.1)
        health.changed("d4", i * 0.1)
    last = (CHATTER_CHANGES - 1) * 0.1
    assert health.deadline == pytest.approx(last + REJOIN_S)
    assert health.rejoining(last + REJOIN_S - 0.01, lambda hole: True) == []
    health.raw("d4", last + 1.0)  # one more flip: the quiet spell starts again
    assert health.rejoining(last + REJOIN_S, lambda hole: True) == []
    assert health.rejoining(last + 1.0 + REJOIN_S, lambda hole: True) == ["d4"]
    assert health.quarantined == {} and health.deadline is None


def test_a_stuck_hole_rejoins_when_it_reads_what_the_game_says():
    health = Health()
    health.stuck("e4")
    assert health.deadline is None
    assert health.rejoining(1000.0, lambda hole: False) == []
    assert health.rejoining(1000.0, lambda hole: hole == "e4") == ["e4"]


def test_changes_at_a_time_too_large_for_the_window_to_subtract_count_without_failing():
    """At 1e20 s, ``t - window == t``: the change just counted must not be dropped (it
    was, and the next look at the oldest change raised IndexError)."""
    health = Health()
    t = 1e20
    assert not any(health.changed("d4", t) for _ in range(CHATTER_CHANGES - 1))
    assert health.changed("d4", t) and health.quarantined == {"d4": "chatter"}
