"""The sensor board's logic: scan, debounce, report, obey; no hardware in sight.

:class:`Device` is given small objects for everything physical (see ``tt_hw``): a
scanner that fills in one raw state per channel, a link that reads and writes bytes,
a clock in milliseconds, and optionally the LED chain. So the same code runs on the
Pico, under CPython in the tests with stand-ins, and behind a pseudo-terminal as the
virtual device. Written in MicroPython's subset of Python.

What it does (hardware/protocol.md has the bytes):

- after :meth:`Device.start` and after every HELLO_REQUEST: HELLO, then SNAPSHOT;
- every scan (``scan_hz`` a second): a channel whose raw state differs from its
  reported one and then holds for ``debounce_ms`` is reported in one CHANGE, stamped
  with the time it was first seen in that state;
- a SNAPSHOT of every reported state as a heartbeat every ``HEARTBEAT_MS``, and at once
  on SNAPSHOT_REQUEST;
- PING is answered with PONG; LEDS frames go to the LED chain; CONFIG sets the debounce
  and the scan rate; anything else is answered with ERROR;
- on a board of analog sensors (``scanner.analog``, see ``tt_hw.HallSensors``),
  THRESHOLDS sets the readings that make a state, and RAW_REQUEST is answered with one
  raw reading of each channel asked for (RAW), which is what the host calibrates from.
"""

try:
    import wire
    import tt_codec
except ImportError:
    from firmware import wire
    from firmware import tt_codec

VERSION = "tabletop-fw 1.1"
#: The SNAPSHOT heartbeat's period: twice as often as the protocol's once a second.
HEARTBEAT_MS = 500
DEBOUNCE_MS = 10
SCAN_HZ = 200
MAX_SCAN_HZ = 2000
MAX_DEBOUNCE_MS = 5000
_NONE = 0xFF  # no state waiting to be confirmed on a channel
_WRAP = 0xFFFFFFFF


def _since(now, then):
    """Milliseconds from ``then`` to ``now`` on a clock that wraps at 2**32."""
    return (now - then) & _WRAP


class Device:
    """The firmware's state: what it reported, what it is debouncing, its sequence."""

    def __init__(self, scanner, link, clock, leds=None, codec=None, version=VERSION,
                 debounce_ms=DEBOUNCE_MS, scan_hz=SCAN_HZ):
        self.scanner = scanner
        self.link = link
        self.clock = clock
        self.leds = leds
        self.codec = codec or tt_codec.CODEC
        self.version = version
        self.debounce_ms = debounce_ms
        self.scan_hz = scan_hz
        self.channels = scanner.rows * scanner.cols
        self.stable = bytearray(self.channels)
        self.pending = bytearray(self.channels)  # (MicroPython: no bytearray * int)
        for channel in range(self.channels):
            self.pending[channel] = _NONE
        self.since = [0] * self.channels
        self.waiting = 0  # channels with a state waiting to be confirmed
        self.raw = bytearray(self.channels)
        self.counter = wire.Counter()
        self.decoder = wire.Decoder(self.codec)
        self.next_scan = 0
        self.last_snapshot = 0
        self.leds_dirty = False
        self.errors_sent = 0

    # --- sending ------------------------------------------------------------------------
    def send(self, kind, payload=b""):
        self.link.write(wire.frame(self.codec, kind, self.counter.next(), payload))

    def hello(self):
        flags = 0
        if self.scanner.polarity:
            flags |= wire.FLAG_POLARITY
        if self.leds is not None:
            flags |= wire.FLAG_LEDS
        self.send(wire.HELLO, wire.hello_payload(self.scanner.rows, self.scanner.cols,
                                                 flags, self.version))

    def snapshot(self, now):
        self.last_snapshot = now
        self.send(wire.SNAPSHOT, wire.snapshot_payload(now, self.stable))

    def error(self, code, text):
        self.errors_sent += 1
        self.send(wire.ERROR, wire.error_payload(code, text))

    # --- the loop -------------------------------------------------------------------------
    def start(self):
        """After reset: a first scan taken as it is (nothing to debounce against yet),
        then HELLO and SNAPSHOT."""
        now = self.clock.ms()
        self.rescan()
        self.hello()
        self.snapshot(now)
        self.next_scan = now

    def rescan(self):
        """Scan and take what is read as reported, with nothing left to debounce."""
        self.scanner.scan(self.raw)
        self.stable[:] = self.raw
        for channel in range(self.channels):
            self.pending[channel] = _NONE
        self.waiting = 0

    def step(self):
        """One turn: obey what the host sent, scan when due, send the heartbeat when
        due. Returns how many milliseconds may pass before the next turn is needed."""
        self.receive(self.link.read())
        now = self.clock.ms()
        period = max(1, 1000 // self.scan_hz)
        if _since(now, self.next_scan) < 0x80000000:  # due (or late)
            self.scan(now)
            self.next_scan = (now + period) & _WRAP
        if _since(now, self.last_snapshot) >= HEARTBEAT_MS:
            self.snapshot(now)
        if self.leds_dirty:
            self.leds_dirty = False
            self.leds.show()
        wait = _since(self.next_scan, self.clock.ms())
        return 0 if wait >= 0x80000000 else min(wait, period)

    def scan(self, now):
        raw = self.raw
        self.scanner.scan(raw)
        if not self.waiting and raw == self.stable:
            return  # the usual case, compared at C speed
        stable, pending, since = self.stable, self.pending, self.since
        debounce = self.debounce_ms
        for channel in range(self.channels):
            state = raw[channel]
            if state == stable[channel]:
                if pending[channel] != _NONE:
                    pending[channel] = _NONE
                    self.waiting -= 1
                continue
            if pending[channel] != state:
                if pending[channel] == _NONE:
                    self.waiting += 1
                pending[channel] = state
                since[channel] = now
            if _since(now, since[channel]) >= debounce:
                stable[channel] = state
                pending[channel] = _NONE
                self.waiting -= 1
                self.send(wire.CHANGE, wire.change_payload(since[channel], channel, state))

    # --- what the host asks ----------------------------------------------------------------
    def receive(self, data):
        if not data:
            return
        for message in self.decoder.feed(data):
            self.obey(message.kind, message.payload)

    def obey(self, kind, payload):
        if kind == wire.HELLO_REQUEST:
            self.hello()
            self.snapshot(self.clock.ms())
        elif kind == wire.SNAPSHOT_REQUEST:
            self.snapshot(self.clock.ms())
        elif kind == wire.PING:
            self.send(wire.PONG, payload)
        elif kind == wire.LEDS:
            self.show_leds(payload)
        elif kind == wire.CONFIG:
            debounce, hz = wire.parse_config(payload)
            if debounce > MAX_DEBOUNCE_MS or not 1 <= hz <= MAX_SCAN_HZ:
                self.error(wire.ERR_BAD_VALUE, "CONFIG: debounce 0-%d ms, scan 1-%d Hz"
                           % (MAX_DEBOUNCE_MS, MAX_SCAN_HZ))
                return
            self.debounce_ms, self.scan_hz = debounce, hz
        elif kind == wire.THRESHOLDS:
            self.thresholds(payload)
        elif kind == wire.RAW_REQUEST:
            self.raw_readings(payload)
        else:
            self.error(wire.ERR_UNKNOWN_TYPE, "unknown type 0x%02x" % kind)

    def analog(self, what):
        """Whether the sensors give analog readings; ERROR if they do not."""
        if getattr(self.scanner, "analog", False):
            return True
        self.error(wire.ERR_NOT_ANALOG, "%s: this board's sensors give no analog readings"
                   % what)
        return False

    def thresholds(self, payload):
        """New thresholds change how every channel reads at once, not as a piece moved:
        the device scans with them and takes that scan as it is, as after a reset, and
        sends it as a SNAPSHOT, so that the host never sees a channel half-way between
        the old reading and the new."""
        if not self.analog("THRESHOLDS"):
            return
        problem = self.scanner.set_thresholds(*wire.parse_thresholds(payload))
        if problem:
            self.error(wire.ERR_BAD_VALUE, "THRESHOLDS: " + problem)
            return
        self.rescan()
        self.snapshot(self.clock.ms())

    def raw_readings(self, payload):
        if not self.analog("RAW_REQUEST"):
            return
        channels = wire.parse_raw_request(payload)
        for channel in channels:
            if channel >= self.channels:
                self.error(wire.ERR_BAD_VALUE, "RAW_REQUEST: channel %d: the board has %d"
                           % (channel, self.channels))
                return
        self.send(wire.RAW, wire.raw_payload([(channel, self.scanner.read(channel))
                                              for channel in channels]))

    def show_leds(self, payload):
        if self.leds is None:
            self.error(wire.ERR_NO_LEDS, "this board does not drive the LEDs")
            return
        first, grb = wire.parse_leds(payload)
        count = len(grb) // 3
        fits = max(0, min(count, self.leds.count - first))
        if fits:
            self.leds.write(first, grb[:3 * fits])
            self.leds_dirty = True
        if fits < count:
            self.error(wire.ERR_BAD_VALUE, "LEDS %d-%d: the chain has %d"
                       % (first, first + count - 1, self.leds.count))

    def run(self, forever=True):
        """Start, then turn for ever (the Pico's main loop)."""
        self.start()
        while forever:
            wait = self.step()
            if wait:
                self.clock.sleep_ms(wait)
