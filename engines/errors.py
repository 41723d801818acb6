"""The errors engines raise: one root for everything a person should read as one line.

:class:`TabletopError` is the root of every expected failure in the product, engines and
app alike: its message is one line meant for a person, and the command line prints it as
one line with no traceback, and exit status 2 for bad input (1 for the app's hardware
errors); anything else is a bug and keeps its traceback. The engine errors stay ``ValueError`` too, so code that caught bad input as
``ValueError`` keeps working. ``engines.core`` and ``engines`` re-export them.
"""

from __future__ import annotations


class TabletopError(Exception):
    """Every error a person should see as one line; the CLI turns it into one line and
    exits with :attr:`exit_status`."""

    #: 2: what the command was given is wrong (a move, an option, a file a person wrote),
    #: and running it again unchanged fails again. The app's device errors say 1.
    exit_status = 2


class EngineError(TabletopError, ValueError):
    """Any input an engine refuses: a move, an option, a record, a command."""


class InvalidMoveError(EngineError):
    """Move text that does not name a move on this board."""


class IllegalMoveError(EngineError):
    """A well-formed move that the rules do not allow now."""


class PointError(EngineError):
    """A name that is no point of the board: not in the game's notation, or off its board."""


class OptionError(EngineError):
    """A game option that is unknown or has a bad value."""


class RecordError(EngineError):
    """A game record that cannot be read."""



class LayoutError(OptionError):
    """A layout that is not an arrangement of exactly the Kulami panel set."""


class RecordOptionError(RecordError, OptionError):
    """A sound record of a game with an option this version refuses (``HA[2.0]``, a
    layout no longer shipped). It is a :class:`RecordError`, since the record does not
    load, and an :class:`OptionError`, so that whoever keeps records can tell it from a
    damaged one: it may load again once the option is allowed, so it is kept as it is."""


__all__ = ["EngineError", "IllegalMoveError", "InvalidMoveError", "LayoutError",
           "OptionError", "PointError", "RecordError", "RecordOptionError",
           "TabletopError"]
