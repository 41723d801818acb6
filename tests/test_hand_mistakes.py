"""Ordinary hand mistakes never lock the board, and the replay shows what the board does.

Each case is a sensor log acted out by the scripted hand on a Kulami board (square-1,
two people), from the measured failures of the sync-mode lock: a stray extra marble, a
reply placed within the settle time of the move before, both players placing at once,
and the just-placed marble slid on to another hole. Every log goes through
``sensors replay`` and through ``tabletop run``'s table loop, which must agree move for
move, since both run the same session.
"""

import random

import pytest

from app.games import new_game
from app.hardware.leds import SimulatedStrip
from app.hardware.profile import load_profile
from app.sensing.script import Hand
from app.table.sensorlog import Header, Reading
from app.table.loop import Table
from app.table.replay import replay
from app.table.session import Session, State

PROFILE = load_profile("kulami-sim-blind")  # reed switches: they see no colour
OPTIONS = {"layout": "square-1"}
HEADER = Header("kulami", OPTIONS, "kulami-sim-blind", False)


def hand(seed=1):
    return Hand(PROFILE.holes, random.Random(seed), start=1.0)


def readings(h: Hand) -> list[Reading]:
    return list(h.readings)


def replayed(h: Hand) -> list[dict]:
    """What ``sensors replay`` prints, without the early lights of new pieces."""
    return [r for r in replay(HEADER, readings(h)) if r["event"] != "seen"]


def run(h: Hand) -> Session:
    """The log through the board's own loop (``tabletop run --log``), two people."""
    session = Session(new_game("kulami", **OPTIONS), seats={"b": "person", "w": "person"})
    Table(session, PROFILE, SimulatedStrip(PROFILE.led_count)).replay(readings(h))
    return session


def moves(records) -> list[str]:
    return [r["move"] for r in records if r["event"] == "moved"]


def events(records) -> list[str]:
    return [r["event"] for r in records]


def played(session: Session) -> list[str]:
    return [session.board.move_text(m) for m in session.board.move_stack]


def test_a_reply_placed_within_the_settle_time_is_played_after_the_move_before_it():
    """Red g5 read; black's g8 and red's a8 go down 0.2 s apart. Only black-then-red
    is legal (a8 is in neither g5's row nor its column), so both moves count."""
    h = hand()
    h.place("g5")
    h.pause(2.0)
    h.place("g8")
    h.pause(0.2)
    h.place("a8")
    records = replayed(h)
    assert moves(records) == ["g5", "g8", "a8"] == played(run(h))
    assert "out_of_sync" not in events(records)
    assert [r["player"] for r in records if r["event"] == "moved"] == ["b", "w", "b"]


def test_both_players_placing_at_once_are_played_in_the_one_legal_order():
    h = hand()
    h.place("g5")
    h.pause(2.0)
    h.place("a8")  # red's reply, at the very moment black places g8
    h.t -= h.t - h.readings[-1].t  # back to the same instant
    h.place("g8")
    assert moves(replayed(h)) == ["g5", "g8", "a8"] == played(run(h))


def test_two_placements_legal_in_either_order_are_read_in_the_order_they_went_down():
    """d4 and d7 on an empty board, 0.1 s apart (further apart than the debounce): red
    d4 then black d7, as their readings' times tell, though red d7 then black d4 would
    be legal too. d7 lifted is black's move taken back; put back, it is played again.
    (Put down closer together than the debounce, the order is not told: see
    tests/test_reply_order.py.)"""
    h = hand()
    h.place("d4")
    h.pause(0.1)
    h.place("d7")
    h.pause(2.0)
    h.lift("d7")
    h.pause(2.0)
    h.place("d7")
    records = replayed(h)
    assert events(records) == ["moved", "moved", "takeback", "moved"]
    assert [r["move"] for r in records] == ["d4", "d7", "d7", "d7"]
    assert played(run(h)) == ["d4", "d7"]


def test_a_stray_marble_where_none_can_go_is_set_aside_and_the_move_counts():
    """Black's g8 goes down with a stray marble on a1 (in neither g5's row nor its
    column): black's move counts at once, a1 is named until the stray is taken off."""
    h = hand()
    h.place("g5")
    h.pause(2.0)
    h.place("a1")
    h.pause(0.1)
    h.place("g8")
    h.pause(2.0)
    h.lift("a1")
    records = replayed(h)
    assert events(records) == ["moved", "quarantined", "moved", "rejoined"]
    assert records[1]["hole"] == "a1" and records[1]["problem"] == "stuck"
    assert records[1]["lights"]["fault"] == ["a1"]
    assert moves(records) == ["g5", "g8"] == played(run(h))


def test_a_stray_marble_on_a_legal_hole_ends_in_the_move_once_it_is_removed():
    """Black places g8 and, 0.1 s later, by mistake a second marble on g2 (legal for red
    after g8): the times read it as red's reply; taking the stray off takes that reply
    back and leaves the game plus exactly black's move (the lock measured before: the
    move ignored for good)."""
    h = hand()
    h.place("g5")
    h.pause(2.0)
    h.place("g8")
    h.pause(0.1)
    h.place("g2")
    h.pause(2.0)
    h.lift("g2")
    records = replayed(h)
    assert events(records) == ["moved", "moved", "moved", "takeback"]
    assert [r["move"] for r in records] == ["g5", "g8", "g2", "g2"]
    assert played(run(h)) == ["g5", "g8"]


def slide(h: Hand, start: str, to: str) -> None:
    """The marble on ``start`` slid on to ``to``: lifted and put down at once."""
    h.lift(start)
    h.pause(0.05)
    h.place(to)


def red_g5_then_slid_to_g6() -> Hand:
    h = hand()
    h.place("g5")
    h.pause(2.0)
    slide(h, "g5", "g6")
    return h


def test_sliding_the_just_placed_marble_is_offered_as_a_correction():
    h = red_g5_then_slid_to_g6()
    records = replayed(h)
    assert events(records) == ["moved", "correction"]
    assert records[1]["undo"] == "g5" and records[1]["move"] == "g6"
    assert records[1]["lights"]["candidate"] == ["g6"]

    session = run(h)
    assert session.state is State.CONFIRM and played(session) == ["g5"]
    assert session.status().message.startswith("red moved g5 to g6? confirm takes g6")
    assert session.status().candidates == ("g6",)  # the screen's Confirm button takes it
    session.confirm("g6")
    assert played(session) == ["g6"] and session.state is State.WAITING
    assert session.scene().named("last") == {"g6"}


def test_a_correction_is_dropped_when_the_marble_goes_back():
    h = red_g5_then_slid_to_g6()
    h.pause(2.0)
    slide(h, "g6", "g5")
    records = replayed(h)
    assert events(records) == ["moved", "correction", "in_sync"]
    session = run(h)
    assert session.correction is None and session.state is State.WAITING
    assert played(session) == ["g5"]


def test_after_an_undo_by_button_lifting_the_pieces_one_by_one_replays_nothing():
    """The undo button took back two moves: their pieces are lifted one at a time, and
    the board in between (the game plus the first of them) is not read as that move."""
    session = Session(new_game("kulami", **OPTIONS), seats={"b": "person", "w": "person"})
    table = Table(session, PROFILE, SimulatedStrip(PROFILE.led_count))
    h = hand()
    h.place("g5")
    h.pause(2.0)
    h.place("g8")
    h.pause(2.0)
    table.replay(readings(h))
    assert played(session) == ["g5", "g8"]
    session.undo()
    session.undo()
    assert played(session) == [] and session.state is State.SYNC and session.sync_strict
    more = hand(seed=2)
    more.t = h.t + 1.0
    more.lift("g8")
    more.pause(2.0)
    table.replay(readings(more))
    assert played(session) == [] and session.state is State.SYNC  # g5 alone: not a move
    more.readings.clear()
    more.lift("g5")
    table.replay(readings(more))
    assert played(session) == [] and session.state is State.WAITING


@pytest.mark.parametrize("colour_sensing, expected", [(True, ["f6", "c2"]), (False, None)])
def test_conhex_moves_placed_at_once_are_read_when_colour_tells_them_apart(colour_sensing,
                                                                          expected):
    """Red f6 and blue c2 at the same instant: hall sensors that see colour know which
    is whose; colour-blind ones see two stones either player could have placed."""
    profile = load_profile("conhex-sim")
    session = Session(new_game("conhex"), seats={"b": "person", "w": "person"},
                      colour_sensing=colour_sensing)
    h = Hand(profile.holes, random.Random(1), start=1.0)
    h.place("f6", "b" if colour_sensing else None)
    h.t = h.readings[0].t
    h.place("c2", "w" if colour_sensing else None)
    Table(session, profile, SimulatedStrip(profile.led_count)).replay(readings(h))
    if expected:
        assert played(session) == expected
    else:
        assert played(session) == [] and session.state is State.SYNC
