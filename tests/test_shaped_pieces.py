"""The pieces capability a game declares (engines.core.ShapedPieces) and the page's piece
picker reads (/api/pieces): Blokus Duo has it, the games of one piece a hole do not, and
a fifth game (tests/honeycomb.py given shapes) gets the picker's answer by providing it
whole, and an empty one, not a failure, when it names shapes but not the rest."""

from types import MappingProxyType

import pytest

import app.games
from app.games import new_game
from app.table.session import Session
from app.web.server import pieces_view
from engines.core import ShapedPieces
from tests.honeycomb import ENTRY, NAME, HoneycombBoard


@pytest.fixture(autouse=True)
def registered(monkeypatch):
    monkeypatch.setattr(app.games, "GAMES", MappingProxyType({**app.games.GAMES, NAME: ENTRY}))


class HalfShaped(HoneycombBoard):
    """Shapes named, but neither the pieces left nor the piece of a move."""

    def shapes(self):
        return MappingProxyType({"I2": ((0, 0), (1, 0))})


class Shaped(HalfShaped):
    def pieces_left(self, player):
        return ("I2",)

    def piece_of(self, move):
        return "I2"


def test_the_shipped_games_have_the_capability_only_where_pieces_have_shapes():
    assert isinstance(new_game("blokus-duo"), ShapedPieces)
    for name in ("kulami", "conhex", "akron", NAME):
        assert not isinstance(new_game(name), ShapedPieces)


def test_a_fifth_game_providing_the_whole_capability_gets_the_pickers_answer():
    view = pieces_view(Session(Shaped.new()))
    assert view["shapes"] == {"I2": [[0, 0], [1, 0]]}
    assert view["left"] == {"b": ["I2"], "w": ["I2"]}


def test_a_game_providing_half_of_it_gets_no_picker_rather_than_a_failure():
    assert not isinstance(HalfShaped.new(), ShapedPieces)
    assert pieces_view(Session(HalfShaped.new()))["shapes"] == {}
