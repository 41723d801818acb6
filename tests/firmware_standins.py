"""Small stand-ins for MicroPython's ``machine``, ``neopixel`` and ``micropython``
modules, a simulated board behind the pins, a clock the test moves, and a link the test
reads and writes: enough to run the firmware's own code under CPython.

``install(monkeypatch)`` puts the modules in ``sys.modules`` and returns the
:class:`World` they report to. The world's ``board`` answers the input pins: a
:class:`MatrixBoard` (switches with diodes), a :class:`ShiftBoard` (74HC165s) or a
:class:`HallBoard` (analog hall sensors behind a multiplexer).
"""

from __future__ import annotations

import sys
import types

from firmware import tt_hw


class World:
    """Everything the stand-in modules touch: pins by number, the board, the LEDs."""

    def __init__(self) -> None:
        self.pins: dict[int, "Pin"] = {}
        self.board = None
        self.strips: list["NeoPixel"] = []
        self.kbd_intr: list[int] = []
        self.watchdogs: list["WDT"] = []

    def level(self, pin: int) -> int:
        """What an output pin drives (0 when it is not an output)."""
        found = self.pins.get(pin)
        return found._value if found is not None and found.mode == Pin.OUT else 0


WORLD = World()


class Pin:
    IN, OUT = 0, 1
    PULL_UP, PULL_DOWN = 1, 2

    def __init__(self, pin, mode=-1, pull=-1, *, value=None):
        self.id, self.mode, self.pull = pin, mode, pull
        self._value = value or 0
        WORLD.pins[pin] = self

    def value(self, v=None):
        if v is None:
            if self.mode == Pin.OUT:
                return self._value
            level = WORLD.board.read(self.id) if WORLD.board else None
            if level is None:  # nothing on the board drives it: the pull decides
                level = 1 if self.pull == Pin.PULL_UP else 0
            return level
        self._value = 1 if v else 0
        if WORLD.board is not None and hasattr(WORLD.board, "written"):
            WORLD.board.written(self.id, self._value)


class ADC:
    def __init__(self, pin):
        self.pin = pin.id if isinstance(pin, Pin) else pin

    def read_u16(self):
        return WORLD.board.analog(self.pin)


class WDT:
    def __init__(self, id=0, timeout=5000):
        self.timeout, self.feeds = timeout, 0
        WORLD.watchdogs.append(self)

    def feed(self):
        self.feeds += 1


class NeoPixel:
    """MicroPython's neopixel.NeoPixel: a GRB buffer and ``write``."""

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin, self.n = pin, n
        self.buf = bytearray(n * bpp)
        self.shown: list[bytes] = []
        WORLD.strips.append(self)

    def write(self):
        self.shown.append(bytes(self.buf))


def install(monkeypatch) -> World:
    """A fresh world, and the stand-in modules in ``sys.modules`` for this test."""
    global WORLD
    WORLD = World()
    machine = types.ModuleType("machine")
    machine.Pin, machine.ADC, machine.WDT = Pin, ADC, WDT
    neopixel = types.ModuleType("neopixel")
    neopixel.NeoPixel = NeoPixel
    micropython = types.ModuleType("micropython")
    micropython.kbd_intr = WORLD.kbd_intr.append
    micropython.const = lambda value: value
    for module in (machine, neopixel, micropython):
        monkeypatch.setitem(sys.modules, module.__name__, module)
    return WORLD


class MatrixBoard:
    """Switches at row and column crossings, each with its diode: a column reads high
    when a driven row has a closed switch on it."""

    def __init__(self, row_pins, column_pins) -> None:
        self.row_pins, self.column_pins = list(row_pins), list(column_pins)
        self.closed: set[tuple[int, int]] = set()

    def set(self, channel: int, on: bool) -> None:
        cell = divmod(channel, len(self.column_pins))
        (self.closed.add if on else self.closed.discard)(cell)

    def read(self, pin: int) -> int | None:
        if pin not in self.column_pins:
            return None
        col = self.column_pins.index(pin)
        return int(any(WORLD.level(p) and (r, col) in self.closed
                       for r, p in enumerate(self.row_pins)))


class ShiftBoard:
    """A chain of 74HC165s: load low latches every input, each rising clock shifts."""

    def __init__(self, load_pin, clock_pin, data_pin, chips, active_low=True) -> None:
        self.load_pin, self.clock_pin, self.data_pin = load_pin, clock_pin, data_pin
        self.chips, self.active_low = chips, active_low
        self.on: set[int] = set()
        self.bits: list[int] = []

    def set(self, channel: int, on: bool) -> None:
        (self.on.add if on else self.on.discard)(channel)

    def _level(self, channel):
        return int((channel in self.on) != self.active_low)

    def written(self, pin: int, value: int) -> None:
        if pin == self.load_pin and value == 0:
            # Chip 0's D7 comes out first, then D6 ... D0, then chip 1's D7.
            self.bits = [self._level(chip * 8 + bit) for chip in range(self.chips)
                         for bit in range(7, -1, -1)]
        elif pin == self.clock_pin and value == 1 and self.bits:
            self.bits.pop(0)

    def read(self, pin: int) -> int:
        assert pin == self.data_pin
        return self.bits[0] if self.bits else 0


class HallBoard:
    """Analog hall sensors: a powered row, the multiplexer's column, the voltage."""

    MID, NORTH, SOUTH = 32768, 20000, 46000

    def __init__(self, row_pins, select_pins, adc_pin, cols) -> None:
        self.row_pins, self.select_pins, self.adc_pin = row_pins, select_pins, adc_pin
        self.cols = cols
        self.values: dict[int, int] = {}

    def set(self, channel: int, value: int) -> None:
        self.values[channel] = value

    def read(self, pin):
        return 0

    def analog(self, pin: int) -> int:
        assert pin == self.adc_pin
        rows = [r for r, p in enumerate(self.row_pins) if WORLD.level(p)]
        assert len(rows) == 1, "exactly one row powered while reading"
        col = sum(WORLD.level(p) << bit for bit, p in enumerate(self.select_pins))
        return self.values.get(rows[0] * self.cols + col, self.MID)


class FakeClock:
    """The device's millisecond clock, moved by the test (wrapping at 2**32)."""

    def __init__(self, ms: int = 0) -> None:
        self.now = ms
        self.slept: list[int] = []

    def ms(self) -> int:
        return self.now & 0xFFFFFFFF

    def advance(self, ms: int) -> None:
        self.now += ms

    def sleep_ms(self, ms: int) -> None:
        self.slept.append(ms)
        self.now += ms


class FakeLink:
    """The USB serial line from the device's side: ``send`` puts host bytes in,
    ``written`` holds everything the device wrote."""

    def __init__(self) -> None:
        self.incoming = bytearray()
        self.written = bytearray()

    def send(self, data: bytes) -> None:
        self.incoming += data

    def read(self) -> bytes:
        data, self.incoming = bytes(self.incoming), bytearray()
        return data

    def write(self, data: bytes) -> None:
        self.written += data


class FakeScanner:
    """A scanner without pins: the test sets raw states."""

    def __init__(self, rows: int, cols: int, polarity: bool = False) -> None:
        self.rows, self.cols, self.polarity = rows, cols, polarity
        self.states = bytearray(rows * cols)
        self.scans = 0

    def scan(self, out) -> None:
        out[:] = self.states
        self.scans += 1


class FakeLeds:
    def __init__(self, count: int) -> None:
        self.count = count
        self.buf = bytearray(3 * count)
        self.shown: list[bytes] = []

    def write(self, first, grb) -> None:
        self.buf[3 * first:3 * first + len(grb)] = grb

    def show(self) -> None:
        self.shown.append(bytes(self.buf))




class FakeHall(tt_hw.HallSensors):
    """Analog hall sensors without pins, through the firmware's own thresholds: the
    test sets each channel's reading."""

    def __init__(self, rows: int, cols: int) -> None:
        super().__init__(tt_hw.MID - tt_hw.THRESHOLD, tt_hw.MID + tt_hw.THRESHOLD)
        self.rows, self.cols = rows, cols
        self.readings = [tt_hw.MID] * (rows * cols)

    def read(self, channel: int) -> int:
        return self.readings[channel]

    def scan(self, out) -> None:
        for channel, value in enumerate(self.readings):
            out[channel] = self.state(value)
