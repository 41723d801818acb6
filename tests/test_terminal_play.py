"""The terminal game: a person typing against the engine, and two engines."""

import io
import random
import re

import pytest
from hypothesis import given, settings, strategies as st

from app.cli.play import play
from app.cli.terminal import AREA_SHADES, _shades, render
from app.games import new_game

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def run_game(lines, seats, seed=1, **options):
    board = new_game("kulami", **options)
    out = io.StringIO()
    play(board, seats, 2, random.Random(seed), io.StringIO("".join(l + "\n" for l in lines)), out)
    return board, out.getvalue()


def test_a_person_plays_against_the_engine_and_gets_clear_errors():
    board, text = run_game(["d4", "e5", "zz", "quit"], {"b": "person", "w": "engine"})
    assert [str(m) for m in board.move_stack][:1] == ["d4"] and len(board.move_stack) == 2
    assert "black (engine) plays" in text
    assert "not played: 'zz' is not a field" in text
    assert re.search(r"not played: e5 is (not in the row|on an off-limits|already)", text)


def test_undo_takes_back_the_engine_reply_too_and_hint_suggests_a_legal_move():
    board, text = run_game(["d4", "hint", "undo", "quit"], {"b": "person", "w": "engine"})
    assert board.move_stack == []
    hint = re.search(r"hint: (\w+)", text)[1]
    replay = new_game("kulami")
    replay.push_text("d4")
    replay.push(replay.parse_move(re.search(r"plays (\w+)", text)[1]))
    assert hint in {str(m) for m in replay.legal_moves}


def test_two_engines_finish_and_report_the_result():
    board, text = run_game([], {"b": "engine", "w": "engine"})
    assert board.is_game_over()
    assert f"({board.outcome().result()})." in text and "Game over" in text


def test_end_of_input_stops_cleanly():
    board, text = run_game([], {"b": "person", "w": "person"})
    assert text.rstrip().endswith("bye") and board.move_stack == []


def test_the_board_drawing_shows_pieces_legal_fields_and_coordinates():
    board = new_game("kulami", layout="square-1")
    board.push_text("d4")
    plain = ANSI.sub("", render(board)).splitlines()
    assert plain[-1].split() == list("abcdefgh")
    row_4 = plain[8 - 4]
    assert row_4.startswith(" 4") and "\u25cf" in row_4 and row_4.count("\u00b7") == 6
    assert ANSI.sub("", render(board)).count("\u00b7") == len(board.legal_moves)


@pytest.mark.parametrize("layout", ["square-3", "square-4", "random:3", "cross"])
def test_play_starts_on_layouts_the_greedy_shading_ran_out_of_shades_on(layout):
    """The issue's case: `tabletop play kulami layout=square-3` crashed before the first
    move."""
    board, text = run_game(["quit"], {"b": "person", "w": "person"}, layout=layout)
    assert "red to move" in text and text.count(AREA_SHADES[0]) > 0


def assert_touching_panels_shaded_apart(board):
    shades = _shades(board)
    assert set(shades) == set(board.holes) and set(shades.values()) <= set(AREA_SHADES)
    panel_of = {hole: panel for panel, holes in board.areas.items() for hole in holes}
    for hole in board.holes:
        column, row = hole[0], int(hole[1:])
        for neighbour in (f"{chr(ord(column) + 1)}{row}", f"{column}{row + 1}"):
            if neighbour in panel_of and panel_of[neighbour] != panel_of[hole]:
                assert shades[neighbour] != shades[hole], (board.layout.text(), hole)


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32), square=st.booleans())
def test_every_random_layout_is_shaded_with_touching_panels_apart(seed, square):
    kind = "random" if square else "random-free"
    board = new_game("kulami", layout=f"{kind}:{seed}")
    assert_touching_panels_shaded_apart(board)
    assert ANSI.sub("", render(board)).count("\u00b7") == len(board.legal_moves)


def test_conhex_shades_only_holes_of_one_cell():
    board = new_game("conhex")
    shades = _shades(board)
    assert set(shades) == {"a1", "a11", "k1", "k11", "f6"}  # the corners and the centre
