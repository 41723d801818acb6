"""The simulated boards sense colour (magnet polarity, as a hall-sensor board can): their
logs carry each piece's colour, noisy games still replay to exactly their moves, and a
piece of the wrong colour is caught instead of being played as the mover's move."""

import json
import random

import pytest

from app.cli import main
from app.games import new_game
from app.hardware.profile import load_profile
from app.table.sensorlog import read_log
from app.table.replay import replay
from engines.players import choose_move


def random_game(game, seed):
    board, rng, moves = new_game(game), random.Random(seed), []
    while not board.is_game_over():
        moves.append(choose_move(board, 1, rng))
        board.push(moves[-1])
    return [board.move_text(m) for m in moves]


@pytest.mark.parametrize("game", ["kulami", "conhex"])
def test_a_noisy_game_on_a_colour_sensing_sim_replays_to_exactly_its_moves(game, tmp_path,
                                                                          capsys):
    assert load_profile(f"{game}-sim").sensors.colour
    log = tmp_path / "game.jsonl"
    assert main(["sensors", "record", f"{game}-sim", "--play", "2", "--out", str(log)]) == 0
    header, readings = read_log(log.read_text().splitlines())
    assert header.colour is True
    placed = [r for r in readings if r.on]
    assert {r.colour for r in placed} >= {"b", "w"}  # the pieces say their colour
    capsys.readouterr()
    assert main(["sensors", "replay", str(log)]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    moved = [r["move"] for r in records if r["event"] == "moved"]
    assert moved == random_game(game, 2)


LINES = [json.dumps({"log": "tabletop-sensors", "version": 1, "game": "kulami",
                     "options": {"layout": "square-1"}, "profile": "kulami-sim",
                     "colour": True})]


def reading(t, hole, on, colour=None):
    line = {"t": t, "hole": hole, "on": on}
    if colour:
        line["colour"] = colour
    return json.dumps(line)


def test_a_marble_of_the_wrong_colour_is_no_move_and_the_right_one_is():
    header, readings = read_log(LINES + [reading(1, "d4", True, "w"),
                                         reading(3, "d4", False),
                                         reading(5, "d4", True, "b")])
    records = [r for r in replay(header, readings) if r["event"] != "seen"]
    events = [r["event"] for r in records]
    assert events[0] != "moved"  # black's marble on red's turn
    lit = records[0]["lights"]
    assert "d4" in lit.get("error", []) + lit.get("empty", [])
    assert [r["move"] for r in records if r["event"] == "moved"] == ["d4"]  # red's, later
