"""The engine's levels (engines/players.py) and ``max`` wherever levels are given: GTP's
``level=``, ``tabletop play``/``simulate --level``, the configuration file and the menu.
The searching levels run here on a few playouts (the game's ``max_playouts`` cut down):
their strength and time are measured in bench/strength.py, not asserted."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from app.cli import build_parser
from app.games import new_game
from app.screen.menu import Menu, level_words
from app.table.config import load_config
from engines.errors import EngineError
from engines.gtp import GtpEngine
from engines.kulami.board import KulamiBoard
from engines.players import LEVELS, MAX_LEVEL, choose_move, parse_level, playouts
from engines.search import policy_of

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("kulami", "conhex", "blokus-duo")


@pytest.fixture
def few_playouts(monkeypatch):
    """Every game's strongest level cut down to 20 playouts."""
    for game in GAMES:
        monkeypatch.setattr(policy_of(new_game(game)), "max_playouts", 20)


def test_levels_read_from_text_with_max_the_strongest():
    assert [parse_level(str(level)) for level in LEVELS] == list(LEVELS)
    assert parse_level("max") == parse_level(" MAX ") == MAX_LEVEL == LEVELS[-1]
    for bad in ("0", "5", "x", "", "2.0"):
        with pytest.raises(EngineError, match=r"level must be 1, 2, 3, 4 or max, not"):
            parse_level(bad)


def test_each_searching_level_makes_more_playouts_than_the_one_below():
    board = new_game("kulami")
    budgets = [playouts(board, level) for level in LEVELS[2:]]
    assert budgets == sorted(set(budgets)) and budgets[-1] == policy_of(board).max_playouts


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_a_legal_move_the_same_for_the_same_seed(game, level,
                                                                   few_playouts):
    board = new_game(game)
    rng = random.Random(2)
    for _ in range(3):
        board.push(rng.choice(list(board.legal_moves)))
    move = choose_move(board, level, random.Random(9))
    assert move in set(board.legal_moves)
    assert choose_move(board, level, random.Random(9)) == move


def test_a_search_reports_progress_and_stops_when_the_caller_raises(few_playouts):
    class Cancelled(Exception):
        pass

    def cancel(fraction):
        raise Cancelled

    board = new_game("conhex")
    with pytest.raises(Cancelled):
        choose_move(board, MAX_LEVEL, random.Random(1), progress=cancel)
    seen = []
    choose_move(board, MAX_LEVEL, random.Random(1), progress=seen.append)
    assert seen and all(0 <= fraction < 1 for fraction in seen)


def test_gtp_takes_level_max_and_genmove_plays_at_it(few_playouts):
    engine = GtpEngine(KulamiBoard, level="max", seed="3")
    assert engine.level == MAX_LEVEL
    assert engine.handle("genmove b").startswith("= ")
    assert engine.board.move_stack


def test_play_and_simulate_take_level_max():
    parser = build_parser()
    assert parser.parse_args(["play", "kulami", "--level", "max"]).level == MAX_LEVEL
    assert parser.parse_args(["simulate", "conhex", "--level", "3"]).level == 3


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_a_bad_level_on_the_command_line_is_one_line_and_status_2(command):
    result = subprocess.run([sys.executable, "-m", "app.cli", command, "kulami", "--level",
                             "9"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"tabletop {command}: argument --level: level must be 1, 2, 3, 4 or max, not '9'"]


def test_the_configuration_file_takes_level_max(tmp_path):
    path = tmp_path / "tabletop.toml"
    path.write_text(f'data_dir = "{tmp_path}"\n[game]\nlevel = "max"\n', encoding="utf-8")
    assert load_config(path).level == MAX_LEVEL


def test_the_menu_offers_every_level_with_max_last():
    menu = Menu(["kulami"])
    drawn = menu.draw(pygame.Surface((800, 480)))
    labels = [level_words(level) for level in LEVELS]
    assert labels[-1] == "max" and all(drawn.button(label) for label in labels)
    menu.press(drawn.action_at(drawn.button("max").rect.center))
    drawn = menu.draw(pygame.Surface((800, 480)))
    assert menu.press(drawn.action_at(drawn.button("Start").rect.center)).level == MAX_LEVEL
