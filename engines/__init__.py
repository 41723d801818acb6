"""Rules engines for the four games: pure Python, no hardware, no I/O.

``new_game(name, **options)`` is the one door in; each game registers its board class
here by import path so that importing the registry stays cheap on a Pi.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from engines.core import (PLAYERS, Board, EngineError, IllegalMoveError, InvalidMoveError,
                          Lights, OptionError, Outcome, RecordError, other)

#: Game name -> "module:BoardClass". Later engines add one line each.
GAMES: dict[str, str] = {
    "kulami": "engines.kulami.board:KulamiBoard",
    "conhex": "engines.conhex.board:ConHexBoard",
}


def board_class(name: str) -> type[Board]:
    """The board class registered under ``name``."""
    try:
        path = GAMES[name.strip().lower()]
    except KeyError:
        raise OptionError(f"unknown game {name!r} (known: {', '.join(sorted(GAMES))})") from None
    module, _, cls = path.partition(":")
    return getattr(import_module(module), cls)


def coerce_options(cls: type[Board], raw: dict[str, Any]) -> dict[str, Any]:
    """Fill defaults and convert ``key=value`` strings to each option's type."""
    options = dict(cls.default_options)
    for key, value in raw.items():
        if key not in options:
            known = ", ".join(sorted(options)) or "none"
            raise OptionError(f"{cls.game} has no option {key!r} (options: {known})")
        default = options[key]
        if isinstance(value, str) and not isinstance(default, str) and default is not None:
            value = _from_text(key, value, type(default))
        options[key] = value
    return options


def _from_text(key: str, text: str, kind: type) -> Any:
    if kind is bool:
        lowered = text.strip().lower()
        if lowered in ("1", "true", "yes", "on"):
            return True
        if lowered in ("0", "false", "no", "off"):
            return False
        raise OptionError(f"option {key} wants true or false, not {text!r}")
    try:
        return kind(text)
    except ValueError:
        raise OptionError(f"option {key} wants a {kind.__name__}, not {text!r}") from None


def new_game(name: str, **options: Any) -> Board:
    """A new game of ``name`` with ``options`` (strings are converted)."""
    cls = board_class(name)
    return cls.from_options(coerce_options(cls, options))


__all__ = ["PLAYERS", "Board", "EngineError", "GAMES", "IllegalMoveError", "InvalidMoveError",
           "Lights", "OptionError", "Outcome", "RecordError", "board_class", "new_game",
           "other"]
