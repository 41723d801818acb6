"""Game records on disk: every move saved atomically, the game in progress resumed after a
crash, and a save that fails kept in memory and tried again.

Each game is one record file in the engine's own format (``000042-kulami.sgf``), rewritten
in full after every move through a temporary file, ``fsync`` and ``rename``, so a power
cut leaves either the old record or the new one, never half of one. Records are numbered
rather than dated because a Pi without a clock battery may boot with the wrong time; the
highest number is the newest game. A record that does not load is moved to ``corrupt/``
and reported, never deleted.

Nothing is acknowledged (a save returning true, a move said to be saved) before it is
durable, and a file's name lives in its folder's blocks, not the file's: so the folder is
synced after every rename, every folder the store creates (``games/``, its parents where
they are missing, ``corrupt/``) is synced into its parent before a record goes into it,
and a record set aside gets its new name in ``corrupt/`` synced before its old name is
removed, so that a file system that writes folders in any order cannot lose it.

What the table adds. The engine's record holds the game and every option it was created
with; what only the table knows goes into the record's root as properties of ours, which
SGF readers ignore as they ignore every property they do not know::

    SEATB[person]SEATW[engine]   who plays each colour: its seat's word (app.table.seats)
    LEVEL[2]                     the engine's level
    SEED[1234]                   the engine's seed: a resumed engine lights the move it had lit
    PROFILE[kulami]              the board profile the game is played on

A board resumes only the newest record of its own game and profile; every other record
is left as it is, and :meth:`RecordStore.saved` lists them all for the new-game menu.
A record of this version's game that asks for an option it refuses (``HA[2.0]``) is not
damaged: it stays where it is, is reported, and loads again once the option is allowed.

A full disk or a read-only folder must not stop a game: a save that fails is logged
once, its text kept in memory, and :attr:`RecordStore.failure` says why in one line.
Every later save writes everything still waiting, and :meth:`RecordStore.retry`, which
the table loop calls each turn, tries again after a back-off; once a write succeeds the
failure clears.
"""

from __future__ import annotations

import logging
import os
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import platformdirs

from app import games
from app.errors import describe
from app.table import texts
from app.table.seats import SeatError, parse, parse_seats
from app.textfile import decode
from engines import Board, EngineError, Option, OptionError, RecordError, sgf

log = logging.getLogger(__name__)

#: The name of the desktop's data directory (platformdirs appends it to the user's).
APP_NAME = "tabletop"
#: Where a Pi keeps its games (systemd's ``StateDirectory=tabletop`` creates it).
SYSTEM_DATA_DIR = Path("/var/lib/tabletop")
_RECORD = re.compile(r"(\d{6,})-([a-z0-9-]+)\.sgf")
#: The table's root properties, read through options as the games' own are (a seat's
#: word is checked where every seat's is, :func:`app.table.seats.parse`).
_TABLE = {
    "SEATB": Option("b", "person", str, "who plays b"),
    "SEATW": Option("w", "person", str, "who plays w"),
    "LEVEL": Option("level", 2, int, "the engine's level, 1 or more"),
    "SEED": Option("seed", 0, int, "the engine's seed"),
}
#: The first wait before a failed save is tried again, doubled after every failure up to
#: the longest: soon enough to notice a card freed, rare enough to cost nothing.
RETRY_FIRST_S = 2.0
RETRY_LONGEST_S = 60.0


def default_data_dir(environ: Mapping[str, str] = os.environ) -> Path:
    """The service's state directory, else the desktop's own data directory.

    systemd sets ``STATE_DIRECTORY`` (``/var/lib/tabletop`` on a Pi). A desktop gets
    platformdirs' user data directory: ``$XDG_DATA_HOME/tabletop`` or
    ``~/.local/share/tabletop`` on Linux, the platform's own place elsewhere.
    platformdirs reads the process environment, so an ``environ`` other than
    ``os.environ`` (a test's) stands in for it during the look-up.
    """
    if environ.get("STATE_DIRECTORY"):
        return Path(environ["STATE_DIRECTORY"].split(":")[0])
    if environ is os.environ:
        return platformdirs.user_data_path(APP_NAME, appauthor=False)
    from unittest.mock import patch  # only here: it imports asyncio

    with patch.dict(os.environ, environ, clear=True):
        return platformdirs.user_data_path(APP_NAME, appauthor=False)


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` so that a crash at any instant leaves old or new.
    A write that fails removes its temporary file: on a full disk it holds the space
    the next attempt needs."""
    temporary = path.with_name(path.name + ".tmp")
    try:
        with open(temporary, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except OSError:
        try:
            temporary.unlink(missing_ok=True)
        except OSError:
            pass  # a read-only folder: nothing was written there either
        raise
    _fsync(path.parent)


def _fsync(path: Path) -> None:
    """Write a file's or a folder's own blocks to the disk; a folder's hold the names in
    it, so a rename, a link or a removal is durable once its folder is synced."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _missing(folder: Path) -> list[Path]:
    """``folder`` and each of its parents that does not exist, the outermost first."""
    missing = []
    while not folder.exists() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    return missing[::-1]


class Players(Protocol):
    """What the store reads at each save to record who plays: the session has these."""

    seats: Mapping[str, Any]  # each a seat, or its word (app.table.seats)
    level: int
    seed: int
    #: How the record names the engine's seats (an outside engine's own command line).
    engine_name: str
    #: The colour that resigned, if one did (read where there is one: a session's).
    resigned: str | None


@dataclass(frozen=True)
class Resumed:
    """A record loaded back: the game (or ``None``) and any problem worth telling the
    players, such as a record kept aside as corrupt. ``table`` holds what the record says
    of the table as the session's keyword arguments (``seats``, ``level``, ``seed``; those
    it records), ``profile`` the board it was played on, ``resigned`` the colour that
    resigned, ending the game, if one did."""

    board: Board | None
    problem: str = ""
    table: Mapping[str, Any] = field(default_factory=dict)
    profile: str = ""
    resigned: str | None = None

    @property
    def over(self) -> bool:
        """Whether the game loaded ended: by its rules, or by a resignation."""
        return self.board is not None and (self.resigned is not None
                                           or self.board.is_game_over())


@dataclass(frozen=True)
class Saved:
    """One record as the load list names it: its number and its game."""

    path: Path
    number: int
    game: str


class RecordStore:
    """The records in one data directory; ``current`` is the game being saved to.

    ``profile`` names the board the games are played on (written into every record and
    matched on resume); ``players``, once set (to the session), is read at every save for
    the seats, level and seed. ``clock`` paces :meth:`retry`."""

    def __init__(self, directory: Path | str, profile: str = "",
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.directory = Path(directory)
        self.games = self.directory / "games"
        self.corrupt = self.directory / "corrupt"
        self.profile = profile
        self.players: Players | None = None
        self.current: Path | None = None
        #: Why saving fails, in one line; empty while saves succeed.
        self.failure = ""
        self.clock = clock
        #: Record texts not yet on disk, by path, oldest first.
        self._unsaved: dict[Path, str] = {}
        #: Folders this store created whose parent is not synced yet, outermost first.
        self._unsynced_folders: list[Path] = []
        self._wait = RETRY_FIRST_S
        self._retry_at = 0.0
        try:
            self._make_folder(self.games)
        except OSError as error:
            self._failed(f"cannot create {self.games}", error)

    # --- the records there are -------------------------------------------------------
    def records(self) -> list[Path]:
        """Every record, oldest first."""
        if not self.games.is_dir():
            return []
        found = [(int(match[1]), p) for p in self.games.iterdir()
                 if (match := _RECORD.fullmatch(p.name))]
        return [path for _, path in sorted(found)]

    def saved(self) -> list[Saved]:
        """Every record, newest first, for the load list (nothing is read yet)."""
        return [Saved(path, *_number_and_game(path)) for path in reversed(self.records())]

    def read(self, path: Path) -> Resumed:
        """The game in the record at ``path``, or why it does not load; the record and
        :attr:`current` are left as they are."""
        try:
            text, root = self._text_and_root(path)
            return self._board(path, text, root)
        except (EngineError, OSError) as error:
            return Resumed(None, f"record {path.name} does not load: "
                                 f"{_why_record(path, error)}")

    # --- saving ----------------------------------------------------------------------
    def start(self, board: Board) -> Path:
        """Open a new record for ``board`` (usually no moves yet) and save it. Its number
        follows every record there is, on disk or still waiting to be written."""
        numbers = [_number_and_game(p)[0] for p in [*self.records(), *self._unsaved]]
        number = max(numbers, default=0) + 1
        self.current = self.games / f"{number:06d}-{board.game}.sgf"
        self.save(board)
        return self.current

    def save(self, board: Board) -> bool:
        """Write ``board``'s whole record over the current one, atomically and durably,
        with anything an earlier failed save left waiting. A failure is remembered in
        :attr:`failure`, never raised: returns whether everything is on disk."""
        if self.current is None:
            raise RuntimeError("no game record started; call start() first")
        self._unsaved.pop(self.current, None)  # the newest text goes last
        self._unsaved[self.current] = self._text(board)
        return self._flush()

    def retry(self) -> bool:
        """Write what failed saves left waiting, once the back-off since the last failure
        has passed; the table loop calls this every turn. Returns whether everything is
        on disk."""
        if self._unsaved and self.clock() >= self._retry_at:
            self._flush()
        return not self._unsaved

    def _flush(self) -> bool:
        path = None
        try:
            if self.failure or self._unsynced_folders:
                self._make_folder(self.games)
            for path in list(self._unsaved):
                write_atomically(path, self._unsaved[path])
                del self._unsaved[path]
        except OSError as error:
            self._failed(f"cannot save {path.name}" if path else f"cannot create {self.games}",
                         error)
            return False
        if self.failure:
            log.info("saving works again: every record is on disk")
            self.failure, self._wait = "", RETRY_FIRST_S
        return True

    def _make_folder(self, folder: Path) -> None:
        """Create ``folder`` and whichever of its parents are missing, and sync each one
        created into its parent. A new folder's name is written in its parent's blocks:
        synced only as deep as the records, a first game's ``games/`` (and a new data
        folder above it) could vanish with every record in it on a file system that
        writes folders in any order, however well the records themselves were synced.
        A folder created but not yet synced (the sync failed) is synced next time."""
        for missing in _missing(folder):
            try:
                os.mkdir(missing)
            except FileExistsError:
                if not missing.is_dir():
                    raise
            self._unsynced_folders.append(missing)
        while self._unsynced_folders:
            _fsync(self._unsynced_folders[0].parent)
            del self._unsynced_folders[0]

    def _failed(self, what: str, error: OSError) -> None:
        failure = f"{what}: {error.strerror or describe(error)}"
        if failure != self.failure:
            log.error("%s; the game goes on in memory and the save is tried again", failure)
        self.failure = failure
        self._retry_at = self.clock() + self._wait
        self._wait = min(self._wait * 2, RETRY_LONGEST_S)

    def _text(self, board: Board) -> str:
        """The game's record, the engine named as a player, with the table's properties
        added to its root."""
        table, names, resigned = {}, {}, None
        if self.players is not None:
            players = self.players
            seats = parse_seats(players.seats)
            names = {colour: players.engine_name
                     for colour, seat in seats.items() if seat.thinks}
            table.update(SEATB=[seats["b"].kind], SEATW=[seats["w"].kind],
                         LEVEL=[str(players.level)], SEED=[str(players.seed)])
            resigned = getattr(players, "resigned", None)
        if self.profile:
            table["PROFILE"] = [self.profile]
        text = board.record_format.write(board, players=names or None, resigned=resigned)
        if not table:
            return text
        root, *moves = sgf.parse(text)
        return sgf.dumps([{**root, **table}, *moves])

    # --- loading ---------------------------------------------------------------------
    def resume(self, game: str | None = None, profile: str | None = None,
               unfinished: bool = False) -> Resumed:
        """The newest record of ``game`` played on ``profile``, loaded back (``None``:
        any game, any profile); with ``unfinished``, the newest whose game is not over,
        so that a game finished since does not hide an older one still to be played.
        Records of other games and boards are left alone; a damaged record in the way is
        set aside, one with an option this version refuses is kept where it is, and
        either is reported instead of resumed."""
        self._remove_leftovers()
        for path in reversed(self.records()):
            if game is not None and _number_and_game(path)[1] != game:
                continue
            try:
                text, root = self._text_and_root(path)
            except OSError as error:
                return self._unresumed(f"record {path.name} cannot be read ({_why(error)}); "
                                       f"left as it is")
            except RecordError as error:
                return self._unresumed(self._set_aside(path, error))
            if profile is not None and _profile(root) != profile:
                continue
            try:
                resumed = self._board(path, text, root)
            except OptionError as error:
                return self._unresumed(f"record {path.name} cannot be resumed "
                                       f"({_why_record(path, error)}); kept as it is")
            except EngineError as error:
                return self._unresumed(self._set_aside(path, error))
            if unfinished and resumed.over:
                continue
            self.current = path
            return resumed
        return Resumed(None)

    def unfinished_game(self, profile: str | None = None) -> str | None:
        """The game of the newest record played on ``profile`` that loads and is not
        over, or ``None``; nothing is moved or set aside (:meth:`resume` does that)."""
        for path in reversed(self.records()):
            resumed = self.read(path)
            if (resumed.board is not None and (profile is None or resumed.profile == profile)
                    and not resumed.over):
                return resumed.board.game
        return None

    def drop_empty(self, board: Board) -> bool:
        """Remove the current record, ``board``'s, when it holds no move, and save to it
        no more; returns whether it went. A front end calls this as a game it started is
        left: a game with no moves holds nothing the command that started it cannot make
        again (its options and players are the command's), and every open-and-quit kept
        would fill the load list with empty games. A game resumed is never dropped this
        way: a board's game of no moves still holds its layout, set out on the table."""
        path = self.current
        if path is None or board.move_stack:
            return False
        self._unsaved.pop(path, None)
        try:
            path.unlink(missing_ok=True)
            _fsync(self.games)
        except OSError as error:
            log.warning("cannot remove %s, a game of no moves: %s", path.name, _why(error))
            return False
        self.current = None
        return True

    def load(self, path: Path) -> Resumed:
        """Continue the record at ``path`` (from the load list): once it loads it takes
        the next number, so that it is the newest and a restart resumes it, and becomes
        :attr:`current`. A record that does not load stays as it is."""
        resumed = self.read(path)
        if resumed.board is None:
            return resumed
        number = max(_number_and_game(p)[0] for p in [*self.records(), *self._unsaved])
        target = path
        if _number_and_game(path)[0] < number:
            target = self.games / f"{number + 1:06d}-{resumed.board.game}.sgf"
            # The next save fsyncs the folder; a power cut before it leaves the record
            # under its old number, which is the game as it was.
            try:
                os.replace(path, target)
            except OSError as error:
                log.warning("continuing %s under its own number: cannot renumber it: %s",
                            path.name, _why(error))
                target = path
        if path in self._unsaved:
            self._unsaved[target] = self._unsaved.pop(path)
        self.current = target
        return resumed

    def _text_and_root(self, path: Path) -> tuple[str, sgf.Node]:
        """The record's text (the newest, when a failed save left it waiting) and root."""
        text = self._unsaved.get(path)
        if text is None:
            text = decode(path.read_bytes(), path.name, RecordError)
        return text, sgf.parse(text)[0]

    def _board(self, path: Path, text: str, root: sgf.Node) -> Resumed:
        record = games.game(_number_and_game(path)[1]).board_class.record_format.read_game(text)
        return Resumed(record.board, table=_table(root), profile=_profile(root),
                       resigned=record.resigned)

    def _unresumed(self, problem: str) -> Resumed:
        log.error(problem)
        return Resumed(None, problem)

    def _set_aside(self, path: Path, error: Exception) -> str:
        """Move a damaged record to ``corrupt/``, keeping every earlier one of the same
        name; returns the problem to report.

        A rename between two folders changes both, and a file system may write either
        folder first: synced in ``games/`` alone, the record could be gone from there and
        never arrive in ``corrupt/``. So the record is linked under its new name first,
        that name made durable (the file and ``corrupt/`` synced), and only then its old
        name removed and ``games/`` synced: a power cut at any instant leaves it in one
        folder or both, never in neither."""
        why = _why_record(path, error)
        target = self.corrupt / path.name
        try:
            self._make_folder(self.corrupt)
            suffix = 1
            while True:
                try:
                    os.link(path, target)  # never over an earlier record of the name
                    break
                except FileExistsError:
                    target = self.corrupt / f"{path.name}.{suffix}"
                    suffix += 1
            _fsync(target)
            _fsync(self.corrupt)
            os.unlink(path)
            _fsync(self.games)
        except OSError as cause:
            return (f"record {path.name} is unreadable ({why}); left in place, as it "
                    f"cannot be moved to {self.corrupt}: {_why(cause)}")
        return f"record {path.name} is unreadable ({why}); kept as {target}"

    def _remove_leftovers(self) -> None:
        """A ``.tmp`` file is a write cut short; its record still holds the previous save."""
        if not self.games.is_dir():
            return
        for temporary in self.games.glob("*.tmp"):
            log.warning("removing %s, a save interrupted before it completed", temporary.name)
            try:
                temporary.unlink()
            except OSError as error:
                log.warning("cannot remove %s: %s", temporary.name, _why(error))


def _number_and_game(path: Path) -> tuple[int, str]:
    match = _RECORD.fullmatch(path.name)
    return int(match[1]), match[2]


def _profile(root: sgf.Node) -> str:
    return root.get("PROFILE", [""])[0]


def _table(root: sgf.Node) -> dict[str, Any]:
    """The session's keyword arguments the table's root properties give; a value this
    version refuses is a :class:`~engines.sgf.RecordOptionError` naming the property."""
    values = sgf.read_options(root, _TABLE)
    table: dict[str, Any] = {}
    seats = {player: values[player] for player in ("b", "w") if player in values}
    if seats:
        if len(seats) == 1:
            raise sgf.RecordOptionError("SEATB and SEATW come together; one is missing")
        table["seats"] = {}
        for player, word in seats.items():
            try:
                table["seats"][player] = parse(word)
            except SeatError as error:
                raise sgf.RecordOptionError(f"SEAT{player.upper()} {error}") from None
    if "level" in values:
        if values["level"] < 1:
            raise sgf.RecordOptionError(f"LEVEL must be 1 or more, not "
                                        f"{root['LEVEL'][0]!r} (level)")
        table["level"] = values["level"]
    if "seed" in values:
        table["seed"] = values["seed"]
    return table


def _why_record(path: Path, error: BaseException) -> str:
    """Why the record at ``path`` does not load, the players named by their colours in
    its game (the engines word a record's faults in GTP's letters: ``it is w's turn``
    reads ``it is black's turn`` in Kulami)."""
    game = _number_and_game(path)[1]
    why = _why(error)
    return texts.named(game, why) if game in games.GAMES else why


def _why(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return describe(error)
