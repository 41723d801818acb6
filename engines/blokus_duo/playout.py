"""Blokus Duo's playouts for the search: the board's masks copied into locals, legal
placements listed as bare masks (never :class:`Placement` values), the implicit passes
and the score as ``board.py`` has them.

Three ways to pick a placement: uniformly among all legal ones (``largest_first=False``,
the random playout the benchmark counts); at random among those of the largest pieces
the player can still place (the usual Blokus heuristic: small pieces fit anywhere
later, large ones do not), looking at pieces and attachment points in random order and
stopping at the first that fits, which makes it several times faster; or ``guided``, the
search's: among the largest pieces that fit, first one in contact, covering a square
where the opponent's latest piece lets them grow (one of the corners it opened, or an
open square beside one), as players answer a threat, else any of them.
"""

from __future__ import annotations

import random

from engines.blokus_duo import compiled
from engines.blokus_duo.pieces import BOARD, COVERING, PIECES, STRIDE, corners, edges

#: ``COVERING`` as bare masks: ``MASKS[square][piece]`` the placements of that piece
#: covering that square.
MASKS = {index: tuple(tuple(mask for mask, _ in pairs) for pairs in by_piece)
         for index, by_piece in COVERING.items()}
#: Piece numbers by size, largest first: ``SIZES[k]`` the pieces of the k-th size down.
SIZES = tuple(tuple(n for n, piece in enumerate(PIECES) if piece.size == size)
              for size in sorted({piece.size for piece in PIECES}, reverse=True))
SIZE = tuple(piece.size for piece in PIECES)
MONOMINO = next(n for n, piece in enumerate(PIECES) if piece.size == 1)
ALL_PLACED_BONUS, MONOMINO_LAST_BONUS = 15, 5


def placements(pieces, forbidden: int, attach: int) -> list[tuple[int, int]]:
    """The legal placements of ``pieces`` (numbers) as ``(mask, piece)``, each once:
    at the lowest attachment point it covers."""
    found, points = [], attach
    while points:
        low = points & -points
        points ^= low
        blocked = forbidden | (low - 1) & attach
        by_piece = MASKS[low.bit_length() - 1]
        for number in pieces:
            found += [(mask, number) for mask in by_piece[number] if not mask & blocked]
    return found


def choose(left: int, forbidden: int, attach: int, rng: random.Random,
           largest_first: bool) -> tuple[int, int] | None:
    """A placement for a player with pieces ``left`` (a bit set), or ``None``."""
    if largest_first:
        return _largest(left, forbidden, attach, rng)
    found = placements([n for n in range(len(PIECES)) if left >> n & 1], forbidden, attach)
    return found[int(rng.random() * len(found))] if found else None


def _largest(left: int, forbidden: int, attach: int,
             rng: random.Random) -> tuple[int, int] | None:
    """A placement of one of the largest pieces that fit: the pieces of each size and
    the attachment points in random order, the first that fits placed at random."""
    points = []
    while attach:
        low = attach & -attach
        points.append(low.bit_length() - 1)
        attach ^= low
    rng.shuffle(points)
    for group in SIZES:
        pieces = [n for n in group if left >> n & 1]
        rng.shuffle(pieces)
        for number in pieces:
            for point in points:
                fits = [mask for mask in MASKS[point][number] if not mask & forbidden]
                if fits:
                    return fits[int(rng.random() * len(fits))], number
    return None


def _near(mask: int, steps: int) -> int:
    """The squares within ``steps`` king's moves of ``mask``."""
    for _ in range(steps):
        mask |= (((mask << 1) | (mask >> 1) | (mask << STRIDE) | (mask >> STRIDE)
                  | (mask << (STRIDE + 1)) | (mask >> (STRIDE + 1))
                  | (mask << (STRIDE - 1)) | (mask >> (STRIDE - 1))) & BOARD)
    return mask


def _guided(left: int, forbidden: int, attach: int, contact: int,
            rng: random.Random) -> tuple[int, int] | None:
    """Like :func:`_largest`, but within each size a placement covering ``contact``
    first, looked for from the attachment points close enough to reach it. The points
    and pieces are taken in turn from a random start (cheaper than shuffling)."""
    contact &= ~forbidden
    points, near = [], []
    reach = _near(contact, 4) if contact else 0
    while attach:
        low = attach & -attach
        points.append(low.bit_length() - 1)
        if low & reach:
            near.append(low.bit_length() - 1)
        attach ^= low
    random_ = rng.random
    start = int(random_() * len(points))
    points = points[start:] + points[:start]
    if near:
        start = int(random_() * len(near))
        near = near[start:] + near[:start]
    for group in SIZES:
        pieces = [n for n in group if left >> n & 1]
        if not pieces:
            continue
        start = int(random_() * len(pieces))
        pieces = pieces[start:] + pieces[:start]
        if near:
            for number in pieces:
                for point in near:
                    fits = [mask for mask in MASKS[point][number]
                            if not mask & forbidden and mask & contact]
                    if fits:
                        return fits[int(random_() * len(fits))], number
        for number in pieces:
            for point in points:
                fits = [mask for mask in MASKS[point][number] if not mask & forbidden]
                if fits:
                    return fits[int(random_() * len(fits))], number
    return None


def score(left: int, last: int | None) -> int:
    """The rule sheet's score for one player: minus the squares in hand, or the bonuses."""
    if left:
        return -sum(SIZE[n] for n in range(len(PIECES)) if left >> n & 1)
    return ALL_PLACED_BONUS + (MONOMINO_LAST_BONUS if last == MONOMINO else 0)


def play_out(state: dict, mover: int, rng: random.Random, largest_first: bool = False,
             trace: list | None = None, guided: bool = False) -> tuple[int, int]:
    """Play from ``state`` (lists by player 0 ``b``, 1 ``w``: ``own``, ``forbidden``,
    ``attach``, ``left``, ``last``, and for ``guided`` ``recent``, the attachment points
    each player's latest piece opened; changed in place) with ``mover`` to move, to the
    end; the two scores. With ``trace``, appends ``(player, mask)`` per placement.
    Uniform and guided playouts go through the compiled core when it is in use
    (:mod:`.compiled`: the same placements for the same seed, the state left as it is)."""
    if compiled.enabled() and (guided or not largest_first):
        return compiled.play_out(state, mover, rng, trace, guided)
    own, forbidden, attach = state["own"], state["forbidden"], state["attach"]
    left, last = state["left"], state["last"]
    recent = state.get("recent") or [0, 0]
    # A player who cannot place stays so: their squares open to them only ever shrink.
    done = [not left[0], not left[1]]
    while not (done[0] and done[1]):
        if done[mover]:
            chosen = None
        elif guided:
            threat = recent[mover ^ 1] & attach[mover ^ 1]
            chosen = _guided(left[mover], forbidden[mover], attach[mover],
                             threat | (edges(threat) & ~forbidden[mover ^ 1]), rng)
        else:
            chosen = choose(left[mover], forbidden[mover], attach[mover], rng,
                            largest_first)
        if chosen is None:
            done[mover] = True
            mover ^= 1
            continue
        mask, number = chosen
        if trace is not None:
            trace.append((mover, mask))
        rival = mover ^ 1
        first = not own[mover]
        own[mover] |= mask
        forbidden[mover] |= mask | edges(mask)
        attach[mover] = ((0 if first else attach[mover]) | corners(mask)) & ~forbidden[mover]
        forbidden[rival] |= mask
        attach[rival] &= ~mask
        left[mover] &= ~(1 << number)
        last[mover] = number
        recent[mover] = corners(mask)
        mover = rival
    return score(left[0], last[0]), score(left[1], last[1])
