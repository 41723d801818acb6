"""Sensor sources behind one small interface: a GPIO diode matrix, or a simulated board.

A source answers one question, "what is in every hole right now?", as one full scan.
It knows nothing of games and does no debouncing: that belongs to the sensing pipeline,
which has a clock it can be tested with. gpiozero is imported only by the matrix scanner
(and the buttons), through :func:`open_gpio`, which turns whatever gpiozero or its pin
libraries raise into one :class:`~app.errors.DeviceError` line naming the pin and the cause.
"""

from __future__ import annotations

import logging
import time
import warnings
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import TypeVar

from app.errors import DeviceError, DisconnectError, describe, install_extra
from app.hardware.lgpio_dir import PIPE_FIX, pipe_problem
from engines.core import PLAYERS

log = logging.getLogger(__name__)
T = TypeVar("T")


class Scan(dict):
    """One full scan: hole -> occupied. ``colours`` maps occupied holes to ``b``/``w``
    when the source senses colour, and is empty when it does not."""

    def __init__(self, occupied: Mapping[str, bool], colours: Mapping[str, str] = ()) -> None:
        super().__init__(occupied)
        self.colours = MappingProxyType(dict(colours))


class SensorSource(ABC):
    """Where readings come from. Subclasses set ``holes`` and implement ``read``."""

    #: Whether ``read`` reports which player's piece sits in a hole.
    colour_sensing: bool = False

    @property
    @abstractmethod
    def holes(self) -> tuple[str, ...]:
        """Every hole this source reports, in sensor channel order."""

    @abstractmethod
    def read(self) -> Scan:
        """One full scan of every hole."""

    def close(self) -> None:
        """Release pins or ports; nothing to release by default."""

    def __enter__(self) -> "SensorSource":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class SimulatedSensors(SensorSource):
    """A board in memory that scripts, tests and the desktop simulator place pieces on."""

    def __init__(self, holes: Iterable[str], *, colour_sensing: bool = False) -> None:
        self._holes = tuple(holes)
        self._known = frozenset(self._holes)
        self.colour_sensing = colour_sensing
        self._pieces: dict[str, str | None] = {}
        self._scan: Scan | None = None  # the last scan, until a piece moves

    @property
    def holes(self) -> tuple[str, ...]:
        return self._holes

    def place(self, hole: str, colour: str | None = None) -> None:
        """Put a piece in ``hole``; ``colour`` (b or w) is seen only by colour sensing."""
        self._check(hole)
        if colour is not None and colour not in PLAYERS:
            raise ValueError(f"colour must be b or w, not {colour!r}")
        self._pieces[hole] = colour
        self._scan = None

    def lift(self, hole: str) -> None:
        """Take whatever is in ``hole`` out (nothing happens if it is empty)."""
        self._check(hole)
        self._pieces.pop(hole, None)
        self._scan = None

    def read(self) -> Scan:
        """The board as it is; the same scan object while nothing has moved, so the loop
        sees an idle board at the cost of one identity test."""
        if self._scan is None:
            occupied = {hole: hole in self._pieces for hole in self._holes}
            colours = {}
            if self.colour_sensing:
                colours = {hole: c for hole, c in self._pieces.items() if c is not None}
            self._scan = Scan(occupied, colours)
        return self._scan

    def _check(self, hole: str) -> None:
        if hole not in self._known:
            raise ValueError(f"no hole {hole!r} on this board")


class MatrixScanner(SensorSource):
    """Switches in a diode matrix on GPIO, scanned one row at a time through gpiozero.

    Each row output is driven high in turn; after ``settle_us`` for the lines to settle,
    the column inputs (pulled down) read high where a switch in that row is closed.
    The diode in series with every switch stops current flowing back through other
    closed switches, which would otherwise show phantom pieces (see hardware/README.md).
    Channel ``row * len(column_pins) + column`` is the hole ``channels`` names.
    """

    def __init__(self, row_pins: Iterable[int], column_pins: Iterable[int],
                 channels: Mapping[int, str], *, settle_us: float = 20.0,
                 pin_factory=None, label: str = "sensor matrix") -> None:
        self._label = label
        gpiozero = import_gpiozero(label)
        self._rows, self._columns = [], []
        try:
            for pin in row_pins:
                self._rows.append(open_gpio(
                    f"{label}: row GPIO{pin}",
                    lambda: gpiozero.DigitalOutputDevice(pin, pin_factory=pin_factory)))
            for pin in column_pins:
                self._columns.append(open_gpio(
                    f"{label}: column GPIO{pin}",
                    lambda: gpiozero.DigitalInputDevice(pin, pull_up=False,
                                                        pin_factory=pin_factory)))
        except Exception:
            self.close()
            raise
        width = len(self._columns)
        self._plan = [[] for _ in self._rows]
        for channel, hole in channels.items():
            if not 0 <= channel < len(self._rows) * width:
                self.close()
                raise ValueError(f"channel {channel} ({hole}) is outside the "
                                 f"{len(self._rows)}x{width} matrix")
            row, column = divmod(channel, width)
            self._plan[row].append((hole, self._columns[column]))
        self._holes = tuple(channels[ch] for ch in sorted(channels))
        self._settle = settle_us / 1e6

    @property
    def holes(self) -> tuple[str, ...]:
        return self._holes

    def read(self) -> Scan:
        occupied = {}
        try:
            for row, plan in zip(self._rows, self._plan):
                row.on()
                if self._settle:
                    time.sleep(self._settle)
                for hole, column in plan:
                    occupied[hole] = bool(column.value)
                row.off()
        except OSError as error:
            raise DisconnectError(f"{self._label}: lost while scanning: "
                                  f"{gpio_problem(error)}") from error
        return Scan(occupied)

    def close(self) -> None:
        for device in self._rows + self._columns:
            device.close()


def import_gpiozero(where: str):
    """The gpiozero module, or a :class:`DeviceError` saying it is not installed."""
    try:
        import gpiozero
    except ImportError as error:
        raise DeviceError(f"{where}: the gpiozero library is not installed "
                          f"({install_extra('pi')})") from error
    return gpiozero


def open_gpio(where: str, make: Callable[[], T]) -> T:
    """``make()`` a gpiozero device; any failure becomes a :class:`DeviceError` reading
    ``WHERE: CAUSE`` with the original exception chained.

    The first device opened makes gpiozero choose a pin factory, warning
    ``PinFactoryFallback`` for each library it could not load. Those warnings would
    be lines of noise on stderr: when every factory failed they are the cause and go
    into the error's one line; when one worked they are logged. Other warnings pass.
    """
    failure = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            device = make()
        except Exception as error:
            failure = error
    fallbacks = [str(w.message) for w in caught if _is_fallback(w.message)]
    for w in caught:
        if not _is_fallback(w.message):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno,
                                   source=w.source)
    if failure is not None:
        raise DeviceError(f"{where}: {gpio_problem(failure, fallbacks)}") from failure
    for fallback in fallbacks:
        log.warning("gpiozero: %s", fallback)
    return device


def _is_fallback(message: Warning | str) -> bool:
    return type(message).__name__ in ("PinFactoryFallback", "NativePinFactoryFallback")


def gpio_problem(error: BaseException, fallbacks: Iterable[str] = ()) -> str:
    """What went wrong with a GPIO pin, as a phrase for a one-line message."""
    name = type(error).__name__
    for text in (describe(error), *fallbacks):
        pipe = pipe_problem(text)
        if pipe is not None:  # the cause, where gpiozero would say only what it then tried
            return f"{pipe}: {PIPE_FIX}"
    if name == "BadPinFactory" and fallbacks:
        tried = "; ".join(f.removeprefix("Falling back from ") for f in fallbacks)
        return f"no GPIO on this machine: gpiozero could load no pin factory ({tried})"
    if name == "PinUnknownPi":
        return f"no GPIO on this machine, which is not a Raspberry Pi ({describe(error)})"
    if isinstance(error, PermissionError):
        return (f"permission denied on {error.filename or 'the GPIO device'}: "
                f"add the user to the gpio group")
    if isinstance(error, ImportError) and error.name:
        return (f"the {error.name} library that gpiozero was told to use is not installed "
                f"({describe(error)})")
    if name == "error" and type(error).__module__ == "lgpio":
        text = describe(error)
        if "busy" in text.lower():
            return f"lgpio: {text} (is another program using the pin?)"
        if "gpiochip" in text.lower():
            return f"lgpio: {text} (is the user in the gpio group?)"
        return f"lgpio: {text}"
    if type(error).__module__.startswith("gpiozero"):
        return describe(error)
    return f"{name}: {describe(error)}"
