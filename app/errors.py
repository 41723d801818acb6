"""The app's errors: one tree under :class:`engines.errors.TabletopError`.

Every error here is an *expected* failure, one a person can act on, and its message is
one line that says what and where (file and key, device and pin) and why. The command
line prints it as ``tabletop COMMAND: message`` with no traceback (:func:`app.cli.main`),
and exits with the error's ``exit_status``: 1 for a device, 2 for everything else (bad
input: a move, an option, a file a person wrote); anything that is not a ``TabletopError`` is a bug and keeps its
traceback. Like gpiozero's ``GPIOZeroError``, one root lets a caller catch "anything
the table can go wrong with" in one ``except``, and the subclasses say which part::

    TabletopError                      (engines.errors)
    ├── EngineError                    games: moves, rules, options, records (engines)
    │   ├── SeatError                  a word that is no seat, seats missing a colour
    │   └── SessionError               a session with impossible seats or level
    ├── ConfigError                    the configuration file
    │   └── ProfileError               a board profile: how a board is wired
    ├── SensorLogError                 a sensor log
    ├── CalibrationError               hall-sensor calibration that cannot go on
    ├── InvitationError                an invitation to a board far away that gave no game
    ├── FarGameError                   a game with a far board that cannot be resumed
    ├── Refused                        a message from the broker that is not the other board's
    └── DeviceError                    hardware that cannot be opened or used
        ├── NoSuchPinError             a pin this board does not have
        ├── DisconnectError            hardware that went away while in use
        ├── NoDisplayError             no screen a person could see
        │   └── DisplayNotReady        no screen yet (no KMS/DRM device, none connected)
        └── WebError                   the page cannot be served on its address

The engines' own errors are in :mod:`engines.errors` (the engines import nothing of the
app); every other error class is defined here, once, as gpiozero keeps its ``exc.py``,
and the modules that raise one import it from here.

The file errors stay ``ValueError`` too (bad data, as before), so code that caught
``ValueError`` keeps working; device errors are ``RuntimeError`` (``NoDisplayError``
was one before it joined this tree). Drivers raise device errors ``from`` the library's
own exception, so ``__cause__`` keeps the detail for whoever debugs them.
"""

from __future__ import annotations

from engines.errors import EngineError, TabletopError


class ConfigError(TabletopError, ValueError):
    """A configuration file that cannot be used; one line: file, key, problem."""


class ProfileError(ConfigError):
    """A board profile that cannot describe a board; one line: file, key, problem.

    A profile is the board's own configuration file (which pin, which LED, which hole),
    checked the same way and fixed the same way, by editing a TOML file, so it is a kind
    of :class:`ConfigError`: ``except ConfigError`` means "a file a person wrote is
    wrong" and covers both, while ``except ProfileError`` still picks out the wiring.
    """


class SensorLogError(TabletopError, ValueError):
    """A sensor log that cannot be read (one line naming the first bad line), or
    written."""


class DeviceError(TabletopError, RuntimeError):
    """Hardware that cannot be opened or used: no GPIO on this machine, the LED library
    missing, Blinka not supporting the board, permission denied on a device file.

    The message names the device, its profile or pin, and the cause; the library's own
    exception is chained as ``__cause__``. A real device that fails is this error, never
    a silent switch to a simulated one.

    Exit status 1, where bad input is 2: a device can come back (a cable plugged in, a
    group joined), so systemd restarts the service after this one and not after a
    broken configuration (``RestartPreventExitStatus=2``).
    """

    exit_status = 1


class NoSuchPinError(DeviceError, ValueError):
    """A pin the board does not have (like gpiozero's ``GPIOPinMissing``, also a
    ``ValueError``): on a real Pi profiles name only pins it has, so this usually means
    the machine is not the board the profile was written for."""


class DisconnectError(DeviceError):
    """A device that worked and then went away while in use (a cable, a bus, a reset)."""


#: Where systemd/install.sh installs Tabletop on a Pi: its copy of the checkout in
#: ``src``, the virtual environment it runs in in ``venv``.
INSTALLED = "/opt/tabletop"


def install_extra(extra: str, brings: str = "") -> str:
    """How to install one of Tabletop's extras (``pi``, ``screen``, ``web``,
    ``firmware``), in the one wording every message uses. Tabletop is not on the package
    index, where the name ``tabletop`` belongs to another project, so asking pip for an
    extra by that name would install someone else's program: an extra comes from the
    checkout, or on a Pi from the copy of it that install.sh keeps beside its
    environment."""
    which = f", which brings {brings}" if brings else ""
    return (f"install Tabletop's [{extra}] extra from its checkout{which}: pip install "
            f"'.[{extra}]' there, or {INSTALLED}/venv/bin/pip install "
            f"'{INSTALLED}/src[{extra}]' on a Pi set up by systemd/install.sh")


def describe(error: BaseException) -> str:
    """An exception as a short phrase for a one-line message: its text, or its class
    name when it has none (``KeyError()``), with newlines collapsed to spaces. An OS
    error is its reason and the file it is about (``Is a directory: /tmp``), without
    Python's ``[Errno 21]`` and quotes, which a person cannot act on."""
    if isinstance(error, OSError) and error.strerror:
        files = [str(name) for name in (error.filename, error.filename2) if name is not None]
        text = error.strerror + (f": {' -> '.join(files)}" if files else "")
    else:
        text = str(error)
    text = " ".join(text.split())
    return text or type(error).__name__


#: A value's type as a person reads it in a file they wrote (TOML's words, not Python's).
KIND_WORDS = {bool: "true or false", int: "a whole number", float: "a number", str: "text",
              list: "a list", dict: "a table"}


def kind_words(*kinds: type) -> str:
    """What a value of one of ``kinds`` is called in a one-line error: ``must be a whole
    number, not 'x'`` rather than Python's ``must be int``."""
    return " or ".join(KIND_WORDS.get(kind, kind.__name__) for kind in kinds)


class WebError(DeviceError):
    """The page cannot be served (the address is taken, or not this machine's)."""


class NoDisplayError(DeviceError):
    """SDL could open only a driver that draws nowhere a person can see."""


class DisplayNotReady(NoDisplayError):
    """Nothing to open yet (no KMS/DRM device, no screen connected), seen without SDL."""


class CalibrationError(TabletopError):
    """Calibration cannot go on: a profile that is no hall-sensor board, holes it does
    not have, readings no threshold can tell apart, a copy that cannot be written. Exit
    status 2: the same run fails the same way."""


class Refused(TabletopError):
    """A message that is not the other board's: too long, altered, forged or misplaced."""


class FarGameError(TabletopError):
    """A game with a board far away that cannot be resumed from its file; one line."""


class InvitationError(TabletopError):
    """An invitation that did not give a game; one line, for the screen and the page."""


class SeatError(EngineError):
    """A seat that is no seat: a word no kind has, or seats missing a colour."""


class SessionError(EngineError):
    """A session set up with impossible seats or level."""


__all__ = ["CalibrationError", "ConfigError", "DeviceError", "DisconnectError",
           "DisplayNotReady", "FarGameError", "InvitationError", "NoDisplayError",
           "NoSuchPinError", "ProfileError", "Refused", "SeatError", "SensorLogError",
           "SessionError", "TabletopError", "WebError", "describe", "install_extra",
           "kind_words"]
