"""ConHex's compiled core: the fill playout (:mod:`.fill`), the priors' shortest chains
and the search's whole tree (selection, expansion with the policy's priors, the gems'
claims and the win, playout, the count back up) in C (``_core.c``); the pure-Python
board, :mod:`engines.search` and :mod:`.policy` kept as the reference and the fallback.

Why: a search at the strongest level spent its time in the tree's own Python (the
selection's arithmetic over dozens of children, push and pop with their claims), the
priors of each new node (four shortest-path searches over the cells) and the playouts;
over 69 holes and 41 cells, a set of cells in one machine word, each is a few loops in
C. Why C through CPython's own API: as for Blokus Duo (``engines/blokus_duo/compiled.py``),
no build dependency beyond a C compiler and Python's headers, built by the same
``pip install -e .``. The cells, thresholds, neighbours and sides come from
:mod:`.geometry` at import, so the rules stay written in Python.

The same seed plays the same moves in both: the C playout draws ``rng.random()`` once a
hole as :meth:`.board.ConHexBoard.playout` does, and the tree shuffles a new node's moves
with ``rng.getrandbits`` as ``random.Random.shuffle`` does, in the same order of walks
(only for ``random.Random`` itself, whose methods are known). The pie rule's swap is the
core's move number ``len(HOLES)``, after the holes, as it comes after them in Python.

Where the extension was not built (no compiler), this says so once in the log and the
engine plays in Python. ``TABLETOP_ENGINE=python`` in the environment, or :func:`use`,
picks the Python path on purpose (the benchmark's and the tests' switch).
"""

from __future__ import annotations

import random

from engines import native
from engines.conhex.geometry import CELLS, CELLS_OF_HOLE, NEIGHBOURS, PLAYER_SIDES, SIDES


_core = native.load("engines.conhex._core", "ConHex")

if _core is not None:
    _core.setup(CELLS_OF_HOLE, tuple(cell.threshold for cell in CELLS), NEIGHBOURS,
                tuple(tuple(sorted(SIDES[side])) for player in ("b", "w")
                      for side in PLAYER_SIDES[player]))

_switch = native.Switch(_core)
available, enabled, use = _switch.available, _switch.enabled, _switch.use
draws_alike = native.draws_alike
#: A gem's or an owner's colour as the core numbers it (0 for none).
_CODE = {None: 0, "b": 1, "w": 2}
_WINNER = {None: -1, "b": 0, "w": 1}


def position(gems: list, counts_b: list[int], counts_w: list[int], owners: list,
             ply: int, handicap: int, pie: bool, winner: str | None) -> tuple:
    """A position as the core takes it: gems by hole and owners by cell as 0, 1 (b) or
    2 (w), each player's gems by cell, the moves made, the handicap, the pie rule, the
    winner (-1 for none)."""
    return (tuple(_CODE[gem] for gem in gems), tuple(counts_b), tuple(counts_w),
            tuple(_CODE[owner] for owner in owners), ply, handicap, pie, _WINNER[winner])


def playout(at: tuple, rng: random.Random, trace: list | None = None) -> str:
    """:meth:`.board.ConHexBoard.playout` from the position ``at`` (:func:`position`):
    the winner; with ``trace``, the holes in the order filled."""
    return "bw"[_core.playout(*at, rng, trace)]


class Tree:
    """:class:`engines.search.Tree` for a ConHex board, grown in C walk for walk as the
    Python one grows with :class:`.policy.ConHexPolicy`: the same methods."""

    def __init__(self, board, exploration: float, prior_weight: float,
                 rng: random.Random) -> None:
        self._move_on = board.move_on
        self._tree = _core.tree(*board.core_position(), exploration, prior_weight, rng)

    def _as_move(self, hole: int | None):
        return None if hole is None else self._move_on(hole)

    def only_move(self):
        return self._as_move(_core.only_move(self._tree))

    def walk(self, count: int) -> None:
        _core.walk(self._tree, count)

    def best_move(self):
        return self._as_move(_core.best_move(self._tree))

    def counts(self) -> list[tuple]:
        """The root's children's moves, visits and wins for the player to move, in the
        order grown: :meth:`engines.search.Tree.counts`' (how sure a hint is)."""
        return [(self._move_on(hole), visits, wins)
                for hole, visits, wins in _core.counts(self._tree)]
