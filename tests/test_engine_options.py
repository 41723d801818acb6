"""Typed game options: declared per board class, checked in one place, text converted."""

import pytest

from app.games import game, new_game
from engines.conhex.board import ConHexBoard
from engines.core import Board
from engines.errors import OptionError
from engines.kulami.board import KulamiBoard
from engines.options import Option, validate


def test_each_game_declares_its_options_with_a_line_of_help():
    for cls in (KulamiBoard, ConHexBoard):
        assert cls.OPTIONS and all(isinstance(o, Option) and o.help for o in cls.OPTIONS)
    assert [o.name for o in KulamiBoard.OPTIONS] == ["layout", "scoring", "chain_lines"]
    assert [o.name for o in ConHexBoard.OPTIONS] == ["pie", "handicap"]


def test_new_checks_builds_and_fills_the_defaults():
    board = KulamiBoard.new(scoring="2")
    assert board.options == {"layout": KulamiBoard.new().options["layout"], "scoring": 2,
                             "chain_lines": "all"}
    assert ConHexBoard.new(pie="off").options == {"pie": False, "handicap": 0}
    assert ConHexBoard.new(handicap=3).options == {"pie": True, "handicap": 3}
    assert new_game("conhex", handicap="2").options == {"pie": True, "handicap": 2}
    assert game("Kulami").board_class is KulamiBoard


@pytest.mark.parametrize("text, value", [("true", True), (" Yes", True), ("on", True),
                                         ("1", True), ("false", False), ("OFF", False),
                                         ("no", False), ("0", False)])
def test_true_and_false_read_from_text(text, value):
    assert ConHexBoard.new(pie=text).options["pie"] is value


@pytest.mark.parametrize("options, message", [
    # A TOML float, bool or list for a whole number is refused, never truncated or read as 1.
    ({"scoring": 2.0}, "scoring must be 0, 1 or 2, not 2.0"),
    ({"scoring": True}, "scoring must be 0, 1 or 2, not True"),
    ({"scoring": [2]}, "scoring must be 0, 1 or 2, not [2]"),
    ({"scoring": float("inf")}, "scoring must be 0, 1 or 2, not inf"),
    ({"scoring": "inf"}, "scoring must be 0, 1 or 2, not 'inf'"),
    ({"scoring": "2.0"}, "scoring must be 0, 1 or 2, not '2.0'"),
    ({"scoring": 3}, "scoring must be 0, 1 or 2, not 3"),
    ({"scoring": "-1"}, "scoring must be 0, 1 or 2, not '-1'"),
    ({"chain_lines": "rows"}, "chain_lines must be diagonal or all, not 'rows'"),
    ({"layout": 5}, "layout must be text, not 5"),
    ({"colour": "red"}, "kulami has no option 'colour' (options: chain_lines, layout, scoring)"),
])
def test_kulami_option_errors_name_the_key_and_the_allowed_values(options, message):
    with pytest.raises(OptionError) as error:
        KulamiBoard.new(**options)
    assert str(error.value) == message


@pytest.mark.parametrize("options, message", [
    ({"pie": 1}, "pie must be true or false, not 1"),
    ({"pie": "maybe"}, "pie must be true or false, not 'maybe'"),
    ({"handicap": 2.0}, "handicap must be 0, 2 or 3, not 2.0"),
    ({"handicap": False}, "handicap must be 0, 2 or 3, not False"),
    ({"handicap": 1}, "handicap must be 0, 2 or 3, not 1"),
    ({"komi": "6.5"}, "conhex has no option 'komi' (options: handicap, pie)"),
])
def test_conhex_option_errors_name_the_key_and_the_allowed_values(options, message):
    with pytest.raises(OptionError) as error:
        new_game("conhex", **options)
    assert str(error.value) == message


def test_the_board_constructor_checks_its_options_too():
    with pytest.raises(OptionError, match="handicap must be 0, 2 or 3, not 4"):
        ConHexBoard(handicap=4)


def test_a_spec_without_choices_takes_any_value_of_its_type():
    spec = (Option("seed", None, int, "a seed"), Option("name", "x", str, "a name"))
    assert validate("test", spec, {}) == {"seed": None, "name": "x"}
    assert validate("test", spec, {"seed": " 42 ", "name": "y"}) == {"seed": 42, "name": "y"}
    with pytest.raises(OptionError, match="seed must be a whole number, not 'x'"):
        validate("test", spec, {"seed": "x"})


def test_the_base_board_has_no_options():
    assert Board.OPTIONS == ()
