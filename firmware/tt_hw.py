"""The Pico's hardware, each part behind a small class the device logic calls.

Scanners fill ``out`` (a bytearray, one byte per channel, ``channel = row * cols + col``)
with raw channel states (0 empty, 1 occupied, 2 occupied south pole up, 3 fault):

- :class:`DiodeMatrix`: switches with diodes at row and column crossings (up to 16x16),
  one row driven high at a time, the columns read with pull-downs;
- :class:`ShiftChain`: a chain of 74HC165 shift registers, 8 inputs each;
- :class:`HallMatrix`: analog hall sensors powered a row at a time, read through an
  analog multiplexer (a CD74HC4067) into the ADC: the voltage says north, south or
  nothing, and a reading stuck at a rail says the channel cannot be read. What it
  shares with every board of analog sensors (the thresholds, which the host may set,
  and one raw reading on request) is :class:`HallSensors`.

:class:`Leds` drives the LED chain with MicroPython's own ``neopixel`` module,
:class:`UsbLink` is the USB serial line, :class:`Clock` the millisecond clock. Only
these import ``machine``, ``neopixel`` and ``micropython``, and only when made, so the
tests can put stand-ins in their place.
"""

import time

try:
    _sleep_us = time.sleep_us  # MicroPython
except AttributeError:  # CPython (the tests, the virtual device): nothing settles
    def _sleep_us(us):
        pass


class DiodeMatrix:
    """A diode matrix: rows driven high one at a time, columns read with pull-downs."""

    polarity = False

    def __init__(self, row_pins, column_pins, settle_us=20):
        from machine import Pin
        if not 1 <= len(row_pins) <= 16 or not 1 <= len(column_pins) <= 16:
            raise ValueError("a matrix has 1 to 16 rows and columns")
        self.rows_out = [Pin(p, Pin.OUT, value=0) for p in row_pins]
        self.cols_in = [Pin(p, Pin.IN, Pin.PULL_DOWN) for p in column_pins]
        self.rows = len(row_pins)
        self.cols = len(column_pins)
        self.settle_us = settle_us

    def scan(self, out):
        i = 0
        for row in self.rows_out:
            row.value(1)
            if self.settle_us:
                _sleep_us(self.settle_us)
            for col in self.cols_in:
                out[i] = col.value()
                i += 1
            row.value(0)


class ShiftChain:
    """74HC165 parallel-in shift registers in a chain: ``chips`` of 8 inputs, so
    ``rows = chips`` and ``cols = 8``. Chip 0's serial output (Q7) goes to the Pico;
    input D0 of chip 0 is channel 0. With ``active_low`` (switches to ground, pull-up
    resistors) a low input means a piece."""

    polarity = False

    def __init__(self, load_pin, clock_pin, data_pin, chips, active_low=True):
        from machine import Pin
        self.load = Pin(load_pin, Pin.OUT, value=1)
        self.clock = Pin(clock_pin, Pin.OUT, value=0)
        self.data = Pin(data_pin, Pin.IN)
        self.rows = chips
        self.cols = 8
        self.active_low = active_low

    def scan(self, out):
        self.load.value(0)  # latch every input
        _sleep_us(1)
        self.load.value(1)
        flip = 1 if self.active_low else 0
        for chip in range(self.rows):
            base = chip * 8
            for bit in range(7, -1, -1):  # D7 comes out first
                out[base + bit] = self.data.value() ^ flip
                self.clock.value(1)
                self.clock.value(0)


#: A reading this near either end of the ADC's range (0-65535) is a sensor that is
#: missing, unpowered or shorted, never a magnet: a DRV5055's output stays about 0.2 V
#: (some 4000) inside its supply however strong the field.
RAIL = 1500
#: What tt_board.py's hall board reads with until the host sends thresholds: an empty
#: hole reads about half the sensor's supply (MID), a magnet more than THRESHOLD away.
MID = 32768
THRESHOLD = 6000


class HallSensors:
    """What every board of analog hall sensors shares, the Pico's and the virtual one:
    the thresholds that make a reading (0-65535) a state, and ``read(channel)``, one raw
    reading, which the host asks for to calibrate them (RAW_REQUEST).

    A reading below ``low`` is a piece in state ``below`` (1 or 2), above ``high`` a
    piece in the other state, in between nothing; within ``rail`` of either end a
    fault (3). The host sends the thresholds a calibration wrote into its profile
    (THRESHOLDS) after every HELLO, so they need not be copied into tt_board.py. A
    subclass gives ``rows``, ``cols``, ``read`` and ``scan`` (through :meth:`state`)."""

    polarity = True
    analog = True

    def __init__(self, low, high, below=1, rail=RAIL):
        self.rail = rail
        problem = self.set_thresholds(low, high, below)
        if problem:
            raise ValueError(problem)

    def set_thresholds(self, low, high, below):
        """Take these thresholds; what is wrong with them (and nothing taken), if
        anything: they must leave an empty band between the rails, and ``below`` must
        be a piece's state."""
        if below not in (1, 2):
            return "below must be state 1 or 2, not %d" % below
        if not self.rail < low < high < 65535 - self.rail:
            return "need %d < low < high < %d, not low %d, high %d" % (
                self.rail, 65535 - self.rail, low, high)
        self.low, self.high, self.below = low, high, below
        self.above = 3 - below
        return ""

    def state(self, value):
        if value < self.rail or value > 65535 - self.rail:
            return 3
        if value < self.low:
            return self.below
        if value > self.high:
            return self.above
        return 0


class HallMatrix(HallSensors):
    """Analog hall sensors (e.g. DRV5055, ratiometric), powered one row at a time
    through a transistor on each row pin, their outputs through a 16-channel analog
    multiplexer (select pins S0..S3) into one ADC pin.

    tt_board.py gives the thresholds as the build guides explain them: a reading
    within ``threshold`` of ``mid`` is no magnet; above it a south pole (``south_high``,
    as the DRV5055's output rises for a south pole at its face, state 2) or below it a
    north pole (state 1); below ``rail`` or above ``65535 - rail`` a sensor that is
    missing or shorted."""

    def __init__(self, row_pins, select_pins, adc_pin, cols, mid=MID, threshold=THRESHOLD,
                 rail=RAIL, south_high=True, settle_us=200):
        from machine import ADC, Pin
        if not 1 <= cols <= 1 << len(select_pins):
            raise ValueError("%d select pins pick at most %d columns"
                             % (len(select_pins), 1 << len(select_pins)))
        HallSensors.__init__(self, mid - threshold, mid + threshold,
                             1 if south_high else 2, rail)
        self.rows_out = [Pin(p, Pin.OUT, value=0) for p in row_pins]
        self.select = [Pin(p, Pin.OUT, value=0) for p in select_pins]
        self.adc = ADC(Pin(adc_pin))
        self.rows = len(row_pins)
        self.cols = cols
        self.settle_us = settle_us

    def _column(self, col):
        for bit in range(len(self.select)):
            self.select[bit].value((col >> bit) & 1)
        return self.adc.read_u16()

    def read(self, channel):
        """One reading of one sensor: its row powered alone, as a scan powers it."""
        row = self.rows_out[channel // self.cols]
        row.value(1)
        _sleep_us(self.settle_us)
        value = self._column(channel % self.cols)
        row.value(0)
        return value

    def scan(self, out):
        i = 0
        for row in self.rows_out:
            row.value(1)
            _sleep_us(self.settle_us)  # the sensors power up
            for col in range(self.cols):
                out[i] = self.state(self._column(col))
                i += 1
            row.value(0)


class Leds:
    """The LED chain through MicroPython's ``neopixel`` (GRB, as WS2812s take it): a
    LEDS frame's bytes go straight into its buffer."""

    def __init__(self, pin, count):
        from machine import Pin
        from neopixel import NeoPixel
        self.pixels = NeoPixel(Pin(pin, Pin.OUT), count)
        self.count = count

    def write(self, first, grb):
        self.pixels.buf[3 * first:3 * first + len(grb)] = grb

    def show(self):
        self.pixels.write()


class UsbLink:
    """The USB serial line (MicroPython's stdin and stdout). Ctrl-C on the line is data,
    not an interrupt: ``micropython.kbd_intr(-1)``, or a 0x03 in a frame would stop
    the firmware."""

    def __init__(self, stdin=None, stdout=None):
        import micropython
        import select
        import sys
        micropython.kbd_intr(-1)
        self.input = stdin or sys.stdin.buffer
        self.output = stdout or sys.stdout.buffer
        self.poll = select.poll()
        self.poll.register(stdin or sys.stdin, select.POLLIN)

    def read(self, limit=2048):
        data = bytearray()
        while len(data) < limit and self.poll.poll(0):
            byte = self.input.read(1)
            if not byte:
                break
            data.extend(byte)
        return bytes(data)

    def write(self, data):
        self.output.write(data)


class Clock:
    """Milliseconds since start, wrapping at 2**32 as the protocol's ``time_ms`` does
    (MicroPython's own ``ticks_ms`` wraps at 2**30)."""

    def __init__(self):
        self.ms_now = 0
        if hasattr(time, "ticks_ms"):
            self._ticks = time.ticks_ms
            self._diff = time.ticks_diff
        else:  # CPython
            self._ticks = lambda: int(time.monotonic() * 1000)
            self._diff = lambda a, b: a - b
        self._last = self._ticks()

    def ms(self):
        now = self._ticks()
        self.ms_now = (self.ms_now + self._diff(now, self._last)) & 0xFFFFFFFF
        self._last = now
        return self.ms_now

    def sleep_ms(self, ms):
        if hasattr(time, "sleep_ms"):
            time.sleep_ms(ms)
        else:
            time.sleep(ms / 1000)
