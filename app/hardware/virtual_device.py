"""A virtual sensor board: the firmware's own logic behind a pseudo-terminal.

The device is :class:`firmware.tt_device.Device`, the code the Pico runs, with a
board in memory for sensors (:class:`VirtualScanner`) and a pseudo-terminal for its USB
line, stepped by a thread of its own on the real clock. The Pi's serial driver opens
the terminal like any port, so the whole path (framing, sequence numbers, snapshots,
reconnection) runs on a desktop. :class:`Noise` damages the line on the way (bytes
dropped, changed or sent twice), :meth:`VirtualDevice.unplug` closes the device's end
(the Pi then reads an error, as when a cable is pulled) and :meth:`VirtualDevice.replug`
starts a new device (just reset, as a Pico plugged in again) on a new terminal, which
the stable ``path`` (a symbolic link) points at, as udev's name does for the Pico; and
as udev's name does, it goes while the device is unplugged.

A board that senses colour is one of analog hall sensors (:class:`VirtualHall`): each
channel reads a number, as the Pico's ADC does, which the firmware's own thresholds
turn into a state; the host may set them (from a calibrated profile) and ask for raw
readings, so ``tabletop sensors calibrate`` works on it as on a Pico.
"""

from __future__ import annotations

import errno
import math
import os
import random
import threading
import time
import tty
from collections.abc import Mapping, Sequence
from pathlib import Path

from firmware import tt_device, tt_hw, wire
from app.hardware.profile import READING_MAX, HallReadings, HallThresholds, Profile

#: What a virtual hall sensor reads without a calibrated profile: an empty hole half
#: way, a piece 15000 below or above (the first player's magnets north pole down, as the
#: build guides glue them), a neighbour's piece moving a reading by 1000: what the
#: firmware's own thresholds (tt_hw.MID, THRESHOLD) read right even with a piece on
#: each of a hole's four neighbours.
DEFAULT_LEVELS = HallReadings(empty=tt_hw.MID, first_piece=tt_hw.MID - 15000,
                              second_piece=tt_hw.MID + 15000,
                              first_beside=tt_hw.MID - 1000, second_beside=tt_hw.MID + 1000)


class VirtualScanner:
    """Sensors in memory: ``set(channel, state)``; the device scans them."""

    def __init__(self, rows: int, cols: int, polarity: bool = True) -> None:
        self.rows, self.cols, self.polarity = rows, cols, polarity
        self.states = bytearray(rows * cols)

    def set(self, channel: int, state: int) -> None:
        if not 0 <= state <= 3:
            raise ValueError(f"state {state} is not 0-3")
        self.states[channel] = state

    def scan(self, out) -> None:
        out[:] = self.states


class VirtualHall(tt_hw.HallSensors):
    """Analog hall sensors in memory, read through the firmware's own thresholds
    (:class:`firmware.tt_hw.HallSensors`): ``set(channel, state)`` puts a piece there
    (1 the first player's, 2 the second's, 3 a dead sensor) or takes it off (0).

    A channel reads the ``levels`` of what lies on it (a dead sensor 0, at the rail),
    plus its own ``offsets[channel]`` (no two sensors read quite alike), plus the shift
    a piece on each of its ``neighbours`` gives it (``first_beside`` or
    ``second_beside`` less ``empty``), plus up to ``jitter`` either way (seeded noise),
    kept within 0-65535. Without jitter the states are worked out again only when
    something changed, so a scan costs what the switch board's costs."""

    def __init__(self, rows: int, cols: int, levels: HallReadings = DEFAULT_LEVELS, *,
                 neighbours: Mapping[int, Sequence[int]] | None = None, jitter: int = 0,
                 seed: int = 0) -> None:
        self._version = 0  # counts changes: the scan works the states out again after one
        self._scanned: tuple[int, bytes] | None = None
        super().__init__(tt_hw.MID - tt_hw.THRESHOLD, tt_hw.MID + tt_hw.THRESHOLD)
        self.rows, self.cols = rows, cols
        self.states = bytearray(rows * cols)
        self.offsets = [0] * (rows * cols)
        self.neighbours = {channel: tuple(near) for channel, near in (neighbours or {}).items()}
        self.jitter = jitter
        self.rng = random.Random(seed)
        self.levels = levels

    def set(self, channel: int, state: int) -> None:
        if not 0 <= state <= 3:
            raise ValueError(f"state {state} is not 0-3")
        self.states[channel] = state
        self._version += 1

    def set_offset(self, channel: int, offset: int) -> None:
        self.offsets[channel] = offset
        self._version += 1

    def set_levels(self, levels: HallReadings) -> None:
        self.levels = levels
        self._version += 1

    def set_thresholds(self, low: int, high: int, below: int) -> str:
        problem = super().set_thresholds(low, high, below)
        self._version += 1
        return problem

    def _shift(self, state: int) -> int:
        levels = self.levels
        if state == wire.OCCUPIED:
            return levels.first_beside - levels.empty
        if state == wire.SOUTH:
            return levels.second_beside - levels.empty
        return 0

    def read(self, channel: int) -> int:
        state = self.states[channel]
        if state == wire.FAULT:
            return 0
        levels = self.levels
        value = (levels.empty, levels.first_piece, levels.second_piece)[state]
        value += self.offsets[channel]
        value += sum(self._shift(self.states[near]) for near in self.neighbours.get(channel, ()))
        if self.jitter:
            value += self.rng.randint(-self.jitter, self.jitter)
        return min(READING_MAX, max(0, value))

    def scan(self, out) -> None:
        version = self._version  # before reading: a change while scanning counts next time
        if self.jitter or self._scanned is None or self._scanned[0] != version:
            self._scanned = (version, bytes(self.state(self.read(channel))
                                            for channel in range(len(self.states))))
        out[:] = self._scanned[1]


def hall_levels(thresholds: HallThresholds | None) -> HallReadings:
    """What a virtual board reads for a profile's thresholds: what its calibration
    measured; for thresholds written without measurements, an empty hole midway between
    them and each piece midway between its threshold and the rail, no neighbour felt;
    without thresholds, :data:`DEFAULT_LEVELS`."""
    if thresholds is None:
        return DEFAULT_LEVELS
    if thresholds.measured is not None:
        return thresholds.measured
    low, high, rail = thresholds.low, thresholds.high, tt_hw.RAIL
    empty = (low + high) // 2
    below, above = (rail + low) // 2, (high + READING_MAX - rail + 1) // 2
    first, second = (below, above) if thresholds.first_reads == "low" else (above, below)
    return HallReadings(empty, first, second, empty, empty)


class VirtualLeds:
    """The LED chain a device may drive: the last frame shown, G R B per LED."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.buf = bytearray(3 * count)
        self.shown = 0

    def write(self, first: int, grb: bytes) -> None:
        self.buf[3 * first:3 * first + len(grb)] = grb

    def show(self) -> None:
        self.shown += 1


class Noise:
    """Line noise: each byte is dropped, replaced by a random one, or sent twice, each
    with its probability; seeded, so a noisy run can be run again."""

    def __init__(self, drop: float = 0.0, corrupt: float = 0.0, duplicate: float = 0.0,
                 seed: int = 0) -> None:
        self.drop, self.corrupt, self.duplicate = drop, corrupt, duplicate
        self.rng = random.Random(seed)
        self.damaged = 0

    def __bool__(self) -> bool:
        return bool(self.drop or self.corrupt or self.duplicate)

    def apply(self, data: bytes) -> bytes:
        if not self:
            return data
        out = bytearray()
        rng = self.rng
        for byte in data:
            roll = rng.random()
            if roll < self.drop:
                self.damaged += 1
                continue
            roll -= self.drop
            if roll < self.corrupt:
                self.damaged += 1
                out.append(rng.randrange(256))
                continue
            out.append(byte)
            if roll - self.corrupt < self.duplicate:
                self.damaged += 1
                out.append(byte)
        return bytes(out)


class PtyLink:
    """The device's end of a pseudo-terminal, raw, never blocking: bytes written when
    nobody reads are lost, as on a USB line with no host."""

    def __init__(self, noise_out: Noise | None = None, noise_in: Noise | None = None) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.name = os.ttyname(self.slave)
        self.noise_out, self.noise_in = noise_out, noise_in
        self.closed = False

    def read(self) -> bytes:
        try:
            data = os.read(self.master, 65536)
        except OSError:  # nothing there (EAGAIN), or no one on the other end (EIO)
            return b""
        return self.noise_in.apply(data) if self.noise_in else data

    def write(self, data: bytes) -> None:
        if self.noise_out:
            data = self.noise_out.apply(data)
        try:
            os.write(self.master, data)
        except OSError as error:
            if error.errno not in (errno.EAGAIN, errno.EIO):
                raise

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            os.close(self.master)
            os.close(self.slave)


class VirtualDevice:
    """The firmware's logic on a pseudo-terminal, stepped by a thread.

    ``path`` (a symbolic link in ``folder``, or a fresh temporary folder) always names
    the current terminal; give it to a profile as ``sensors.port``. The sensors are
    switches (:class:`VirtualScanner`, polarity or not), or the ``hall`` sensors given
    (:class:`VirtualHall`, of ``rows`` x ``cols`` too)."""

    def __init__(self, rows: int, cols: int, *, polarity: bool = True, leds: int = 0,
                 noise: Noise | None = None, noise_in: Noise | None = None,
                 folder: str | os.PathLike | None = None,
                 hall: VirtualHall | None = None) -> None:
        import tempfile
        if hall is not None and (hall.rows, hall.cols) != (rows, cols):
            raise ValueError(f"hall sensors of {hall.rows} x {hall.cols} on a board of "
                             f"{rows} x {cols}")
        self.scanner = hall or VirtualScanner(rows, cols, polarity)
        self.leds = VirtualLeds(leds) if leds else None
        self.noise, self.noise_in = noise, noise_in
        self._folder = Path(folder) if folder else Path(tempfile.mkdtemp(prefix="tabletop-"))
        self.path = str(self._folder / "tabletop-sensors")
        self.device: tt_device.Device | None = None
        self.link: PtyLink | None = None
        self.resets = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # --- the board ----------------------------------------------------------------------
    def set(self, channel: int, state: int) -> None:
        self.scanner.set(channel, state)

    # --- plugging -----------------------------------------------------------------------
    def start(self) -> "VirtualDevice":
        self.replug()
        self._thread = threading.Thread(target=self._run, name="virtual sensor board",
                                        daemon=True)
        self._thread.start()
        return self

    def replug(self) -> None:
        """A device just reset, on a new terminal that ``path`` now points at."""
        with self._lock:
            link = PtyLink(self.noise, self.noise_in)
            device = tt_device.Device(self.scanner, link, tt_hw.Clock(), self.leds)
            device.start()
            temporary = self.path + ".new"
            if os.path.lexists(temporary):
                os.unlink(temporary)
            os.symlink(link.name, temporary)
            os.replace(temporary, self.path)
            self.link, self.device = link, device
            self.resets += 1

    def unplug(self) -> None:
        """The cable pulled: the name goes, as udev removes it, and the terminal closes
        under the host.

        A name left behind would point at a terminal number the kernel gives the next
        pseudo-terminal anyone opens (another program's, another test's board): the
        host, reconnecting, would open that one and take it for this board."""
        with self._lock:
            if os.path.lexists(self.path):
                os.unlink(self.path)  # first, so it never names a closed terminal
            if self.link is not None:
                self.link.close()
            self.link = self.device = None

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
        self.unplug()

    def __enter__(self) -> "VirtualDevice":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def _run(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                wait = self.device.step() if self.device is not None else 5
            time.sleep(max(wait, 1) / 1000)


def board_shape(channels: int) -> tuple[int, int]:
    """Rows and columns for ``channels`` channels, as near a square as they fit."""
    cols = max(1, math.ceil(math.sqrt(channels)))
    return max(1, math.ceil(channels / cols)), cols


def device_for(profile: Profile, *, noise: float = 0.0, seed: int = 0,
               folder=None) -> "VirtualDevice":
    """A virtual device (not started) for ``profile``'s board: hall sensors where it
    senses colour, reading as its thresholds' calibration measured (:func:`hall_levels`),
    a neighbour's piece felt one grid step away."""
    channels = max(profile.channels(), default=-1) + 1
    rows, cols = board_shape(channels)
    hall = None
    if profile.sensors.colour:
        channel = {name: hole.channel for name, hole in profile.holes.items()}
        near = {channel[name]: [channel[other] for other in others]
                for name, others in profile.neighbours().items()}
        hall = VirtualHall(rows, cols, hall_levels(profile.sensors.thresholds),
                           neighbours=near)
    leds = profile.led_count if profile.leds.driver == "serial" else 0
    out = into = None
    if noise:
        out = Noise(noise / 3, noise / 3, noise / 3, seed=seed)
        into = Noise(noise / 3, noise / 3, noise / 3, seed=seed + 1)
    return VirtualDevice(rows, cols, polarity=profile.sensors.colour, leds=leds,
                         noise=out, noise_in=into, folder=folder, hall=hall)


class DeviceSensors:
    """A virtual sensor board's sensors as a hand reaches them: a piece put in a hole
    sets its channel (north pole up for the first colour, south for the second, where
    the board senses polarity), a lift clears it. The simulated hand
    (:class:`app.table.hand.Hand`) works the same on these as on simulated sensors."""

    def __init__(self, device: VirtualDevice, profile: Profile) -> None:
        self.device, self.profile = device, profile

    def place(self, hole: str, colour: str | None = None) -> None:
        polarity = self.device.scanner.polarity
        self.device.set(self.profile.holes[hole].channel,
                        wire.SOUTH if polarity and colour == "w" else wire.OCCUPIED)

    def lift(self, hole: str) -> None:
        self.device.set(self.profile.holes[hole].channel, wire.EMPTY)
