"""A hole's place on its board's grid, read off its name in one way for every game."""

import pytest

from app.games import GAMES, new_game
from engines.grid import column_row, level


@pytest.mark.parametrize("name, place, height", [
    ("a1", (0, 1), 1), ("d4", (3, 4), 1), ("k11", (10, 11), 1), ("n14", (13, 14), 1),
    ("1c3", (2, 3), 1), ("2d4", (3, 4), 2), ("8o15", (14, 15), 8),
])
def test_column_row_and_level_of_a_name(name, place, height):
    assert column_row(name) == place and level(name) == height


@pytest.mark.parametrize("name", ["swap", "pass", "", "4", "A1", "d", "1c3-2d4"])
def test_a_name_that_is_no_place_has_none(name):
    assert column_row(name) is None and level(name) == 1


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_hole_of_every_game_has_its_own_place(name):
    holes = new_game(name).holes
    places = {column_row(hole) for hole in holes}
    assert None not in places and len(places) == len(holes)
