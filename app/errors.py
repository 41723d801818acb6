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
    ├── ConfigError                    the configuration file
    │   └── ProfileError               a board profile: how a board is wired
    ├── SensorLogError                 a sensor log
    └── DeviceError                    hardware that cannot be opened or used
        ├── NoSuchPinError             a pin this board does not have
        ├── DisconnectError            hardware that went away while in use
        └── NoDisplayError             no screen a person could see (app.screen.display)

The file errors stay ``ValueError`` too (bad data, as before), so code that caught
``ValueError`` keeps working; device errors are ``RuntimeError`` (``NoDisplayError``
was one before it joined this tree). Drivers raise device errors ``from`` the library's
own exception, so ``__cause__`` keeps the detail for whoever debugs them.
"""

from __future__ import annotations

from engines.errors import TabletopError


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


__all__ = ["ConfigError", "DeviceError", "DisconnectError", "NoSuchPinError", "ProfileError",
           "SensorLogError", "TabletopError", "describe", "install_extra", "kind_words"]
