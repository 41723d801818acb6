"""Akron's compiled core: the legal moves (the drop included), the connection distance
and the win, the random playout, the search's expansion of a node and its whole tree,
in C (``_core.c``); the pure-Python code of :mod:`.rules`, :mod:`.distance`,
:mod:`.playout`, :mod:`.policy` and :mod:`engines.search` kept as the reference and the
fallback.

Why: a search at the strongest level spent its time listing the moves of each new node
(a visible grouping and every ball's destinations), ranking them by both players'
shortest paths and valuing each leaf by both distances, all loops over Python's big
integers; with those in C, walking the tree in Python (selection, the board's pushes
and pops, the backups) cost more than all of them, so the tree is grown in C too. Why C through CPython's own API: as for Blokus Duo
(``engines/blokus_duo/compiled.py``), no build dependency beyond a C compiler and
Python's headers, built by the same ``pip install -e .``. The pyramid's shape comes
from :mod:`.geometry` at import, so it stays written once, in Python.

The same position gives the same moves in the same order, the same distances and
shortest paths, and the same seed the same draws and the same tree: the C calls the caller's
``random.Random``'s ``getrandbits`` as ``choice`` and ``shuffle`` do (only for
``random.Random`` itself, whose ``choice`` and ``shuffle`` are known).

Where the extension was not built (no compiler), this says so once in the log and the
engine plays in Python. ``TABLETOP_ENGINE=python`` in the environment, or :func:`use`,
picks the Python path on purpose (the benchmark's and the tests' switch).
"""

from __future__ import annotations

import random
from collections.abc import Hashable

from engines import native
from engines.akron.geometry import (ABOVE, BELOW, EDGES, HOLE_MASK, HOLES, PLAYER_SIDES,
                                    POINTS, SIDES, TOUCHING_AT, UNDER)
from engines.core import PASS


_core = native.load("engines.akron._core", "Akron")

_switch = native.Switch(_core)
available, enabled, use = _switch.available, _switch.enabled, _switch.use
draws_alike = native.draws_alike
_PLAYERS = {"b": 0, "w": 1}


def setup(placement: type, movement: type) -> None:
    """Hands the pyramid's shape and the board's move classes to the core (the board
    module calls this once its classes exist)."""
    if _core is None:
        return
    _core.setup(
        tuple((level, x, y, BELOW[p], ABOVE[p], UNDER[p], SIDES[p], TOUCHING_AT[p])
              for p, (level, x, y) in enumerate(POINTS)),
        HOLE_MASK,
        tuple((EDGES[first], EDGES[second])
              for first, second in (PLAYER_SIDES["b"], PLAYER_SIDES["w"])),
        tuple(placement(hole) for hole in range(len(HOLES))), movement, PASS)


def legal_moves(b: int, w: int, supply: int, player: str) -> list[Hashable]:
    """``player``'s legal moves but the pass, in :meth:`AkronBoard.generate_legal_moves`'
    order."""
    return _core.legal_moves(b, w, supply, _PLAYERS[player])


def expansion(b: int, w: int, supply: int, player: str,
              rng: random.Random) -> list[tuple[Hashable, float]]:
    """:meth:`AkronPolicy.expansion` for the player to move: the moves with their
    priors, shuffled and sorted alike (empty where the only move is the pass)."""
    return _core.expansion(b, w, supply, _PLAYERS[player], rng)


def play_out(b: int, w: int, supply: dict[str, int], turn: str, passes: int,
             rng: random.Random, limit: int, trace: list | None) -> str | None:
    """:func:`.playout.play_out` from these masks: the winner, ``None`` a draw."""
    winner = _core.play_out(b, w, supply["b"], supply["w"], _PLAYERS[turn], passes, rng,
                            limit, trace)
    return None if winner is None else "bw"[winner]


def tree(b: int, w: int, supply: dict[str, int], turn: str, passes: int,
         numbers: tuple, rng: random.Random):
    """The search's tree for this position grown in the core (``search.Tree``'s
    methods), with the policy's ``numbers``:
    exploration, prior_weight, widening, prior_visits, prior_value, minimax_weight,
    steepness, no_path."""
    return _core.Tree(b, w, supply["b"], supply["w"], _PLAYERS[turn], passes, numbers, rng)


def joins(b: int, w: int, player: str) -> bool:
    """:meth:`.distance.Layout.joins`: whether ``player``'s visible chain joins their
    sides (the win)."""
    return _core.joins(b, w, _PLAYERS[player])


def distances(b: int, w: int) -> tuple[int, int]:
    """:meth:`.distance.Layout.distance` of ``b`` and of ``w``."""
    return _core.distances(b, w)


def shortest(b: int, w: int, player: str) -> tuple[int, int]:
    """:meth:`.distance.Layout.shortest`: the distance and the points on the shortest
    paths, in the grid layout."""
    return _core.shortest(b, w, _PLAYERS[player])


__all__ = ["available", "distances", "draws_alike", "enabled", "expansion", "joins",
           "legal_moves", "play_out", "setup", "shortest", "tree", "use"]
