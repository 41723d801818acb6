"""Akron over whole games: properties of random play, undo, records, GTP and sensing.

Random games are played with hypothesis choosing the seed, each at most 120 actions, so
that the properties hold across openings, drops, stacks and ends alike.
"""

import random
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.akron.board import SUPPLY, AkronBoard, Movement, Placement
from engines.akron.geometry import BELOW, HOLES, INDEX, LEVEL, points_of
from engines.akron.record import read
from engines.core import PASS, Board
from engines.errors import RecordError
from engines.gtp import GtpEngine

GAMES = settings(max_examples=12, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow])


def random_game(seed: int, plies: int = 120) -> AkronBoard:
    board, rng = AkronBoard(), random.Random(seed)
    while not board.is_game_over() and len(board.move_stack) < plies:
        board.push(rng.choice(list(board.legal_moves)))
    return board


def snapshot(board: AkronBoard):
    return (board.balls(), board.supply("b"), board.supply("w"), board.turn,
            [str(m) for m in board.legal_moves], board.outcome())


@GAMES
@given(st.integers(0, 2**32 - 1))
def test_every_ball_above_the_board_stands_on_four_and_no_ball_is_lost_or_made(seed):
    board, rng = AkronBoard(), random.Random(seed)
    while not board.is_game_over() and len(board.move_stack) < 120:
        board.push(rng.choice(list(board.legal_moves)))
        balls = board.balls()
        occupied = {INDEX[name] for name in balls}
        for point in occupied:
            assert all(below in occupied for below in points_of(BELOW[point]))
        for player in ("b", "w"):
            on_board = sum(1 for owner in balls.values() if owner == player)
            assert on_board + board.supply(player) == SUPPLY


@GAMES
@given(st.integers(0, 2**32 - 1))
def test_undo_restores_the_position_exactly(seed):
    board = random_game(seed)
    history = []
    replay = AkronBoard()
    for move in board.move_stack:
        history.append(snapshot(replay))
        replay.push(move)
    assert snapshot(replay) == snapshot(board)
    while replay.move_stack:
        replay.pop()
        assert snapshot(replay) == history.pop()


@GAMES
@given(st.integers(0, 2**32 - 1))
def test_the_rule_and_the_generator_agree(seed):
    board, rng = AkronBoard(), random.Random(seed)
    while not board.is_game_over() and len(board.move_stack) < 80:
        moves = list(board.legal_moves)
        assert all(board.is_legal(move) for move in moves)
        assert len(set(moves)) == len(moves)
        # A movement of an own ball to a playable point not generated is refused.
        listed = set(moves)
        for source in {m.source for m in moves if isinstance(m, Movement)}:
            for target in board.playable():
                move = Movement(source, INDEX[target])
                assert board.is_legal(move) == (move in listed)
        board.push(rng.choice(moves))


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_moves_sensed_at_a_hole_are_those_that_change_its_sensor(seed):
    board = random_game(seed, plies=random.Random(seed).randrange(20, 70))
    if board.is_game_over():
        board.pop()
    for hole in HOLES[::5]:
        fast = set(board.moves_sensed_at(hole))
        slow = set(Board.moves_sensed_at(board, hole))
        assert slow <= fast
        # The rule also names the moves that lift the ball in the hole and drop one of
        # the same colour into it: a sensor sees the hole empty, then filled again.
        for move in fast - slow:
            assert isinstance(move, Movement) and move.source == INDEX[hole]
            assert board.drops(move) and board.sensor_view()[hole] == _after(board, move)[hole]


def _after(board, move):
    probe = board.copy()
    probe.push(move)
    return probe.sensor_view()


def test_a_random_game_ends_in_a_win_or_runs_on_and_every_upper_move_is_invisible():
    board = random_game(7, plies=300)
    upper = [m for m in board.move_stack
             if isinstance(m, Movement) and LEVEL[m.source] and LEVEL[m.target]]
    replay = AkronBoard()
    for move in board.move_stack:
        before = replay.sensor_view()
        replay.push(move)
        if move in upper:
            assert replay.sensor_view() == before
    assert board.is_game_over() or len(board.move_stack) == 300


@GAMES
@given(st.integers(0, 2**32 - 1))
def test_the_fast_playout_plays_legal_moves_and_ends_as_the_board_does(seed):
    board = random_game(seed, plies=random.Random(seed).randrange(0, 40))
    start = board.copy()
    trace = []
    winner = board.playout(random.Random(seed), trace)
    assert snapshot(board) == snapshot(start)  # the board is left as it was
    for source, target in trace:
        if target is None:
            move = PASS
        elif source is None:
            move = Placement(target)
        else:
            move = Movement(source, target)
        assert start.is_legal(move), (str(move), start.ascii())
        start.push(move)
    outcome = start.outcome()
    if outcome is not None:
        assert winner == outcome.winner
    else:
        assert winner is None and len(trace) == 300


# --- records --------------------------------------------------------------------------
@GAMES
@given(st.integers(0, 2**32 - 1))
def test_a_record_loads_back_into_the_same_game(seed):
    board = random_game(seed)
    record = read(board.to_record())
    assert record.board.move_stack == board.move_stack
    assert snapshot(record.board) == snapshot(board)


def test_a_record_keeps_names_passes_and_the_result():
    board = AkronBoard.from_balls({}, supply={"b": 0, "w": 0})
    with pytest.raises(Exception, match="set up ball by ball has no record"):
        board.to_record()
    board = AkronBoard()
    for text in ("1a1", "1o15", "1c1", "1o13", "1a1-1c3"):
        board.push_text(text)
    text = board.record_format.write(board, {"b": "Ann", "w": "Tabletop (level 2)"})
    assert "PB[Ann]" in text and ";B[1a1-1c3]" in text
    record = read(text)
    assert record.players == {"b": "Ann", "w": "Tabletop (level 2)"}
    resigned = board.record_format.write(board, {}, resigned="w")
    assert "RE[B+R]" in resigned and read(resigned).winner == "b"


@pytest.mark.parametrize("text, message", [
    ("(;GM[Kulami];B[a1])", "not an Akron record"),
    ("(;GM[Akron];B[1a1];B[1c1])", r"move 2 \(B\[1c1\]\): it is w's turn"),
    ("(;GM[Akron];B[2b2])", r"move 1 \(B\[2b2\]\): 2b2 is above the board"),
    ("(;GM[Akron];B[1a1];W[1a1])", "1a1 already holds a ball"),
    ("(;GM[Akron];B[1a1];W[pass])", "may pass only with no legal action"),
    ("(;GM[Akron];B[1a1];W[1c1-1e1])", "no ball on 1c1"),
    ("(;GM[Akron]RE[W+];B[1a1];W[resign])", r"RE\[W\+\] names w the winner"),
    ("(;GM[Akron]RE[B+R];B[1a1];W[resign])", None),
    ("(;GM[Akron];B[resign];W[1a1])", "a move after the resignation"),
    ("(;GM[Akron];B[1a1]W[1c1])", r"exactly one of B\[..\] or W\[..\], found 2"),
    ("(;GM[Akron]B[1a1])", "root node holds a move"),
])
def test_a_broken_record_is_refused_naming_the_move(text, message):
    if message is None:
        assert read(text).winner == "b"
        return
    with pytest.raises(RecordError, match=message):
        read(text)


def test_a_result_that_names_the_other_winner_is_refused():
    # White fills column a (south to north), red column o (no side to side for red).
    moves = [f"1{column}{row}" for row in range(1, 16, 2) for column in "ao"]
    nodes = "".join(f";{'BW'[i % 2]}[{m}]" for i, m in enumerate(moves))
    assert read(f"(;GM[Akron]RE[B+]{nodes})").winner == "b"
    with pytest.raises(RecordError, match=r"RE\[W\+\] names w the winner, but the moves "
                                          r"give the game to b"):
        read(f"(;GM[Akron]RE[W+]{nodes})")


# --- GTP ------------------------------------------------------------------------------
def test_tabletop_gtp_akron_lists_placements_and_movements():
    session = ("play b 1c3\nplay w 1o15\nplay b 1e3\nplay w 1o13\nall_legal b\n"
               "play b 1c3-1e5\nshowboard\nfinal_score\nquit\n")
    result = subprocess.run([sys.executable, "-m", "app.cli", "gtp", "akron"], input=session,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stderr == ""
    replies = [block for block in result.stdout.split("\n\n") if block]
    assert [reply[0] for reply in replies] == ["="] * 9
    legal = replies[4].split()[1:]
    assert "1a1" in legal and "1c3-1e5" in legal and "1c3-1g3" in legal
    assert "1e3-1a3" in legal and "1c3-1a3" not in legal and len(legal) == len(set(legal))
    assert "X1" in replies[6] and "supply: b 30, w 30" in replies[6]
    assert replies[7] == "= 0"


def test_gtp_refuses_bad_akron_moves_with_the_rule():
    engine = GtpEngine(AkronBoard)
    assert engine.handle("play b 2d4").startswith("? 2d4 is above the board")
    assert engine.handle("play b 1a1") == "= \n\n"
    assert engine.handle("play w 1a1-1c1").startswith("? the ball on 1a1 is the other player's")
    assert engine.handle("play w pass").startswith("? a player may pass only")
    assert engine.handle("genmove w").startswith("= 1")


def test_pass_is_written_and_read_as_gtp_writes_it():
    board = AkronBoard.from_balls({}, supply={"b": 0, "w": 0})
    assert str(list(board.legal_moves)[0]) == "pass" == str(PASS)
