"""Blokus Duo's search policy: which moves the search looks at first (priors) and how it
plays a position out (playouts).

Priors. A move is scored by what it does to both players' room, as a sum of weights in
log space (so the prior of a move is ``exp(score - best score)``, 1 for the best):

- its piece: the five-square pieces most (they only fit early), the monomino a little
  (it fits anywhere later and blocks a corner on its own), the twos and threes least;
- the squares it takes from the opponent: each square that is one of their attachment
  points, or beside one where they could still go, counts much (blocking);
- the attachment points it gives its player: each corner of the piece still open
  after the move, worth more the more open squares beside it (a corner hemmed in on
  three sides takes only a monomino);
- the room it spends: each open square along its edges becomes closed to its own player,
  an own attachment point there most of all, while an edge along a square already
  closed (the opponent's piece, or beside an own piece) costs nothing;
- contact: covering a corner the opponent's latest piece opened (measured, it adds
  nothing here beyond the blocking above and weighs 0; the playouts use it);
- the centre early: in each player's first moves, reaching towards the board's centre.

The weights are this project's, set by short matches of the priors alone (the best
scored move played at once) against Pentobi's level 1 (``bench/pentobi_match.py``); the
kinds of features are those Pentobi's published source names for its move priors (piece
size, attachment points gained and taken).

Playouts (:mod:`.playout`): each placement is drawn among all the legal ones, weighted as
Pentobi's published source weighs its Blokus Duo playouts: by far most for each square
it covers where the opponent's latest piece lets them grow (one of the corners it
opened, or an open square beside one; as players answer a threat), then by a factor
per square of its piece and one per corner of the piece's shape; in the first pieces
on the board only the large pieces. The result is the winner with a share for the
margin (:attr:`BlokusDuoPolicy.margin_weight`), so that a playout lost by one square
counts more than one lost by twenty. The margin counts against the search's own
playouts so far (in standard deviations from their mean margin), so it still tells
moves apart where every playout is won or lost by far (a fixed scale gave each of them
the whole share or none).

The search starts each new child as if visited :attr:`BlokusDuoPolicy.prior_visits`
times at a value growing with the square root of its prior, so it leaves the moves the
priors like best only on the evidence of its playouts; with hundreds of moves a
position, the tree also widens progressively in the order of the priors. The strongest
level makes :attr:`~BlokusDuoPolicy.max_playouts` playouts a move and stops at
:attr:`~BlokusDuoPolicy.most_seconds` whatever else shares the processor.

With the compiled core (:mod:`.compiled`) the priors, the playouts and the tree itself
run in C, the same moves for the same seed as here: ranking a node's moves
(:meth:`BlokusDuoPolicy.expansion`) and walking the tree in Python cost most of a
search once the playouts were in C.
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Hashable, Sequence

from engines.bits import indices
from engines.blokus_duo import compiled
from engines.blokus_duo.pieces import BOARD, PLACEMENTS, STRIDE, corners, edges
from engines.search import Policy

#: Per piece size: the log-weight of placing a piece of that size.
SIZE_WEIGHT = {1: 0.7, 2: 0.3, 3: 0.3, 4: 1.4, 5: 3.4}
#: Per square of the move that the opponent could use next (an attachment point of
#: theirs, or an open square beside one).
BLOCK_WEIGHT = 1.6
#: Per open corner the move leaves its player: a base and a weight per open square
#: beside it.
CORNER_BASE, CORNER_ROOM = -0.5, 0.4
#: Per open square along the move's edges that becomes closed to its player; an own
#: attachment point there costs more.
EDGE_OPEN, EDGE_ATTACH = -0.8, -1.6
#: Covering a corner the opponent's last piece opened (contact).
LOCAL_WEIGHT = 0.0
#: For a player's first :data:`CENTRE_MOVES` pieces: per step of distance from the
#: board's centre to the move's nearest square.
CENTRE_WEIGHT, CENTRE_MOVES = -0.35, 3

#: Per placement mask: its size, the open squares along its edges, those at its corners,
#: and the squares it closes to its own player (itself and along its edges) shifted one
#: step each way (for :func:`open_room` after the move without shifting per move).
SHAPE = {}
for _placement in PLACEMENTS:
    _mask = _placement.mask
    _closes = _mask | edges(_mask)
    SHAPE[_mask] = (_mask.bit_count(), edges(_mask) & ~_mask, corners(_mask),
                    _closes << 1, _closes >> 1, _closes << STRIDE, _closes >> STRIDE)
del _placement, _mask, _closes


def _distance_to_centre() -> dict[int, float]:
    """Per placement mask: the distance (in squares, Chebyshev) from the board's centre
    (between g7, h7, g8 and h8) to its nearest square."""
    out = {}
    for placement in PLACEMENTS:
        best, mask, index = 99.0, placement.mask, 0
        while mask:
            low = mask & -mask
            index = low.bit_length() - 1
            x, y = index % STRIDE, index // STRIDE
            best = min(best, max(abs(x - 6.5), abs(y - 6.5)) - 0.5)
            mask ^= low
        out[placement.mask] = best
    return out


CENTRE = _distance_to_centre()

#: Scores are added in twentieths, as whole numbers: the weights above are all whole
#: twentieths, so a score is exact, the same in Python and in the compiled core on any
#: processor (no rounding to tell apart moves that tie, whatever order adds them).
UNIT = 20
SIZE_UNITS = {size: round(weight * UNIT) for size, weight in SIZE_WEIGHT.items()}
WEIGHT_UNITS = {name: round(weight * UNIT) for name, weight in (
    ("block", BLOCK_WEIGHT), ("corner_base", CORNER_BASE), ("corner_room", CORNER_ROOM),
    ("edge_open", EDGE_OPEN), ("edge_attach", EDGE_ATTACH), ("local", LOCAL_WEIGHT),
    ("centre", CENTRE_WEIGHT))}
#: Per placement mask: the centre's part of its score in a player's first moves.
CENTRE_UNITS = {mask: WEIGHT_UNITS["centre"] * round(distance)
                for mask, distance in CENTRE.items()}
if compiled.available():
    compiled.weigh(tuple(SIZE_UNITS[size] for size in range(1, 6)),
                   tuple(WEIGHT_UNITS[name] for name in (
                       "block", "corner_base", "corner_room", "edge_open", "edge_attach",
                       "local")),
                   tuple(CENTRE_UNITS[placement.mask] for placement in PLACEMENTS), UNIT)


def open_room(points: int, open_squares: int) -> int:
    """How many open squares lie along the edges of ``points``, added up over the points:
    four shifts and four counts, the spare bit of each row keeping rows apart."""
    return ((points & (open_squares << 1)).bit_count()
            + (points & (open_squares >> 1)).bit_count()
            + (points & (open_squares << STRIDE)).bit_count()
            + (points & (open_squares >> STRIDE)).bit_count())


def move_features(board, move: Hashable) -> dict[str, float]:
    """What :func:`move_scores` weighs for one move of the player to move, by name,
    worked out plainly square by square (the reference the fast scoring is tested
    against): ``size``; ``blocked``, its squares where the opponent could go next;
    ``open_corners`` it leaves its player and their ``room`` (open squares beside
    them, added up); ``edge_open`` and ``edge_attach``, the open squares along its
    edges that it closes to its player, plain and attachment points; ``contact``, 1 if
    it covers a corner the opponent's latest piece opened; ``centre``, the distance
    from the centre to its nearest square (weighed in a player's first moves only)."""
    player = board.turn
    rival = "w" if player == "b" else "b"
    _, forbidden, attach, _ = board.masks(player)
    _, rival_forbidden, rival_attach, _ = board.masks(rival)
    mask = move.mask
    squares = set(indices(mask))

    def neighbours(index: int) -> list[int]:
        x, y = index % STRIDE, index // STRIDE
        return [nx + ny * STRIDE
                for nx, ny in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1))
                if 0 <= nx < STRIDE - 1 and 0 <= ny < STRIDE - 1]

    def diagonals(index: int) -> list[int]:
        x, y = index % STRIDE, index // STRIDE
        return [nx + ny * STRIDE for nx, ny in ((x - 1, y - 1), (x + 1, y - 1),
                                                (x - 1, y + 1), (x + 1, y + 1))
                if 0 <= nx < STRIDE - 1 and 0 <= ny < STRIDE - 1]

    def is_set(bits: int, index: int) -> bool:
        return bool(bits >> index & 1)

    edge = {n for square in squares for n in neighbours(square)} - squares
    corner = {d for square in squares for d in diagonals(square)} - squares - edge
    zone = {i for i in indices(BOARD) if is_set(rival_attach, i)
            or (not is_set(rival_forbidden, i)
                and any(is_set(rival_attach, n) for n in neighbours(i)))}
    closed = {i for i in indices(BOARD) if is_set(forbidden, i)} | squares | edge
    open_corners = {c for c in corner if c not in closed}
    recent = board.recent_corners(rival)
    return {
        "size": len(squares),
        "blocked": len(squares & zone),
        "open_corners": len(open_corners),
        "room": sum(1 for c in open_corners for n in neighbours(c) if n not in closed),
        "edge_open": sum(1 for e in edge
                         if not is_set(forbidden, e) and not is_set(attach, e)),
        "edge_attach": sum(1 for e in edge if is_set(attach, e)),
        "contact": 1 if any(is_set(recent, i) for i in squares) else 0,
        "centre": CENTRE[mask],
    }


def weighed(board, features: dict[str, float]) -> float:
    """The log-score :func:`move_scores` gives a move with ``features``."""
    score = (SIZE_WEIGHT[features["size"]] + BLOCK_WEIGHT * features["blocked"]
             + CORNER_BASE * features["open_corners"] + CORNER_ROOM * features["room"]
             + EDGE_OPEN * features["edge_open"] + EDGE_ATTACH * features["edge_attach"]
             + LOCAL_WEIGHT * features["contact"])
    if board.placed(board.turn) < CENTRE_MOVES:
        score += CENTRE_WEIGHT * features["centre"]
    return score



def move_scores(board, moves: Sequence[Hashable]) -> list[float]:
    """The log-score of each move of the player to move (see the module's text)."""
    return [units / UNIT for units in move_units(board, moves)]


def prior_context(board) -> tuple[int, int, int, int, int, bool]:
    """What the scoring of a position's moves reads besides each move: the mover's
    pieces in hand, forbidden squares and attachment points; where the opponent could
    go next (their attachment points and the open squares beside them: a piece there
    covers or crowds them); the corners their latest piece opened; and whether the
    mover is still in their first moves (the centre counts)."""
    player = board.turn
    rival = "w" if player == "b" else "b"
    _, forbidden, attach, left = board.masks(player)
    _, rival_forbidden, rival_attach, _ = board.masks(rival)
    zone = rival_attach | (edges(rival_attach) & ~rival_forbidden)
    return (left, forbidden, attach, zone, board.recent_corners(rival),
            board.placed(player) < CENTRE_MOVES)


def move_units(board, moves: Sequence[Hashable]) -> list[int]:
    """The log-score of each move of the player to move in :data:`UNIT` parts, whole
    numbers (the compiled core's ``expand`` adds the same ones)."""
    _, forbidden, attach, zone, recent, early = prior_context(board)
    free = BOARD & ~forbidden
    # The open squares seen one step away, each way: ``free << 1`` marks a square whose
    # neighbour to its left (``x - 1``) is open; the spare bit of each row is never open.
    left_open, right_open = free << 1, free >> 1
    below_open, above_open = free << STRIDE, free >> STRIDE
    shapes, centre, sizes = SHAPE, CENTRE_UNITS, SIZE_UNITS
    block, corner_base, corner_room = WEIGHT_UNITS["block"], WEIGHT_UNITS["corner_base"], \
        WEIGHT_UNITS["corner_room"]
    edge_open, edge_attach = WEIGHT_UNITS["edge_open"], WEIGHT_UNITS["edge_attach"]
    local = WEIGHT_UNITS["local"]
    taken = ~forbidden & ~attach
    out = []
    for move in moves:
        mask = move.mask
        size, edge, corner, to_left, to_right, up, down = shapes[mask]
        # The corners still open after the move; those already closed are no gain.
        open_corners = corner & free & ~edge
        room = ((open_corners & left_open & ~to_left).bit_count()
                + (open_corners & right_open & ~to_right).bit_count()
                + (open_corners & below_open & ~up).bit_count()
                + (open_corners & above_open & ~down).bit_count())
        units = (sizes[size]
                 + block * (mask & zone).bit_count()
                 + corner_base * open_corners.bit_count()
                 + corner_room * room
                 + edge_open * (edge & taken).bit_count()
                 + edge_attach * (edge & attach).bit_count())
        if mask & recent:
            units += local
        if early:
            units += centre[mask]
        out.append(units)
    return out


class BlokusDuoPolicy(Policy):
    #: With the compiled core, about 0.3 s in the opening on the development machine
    #: alone, less later (a pure-Python engine makes far fewer within the cap below).
    max_playouts = 6000
    prior_weight = 1.0
    #: Measured against Pentobi's level 5 at 5,000 playouts a move, 40 games each:
    #: widening 1.0 about 30%, 2.0 44%, 4.0 16% (``bench/pentobi_match.py --policy``);
    #: twogtp's match at these settings then scored 29%, so 1.0 and 2.0 are within the
    #: noise of 40 games of each other, and 4.0 alone is clearly worse.
    widening = 2.0
    prior_visits = 3.0
    #: The strongest level answers within half a second on the development machine even
    #: when other work shares its processor; on a slower machine the cap grows with its
    #: pace (``engines.pace``), so that it makes the same playouts there.
    most_seconds = 0.45

    #: Playouts weighted towards answering the opponent's latest piece (``.playout``).
    #: Against Pentobi's level 5 (``bench/pentobi_match.py --direct``, six seeds of 40
    #: games, the same for both) they scored 133 of 240 (55% [49, 62]; 97 of 120 as
    #: first player, 36 as second) where the earlier playouts (one of the largest pieces
    #: that fit, in contact first) scored 100.5 (42% [36, 48]; 76 and 24.5) at this
    #: budget, and 113.5 against 96 at 3,000 playouts a move. They cost more in the
    #: opening (3,000 playouts in 0.56 s of processor on the first move, 0.26 s before;
    #: from about the tenth move on less), so the cap cuts the first moves to fewer
    #: playouts. Through twogtp: 20, 16.5 and 16.5 of 40 in three runs (44% [36, 53])
    #: where the earlier playouts scored 10.5 and 16.5 in two runs beside them.
    guided = True
    #: UCT's exploration constant, and the share of a playout's value that its margin
    #: gives (the rest is who won): twogtp's matches against Pentobi's level 5 scored
    #: 41% and 35% over 40 games at 0.3 and 0.4 (38% [28, 49] over the 80) where the
    #: shared 0.7 and 0.1 scored 29% [17, 44]; each alone 34% and 29%. Still within
    #: the noise, and still weak as second player (1 to 4.5 of 20).
    exploration = 0.3
    margin_weight = 0.4
    #: The margin's share counts a playout's margin against the search's margins so far
    #: (:class:`Margins`; each search its own, :meth:`for_search`), where it counted it
    #: on a fixed scale (10 squares for three quarters of the share). With the weighted
    #: playouts, at 3,000 playouts a move against Pentobi's level 5 (``--direct``, the
    #: same two seeds of 120 games): 133 of 240 (55%) against 105 (44%) on the fixed
    #: scale; with RAVE beside it (walks credited to moves made later) 54 of 120 where
    #: RAVE alone scored 65 and this alone 69, so RAVE is not kept.
    _margins: Margins | None = None

    def value(self, board, rng: random.Random) -> float:
        score_b, score_w = board.playout_scores(rng, largest_first=True, guided=self.guided)
        margin = score_b - score_w
        won = 1.0 if margin > 0 else 0.0 if margin < 0 else 0.5
        spread = (self._margins or Margins()).standardised(margin)
        return ((1.0 - self.margin_weight) * won
                + self.margin_weight * (0.5 + 0.5 * math.tanh(spread)))

    def for_search(self) -> BlokusDuoPolicy:
        fresh = copy.copy(self)
        fresh._margins = Margins()
        return fresh

    def priors(self, board, moves: Sequence[Hashable]) -> Sequence[float]:
        return priors_of(move_units(board, moves))

    def expansion(self, board, rng: random.Random) -> list[tuple[Hashable, float]]:
        """:meth:`Policy.expansion`, in the compiled core when it is in use: listing,
        shuffling, scoring and sorting a new node's hundreds of moves is most of a
        Python search's time (the same moves in the same order for the same seed)."""
        if compiled.enabled() and type(rng) is random.Random:
            return compiled.expansion(prior_context(board), rng)
        return super().expansion(board, rng)

    def native_tree(self, board, rng: random.Random):
        """The whole tree in the compiled core when it is in use (the same walks as the
        Python tree for the same seed): with the moves and the playouts in C, walking
        the tree in Python cost more than both. The core plays the guided playout only,
        and selects without minimax."""
        if (compiled.enabled() and type(rng) is random.Random and self.guided
                and not self.minimax_weight
                and type(self).value is BlokusDuoPolicy.value
                and type(self).expansion is BlokusDuoPolicy.expansion):
            return compiled.tree(board, (self.exploration, self.prior_weight, self.widening,
                                         self.prior_visits, self.prior_value,
                                         self.margin_weight, CENTRE_MOVES), rng)
        return None


class Margins:
    """The margins of one search's playouts so far: their count, mean and spread
    (Welford's running sums, as the compiled tree keeps them, in the same order)."""

    __slots__ = ("count", "mean", "spread")

    def __init__(self) -> None:
        self.count, self.mean, self.spread = 0.0, 0.0, 0.0

    def standardised(self, margin: int) -> float:
        """``margin`` counted in, then in standard deviations from the mean (0 while
        every margin so far is the same)."""
        self.count += 1
        off = margin - self.mean
        self.mean += off / self.count
        self.spread += off * (margin - self.mean)
        variance = self.spread / self.count
        return (margin - self.mean) / math.sqrt(variance) if variance > 0 else 0.0


def priors_of(units: Sequence[int]) -> list[float]:
    """The priors of moves of these scores (in :data:`UNIT` parts): 1 for the best."""
    best = max(units)
    return [math.exp((score - best) / UNIT) for score in units]


__all__ = ["BlokusDuoPolicy", "move_features", "move_scores", "move_units", "open_room",
           "prior_context", "priors_of", "weighed"]
