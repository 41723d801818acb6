"""Text files a person wrote or a board recorded, read strictly as UTF-8.

Python's own decoding error is a traceback whose position counts from the start of a
buffer nobody sees. A maker with a stray Latin-1 ``é`` in a profile, or a sensor log cut
by a power failure, needs one line instead: which file, which byte, and where, so that
``hexdump -C -s OFFSET`` (or an editor's "go to byte") finds it. Every reader of the app
decodes through :func:`decode` and raises its own :class:`~engines.errors.TabletopError`
subclass, so the command line prints the line with exit status 2 like any other bad input.
"""

from __future__ import annotations

from importlib.resources.abc import Traversable
from pathlib import Path

from app.errors import describe
from engines.errors import TabletopError


def decode(data: bytes, where: str, error: type[TabletopError], *, offset: int = 0) -> str:
    """``data`` as UTF-8 text, or ``error("WHERE: not UTF-8 text: byte 0xff at offset
    N")`` for the first byte that is not. ``offset`` is where ``data`` starts in its
    file, for a caller that decodes a file piece by piece (a log, line by line)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as bad:
        raise error(f"{where}: not UTF-8 text: byte 0x{data[bad.start]:02x} at offset "
                    f"{offset + bad.start}") from None


def read_text(path: Path | Traversable | str, error: type[TabletopError]) -> str:
    """The whole file at ``path`` as text; a file that cannot be read or decoded is
    ``error`` with one line naming it (``PATH: cannot read: Permission denied``)."""
    path = Path(path) if isinstance(path, str) else path
    try:
        data = path.read_bytes()
    except OSError as cause:
        raise error(f"{path}: cannot read: {cause.strerror or describe(cause)}") from None
    return decode(data, str(path), error)
