"""Akron's balls as they physically stand, with gravity: the pile a hand works on.

The engine's board is the game; this is the wood and the balls between two moves, which
a hand may hold in any state: a ball out in the hand, the balls that rested on it
dropped already. It is kept as point name -> ``b``/``w`` (:meth:`AkronBoard.piece_view`
gives the board's). A ball comes out only when at most one ball rests on it (two or more
pin it, as a real hand finds), and the moment it is out the ball resting on it drops
into its place and the chain above drops one step each along the diagonal, as
:func:`~engines.akron.rules.drop_chain` has it; a ball goes down only into an empty hole
or onto four balls. What sensors under the holes see of the pile is only its holes
(:func:`holes`).

A game whose pieces stack names a module like this one in its registry entry
(``GameInfo.pile``); the simulated hand uses these four functions and nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping

from engines.akron.geometry import ABOVE, BELOW, INDEX, LEVEL, NAMES
from engines.akron.rules import drop_chain
from engines.bits import mask_of
from engines.errors import IllegalMoveError


def _occupied(pile: Mapping[str, str]) -> int:
    return mask_of(INDEX[name] for name in pile)


def can_lift(pile: Mapping[str, str], name: str) -> bool:
    """Whether a hand can take the ball at ``name`` out: at most one ball rests on it."""
    return name in pile and (ABOVE[INDEX[name]] & _occupied(pile)).bit_count() <= 1


def lift(pile: dict[str, str], name: str) -> tuple[str, list[tuple[str, str]]]:
    """Take the ball at ``name`` out of ``pile`` and let gravity act: returns its owner
    and the drops, as (from, to) point names, lowest first. A pinned ball is an
    :class:`IllegalMoveError` and leaves the pile as it was."""
    if not can_lift(pile, name):
        raise IllegalMoveError(f"the ball on {name} is pinned: two or more balls rest on it")
    chain = [NAMES[p] for p in drop_chain(INDEX[name], _occupied(pile))]
    owner = pile.pop(name)
    drops = list(zip(chain, [name, *chain]))
    for upper, lower in drops:
        pile[lower] = pile.pop(upper)
    return owner, drops


def can_put(pile: Mapping[str, str], name: str) -> bool:
    """Whether a ball can go down at ``name``: empty, and a hole or on four balls."""
    point = INDEX[name]
    return name not in pile and BELOW[point] & _occupied(pile) == BELOW[point]


def holes(pile: Mapping[str, str]) -> dict[str, str]:
    """The balls in the holes: all the sensors see of the pile."""
    return {name: owner for name, owner in pile.items() if LEVEL[INDEX[name]] == 0}
