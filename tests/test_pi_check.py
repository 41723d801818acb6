"""pi-check's compiled-core check, run here rather than in the arm64 root: the script it
runs in the root finds every game whose engine package has a ``compiled`` module (from
the registry, no list of its own), and the verdict fails a core that did not build or
that the search does not use, game by game."""

import importlib
import importlib.machinery
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

from app.games import GAMES
from scripts.pi_check import COMPILED_CORES, core_verdict

#: Short searches: the check's figures are not what these tests read.
SECONDS = "0.2"


def packages_with_a_core() -> dict[str, str]:
    """Each game whose engine package has a ``compiled`` module, by name: its package."""
    found = {}
    for name, info in GAMES.items():
        package = info.board.partition(":")[0].rpartition(".")[0]
        if importlib.util.find_spec(f"{package}.compiled") is not None:
            found[name] = package
    return found


def extensions(package: str) -> list[str]:
    """The compiled extension modules built in ``package`` (``engines.x._core``)."""
    folder = Path(importlib.import_module(package).__path__[0])
    return [f"{package}.{path.name.partition('.')[0]}" for path in folder.glob("_*")
            if path.name.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))]


def run_cores(prelude: str = "", **environment: str) -> list[dict]:
    """COMPILED_CORES as pi-check runs it, after ``prelude``: its line for each game."""
    done = subprocess.run([sys.executable, "-c", prelude + COMPILED_CORES, SECONDS],
                          capture_output=True, text=True, timeout=600,
                          env={**os.environ, **environment})
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_every_game_with_a_compiled_module_is_checked_and_passes_where_its_core_is_used():
    expected = packages_with_a_core()
    assert expected, "no game has a compiled module: the check would check nothing"
    lines = run_cores()
    assert [line["game"] for line in lines] == list(expected)
    for line in lines:
        name, ok, detail = core_verdict(line)
        assert name == f"compiled core {line['game']}"
        assert ok, detail
        assert line["tree"].startswith(f"{expected[line['game']]}.")
        assert line["walks"] > 0 and line["legal"]


def test_a_core_that_is_built_but_not_used_fails():
    """TABLETOP_ENGINE=python plays in Python with every core built: the search's tree
    is the shared Python one, which the check must not pass."""
    for line in run_cores(TABLETOP_ENGINE="python"):
        name, ok, detail = core_verdict(line)
        assert line["built"] and not line["enabled"] and line["tree"] is None
        assert not ok
        assert "grew its tree in engines.search (Python)" in detail


def test_a_compiled_module_whose_core_did_not_build_fails_for_its_game_alone():
    """The first game's extension cannot be imported (as where no compiler built it):
    its compiled module says it is not available, and only its check fails."""
    first, package = next(iter(packages_with_a_core().items()))
    missing = extensions(package)
    assert missing, f"{package} has no built extension here"
    prelude = "import sys\n" + "".join(f"sys.modules[{name!r}] = None\n" for name in missing)
    for line in run_cores(prelude):
        name, ok, detail = core_verdict(line)
        if line["game"] == first:
            assert not ok
            assert detail.startswith(f"{package}.compiled exists but install.sh built no "
                                     f"core (available() is False")
        else:
            assert ok, detail


def test_a_game_whose_check_breaks_fails_with_its_error():
    assert core_verdict({"game": "g", "package": "engines.g", "error": "ValueError: x"}) \
        == ("compiled core g", False, "ValueError: x")
