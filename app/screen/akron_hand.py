"""The simulated Akron board's balls as they physically stand, with gravity.

The simulator's board holds balls at every level of the pyramid, while its sensors sit
only under the 64 holes. This module is the physics of that pile, kept as point name ->
colour (the simulator's pieces): a ball comes out only when at most one ball rests on it
(two or more pin it, as a real hand finds), and the moment it is out the ball resting on
it drops into its place and the chain above drops one step each along the diagonal, as
the engine's :func:`~engines.akron.rules.drop_chain` has it; a ball goes down only into
an empty hole or onto four balls. What the sensors see of the pile is only its holes
(:func:`holes`): the simulator passes their changes to the sensors, and nothing above.

Beside the board lie the supplies, the balls each player has left to add
(:func:`draw_supplies`), as the engine counts them.
"""

from __future__ import annotations

from collections.abc import Mapping

import pygame

from app.games import game
from app.screen.paint import font
from engines.akron.rules import drop_chain
from engines.akron.geometry import ABOVE, BELOW, INDEX, LEVEL, NAMES

RGB = tuple[int, int, int]

#: The share of the board's square the supply strip takes, below the board.
SHARE = 0.09
STRIP: RGB = (38, 42, 50)
LABEL: RGB = (190, 196, 206)
TO_MOVE: RGB = (255, 255, 255)


def has_pile(board) -> bool:
    """Whether ``board``'s game is played with balls stacked above the holes (its
    registry entry says so)."""
    return game(board.game).pile


def _occupied(pile: Mapping[str, str]) -> int:
    return sum(1 << INDEX[name] for name in pile)


def can_lift(pile: Mapping[str, str], name: str) -> bool:
    """Whether a hand can take the ball at ``name`` out: at most one ball rests on it."""
    return name in pile and (ABOVE[INDEX[name]] & _occupied(pile)).bit_count() <= 1


def lift(pile: dict[str, str], name: str) -> tuple[str, list[tuple[str, str]]]:
    """Take the ball at ``name`` out of ``pile`` and let gravity act: returns its colour
    and the drops, as (from, to) point names, lowest first."""
    if not can_lift(pile, name):
        raise ValueError(f"the ball on {name} is pinned: two or more balls rest on it")
    chain = [NAMES[p] for p in drop_chain(INDEX[name], _occupied(pile))]
    colour = pile.pop(name)
    drops = list(zip(chain, [name, *chain]))
    for upper, lower in drops:
        pile[lower] = pile.pop(upper)
    return colour, drops


def can_put(pile: Mapping[str, str], name: str) -> bool:
    """Whether a ball can go down at ``name``: empty, and a hole or on four balls."""
    point = INDEX[name]
    return name not in pile and BELOW[point] & _occupied(pile) == BELOW[point]


def holes(pile: Mapping[str, str]) -> dict[str, str]:
    """The balls in the holes: all the sensors see of the pile."""
    return {name: colour for name, colour in pile.items() if LEVEL[INDEX[name]] == 0}


def split(area: pygame.Rect) -> tuple[pygame.Rect, pygame.Rect]:
    """The board's part of ``area`` and the supply strip's, below it."""
    strip_h = round(area.height * SHARE)
    return (pygame.Rect(area.x, area.y, area.width, area.height - strip_h),
            pygame.Rect(area.x, area.bottom - strip_h, area.width, strip_h))


def draw_supplies(surface: pygame.Surface, area: pygame.Rect,
                  board) -> list[tuple[str, pygame.Rect]]:
    """Each player's supply in ``area``: a ball in their colour and how many are left,
    the player to move's ball ringed in white. Returns the texts drawn, with where."""
    surface.fill(STRIP, area)
    players = game(board.game).players
    radius = max(4, area.height // 4)
    size = max(10, area.height // 2)
    texts = []
    for i, (player, info) in enumerate(players.items()):
        half = pygame.Rect(area.x + i * area.width // 2, area.y, area.width // 2, area.height)
        centre = (half.x + half.width // 6, half.centery)
        if player == board.turn and not board.is_game_over():
            pygame.draw.circle(surface, TO_MOVE, centre, radius + max(2, radius // 4))
        pygame.draw.circle(surface, info.piece, centre, radius)
        text = f"{info.name.capitalize()}: {board.supply(player)} left"
        image = font(size).render(text, True, LABEL)
        texts.append((text, surface.blit(
            image, image.get_rect(midleft=(centre[0] + 2 * radius, centre[1])))))
    return texts
