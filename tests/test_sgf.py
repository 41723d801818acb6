"""The SGF main-line reader and writer."""

import pytest

from engines import sgf
from engines.core import RecordError


def test_round_trip_with_escapes():
    nodes = [{"GM": ["Kulami"], "C": ["a ] bracket and a \\ backslash"]}, {"B": ["d4"]}]
    assert sgf.parse(sgf.dumps(nodes)) == nodes


def test_multiple_values_and_whitespace():
    assert sgf.parse(" ( ;AB[a][b] \n ;W[c] ) ") == [{"AB": ["a", "b"]}, {"W": ["c"]}]


@pytest.mark.parametrize("text, message", [
    ("(;B[a](;W[b]))", "variations are not supported"),
    ("(;b[a])", "property name 'b' must be upper case"),
    ("(;B[a]B[b])", "property B appears twice"),
    ("(;B)", "property B has no value"),
    ("(;B[a)", "a property value is not closed"),
    ("()", "the game tree has no nodes"),
    ("(;B[a]1)", "unexpected '1'"),
])
def test_malformed_sgf(text, message):
    with pytest.raises(RecordError, match=message):
        sgf.parse(text)


def test_options_are_read_through_their_option_and_absent_ones_left_out():
    from engines.options import Option
    flag = Option("pie", True, bool, "the pie rule")
    count = Option("handicap", 0, int, "gems", choices=(0, 2, 3))
    root = {"PIE": [sgf.option_text(False)], "C": ["a comment"]}
    assert root["PIE"] == ["false"]
    assert sgf.read_options(root, {"PIE": flag, "HA": count}) == {"pie": False}
    assert sgf.read_options({"HA": ["3"]}, {"HA": count}) == {"handicap": 3}
    with pytest.raises(sgf.RecordOptionError, match=r"^HA must be 0, 2 or 3, not '2.0' "
                                                     r"\(handicap\)$"):
        sgf.read_options({"HA": ["2.0"]}, {"HA": count})
