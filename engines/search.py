"""Monte Carlo tree search over the board protocol, shared by every game.

The search knows nothing of a game's rules beyond the board protocol (``legal_moves``,
``push``, ``pop``, ``turn``, ``outcome()``): what a game knows better lives in its
:class:`Policy`, registered on the board class as ``search_policy`` (each engine package
sets it in its ``__init__``, from its own ``policy.py``). A policy plays a position out
(by default the board's own fast ``playout(rng)``, or random moves through the public
API for a game without one) and may rank moves (``priors``) where random playouts alone
choose poorly.

The tree is UCT's: each node keeps its visits and the wins of the player who moved into
it; a walk picks the child with the best upper confidence bound plus a progressive bias
from the policy's prior that fades as the child is visited, expands one new child, plays
out from it, and counts the result all the way up. Where a position has more moves than
the budget could ever visit (Blokus Duo), progressive widening lets a node grow a new
child only every so often, in the order of the priors. A policy may also start each new
child as if already visited a few times (``prior_visits``) at a value that grows with
its prior, so that the search leaves the moves the policy likes best only on the
evidence of its playouts (Blokus Duo, where a good prior is worth more than a few
hundred noisy playouts, and Akron, whose evaluation alone moves little between
neighbouring positions); the other games start their children empty. A policy whose
value is an evaluation rather than a random game's result may also have each node keep
the minimax of the values found below it and mix it into the selection
(``minimax_weight``: Akron, where a refutation a few plies down should count at once
rather than after enough walks to outweigh the average); the other games select by the
average alone. Turns need not alternate: each node knows who moved into it.

A game's compiled core grows the whole tree in C (:meth:`Policy.native_tree`; all four
games' cores do), walk for walk as :class:`Tree` does, and counts the root's children as
it does; the Python tree stays the reference.

Budgets: ``playouts`` (the node budget: walks from the root, in steps of
:data:`CHECK_EVERY`, deterministic for a seeded ``rng``) and ``seconds`` (a clock, for a cap); at least one is given. ``progress`` is
called with the fraction done every so often; a caller that no longer wants the answer
raises from it, and the exception leaves the search.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable, Sequence

from engines.core import Board

#: UCT's exploration constant for results between 0 and 1.
EXPLORATION = 0.7
#: How many walks between two calls of ``progress`` (and clock readings).
CHECK_EVERY = 16


class Policy:
    """How the search plays a game out and which moves it looks at first.

    The default plays random moves to the end: by the board's ``playout(rng)`` when it
    has one, else through the public API. Subclasses in the engine packages override
    :meth:`value` (a better playout or an evaluation) and :meth:`priors`.
    """

    #: The playouts the strongest level makes a move: under two seconds of the
    #: development machine's time (``engines.players`` derives the levels from it). A
    #: game's policy sets its own; this modest default keeps a new game's strongest level
    #: within seconds until then.
    max_playouts = 250
    #: UCT's exploration constant for this game's search.
    exploration: float = EXPLORATION
    #: Weight of the prior in the selection, fading as ``prior_weight / (visits + 1)``.
    prior_weight = 0.0
    #: Progressive widening: a node with ``n`` visits has at most
    #: ``1 + widening * sqrt(n)`` children (``None``: every move before any revisit).
    widening: float | None = None
    #: A new child starts as if already visited this many times, at a value of
    #: :attr:`prior_value` times the square root of its prior (0: no such start), so
    #: the search leaves the moves the policy likes best only on evidence.
    prior_visits: float = 0.0
    #: The value (for the player who moved into it) a child of prior 1 starts at.
    prior_value: float = 0.5
    #: A game's own cap on the seconds of one search on the development machine, scaled
    #: by this machine's pace (``engines.pace``) and kept below ``engines.players``'
    #: ``MOST_SECONDS`` (``None``: that cap alone).
    most_seconds: float | None = None
    #: Implicit minimax backups: the share of a child's selection value that is the
    #: minimax of the values found below it (the rest is their average; 0: the
    #: average alone).
    minimax_weight: float = 0.0

    def for_search(self) -> "Policy":
        """The policy one search walks with: this one, or a fresh copy where the policy
        learns from the search's own playouts as it goes (Blokus Duo's margins)."""
        return self

    def value(self, board: Board, rng: random.Random) -> float:
        """The result for ``b`` of the position played out: 1 a win, 0 a loss, ½ a draw
        (or an estimate between)."""
        playout = getattr(board, "playout", None)
        winner = playout(rng) if playout is not None else _random_playout(board, rng)
        return result_for_b(winner)

    def priors(self, board: Board, moves: Sequence[Hashable]) -> Sequence[float] | None:
        """A score from 0 to 1 per move of the player to move, or ``None`` for none."""
        return None

    def native_tree(self, board: Board, rng: random.Random) -> "Tree | None":
        """A tree grown by the game's compiled core for ``board`` (the search's own copy),
        or ``None`` for the Python :class:`Tree`. A core's tree walks as the Python one
        does, draw for draw from ``rng``, so a seed chooses the same move on either."""
        return None

    def expansion(self, board: Board, rng: random.Random) -> list[tuple[Hashable, float]]:
        """The legal moves of the position with their priors, in the order a node grows
        them, the next last: shuffled, then (when the policy has priors) sorted by prior,
        ties keeping the shuffled order. A game with a compiled core may do the same
        work there, draw for draw, where listing and ranking every move of every new
        node in Python costs most of a search (Blokus Duo), and may return any sequence
        of the same pairs that ``len``, ``pop()`` and indexing read."""
        moves = list(board.legal_moves)
        rng.shuffle(moves)
        priors = self.priors(board, moves) if moves else None
        pairs = list(zip(moves, priors if priors is not None else [0.0] * len(moves)))
        if priors is not None:
            pairs.sort(key=lambda pair: pair[1])  # stable: ties keep the shuffled order
        return pairs


def result_for_b(winner: str | None) -> float:
    return 1.0 if winner == "b" else 0.0 if winner == "w" else 0.5


def _random_playout(board: Board, rng: random.Random) -> str | None:
    """Random legal moves through the public API to the end, taken back afterwards."""
    pushed = 0
    while not board.is_game_over():
        board.push(rng.choice(list(board.legal_moves)))
        pushed += 1
    winner = board.outcome().winner
    for _ in range(pushed):
        board.pop()
    return winner


def policy_of(board: Board) -> Policy:
    """The policy the board's game registers, or the plain random one."""
    return getattr(type(board), "search_policy", None) or _DEFAULT


_DEFAULT = Policy()


class Node:
    """One position of the tree: reached by ``move``, played by ``mover``."""

    __slots__ = ("move", "mover", "visits", "wins", "children", "untried", "prior",
                 "minimax")

    def __init__(self, move: Hashable | None, mover: str | None, prior: float = 0.0):
        self.move, self.mover, self.prior = move, mover, prior
        self.visits, self.wins = 0, 0.0
        #: The minimax of the values below, for ``mover`` (with ``minimax_weight``).
        self.minimax = 0.5
        self.children: list[Node] = []
        #: Moves not expanded yet, with their priors, the next to expand last
        #: (:meth:`Policy.expansion`'s sequence).
        self.untried: Sequence[tuple[Hashable, float]] | None = None

    def expand_moves(self, board: Board, policy: Policy, rng: random.Random) -> None:
        self.untried = policy.expansion(board, rng)

    def may_grow(self, widening: float | None) -> bool:
        if not self.untried:
            return False
        return widening is None or len(self.children) < 1 + widening * math.sqrt(self.visits)

    def best_child(self, prior_weight: float, minimax_weight: float = 0.0,
                   exploration: float = EXPLORATION) -> "Node":
        log_visits = math.log(self.visits)
        average = 1.0 - minimax_weight
        best, best_score = None, -1.0
        for child in self.children:
            visits = child.visits
            score = (average * child.wins / visits + minimax_weight * child.minimax
                     + exploration * math.sqrt(log_visits / visits)
                     + prior_weight * child.prior / (visits + 1))
            if score > best_score:
                best, best_score = child, score
        return best


def search(board: Board, rng: random.Random, playouts: int | None = None,
           seconds: float | None = None,
           progress: Callable[[float], None] | None = None,
           stats: dict | None = None) -> Hashable | None:
    """The move the search finds best for the player to move (``None`` when the game is
    over): the root's most visited child after ``playouts`` walks or ``seconds``,
    whichever ends first. ``board`` is left as it was. A ``stats`` dict is given the
    ``walks`` made (fewer than ``playouts`` when the clock stopped the search first)
    and, after a search, the root's children as ``root``: ``(move, visits, wins)``,
    most visited first, so a hint can say how sure the search is."""
    if playouts is None and seconds is None:
        raise ValueError("the search needs a budget: playouts, seconds or both")
    if board.is_game_over():
        return None
    board = board.copy()
    policy = policy_of(board)
    tree = policy.native_tree(board, rng) or Tree(board, policy, rng)
    only = tree.only_move()
    if only is not None:
        if stats is not None:
            stats["walks"] = 0
        return only
    started, walks = time.perf_counter(), 0
    while True:
        done = _fraction(walks, playouts, time.perf_counter() - started, seconds)
        if done >= 1.0:
            break
        if progress is not None:
            progress(done)
        tree.walk(CHECK_EVERY)
        walks += CHECK_EVERY
    if stats is not None:
        stats["walks"] = walks
        # sorted is stable: ties keep the order grown
        stats["root"] = sorted(tree.counts(), key=lambda child: -child[1])
    return tree.best_move()


class Tree:
    """The search's tree over a board of its own (a copy): the root expanded at once,
    grown a walk at a time. A game's compiled core may grow the same tree in C
    (:meth:`Policy.native_tree`), with these four methods: :meth:`only_move`,
    :meth:`walk`, :meth:`best_move` and :meth:`counts`."""

    def __init__(self, board: Board, policy: Policy, rng: random.Random) -> None:
        self.board, self.policy, self.rng = board, policy.for_search(), rng
        self.root = Node(None, None)
        self.root.expand_moves(board, self.policy, rng)

    def only_move(self) -> Hashable | None:
        """The move when there is only one (then no walk is needed), else ``None``."""
        return self.root.untried[0][0] if len(self.root.untried) == 1 else None

    def walk(self, count: int) -> None:
        for _ in range(count):
            _walk(self.board, self.root, self.policy, self.rng)

    def best_move(self) -> Hashable:
        """The root's most visited child's move (the first of them on a tie)."""
        return max(self.root.children, key=lambda child: child.visits).move

    def counts(self) -> list[tuple[Hashable, float, float]]:
        """The root's children's moves, visits and wins (for the player to move), in
        the order grown: how sure the search is, for a hint (the tests compare a
        compiled tree's with these)."""
        return [(child.move, child.visits, child.wins) for child in self.root.children]


def _fraction(walks: int, playouts: int | None, elapsed: float,
              seconds: float | None) -> float:
    done = 0.0
    if playouts is not None:
        done = walks / playouts
    if seconds is not None:
        done = max(done, elapsed / seconds)
    return min(done, 1.0)


def _walk(board: Board, root: Node, policy: Policy, rng: random.Random) -> None:
    """Select down the tree, grow one child, play out, count the result up the path."""
    node, path, pushed = root, [root], 0
    widening, prior_weight = policy.widening, policy.prior_weight
    minimax_weight = policy.minimax_weight
    while True:
        if board.is_game_over():
            break
        if node.untried is None:
            node.expand_moves(board, policy, rng)
        if node.may_grow(widening):
            move, prior = node.untried.pop()
            child = Node(move, board.turn, prior)
            if policy.prior_visits:
                child.visits = policy.prior_visits
                child.wins = policy.prior_visits * policy.prior_value * math.sqrt(prior)
            node.children.append(child)
            board.push_legal(move)
            pushed += 1
            path.append(child)
            node = child
            break
        if not node.children:
            break
        node = node.best_child(prior_weight, minimax_weight, policy.exploration)
        board.push_legal(node.move)
        pushed += 1
        path.append(node)
    outcome = board.outcome()
    value_b = result_for_b(outcome.winner) if outcome is not None else policy.value(board, rng)
    for _ in range(pushed):
        board.pop()
    for visited in path:
        visited.visits += 1
        if visited.mover is not None:
            visited.wins += value_b if visited.mover == "b" else 1.0 - value_b
    if minimax_weight:
        _back_up_minimax(path, value_b)


def _back_up_minimax(path: list[Node], value_b: float) -> None:
    """The leaf's value, then each node's best child's minimax for the player choosing
    there, up the path (the root's own is never read)."""
    leaf = path[-1]
    leaf.minimax = value_b if leaf.mover == "b" else 1.0 - value_b
    for node in reversed(path[1:-1]):
        chooser = node.children[0].mover
        best = max(child.minimax for child in node.children)
        node.minimax = best if chooser == node.mover else 1.0 - best
