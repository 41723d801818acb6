"""The protocol module and the firmware's codec under real MicroPython (its WebAssembly
port under node; skipped where that is not installed, see tests/micropython_wasm.py)."""

from pathlib import Path

import pytest

import micropython_wasm

ROOT = Path(__file__).resolve().parent.parent
MJS = micropython_wasm.find()
needs_micropython = pytest.mark.skipif(MJS is None, reason="MicroPython (WebAssembly) "
                                       "and node are not installed")


def firmware_files(*names: str) -> dict[str, str]:
    """The files as they go onto a Pico: flat, wire.py beside the firmware."""
    files = {"wire.py": (ROOT / "firmware/wire.py").read_text(),
             "wire_vectors.json": (ROOT / "firmware/wire_vectors.json").read_text()}
    for name in names:
        files[name] = (ROOT / "firmware" / name).read_text()
    return files


@needs_micropython
def test_the_firmware_codec_passes_every_vector_under_micropython():
    out = micropython_wasm.run(MJS, firmware_files("tt_codec.py", "tt_selftest.py"),
                               "import sys\nprint(sys.implementation.name)\n"
                               "import tt_selftest\ntt_selftest.main()")
    assert out.split() [:1] == ["micropython"]
    assert " checks, 0 failed" in out, out


@needs_micropython
def test_the_decoder_resyncs_under_micropython():
    code = """
import wire, tt_codec
c = tt_codec.CODEC
line = b"\\x12\\x34\\x00" + wire.frame(c, wire.CHANGE, 3, wire.change_payload(5, 6, 1))
line += wire.frame(c, wire.PING, 4, wire.token_payload(9))[:4]
line += wire.frame(c, wire.PONG, 5, wire.token_payload(9)) * 2
line += wire.frame(c, wire.SNAPSHOT, 6, wire.snapshot_payload(7, [1, 2, 3]))
d = wire.Decoder(c)
got = []
for i in range(0, len(line), 5):
    got += d.feed(line[i:i + 5])
print([(m.kind, m.seq, m.gap) for m in got], sorted(d.dropped.items()))
print(wire.parse_snapshot(got[-1].payload, 3))
"""
    out = micropython_wasm.run(MJS, firmware_files("tt_codec.py"), code)
    assert "[(3, 3, -1), (4, 5, 1), (2, 6, 0)] [('cobs', 1), ('crc', 1)]" \
        in out, out
    assert "(7, [1, 2, 3])" in out, out
