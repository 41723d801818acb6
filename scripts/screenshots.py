"""Render the README's screenshots: each game in the simulator, and its status screen at
800x480, into docs/screenshots/. Runs without a display (SDL's dummy driver).

    .venv/bin/python scripts/screenshots.py

The games are played through the simulator exactly as a mouse would, with a fixed seed,
so the pictures change only when the drawing or the rules do.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402  (the driver must be chosen first)

from app.screen.menu import Choice  # noqa: E402
from app.screen.status import draw_status  # noqa: E402
from app.games import GAMES  # noqa: E402
from app.screen.simulator import BLINK_S, WINDOW, Simulator  # noqa: E402
from app.table.thinker import InlineThinker  # noqa: E402
from engines.players import choose_move  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "docs" / "screenshots"
#: game -> (options, how many moves to play before the picture)
SCENES = {"kulami": ({"layout": "square-1", "scoring": 0}, 17),
          "conhex": ({"pie": True, "handicap": 0}, 21)}
SEED = 11


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def play(game: str) -> Simulator:
    """A simulator with ``game`` played by mouse up to the engine's move waiting to be
    placed, its LED lit (the blink caught in its on phase)."""
    options, plies = SCENES[game]
    clock = Clock()
    sim = Simulator(Choice(game, options, {"b": "person", "w": "engine"}, 2), clock=clock,
                    seed=SEED, thinker=InlineThinker())
    rng = random.Random(SEED)
    while len(sim.session.board.move_stack) < plies:
        status = sim.session.status()
        hole = status.pending or sim.session.board.move_text(
            choose_move(sim.session.board, 2, rng))
        sim.place(hole)
        clock.now += 1.0
        sim.step()
    clock.now = (int(clock.now / (2 * BLINK_S)) + 1) * 2 * BLINK_S  # blink on
    sim.step()
    return sim


def main() -> int:
    pygame.display.init()
    pygame.font.init()
    OUT.mkdir(parents=True, exist_ok=True)
    for game in GAMES:
        if game not in SCENES:
            print(f"screenshots: no scene for {game}; add one to SCENES", file=sys.stderr)
            return 1
        sim = play(game)
        window = pygame.Surface(WINDOW)
        sim.draw(window)
        pygame.image.save(window, str(OUT / f"{game}.png"))
        screen = pygame.Surface((800, 480))
        draw_status(screen, sim.session.status())
        pygame.image.save(screen, str(OUT / f"{game}-screen.png"))
        print(f"docs/screenshots/{game}.png, docs/screenshots/{game}-screen.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
