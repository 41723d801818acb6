"""Engine players: the levels the opponent menu, ``genmove`` and hints offer.

Level 1 plays a random legal move, so a beginner can win; level 2 plays the move that
leaves the best score margin one ply ahead, the game's policy choosing among equals.
From level 3 the shared search (:mod:`engines.search`) plays with a budget of playouts:
each game's policy says how many the strongest level makes (``max_playouts``: half a
second a move on average on the development machine and under two at the most), and
level 3 makes a twentieth. Budgets in playouts rather than seconds keep a level's
strength the same on every machine and its answer the same for the same seed;
:data:`MOST_SECONDS` caps every search where a person would wait longer (it cuts the
strongest level's longest moves on a Pi Zero 2 W, about twelve times slower, and
Kulami's on a Pi 4), and a game's policy may set a lower cap of its own
(``most_seconds``: Blokus Duo's, so that its strongest level answers within half a
second here), which :func:`seconds_cap` scales by the machine's pace
(:mod:`engines.pace`), so that it cuts no deeper on a Pi than here. ``bench/pace.py``
prints what each level costs on a Pi and the strength a cut search keeps.
``bench/strength.py`` measures the levels against each other.

``max`` names the strongest level wherever levels are given (:func:`parse_level`).

A hint is the same choice, with how sure the engine is of it (:func:`judge`): a
:class:`Judgement` holds, in numbers, how the level chose (at random, one ply ahead, or by
the search) and what the search counted of its choice and the runner-up, its trials and
their wins; the app words it for players.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from engines.core import Board, other
from engines.errors import EngineError
from engines.options import Option
from engines.pace import pace
from engines.search import policy_of, search

RANDOM, GREEDY = 1, 2
#: The levels, weakest first; the last is ``max``.
LEVELS = (1, 2, 3, 4)
MAX_LEVEL = LEVELS[-1]
#: The share of the game's ``max_playouts`` each searching level makes.
SEARCH_SHARE = {3: 0.05, 4: 1.0}
#: No search runs longer than this, whatever its budget: on a Pi 4 the strongest level
#: stays well under ten seconds a move even if it is slower than estimated.
MOST_SECONDS = 8.0
#: The level a new table or terminal game offers unless told otherwise: it answers at once.
DEFAULT_LEVEL = GREEDY
#: How each level plays, in a few words (menus, help texts).
LEVEL_WORDS = {1: "random", 2: "greedy", 3: "search", 4: "strongest"}


def parse_level(text: str | int) -> int:
    """A level from its text: a number of :data:`LEVELS` or ``max`` (the strongest);
    raises :class:`EngineError` naming what is allowed."""
    word = str(text).strip().lower()
    if word == "max":
        return MAX_LEVEL
    try:
        level = int(word)
    except ValueError:
        level = None
    if level not in LEVELS:
        raise EngineError(f"level must be {', '.join(map(str, LEVELS))} or max, "
                          f"not {str(text).strip()!r}")
    return level


class LevelOption(Option):
    """The ``level`` option where options are text or typed values (GTP's
    ``level=N``): one of :data:`LEVELS`, or ``max``."""

    def accept(self, raw):
        if isinstance(raw, str) and raw.strip().lower() == "max":
            return MAX_LEVEL
        return super().accept(raw)

    def allowed(self) -> str:
        return f"{', '.join(map(str, LEVELS))} or max"


def level_argument(text: str) -> int:
    """An argparse type: :func:`parse_level`, its refusal as argparse's usage error."""
    try:
        return parse_level(text)
    except EngineError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def engine_name(level: int) -> str:
    """How records name the engine player (``PB``/``PW``)."""
    return f"Tabletop (level {level})"


def playouts(board: Board, level: int) -> int:
    """The search budget of ``level`` (3 or more) in ``board``'s game."""
    return max(1, round(policy_of(board).max_playouts * SEARCH_SHARE[level]))


def seconds_cap(board: Board) -> float:
    """The seconds a search in ``board``'s game may take on this machine: the game's own
    cap (``most_seconds``) times this machine's pace (:func:`engines.pace.pace`), so that
    it cuts the search no sooner than on the development machine, and never more than
    :data:`MOST_SECONDS`, what a person will wait. The pace is measured only for a game
    with a cap of its own."""
    cap = policy_of(board).most_seconds
    return min(MOST_SECONDS, cap * pace()) if cap else MOST_SECONDS


@dataclass(frozen=True)
class Considered:
    """A move the search tried from the position: its trials (the root child's visits)
    and the wins among them for the player to move."""

    move: Hashable
    trials: float
    wins: float

    @property
    def won(self) -> float:
        """The share of its trials won (0..1)."""
        return self.wins / self.trials


@dataclass(frozen=True)
class Judgement:
    """How ``level`` chose ``move``, in the numbers the choice rests on: the trials the
    search made (``walks``) of the ``budget`` it had before its clock (fewer: the clock
    stopped it), and the chosen move and the runner-up as it counted them, the chosen
    first (``considered``; empty without a search). ``only``: the one legal move."""

    move: Hashable | None
    level: int
    only: bool = False
    walks: int = 0
    budget: int = 0
    considered: tuple[Considered, ...] = ()


def choose_move(board: Board, level: int = 1, rng: random.Random | None = None,
                player: str | None = None,
                progress: Callable[[float], None] | None = None) -> Hashable | None:
    """The move ``player`` (default: the side to move) would play, or ``None``.

    ``progress`` is called with the fraction of the search done so far; a caller that
    no longer wants the result raises from it, which ends the search there."""
    return judge(board, level, rng, player, progress).move


def judge(board: Board, level: int = 1, rng: random.Random | None = None,
          player: str | None = None, progress: Callable[[float], None] | None = None,
          seconds: float | None = None) -> Judgement:
    """:func:`choose_move`'s move with how sure ``level`` is of it (a hint's), the same
    move for the same ``rng``. ``seconds`` replaces the search's clock cap (a test's tiny
    budget)."""
    rng = rng or random.Random()
    player = player or board.turn
    # A list: the random choice indexes it and the search pushes and pops while it runs.
    moves = list(board.legal_moves_for(player))
    if not moves:
        return Judgement(None, level)
    only = len(moves) == 1
    if level <= RANDOM or player != board.turn:
        return Judgement(rng.choice(moves), RANDOM, only)
    if level == GREEDY:
        return Judgement(_greedy(board, moves, rng, progress or (lambda fraction: None)),
                         GREEDY, only)
    level = min(level, MAX_LEVEL)
    if seconds is None:
        seconds = seconds_cap(board)
    budget, stats = playouts(board, level), {}
    move = search(board, rng, playouts=budget, seconds=seconds, progress=progress,
                  stats=stats)
    return Judgement(move, level, only, stats.get("walks", 0), budget,
                     tuple(Considered(*child) for child in stats.get("root", ())[:2]))


def _greedy(board: Board, moves: list, rng: random.Random,
            progress: Callable[[float], None]) -> Hashable:
    mover = board.turn
    best, best_margin = [], None
    for done, move in enumerate(moves):
        progress(done / len(moves))
        board.push(move)
        outcome = board.outcome()
        scores = outcome.scores if outcome else board.scores()
        margin = scores[mover] - scores[other(mover)]
        if outcome is not None and outcome.winner == mover:
            margin += 10_000
        board.pop()
        if best_margin is None or margin > best_margin:
            best, best_margin = [move], margin
        elif margin == best_margin:
            best.append(move)
    return rng.choice(_judged_best(board, best))


def _judged_best(board: Board, moves: list) -> list:
    """Of moves equal on the score, those the game's search policy ranks first (a
    ConHex gem on a shortest chain rather than anywhere); all of them when it has no
    ranking."""
    priors = policy_of(board).priors(board, moves) if len(moves) > 1 else None
    if not priors:
        return moves
    top = max(priors)
    return [move for move, prior in zip(moves, priors) if prior == top]
