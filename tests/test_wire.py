"""The wire protocol: both codecs against the shared vectors, every message type, and
the streaming decoder fuzzed with line noise (hardware/protocol.md)."""

import json
from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware import tt_codec, tt_selftest
from firmware import wire
from firmware.wire import WireError

VECTORS = json.loads(resources.files("firmware").joinpath("wire_vectors.json")
                     .read_text())
HOST = wire.host_codec()
FIRMWARE = tt_codec.CODEC
CODECS = pytest.mark.parametrize("codec", [HOST, FIRMWARE], ids=["host", "firmware"])
FUZZ = settings(max_examples=400, deadline=None, derandomize=True)


def test_the_vectors_ship_with_the_package_and_hold_the_protocols_anchors():
    assert {"name": "check value", "data": b"123456789".hex(), "crc": 0x29B1} \
        in VECTORS["crc16"]
    names = {case["name"] for case in VECTORS["cobs"]}
    assert {"empty", "1024 zeros", "254 non-zero bytes", "255 non-zero bytes",
            "1024 non-zero bytes"} <= names
    largest = [f for f in VECTORS["frames"] if len(bytes.fromhex(f["packet"])) == 1024]
    assert largest, "a frame of the largest packet"
    assert {f["type"] for f in VECTORS["frames"]} == set(wire.NAMES)


@CODECS
def test_every_vector_holds_for_both_codecs(codec):
    failures, count = tt_selftest.check(VECTORS, codec)
    assert failures == []
    assert count > 100


def test_cobs_examples_worked_by_hand():
    """Independent of any implementation: the classic examples of the COBS paper's
    scheme, and the one frame hardware/protocol.md works through byte by byte."""
    for decoded, encoded in [("00", "0101"), ("0000", "010101"), ("00 11 00", "01021101"),
                             ("11 22 00 33", "0311220233"), ("11 00 00 00", "0211010101")]:
        for codec in (HOST, FIRMWARE):
            assert codec.cobs_encode(bytes.fromhex(decoded)).hex() == encoded
    frame = wire.frame(HOST, wire.CHANGE, 7, wire.change_payload(1234, 33, 1))
    assert frame.hex(" ") == "05 03 07 d2 04 01 02 21 04 01 d5 74 00"


@given(st.binary(max_size=1100))
@FUZZ
def test_both_cobs_encoders_agree_and_round_trip(data):
    encoded = FIRMWARE.cobs_encode(data)
    assert encoded == HOST.cobs_encode(data)
    assert b"\x00" not in encoded
    assert FIRMWARE.cobs_decode(encoded) == HOST.cobs_decode(encoded) == data


@given(st.binary(max_size=300))
@FUZZ
def test_both_cobs_decoders_accept_and_refuse_the_same_bytes(data):
    results = []
    for codec in (HOST, FIRMWARE):
        try:
            results.append(codec.cobs_decode(data))
        except Exception:
            results.append("refused")
    assert results[0] == results[1]


@given(st.binary(max_size=600))
@FUZZ
def test_both_crcs_agree(data):
    assert FIRMWARE.crc16(data) == HOST.crc16(data)


# --- message types ----------------------------------------------------------------------

def round_trip(kind, payload, seq=5):
    return wire.unframe(HOST, wire.frame(HOST, kind, seq, payload)[:-1])


def test_every_message_type_round_trips():
    assert wire.parse_hello(round_trip(wire.HELLO, wire.hello_payload(16, 8, 3, "fw 2"))[2]) \
        == (1, 16, 8, 3, "fw 2")
    states = [0, 1, 2, 3, 3, 2]
    assert wire.parse_snapshot(round_trip(wire.SNAPSHOT, wire.snapshot_payload(9, states))[2],
                               6) == (9, states)
    assert wire.parse_change(round_trip(wire.CHANGE, wire.change_payload(2**32 + 5, 255, 2))[2]) \
        == (5, 255, 2)
    assert wire.parse_token(round_trip(wire.PONG, wire.token_payload(77))[2]) == 77
    assert wire.parse_token(round_trip(wire.PING, wire.token_payload(78))[2]) == 78
    assert wire.parse_error(round_trip(wire.ERROR, wire.error_payload(2, "no"))[2]) == (2, "no")
    first, grb = wire.parse_leds(round_trip(wire.LEDS, wire.leds_payload(3, b"\x01\x02\x03"))[2])
    assert (first, bytes(grb)) == (3, b"\x01\x02\x03")
    assert wire.parse_config(round_trip(wire.CONFIG, wire.config_payload(10, 500))[2]) == (10, 500)
    assert wire.parse_thresholds(round_trip(wire.THRESHOLDS,
                                            wire.thresholds_payload(1501, 64034, 2))[2]) \
        == (1501, 64034, 2)
    channels = [0, 255, 256, 65535]
    assert wire.parse_raw_request(round_trip(wire.RAW_REQUEST,
                                             wire.raw_request_payload(channels))[2]) == channels
    pairs = [(0, 65535), (300, 0), (7, 32768)]
    assert [tuple(p) for p in wire.parse_raw(round_trip(wire.RAW, wire.raw_payload(pairs))[2])] \
        == pairs
    assert round_trip(wire.HELLO_REQUEST, b"") == (wire.HELLO_REQUEST, 5, b"")
    assert round_trip(wire.SNAPSHOT_REQUEST, b"", seq=256 + 4) == (wire.SNAPSHOT_REQUEST, 4, b"")


@pytest.mark.parametrize("kind, good, bad", [
    (wire.HELLO, [4, 40], [0, 3]),
    (wire.SNAPSHOT, [4, 5, 68], [0, 3]),
    (wire.CHANGE, [7], [0, 6, 8]),
    (wire.PONG, [4], [3, 5]),
    (wire.ERROR, [1, 9], [0]),
    (wire.HELLO_REQUEST, [0], [1]),
    (wire.SNAPSHOT_REQUEST, [0], [1]),
    (wire.PING, [4], [0, 5]),
    (wire.LEDS, [2, 5, 2 + 3 * wire.MAX_LEDS_PER_PACKET], [0, 1, 3, 4, 6]),
    (wire.CONFIG, [4], [2, 5]),
    (wire.THRESHOLDS, [5], [0, 4, 6]),
    (wire.RAW_REQUEST, [2, 4, 2 * wire.MAX_RAW_CHANNELS], [0, 1, 3,
                                                           2 * wire.MAX_RAW_CHANNELS + 2]),
    (wire.RAW, [4, 8, 4 * wire.MAX_RAW_CHANNELS], [0, 2, 5, 6]),
])
def test_payload_lengths_are_checked_for_every_type(kind, good, bad):
    for length in good:
        assert wire.length_ok(kind, length)
        assert round_trip(kind, bytes(length))[0] == kind
    for length in bad:
        assert not wire.length_ok(kind, length)
        with pytest.raises(WireError) as caught:
            wire.packet(HOST, kind, 0, bytes(length))
        assert caught.value.reason == "length"


def test_no_packet_is_longer_than_1024_bytes():
    assert not wire.length_ok(wire.ERROR, wire.MAX_PAYLOAD + 1)
    assert len(wire.packet(HOST, wire.ERROR, 0, bytes(wire.MAX_PAYLOAD))) == 1024
    with pytest.raises(WireError):
        wire.packet(HOST, wire.ERROR, 0, bytes(wire.MAX_PAYLOAD + 1))
    assert wire.MAX_LEDS_PER_PACKET == 339 and wire.MAX_CHANNELS == 4064
    # the answer to the longest RAW_REQUEST fits one packet too
    assert wire.MAX_RAW_CHANNELS == 255 and 4 * wire.MAX_RAW_CHANNELS <= wire.MAX_PAYLOAD


def test_a_snapshot_must_be_exactly_as_long_as_its_channels_need_with_zero_padding():
    payload = wire.snapshot_payload(0, [1] * 5)
    assert len(payload) == wire.snapshot_length(5) == 6
    assert wire.parse_snapshot(payload, 5) == (0, [1] * 5)
    for channels in (4, 9):
        with pytest.raises(WireError) as caught:
            wire.parse_snapshot(payload, channels)
        assert caught.value.reason == "length"
    padded = payload[:-1] + bytes([payload[-1] | 0x80])
    with pytest.raises(WireError) as caught:
        wire.parse_snapshot(padded, 5)
    assert caught.value.reason == "padding"


def test_a_change_to_a_state_above_3_is_refused():
    with pytest.raises(WireError):
        wire.parse_change(b"\x00\x00\x00\x00\x01\x00\x04")
    with pytest.raises(ValueError):
        wire.change_payload(0, 1, 4)
    with pytest.raises(ValueError):
        wire.pack_states([0, 4])


def test_sequence_numbers_count_modulo_256():
    counter = wire.Counter()
    assert [counter.next() for _ in range(258)][-3:] == [255, 0, 1]


# --- the streaming decoder --------------------------------------------------------------

def frames(messages, codec=HOST):
    return [wire.frame(codec, kind, seq, payload) for kind, seq, payload in messages]


def test_the_decoder_takes_frames_in_any_pieces_and_reports_gaps():
    sent = [(wire.CHANGE, s, wire.change_payload(s, s, 1)) for s in range(250, 256)]
    sent += [(wire.CHANGE, s, wire.change_payload(s, s, 1)) for s in range(0, 3)]
    data = b"".join(frames(sent[:4]) + frames(sent[5:]))  # seq 254 lost
    decoder = wire.Decoder(HOST)
    got = []
    for i in range(0, len(data), 3):
        got += decoder.feed(data[i:i + 3])
    assert [(m.seq, m.gap) for m in got] == [(250, -1), (251, 0), (252, 0), (253, 0),
                                             (255, 1), (0, 0), (1, 0), (2, 0)]
    assert decoder.gaps == 1 and decoder.frames == 8 and decoder.drops == 0


def test_a_hello_starts_the_count_again():
    decoder = wire.Decoder(HOST)
    data = b"".join(frames([(wire.PONG, 40, bytes(4)), (wire.HELLO, 0, bytes(4)),
                            (wire.SNAPSHOT, 1, bytes(4))]))
    assert [m.gap for m in decoder.feed(data)] == [-1, -1, 0]


def test_an_endless_frame_is_dropped_without_keeping_its_bytes():
    decoder = wire.Decoder(HOST)
    assert decoder.feed(b"\x01" * 5000) == []
    assert len(decoder._buffer) <= wire.MAX_ENCODED
    good = wire.frame(HOST, wire.PONG, 1, bytes(4))
    assert [m.kind for m in decoder.feed(b"\x01" * 50 + b"\x00" + good)] == [wire.PONG]
    assert decoder.dropped == {"long": 1}


@given(st.binary(max_size=3000), st.integers(1, 64))
@FUZZ
def test_random_bytes_never_crash_the_decoder_nor_make_a_message(data, piece):
    decoder = wire.Decoder(HOST)
    got = []
    for i in range(0, len(data), piece):
        got += decoder.feed(data[i:i + piece])
    assert got == []


#: What can happen to one frame on the line.
DAMAGE = ("keep", "keep", "keep", "drop", "truncate", "duplicate", "corrupt", "noise",
          "noise_then_zero")


@st.composite
def noisy_streams(draw):
    """Messages sent with consecutive sequence numbers, each frame damaged or not: the
    bytes on the line, the messages sent, and the frames that must come through."""
    count = draw(st.integers(1, 40))
    start = draw(st.integers(0, 255))
    sent = []
    for i in range(count):
        kind = draw(st.sampled_from([wire.CHANGE, wire.SNAPSHOT, wire.PONG, wire.HELLO]))
        if kind == wire.CHANGE:
            payload = wire.change_payload(draw(st.integers(0, 2**32 - 1)),
                                          draw(st.integers(0, 255)), draw(st.integers(0, 3)))
        elif kind == wire.SNAPSHOT:
            payload = wire.snapshot_payload(i, draw(st.lists(st.integers(0, 3), max_size=300)))
        elif kind == wire.HELLO:
            payload = wire.hello_payload(16, 16, 3, "v%d" % i)
        else:
            payload = wire.token_payload(i)
        sent.append((kind, (start + i) & 0xFF, payload))
    line = bytearray()
    must = []
    glued = False  # whether what came before leaves no clean 0x00 before this frame
    for index, encoded in enumerate(frames(sent)):
        damage = draw(st.sampled_from(DAMAGE))
        if damage in ("keep", "duplicate") and not glued:
            must.append(index)
        if damage == "drop":
            continue  # the whole frame vanished: the 0x00 before it still delimits
        if damage == "truncate":
            cut = draw(st.integers(0, len(encoded) - 2))
            line += encoded[:cut]
            glued = cut > 0 or glued
            continue
        if damage == "noise":
            line += draw(st.binary(min_size=1, max_size=20).filter(lambda b: b"\x00" not in b))
        if damage == "noise_then_zero":
            line += draw(st.binary(max_size=20)) + b"\x00"
        if damage == "corrupt":
            body = bytearray(encoded)
            at = draw(st.integers(0, len(body) - 2))
            body[at] = draw(st.integers(0, 255).filter(lambda b: b != body[at]))
            encoded = bytes(body)
        line += encoded
        if damage == "duplicate":
            line += encoded
        glued = False
    return bytes(line), sent, must


@pytest.mark.parametrize("codec", [HOST, FIRMWARE], ids=["host", "firmware"])
@given(stream=noisy_streams(), piece=st.integers(1, 200))
@FUZZ
def test_noisy_frames_never_invent_a_message_and_the_decoder_resyncs(codec, stream, piece):
    line, sent, must = stream
    decoder = wire.Decoder(codec)
    got = []
    for i in range(0, len(line), piece):
        got += decoder.feed(line[i:i + piece])
    indices = []
    for message in got:
        key = (message.kind, message.seq, bytes(message.payload))
        assert key in sent, "a message that was never sent"
        indices.append(sent.index(key))
    assert indices == sorted(set(indices)), "out of order or repeated"
    assert set(must) <= set(indices), "an intact frame after a clean 0x00 was lost"
    for before, after, message in zip(indices, indices[1:], got[1:]):
        if message.kind != wire.HELLO:
            assert message.gap == after - before - 1
