"""How the screen puts game facts into words: titles, options, seats, outcomes.

A table per game rather than code per game, so a new game adds a title and, if its
options need explaining, one small function.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from app.colours import player_name
from engines.core import Outcome

TITLES = {"kulami": "Kulami", "conhex": "ConHex", "akron": "Akron",
          "blokus-duo": "Blokus Duo"}


def title(game: str) -> str:
    return TITLES.get(game, game.capitalize())


def player(game: str, colour: str) -> str:
    """The player's display name with a capital, e.g. ``Red``."""
    return player_name(game, colour).capitalize()


def _kulami(options: Mapping[str, Any]) -> list[str]:
    from engines.kulami.layout import named_layouts

    layout = str(options.get("layout", "square-1"))
    name_of = {text: name for name, text in named_layouts().items()}
    words = [f"layout {name_of.get(layout, 'of your own' if '/' in layout else layout)}",
             f"scoring level {options.get('scoring', 0)}"]
    if options.get("scoring") == 2:
        words.append(f"{options.get('chain_lines', 'diagonal')} chains")
    return words


def _conhex(options: Mapping[str, Any]) -> list[str]:
    words = ["pie rule" if options.get("pie", True) else "no pie rule"]
    if options.get("handicap"):
        words.append(f"handicap {options['handicap']}")
    return words


#: game -> the options as short phrases.
OPTION_WORDS = {"kulami": _kulami, "conhex": _conhex}


def options(game: str, values: Mapping[str, Any]) -> str:
    """The game's options as one line, e.g. ``layout square-1, scoring level 0``."""
    describe = OPTION_WORDS.get(game)
    words = describe(values) if describe else [f"{k} {v}" for k, v in sorted(values.items())]
    return ", ".join(words)


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
