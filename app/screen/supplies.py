"""The strip under a simulated board that shows what each player has left to put down,
for a game that counts its pieces in hand but has no tray to show them in (Akron's
supply of balls): a piece in each player's colour and how many are left, as the engine
counts them (``Board.left_in_hand``), the player to move's piece ringed in white.
"""

from __future__ import annotations

import pygame

from app.games import game
from app.screen.paint import font
from engines.core import Board

RGB = tuple[int, int, int]

#: The share of the board's square the supply strip takes, below the board.
SHARE = 0.09
STRIP: RGB = (38, 42, 50)
LABEL: RGB = (190, 196, 206)
TO_MOVE: RGB = (255, 255, 255)


def has_supplies(board: Board) -> bool:
    """Whether ``board``'s game counts pieces in hand that no tray shows."""
    return board.left_in_hand("b") is not None and not game(board.game).tray


def split(area: pygame.Rect) -> tuple[pygame.Rect, pygame.Rect]:
    """The board's part of ``area`` and the supply strip's, below it."""
    strip_h = round(area.height * SHARE)
    return (pygame.Rect(area.x, area.y, area.width, area.height - strip_h),
            pygame.Rect(area.x, area.bottom - strip_h, area.width, strip_h))


def draw_supplies(surface: pygame.Surface, area: pygame.Rect,
                  board: Board) -> list[tuple[str, pygame.Rect]]:
    """Each player's supply in ``area``. Returns the texts drawn, with where."""
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
        text = f"{info.title}: {board.left_in_hand(player)} left"
        image = font(size).render(text, True, LABEL)
        texts.append((text, surface.blit(
            image, image.get_rect(midleft=(centre[0] + 2 * radius, centre[1])))))
    return texts
