"""The sensor microcontroller over USB serial: a sensor source, and LEDs it may drive.

A Pico under the board (firmware) scans the sensors and speaks the wire protocol
of :mod:`firmware.wire` (hardware/protocol.md). One :class:`Link` per port holds the
open port, decodes what the device says and keeps what the host may believe:

- the pipeline sees a channel's state only if a SNAPSHOT or CHANGE that checked said it;
- a gap in the device's sequence numbers or a dropped frame makes the link ask for a
  SNAPSHOT and ignore CHANGEs until it comes; the snapshot is then the truth, and what
  differs from what the host believed becomes ordinary changes at that time;
- no valid frame for 3 s (the device sends a SNAPSHOT at least once a second), or a port
  that fails, means the link is lost: :class:`SerialSensors` raises
  :class:`~app.errors.DisconnectError` (the table shows the board disconnected and
  keeps the game) while the link reopens the port with back-off and asks for HELLO.

A board of analog hall sensors also reads with the thresholds its profile gives
(``[sensors.thresholds]``, which ``tabletop sensors calibrate`` writes): the link sends
them after every HELLO, and :meth:`Link.read_raw` asks such a board for raw readings.

Device times (milliseconds since its reset) become times on the host's clock
(``time.monotonic`` by default, as the table loop uses), so every change carries the
moment the device first saw it. The port is the profile's ``sensors.port``: a device
path, ``auto`` (the udev name ``/dev/tabletop-sensors`` that ``systemd/`` installs, else
the first USB device with the Pico's MicroPython vendor and product id, 2e8a:0005),
``usb:VID:PID``, or any URL pyserial opens.
"""

from __future__ import annotations

import collections
import logging
import os
import time
from collections.abc import Callable, Mapping

from app.errors import DeviceError, DisconnectError, describe, install_extra
from firmware import wire
from app.hardware.leds import Colour, LedStrip
from app.hardware.profile import HallThresholds, Profile
from app.hardware.sensors import Scan, SensorSource
from engines.core import PLAYERS

log = logging.getLogger(__name__)

#: The states of a channel with a piece on it, in the order of the players whose pieces
#: they are (north pole up for the first; a colour-blind board says OCCUPIED for both).
PIECE = (wire.OCCUPIED, wire.SOUTH)
#: MicroPython's USB serial on a Raspberry Pi Pico.
PICO_VID, PICO_PID = 0x2E8A, 0x0005
#: The name systemd/99-tabletop.rules gives the Pico.
UDEV_NAME = "/dev/tabletop-sensors"
#: No valid frame for this long and the link is lost (the protocol's 3 s).
SILENCE_S = 3.0
#: How long opening waits for HELLO and the first SNAPSHOT.
HELLO_WAIT_S = 3.0
#: Waits between attempts to reopen a lost port, then the last one again and again.
BACKOFF_S = (0.25, 0.5, 1.0, 2.0, 4.0, 5.0)
#: An unanswered SNAPSHOT_REQUEST is sent again after this long.
RESYNC_S = 0.25
#: How long a RAW_REQUEST waits for its answer: a USB round trip is milliseconds.
RAW_WAIT_S = 1.0
#: What the host asks of the firmware: a short debounce (the pipeline debounces too,
#: from the moment the device first saw a change) and 200 scans a second.
DEBOUNCE_MS, SCAN_HZ = 10, 200
#: How far the device's clock may drift against the host's (crystals: 100 ppm; USB
#: delays only ever make a frame look later, so the smallest offset seen is the best).
DRIFT = 1e-3


def find_port(spec: str, label: str = "sensor board") -> str:
    """The port ``spec`` names; ``auto`` and ``usb:VID:PID`` are looked for."""
    spec = spec.strip()
    if spec != "auto" and not spec.startswith("usb:"):
        return spec
    if spec == "auto":
        if os.path.exists(UDEV_NAME):
            return UDEV_NAME
        vid, pid = PICO_VID, PICO_PID
    else:
        try:
            vid, pid = (int(part, 16) for part in spec[4:].split(":"))
        except ValueError:
            raise DeviceError(f"{label}: port {spec!r}: write usb:VID:PID in hex, "
                              f"such as usb:2e8a:0005") from None
    list_ports = _serial_module(label, "serial.tools.list_ports")
    found = sorted(p.device for p in list_ports.comports() if (p.vid, p.pid) == (vid, pid))
    if not found:
        where = f"{UDEV_NAME} or " if spec == "auto" else ""
        raise DeviceError(f"{label}: no sensor board found ({where}a USB device "
                          f"{vid:04x}:{pid:04x}): is it plugged in?")
    return found[0]


def _serial_module(label: str, name: str = "serial"):
    try:
        import importlib
        return importlib.import_module(name)
    except ImportError as error:
        raise DeviceError(f"{label}: the pyserial library is not installed "
                          f"({install_extra('pi')})") from error


def open_port(spec: str, baudrate: int):
    """pyserial's port for ``spec`` (a path or URL), non-blocking reads."""
    serial = _serial_module("sensor board")
    return serial.serial_for_url(spec, baudrate=baudrate, timeout=0, write_timeout=0.5,
                                 exclusive=True)


class Link:
    """One port to the sensor board: framing, sequence, snapshots, reconnection."""

    def __init__(self, spec: str, *, baudrate: int = 115200, label: str = "sensor board",
                 channels: int = 0, opener: Callable | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 debounce_ms: int = DEBOUNCE_MS, scan_hz: int = SCAN_HZ,
                 thresholds: HallThresholds | None = None) -> None:
        self.spec, self.baudrate, self.label = spec, baudrate, label
        self.needs = channels  # channels the profile reads
        self.opener = opener or open_port
        self.clock = clock
        self.config = (debounce_ms, scan_hz)
        self.thresholds = thresholds
        _need_cobs(label)
        self.codec = wire.host_codec()
        self.decoder = wire.Decoder(self.codec)
        self.counter = wire.Counter()
        self.port = None
        self.path = ""
        self.users = 0
        #: (rows, cols, flags, version) of the last HELLO, None before one.
        self.hello: tuple[int, int, int, str] | None = None
        #: Channel states the host believes, None before the first SNAPSHOT.
        self.states: list[int] | None = None
        self.trusted = False
        #: Why the link is down ("" while it is up).
        self.lost = "not opened yet"
        #: Changes believed, in order: (number, host time, channel, state); the
        #: number counts every change since the link was made.
        self.changes: collections.deque = collections.deque(maxlen=100_000)
        self.counted = 0
        #: SNAPSHOTs taken so far, and the host time of the last.
        self.snapshots = 0
        self.snapshot_t = 0.0
        self.leds: bytes | None = None  # the last LED frame (G, R, B per LED)
        self.pongs: list[int] = []
        self.device_errors: list[tuple[int, str]] = []
        self.errors_heard = 0  # ERRORs ever, where device_errors keeps the last 20
        self.raw: list[tuple[int, int]] | None = None  # the last RAW: (channel, reading)
        self.reconnects = 0
        self._attempts = 0
        self._next_attempt = 0.0
        self._heard = 0.0
        self._asked = None  # when a SNAPSHOT_REQUEST went out, while untrusted
        self._drops = 0
        self._dev_last = None  # device clock: last time_ms, and the unwrapped total
        self._dev_total = 0
        self._offset = None
        self._offset_at = 0.0
        self._last_t = 0.0

    # --- opening and losing the port ----------------------------------------------------
    def connect(self, wait_s: float = HELLO_WAIT_S, sleep=time.sleep) -> None:
        """Open the port and wait for HELLO and a SNAPSHOT; a port that will not open
        or a device that does not answer is a :class:`DeviceError`."""
        self._open()
        if self.port is None:
            raise DeviceError(f"{self.label}: {self.lost}")
        deadline = self.clock() + wait_s
        while not self.up:
            self.poll()
            if self.port is None and self.lost:
                raise DeviceError(f"{self.label}: {self.lost}")
            if self.clock() >= deadline:
                self.close()
                raise DeviceError(f"{self.label}: no answer from the sensor board on "
                                  f"{self.path} within {wait_s:g} s: is the tabletop "
                                  f"firmware on it?")
            sleep(0.005)

    @property
    def up(self) -> bool:
        """Whether the host has a snapshot it trusts of a device that answers."""
        return self.port is not None and not self.lost and self.states is not None

    def _open(self) -> None:
        now = self.clock()
        try:
            self.path = find_port(self.spec, self.label)
            self.port = self.opener(self.path, self.baudrate)
        except DeviceError as error:
            self._down(str(error).removeprefix(f"{self.label}: "), now)
            return
        except OSError as error:  # pyserial's SerialException too: no port, busy, denied
            self._down(f"cannot open {self.path or self.spec}: {_port_problem(error)}", now)
            return
        log.info("%s: opened %s", self.label, self.path)
        self.decoder.reset()
        self.hello, self.trusted, self._asked = None, False, None
        self._dev_last, self._offset = None, None
        self._heard = now
        self.lost = "waiting for the sensor board to say hello"
        self.send(wire.HELLO_REQUEST)

    def _down(self, reason: str, now: float) -> None:
        """The port is gone (or would not open): try again after the next back-off."""
        self._close_port()
        if not self.lost or self.lost.startswith("waiting"):
            log.warning("%s: link lost: %s", self.label, reason)
        self.lost = reason
        self.trusted = False
        delay = BACKOFF_S[min(self._attempts, len(BACKOFF_S) - 1)]
        self._attempts += 1
        self._next_attempt = now + delay

    def close(self) -> None:
        self._close_port()
        self.lost = "closed"

    def _close_port(self) -> None:
        """Close the port if open; one already gone with its device (an unplugged USB
        board) may fail to close, which changes nothing (pyserial's errors are OSErrors)."""
        if self.port is not None:
            try:
                self.port.close()
            except OSError:
                pass
            self.port = None

    # --- talking ----------------------------------------------------------------------
    def send(self, kind: int, payload: bytes = b"") -> bool:
        """Send one packet; ``False`` (and the link lost) if the port fails."""
        if self.port is None:
            return False
        try:
            self.port.write(wire.frame(self.codec, kind, self.counter.next(), payload))
        except OSError as error:
            self._down(f"writing to {self.path} failed: {_port_problem(error)}", self.clock())
            return False
        return True

    def show(self, grb: bytes) -> None:
        """Send an LED frame (3 bytes, G R B, per LED), in as many LEDS packets as it
        takes; it is kept and sent again whenever the device says hello."""
        self.leds = bytes(grb)
        if self.hello is not None and self.hello[2] & wire.FLAG_LEDS:
            self._send_leds()

    def _send_leds(self) -> None:
        step = 3 * wire.MAX_LEDS_PER_PACKET
        for start in range(0, len(self.leds), step):
            if not self.send(wire.LEDS, wire.leds_payload(start // 3,
                                                          self.leds[start:start + step])):
                return

    def read_raw(self, channels: list[int], wait_s: float = RAW_WAIT_S,
                 sleep=time.sleep) -> list[int]:
        """One raw reading of each of ``channels``, in their order (RAW_REQUEST, which a
        board of analog sensors answers). A board that refuses, that does not answer
        within ``wait_s``, or a link that goes down meanwhile, is a
        :class:`DeviceError`."""
        channels = list(channels)
        self.raw = None
        heard = self.errors_heard
        if not self.send(wire.RAW_REQUEST, wire.raw_request_payload(channels)):
            raise DeviceError(f"{self.label}: {self.lost}")
        deadline = self.clock() + wait_s
        while True:
            self.poll()
            if self.raw is not None and [channel for channel, _ in self.raw] == channels:
                return [reading for _, reading in self.raw]
            if self.errors_heard != heard:
                code, text = self.device_errors[-1]
                if code == wire.ERR_UNKNOWN_TYPE:
                    text += (": the firmware on it is older than this Tabletop; put this "
                             "one on it (tabletop firmware flash)")
                raise DeviceError(f"{self.label}: the sensor board says: {text}")
            if self.port is None:
                raise DeviceError(f"{self.label}: {self.lost}")
            if self.clock() >= deadline:
                raise DeviceError(f"{self.label}: no raw readings from the sensor board "
                                  f"on {self.path} within {wait_s:g} s")
            sleep(0.002)

    # --- listening --------------------------------------------------------------------
    def poll(self) -> None:
        """Take whatever the device sent; notice silence; reopen a lost port when due."""
        now = self.clock()
        if self.port is None:
            if self.lost != "closed" and now >= self._next_attempt:
                self.reconnects += 1
                self._open()
            return
        try:
            data = self.port.read(65536)
        except OSError as error:
            self._down(f"{self.path} went away: {_port_problem(error)}", now)
            return
        if data:
            for message in self.decoder.feed(data):
                self._heard = now
                self._take(message, now)
            drops = self.decoder.drops - self.decoder.dropped.get("duplicate", 0)
            if drops != self._drops:
                self._drops = drops
                self._distrust(now)
        if now - self._heard > SILENCE_S:
            self._down(f"no word from the sensor board on {self.path} for "
                       f"{SILENCE_S:g} s", now)
            return
        if (not self.trusted and self.hello is not None and self._asked is not None
                and now - self._asked > RESYNC_S):
            self._ask_snapshot(now)

    def _distrust(self, now: float) -> None:
        """A frame went missing: nothing counts until the next SNAPSHOT."""
        if self.trusted:
            self.trusted = False
            self._ask_snapshot(now)

    def _ask_snapshot(self, now: float) -> None:
        self._asked = now
        self.send(wire.SNAPSHOT_REQUEST)

    def _take(self, message: wire.Message, now: float) -> None:
        kind, payload = message.kind, message.payload
        if message.gap > 0:
            self._distrust(now)
        if kind == wire.HELLO:
            self._on_hello(payload, now)
        elif kind == wire.SNAPSHOT:
            self._on_snapshot(payload, now)
        elif kind == wire.CHANGE:
            self._on_change(payload, now)
        elif kind == wire.PONG:
            self.pongs.append(wire.parse_token(payload))
        elif kind == wire.RAW:
            self.raw = wire.parse_raw(payload)
        elif kind == wire.ERROR:
            code, text = wire.parse_error(payload)
            self.device_errors.append((code, text))
            del self.device_errors[:-20]
            self.errors_heard += 1
            log.warning("%s: the sensor board says: %s (error %d)", self.label, text, code)

    def _on_hello(self, payload: bytes, now: float) -> None:
        proto, rows, cols, flags, version = wire.parse_hello(payload)
        if proto != wire.PROTO_VERSION:
            self._down(f"the sensor board speaks protocol version {proto}, this "
                       f"Tabletop version {wire.PROTO_VERSION}", now)
            return
        if rows * cols < self.needs or rows * cols > wire.MAX_CHANNELS:
            self._down(f"the sensor board scans {rows} x {cols} = {rows * cols} "
                       f"channels; the profile reads {self.needs}", now)
            return
        if self.states is not None and len(self.states) != rows * cols:
            self.states = None  # another board: its first snapshot is all there is
        self.hello = (rows, cols, flags, version)
        self.trusted, self._asked = False, now
        self._dev_last, self._offset = None, None  # its clock started again
        log.info("%s: %s, %d x %d channels%s%s", self.label, version or "sensor board",
                 rows, cols, ", polarity" if flags & wire.FLAG_POLARITY else "",
                 ", drives the LEDs" if flags & wire.FLAG_LEDS else "")
        self.send(wire.CONFIG, wire.config_payload(*self.config))
        if self.thresholds is not None:
            below = wire.OCCUPIED if self.thresholds.first_reads == "low" else wire.SOUTH
            self.send(wire.THRESHOLDS, wire.thresholds_payload(
                self.thresholds.low, self.thresholds.high, below))
        if self.leds is not None and flags & wire.FLAG_LEDS:
            self._send_leds()

    def _on_snapshot(self, payload: bytes, now: float) -> None:
        if self.hello is None:
            if self._asked is None or now - self._asked > RESYNC_S:
                self._asked = now
                self.send(wire.HELLO_REQUEST)
            return
        rows, cols = self.hello[:2]
        try:
            time_ms, states = wire.parse_snapshot(payload, rows * cols)
        except wire.WireError as error:
            self.decoder._drop(error.reason)
            return
        t = self._host_time(time_ms, now, sent_now=True)
        old = self.states
        for channel, state in enumerate(states):
            if old is not None and old[channel] != state:
                self._changed(t, channel, state)
        self.states = states
        self.snapshots += 1
        self.snapshot_t = t
        self.trusted, self._asked = True, None
        if self.lost:
            if self.reconnects:
                log.info("%s: the sensor board answers again on %s", self.label, self.path)
            self.lost = ""
            self._attempts = 0

    def _on_change(self, payload: bytes, now: float) -> None:
        if not self.trusted or self.states is None:
            return
        try:
            time_ms, channel, state = wire.parse_change(payload)
        except wire.WireError as error:
            self.decoder._drop(error.reason)
            self._distrust(now)
            return
        if channel >= len(self.states):
            self.decoder._drop("channel")
            self._distrust(now)
            return
        t = self._host_time(time_ms, now, sent_now=False)
        if self.states[channel] != state:
            self.states[channel] = state
            self._changed(t, channel, state)

    def _changed(self, t: float, channel: int, state: int) -> None:
        self.counted += 1
        self.changes.append((self.counted, t, channel, state))

    def _host_time(self, time_ms: int, now: float, *, sent_now: bool) -> float:
        """The host's time of the device's ``time_ms``, never later than ``now`` nor
        earlier than a change already reported."""
        if self._dev_last is None:
            self._dev_total = time_ms
        else:
            self._dev_total += ((time_ms - self._dev_last + 2**31) % 2**32) - 2**31
        self._dev_last = time_ms
        device_s = self._dev_total / 1000
        if sent_now or self._offset is None:
            seen = now - device_s
            if self._offset is None:
                self._offset = seen
            else:
                self._offset = min(self._offset + DRIFT * (now - self._offset_at), seen)
            self._offset_at = now
        t = min(now, max(self._last_t, device_s + self._offset))
        self._last_t = t
        return t


def _need_cobs(label: str) -> None:
    import importlib.util
    if importlib.util.find_spec("cobs") is None:
        raise DeviceError(f"{label}: the cobs library is not installed "
                          f"({install_extra('pi')})")


def _port_problem(error: BaseException) -> str:
    if isinstance(error, PermissionError) or "Permission denied" in str(error):
        return "permission denied: add the user to the dialout group"
    if isinstance(error, FileNotFoundError) or "No such file" in str(error):
        return "no such device: is the sensor board plugged in?"
    if "returned no data" in str(error) or getattr(error, "errno", None) == 5:
        return "disconnected (the cable pulled, or the board reset)"
    return describe(error)


# --- the shared links: the sensors and the LEDs of one board use one port --------------

_LINKS: dict[str, Link] = {}


def open_link(profile: Profile, *, opener: Callable | None = None,
              clock: Callable[[], float] = time.monotonic, wait_s: float = HELLO_WAIT_S,
              sleep=time.sleep) -> Link:
    """The link to ``profile``'s sensor board, opened (and waited for) if it is not
    open already; every user calls :func:`release` when done."""
    config = profile.sensors
    link = _LINKS.get(config.port)
    if link is None:
        channels = max(profile.channels(), default=-1) + 1
        link = Link(config.port, baudrate=config.baudrate, channels=channels,
                    label=f"profile {profile.name}: sensor board", opener=opener,
                    clock=clock, thresholds=config.thresholds)
        link.connect(wait_s, sleep)
        _LINKS[config.port] = link
    link.users += 1
    return link


def release(link: Link) -> None:
    link.users -= 1
    if link.users <= 0:
        link.close()
        for key, value in list(_LINKS.items()):
            if value is link:
                del _LINKS[key]


class TimedScan(Scan):
    """A :class:`Scan` that also says when each hole last changed (host clock, as the
    device saw the change), and which holes read a fault."""

    def __init__(self, occupied, colours=(), times=(), faults=()) -> None:
        super().__init__(occupied, colours)
        self.times = dict(times)
        self.faults = frozenset(faults)


class SerialSensors(SensorSource):
    """The sensor board over USB serial, behind the same interface as the GPIO matrix.

    ``channels`` maps the device's channels to holes (the profile's). State 1 is a
    piece (the first player's colour, ``b``, when sensing colour), 2 a piece south pole
    up (the second colour, ``w``), 3 a channel the device cannot read, reported empty
    and listed in the scan's ``faults``."""

    def __init__(self, link: Link, channels: Mapping[int, str], *, colour: bool = False,
                 label: str = "sensor board") -> None:
        self.link = link
        self.label = label
        self._channels = dict(channels)
        self._holes = tuple(channels[ch] for ch in sorted(channels))
        self.colour_sensing = colour
        if colour and link.hello is not None and not link.hello[2] & wire.FLAG_POLARITY:
            release(link)
            raise DeviceError(f"{label}: the profile senses colour but the sensor board "
                              f"on {link.path} does not sense polarity")
        self._state = {hole: wire.EMPTY for hole in self._holes}
        self._times: dict[str, float] = {}
        self._events: collections.deque = collections.deque(maxlen=100_000)
        self._taken = 0  # the link's changes taken so far
        self._snapshots = 0  # and its snapshots
        self._scan = None
        self._warned: set[str] = set()

    @property
    def holes(self) -> tuple[str, ...]:
        return self._holes

    def read(self) -> Scan:
        """The board as the device last reported it; :class:`DisconnectError` while
        the link is down (it reconnects on its own: keep reading)."""
        link = self.link
        link.poll()
        if not link.up:
            raise DisconnectError(f"{self.label}: {link.lost}; reconnecting")
        if link.counted != self._taken:
            for number, t, channel, state in link.changes:
                if number > self._taken:
                    self._set(channel, state, t)
            self._taken = link.counted
        if link.snapshots != self._snapshots:
            # What the changes may not have said (the first snapshot, a board that
            # came back with other dimensions): the snapshot is the truth.
            self._snapshots = link.snapshots
            for channel in self._channels:
                if channel < len(link.states):
                    self._set(channel, link.states[channel], link.snapshot_t)
        if self._scan is None:
            self._scan = self._make_scan()
        return self._scan

    def _set(self, channel: int, state: int, t: float) -> None:
        hole = self._channels.get(channel)
        if hole is None or self._state[hole] == state:
            return
        self._state[hole] = state
        self._times[hole] = t
        self._events.append((t, hole, state in PIECE, self._colour(state)))
        self._scan = None
        if state == wire.FAULT and hole not in self._warned:
            self._warned.add(hole)
            log.warning("%s: the sensor under %s cannot be read (a fault)", self.label, hole)

    def _colour(self, state: int) -> str | None:
        if not self.colour_sensing or state not in PIECE:
            return None
        return PLAYERS[PIECE.index(state)]

    def _make_scan(self) -> TimedScan:
        occupied = {hole: self._state[hole] in PIECE for hole in self._holes}
        colours = {}
        if self.colour_sensing:
            colours = {hole: self._colour(s) for hole, s in self._state.items() if s in PIECE}
        faults = [hole for hole, s in self._state.items() if s == 3]
        return TimedScan(occupied, colours, self._times, faults)

    def drain(self) -> list[tuple[float, str, bool, str | None]]:
        """Every change since the last call, in order: (host time the device first saw
        it, hole, occupied, colour or None)."""
        events = list(self._events)
        self._events.clear()
        return events

    def close(self) -> None:
        if self.link is not None:
            release(self.link)
            self.link = None


class SerialStrip(LedStrip):
    """LEDs the sensor board drives: each frame (gamma, brightness and the current cap
    applied, as every strip does) goes out as LEDS packets, G R B per LED. A frame sent
    while the link is down is kept and sent when the device says hello again, so the
    table loop never stops for the LEDs; the sensors report the disconnection."""

    def __init__(self, count: int, link: Link, *, label: str = "LEDs", **kwargs) -> None:
        super().__init__(count, **kwargs)
        self.link = link
        self._where = f"{label} (on the sensor board)"
        if link.hello is not None and not link.hello[2] & wire.FLAG_LEDS:
            release(link)
            raise DeviceError(f"{self._where}: the sensor board on {link.path} does not "
                              f"drive LEDs (leds = 0 in its tt_board.py)")

    def _write(self, frame: list[Colour]) -> None:
        grb = bytearray()
        for r, g, b in frame:
            grb += bytes((g, r, b))
        self.link.show(bytes(grb))

    def _release(self) -> None:
        if self.link is not None:
            release(self.link)
            self.link = None


def open_serial_sensors(profile: Profile, **kwargs) -> SerialSensors:
    """The sensor source of a profile whose ``sensors.driver`` is ``serial``."""
    link = open_link(profile, **kwargs)
    return SerialSensors(link, profile.channels(), colour=profile.sensors.colour,
                         label=f"profile {profile.name}: sensor board")


def open_serial_strip(profile: Profile, *, brightness: float | None = None,
                      **kwargs) -> SerialStrip:
    """The LED strip of a profile whose LEDs the sensor board drives (the line
    ``open_strip`` needs for an LED driver ``serial``)."""
    link = open_link(profile, **kwargs)
    return SerialStrip(profile.led_count, link, label=f"profile {profile.name}: LEDs",
                       brightness=profile.brightness if brightness is None else brightness,
                       max_ma=profile.max_ma)
