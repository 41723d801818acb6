"""Kulami's compiled core: the random playout and the search's whole tree (selection,
expansion with the policy's priors, playout, the count back up) in C (``_core.c``); the
pure-Python board, :mod:`engines.search` and :mod:`.policy` kept as the reference and the
fallback.

Why: a search at the strongest level spent its time in the playouts (half), the scoring
at their ends, and the tree's own Python (the selection's arithmetic, push and pop, the
priors of each new node); on masks of a hundred bits each of those is a few machine
instructions. Why C through CPython's own API: as for Blokus Duo
(``engines/blokus_duo/compiled.py``), no build dependency beyond a C compiler and
Python's headers, built by the same ``pip install -e .``. Each layout's lines and panels
come from :mod:`.bits` once (:func:`shape`), so the rules stay written in Python.

The same seed plays the same moves in both: the C playout draws ``rng.random()`` once a
marble as :meth:`.board.KulamiBoard.playout` does, and the tree shuffles a new node's
moves with ``rng.getrandbits`` as ``random.Random.shuffle`` does, in the same order of
walks (only for ``random.Random`` itself, whose methods are known).

Where the extension was not built (no compiler), this says so once in the log and the
engine plays in Python. ``TABLETOP_ENGINE=python`` in the environment, or :func:`use`,
picks the Python path on purpose (the benchmark's and the tests' switch).
"""

from __future__ import annotations

import random

from engines import native
from engines.kulami.bits import Geometry

_WORD = (1 << 64) - 1

_core = native.load("engines.kulami._core", "Kulami")

_switch = native.Switch(_core)
available, enabled, use = _switch.available, _switch.enabled, _switch.use
draws_alike = native.draws_alike


def _words(mask: int) -> tuple[int, int]:
    return mask & _WORD, mask >> 64


#: Each geometry's shape in the core, made on first use (geometries live for ever).
_SHAPES: dict[Geometry, object] = {}


def shape(geometry: Geometry):
    """The core's copy of ``geometry``'s fields, lines and panels."""
    if geometry not in _SHAPES:
        _SHAPES[geometry] = _core.shape(
            geometry.stride, _words(geometry.fields),
            tuple(_words(mask) for mask in geometry.line),
            tuple(_words(mask) for mask in geometry.panel),
            tuple((_words(mask), size) for _, mask, size in geometry.panels))
    return _SHAPES[geometry]


def position(geometry: Geometry, own_b: int, own_w: int, placed: list[int]) -> tuple:
    """A position as the core takes it: the shape, both players' masks as words, the
    marbles placed, and the bits of the last two (-1 for none)."""
    last = placed[-1] if placed else -1
    before = placed[-2] if len(placed) > 1 else -1
    return (shape(geometry), *_words(own_b), *_words(own_w), len(placed), last, before)


def playout(at: tuple, scoring: int, chain_lines: str, rng: random.Random,
            trace: list | None = None) -> str | None:
    """:meth:`.board.KulamiBoard.playout` from the position ``at`` (:func:`position`):
    the winner, ``None`` for a draw; with ``trace``, the same ``(legal, bit)`` pairs."""
    steps = [] if trace is not None else None
    halves = _core.playout(*at, scoring,
                           chain_lines == "diagonal", rng, steps)
    if trace is not None:
        trace.extend((lo | hi << 64, bit) for lo, hi, bit in steps)
    return "b" if halves == 2 else "w" if halves == 0 else None


class Tree:
    """:class:`engines.search.Tree` for a Kulami board, grown in C walk for walk as the
    Python one grows with :class:`.policy.KulamiPolicy`: the same methods."""

    def __init__(self, board, exploration: float, prior_weight: float,
                 largest_swing: int, rng: random.Random) -> None:
        self._move_on = board.move_on
        self._tree = _core.tree(
            *board.core_position(), board.scoring, board.chain_lines == "diagonal", exploration, prior_weight,
            float(largest_swing), rng)

    def _as_move(self, bit: int | None):
        return None if bit is None else self._move_on(bit)

    def only_move(self):
        return self._as_move(_core.only_move(self._tree))

    def walk(self, count: int) -> None:
        _core.walk(self._tree, count)

    def best_move(self):
        return self._as_move(_core.best_move(self._tree))

    def counts(self) -> list[tuple]:
        """The root's children's moves, visits and wins for the player to move, in the
        order grown: :meth:`engines.search.Tree.counts`' (how sure a hint is)."""
        return [(self._move_on(bit), visits, wins)
                for bit, visits, wins in _core.counts(self._tree)]
