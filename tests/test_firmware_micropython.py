"""The firmware under real MicroPython (its WebAssembly port under node; skipped where
that is not installed, see tests/micropython_wasm.py): every module imports, and the
device's logic writes exactly the bytes it writes under CPython."""

import contextlib
import io
import sys

import micropython_wasm
from test_wire_micropython import firmware_files, needs_micropython, MJS

from firmware import tt_codec, tt_device, tt_hw
from firmware import wire

FIRMWARE = ["tt_codec.py", "tt_device.py", "tt_hw.py", "tt_main.py", "tt_board.py",
            "tt_selftest.py", "main.py"]

#: The host's end of the serial link, as both scripts below stand it in.
LINK = """
class Link:
    def __init__(self):
        self.incoming, self.written = b"", bytearray()
    def read(self):
        data, self.incoming = self.incoming, b""
        return data
    def write(self, data):
        self.written.extend(data)
"""

SCRIPT = """
import wire, tt_device

class Scanner:
    rows, cols, polarity = 3, 5, True
    def __init__(self):
        self.states = bytearray(15)
    def scan(self, out):
        out[:] = self.states

""" + LINK + """
class Clock:
    now = 2 ** 32 - 200
    def ms(self):
        return self.now & 0xFFFFFFFF

class Leds:
    count = 4
    def __init__(self):
        self.buf = bytearray(12)
    def write(self, first, grb):
        self.buf[3 * first:3 * first + len(grb)] = grb
    def show(self):
        pass

scanner, link, clock, leds = Scanner(), Link(), Clock(), Leds()
dev = tt_device.Device(scanner, link, clock, leds)
dev.start()
c = dev.codec
for t in range(1500):
    if t == 100:
        scanner.states[7] = 2
    if t == 103:
        scanner.states[7] = 0
    if t == 300:
        scanner.states[14] = 1
    if t == 400:
        link.incoming = (wire.frame(c, wire.PING, 0, b"\\x03\\x00\\x04\\xff")
                         + wire.frame(c, wire.LEDS, 1, wire.leds_payload(2, b"\\x01\\x02\\x03"))
                         + wire.frame(c, wire.CONFIG, 2, wire.config_payload(0, 1000))
                         + wire.frame(c, 0x99, 3, b"")
                         + wire.frame(c, wire.HELLO_REQUEST, 4, b""))
    if t == 500:
        scanner.states[0] = 3
    dev.step()
    clock.now += 1
print("WRITTEN", bytes(link.written).hex())
print("LEDS", bytes(leds.buf).hex())
"""


#: An analog board: its thresholds set by the host, raw readings asked for, mistakes.
ANALOG_SCRIPT = """
import wire, tt_device, tt_hw

class Hall(tt_hw.HallSensors):
    rows, cols = 2, 3
    def __init__(self):
        tt_hw.HallSensors.__init__(self, tt_hw.MID - tt_hw.THRESHOLD,
                                   tt_hw.MID + tt_hw.THRESHOLD)
        self.readings = [30000, 20000, 32768, 45000, 1000, 64500]
    def read(self, channel):
        return self.readings[channel]
    def scan(self, out):
        for channel in range(6):
            out[channel] = self.state(self.readings[channel])

""" + LINK + """
class Clock:
    now = 1000
    def ms(self):
        return self.now

scanner, link, clock = Hall(), Link(), Clock()
dev = tt_device.Device(scanner, link, clock)
dev.start()
c = dev.codec
for t in range(60):
    if t == 10:
        link.incoming = (wire.frame(c, wire.RAW_REQUEST, 0, wire.raw_request_payload([5, 0, 3]))
                         + wire.frame(c, wire.THRESHOLDS, 1, wire.thresholds_payload(31000, 40000, 2))
                         + wire.frame(c, wire.THRESHOLDS, 2, wire.thresholds_payload(9, 8, 1))
                         + wire.frame(c, wire.RAW_REQUEST, 3, wire.raw_request_payload([6])))
    if t == 30:
        scanner.readings[2] = 50000
    dev.step()
    clock.now += 1
print("WRITTEN", bytes(link.written).hex())
print("STATES", list(dev.stable))
"""


def under_cpython(script: str = SCRIPT) -> str:
    modules = {"wire": wire, "tt_codec": tt_codec, "tt_device": tt_device, "tt_hw": tt_hw}
    saved = {name: sys.modules.get(name) for name in modules}
    out = io.StringIO()
    try:
        sys.modules.update(modules)
        with contextlib.redirect_stdout(out):
            exec(script, {"__name__": "script"})
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
    return out.getvalue()


@needs_micropython
def test_every_firmware_module_imports_under_micropython():
    out = micropython_wasm.run(MJS, firmware_files(*FIRMWARE),
                               "import tt_codec, tt_device, tt_hw, tt_main, tt_board, "
                               "tt_selftest\nprint('imported', tt_device.VERSION)\n"
                               "import main")
    assert "imported tabletop-fw" in out, out
    # main.py starts the firmware on MicroPython; this port has no machine module
    assert "tt_main.py" in out and "no module named 'machine'" in out, out


@needs_micropython
def test_the_device_writes_the_same_bytes_under_micropython_as_under_cpython():
    expected = under_cpython()
    assert expected.count("WRITTEN") == 1 and len(expected) > 300
    out = micropython_wasm.run(MJS, firmware_files(*FIRMWARE), SCRIPT)
    assert out == expected


@needs_micropython
def test_an_analog_board_writes_the_same_bytes_under_micropython_as_under_cpython():
    expected = under_cpython(ANALOG_SCRIPT)
    # the thresholds took (state 2 below 31000), the bad ones and channel 6 were refused
    assert "STATES [2, 2, 1, 1, 3, 3]" in expected, expected
    written = bytes.fromhex(expected.split("WRITTEN ")[1].split()[0])
    kinds = [m.kind for m in wire.Decoder(wire.host_codec()).feed(written)]
    assert kinds == [wire.HELLO, wire.SNAPSHOT, wire.RAW, wire.SNAPSHOT, wire.ERROR,
                     wire.ERROR, wire.CHANGE], kinds
    out = micropython_wasm.run(MJS, firmware_files(*FIRMWARE), ANALOG_SCRIPT)
    assert out == expected
