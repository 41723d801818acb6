"""Game records on disk: every move saved atomically, the last game resumed after a crash.

Each game is one record file in the engine's own format (``000042-kulami.sgf``), rewritten
in full after every move through a temporary file, ``fsync`` and ``rename``, so a power
cut leaves either the old record or the new one, never half of one. Records are numbered
rather than dated because a Pi without a clock battery may boot with the wrong time; the
highest number is the game in progress. A record that does not load is moved to
``corrupt/`` and reported, never deleted.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from app import games
from engines import Board, EngineError

log = logging.getLogger(__name__)

#: The name of the desktop's data directory (platformdirs appends it to the user's).
APP_NAME = "tabletop"
#: Where a Pi keeps its games (systemd's ``StateDirectory=tabletop`` creates it).
SYSTEM_DATA_DIR = Path("/var/lib/tabletop")
_RECORD = re.compile(r"(\d{6})-([a-z0-9-]+)\.sgf")


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
    """Replace ``path`` with ``text`` so that a crash at any instant leaves old or new."""
    temporary = path.with_name(path.name + ".tmp")
    with open(temporary, "w", encoding="utf-8") as file:
        file.write(text)
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, path)
    _fsync_directory(path.parent)


def _fsync_directory(directory: Path) -> None:
    """Make a rename durable: the directory entry lives in the directory's own blocks."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@dataclass(frozen=True)
class Resumed:
    """What :meth:`RecordStore.resume` found: the last game (or ``None``) and any problem
    worth telling the players, such as a record kept aside as corrupt."""

    board: Board | None
    problem: str = ""


class RecordStore:
    """The records in one data directory; ``current`` is the game being saved to."""

    def __init__(self, directory: Path | str) -> None:
        self.directory = Path(directory)
        self.games = self.directory / "games"
        self.corrupt = self.directory / "corrupt"
        self.games.mkdir(parents=True, exist_ok=True)
        self.current: Path | None = None

    def records(self) -> list[Path]:
        """Every record, oldest first."""
        return sorted(p for p in self.games.iterdir() if _RECORD.fullmatch(p.name))

    def start(self, board: Board) -> Path:
        """Open a new record for ``board`` (usually no moves yet) and save it."""
        numbers = [int(_RECORD.fullmatch(p.name)[1]) for p in self.records()]
        number = max(numbers, default=0) + 1
        self.current = self.games / f"{number:06d}-{board.game}.sgf"
        self.save(board)
        return self.current

    def save(self, board: Board) -> None:
        """Write ``board``'s whole record over the current one, atomically and durably."""
        if self.current is None:
            raise RuntimeError("no game record started; call start() first")
        write_atomically(self.current, board.to_record())

    def resume(self) -> Resumed:
        """The newest game, loaded back; a record that will not load is set aside."""
        self._remove_leftovers()
        records = self.records()
        if not records:
            return Resumed(None)
        path = records[-1]
        game = _RECORD.fullmatch(path.name)[2]
        try:
            board = games.game(game).board_class.from_record(path.read_text(encoding="utf-8"))
        except (EngineError, UnicodeDecodeError) as error:
            kept = self._set_aside(path)
            problem = f"record {path.name} is unreadable ({_one_line(error)}); kept as {kept}"
            log.error(problem)
            return Resumed(None, problem)
        self.current = path
        return Resumed(board)

    def _set_aside(self, path: Path) -> Path:
        self.corrupt.mkdir(exist_ok=True)
        target = self.corrupt / path.name
        suffix = 1
        while target.exists():
            target = self.corrupt / f"{path.name}.{suffix}"
            suffix += 1
        os.replace(path, target)
        _fsync_directory(self.games)
        return target

    def _remove_leftovers(self) -> None:
        """A ``.tmp`` file is a write cut short; its record still holds the previous save."""
        for temporary in self.games.glob("*.tmp"):
            log.warning("removing %s, a save interrupted before it completed", temporary.name)
            temporary.unlink()


def _one_line(error: Exception) -> str:
    return " ".join(str(error).split()) or type(error).__name__
