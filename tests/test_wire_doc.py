"""hardware/protocol.md describes the protocol the code speaks: its tables list every
message type with its number, its worked examples are the bytes the code makes, and it
points nowhere outside the repository."""

import re
from pathlib import Path

from firmware import wire

DOC = (Path(__file__).resolve().parent.parent / "hardware" / "protocol.md").read_text()
HOST = wire.host_codec()


def spaced(data: bytes) -> str:
    return data.hex(" ").upper()


def test_every_message_type_is_in_the_tables_with_its_number():
    rows = dict((name, int(code, 16)) for code, name in
                re.findall(r"^\| `([0-9a-f]{2})` \| ([A-Z_]+) \|", DOC, re.M))
    assert rows == {name: kind for kind, name in wire.NAMES.items()}


def test_the_worked_examples_are_the_codes_own_bytes():
    frame = wire.frame(HOST, wire.CHANGE, 7, wire.change_payload(1234, 33, 1))
    assert spaced(frame) in DOC
    assert spaced(HOST.cobs_decode(frame[:-1])) in DOC
    assert f"0x{HOST.crc16(HOST.cobs_decode(frame[:-1])[:-2]):04X}" in DOC
    assert spaced(wire.frame(HOST, wire.PING, 0, wire.token_payload(1))).lower() in \
        DOC.lower()
    assert spaced(wire.pack_states([0, 1, 2, 3, 1, 0, 0, 2, 3])) in DOC
    thresholds = wire.frame(HOST, wire.THRESHOLDS, 5, wire.thresholds_payload(25000, 40500, 1))
    assert spaced(thresholds) in DOC and spaced(HOST.cobs_decode(thresholds[:-1])) in DOC
    assert "0x29B1" in DOC and str(wire.MAX_LEDS_PER_PACKET) in DOC


def test_the_error_codes_and_timings_it_gives_are_the_codes():
    from firmware import tt_device
    from app.hardware import serial_board
    assert (wire.ERR_UNKNOWN_TYPE, wire.ERR_BAD_VALUE, wire.ERR_NO_LEDS,
            wire.ERR_NOT_ANALOG) == (1, 2, 3, 4)
    codes = re.findall(r"^\| (\d) \| ", DOC[DOC.index("## Errors"):], re.M)
    assert codes == ["1", "2", "3", "4"]
    from firmware import tt_hw
    assert f"{tt_hw.RAIL:,}" in DOC and f"{tt_hw.RAIL} < low < high < {65535 - tt_hw.RAIL}" \
        in DOC
    assert serial_board.SILENCE_S == 3 and serial_board.BACKOFF_S[0] == 0.25
    assert (serial_board.DEBOUNCE_MS, serial_board.SCAN_HZ) == (10, 200)
    assert tt_device.HEARTBEAT_MS == 500 and tt_device.MAX_DEBOUNCE_MS == 5000


def test_it_points_nowhere_outside_the_repository():
    assert "http" not in DOC and "../" not in DOC and "shared" not in DOC
    root = Path(__file__).resolve().parent.parent
    for path in re.findall(r"`((?:app|hardware|systemd)/[\w./-]+)`", DOC):
        assert (root / path).exists(), path
