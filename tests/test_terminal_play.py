"""The terminal game: the board, the score and the help line, every notation the help line
shows, and games saved as they go, continued after a crash and loaded from a list."""

import io
import os
import re
import select
import signal
import subprocess
import sys
import time

import pytest
from hypothesis import given, settings, strategies as st

from app.cli import main
from app.cli.play import PROFILE, help_line, play
from app.cli.terminal import (AREA_SHADES, OPEN_CELL, OWNED_CELL, _fg, _shades, cell_places,
                              hole_positions, render)
from app.games import game, new_game
from app.table.seats import words_of
from app.table.session import Session
from app.table.thinker import InlineThinker
from app.table.store import RecordStore, default_data_dir
from app.table.view import BoardView

ANSI = re.compile(r"\x1b\[[0-9;]*m")
PEOPLE = {"b": "person", "w": "person"}
AGAINST_ENGINE = {"b": "person", "w": "engine"}


def plain(text):
    return ANSI.sub("", text)


def view_of(board):
    """The view the terminal draws: a session's of ``board``, two people at it."""
    return Session(board, seats=dict(PEOPLE), physical=False).view()


def draw(board, colour=True):
    """``board`` as the terminal draws it."""
    return render(view_of(board), colour)


def terminal_session(board, seats, seed=1, store=None):
    """The session ``tabletop play`` drives: no board, the engine searching inline."""
    return Session(board, seats=dict(seats), level=2, seed=seed, store=store, physical=False,
                   thinker=InlineThinker())


def run_game(lines, seats, seed=1, name="kulami", colour=None, **options):
    board = new_game(name, **options)
    out = io.StringIO()
    play(terminal_session(board, seats, seed), io.StringIO("".join(l + "\n" for l in lines)),
         out, colour)
    return board, out.getvalue()


def test_a_person_plays_against_the_engine_and_gets_clear_errors():
    board, text = run_game(["d4", "e5", "zz", "quit"], AGAINST_ENGINE)
    assert [str(m) for m in board.move_stack][:1] == ["d4"] and len(board.move_stack) == 2
    assert "Black (engine) plays" in text
    assert "Not played: 'zz' is not a field" in text
    assert re.search(r"Not played: e5 is (not in the row|on an off-limits|already)", text)


def test_undo_takes_back_the_engine_reply_too_and_hint_suggests_a_legal_move():
    board, text = run_game(["d4", "hint", "undo", "quit"], AGAINST_ENGINE)
    assert board.move_stack == []
    hint = re.search(r"Hint: (\w+)", text)[1]
    replay = new_game("kulami")
    replay.push_text("d4")
    replay.push(replay.parse_move(re.search(r"plays (\w+)", text)[1]))
    assert hint in {str(m) for m in replay.legal_moves}
    assert re.search(r"Took back \w+, d4\.", text)  # the session's words: the last first


@pytest.mark.parametrize("name", ["kulami", "conhex"])
def test_two_engines_finish_and_report_the_result(name):
    board, text = run_game([], {"b": "engine", "w": "engine"}, name=name)
    outcome = board.outcome()
    assert outcome is not None and "Game over" in text
    assert f"({outcome.result()})" not in text  # GTP's B and W are not the colours
    winner = game(name).players[outcome.winner].title if outcome.winner else "A draw"
    assert winner in text.splitlines()[-1]
    if name == "conhex":  # won by a chain, in the players' colours and sides
        assert re.search(r"Game over: (red joins top and bottom|blue joins left and right) "
                         r"with a chain of cells\. (Red|Blue) wins\.", text)
    assert " b " not in text.splitlines()[-1] and " w " not in text.splitlines()[-1]


def test_end_of_input_stops_cleanly():
    board, text = run_game([], PEOPLE)
    assert text.rstrip().endswith("bye") and board.move_stack == []


def test_an_engine_moving_first_plays_before_the_first_prompt():
    board, text = run_game(["quit"], {"b": "engine", "w": "person"})
    first = board.move_text(board.move_stack[0])
    assert len(board.move_stack) == 1
    assert text.index(f"Red (engine) plays {first}") < text.index("black to move>")


def test_saving_that_starts_and_stops_failing_is_said_once_each(tmp_path, monkeypatch):
    """A full disk from the first move on, room again before the undo: each change is
    one line, and the game goes on throughout."""
    import errno

    from app.table import store as store_module

    full = [True]
    real_fsync = os.fsync

    def fsync(fd):
        if full[0]:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_fsync(fd)

    class Freed(io.StringIO):
        """Input that frees the disk before its third line is read."""

        def __init__(self, lines):
            super().__init__("".join(l + "\n" for l in lines))
            self.lines_read = 0

        def readline(self, *args):
            self.lines_read += 1
            full[0] = self.lines_read < 3
            return super().readline(*args)

    store = RecordStore(tmp_path)
    session = terminal_session(new_game("kulami"), PEOPLE, store=store)
    store.start(session.board)
    monkeypatch.setattr(store_module.os, "fsync", fsync)
    out = io.StringIO()
    play(session, Freed(["d4", "d7", "undo", "quit"]), out)
    text = out.getvalue()
    assert text.count("Saving fails (cannot save 000001-kulami.sgf: No space") == 1
    assert text.count("Saving works again: the game is on disk") == 1
    assert text.rstrip().endswith("Saved; 'tabletop play' continues this game.")
    assert [str(m) for m in RecordStore(tmp_path).resume().board.move_stack] == ["d4"]


class Watched(io.StringIO):
    """The terminal's output, noting as each line naming the engine's move is written the
    moves the record on disk holds at that instant (what a power cut then would keep)."""

    def __init__(self, record):
        super().__init__()
        self.record = record
        self.on_disk = []

    def write(self, text):
        if "(engine) plays" in text:
            board = new_game("kulami").from_record(self.record.read_text())
            self.on_disk.append([str(m) for m in board.move_stack])
        return super().write(text)


def test_the_engine_s_move_is_shown_only_once_it_is_on_disk(tmp_path):
    store = RecordStore(tmp_path)
    session = terminal_session(new_game("kulami"), AGAINST_ENGINE, store=store)
    record = store.start(session.board)
    out = Watched(record)
    play(session, io.StringIO("d4\nquit\n"), out)
    reply = str(session.board.move_stack[1])
    assert f"Black (engine) plays {reply}\n" in out.getvalue()
    assert out.on_disk == [["d4", reply]]


def test_an_engine_move_whose_save_fails_says_so_in_its_own_line(tmp_path, monkeypatch):
    """ENOSPC from the store's fsync once the engine has replied: the reply is named after
    its save was tried, in one line saying it is not on disk and why, and nothing after
    it calls the game saved."""
    import errno

    from app.table import store as store_module

    store = RecordStore(tmp_path)
    session = terminal_session(new_game("kulami"), AGAINST_ENGINE, store=store)
    record = store.start(session.board)
    real_fsync = os.fsync

    def fsync(fd):
        if len(session.board.move_stack) >= 2:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_fsync(fd)

    monkeypatch.setattr(store_module.os, "fsync", fsync)
    out = Watched(record)
    play(session, io.StringIO("d4\nquit\n"), out)
    reply = str(session.board.move_stack[1])
    lines = out.getvalue().splitlines()
    said = [line for line in lines if "(engine) plays" in line]
    assert said == [f"Black (engine) plays {reply}, not saved yet: saving fails (cannot "
                    f"save 000001-kulami.sgf: No space left on device); the game goes on "
                    f"and is saved when it can be."]
    assert out.on_disk == [["d4"]]
    assert sum("saving fails" in line.lower() for line in lines) == 1
    assert not any("Saved" in line for line in lines)
    assert "could not be saved" in lines[-1]


# --- the score and the help line ----------------------------------------------------------

def test_the_score_is_shown_after_every_move_with_what_it_counts():
    _, text = run_game(["d4", "quit"], PEOPLE)
    assert "Score: red 0, black 0 (panels)" in text
    assert "Score: red 6, black 0 (panels)" in text  # d4 gives red panel j's six fields
    _, text = run_game(["quit"], PEOPLE, scoring=2)
    assert "Score: red 0, black 0 (panels + area + chains)" in text


def test_conhex_shows_the_cells_each_player_owns_not_a_score():
    _, text = run_game(["b3", "f6", "b4", "quit"], PEOPLE, name="conhex", pie=False)
    assert "Cells: red 0, blue 0" in text
    assert "Cells: red 1, blue 0" in text  # b3 and b4 claim the edge cell b3-b4-b5
    assert "Score" not in text


def help_words(line):
    """The notations a help line shows: its example move, word moves and commands."""
    example = re.search(r"such as (\w+)", line)[1]
    words = re.findall(r", (\w+) \(", line)
    commands = re.findall(r"\b(\w+)\b", line.split("; or ", 1)[1])
    return example, words, [c for c in commands if c != "or"]


@pytest.mark.parametrize("name", ["kulami", "conhex", "akron"])
def test_every_notation_the_help_line_shows_is_accepted(name):
    board = new_game(name)
    example, words, commands = help_words(help_line(board, view_of(board)))
    assert commands == ["hint", "undo", "resign", "help", "quit"] and words == []
    # the example move is played
    played, text = run_game([example, "quit"], PEOPLE, name=name)
    assert [played.move_text(m) for m in played.move_stack] == [example]
    assert "Not played" not in text
    # each command does what it says
    _, text = run_game([example, "hint", "undo", "help", "quit"], PEOPLE, name=name)
    assert re.search(r"Hint: \w+", text) and f"Took back {example}." in text
    assert text.count(f"{game(name).title}: ") == 2  # the goal, at the start and on help
    assert "Not played" not in text
    # the help line is shown at every turn of a person, with the move to make now
    assert text.count("Moves: type a ") == 5


def test_the_swap_is_offered_while_legal_and_accepted_as_shown():
    board = new_game("conhex")
    board.push_text("j3")
    line = help_line(board, view_of(board))
    assert help_words(line)[1] == ["swap"] and "swap (Blue may swap: take over Red's first gem, and Red moves next)" in line
    played, text = run_game(["j3", "swap", "quit"], PEOPLE, name="conhex")
    assert [str(m) for m in played.move_stack] == ["j3", "swap"]
    assert played.sensor_view() == {"j3": "w"}
    board.push_text("swap")
    assert help_words(help_line(board, view_of(board)))[1] == []  # no longer offered
    _, text = run_game(["j3", "f6", "SWAP", "quit"], PEOPLE, name="conhex")
    assert "Not played: swap is only legal as blue's first action." in text


def drawn_holes(board):
    """Each hole mark on the drawing, named by the row label of its line and the column
    label under it: what a person reads off the board to type."""
    lines = plain(draw(board)).splitlines()
    footer = next(l for l in reversed(lines) if re.fullmatch(r"[ a-z]+", l))
    columns = {i: c for i, c in enumerate(footer) if c.isalpha()}
    names = {}
    for line in lines:
        label = line[:3].strip()
        if not label.isdigit():
            continue
        for i, c in enumerate(line):
            if c in "\u00b7\u25cf\u2218" and i >= 3:
                names[(line.index(c, i), label)] = f"{columns[i]}{label}"
    return list(names.values())


@pytest.mark.parametrize("name, options", [("kulami", {}), ("kulami", {"layout": "cross"}),
                                           ("kulami", {"layout": "random-free:7"}),
                                           ("conhex", {})])
def test_every_hole_is_typed_as_the_board_labels_it(name, options):
    """Read off the drawing (row number on the left, column letter below), every hole's
    name is the move the engine takes, in either case: a11 and k11 too."""
    board = new_game(name, **options)
    names = drawn_holes(board)
    assert sorted(names) == sorted(board.holes)
    for text in names:
        assert board.move_text(board.parse_move(text)) == text
        assert board.move_text(board.parse_move(text.upper())) == text


# --- the drawing -----------------------------------------------------------------------------

def test_the_board_drawing_shows_pieces_legal_fields_and_coordinates():
    board = new_game("kulami", layout="square-1")
    board.push_text("d4")
    lines = plain(draw(board)).splitlines()
    assert lines[-1].split() == list("abcdefgh")
    row_4 = lines[8 - 4]
    assert row_4.startswith(" 4") and "\u25cf" in row_4 and row_4.count("\u00b7") == 6
    assert plain(draw(board)).count("\u00b7") == len(board.legal_moves)


def test_conhex_draws_every_cell_between_its_holes_in_its_owners_colour():
    board = new_game("conhex", pie=False)
    for hole in ("b3", "f6", "b4", "f7", "c4", "e6"):
        board.push_text(hole)
    drawn = draw(board)
    red, blue = (_fg(game("conhex").players[p].piece) for p in "bw")
    owned = {p: len(board.owned(p)) for p in "bw"}
    assert owned == {"b": 2, "w": 1}
    assert drawn.count(red + OWNED_CELL) == 2 + 1  # and once in the legend
    assert drawn.count(blue + OWNED_CELL) == 1 + 1
    assert drawn.count(OPEN_CELL) == 41 - 3 + 1
    assert "red's cell" in plain(drawn) and "nobody's yet" in plain(drawn)
    # Each owned cell's mark is where cell_places puts it.
    lines = drawn.splitlines()
    top = 2 * max(y for _, y in hole_positions(BoardView.of(board)).values())
    for cell in board.owned("b"):
        x, y = cell_places(BoardView.of(board))[cell]
        line = lines[top - y]
        assert plain(line)[3 + 2 * x] == OWNED_CELL and red + OWNED_CELL in line


def test_every_conhex_cell_has_a_place_of_its_own_among_its_holes():
    board = new_game("conhex")
    places = cell_places(BoardView.of(board))
    position = hole_positions(BoardView.of(board))
    holes = {(2 * x, 2 * y) for x, y in position.values()}
    assert len(places) == 41 and len(set(places.values())) == 41
    assert not set(places.values()) & holes
    for cell, (x, y) in places.items():
        xs = [2 * position[h][0] for h in board.areas[cell]]
        ys = [2 * position[h][1] for h in board.areas[cell]]
        assert min(xs) - 1 <= x <= max(xs) + 1 and min(ys) - 1 <= y <= max(ys) + 1, cell


@pytest.mark.parametrize("layout", ["square-3", "square-4", "random:3", "cross"])
def test_play_starts_on_layouts_the_greedy_shading_ran_out_of_shades_on(layout):
    """The issue's case: `tabletop play kulami layout=square-3` crashed before the first
    move."""
    board, text = run_game(["quit"], PEOPLE, layout=layout, colour=True)
    assert "red to move" in text and text.count(AREA_SHADES[0]) > 0


def assert_touching_panels_shaded_apart(board):
    shades = _shades(BoardView.of(board))
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
    assert plain(draw(board)).count("\u00b7") == len(board.legal_moves)


def test_conhex_shades_only_holes_of_one_cell():
    board = new_game("conhex")
    shades = _shades(BoardView.of(board))
    assert set(shades) == {"a1", "a11", "k1", "k11", "f6"}  # the corners and the centre


# --- saved as it goes, resumed, loaded ------------------------------------------------------

@pytest.fixture
def data(tmp_path, monkeypatch):
    """A data directory of this test's own for ``tabletop play``."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    return default_data_dir()


def tabletop_play(monkeypatch, capsys, *args, lines=()):
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(l + "\n" for l in lines)))
    status = main(["play", *args])
    captured = capsys.readouterr()
    return status, plain(captured.out), captured.err


def saved_games(data):
    store = RecordStore(data)
    return {s.path.name: store.read(s.path).board for s in store.saved()}


def test_every_move_is_saved_at_once_and_the_game_continues_next_time(data, monkeypatch,
                                                                     capsys):
    status, out, _ = tabletop_play(monkeypatch, capsys, "kulami", "layout=cross",
                                   "--black", "person", lines=["e5", "e3"])
    assert status == 0 and "New game: 000001-kulami.sgf" in out
    board = saved_games(data)["000001-kulami.sgf"]
    assert [str(m) for m in board.move_stack] == ["e5", "e3"]
    root = (data / "games" / "000001-kulami.sgf").read_text()
    assert "SEATB[person]SEATW[person]" in root and f"PROFILE[{PROFILE}]" in root
    # the next `tabletop play kulami` continues it, with its own options and seats
    status, out, _ = tabletop_play(monkeypatch, capsys, "kulami", lines=["quit"])
    assert "Continuing 000001-kulami.sgf at move 2 (layout cross" in out
    assert "Red: person, Black: person" in out and "black to move" not in out
    assert "red to move" in out and "New game" not in out
    # seats given for a game that continues: it says how to start a new one
    status, out, _ = tabletop_play(monkeypatch, capsys, "kulami", "--level", "1",
                                   lines=["quit"])
    assert "Continuing" in out and "add --new to start a new game with yours" in out
    assert list(saved_games(data)) == ["000001-kulami.sgf"]
    # options describe a new game, as for tabletop simulate
    status, out, _ = tabletop_play(monkeypatch, capsys, "kulami", "scoring=2",
                                   lines=["quit"])
    assert "New game: 000002-kulami.sgf" in out and "(panels + area + chains)" in out


def test_new_starts_another_game_and_the_unfinished_one_stays(data, monkeypatch, capsys):
    tabletop_play(monkeypatch, capsys, "--black", "person", lines=["d4"])
    status, out, _ = tabletop_play(monkeypatch, capsys, "--new", "--black", "person",
                                   "scoring=1", lines=["e5", "quit"])
    assert "New game: 000002-kulami.sgf" in out and "(panels + largest area)" in out
    games = saved_games(data)
    assert [len(b.move_stack) for b in games.values()] == [1, 1]  # newest first
    # the newest game of the game continues, whichever game was played in between
    tabletop_play(monkeypatch, capsys, "conhex", lines=["f6", "quit"])
    status, out, _ = tabletop_play(monkeypatch, capsys, "kulami", lines=["quit"])
    assert "Continuing 000002-kulami.sgf at move 1" in out


def test_plain_play_continues_the_last_unfinished_game_whichever_game_it_is(
        data, monkeypatch, capsys):
    """After quitting ConHex, Blokus Duo or Akron the terminal said "'tabletop play'
    continues this game", and 'tabletop play' opened Kulami."""
    status, out, _ = tabletop_play(monkeypatch, capsys, "conhex", "--blue", "person",
                                   lines=["f6", "quit"])
    assert out.rstrip().endswith("Saved; 'tabletop play' continues this game.")
    status, out, _ = tabletop_play(monkeypatch, capsys, lines=["quit"])
    assert "Continuing 000001-conhex.sgf at move 1" in out and "blue to move" in out
    # seat flags are for a new game: a Kulami colour does not stop ConHex continuing
    status, out, err = tabletop_play(monkeypatch, capsys, "--black", "person",
                                     lines=["quit"])
    assert status == 0 and "Continuing 000001-conhex.sgf" in out, err
    assert "add --new to start a new game with yours" in out
    # a newer unfinished game of another game: the farewell names the game's command
    tabletop_play(monkeypatch, capsys, "akron", "--red", "person", lines=["1c3", "quit"])
    status, out, _ = tabletop_play(monkeypatch, capsys, "conhex", lines=["quit"])
    assert out.rstrip().endswith("Saved; 'tabletop play conhex' continues this game.")
    status, out, _ = tabletop_play(monkeypatch, capsys, lines=["quit"])
    assert "Continuing 000002-akron.sgf" in out
    # with nothing unfinished, a new game of the first game
    for record in (data / "games").iterdir():
        record.unlink()
    status, out, _ = tabletop_play(monkeypatch, capsys, lines=["quit"])
    assert "New game: 000001-kulami.sgf" in out


def test_a_finished_game_is_not_continued(data, monkeypatch, capsys):
    tabletop_play(monkeypatch, capsys, "--red", "engine", "--black", "engine", "--seed", "4")
    (finished,) = saved_games(data).values()
    assert finished.is_game_over()
    status, out, _ = tabletop_play(monkeypatch, capsys, lines=["quit"])
    assert "New game: 000002-kulami.sgf" in out


def test_an_older_unfinished_game_continues_once_a_newer_one_finished(data, monkeypatch,
                                                                      capsys):
    tabletop_play(monkeypatch, capsys, "kulami", "--black", "person", lines=["d4", "quit"])
    tabletop_play(monkeypatch, capsys, "kulami", "--new", "--red", "engine", "--black",
                  "engine", "--seed", "4")
    assert saved_games(data)["000002-kulami.sgf"].is_game_over()
    status, out, _ = tabletop_play(monkeypatch, capsys, "kulami", lines=["quit"])
    assert "Continuing 000001-kulami.sgf at move 1" in out and "New game" not in out
    assert list(saved_games(data)) == ["000002-kulami.sgf", "000001-kulami.sgf"]


class Crash(Exception):
    """The terminal closing under the game, or the machine going down."""


class CrashingInput(io.StringIO):
    def __init__(self, lines, crash_after):
        super().__init__("".join(l + "\n" for l in lines))
        self.left = crash_after

    def readline(self, *args):
        if self.left == 0:
            raise Crash()
        self.left -= 1
        return super().readline(*args)


def test_a_crash_loses_no_move(data, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", CrashingInput(["d4", "undo", "e5", "quit"], 3))
    with pytest.raises(Crash):
        main(["play", "--seed", "7"])
    (board,) = saved_games(data).values()
    assert [str(m) for m in board.move_stack][:1] == ["e5"] and len(board.move_stack) == 2
    engine_reply = str(board.move_stack[1])
    status, out, _ = tabletop_play(monkeypatch, capsys, lines=["quit"])
    assert "Continuing 000001-kulami.sgf at move 2" in out and status == 0
    assert "Red: person, Black: engine level 2" in out
    # the engine's choices depend on the seed and the position: the same reply again
    status, out, _ = tabletop_play(monkeypatch, capsys, lines=["undo", "e5", "quit"])
    assert f"Black (engine) plays {engine_reply}" in out


def test_load_lists_the_saved_games_and_continues_the_one_picked(data, monkeypatch, capsys):
    tabletop_play(monkeypatch, capsys, "--black", "person", lines=["d4", "d7"])
    tabletop_play(monkeypatch, capsys, "conhex", "pie=false", "--blue", "person",
                  lines=["f6"])
    tabletop_play(monkeypatch, capsys, "--new", "layout=cross", "--black", "person",
                  lines=["e5", "quit"])
    status, out, _ = tabletop_play(monkeypatch, capsys, "--load", lines=["3", "quit"])
    listed = [line for line in out.splitlines() if re.match(r" +\d+  0000", line)]
    assert len(listed) == 3
    assert listed[0].startswith("  1  000003-kulami.sgf  Kulami, 1 moves, layout cross")
    assert listed[1].startswith("  2  000002-conhex.sgf  ConHex, 1 moves, no pie rule")
    assert listed[2].startswith("  3  000001-kulami.sgf  Kulami, 2 moves, layout square-1")
    assert all(line.endswith(": unfinished") for line in listed)
    assert "Continuing 000004-kulami.sgf at move 2." in out  # the newest now
    assert "red to move" in out
    # --load N at once, and only one game's records when a game is named
    status, out, _ = tabletop_play(monkeypatch, capsys, "conhex", "--load", "1",
                                   lines=["quit"])
    assert "Continuing 000005-conhex.sgf at move 1." in out and "blue to move" in out
    # Enter cancels; a number not in the list is one line and status 2
    status, out, _ = tabletop_play(monkeypatch, capsys, "--load", lines=[""])
    assert status == 0 and "to move" not in out
    status, out, err = tabletop_play(monkeypatch, capsys, "--load", "9")
    assert status == 2 and err == "tabletop play: the list has games 1 to 3, not 9\n"
    status, _, err = tabletop_play(monkeypatch, capsys, "--load", "1", "scoring=2")
    assert status == 2 and "options are for a new game" in err


def test_load_names_finished_games_and_records_that_do_not_load(data, monkeypatch, capsys):
    tabletop_play(monkeypatch, capsys, "--red", "engine", "--black", "engine", "--seed", "4")
    (data / "games" / "000002-kulami.sgf").write_text("(;GM[Kulami]LY[square-1];B[zz])")
    status, out, _ = tabletop_play(monkeypatch, capsys, "--load", lines=[""])
    assert re.search(r"  1  000002-kulami\.sgf  does not load: .*zz", out)
    assert re.search(r"  2  000001-kulami\.sgf  Kulami, \d+ moves, .*: (Red wins|Black wins"
                     r"|A draw)( by \d+, \d+ to \d+| at \d+|, Red \d+, Black \d+)?$", out, re.M)
    # a finished game loaded shows its end, and a record that does not load is one line
    status, out, _ = tabletop_play(monkeypatch, capsys, "--load", "2")
    assert status == 0 and "Continuing 000003-kulami.sgf" in out
    assert "to move" not in out and "Game over: " in out
    status, out, err = tabletop_play(monkeypatch, capsys, "--load", "2")
    assert status == 2 and err.startswith("tabletop play: record 000002-kulami.sgf does not "
                                          "load") and err.count("\n") == 1


def test_a_record_out_of_turn_is_one_line_naming_the_players_by_colour(data, monkeypatch,
                                                                       capsys):
    """``it is w's turn, not b's`` named GTP's letters, which read as white and black;
    in Kulami red moves first and black second."""
    (data / "games").mkdir(parents=True)
    (data / "games" / "000001-kulami.sgf").write_text(
        "(;GM[Kulami]LY[square-1];B[d4];B[d7])")
    status, out, _ = tabletop_play(monkeypatch, capsys, "--load", lines=[""])
    assert "000001-kulami.sgf  does not load: move 2 (B[d7]): it is black's turn, not " \
           "red's" in out
    status, _, err = tabletop_play(monkeypatch, capsys, "--load", "1")
    assert status == 2 and err == ("tabletop play: record 000001-kulami.sgf does not load: "
                                   "move 2 (B[d7]): it is black's turn, not red's\n")

def test_a_game_left_before_its_first_move_is_not_kept(data, monkeypatch, capsys):
    """Every open-and-quit was kept: 4 of a newcomer's 12 listed games had no move."""
    status, out, _ = tabletop_play(monkeypatch, capsys, "conhex", lines=["quit"])
    assert status == 0 and out.rstrip().endswith("Nothing played, so nothing kept.")
    tabletop_play(monkeypatch, capsys, "blokus-duo")  # the end of input leaves it too
    assert saved_games(data) == {}
    status, out, _ = tabletop_play(monkeypatch, capsys, "--load")
    assert "No saved games in" in out
    # A game of no moves continued from elsewhere (a board's, its layout set out on the
    # table) is kept.
    RecordStore(data, profile="kulami").start(new_game("kulami", layout="cross"))
    status, out, _ = tabletop_play(monkeypatch, capsys, "--load", "1", lines=["quit"])
    assert "Continuing 000001-kulami.sgf at move 0." in out
    assert out.rstrip().endswith("continues this game.") and len(saved_games(data)) == 1


def test_no_saved_games_is_said(data, monkeypatch, capsys):
    status, out, _ = tabletop_play(monkeypatch, capsys, "--load")
    assert status == 0 and "No saved games in" in out


def test_the_help_describes_saving_new_and_load(capsys):
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "Every move is saved at once" in text and "--new" in text and "--load [N]" in text
    assert "'tabletop play' continues the last unfinished game played in the terminal, " \
           "whichever game it is" in text and "--blue" in text


def read_until(process, marker, timeout=30.0):
    """Read the process's output until ``marker`` shows up; the text read so far."""
    out, end = b"", time.monotonic() + timeout
    while marker.encode() not in out:
        ready, _, _ = select.select([process.stdout], [], [], max(0, end - time.monotonic()))
        assert ready, f"no {marker!r} in {out[-500:]!r}"
        chunk = os.read(process.stdout.fileno(), 65536)
        assert chunk, f"the game ended without {marker!r}: {out[-500:]!r}"
        out += chunk
    return plain(out.decode())


def test_a_killed_terminal_game_continues_where_it_was(tmp_path):
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    command = [sys.executable, "-m", "app.cli", "play", "conhex", "--blue", "person"]
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               env=env)
    try:
        read_until(process, "red to move> ")
        process.stdin.write(b"f6\n")
        process.stdin.flush()
        read_until(process, "blue to move> ")
        process.stdin.write(b"swap\n")
        process.stdin.flush()
        read_until(process, "red to move> ")
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
    result = subprocess.run(command, input=b"quit\n", capture_output=True, env=env,
                            timeout=60)
    out = plain(result.stdout.decode())
    assert result.returncode == 0 and "Continuing 000001-conhex.sgf at move 2" in out
    board = RecordStore(tmp_path / "tabletop").resume("conhex", PROFILE).board
    assert [str(m) for m in board.move_stack] == ["f6", "swap"]


@pytest.mark.parametrize("scoring, parts", [(0, ["Panels"]), (1, ["Panels", "Largest area"]),
                                            (2, ["Panels", "Largest area", "Chains of 5+"])])
def test_the_end_of_a_kulami_game_shows_the_score_in_its_parts(scoring, parts):
    """The terminal's sheet is the end screen's: the same lines from the same engine
    figures, then the one end line with the margin in the players' colours."""
    board, text = run_game([], {"b": "engine", "w": "engine"}, scoring=scoring)
    lines = text.splitlines()
    sheet = lines[-1 - len(parts):-1]
    assert [line.split(":")[0] for line in sheet] == parts
    assert re.fullmatch(r"Panels: Red \d+ \(\d+ pts\), Black \d+ \(\d+ pts\)", sheet[0])
    if scoring:
        assert re.fullmatch(r"Largest area: Red \d+, Black \d+: (Red \+\d+|Black \+\d+|no "
                            r"bonus)", sheet[1])
    total, outcome = board.scores(), board.outcome()
    high, low = max(total.values()), min(total.values())
    end = (f"wins by {high - low}, {high} to {low}." if outcome.winner
           else f"A draw at {high}.")
    assert lines[-1].startswith("Game over: ") and lines[-1].endswith(end)


def test_the_help_line_shows_a_blokus_duo_move_as_its_squares():
    from app.cli.play import help_line

    line = help_line(duo := new_game("blokus-duo"), view_of(duo))
    example = line.split("such as ")[1].split(";")[0]
    assert "piece, its squares joined by commas" in line and "," in example
    board = new_game("blokus-duo")
    assert board.is_legal(board.parse_move(example))


def test_the_help_line_shows_akron_moves_and_a_hole_near_the_middle():
    from app.cli.play import help_line

    line = help_line(akron := new_game("akron"), view_of(akron))
    assert "a ball's point and where it goes (1c3-2d4)" in line
    assert line.split("such as ")[1].split(";")[0] in ("1g7", "1g9", "1i7", "1i9")


# --- colour only where someone sees it (no-color.org) ------------------------------------

class Terminal(io.StringIO):
    """Standard output that is a terminal."""

    def isatty(self):
        return True


@pytest.mark.parametrize("environ, tty, expected", [
    ({}, True, True),
    ({"TERM": "xterm-256color"}, True, True),
    ({"NO_COLOR": ""}, True, True),       # set but empty: no-color.org says colour stays
    ({"NO_COLOR": "1"}, True, False),
    ({"NO_COLOR": "0"}, True, False),     # any non-empty value, even "0"
    ({"TERM": "dumb"}, True, False),
    ({}, False, False),                   # a pipe or a file
])
def test_colour_only_where_no_color_term_and_the_stream_allow(environ, tty, expected):
    from app.cli.terminal import wants_colour
    stream = Terminal() if tty else io.StringIO()
    assert wants_colour(stream, environ) is expected


def test_a_closed_stream_or_one_without_isatty_gets_no_colour():
    from app.cli.terminal import wants_colour
    closed = io.StringIO()
    closed.close()
    assert wants_colour(closed, {}) is False
    assert wants_colour(object(), {}) is False


@pytest.mark.parametrize("name", ["kulami", "conhex", "blokus-duo", "akron"])
def test_a_plain_board_has_no_escapes_and_tells_the_players_apart(name):
    board = new_game(name)
    for _ in range(2):
        board.push(next(iter(board.legal_moves)))
    drawn = draw(board, colour=False)
    assert "\x1b" not in drawn
    players = game(name).players
    initials = {info.name[0].upper() for info in players.values()}
    marks = {c for line in drawn.splitlines() if line[:3].strip().isdigit()
             for c in line[3:]}
    assert initials <= marks
    assert "\u25cf" not in drawn  # the one piece mark, told apart only by its colour


def test_plain_kulami_names_each_hole_s_panel_where_colour_shades_it():
    board = new_game("kulami", layout="square-1")
    lines = draw(board, colour=False).splitlines()
    # square-1's top row is aaabbccd: each hole's panel letter before its mark.
    assert lines[0][3::3][:8] == "aaabbccd"


def pipe_play(tmp_path, env):
    env = {key: value for key, value in os.environ.items()
           if key not in ("NO_COLOR", "TERM")} | env
    env["XDG_DATA_HOME"] = str(tmp_path / "xdg")
    return subprocess.run([sys.executable, "-m", "app.cli", "play", "kulami", "--new"],
                          input="quit\n", capture_output=True, text=True, timeout=120,
                          env=env, cwd=os.path.dirname(os.path.dirname(__file__)))


@pytest.mark.parametrize("env", [{}, {"NO_COLOR": "1"}, {"TERM": "dumb"}])
def test_tabletop_play_writes_no_escapes_into_a_pipe(tmp_path, env):
    """``tabletop play | less`` got the ANSI colours as text."""
    result = pipe_play(tmp_path, env)
    assert result.returncode == 0, result.stderr
    assert "red to move>" in result.stdout and "\x1b" not in result.stdout


def test_play_draws_in_colour_on_a_terminal_unless_no_color(monkeypatch):
    board = new_game("kulami")
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    out = Terminal()
    play(terminal_session(board, PEOPLE), io.StringIO("quit\n"), out)
    assert AREA_SHADES[0] in out.getvalue()
    monkeypatch.setenv("NO_COLOR", "yes")
    out = Terminal()
    play(terminal_session(board, PEOPLE), io.StringIO("quit\n"), out)
    assert "\x1b" not in out.getvalue() and "red to move>" in out.getvalue()


# --- issue 22: Akron's wording and board, seat flags by colour, a save that fails -----------

def cli_play(tmp_path, *args, lines=("quit",), data=None):
    """``tabletop play ARGS`` in a subprocess, its data directory ``data`` (by default one
    of the test's own), so no real data folder is touched."""
    env = {key: value for key, value in os.environ.items() if key != "STATE_DIRECTORY"}
    env["XDG_DATA_HOME"] = str(data if data is not None else tmp_path / "xdg")
    return subprocess.run([sys.executable, "-m", "app.cli", "play", *args],
                          input="".join(l + "\n" for l in lines), capture_output=True,
                          text=True, timeout=120, env=env,
                          cwd=os.path.dirname(os.path.dirname(__file__)))


def test_akron_says_its_own_goal_and_draws_its_board_not_the_engine_s_printout(tmp_path):
    result = cli_play(tmp_path, "akron", "--new")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "higher score wins" not in out
    assert "Akron: white joins top and bottom, red left and right" in out
    assert "supply:" not in out and "to move: b" not in out
    assert "Balls on the board: white 0, red 0; balls to add: white 32, red 32" in out and "white to move>" in out
    # the drawing: row numbers, column letters a-o, every hole a mark to type
    lines = out.splitlines()
    assert any(re.fullmatch(r" *a +b +c .* o", line) for line in lines)


def test_akron_draws_balls_as_their_players_initials_with_their_level():
    board = game("akron").board_class.from_balls(
        {"1a1": "b", "1c1": "w", "1a3": "b", "1c3": "w", "2b2": "w", "1e5": "b"})
    drawn = draw(board, colour=False)
    assert "\x1b" not in drawn and "supply" not in drawn
    row = next(line for line in drawn.splitlines() if line[:3].strip() == "2")
    assert "R2" in row
    assert "W1" in next(line for line in drawn.splitlines() if line[:3].strip() == "5")
    assert "\u25cf" in draw(board, colour=True)


def test_akron_ends_with_the_winner_s_sides_and_a_draw_has_an_end_line_too():
    board, text = run_game([], {"b": "engine", "w": "engine"}, name="akron")
    last = text.splitlines()[-1]
    outcome = board.outcome()
    if outcome.winner:
        sides = {"b": "white joins bottom and top", "w": "red joins left and right"}
        assert f"Game over: {sides[outcome.winner]} with a chain of balls" in last
        assert "cells" not in last and "its sides" not in last
    draw = new_game("akron")
    draw._passes = 2  # two passes in a row: the rule sheet's draw
    assert draw.outcome().winner is None
    assert view_of(draw).end_long == ("Game over: neither player could act: two passes in a row. "
                              "A draw.")


@pytest.mark.parametrize("name", ["kulami", "conhex", "blokus-duo", "akron"])
def test_seat_flags_name_each_game_s_own_colours(data, monkeypatch, capsys, name):
    """``--white engine --red person`` for Akron, ``--purple ... --orange ...`` for
    Blokus Duo: the first player's colour gets the engine, whichever colour moves first."""
    first, second = (player.name for player in game(name).players.values())
    status, out, err = tabletop_play(monkeypatch, capsys, name, "--new", f"--{first}",
                                     "engine", f"--{second}", "person", lines=["quit"])
    assert status == 0, err
    root = (data / "games" / f"000001-{name}.sgf").read_text()
    assert "SEATB[engine]SEATW[person]" in root, root


@pytest.mark.parametrize("name, flag", [("akron", "--black"), ("blokus-duo", "--red"),
                                        ("kulami", "--white"), ("conhex", "--black")])
def test_a_seat_flag_that_is_not_a_colour_of_the_game_is_refused_in_one_line(tmp_path, name,
                                                                             flag):
    result = cli_play(tmp_path, name, "--new", flag, "engine")
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    colours = [player.name for player in game(name).players.values()]
    assert flag[2:] in result.stderr and all(f"--{c}" in result.stderr for c in colours)


def test_a_game_that_cannot_be_saved_is_not_called_saved(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    for data in (blocker, blocker / "under"):  # a file, and a path under a file
        result = cli_play(tmp_path, "kulami", "--new", "--black", "person",
                          lines=["d4", "quit"], data=data)
        assert result.returncode == 0, result.stderr
        assert "Saved;" not in result.stdout
        last = result.stdout.splitlines()[-1]
        assert "could not be saved" in last and str(data / "tabletop" / "games") in last
        # end of input says the same
        result = cli_play(tmp_path, "kulami", "--new", lines=[], data=data)
        assert "Saved;" not in result.stdout and "could not be saved" in result.stdout


def test_the_end_line_names_the_winner_in_the_game_s_colours_only():
    """Kulami's second player is black: the record's ``W+5`` read as white winning."""
    import random

    rng = random.Random(3)
    while True:
        board = new_game("kulami")
        while not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
        if board.outcome().winner == "w":
            break
    line = view_of(board).end_long
    assert re.search(r"Black wins by \d+, \d+ to \d+\.$", line), line
    assert "W+" not in line and "B+" not in line


def test_play_takes_seats_level_and_options_from_the_configuration(data, tmp_path,
                                                                   monkeypatch, capsys):
    """``tabletop play`` read no configuration: the file's seats, level and [options]
    were ``tabletop run``'s alone. The flags still override the file."""
    config = tmp_path / "tabletop.toml"
    config.write_text('[game]\nfirst = "engine"\nsecond = "person"\nlevel = 1\nseed = 4\n'
                      '[options.conhex]\npie = false\n')
    status, out, err = tabletop_play(monkeypatch, capsys, "conhex", "--config",
                                     str(config), lines=["quit"])
    assert status == 0, err
    store = RecordStore(data)
    resumed = store.read(store.saved()[0].path)
    assert resumed.board.options["pie"] is False and resumed.table["level"] == 1
    assert words_of(resumed.table["seats"]) == {"b": "engine", "w": "person"}
    assert len(resumed.board.move_stack) == 1  # the engine, first, played
    status, out, err = tabletop_play(monkeypatch, capsys, "conhex", "--new", "--config",
                                     str(config), "--red", "person", lines=["quit"])
    assert status == 0 and "(engine) plays" not in out  # red is the person's now
    assert "Nothing played, so nothing kept." in out


def test_continuing_a_game_with_a_browser_seat_says_it_is_handed_back(data, monkeypatch,
                                                                      capsys):
    """A browser's seat, which no page holds once the game is continued, is handed back
    to the table: the session said so, the terminal did not."""
    from types import SimpleNamespace
    store = RecordStore(data, profile="terminal")
    store.players = SimpleNamespace(seats={"b": "person", "w": "remote"}, level=2, seed=1,
                                    engine_name="")
    board = new_game("kulami")
    board.push_text("d4")
    store.start(board)
    status, out, err = tabletop_play(monkeypatch, capsys, "kulami", lines=["quit"])
    assert status == 0, err
    assert "Continuing 000001-kulami.sgf at move 1" in out
    assert "Black played from " in out and "a person at the table plays black now." in out


# --- the terminal draws the session's view ----------------------------------------------------

def test_the_terminal_marks_what_the_view_lights_and_keys_it_in_the_legend_s_words():
    """The terminal drew the engine's board (its legal holes, whatever the table lit):
    a hint lit on the LEDs, the screen and the page was only a line of text here. Now it
    draws the view: the hint's hole is marked, and the key names the marks as the
    legend does."""
    board, text = run_game(["d4", "hint", "quit"], PEOPLE, colour=False)
    hinted = re.search(r"Hint: (\w+)", text)[1]
    after = text[text.index("Hint: "):]
    drawing = after[after.index("\n") + 1:]
    lines = drawing.splitlines()
    row = next(line for line in lines if line[:3].strip() == hinted[1:])
    footer = next(line for line in lines if re.fullmatch(r"[ a-z]+", line))
    assert row[footer.index(hinted[0])] == "\u25c7"  # under its column's letter
    assert "Key: \u25c7 Hint: best one move ahead, \u00b7 Legal move" in drawing
    assert text.count("\u25c7") == 2  # on the board after the hint, and in its key


def test_a_table_that_lights_no_legal_holes_shows_none_in_the_terminal_either():
    """``[game] show_legal = false`` dims the legal holes on the LEDs, the screen and the
    page; the terminal drew them all the same."""
    board = new_game("kulami", layout="square-1")
    session = Session(board, seats=dict(PEOPLE), physical=False, show_legal=False)
    out = io.StringIO()
    play(session, io.StringIO("d4\nquit\n"), out, colour=False)
    text = out.getvalue()
    assert "\u00b7" not in text and "Legal move" not in text
    assert [str(move) for move in board.move_stack] == ["d4"]
    assert "R" in [line for line in text.splitlines() if line.startswith(" 4")][-1]
