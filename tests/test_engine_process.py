"""Our engine in its own process: the same moves as a thread plays for a seed, progress
and cancelling through the pipe, a killed worker that never hangs the table, and the
search off the table process's CPU (so off its interpreter lock)."""

import logging
import os
import random
import signal
import time

import pytest

from app.games import GAMES, new_game
from app.hardware.leds import SimulatedStrip
from app.hardware.profile import load_profile
from app.hardware.sensors import SimulatedSensors
from app.table.engine_process import Position, ProcessThinker
from app.table.loop import Table
from app.table.session import Session, State
from app.table.thinker import InlineThinker, Thinker
from engines.players import MAX_LEVEL, choose_move

#: However busy the machine, an answer comes well within this.
PATIENCE_S = 120.0


@pytest.fixture
def thinker():
    thinker = ProcessThinker()
    yield thinker
    thinker.close()


def position(game: str, moves: int = 4, seed: int = 1):
    """``game`` after ``moves`` random moves."""
    board, rng = new_game(game), random.Random(seed)
    for _ in range(moves):
        board.push(choose_move(board, 1, rng))
    return board


def started(thought) -> bool:
    """Wait until the worker has reported progress on ``thought``."""
    end = time.monotonic() + PATIENCE_S
    while time.monotonic() < end:
        if not thought.done and thought.progress > 0:
            return True
        thought.thinker.collect(0.01)
    return False


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def engine_warnings(caplog) -> list[str]:
    return [record.getMessage() for record in caplog.records
            if record.name == "app.table.engine_process" and record.levelno >= logging.WARNING]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_worker_plays_the_threads_moves_and_advances_the_generator_as_it(thinker, game):
    for moves, level in ((0, 1), (3, 2), (6, 3)):
        board = position(game, moves)
        ours, theirs = random.Random(f"7:{moves}"), random.Random(f"7:{moves}")
        thought = thinker.think(board, level, ours)
        assert thought.wait(PATIENCE_S) and thought.progress == 1.0
        here = InlineThinker().think(board, level, theirs)
        assert board.is_legal(thought.move)
        assert board.move_stack == position(game, moves).move_stack  # untouched
        # The same search, unless the clock cut one of them: the worker runs at the
        # lowest priority, and on a saturated machine it can wait out the 8 s cap.
        if thought.judgement.walks == here.judgement.walks:
            assert thought.move == here.move
            assert ours.getstate() == theirs.getstate()  # the advanced state came back
        else:
            assert min(thought.judgement.walks, here.judgement.walks) < here.judgement.budget


def test_a_board_whose_turn_was_handed_goes_to_the_worker_as_it_is():
    board = position("blokus-duo", 2)
    board.hand_turn("w")
    again = Position.of(board).board()
    assert again.turn == "w" and again.move_stack == board.move_stack
    assert [again.mover(i) for i in range(2)] == [board.mover(i) for i in range(2)]


def test_one_long_lived_worker_a_fresh_interpreter_not_a_fork_of_the_table(thinker):
    import pygame  # noqa: F401  (the table's process has pygame loaded, as on a board)
    board = position("kulami")
    assert thinker.think(board, 1, random.Random(1)).wait(PATIENCE_S)
    pid = thinker.process.pid
    assert pid != os.getpid()
    assert thinker.think(board, 2, random.Random(1)).wait(PATIENCE_S)
    assert thinker.process.pid == pid  # the same worker answers again
    # A fork would carry pygame's libraries (and its threads' locks) into the worker.
    with open(f"/proc/{os.getpid()}/maps") as ours, open(f"/proc/{pid}/maps") as worker:
        assert "pygame" in ours.read() and "pygame" not in worker.read()


def test_the_worker_is_background_work_for_the_kernel(thinker):
    assert thinker.think(position("kulami"), 1, random.Random(1)).wait(PATIENCE_S)
    pid = thinker.process.pid
    assert os.getpriority(os.PRIO_PROCESS, pid) == 19
    assert os.sched_getscheduler(pid) == os.SCHED_IDLE


def test_the_search_costs_the_table_process_next_to_no_cpu(thinker):
    """What held the lock is off the process: the table's process spends under a
    quarter of the search's own CPU time while the worker searches (a thread spends all
    of it). CPU time, not wall time: a busy machine slows both alike."""
    board = position("kulami")
    cpu = time.process_time()
    InlineThinker().think(board, MAX_LEVEL, random.Random(3))
    search_cpu = time.process_time() - cpu
    assert thinker.think(board, 1, random.Random(1)).wait(PATIENCE_S)  # started
    cpu = time.process_time()
    thought = thinker.think(board, MAX_LEVEL, random.Random(3))
    assert thought.wait(PATIENCE_S) and thought.move is not None
    assert time.process_time() - cpu < search_cpu / 4


def test_cancelling_ends_the_workers_search_at_its_next_report(thinker):
    board = position("conhex")
    thought = thinker.think(board, MAX_LEVEL, random.Random(2))
    assert started(thought)
    pid = thinker.process.pid
    thought.cancel()
    assert thought.wait(PATIENCE_S)
    assert thought.move is None and thought.progress < 1.0  # ended short of its budget
    after = thinker.think(board, 3, random.Random(2))
    assert after.wait(PATIENCE_S) and after.move == choose_move(board, 3, random.Random(2))
    assert thinker.process.pid == pid


def test_a_thought_cancelled_before_the_worker_reads_it_is_never_searched(thinker):
    board = position("conhex")
    first = thinker.think(board, MAX_LEVEL, random.Random(2))
    first.cancel()
    assert first.wait(PATIENCE_S) and first.move is None and first.progress == 0.0


def test_a_worker_killed_mid_search_is_one_warning_and_the_search_finishes_here(
        thinker, caplog):
    caplog.set_level(logging.INFO)
    board = position("conhex")
    thought = thinker.think(board, MAX_LEVEL, random.Random(5))
    assert started(thought)
    pid = thinker.process.pid
    os.kill(pid, signal.SIGKILL)
    assert thought.wait(PATIENCE_S) and board.is_legal(thought.move)
    # Searched again from the same generator state: the move the worker would have found.
    assert thought.move == choose_move(board, MAX_LEVEL, random.Random(5))
    (line,) = engine_warnings(caplog)
    assert f"pid {pid}" in line and "killed by SIGKILL" in line
    again = thinker.think(board, 2, random.Random(1))
    assert again.wait(PATIENCE_S) and thinker.process.pid != pid


def test_a_worker_killed_while_idle_is_replaced_at_the_next_question(thinker, caplog):
    caplog.set_level(logging.INFO)
    board = position("kulami")
    assert thinker.think(board, 1, random.Random(1)).wait(PATIENCE_S)
    process = thinker.process
    os.kill(process.pid, signal.SIGKILL)
    process.join(PATIENCE_S)
    thought = thinker.think(board, 2, random.Random(1))
    assert thought.wait(PATIENCE_S)
    assert thought.move == choose_move(board, 2, random.Random(1))
    (line,) = engine_warnings(caplog)
    assert f"pid {process.pid}" in line and "killed by SIGKILL" in line
    assert thinker.process.pid != process.pid


def test_a_table_whose_worker_is_killed_plays_on(thinker, caplog):
    caplog.set_level(logging.INFO)
    profile = load_profile("kulami-sim")
    session = Session(new_game("kulami"), seats={"b": "person", "w": "engine"},
                      level=MAX_LEVEL, seed=4, thinker=thinker)
    sensors = SimulatedSensors(profile.holes)
    table = Table(session, profile, SimulatedStrip(profile.led_count), sensors)
    sensors.place("d4")
    t, end = 0.0, time.monotonic() + PATIENCE_S
    while session.state is not State.THINKING and time.monotonic() < end:
        table.turn(t)
        t += 0.01
    assert session.state is State.THINKING and started(session.thought)
    os.kill(thinker.process.pid, signal.SIGKILL)
    while session.pending is None and time.monotonic() < end:
        table.turn(t)
        t += 0.01
        time.sleep(0.01)
    assert session.state is State.PLACING and session.board.is_legal(session.pending)
    assert len(engine_warnings(caplog)) == 1


def test_closing_kills_the_worker_by_its_pid_and_ends_its_thought(thinker):
    board = position("conhex")
    thought = thinker.think(board, MAX_LEVEL, random.Random(2))
    assert started(thought)
    process = thinker.process
    thinker.close()
    assert thought.done and thought.move is None
    assert process.exitcode == -signal.SIGKILL and gone(process.pid)
    # A question after closing starts a worker of its own.
    assert thinker.think(board, 1, random.Random(1)).wait(PATIENCE_S)
    assert thinker.process.pid != process.pid


def engine_game(thinker, game: str, moves: int) -> list[str]:
    """The first ``moves`` moves of ``game`` with the engine in both seats (seed 11)."""
    session = Session(new_game(game), seats={"b": "engine", "w": "engine"}, level=3,
                      seed=11, physical=False, thinker=thinker)
    while len(session.board.move_stack) < moves and not session.board.is_game_over():
        assert session.thought is not None and session.thought.wait(PATIENCE_S)
        session.poll()
    return [session.board.move_text(move) for move in session.board.move_stack]


@pytest.mark.parametrize("game", ["kulami", "blokus-duo"])
def test_a_seeded_game_plays_as_it_did_with_the_search_in_a_thread(thinker, game):
    assert engine_game(thinker, game, 8) == engine_game(Thinker(), game, 8)
