"""Blokus Duo records (Pentobi SGF) and GTP (Pentobi's engine's commands)."""

import random

import pytest

from engines.blokus_duo.board import BlokusDuoBoard
from engines.blokus_duo.pieces import BY_MASK, turned
from engines.blokus_duo.record import read
from engines.core import RecordError
from engines.gtp import GtpEngine
from engines.sgf import RecordOptionError
from tests.test_blokus_duo_rules import ALL_PLACED, play

#: The opening of Pentobi's own Blokus Duo opening book, as Pentobi writes moves.
PENTOBI = """(;GM[Blokus Duo]
;B[f9,e10,f10,g10,f11]
;W[i4,h5,i5,j5,i6]
;B[h7,g8,h8,h9,i9]
;W[f5,e6,f6,g6,e7])"""


def random_game(seed, start="either", plies=None):
    rng = random.Random(seed)
    board = BlokusDuoBoard(start=start)
    while not board.is_game_over() and (plies is None or len(board.move_stack) < plies):
        board.push(rng.choice(list(board.legal_moves)))
    return board


def ok(engine, line):
    reply = engine.handle(line)
    assert reply.startswith("="), reply
    return reply[1:].strip()


# --- records ------------------------------------------------------------------------------

def test_a_pentobi_record_loads():
    board = BlokusDuoBoard.from_record(PENTOBI)
    assert [str(m) for m in board.move_stack] == ["f9,e10,f10,g10,f11", "i4,h5,i5,j5,i6",
                                                  "h7,g8,h8,h9,i9", "f5,e6,f6,g6,e7"]
    assert board.turn == "b" and not board.turned


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_whole_games_round_trip(seed):
    board = random_game(seed)
    text = board.to_record()
    assert "GM[Blokus Duo]" in text and "pass" not in text
    again = BlokusDuoBoard.from_record(text)
    assert again.move_stack == board.move_stack
    assert again._movers == board._movers and again.outcome() == board.outcome()
    assert f"RE[{board.outcome().result()}]" in text


def test_a_game_started_on_j5_is_written_turned_for_pentobi():
    board = play(BlokusDuoBoard(), "j5,j4", "e10")
    board.push_text("k6")
    text = board.to_record()
    assert ";B[e11,e10]" not in text and ";B[e10,e11]" in text and ";W[j5]" in text
    assert "TURNED[true]" in text and ";B[d9]" in text
    again = BlokusDuoBoard.from_record(text)
    assert again.move_stack == board.move_stack and again.turned
    # Pentobi ignores TURNED and sees the game turned, first player on e10:
    pentobi = BlokusDuoBoard.from_record(text.replace("TURNED[true]", ""))
    assert [m.mask for m in pentobi.move_stack] == [turned(m.mask) for m in board.move_stack]


def test_a_fixed_start_game_says_so():
    board = play(BlokusDuoBoard(start="fixed"), "e10", "j5")
    text = board.to_record()
    assert "START[fixed]" in text
    assert BlokusDuoBoard.from_record(text).options["start"] == "fixed"


def test_records_with_implicit_passes_and_bonuses():
    board = play(BlokusDuoBoard(start="fixed"), *ALL_PLACED)
    text = board.to_record()
    assert text.count(";B[") == 21 and text.count(";W[") == 14
    again = BlokusDuoBoard.from_record(text)
    assert again.scores() == board.scores() and again.scores()["b"] == 20


def test_players_and_resignation_round_trip():
    board = random_game(3, plies=6)
    record = board.record_format.read_game(
        board.record_format.write(board, {"b": "Ann", "w": "Bob"}, board.turn))
    assert record.players == {"b": "Ann", "w": "Bob"} and record.resigned == board.turn
    assert record.outcome().result().endswith("+R")


@pytest.mark.parametrize("text, words", [
    ("(;GM[Blokus]\n;B[e10])", "not a Blokus Duo record: GM[Blokus]"),
    ("(;GM[Blokus Duo]\n;B[e10]\n;B[f11])", "move 2 (B[f11]): it is w's turn"),
    ("(;GM[Blokus Duo]\n;B[e10]\n;W[e10])", "move 2 (W[e10]): e10 already covered"),
    ("(;GM[Blokus Duo]\n;B[e10,g10])", "move 1 (B[e10,g10]): e10,g10 is not the shape"),
    ("(;GM[Blokus Duo]\n;B[e10]\n;W[j5]\n;B[f11])",
     "move 3 (B[f11]): the 1 piece of this colour is already on the board"),
    ("(;GM[Blokus Duo]AB[e10])", "setup properties (AB) are not supported"),
    ("(;GM[Blokus Duo]\n;B[e10]W[j5])", "exactly one of B[..] or W[..], found 2"),
    ("(;GM[Blokus Duo]RE[W+3]\n;B[e10])", None),
])
def test_broken_records_are_one_clear_line(text, words):
    if words is None:  # a result of a game not decided by the moves is taken as given
        assert BlokusDuoBoard.from_record(text).move_stack
        return
    with pytest.raises(RecordError) as error:
        BlokusDuoBoard.from_record(text)
    assert words in str(error.value) and "\n" not in str(error.value)


def test_a_start_this_version_refuses_is_an_option_error():
    with pytest.raises(RecordOptionError, match="START must be either or fixed"):
        BlokusDuoBoard.from_record("(;GM[Blokus Duo]START[centre])")


def test_a_result_the_moves_contradict_is_refused():
    board = play(BlokusDuoBoard(start="fixed"), *ALL_PLACED)
    text = board.to_record().replace("RE[B+", "RE[W+")
    with pytest.raises(RecordError, match="names w the winner"):
        BlokusDuoBoard.from_record(text)


# --- GTP ----------------------------------------------------------------------------------

def test_pentobis_commands_are_there():
    engine = GtpEngine(BlokusDuoBoard, start="fixed")
    commands = ok(engine, "list_commands").split()
    for name in ("set_game", "p", "cputime", "all_legal", "final_score", "undo",
                 "showboard", "loadsgf", "savesgf", "genmove"):
        assert name in commands
    assert ok(engine, "set_game Blokus Duo") == ""
    assert engine.handle("set_game Blokus").startswith("? this engine plays Blokus Duo only")
    float(ok(engine, "cputime"))


def test_a_gtp_session_as_a_pentobi_script_drives_it():
    engine = GtpEngine(BlokusDuoBoard, start="fixed")
    ok(engine, "set_game Blokus Duo")
    assert len(ok(engine, "all_legal b").splitlines()) == 414
    assert len(ok(engine, "all_legal w").splitlines()) == 414
    ok(engine, "play b f11,g10,f10,e10,f9")
    # Either colour may be asked to play, as Pentobi allows: b's e10 is judged by b's
    # rules (the turn is handed to b) and refused, leaving the turn with w.
    assert engine.handle("play b e10") == "? e10 already covered\n\n"
    assert engine.board.turn == "w"
    ok(engine, "p j5")
    assert engine.handle("play b f9,f8") == "? f8,f9: f9 already covered\n\n"
    assert ok(engine, "final_score") == "B+4"
    ok(engine, "undo")
    assert engine.board.turn == "w"
    move = ok(engine, "genmove w")
    assert engine.board.move_stack[-1] == engine.board.parse_move(move)
    assert "X" in ok(engine, "showboard")


def test_gtp_refusals_are_one_line():
    engine = GtpEngine(BlokusDuoBoard, start="fixed")
    assert engine.handle("play b pass").startswith("? Blokus Duo has no pass move")
    assert engine.handle("play b e10,g10") == (
        "? e10,g10 is not the shape of any Blokus piece\n\n")
    assert engine.handle("play b a1").startswith(
        "? the first piece of a colour must cover the start point e10")
    ok(engine, "play b e10")
    ok(engine, "play w j5")
    assert engine.handle("play b f11").startswith(
        "? the 1 piece of this colour is already on the board")


def test_final_score_of_a_finished_game_with_bonuses():
    engine = GtpEngine(BlokusDuoBoard, start="fixed")
    for text in ALL_PLACED:
        ok(engine, f"play {engine.board.turn} {text}")
    w = engine.board.scores()["w"]
    assert ok(engine, "final_score") == f"B+{20 - w}"
    assert ok(engine, "all_legal w") == "" and ok(engine, "genmove w") == "pass"


def test_savesgf_and_loadsgf(tmp_path):
    engine = GtpEngine(BlokusDuoBoard)
    board = random_game(11, plies=10)
    for move in board.move_stack:
        ok(engine, f"play {engine.board.turn} {move}")
    path = tmp_path / "game.blksgf"
    ok(engine, f"savesgf {path}")
    other = GtpEngine(BlokusDuoBoard)
    ok(other, f"loadsgf {path}")
    assert other.board.move_stack == board.move_stack
    ok(other, f"loadsgf {path} 3")
    assert other.board.move_stack == board.move_stack[:2]


def test_the_move_table_is_consistent_with_turning():
    assert all(BY_MASK[turned(m)] for m in list(BY_MASK)[::53])
    assert read(PENTOBI).board.move_stack[0].piece == "X"


def test_gtp_starts_with_pentobis_fixed_start_points_unless_told():
    assert GtpEngine(BlokusDuoBoard).board.options == {"start": "fixed"}
    assert GtpEngine(BlokusDuoBoard, start="either").board.options == {"start": "either"}
    assert BlokusDuoBoard.new().options == {"start": "either"}  # the table's default
    engine = GtpEngine(BlokusDuoBoard)
    assert engine.handle("all_legal b").count("\n") == 414 + 1  # e10 only, then a blank
