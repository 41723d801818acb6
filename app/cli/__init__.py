"""The ``tabletop`` console command: a thin dispatcher over the ``app.cli`` modules.

Every expected failure is a :class:`~engines.errors.TabletopError` that the command lets
go; :func:`main` is the one place that turns it into ``tabletop COMMAND: message`` on
stderr and its exit status. A traceback means a bug. The statuses, as the README and the
service unit rely on them: 0 done, 1 a runtime failure (hardware that cannot be opened
or went away: running again may work), 2 a usage mistake (a bad argument, option, move
or file: running it again unchanged fails again), 130 interrupted by Ctrl-C.
"""

from __future__ import annotations

import argparse
import logging
import math
import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib import import_module

from app.errors import describe
from app.hardware import lgpio_dir
from engines.errors import OptionError, TabletopError
from engines.gtp import version

#: Subcommand modules, in the order ``tabletop --help`` lists them.
COMMANDS = (
    "app.cli.play",
    "app.cli.gtp",
    "app.cli.simulate",
    "app.cli.sensors",
    "app.cli.run",
    "app.cli.selftest",
    "app.cli.device",
    "app.cli.firmware",
    "app.cli.wiring",
    "app.cli.watch",
)


class OneLineParser(argparse.ArgumentParser):
    """argparse, with a usage mistake told as one line like every other error:
    ``tabletop sensors replay: argument --debounce: must be 0 seconds or more, not -1``
    and exit status 2. The usage itself is one ``--help`` away. Subcommand parsers are
    made of the same class."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message}\n")


def number_type(what: str, rule: str, allowed: Callable[[float], bool],
                kind: type = float):
    """An argparse type for a finite number (of ``kind``, ``int`` for a count) of ``what``
    that ``allowed`` accepts; anything else is one line: ``expected WHAT, not 'x'`` or
    ``must be RULE, not -1``. NaN and the infinities are refused everywhere: a sleep, a
    divisor or a speed chokes on them."""
    def convert(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, not {text!r}") from None
        if not math.isfinite(value) or not allowed(value):
            raise argparse.ArgumentTypeError(f"must be {rule}, not {text}")
        return value
    return convert


#: Seconds, zero or more.
seconds = number_type("a number of seconds", "0 seconds or more", lambda v: v >= 0)
#: A rate above zero (``sensors record --scan-hz``), which a period is taken from: 0 would
#: divide by zero, and a negative period ends in ``time.sleep``'s traceback.
per_second = number_type("a number per second", "a number above 0 per second",
                         lambda v: v > 0)
#: A multiple of real time (``run --speed``), 0 meaning as fast as possible; a negative
#: one would mean that too, and be taken without a word for something it is not.
speed = number_type("a multiple of real time", "0 (as fast as possible) or more",
                    lambda v: v >= 0)


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="tabletop",
                           description="An electronic tabletop for abstract games.")
    parser.add_argument("--version", action="version", version=f"tabletop {version()}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        import_module(name).register(subparsers)
    return parser


def split_options(words: list[str]) -> dict[str, str]:
    """Turn ``key=value`` words into a dict, refusing anything else with
    :class:`~engines.errors.OptionError`."""
    options = {}
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or not key:
            raise OptionError(f"expected key=value, got {word!r}")
        options[key] = value
    return options


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``[GAME] [key=value ...]`` pair that every playing command takes."""
    from app.games import GAMES
    first = next(iter(GAMES))
    parser.add_argument("game", nargs="?", default=first,
                        help=f"{', '.join(GAMES)} (default: {first})")
    parser.add_argument("options", nargs="*", metavar="key=value", help="game options")


def game_from_args(args: argparse.Namespace):
    """The new game the arguments name; a bad game or option raises
    :class:`~engines.errors.EngineError` for :func:`main` to print."""
    from app.games import new_game
    return new_game(args.game, **split_options(args.options))


def main(argv: list[str] | None = None) -> int:
    """Run one command; the exit status is its result, or the error's status after a
    one-line error."""
    lgpio_dir.prepare()  # before anything can import lgpio (a Pi's GPIO, under gpiozero)
    args = build_parser().parse_args(argv)
    try:
        status = args.run(args) or 0
        # Output still buffered for a pipe would otherwise be written at exit, outside
        # this try, where a reader that has gone away would make a traceback.
        sys.stdout.flush()
        return status
    except TabletopError as error:
        # In the journal, the line that ends the service is an error there too.
        priority = f"<{JOURNAL_PRIORITIES[logging.ERROR]}>" \
            if writes_to_journal(sys.stderr) else ""
        print(f"{priority}tabletop {args.command}: {describe(error)}", file=sys.stderr)
        return error.exit_status
    except BrokenPipeError:
        # Our output was piped into a reader that stopped reading (``| head -1``): it has
        # what it wanted, so this is not a failure and the status is 0, as for any
        # command that was cut short on purpose. The Python docs' recipe: point stdout
        # at devnull, so the interpreter's own flush at exit cannot fail a second time.
        _stdout_to_devnull()
        return 0
    except KeyboardInterrupt:
        # Ctrl-C: stop without a traceback, with the shell's status for SIGINT.
        return 130


class _PipeLogHandler(logging.StreamHandler):
    """Logs to standard output, and treats a reader that went away (``tabletop run |
    head``) as :func:`main` treats it: stdout goes to devnull and, in the main thread,
    the BrokenPipeError goes on up to :func:`main`, which ends the command quietly.
    logging's own handler would print a traceback for every later line instead."""

    def handleError(self, record: logging.LogRecord) -> None:
        error = sys.exc_info()[1]
        if not isinstance(error, BrokenPipeError):
            super().handleError(record)
            return
        _stdout_to_devnull()
        if threading.current_thread() is threading.main_thread():
            raise error


#: syslog's priority for each logging level: what the journal files a line under.
JOURNAL_PRIORITIES = {logging.CRITICAL: 2, logging.ERROR: 3, logging.WARNING: 4,
                      logging.INFO: 6, logging.DEBUG: 7}


class JournalFormatter(logging.Formatter):
    """Lines that start with their syslog priority, ``<4>WARNING tabletop: ...``.

    systemd reads such a prefix off every line a service writes to its journal stream
    and files the line at that priority, so ``journalctl -p warning`` shows the
    board's warnings and errors; without it every line is filed as info."""

    def format(self, record: logging.LogRecord) -> str:
        priority = JOURNAL_PRIORITIES.get(record.levelno, 6 if record.levelno < 30 else 3)
        return f"<{priority}>{super().format(record)}"


def writes_to_journal(stream=None, environ=os.environ) -> bool:
    """Whether ``stream`` (standard output) is the journal's stream for this service:
    systemd sets ``JOURNAL_STREAM`` to that stream's device and inode. A terminal or a
    pipe (``tabletop run | less``) gets plain lines."""
    device, _, inode = environ.get("JOURNAL_STREAM", "").partition(":")
    try:
        info = os.fstat((stream or sys.stdout).fileno())
    except (OSError, ValueError, AttributeError):
        return False  # not a file descriptor (a test's capture)
    return f"{info.st_dev}:{info.st_ino}" == f"{device}:{inode}"


@contextmanager
def logging_to_stdout() -> Iterator[None]:
    """While a command runs, log INFO and above to standard output, one line per record:
    ``tabletop run``'s progress, which systemd's journal keeps on a Pi, each line at its
    priority there. The handler goes when the command ends, so a process that runs
    commands one after another (the tests) is left with no handler on a stream that may
    since have been closed."""
    handler = _PipeLogHandler(sys.stdout)
    formatter = JournalFormatter if writes_to_journal() else logging.Formatter
    handler.setFormatter(formatter("%(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    try:
        yield
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


def _stdout_to_devnull() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass  # stdout is not a file descriptor (a test's capture): nothing to flush

