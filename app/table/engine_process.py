"""Our engine in a process of its own, so that its search never slows the table loop.

A search is pure Python and holds the interpreter's lock (the GIL) while it runs. In a
thread of the table's process (:class:`~app.table.thinker.Thinker`) every pause of the
loop, the sensor matrix's settle sleep after each row above all, hands the lock to the
search and waits up to a switch interval to get it back: with mock pins a 10x10 scan
went from about 1.2 ms to 40 ms while the engine searched (``bench/scan_thinking.py``).
:class:`ProcessThinker` runs every search in one long-lived worker process instead, as
an outside engine already runs in a program of its own, and the loop only ever looks at
a pipe, without waiting, when the session asks a thought how far it is.

The worker is started at the first question and kept for the next ones. It is started
with ``spawn``: a fresh interpreter, never a fork of the table's process, which has
pygame's and the web page's threads (a fork copies the locks they hold). It imports
only what a search needs (this module, the thinker's and the engines) and, as every
process started so, the main module without running it (``tabletop``'s script: the
command line's dispatcher, no pygame, no pins). The board goes to it as its game's
class, options and moves (:class:`Position`), since a board holds read-only mappings
pickle cannot copy. It runs at the lowest CPU priority (:func:`background`): the
search is background work, the scan is not.

The same moves as in a thread. The session gives each search a random generator seeded
from the game's seed and moves; its state goes to the worker with the position and the
advanced state comes back with the move, so a game with a given seed plays exactly as
it did in a thread.

Progress and cancelling. The worker sends its progress at every step of
:data:`PROGRESS_STEP`; the table reads what has arrived when the session polls. A
cancelled thought tells the worker over the same pipe; the search's progress callback
reads the pipe at every report (the search reports every few walks) and ends the search
there, as a thread's does.

Failure. A worker that dies (killed by the kernel for memory, or by a person) is one
warning line: the search it was doing is finished by our search in a thread of the
table's process, as an outside engine's failed question is, and the next question starts
a new worker. Nothing the table does ever waits for the worker, so a dead one cannot
hang the table. :meth:`ProcessThinker.close` kills the worker by its pid; the worker
also ends by itself when the table's process goes (its pipe closes).
"""

from __future__ import annotations

import itertools
import logging
import multiprocessing
import os
import random
import signal
import threading
import time
import traceback
from collections import deque
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any

from app.table.thinker import Cancelled, Thinker, Thought
from engines.core import Board
from engines.players import judge

log = logging.getLogger(__name__)

#: The worker sends its progress each time it has moved on by this much.
PROGRESS_STEP = 0.01
#: The worker's niceness, the lowest there is (see :func:`background`); on an idle Pi
#: the search still has a core to itself.
NICENESS = 19
#: How long one look at the pipe lasts while a caller waits for a thought (``wait``).
WAIT_SLICE_S = 0.05
#: How long a killed worker may take to be reaped when the table closes.
REAP_S = 2.0
#: How long a worker whose pipe closed may take to be reaped, for its exit status in
#: the warning: it is dying already (the kernel closes its files as it ends), so this
#: is microseconds in practice, and the most the loop ever waits, once, on a death.
DYING_S = 0.2


@dataclass(frozen=True)
class Position:
    """A board as the worker receives it: its game's class, options and moves (with who
    made each, for games whose turn can be handed), and who is to move."""

    board_class: type[Board]
    options: Mapping[str, Any]
    moves: tuple[Hashable, ...]
    movers: tuple[str, ...]
    turn: str

    @classmethod
    def of(cls, board: Board) -> "Position":
        return cls(type(board), dict(board.options), tuple(board.move_stack),
                   tuple(board.mover(i) for i in range(len(board.move_stack))), board.turn)

    def board(self) -> Board:
        """The board again, its moves pushed as they were played (all legal: they were)."""
        board = self.board_class.from_options(self.options)
        for move, mover in zip(self.moves, self.movers):
            if board.turn != mover:
                board.hand_turn(mover)
            board.push_legal(move)
        if board.turn != self.turn:
            board.hand_turn(self.turn)
        return board


class ProcessThought(Thought):
    """A search the worker process runs: what the worker has said of it is read from
    the pipe whenever the thought is asked whether it is done."""

    def __init__(self, thinker: "ProcessThinker", ident: int, position: Position,
                 level: int, rng: random.Random) -> None:
        super().__init__()
        self.thinker, self.ident = thinker, ident
        self.position, self.level, self.rng = position, level, rng

    @property
    def done(self) -> bool:
        self.thinker.collect()
        return self._done.is_set()

    def cancel(self) -> None:
        if not self.cancelled:
            super().cancel()
            self.thinker.cancel(self)

    def wait(self, timeout: float | None = None) -> bool:
        return self.thinker.wait(self, timeout)

    def run_here(self) -> None:
        """Finish this thought with our search in a thread of the table's process (its
        worker is gone): the same generator state, so the same move."""
        threading.Thread(target=self.run, args=(self.position.board(), self.level, self.rng),
                         name="engine", daemon=True).start()


class ProcessThinker(Thinker):
    """Runs every search in one worker process, started at the first question.

    Any thread may ask, wait and cancel: ``_state`` guards the worker and the thoughts
    asked of it (held only for a few statements, never while the pipe is read), one
    thread at a time reads the pipe and one writes it."""

    def __init__(self) -> None:
        self.process: multiprocessing.process.BaseProcess | None = None
        self._connection = None
        self._ids = itertools.count(1)
        #: Thoughts sent to the worker and not yet answered, by their number.
        self._asked: dict[int, ProcessThought] = {}
        self._state = threading.Lock()
        self._reading = threading.Lock()
        self._sending = threading.Lock()

    # --- the worker ------------------------------------------------------------------
    def start(self) -> None:
        """Start the worker process unless it is running (a search may then be asked at
        once: it waits in the pipe while the worker starts)."""
        with self._state:
            self._start()

    def _start(self) -> None:
        if self.process is not None:
            return
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        process = context.Process(target=serve, args=(theirs,), name="tabletop engine",
                                  daemon=True)
        process.start()
        theirs.close()  # the worker's end is the worker's: its death closes the pipe
        self.process, self._connection = process, ours
        log.info("our engine's process started (pid %d)", process.pid)

    def close(self) -> None:
        """Kill the worker by its pid; searches under way end with no move. A question
        asked after this starts a new worker."""
        with self._state:
            process, connection = self.process, self._connection
            self.process = self._connection = None
            asked, self._asked = self._asked, {}
        for thought in asked.values():
            thought.finish(None)
        if connection is not None:
            connection.close()
        if process is not None:
            process.kill()
            process.join(REAP_S)
            log.info("our engine's process ended (pid %d)", process.pid)

    # --- questions -------------------------------------------------------------------
    def think(self, board: Board, level: int, rng: random.Random) -> Thought:
        self.collect()
        thought = ProcessThought(self, next(self._ids), Position.of(board), level, rng)
        try:
            with self._state:
                self._start()
                self._asked[thought.ident] = thought
                connection = self._connection
        except OSError as error:  # no process to be had (out of memory, of pids)
            log.warning("our engine's process did not start (%s): searching in the "
                        "table's process", error)
            thought.run_here()
            return thought
        self._send(connection, ("think", thought.ident, thought.position, level,
                                rng.getstate()))
        return thought

    def cancel(self, thought: ProcessThought) -> None:
        """Tell the worker that ``thought`` is no longer wanted: its search ends at its
        next progress report."""
        connection = self._connection
        if thought.ident in self._asked and connection is not None:
            self._send(connection, ("cancel", thought.ident))

    def _send(self, connection, message: tuple) -> None:
        try:
            with self._sending:
                connection.send(message)
        except (OSError, ValueError):  # the worker is gone, or the table closed
            self._lost(connection)

    # --- answers ---------------------------------------------------------------------
    def collect(self, timeout: float = 0.0) -> bool:
        """Take every answer the worker has sent, waiting up to ``timeout`` for the
        first; ``False`` when there was no pipe to read (no worker, or another thread
        is reading it)."""
        connection = self._connection
        if connection is None or not self._reading.acquire(blocking=False):
            return False
        try:
            while connection.poll(timeout):
                self._answer(connection.recv())
                timeout = 0.0
        except (EOFError, OSError):
            self._lost(connection)
        finally:
            self._reading.release()
        return True

    def wait(self, thought: ProcessThought, timeout: float | None = None) -> bool:
        """Wait until ``thought`` is done (at most ``timeout`` seconds): this blocks,
        and is for callers for whom waiting is the point, never the table loop."""
        end = None if timeout is None else time.monotonic() + timeout
        while not thought._done.is_set():
            left = WAIT_SLICE_S if end is None else min(WAIT_SLICE_S, end - time.monotonic())
            if left <= 0:
                return False
            if not self.collect(left):
                thought._done.wait(left)  # run here, or another thread reads the pipe
        return True

    def _answer(self, message: tuple) -> None:
        kind, ident = message[0], message[1]
        with self._state:
            thought = self._asked.get(ident) if kind == "progress" else \
                self._asked.pop(ident, None)
        if thought is None:
            return  # closed, or taken over here, meanwhile
        if kind == "progress":
            thought.progress = message[2]
        elif kind == "move":  # the search ran to its end (a thread's reaches 1.0 too)
            judgement, state = message[2], message[3]
            thought.rng.setstate(state)
            thought.progress = 1.0
            thought.finish(judgement.move, judgement)
        elif kind == "failed":
            log.error("our engine failed in its process: %s", message[2])
            thought.finish(None)
        else:  # cancelled
            thought.finish(None)

    def _lost(self, connection) -> None:
        """The worker behind ``connection`` died: one warning line, the searches it had
        finished in this process, and the next question starts a new worker (nothing,
        if that was dealt with already or the table closed)."""
        with self._state:
            if connection is not self._connection:
                return
            process = self.process
            self.process = self._connection = None
            asked, self._asked = self._asked, {}
        connection.close()
        process.join(DYING_S)
        code = process.exitcode
        why = ("its pipe closed" if code is None else
               f"killed by {signal.Signals(-code).name}" if code < 0 else
               f"exit status {code}")
        wanted = [thought for thought in asked.values() if not thought.cancelled]
        log.warning("our engine's process (pid %d) ended (%s): %s", process.pid, why,
                    "its search goes on in the table's process, the next in a new engine "
                    "process" if wanted else "the next search starts a new one")
        for thought in asked.values():
            if thought.cancelled:
                thought.finish(None)
            else:
                thought.run_here()


def background() -> None:
    """Make this process the table's background work: the lowest niceness, and on Linux
    the idle scheduling class too, whose core the kernel counts as free when it places
    a waking task, so the scan waking from a row's settle sleep takes the search's core
    at once rather than queue behind other work on another (a one-core Pi Zero, a busy
    machine). Niceness alone left the thinking p95 about 1 ms higher on the shared
    development machine (three runs each of ``bench/scan_thinking.py``)."""
    os.nice(NICENESS)
    if hasattr(os, "SCHED_IDLE"):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


def serve(connection) -> None:
    """The worker process: answer questions from ``connection`` one at a time, until
    the table's end of it closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the table's to handle
    background()
    questions: deque[tuple] = deque()
    cancelled: set[int] = set()

    def take(message: tuple) -> None:
        if message[0] == "think":
            questions.append(message[1:])
        else:
            cancelled.add(message[1])

    try:
        while True:
            while not questions:
                take(connection.recv())
            ident, position, level, state = questions.popleft()
            connection.send(_search(connection, take, cancelled, ident, position, level,
                                    state))
            cancelled.difference_update([i for i in cancelled if i <= ident])
    except (EOFError, OSError):
        return  # the table's process closed the pipe, or is gone


def _search(connection, take, cancelled: set[int], ident: int, position: Position,
            level: int, state: tuple) -> tuple:
    """One search in the worker, and the answer to send: the move with how sure the
    engine is of it (its judgement) and the advanced generator state, or why there is
    none."""
    rng = random.Random()
    rng.setstate(state)
    sent = [0.0]

    def report(fraction: float) -> None:
        while connection.poll():
            take(connection.recv())
        if ident in cancelled:
            raise Cancelled
        if fraction - sent[0] >= PROGRESS_STEP:
            sent[0] = fraction
            connection.send(("progress", ident, fraction))

    try:
        report(0.0)
        judgement = judge(position.board(), level, rng, progress=report)
    except Cancelled:
        return ("cancelled", ident)
    except (EOFError, OSError):
        raise
    except Exception as error:  # a bug in a search: said in the table's log
        return ("failed", ident, "".join(traceback.format_exception_only(error)).strip())
    return ("move", ident, judgement, rng.getstate())
