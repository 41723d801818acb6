"""How the screen puts game facts into words: titles, options, seats, outcomes.

What is particular to a game (its title, its players' names, its options in words)
comes from its entry in :mod:`app.games`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from app.games import game as game_info
from engines.core import Outcome


def title(game: str) -> str:
    return game_info(game).title


def player(game: str, colour: str) -> str:
    """The player's display name with a capital, e.g. ``Red``."""
    return game_info(game).players[colour].title


def options(game: str, values: Mapping[str, Any]) -> str:
    """The game's options as one line, e.g. ``layout square-1, scoring level 0``."""
    return ", ".join(game_info(game).describe(values))


def seat(kind: str, level: int) -> str:
    return f"engine level {level}" if kind == "engine" else "person"


def seats(game: str, kinds: Mapping[str, str], level: int) -> str:
    """Who plays which colour, e.g. ``Red: person, Black: engine level 2``."""
    return ", ".join(f"{player(game, c)}: {seat(kinds.get(c, 'person'), level)}"
                     for c in ("b", "w"))


def result(game: str, outcome: Outcome) -> str:
    """The end in a few words, e.g. ``Red wins`` or ``A draw``."""
    return f"{player(game, outcome.winner)} wins" if outcome.winner else "A draw"


def sentence(text: str) -> str:
    """``text`` with a capital first letter, as a message on the screen reads."""
    return text[:1].upper() + text[1:]


def holes(names: Iterable[str], most: int = 8) -> str:
    """Hole names in board order, at most ``most`` of them and a count of the rest."""
    ordered = sorted(names, key=lambda n: (n[:1], int(n[1:]) if n[1:].isdigit() else 0, n))
    shown = " ".join(ordered[:most])
    rest = len(ordered) - most
    return f"{shown} and {rest} more" if rest > 0 else shown
