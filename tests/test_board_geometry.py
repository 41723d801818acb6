"""Every game's geometry is on its board (points, names both ways, neighbours, axes), as
python-chess's squares are on ``chess``: nothing above the engines reads a place off a
name, so nothing there drops a name it cannot read."""

import math

import pytest

from app.games import GAMES, new_game
from engines.core import Place, PointError


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_point_is_named_both_ways(name):
    board = new_game(name)
    assert board.points[:len(board.holes)] == board.holes, "the holes come first"
    places = {point: board.place(point) for point in board.points}
    assert len(set(places.values())) == len(places), "no two points share a place"
    for point, place in places.items():
        assert board.point_at(place.x, place.y, place.level) == point
    holes = [places[hole] for hole in board.holes]
    assert min(p.x for p in holes) == 0 and min(p.y for p in holes) == 0
    assert {p.level for p in holes} == {1}
    # one unit between neighbouring holes, the shortest distance between any two
    assert min(math.dist((a.x, a.y), (b.x, b.y))
               for i, a in enumerate(holes) for b in holes[i + 1:]) == pytest.approx(1)


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("text", ["zz9", "", "a0", "a99", "centre", "1a1-1c1"])
def test_a_name_that_is_no_point_is_one_clear_error(name, text):
    board = new_game(name)
    with pytest.raises(PointError) as error:
        board.place(text)
    assert repr(text) in str(error.value) and "\n" not in str(error.value)


def test_nothing_lies_where_the_board_has_no_point():
    board = new_game("blokus-duo")
    assert board.point_at(-1, 0) is None and board.point_at(14, 3) is None
    assert board.point_at(0.5, 0) is None and board.point_at(0, 0, level=2) is None
    assert board.point_at(4, 9) == "e10"


def test_neighbours_are_one_unit_away_on_the_same_level():
    blokus = new_game("blokus-duo")
    assert sorted(blokus.neighbours("a1")) == ["a2", "b1"]
    assert sorted(blokus.neighbours("e5")) == ["d5", "e4", "e6", "f5"]
    akron = new_game("akron")  # its holes on every other point of the doubled grid
    assert sorted(akron.neighbours("1c3")) == ["1a3", "1c1", "1c5", "1e3"]
    assert sorted(akron.neighbours("2b2")) == ["2b4", "2d2"], "the level above's own"
    assert new_game("conhex").neighbours("a11") == (), "a corner hole far from any other"


def test_the_pyramid_s_points_sit_between_and_above_the_holes():
    akron = new_game("akron")
    assert akron.place("1c3") == Place(1, 1)
    assert akron.place("2d4") == Place(1.5, 1.5, 2)
    assert akron.place("3c3") == Place(1, 1, 3), "straight above the hole 1c3"
    assert akron.point_at(3.5, 3.5, 8) == "8h8"


def test_a_frame_places_more_names_than_one_layout_has_holes():
    """Kulami's boards are wired for the 10x10 frame every layout fits in."""
    kulami = new_game("kulami")
    assert "j10" not in kulami.holes and kulami.place("j10") == Place(9, 9)
    assert kulami.point_at(9, 9) is None


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_axes_name_the_holes_columns_and_rows(name):
    board = new_game(name)
    axes = board.axes()
    holes = [board.place(hole) for hole in board.holes]
    assert set(axes.columns) == {p.x for p in holes}
    assert set(axes.rows) == {p.y for p in holes}
    assert axes.columns[min(axes.columns)].lower() == "a"
    assert axes.rows[min(axes.rows)] == "1"
