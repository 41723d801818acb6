"""Render the README's screenshots: each game in the simulator, and its status screen at
800x480, into docs/screenshots/. Runs without a display (SDL's dummy driver).

    .venv/bin/python scripts/screenshots.py [GAME ...]

With games named, only their pictures are made (the others stay as they are).

The games are played through the simulator exactly as a mouse would, with a fixed seed,
so the pictures change only when the drawing or the rules do.
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402  (the driver must be chosen first)

from app.screen.menu import Choice  # noqa: E402
from app.screen.status import draw_status  # noqa: E402
from app.games import GAMES  # noqa: E402
from app.screen.simulator import BLINK_S, WINDOW, Simulator  # noqa: E402
from app.table.store import RecordStore  # noqa: E402
from app.table.thinker import InlineThinker  # noqa: E402
from app.games import new_game  # noqa: E402
from engines.players import choose_move  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "docs" / "screenshots"
#: game -> (options, how many moves to play before the picture)
SCENES = {"kulami": ({"layout": "square-1", "scoring": 0}, 17),
          "conhex": ({"pie": True, "handicap": 0}, 21)}
#: game -> a fixed game, set out on the board as after a restart: Akron's stacks come
#: from moves above the board, which random play rarely builds. This one stands on three
#: levels: a small pyramid in the corner (3c3 covers 1c3, 1c1 is pinned) and, in the
#: middle, white's contact 1k9-1k11 cut by the overpass 2j10-2l10.
SET_OUT = {"akron": "1a1 1c1 1a3 1c3 1e1 1e3 1a5 1c5 1e5 1g3 1a7 1g3-2d4 1a7-2b4 1g3 1a7 "
                    "1g3-2d2 1a7-2b2 1g3 1a7 1g3-3c3 1k9 1m9 1k11 1m11 1i9 1o11 1i11 "
                    "1o11-2l10 1i13 1m13 1i13-2j10 1g13 1e7"}
SEED = 11
PEOPLE = {"b": "person", "w": "engine"}


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
    sim = Simulator(Choice(game, options, PEOPLE, 2), clock=clock, seed=SEED,
                    thinker=InlineThinker())
    rng = random.Random(SEED)
    while len(sim.session.board.move_stack) < plies:
        status = sim.session.status()
        hole = status.pending or sim.session.board.move_text(
            choose_move(sim.session.board, 2, rng))
        sim.place(hole)
        clock.now += 1.0
        sim.step()
    return blink_on(sim, clock)


def set_out(game: str, data: Path) -> Simulator:
    """A simulator continuing ``game``'s fixed game, saved in ``data``, its pieces set out
    on the board as after a restart, the engine's move waiting to be made."""
    store = RecordStore(data, profile=f"{game}-sim")
    board = new_game(game)
    store.start(board)
    for move in SET_OUT[game].split():
        board.push(board.parse_move(move))
    store.save(board)
    clock = Clock()
    sim = Simulator(Choice(game, {}, PEOPLE, 2), clock=clock, seed=SEED,
                    store=RecordStore(data), thinker=InlineThinker(), resume=True)
    clock.now += 1.0
    sim.step()
    return blink_on(sim, clock)


def blink_on(sim: Simulator, clock: Clock) -> Simulator:
    """``sim`` at the start of a blink's on phase, so a blinking LED shows lit."""
    clock.now = (int(clock.now / (2 * BLINK_S)) + 1) * 2 * BLINK_S
    sim.step()
    return sim


def main(games: list[str]) -> int:
    unknown = [game for game in games if game not in GAMES]
    if unknown:
        print(f"screenshots: unknown game {', '.join(unknown)} (known: {', '.join(GAMES)})",
              file=sys.stderr)
        return 1
    pygame.display.init()
    pygame.font.init()
    OUT.mkdir(parents=True, exist_ok=True)
    data = tempfile.TemporaryDirectory(prefix="tabletop-screenshots-")
    for game in games or GAMES:
        if game not in SCENES and game not in SET_OUT:
            print(f"screenshots: no scene for {game}; add one to SCENES or SET_OUT",
                  file=sys.stderr)
            return 1
        sim = set_out(game, Path(data.name)) if game in SET_OUT else play(game)
        window = pygame.Surface(WINDOW)
        sim.draw(window)
        pygame.image.save(window, str(OUT / f"{game}.png"))
        screen = pygame.Surface((800, 480))
        draw_status(screen, sim.session.status())
        pygame.image.save(screen, str(OUT / f"{game}-screen.png"))
        print(f"docs/screenshots/{game}.png, docs/screenshots/{game}-screen.png")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
