"""Game options declared as data: name, default, type, allowed values and one line of help.

Each board class lists its options in ``OPTIONS``, and :func:`validate` is the one place
raw options become checked values, wherever they come from. Text (``key=value`` on the
command line) is converted to the option's type; any other value must already be exactly
that type, so a TOML ``2.0``, ``true`` or ``[2]`` for a whole number is refused by name
instead of being truncated, read as 1 or passed on to fail later. ``bool`` is a subclass
of ``int`` in Python, which is why the check is on the exact type.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engines.errors import OptionError

_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")
#: How each type's values read in an error, for options without a list of choices.
_KINDS = {bool: "true or false", int: "a whole number", str: "text"}
#: Marks text that does not convert (``None`` can be a real value).
_REFUSED = object()


@dataclass(frozen=True)
class Option:
    """One option: its ``name``, ``default`` and ``type``, the ``choices`` when only some
    values are allowed (``None``: any value of the type) and a one-line ``help``."""

    name: str
    default: Any
    type: type
    help: str
    choices: tuple[Any, ...] | None = None

    def allowed(self) -> str:
        """The allowed values in words: ``0, 1 or 2``, ``true or false``, ``text``."""
        if self.choices is None:
            return _KINDS.get(self.type, f"a {self.type.__name__}")
        words = [str(choice) for choice in self.choices]
        return " or ".join(filter(None, (", ".join(words[:-1]), words[-1])))

    def accept(self, raw: Any) -> Any:
        """``raw`` as a value of this option, or :class:`OptionError` naming the option
        and its allowed values."""
        if isinstance(raw, str) and self.type is not str:
            value = self._from_text(raw)
        else:
            value = raw if type(raw) is self.type else _REFUSED
        if value is _REFUSED or (self.choices is not None and value not in self.choices):
            raise OptionError(f"{self.name} must be {self.allowed()}, not {raw!r}")
        return value

    def _from_text(self, text: str) -> Any:
        word = text.strip()
        if self.type is bool:
            lowered = word.lower()
            return True if lowered in _TRUE else False if lowered in _FALSE else _REFUSED
        try:
            return self.type(word)
        except ValueError:
            return _REFUSED


def validate(owner: str, spec: Sequence[Option], raw: Mapping[str, Any]) -> dict[str, Any]:
    """Every option of ``spec``: the ones in ``raw`` checked and converted, the others at
    their defaults. ``owner`` (the game) names whose options they are in errors."""
    known = {option.name: option for option in spec}
    for key in raw:
        if key not in known:
            names = ", ".join(sorted(known)) or "none"
            raise OptionError(f"{owner} has no option {key!r} (options: {names})")
    return {option.name: option.accept(raw[option.name]) if option.name in raw
            else option.default for option in spec}


__all__ = ["Option", "validate"]
