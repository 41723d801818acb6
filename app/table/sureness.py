"""How sure a hint is, as a typed value: the engine's numbers, and what they say.

The engine's :class:`~engines.players.Judgement` counts; this reads it for a player at the
table, once, into a :class:`Sureness` the view carries (:attr:`~app.table.view.View.hint`)
and :mod:`app.table.texts` words, so the status screen's legend, the page and the terminal
say the same thing and nothing parses a percentage back out of a sentence.

The verdict rests on what the search measured. The search plays the move it tried most,
so the runner-up's trials against the chosen move's say how close the choice was: half
as many or fewer, the chosen move is clearly best (:data:`CLEAR`); three quarters as many
or more, the two look alike (:data:`ALIKE`); between, it is probably best. A search its
clock stopped before a quarter of the level's budget (:data:`GUESS`) is a guess, whatever
its counts say. The shares shown are the moves' wins among their trials.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass

from engines.players import GREEDY, RANDOM, Judgement

#: The runner-up tried at most this share as often as the chosen move: clearly best.
CLEAR = 0.5
#: The runner-up tried at least this share as often: the two look alike.
ALIKE = 0.75
#: A search stopped by its clock before this share of its budget: a guess.
GUESS = 0.25

#: The verdicts, from the levels without a search to the search's own.
VERDICTS = ("random", "one_ply", "only", "guess", "clear", "probable", "alike")


@dataclass(frozen=True)
class Sureness:
    """A hint's move and how sure the engine is of it.

    ``verdict`` is one of :data:`VERDICTS`; ``share`` is the chosen move's share (0..1)
    of its trials won, ``None`` without a search that counted; ``runner_up`` and
    ``runner_up_share`` the same for the move the search tried next; ``trials`` the
    search's walks of its ``budget``."""

    move: str
    verdict: str
    level: int
    share: float | None = None
    runner_up: str | None = None
    runner_up_share: float | None = None
    trials: int = 0
    budget: int = 0

    @classmethod
    def of(cls, judgement: Judgement, move_text: Callable[[Hashable], str]) -> Sureness:
        """``judgement`` read for players, its moves named by ``move_text``."""
        move = move_text(judgement.move)
        if judgement.only:
            return cls(move, "only", judgement.level)
        if judgement.level == RANDOM:
            return cls(move, "random", RANDOM)
        if judgement.level == GREEDY:
            return cls(move, "one_ply", GREEDY)
        common = dict(level=judgement.level, trials=judgement.walks,
                      budget=judgement.budget)
        if judgement.walks < GUESS * judgement.budget:
            return cls(move, "guess", **common)
        chosen = judgement.considered[0]
        if len(judgement.considered) == 1:
            return cls(move, "clear", share=chosen.won, **common)
        runner_up = judgement.considered[1]
        close = runner_up.trials / chosen.trials
        verdict = "clear" if close <= CLEAR else "alike" if close >= ALIKE else "probable"
        return cls(move, verdict, share=chosen.won, runner_up=move_text(runner_up.move),
                   runner_up_share=runner_up.won, **common)
