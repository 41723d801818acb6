"""Blokus Duo's playouts for the search: the board's masks copied into locals, legal
placements listed as bare masks (never :class:`Placement` values), the implicit passes
and the score as ``board.py`` has them.

Three ways to pick a placement: uniformly among all legal ones (``largest_first=False``,
the random playout the benchmark counts); at random among those of the largest pieces
the player can still place (the usual Blokus heuristic: small pieces fit anywhere
later, large ones do not), looking at pieces and attachment points in random order and
stopping at the first that fits; or ``guided``, the search's: drawn among all legal
placements with weights of the kinds Pentobi's playouts use (:func:`_guided`), by far
most for covering squares where the opponent's latest piece lets them grow (as players
answer a threat), then for large pieces and pieces with many corners.
"""

from __future__ import annotations

import random
from bisect import bisect_right

from engines.blokus_duo import compiled
from engines.blokus_duo.pieces import COVERING, PIECES, PLACEMENTS, corners, edges

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
#: Placement numbers (as the compiled core numbers them) by mask.
NUMBER = {placement.mask: n for n, placement in enumerate(PLACEMENTS)}

#: The guided playout's weights (:func:`_guided`), the kinds and sizes Pentobi's
#: published source gives its Blokus Duo playouts: a placement's weight is
#: ``PIECE_WEIGHT[piece] * LOCAL_WEIGHT[local squares it covers]``. Per piece, a factor
#: per square and one per attachment point its shape has beyond the first...
SIZE_FACTOR, CORNER_FACTOR = 3.0, 1.8
#: ... and a far larger one per local square (one the opponent's latest piece opened,
#: or an open square beside one), counted twice where it is also an attachment point
#: of the player: answering the opponent's latest piece comes first.
LOCAL_MOST = 10
LOCAL_WEIGHT = (1.0, 1e6, 1e12, 1e18, 1e24) + (1e25,) * (LOCAL_MOST - 4)
#: By the pieces on the board (both players'): the smallest piece drawn while any larger
#: one fits (the first moves place pentominoes, then fours, then threes).
LEAST_SIZE = tuple(5 if n < 4 else 4 if n < 6 else 3 if n < 10 else 1
                   for n in range(2 * len(PIECES) + 1))
#: Per piece: the most attachment points a placement of it has (at their corners).
PIECE_CORNERS = tuple(max(corners(p.mask).bit_count() for p in PLACEMENTS
                          if p.piece == piece.name) for piece in PIECES)
PIECE_WEIGHT = tuple(SIZE_FACTOR ** piece.size * CORNER_FACTOR ** (PIECE_CORNERS[n] - 1)
                     for n, piece in enumerate(PIECES))
if compiled.available():
    compiled.weigh_playouts(PIECE_WEIGHT, LOCAL_WEIGHT, LEAST_SIZE)


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


def _guided(left: int, forbidden: int, attach: int, local: int, on_board: int,
            rng: random.Random) -> tuple[int, int] | None:
    """A placement drawn among all the legal ones with weight ``PIECE_WEIGHT[piece] *
    LOCAL_WEIGHT[local squares covered]`` (those that are also the player's attachment
    points counted twice), in placement-number order (the compiled core keeps its lists
    in that order); pieces smaller than ``LEAST_SIZE[on_board]`` are left out while any
    other fits."""
    found = sorted((NUMBER[mask], mask, number) for mask, number in placements(
        [n for n in range(len(PIECES)) if left >> n & 1], forbidden, attach))
    local_attach = local & attach
    least = LEAST_SIZE[on_board]
    while True:
        total, sums, drawn = 0.0, [], []
        for _, mask, number in found:
            if SIZE[number] < least:
                continue
            near = (mask & local).bit_count() + (mask & local_attach).bit_count()
            total += PIECE_WEIGHT[number] * LOCAL_WEIGHT[min(near, LOCAL_MOST)]
            sums.append(total)
            drawn.append((mask, number))
        if drawn:
            return drawn[min(bisect_right(sums, rng.random() * total), len(drawn) - 1)]
        if least <= 1:
            return None
        least = 1


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
            on_board = 2 * len(PIECES) - left[0].bit_count() - left[1].bit_count()
            chosen = _guided(left[mover], forbidden[mover], attach[mover],
                             threat | (edges(threat) & ~forbidden[mover ^ 1]), on_board, rng)
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
