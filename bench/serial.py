"""The sensor board's serial link: how fast the Pi decodes, and how late it hears.

1. Frames a second the Pi's decoder takes (COBS, CRC, length checks, sequence), and
   the same through the whole link (the host's beliefs, snapshots, changes), for a
   stream of CHANGEs with a 196-channel SNAPSHOT heartbeat among them.
2. The virtual device (the firmware's logic behind a pseudo-terminal) and the real
   serial source, on this machine's clock: from a sensor changing to the source
   reporting it, less the device's 10 ms debounce, which the pipeline's own debounce
   overlaps (a change is stamped with the moment the device first saw it). The target
   is under 5 ms. ``python -m bench.serial [CHANGES]``.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time

from app.hardware import serial_board
from firmware import wire
from app.hardware.virtual_device import VirtualDevice

DEBOUNCE_S = serial_board.DEBOUNCE_MS / 1000


def stream(count: int) -> bytes:
    codec = wire.host_codec()
    seq = wire.Counter()
    out = bytearray(wire.frame(codec, wire.HELLO, seq.next(),
                               wire.hello_payload(14, 14, 1, "bench")))
    states = [0] * 196
    for i in range(count):
        if i % 50 == 0:
            out += wire.frame(codec, wire.SNAPSHOT, seq.next(),
                              wire.snapshot_payload(i, states))
        channel = (i * 7) % 196
        states[channel] = 1 - states[channel]
        out += wire.frame(codec, wire.CHANGE, seq.next(),
                          wire.change_payload(i, channel, states[channel]))
    return bytes(out)


def decoding(count: int) -> None:
    data = stream(count)
    decoder = wire.Decoder(wire.host_codec())
    start = time.perf_counter()
    got = 0
    for i in range(0, len(data), 4096):
        got += len(decoder.feed(data[i:i + 4096]))
    took = time.perf_counter() - start
    print(f"decoder: {got:,} frames in {took * 1000:.0f} ms: {got / took:,.0f} frames/s")

    class Port:
        def __init__(self):
            self.at = 0

        def read(self, size):
            chunk = data[self.at:self.at + 4096]
            self.at += len(chunk)
            return chunk

        def write(self, data):
            pass

        def close(self):
            pass

    port = Port()
    link = serial_board.Link("bench", channels=196, opener=lambda path, baud: port)
    link._open()
    start = time.perf_counter()
    while port.at < len(data):
        link.poll()
    took = time.perf_counter() - start
    print(f"link:    {got:,} frames in {took * 1000:.0f} ms: {got / took:,.0f} frames/s "
          f"({link.counted:,} changes believed)")


def latency(changes: int) -> None:
    with tempfile.TemporaryDirectory() as folder, \
            VirtualDevice(14, 14, folder=folder) as device:
        link = serial_board.Link(device.path, channels=196)
        link.connect()
        source = serial_board.SerialSensors(link, {ch: str(ch) for ch in range(196)})
        source.read()
        source.drain()
        added, stamp_error = [], []
        for i in range(changes):
            channel = (i * 11) % 196
            state = 0 if source.read()[str(channel)] else 1
            time.sleep(0.02)
            changed = time.monotonic()
            device.set(channel, state)
            while True:
                source.read()
                events = source.drain()
                if events:
                    heard = time.monotonic()
                    break
                time.sleep(0.0002)
            added.append(heard - changed - DEBOUNCE_S)
            stamp_error.append(events[0][0] - changed)
        link.close()
    ms = sorted(1000 * a for a in added)
    stamps = sorted(1000 * s for s in stamp_error)
    print(f"virtual device to source, less the 10 ms debounce, {changes} changes: "
          f"median {statistics.median(ms):.1f} ms, 95th percentile "
          f"{ms[int(0.95 * (len(ms) - 1))]:.1f} ms, worst {ms[-1]:.1f} ms")
    print(f"change stamps against the true moment: median {statistics.median(stamps):+.1f} ms, "
          f"range {stamps[0]:+.1f} to {stamps[-1]:+.1f} ms")


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    decoding(50_000)
    latency(count)


if __name__ == "__main__":
    main()
