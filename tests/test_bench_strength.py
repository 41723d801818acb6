"""bench/strength.py's command line: the level pairs it is given, each with its own
number of games where wanted, and the one-line refusals of what it cannot read. (The
matches themselves are the benchmark, run by hand: their figures are in the README.)"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from app.games import GAMES
from bench.strength import pair, wilson
from engines.players import MAX_LEVEL

ROOT = Path(__file__).resolve().parents[1]


def test_a_pair_is_two_levels_and_may_name_its_own_games():
    assert pair("3:2") == (3, 2)
    assert pair("max:3") == (MAX_LEVEL, 3)
    assert pair("max:1=80") == (MAX_LEVEL, 1, 80)


@pytest.mark.parametrize("text, words", [
    ("4", "expected two levels as STRONG:WEAK[=GAMES], not '4'"),
    ("9:1", "level must be 1, 2, 3, 4 or max, not '9'"),
    ("4:3=x", "the games of 4:3 are a number, not 'x'"),
    ("4:3=0", "the games of 4:3 are a number, not '0'"),
])
def test_a_pair_it_cannot_read_is_refused_in_words(text, words):
    with pytest.raises(argparse.ArgumentTypeError) as refused:
        pair(text)
    assert str(refused.value) == words


def test_the_command_refuses_an_unknown_game_in_one_usage_line():
    ran = subprocess.run([sys.executable, "-m", "bench.strength", "chess"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert ran.returncode == 2 and "Traceback" not in ran.stderr
    assert ran.stderr.splitlines()[-1].endswith(
        f"argument GAME: no game 'chess': {', '.join(GAMES)}")


def test_wilson_s_interval_stays_inside_the_win_rates_and_holds_the_observed_one():
    assert wilson(40, 40) == (pytest.approx(0.912, abs=1e-3), 1.0)
    low, high = wilson(30, 40)
    assert low < 0.75 < high and (round(low, 2), round(high, 2)) == (0.60, 0.86)
    assert wilson(0, 0) == (0.0, 1.0)
