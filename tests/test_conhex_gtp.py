"""ConHex over GTP: the base commands, ``swap`` as a move, options, a game to its end."""

import subprocess
import sys
from pathlib import Path

import pytest

from engines.conhex.board import ConHexBoard
from engines.conhex.geometry import HOLES
from engines.conhex.record import read
from engines.gtp import GtpEngine

DATA = Path(__file__).parent / "data" / "conhex"


def ok(engine, line):
    reply = engine.handle(line)
    assert reply.startswith("="), reply
    return reply[1:].strip()


def test_tabletop_gtp_conhex_plays_a_swap():
    session = "play b j3\nall_legal w\nplay w swap\nshowboard\nall_legal b\nquit\n"
    result = subprocess.run([sys.executable, "-m", "app.cli", "gtp", "conhex"], input=session,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stderr == ""
    replies = [block for block in result.stdout.split("\n\n") if block]
    assert [r[0] for r in replies] == ["="] * 6
    assert replies[1].split()[1:] == [h for h in HOLES if h != "j3"] + ["swap"]
    assert " 3  . o . o o o o o . O ." in replies[3]
    assert replies[4].split()[1:] == [h for h in HOLES if h != "j3"]


def test_swap_is_refused_with_a_reason_when_not_legal():
    engine = GtpEngine(ConHexBoard)
    assert engine.handle("play b swap") == "? swap is only legal as w's first action\n\n"
    ok(engine, "play b j3")
    ok(engine, "play w f6")
    assert engine.handle("play b swap") == "? swap is only legal as w's first action\n\n"
    engine = GtpEngine(ConHexBoard, pie="false")
    ok(engine, "play b j3")
    assert "pie rule, which is off" in engine.handle("play w swap")
    assert "swap" not in ok(engine, "all_legal w").split()


@pytest.mark.parametrize("handicap", ["2", "3"])
def test_swap_in_a_handicap_game_is_refused_with_the_reason(handicap):
    engine = GtpEngine(ConHexBoard, handicap=handicap)
    refused = "? swap is not allowed in a handicap game\n\n"
    ok(engine, "play b j3")  # one gem down: when a pie game would allow the swap
    assert engine.handle("play b swap") == refused
    for hole in ("a1", "k1")[:int(handicap) - 1]:
        ok(engine, f"play b {hole}")
    assert engine.handle("play w swap") == refused
    assert "swap" not in ok(engine, "all_legal w").split()
    assert engine.board.sensor_view()["j3"] == "b" and engine.board.turn == "w"


def test_undo_takes_back_a_swap():
    engine = GtpEngine(ConHexBoard)
    ok(engine, "play b j3")
    ok(engine, "play w swap")
    assert engine.board.sensor_view() == {"j3": "w"}
    ok(engine, "undo")
    assert engine.board.sensor_view() == {"j3": "b"} and engine.board.turn == "w"


def test_bad_moves_answer_with_one_line():
    engine = GtpEngine(ConHexBoard)
    assert engine.handle("play b c9").startswith("? 'c9' is not a ConHex hole")
    ok(engine, "play b f6")
    assert engine.handle("play w f6") == "? f6 is taken\n\n"
    assert engine.handle("play b e6") == "? it is w's turn, not b's\n\n"


def test_a_handicap_game_over_gtp():
    engine = GtpEngine(ConHexBoard, handicap="3")
    for hole in ("f6", "e6", "d6"):
        ok(engine, f"play b {hole}")
    assert engine.handle("play b c6") == "? it is w's turn, not b's\n\n"
    ok(engine, "play w c6")


def test_the_recorded_game_over_gtp_ends_with_ws_win():
    moves = read((DATA / "won-by-w.sgf").read_text()).board.move_stack
    engine = GtpEngine(ConHexBoard)
    for ply, move in enumerate(moves):
        ok(engine, f"play {'bw'[ply % 2]} {move}")
    assert ok(engine, "final_score") == "W+"
    assert ok(engine, "all_legal b") == ""
    assert ok(engine, "genmove b") == "pass"
    assert "winner: w" in ok(engine, "showboard")


@pytest.mark.parametrize("level", ["1", "2"])
def test_engine_players_play_whole_games(level):
    engine = GtpEngine(ConHexBoard, level=level, seed="5")
    for ply in range(len(HOLES) + 1):
        move = ok(engine, f"genmove {'bw'[ply % 2]}")
        if move == "pass":
            break
    assert engine.board.is_game_over()
    assert ok(engine, "final_score")[0] in "BW"


def test_final_score_mid_game_is_0_until_a_chain_wins_whatever_the_cells():
    """ConHex is won by a chain, never on points: a game still going has no winner, so
    final_score answers 0 however many cells either player owns."""
    engine = GtpEngine(ConHexBoard, pie="false")
    for ply, hole in enumerate(("b3", "f6", "b4", "f7", "c4", "e6")):
        ok(engine, f"play {'bw'[ply % 2]} {hole}")
    assert engine.board.scores()["b"] > engine.board.scores()["w"]
    assert ok(engine, "final_score") == "0"
    moves = read((DATA / "won-by-w.sgf").read_text()).board.move_stack
    engine = GtpEngine(ConHexBoard)
    for ply, move in enumerate(moves[:-1]):
        ok(engine, f"play {'bw'[ply % 2]} {move}")
    assert ok(engine, "final_score") == "0"
    ok(engine, f"play w {moves[-1]}")
    assert ok(engine, "final_score") == "W+"


def test_a_resignation_over_gtp_is_little_golems_resign(tmp_path):
    engine = GtpEngine(ConHexBoard)
    ok(engine, "play b j3")
    ok(engine, "play w swap")
    ok(engine, "play b resign")
    assert ok(engine, "final_score") == "W+R"
    path = tmp_path / "resigned.sgf"
    ok(engine, f"savesgf {path}")
    assert path.read_text() == "(;FF[CONHEX]VA[CONHEX]RE[W+R]\n;B[C10]\n;R[swap]\n;B[resign])\n"
    record = read(path.read_text())
    assert record.resigned == "b" and record.winner == "w"
    again = GtpEngine(ConHexBoard)
    ok(again, f"loadsgf {path}")
    assert ok(again, "final_score") == "W+R"


def test_loadsgf_before_little_golems_swap_shows_the_first_gem_where_it_was_played(tmp_path):
    """Little Golem's B[J3];R[swap] is our c10 and swap; cut before the swap, the record
    is a game whose first gem stands on J3."""
    path = tmp_path / "swap.sgf"
    path.write_text("(;FF[CONHEX]VA[CONHEX]PB[Ana]PW[Radu];B[J3];R[swap];B[J9])")
    engine = GtpEngine(ConHexBoard)
    ok(engine, f"loadsgf {path} 2")
    assert engine.board.sensor_view() == {"j3": "b"} and engine.board.turn == "w"
    ok(engine, f"loadsgf {path}")
    assert engine.board.sensor_view() == {"c10": "w", "j9": "b"}
    assert engine.players == {"b": "Ana", "w": "Radu"}
