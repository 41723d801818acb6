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
"""

from __future__ import annotations

import errno
import math
import os
import random
import threading
import time
import tty
from pathlib import Path

from firmware import tt_device, tt_hw, wire
from app.hardware.profile import Profile


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
    the current terminal; give it to a profile as ``sensors.port``."""

    def __init__(self, rows: int, cols: int, *, polarity: bool = True, leds: int = 0,
                 noise: Noise | None = None, noise_in: Noise | None = None,
                 folder: str | os.PathLike | None = None) -> None:
        import tempfile
        self.scanner = VirtualScanner(rows, cols, polarity)
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
    """A virtual device (not started) for ``profile``'s board."""
    channels = max(profile.channels(), default=-1) + 1
    rows, cols = board_shape(channels)
    leds = profile.led_count if profile.leds.driver == "serial" else 0
    out = into = None
    if noise:
        out = Noise(noise / 3, noise / 3, noise / 3, seed=seed)
        into = Noise(noise / 3, noise / 3, noise / 3, seed=seed + 1)
    return VirtualDevice(rows, cols, polarity=profile.sensors.colour, leds=leds,
                         noise=out, noise_in=into, folder=folder)


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
