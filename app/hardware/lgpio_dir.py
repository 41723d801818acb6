"""Where lgpio makes its notification pipe: a folder this user may write, chosen before
lgpio can load.

lgpio (gpiozero's pin factory on a Pi, and Blinka's GPIO on a Pi 5) makes a named pipe,
``.lgd-nfyN``, the moment it is imported, in the folder the environment variable
``LG_WD`` names or else in the working directory, and moves the whole process into that
folder. Run the way the README runs the self-test (``sudo -u tabletop ... selftest`` from
a person's home) the working directory is one the tabletop user may not write: no pipe
is made, ``import lgpio`` fails with ``FileNotFoundError: '.lgd-nfy-3'`` (its handle is
the error code), and gpiozero then reports only that it could load no pin factory.

:func:`prepare` runs first in every entry point (the ``tabletop`` command's ``main``):
it sets ``LG_WD`` unless it is set, to the service's runtime directory
(``$RUNTIME_DIRECTORY``, /run/tabletop) or else a folder of this user's own, and puts the
process back in its working directory once lgpio has loaded, so that a relative path on
the command line (``sensors record --out game.jsonl``) still means what it said.
:func:`pipe_problem` names the cause where lgpio fails all the same.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import os
import pwd
import sys
import tempfile
from collections.abc import MutableMapping
from contextlib import suppress
from pathlib import Path

#: The variable lgpio reads for the folder of its pipe.
LG_WD = "LG_WD"
#: What lgpio's pipe is called, which its import failure names.
PIPE_NAME = ".lgd-nfy"
#: The fix for a pipe lgpio could not make, for a one-line message.
PIPE_FIX = (f"set {LG_WD} to a folder the user may write (the service's own is "
            f"/run/tabletop), or run from one")


def prepare(environ: MutableMapping[str, str] = os.environ) -> str:
    """Make ``LG_WD`` name a folder this user may write, unless it names one already
    (a person's choice is kept), and keep lgpio from moving the process out of its
    working directory. Returns the folder ("" where this user may write nowhere, not
    even in the temporary directory: lgpio then tries the working directory, and
    :func:`pipe_problem` says what failed)."""
    if not any(isinstance(finder, _BackWhereItWas) for finder in sys.meta_path):
        sys.meta_path.insert(0, _BackWhereItWas())
    if not environ.get(LG_WD):
        try:
            environ[LG_WD] = own_folder(environ)
        except OSError:
            return ""  # nowhere at all to write: lgpio tries the working directory
    return environ[LG_WD]


def own_folder(environ: MutableMapping[str, str] = os.environ) -> str:
    """A folder for lgpio's pipe: the service's runtime directory (systemd's
    ``RuntimeDirectory=``, which may list several), else ``tabletop`` in this user's
    runtime directory or cache, else a new private folder in the temporary directory."""
    runtime = environ.get("RUNTIME_DIRECTORY", "").split(":")[0]
    if runtime and _writable(Path(runtime)):
        return runtime
    import platformdirs
    candidates = [(Path(platformdirs.user_cache_dir("tabletop")), True)]
    if environ.get("XDG_RUNTIME_DIR"):  # made by the login, never by us
        candidates.insert(0, (Path(environ["XDG_RUNTIME_DIR"]) / "tabletop", False))
    for folder, parents in candidates:
        with suppress(OSError):
            folder.mkdir(mode=0o700, parents=parents, exist_ok=True)
        if _writable(folder):
            return str(folder)
    return tempfile.mkdtemp(prefix="tabletop-lgpio-")


def _writable(folder: Path) -> bool:
    return folder.is_dir() and os.access(folder, os.W_OK | os.X_OK)


def pipe_problem(text: str, environ: MutableMapping[str, str] = os.environ) -> str | None:
    """The cause, as a phrase, when ``text`` (an error, or gpiozero's warning that it
    fell back from lgpio) is lgpio failing to make its pipe; ``None`` for anything else."""
    if PIPE_NAME not in text:
        return None
    folder = environ.get(LG_WD) or os.getcwd()
    said = f"{folder} ({LG_WD})" if environ.get(LG_WD) else f"{folder} (the working directory)"
    path = Path(folder)
    if not path.is_dir():
        why = "which does not exist"
    elif not os.access(path, os.W_OK | os.X_OK):
        why = f"which the user {_user()} may not write"
    else:
        why = "whose file system takes no named pipes"
    return f"lgpio could not make its notification pipe in {said}, {why}"


def _user() -> str:
    try:
        return pwd.getpwuid(os.geteuid()).pw_name
    except KeyError:
        return str(os.geteuid())


class _BackWhereItWas(importlib.abc.MetaPathFinder):
    """Finds lgpio as the import system would, with a loader that changes the working
    directory back once lgpio's import (which moves it to ``LG_WD``) is done. lgpio
    opens its pipe during the import and by its absolute path afterwards, so it loses
    nothing."""

    def find_spec(self, name, path, target=None):
        if name != "lgpio":
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is not None and spec.loader is not None:
            spec.loader = _Restoring(spec.loader)
        return spec


class _Restoring(importlib.abc.Loader):
    def __init__(self, loader: importlib.abc.Loader) -> None:
        self._loader = loader

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module) -> None:
        try:
            where = os.getcwd()
        except OSError:
            where = None  # a working directory since removed: nowhere to go back to
        try:
            self._loader.exec_module(module)
        finally:
            if where is not None:
                with suppress(OSError):
                    os.chdir(where)
