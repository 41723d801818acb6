"""A game's own cap in seconds scales with the machine's pace (engines/pace.py), under
the absolute cap a person will wait (engines.players.MOST_SECONDS); the pace is measured
once per process by a bounded workload, or set by hand with TABLETOP_PACE. Nothing here
times anything: the workload's clock is replaced where its result matters."""

from __future__ import annotations

import logging
import random

import pytest

from app.games import new_game
from engines import pace, players
from engines.players import MAX_LEVEL, MOST_SECONDS, judge
from engines.search import policy_of


@pytest.fixture(autouse=True)
def fresh_pace(monkeypatch):
    """No pace set by hand, none kept from an earlier test, and none kept for a later."""
    monkeypatch.delenv(pace.ENVIRONMENT, raising=False)
    pace.forget()
    yield
    pace.forget()


@pytest.fixture
def searched_seconds(monkeypatch):
    """The ``seconds`` each search of :func:`judge` is given (the search itself not run)."""
    given = []

    def search(board, rng, playouts=None, seconds=None, progress=None, stats=None):
        given.append(seconds)
        return next(iter(board.legal_moves))

    monkeypatch.setattr(players, "search", search)
    return given


def blokus_cap() -> float:
    return policy_of(new_game("blokus-duo")).most_seconds


def test_a_slower_pace_set_by_hand_scales_the_games_own_cap(monkeypatch, searched_seconds):
    monkeypatch.setenv(pace.ENVIRONMENT, "5")
    judge(new_game("blokus-duo"), MAX_LEVEL, random.Random(1))
    assert searched_seconds == [pytest.approx(blokus_cap() * 5)]


def test_the_absolute_cap_holds_however_slow_the_machine(monkeypatch, searched_seconds):
    monkeypatch.setenv(pace.ENVIRONMENT, "1000")
    judge(new_game("blokus-duo"), MAX_LEVEL, random.Random(1))
    assert searched_seconds == [MOST_SECONDS]


def test_a_game_without_a_cap_of_its_own_has_the_absolute_one_and_measures_nothing(
        monkeypatch, searched_seconds):
    def measure():
        raise AssertionError("a game without a cap of its own measured the pace")

    monkeypatch.setattr(pace, "measure", measure)
    board = new_game("kulami")
    assert policy_of(board).most_seconds is None
    judge(board, MAX_LEVEL, random.Random(1))
    assert searched_seconds == [MOST_SECONDS]


def test_a_test_that_gives_seconds_keeps_them(monkeypatch, searched_seconds):
    monkeypatch.setenv(pace.ENVIRONMENT, "5")
    judge(new_game("blokus-duo"), MAX_LEVEL, random.Random(1), seconds=0.01)
    assert searched_seconds == [0.01]


def test_the_pace_is_measured_once_a_process_by_a_bounded_workload(monkeypatch):
    runs = []

    def workload(playouts):
        runs.append(playouts)
        return pace.REFERENCE_SECONDS * 3

    monkeypatch.setattr(pace, "_workload", workload)
    assert pace.pace() == pytest.approx(3)
    assert pace.pace() == pytest.approx(3)
    assert runs == [pace.WORKLOAD] * pace.REPEATS


def test_the_fastest_run_counts_and_a_faster_machine_keeps_the_caps(monkeypatch):
    reference = pace.REFERENCE_SECONDS
    times = iter([reference * 4, reference * 2, reference * 9] + [reference * 5] * 10)
    monkeypatch.setattr(pace, "_workload", lambda playouts: next(times))
    assert pace.measure() == pytest.approx(2)
    monkeypatch.setattr(pace, "_workload", lambda playouts: reference / 3)
    assert pace.measure() == 1.0


def test_the_workload_lists_the_same_masks_every_time(monkeypatch):
    """The workload is a fixed amount of the engines' own bit work, whatever game is on
    the table: the same masks, as many as :data:`WORKLOAD` says, each run."""
    listed = []
    monkeypatch.setattr(pace, "indices", lambda mask: listed.append(mask) or [])
    pace._workload(pace.WORKLOAD)
    first = list(listed)
    listed.clear()
    pace._workload(pace.WORKLOAD)
    assert listed == first and len(first) == pace.WORKLOAD
    assert len(set(first)) == 64 and all(mask.bit_length() <= 128 for mask in first)


@pytest.mark.parametrize("text", ["fast", "0.5", "0", "-3", "nan", "inf"])
def test_a_bad_pace_set_by_hand_is_one_line_and_the_pace_measured(monkeypatch, caplog,
                                                                   text):
    monkeypatch.setenv(pace.ENVIRONMENT, text)
    monkeypatch.setattr(pace, "measure", lambda: 2.5)
    with caplog.at_level(logging.WARNING, logger=pace.__name__):
        assert pace.pace() == 2.5
        assert pace.pace() == 2.5
    assert [record.getMessage() for record in caplog.records] == [
        f"{pace.ENVIRONMENT} must be a number of at least 1, not {text!r}: "
        f"measuring the pace"]
