"""Outside engines: a GTP program the configuration names for a game plays the engine's
moves and gives the hints in place of our own search (``[engines]`` in the configuration,
for example Pentobi's ``pentobi-gtp --game duo --level 5 --quiet --nobook``).

:class:`OutsideEngines` is a :class:`~app.table.thinker.Thinker`, so the session asks it
as it asks our search: ``think(board, level, rng)`` gives a :class:`Thought` with its
progress and ``cancel``, and the move it finds is lit, placed and saved as ours is. A game
the configuration names no program for is our own engine's, as ever.

Keeping in step. The program is started at the first question and kept running. Before
each question the client brings the program's game to the session's with the fewest
commands: ``clear_board`` and ``play COLOUR MOVE`` for every move on a fresh start (a
resumed game is replayed so), ``play`` for each move made since, ``undo`` for each move
taken back (and ``clear_board`` with the game replayed when ``undo`` is refused, or
when that takes fewer commands: a new game). Moves are written and read in our notation (``Board.move_text`` and
``Board.parse_move``; Pentobi's Blokus Duo squares in any order read as ours). No
``boardsize`` is sent: our games' boards are not Go's square sizes, and the command line
chooses the game (``--game duo``) and must set up the same options as the table's. The
engine's own move is then ``genmove COLOUR``, a hint ``genmove`` for the person's colour,
taken back by ``undo`` at the next question when the person plays something else.

Off the loop. Every exchange runs in a worker thread (with an inline fallback thinker,
``think`` waits for it, as our inline search does). The progress of a ``genmove`` is the
time it has taken over the time limit. GTP cannot interrupt a ``genmove``: cancelling
one (a takeback, a new game, the game moved on) kills the program, and the next question
starts it again and replays the game, so the table never waits for an answer nobody
wants.

Failure. A program that does not start, exits, closes its output, takes longer than the
time limit to answer, refuses a command (``?``), answers something that is not GTP, or
plays a move our rules find unreadable or illegal (``pass`` with moves to play) is
killed; the thought's :attr:`~Thought.failure` says so in one line
(logged as a warning) and our own search finishes that very thought, on the game the
session holds, which nothing here touches, through the fallback thinker (the engine's
own process at the table). Our own engine then plays that game until a
new game begins (:meth:`OutsideEngines.new_game`), which tries the program again.

Resigning. A program that answers ``genmove`` with ``resign`` is neither failed nor
killed: the thought is done with no move and says it resigned
(:attr:`~app.table.thinker.Thought.resigned`), and the session ends the game as any
resignation (a hint asked of it is then ``resign``).

The program's standard error goes to our log at debug level, never to our output. It
runs in a process group of its own, so killing it kills whatever it started; every
program still running is ended when the table closes (:meth:`OutsideEngines.close`),
and at the latest when our process exits.
"""

from __future__ import annotations

import logging
import os
import queue
import re
import shlex
import signal
import subprocess
import threading
import time
import weakref
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import IO

from app.table import texts
from app.table.thinker import Cancelled, InlineThinker, Thinker, Thought
from engines import Board, EngineError

log = logging.getLogger(__name__)

#: How long an outside engine may take for one answer, unless the configuration says.
DEFAULT_TIMEOUT_S = 60.0
#: The longest time limit the configuration may set: an hour.
MAX_TIMEOUT_S = 3600.0
#: How often a wait for an answer looks at the clock and the thought (progress, cancel).
SLICE_S = 0.05
#: How long a program told to ``quit`` at closing gets before it is killed.
QUIT_S = 1.0
#: Text from the program quoted in a message is cut to this many characters.
QUOTE_CHARS = 60
#: The first line of an answer: ``=`` or ``?``, the command's id if it had one, then a
#: space and the text (a bare mark is taken for an empty answer).
_ANSWER = re.compile(r"([=?])(\d*)(?:[ \t](.*))?")


@dataclass(frozen=True)
class EngineCommand:
    """An outside engine as the configuration names it: the program and its arguments,
    and how long it may take for one answer."""

    argv: tuple[str, ...]
    timeout_s: float = DEFAULT_TIMEOUT_S

    @classmethod
    def parse(cls, line: str, timeout_s: float = DEFAULT_TIMEOUT_S) -> "EngineCommand":
        """A command line split as a shell would (``shlex``); raises ``ValueError`` for
        an empty one or one with a quote left open."""
        argv = tuple(shlex.split(line))
        if not argv:
            raise ValueError("no program named")
        return cls(argv, float(timeout_s))

    @property
    def program(self) -> str:
        """The program's name, as messages give it (``pentobi-gtp``)."""
        return os.path.basename(self.argv[0]) or self.argv[0]

    def __str__(self) -> str:
        return shlex.join(self.argv)


class Failed(Exception):
    """The outside engine cannot go on; the text says why, in a few words."""


class Refused(Failed):
    """The outside engine answered a command with ``?``."""


class Resigned(Exception):
    """The outside engine answered ``genmove`` with ``resign``: no failure, an answer."""


def quote(text: str) -> str:
    """Text from the program on one short line."""
    line = " ".join(text.split())
    return line if len(line) <= QUOTE_CHARS else line[:QUOTE_CHARS - 3] + "..."


class GtpClient:
    """One outside engine program, spoken to in GTP version 2, one command at a time
    (the caller holds :class:`OutsideEngines`' lock)."""

    def __init__(self, command: EngineCommand) -> None:
        self.command = command
        self.process: subprocess.Popen | None = None
        #: The moves of the program's game as (colour, our move text); ``None`` before
        #: its first ``clear_board``.
        self.sent: list[tuple[str, str]] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._id = 0
        self._finalizer: weakref.finalize | None = None

    # --- the process -----------------------------------------------------------------
    def start(self) -> None:
        try:
            process = subprocess.Popen(self.command.argv, stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       start_new_session=True)
        except (OSError, ValueError) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror \
                else str(error)
            raise Failed(texts.outside_not_started(quote(reason))) from None
        self.process, self.sent, self._lines = process, None, queue.Queue()
        # At exit, or when this client is forgotten, the program goes too.
        self._finalizer = weakref.finalize(self, _end, process)
        name = self.command.program
        threading.Thread(target=_read_answers, args=(process.stdout, self._lines),
                         name=f"{name} answers", daemon=True).start()
        threading.Thread(target=_log_errors, args=(process.stderr, name, process.pid),
                         name=f"{name} errors", daemon=True).start()
        log.info("outside engine started (pid %d): %s", process.pid, self.command)

    def close(self, graceful: bool = True) -> None:
        """End the program: ``quit`` and a moment to go by itself when ``graceful``, then
        kill it (and whatever it started)."""
        process, finalizer = self.process, self._finalizer
        self.process, self.sent, self._finalizer = None, None, None
        if process is None:
            return
        if graceful and process.poll() is None:
            try:
                process.stdin.write(b"quit\n")
                process.stdin.close()
                process.wait(QUIT_S)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
        if finalizer is not None:
            finalizer()
        log.info("outside engine ended (pid %d)", process.pid)

    @property
    def running(self) -> bool:
        return self.process is not None

    # --- commands --------------------------------------------------------------------
    def ask(self, command: str, thought: Thought | None = None) -> str:
        """Send ``command`` and return the text of its answer. With a ``thought`` the
        wait reports its progress (time taken over the time limit) and ends, killing the
        program, when the thought is cancelled. Raises :class:`Refused` for a ``?``
        answer and :class:`Failed` for everything else that goes wrong."""
        if self.process is None:
            self.start()
        process = self.process
        self._id += 1
        ident = self._id
        try:
            process.stdin.write(f"{ident} {command}\n".encode("utf-8"))
            process.stdin.flush()
        except (OSError, ValueError):
            raise Failed(_gone(process, command)) from None
        log.debug("to %s: %s", self.command.program, command)
        started = time.monotonic()
        lines: list[str] = []
        try:
            while True:
                line = self._next_line(command, started, thought)
                if line is None:
                    raise Failed(_gone(process, command))
                line = line.rstrip()
                if not line:
                    if lines:
                        break
                    continue  # the blank line after an earlier answer: none is pending
                lines.append(line)
        except Cancelled:
            log.info("outside engine's %s cancelled: the program is stopped", command)
            self.close(graceful=False)
            raise
        log.debug("from %s: %s", self.command.program, " | ".join(lines))
        return self._text(command, ident, lines)

    def _next_line(self, command: str, started: float, thought: Thought | None) -> str | None:
        limit = self.command.timeout_s
        while True:
            now = time.monotonic()
            if thought is not None:
                thought.report(min(1.0, (now - started) / limit))  # Cancelled, if it is
            if now - started >= limit:
                raise Failed(texts.outside_no_answer(command, limit))
            try:
                return self._lines.get(timeout=min(SLICE_S, started + limit - now))
            except queue.Empty:
                pass

    def _text(self, command: str, ident: int, lines: list[str]) -> str:
        match = _ANSWER.fullmatch(lines[0])
        if match is None:
            raise Failed(texts.outside_not_gtp(command, quote(lines[0])))
        mark, got, first = match.groups()
        if got and int(got) != ident:
            raise Failed(texts.outside_wrong_id(command, ident, got))
        text = "\n".join([first or "", *lines[1:]]).strip()
        if mark == "?":
            raise Refused(texts.outside_refused(command, quote(text)))
        return text

    # --- the game --------------------------------------------------------------------
    def follow(self, board: Board) -> None:
        """Bring the program's game to ``board``'s (see the module's text)."""
        target = [(board.mover(index), board.move_text(move))
                  for index, move in enumerate(board.move_stack)]
        if self.sent is None:
            self.ask("clear_board")
            self.sent = []
        kept = 0
        while (kept < min(len(self.sent), len(target))
               and self.sent[kept] == target[kept]):
            kept += 1
        if len(self.sent) - kept > kept + 1:
            self._clear()  # fewer commands than the undos (a new game)
        try:
            while len(self.sent) > kept:
                self.ask("undo")
                self.sent.pop()
        except Refused:
            self._clear()
        for colour, text in target[len(self.sent):]:
            self.ask(f"play {colour} {text}")
            self.sent.append((colour, text))

    def _clear(self) -> None:
        self.sent = None
        self.ask("clear_board")
        self.sent = []

    def genmove(self, board: Board, thought: Thought) -> Hashable:
        """The program's move for the player to move on ``board``, checked by our
        rules; the program's game then holds it."""
        thought.report(0.0)  # nothing asked yet if the thought is no longer wanted
        self.follow(board)
        colour = board.turn
        answer = self.ask(f"genmove {colour}", thought)
        if answer.lower() == "resign":
            raise Resigned
        try:
            move = board.parse_move(answer)
        except EngineError as error:
            raise Failed(texts.outside_no_move(quote(answer), quote(str(error)))) from None
        if not board.is_legal(move):
            raise Failed(texts.outside_illegal(board.move_text(move),
                                               quote(board.illegal_reason(move))))
        self.sent.append((colour, board.move_text(move)))
        return move


def _gone(process: subprocess.Popen, command: str) -> str:
    """Why the program stopped answering: its exit status, or a closed output."""
    try:
        status = process.wait(QUIT_S)
    except subprocess.TimeoutExpired:
        return texts.outside_closed_output(command)
    return texts.outside_exited(status, command)


def _read_answers(stream: IO[bytes], lines: queue.Queue) -> None:
    """The program's standard output, line by line, then ``None`` at its end."""
    try:
        for raw in stream:
            lines.put(raw.decode("utf-8", errors="replace"))
    except (OSError, ValueError):
        pass
    finally:
        lines.put(None)


def _log_errors(stream: IO[bytes], name: str, pid: int) -> None:
    """The program's standard error, to our log at debug level."""
    try:
        for raw in stream:
            log.debug("%s (pid %d): %s", name, pid,
                      raw.decode("utf-8", errors="replace").rstrip())
    except (OSError, ValueError):
        pass


def _end(process: subprocess.Popen) -> None:
    """Kill the program's process group (it runs in one of its own) and reap it."""
    if hasattr(os, "killpg"):
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except OSError:
            pass
    if process.poll() is None:
        process.kill()
    try:
        process.wait(QUIT_S)
    except subprocess.TimeoutExpired:
        pass
    for stream in (process.stdin, process.stdout, process.stderr):
        try:
            if stream is not None:
                stream.close()
        except OSError:
            pass


class OutsideEngines(Thinker):
    """The outside engines the configuration names (game -> :class:`EngineCommand`),
    with ``fallback``, our own search, for every other game and after a failure."""

    def __init__(self, commands: Mapping[str, EngineCommand],
                 fallback: Thinker | None = None) -> None:
        self.commands = dict(commands)
        self.fallback = fallback or InlineThinker()
        self.inline = self.fallback.inline
        #: One running program at a time: a Pi's cores are for the one being asked.
        self._clients: dict[str, GtpClient] = {}
        #: Game -> the line said when its program failed, until a new game.
        self.failed: dict[str, str] = {}
        self._lock = threading.Lock()
        self._closed = False

    def think(self, board: Board, level: int, rng) -> Thought:
        game = board.game
        if self._closed or game not in self.commands or game in self.failed:
            return self.fallback.think(board, level, rng)
        thought = Thought()
        worker = threading.Thread(target=self._ask, args=(thought, board.copy(), level, rng),
                                  name=f"{self.commands[game].program}", daemon=True)
        worker.start()
        if self.inline:
            thought.wait()
        return thought

    def _ask(self, thought: Thought, board: Board, level: int, rng) -> None:
        game = board.game
        try:
            with self._lock:
                client = self._client(game)
                try:
                    move = client.genmove(board, thought)
                except Failed:
                    client.close(graceful=False)
                    raise
        except Cancelled:
            thought.finish(None)
            return
        except Resigned:
            thought.resigned = not thought.cancelled
            thought.finish(None)
            return
        except Failed as failure:
            why = str(failure)
        except Exception as error:  # ours: still one line, and the game goes on
            log.debug("outside engine for %s", game, exc_info=True)
            why = texts.outside_error(error)
            self._forget(game)
        else:
            thought.finish(move)
            return
        if self._closed or thought.cancelled:
            thought.finish(None)
            return
        line = texts.outside_engine_failed(self.commands[game].program, why)
        log.warning("%s", line)
        self.failed[game] = line
        thought.failure = line
        self._finish_with_ours(thought, board, level, rng)

    def _finish_with_ours(self, thought: Thought, board: Board, level: int, rng) -> None:
        """Our own search finishes ``thought``, asked of the fallback thinker (so in the
        engine's own process at the table, never in this thread of the table's), its
        progress passed on and a cancel passed back."""
        ours = self.fallback.think(board, level, rng)
        while not ours.wait(SLICE_S):
            thought.progress = ours.progress
            if thought.cancelled:
                ours.cancel()
        thought.finish(ours.move, ours.judgement)

    def player_name(self, game: str, level: int) -> str:
        """The outside engine's command line where the configuration names one for
        ``game``, and our own engine after it once it failed in this game: the record
        says who played."""
        own = self.fallback.player_name(game, level)
        if game not in self.commands:
            return own
        outside = str(self.commands[game])
        return f"{outside}, then {own}" if game in self.failed else outside

    def program(self, game: str) -> str | None:
        """The program the configuration names for ``game``, if any."""
        command = self.commands.get(game)
        return command.program if command is not None else None

    def _client(self, game: str) -> GtpClient:
        if self._closed:
            raise Cancelled
        for other in [name for name in self._clients if name != game]:
            self._forget(other)
        client = self._clients.get(game)
        if client is None:
            client = self._clients[game] = GtpClient(self.commands[game])
        return client

    def _forget(self, game: str) -> None:
        client = self._clients.pop(game, None)
        if client is not None:
            client.close()

    def new_game(self) -> None:
        """A new game gives every program that failed another chance."""
        self.failed.clear()
        self.fallback.new_game()

    def close(self) -> None:
        """End every program: told to ``quit`` unless it is busy answering, then
        killed. Questions asked from now on are our own engine's."""
        self._closed = True
        idle = self._lock.acquire(blocking=False)
        try:
            for client in list(self._clients.values()):
                client.close(graceful=idle)
            self._clients.clear()
        finally:
            if idle:
                self._lock.release()
        self.fallback.close()
