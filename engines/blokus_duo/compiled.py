"""Blokus Duo's compiled core (``_playout.c``): the board's legal-move listing, the random
playouts (uniform, and guided, the search's) of :mod:`.playout`, a new node's moves
ranked by the priors of :mod:`.policy`, and the search's whole tree
(:class:`engines.search.Tree`'s walk) in C; the pure-Python code kept as the reference
and the fallback.

Why C through CPython's own API, built by setuptools as an optional extension
(``setup.py``): it needs no build dependency beyond a C compiler and
Python's headers (``gcc`` and ``python3-dev`` on Debian and Raspberry Pi OS), nothing to
fetch from a registry at install time (Cython and PyO3 need a package or a Rust
toolchain, mypyc compiles whole modules and keeps Python's big integers), and it is
built by the same ``pip install -e .`` that ``make test`` and ``systemd/install.sh`` run.
The masks, edges and corners of every placement come from ``pieces.py`` at import, so
the rules stay written once, in Python.

The same seed plays the same game in both: the C playout lists the legal placements in
:func:`.playout.placements`'s order and draws from the caller's ``random.Random``
through its ``random()`` method, one draw a placement, as the Python one does; a new
node's moves are shuffled through its ``getrandbits`` as ``random.Random.shuffle``
does, and scored in whole units as :func:`.policy.move_units` scores them; the tree
walks as :func:`engines.search._walk` does, with the same arithmetic. So a seed chooses
the same move on either path (``tests/test_blokus_duo_compiled.py``).

Where the extension was not built (no compiler), this says so once in the log and the
engine plays in Python. ``TABLETOP_ENGINE=python`` in the environment, or :func:`use`,
picks the Python path on purpose (the benchmark's and the tests' switch).
"""

from __future__ import annotations

import random

from engines import native
from engines.core import PLAYERS
from engines.blokus_duo.pieces import (BOARD, COVERING, PIECE_INDEX, PIECES, PLACEMENTS,
                                       STRIDE, Placement, corners, edges)

_WORD = (1 << 64) - 1

_playout = native.load("engines.blokus_duo._playout", "Blokus Duo")


def _words(mask: int) -> tuple[int, int, int, int]:
    return mask & _WORD, mask >> 64 & _WORD, mask >> 128 & _WORD, mask >> 192 & _WORD


def _mask(words: tuple[int, int, int, int]) -> int:
    return words[0] | words[1] << 64 | words[2] << 128 | words[3] << 192


#: Placement numbers as the C core knows them.
_NUMBER = {placement.mask: n for n, placement in enumerate(PLACEMENTS)}

if _playout is not None:
    _playout.setup(
        tuple((_words(p.mask), _words(edges(p.mask)), _words(corners(p.mask)),
               PIECE_INDEX[p.piece]) for p in PLACEMENTS),
        tuple(tuple(tuple(_NUMBER[mask] for mask, _ in pairs) for pairs in COVERING[square])
              if square in COVERING else ()
              for square in range(max(COVERING) + 1)),
        tuple(piece.size for piece in PIECES), PIECE_INDEX["1"], 15, 5, _words(BOARD), STRIDE,
        tuple(PLACEMENTS))

_switch = native.Switch(_playout)
available, enabled, use = _switch.available, _switch.enabled, _switch.use
draws_alike = native.draws_alike


def placements(left: int, forbidden: int, attach: int) -> list[Placement]:
    """The legal placements of the pieces in ``left`` (a bit set) in the board's and
    :func:`.playout.placements`'s order: by attachment point, lowest first, then piece."""
    return _playout.legal_moves(left, _words(forbidden), _words(attach))


def can_place(left: int, forbidden: int, attach: int) -> bool:
    """Whether any of :func:`placements` is legal (it stops at the first)."""
    return _playout.can_place(left, _words(forbidden), _words(attach))


def weigh(size_units: tuple, weight_units: tuple, centre_units: tuple, unit: int) -> None:
    """Take the policy's weights (:mod:`.policy`, in whole units) for :func:`expansion`."""
    _playout.weigh(size_units, weight_units, centre_units, unit)


def weigh_playouts(piece_weights: tuple, local_weights: tuple, least_sizes: tuple) -> None:
    """Take the guided playout's weights (:mod:`.playout`)."""
    _playout.weigh_playouts(piece_weights, local_weights, least_sizes)


def expansion(context: tuple, rng: random.Random):
    """:meth:`.policy.BlokusDuoPolicy.expansion` from its ``prior_context``: the legal
    placements shuffled by ``rng`` as ``random.Random.shuffle`` does, scored as
    ``move_units`` does, sorted by score (ties in the shuffled order) with their priors,
    as a sequence of ``(placement, prior)`` pairs that ``pop`` takes from the end (kept
    in C, a pair made only when asked for: a node grows few of its hundreds of moves)."""
    left, forbidden, attach, zone, recent, early = context
    return _playout.expand(left, _words(forbidden), _words(attach), _words(zone),
                           _words(recent), early, rng)


def play_out(state: dict, mover: int, rng: random.Random, trace: list | None = None,
             guided: bool = False) -> tuple[int, int]:
    """:func:`.playout.play_out`, uniform or ``guided`` (with ``largest_first``), the two
    scores; the state is read, not changed."""
    recent = state.get("recent") or [0, 0]
    steps = [] if trace is not None else None
    scores = _playout.play_out(
        tuple(_words(m) for m in state["own"]), tuple(_words(m) for m in state["forbidden"]),
        tuple(_words(m) for m in state["attach"]), tuple(state["left"]),
        tuple(-1 if last is None else last for last in state["last"]),
        tuple(_words(m) for m in recent), mover, rng, steps, guided)
    if trace is not None:
        trace.extend((player, _mask(words)) for player, words in steps)
    return scores


def tree(board, settings: tuple, rng: random.Random):
    """The search's tree for ``board`` grown in C (:class:`engines.search.Tree`'s methods),
    walk for walk as the Python tree, the root expanded. ``settings``: the search's
    exploration constant and the policy's ``prior_weight``, ``widening``,
    ``prior_visits``, ``prior_value``, ``margin_weight`` and ``CENTRE_MOVES``
    (:meth:`.policy.BlokusDuoPolicy.native_tree`)."""
    def latest(back: int) -> tuple[int, int]:
        stack = board.move_stack
        if len(stack) < back:
            return -1, -1
        return PLAYERS.index(board.mover(-back)), _NUMBER[stack[-back].mask]

    masks = [board.masks(player) for player in PLAYERS]
    last = [board.last_placed(player) for player in PLAYERS]
    position = (tuple(_words(own) for own, _, _, _ in masks),
                tuple(_words(forbidden) for _, forbidden, _, _ in masks),
                tuple(_words(attach) for _, _, attach, _ in masks),
                tuple(left for _, _, _, left in masks),
                tuple(-1 if number is None else number for number in last),
                PLAYERS.index(board.turn), (latest(1), latest(2)))
    return _playout.Tree(position, settings, rng)
