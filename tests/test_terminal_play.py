"""The terminal game: a person typing against the engine, and two engines."""

import io
import random
import re

from app.cli.play import play
from app.cli.terminal import render
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
