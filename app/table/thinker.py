"""The engine's thinking, off the table loop.

A search may take seconds on a Pi. While it runs, the loop must keep scanning the
sensors (a person may take a move back), feeding systemd's watchdog and drawing the
progress bar, so the search runs in a worker thread on its own copy of the board. The
engine reports its progress through a callback; cancelling makes that callback raise
:class:`Cancelled`, which ends the search at its next report. The board the session plays
on is never touched by the worker, so a cancelled search leaves nothing to clean up.

:class:`InlineThinker` does the same work at once in the caller's thread: replays,
tests and the terminal use it where waiting is the point.

A thread still shares the interpreter's lock with the loop, and a search holds it: each
settle sleep of a sensor matrix's scan hands it over and waits for it back. The board
and the simulator therefore search in a process of their own
(:class:`~app.table.engine_process.ProcessThinker`), with the same thoughts.

An outside engine (a GTP program the configuration names, :mod:`app.table.outside_engine`)
is one more kind of thinker: its thought has the same progress and cancelling, and when
the program fails, the thought says so in :attr:`Thought.failure` and our own search
finishes it.
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Hashable

from engines.core import Board
from engines.players import Judgement, engine_name, judge

log = logging.getLogger(__name__)


class Cancelled(Exception):
    """Raised inside the search when its result is no longer wanted."""


class Thought:
    """One search under way: its progress (0..1), and its move once done."""

    def __init__(self) -> None:
        self.progress = 0.0
        self._cancelled = threading.Event()
        self._done = threading.Event()
        self._move: Hashable | None = None
        #: How sure our engine is of its move, once done (``None``: an outside
        #: program's move, which says nothing of that).
        self.judgement: Judgement | None = None
        #: Why an outside engine gave up on this thought, in one line for the status
        #: screen, while our own search finishes it; empty otherwise.
        self.failure = ""
        #: The program asked resigned in place of a move (an outside engine's ``genmove``
        #: answered ``resign``): the thought is done with no move, and the session ends
        #: the game as a resignation (a hint's question is answered so).
        self.resigned = False

    def report(self, fraction: float) -> None:
        """The engine's progress callback; ends the search once cancelled."""
        if self._cancelled.is_set():
            raise Cancelled
        self.progress = fraction

    def cancel(self) -> None:
        self._cancelled.set()

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    @property
    def done(self) -> bool:
        return self._done.is_set()

    @property
    def move(self) -> Hashable | None:
        """The chosen move (``None`` before the search is done or when it was cancelled)."""
        return self._move

    def run(self, board: Board, level: int, rng: random.Random) -> None:
        try:
            self.judgement = judge(board, level, rng, progress=self.report)
            self._move = self.judgement.move
            self.progress = 1.0
        except Cancelled:
            self._move = None
        finally:
            self._done.set()

    def finish(self, move: Hashable | None, judgement: Judgement | None = None) -> None:
        """End the thought with ``move`` found elsewhere (an outside engine's, or our
        engine's process's with its ``judgement``; ``None``: cancelled)."""
        self._move = None if self.cancelled else move
        self.judgement = judgement if self._move is not None else None
        if self._move is not None:
            self.progress = 1.0
        self._done.set()

    def wait(self, timeout: float | None = None) -> bool:
        return self._done.wait(timeout)


class Thinker:
    """Starts each search in a daemon thread of its own: a stopped service never waits
    for a search nobody wants any more."""

    #: Whether :meth:`think` returns only once the thought is done.
    inline = False

    def think(self, board: Board, level: int, rng: random.Random) -> Thought:
        thought = Thought()
        worker = threading.Thread(target=thought.run, args=(board.copy(), level, rng),
                                  name="engine", daemon=True)
        worker.start()
        return thought

    def player_name(self, game: str, level: int) -> str:
        """How the records of ``game`` name the engine player: our own engine at
        ``level``."""
        return engine_name(level)

    def program(self, game: str) -> str | None:
        """The outside program that plays ``game`` (``None``: our own search)."""
        return None

    def new_game(self) -> None:
        """A new game begins at the table (nothing to do for our own search)."""

    def close(self) -> None:
        """The table stops: end whatever this thinker keeps running (nothing here)."""


class InlineThinker(Thinker):
    """Searches at once, in the caller's thread: the thought is done when returned."""

    inline = True

    def think(self, board: Board, level: int, rng: random.Random) -> Thought:
        thought = Thought()
        thought.run(board.copy(), level, rng)
        return thought
