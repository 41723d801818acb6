"""The sensor board's wire protocol, shared by the Pi and the microcontroller.

Both ends import this one module: the Pi as ``firmware.wire``, the Pico as ``wire``
(copied beside the firmware). It is therefore written in the part of Python that
MicroPython runs: no dataclasses, no typing, no f-strings, only ``struct`` and bytes.

A frame on the line is a COBS-encoded packet and one 0x00 byte; a packet is
``type | seq | payload | crc`` with a CRC-16/CCITT-FALSE (little-endian) over everything
before it. hardware/protocol.md describes every byte for makers.

COBS and the CRC come in a :class:`Codec`, since the two ends get them differently: the
Pi from the ``cobs`` package and ``binascii.crc_hqx`` (:func:`host_codec`), the Pico from
the firmware's own small ``tt_codec``. Both must give the same bytes; the test vectors in
``wire_vectors.json`` hold them to it.
"""

import struct

PROTO_VERSION = 1

# Device to host.
HELLO = 0x01
SNAPSHOT = 0x02
CHANGE = 0x03
PONG = 0x04
ERROR = 0x05
RAW = 0x06
# Host to device.
HELLO_REQUEST = 0x81
SNAPSHOT_REQUEST = 0x82
PING = 0x83
LEDS = 0x84
CONFIG = 0x85
THRESHOLDS = 0x86
RAW_REQUEST = 0x87

NAMES = {
    HELLO: "HELLO", SNAPSHOT: "SNAPSHOT", CHANGE: "CHANGE", PONG: "PONG", ERROR: "ERROR",
    RAW: "RAW", HELLO_REQUEST: "HELLO_REQUEST", SNAPSHOT_REQUEST: "SNAPSHOT_REQUEST",
    PING: "PING", LEDS: "LEDS", CONFIG: "CONFIG", THRESHOLDS: "THRESHOLDS",
    RAW_REQUEST: "RAW_REQUEST",
}

# Channel states, two bits each in a SNAPSHOT: the one set of names for them, on the
# Pico, in the Pi's driver, the virtual board and the simulator.
EMPTY = 0
OCCUPIED = 1  # occupied: north pole up (a piece of the first colour), or colour unknown
SOUTH = 2  # occupied, south pole up: a piece of the second colour
FAULT = 3

# HELLO flags.
FLAG_POLARITY = 0x01
FLAG_LEDS = 0x02

# ERROR codes (the protocol leaves them to us; hardware/protocol.md lists them).
ERR_UNKNOWN_TYPE = 1
ERR_BAD_VALUE = 2
ERR_NO_LEDS = 3
ERR_NOT_ANALOG = 4

#: The largest packet (type, seq, payload, crc) before COBS.
MAX_PACKET = 1024
MAX_PAYLOAD = MAX_PACKET - 4
#: The largest frame on the line without its 0x00: COBS adds one byte per 254 and one.
MAX_ENCODED = MAX_PACKET + MAX_PACKET // 254 + 1
#: The most LEDs one LEDS packet can carry (2 bytes of ``first``, 3 per LED).
MAX_LEDS_PER_PACKET = (MAX_PAYLOAD - 2) // 3
#: The most channels a SNAPSHOT can carry (4 bytes of time, 4 channels per byte).
MAX_CHANNELS = (MAX_PAYLOAD - 4) * 4
#: The most channels one RAW_REQUEST asks for: its RAW answer has 4 bytes a channel.
MAX_RAW_CHANNELS = MAX_PAYLOAD // 4

#: Payload lengths: exact for some types, a minimum for the rest.
_EXACT = {CHANGE: 7, PONG: 4, HELLO_REQUEST: 0, SNAPSHOT_REQUEST: 0, PING: 4, CONFIG: 4,
          THRESHOLDS: 5}
_AT_LEAST = {HELLO: 4, SNAPSHOT: 4, ERROR: 1, LEDS: 2, RAW: 4, RAW_REQUEST: 2}


try:  # on the Pi, one of the app's errors; MicroPython has no engines package
    from engines.errors import TabletopError as _Base
except ImportError:
    _Base = Exception


class WireError(_Base):
    """A frame or payload that does not check; ``reason`` is one word for counters:
    ``cobs``, ``short``, ``long``, ``crc``, ``length``, ``padding``. The decoders catch
    it: a bad frame is counted and dropped, never shown to a person."""

    def __init__(self, reason, detail=""):
        super().__init__(detail or reason)
        self.reason = reason


class Codec:
    """COBS encode and decode (bytes to bytes; decode raises on bad input) and the
    CRC-16/CCITT-FALSE of bytes."""

    def __init__(self, cobs_encode, cobs_decode, crc16):
        self.cobs_encode = cobs_encode
        self.cobs_decode = cobs_decode
        self.crc16 = crc16


def host_codec():
    """The Pi's codec: the ``cobs`` package (C speed) and ``binascii.crc_hqx``, which is
    CRC-16/CCITT-FALSE when started from 0xFFFF."""
    from binascii import crc_hqx
    from cobs import cobs

    def crc16(data):
        return crc_hqx(data, 0xFFFF)

    return Codec(cobs.encode, cobs.decode, crc16)


# --- payload lengths ------------------------------------------------------------------

def length_ok(kind, length):
    """Whether ``length`` payload bytes are right for a packet of ``kind``. Types this
    version does not know pass: the receiver decides what to do with them."""
    if length > MAX_PAYLOAD:
        return False
    if kind in _EXACT:
        return length == _EXACT[kind]
    if kind in _AT_LEAST:
        if length < _AT_LEAST[kind]:
            return False
        if kind == LEDS:
            return (length - 2) % 3 == 0
        if kind == RAW:
            return length % 4 == 0
        if kind == RAW_REQUEST:
            return length % 2 == 0 and length <= 2 * MAX_RAW_CHANNELS
    return True


def snapshot_length(channels):
    """The payload length of a SNAPSHOT of ``channels`` channels."""
    return 4 + (2 * channels + 7) // 8


# --- packets and frames ---------------------------------------------------------------

def packet(codec, kind, seq, payload=b""):
    """The packet bytes (before COBS): type, seq, payload, CRC."""
    if not length_ok(kind, len(payload)):
        raise WireError("length", "a %s payload cannot be %d bytes"
                        % (NAMES.get(kind, "type 0x%02x" % kind), len(payload)))
    body = bytes([kind, seq & 0xFF]) + bytes(payload)
    return body + struct.pack("<H", codec.crc16(body))


def frame(codec, kind, seq, payload=b""):
    """The bytes on the line for one packet: COBS, then 0x00."""
    return codec.cobs_encode(packet(codec, kind, seq, payload)) + b"\x00"


def parse_packet(codec, data):
    """``(kind, seq, payload)`` of a packet (COBS already undone); raises
    :class:`WireError` for a bad CRC, a packet too short or too long, or a payload of
    the wrong length for its type."""
    n = len(data)
    if n < 4:
        raise WireError("short", "a packet needs 4 bytes, not %d" % n)
    if n > MAX_PACKET:
        raise WireError("long", "a packet is at most %d bytes, not %d" % (MAX_PACKET, n))
    body = bytes(data[:n - 2])
    (crc,) = struct.unpack("<H", bytes(data[n - 2:]))
    if codec.crc16(body) != crc:
        raise WireError("crc", "CRC does not match")
    kind = body[0]
    payload = body[2:]
    if not length_ok(kind, len(payload)):
        raise WireError("length", "a %s payload cannot be %d bytes"
                        % (NAMES.get(kind, "type 0x%02x" % kind), len(payload)))
    return kind, body[1], payload


def unframe(codec, chunk):
    """``(kind, seq, payload)`` of one frame's bytes between two 0x00 (without them)."""
    if len(chunk) > MAX_ENCODED:
        raise WireError("long", "a frame is at most %d bytes" % MAX_ENCODED)
    try:
        data = codec.cobs_decode(bytes(chunk))
    except Exception:
        raise WireError("cobs", "not valid COBS")
    return parse_packet(codec, data)


# --- payloads -------------------------------------------------------------------------

def hello_payload(rows, cols, flags, version):
    if isinstance(version, str):
        version = version.encode()
    return bytes([PROTO_VERSION, rows, cols, flags]) + version


def parse_hello(payload):
    """``(proto, rows, cols, flags, version)``; the version is text (non-ASCII bytes
    replaced by ``?``)."""
    text = "".join(chr(b) if 32 <= b < 127 else "?" for b in payload[4:])
    return payload[0], payload[1], payload[2], payload[3], text


def pack_states(states):
    """Channel states (0-3 each) packed two bits each, channel 0 in the low bits of the
    first byte, padded with zero bits to a whole byte."""
    out = bytearray((2 * len(states) + 7) // 8)
    for channel in range(len(states)):
        state = states[channel]
        if not 0 <= state <= 3:
            raise ValueError("channel %d: state %r is not 0-3" % (channel, state))
        out[channel >> 2] |= state << ((channel & 3) << 1)
    return bytes(out)


def unpack_states(data, channels):
    """The first ``channels`` two-bit states of ``data`` (see :func:`pack_states`)."""
    return [(data[channel >> 2] >> ((channel & 3) << 1)) & 3 for channel in range(channels)]


def snapshot_payload(time_ms, states):
    return struct.pack("<I", time_ms & 0xFFFFFFFF) + pack_states(states)


def parse_snapshot(payload, channels):
    """``(time_ms, states)``; a payload that is not exactly the length for ``channels``
    channels raises :class:`WireError` ``length``, and so do set padding bits."""
    if len(payload) != snapshot_length(channels):
        raise WireError("length", "a SNAPSHOT of %d channels has %d bytes, not %d"
                        % (channels, snapshot_length(channels), len(payload)))
    (time_ms,) = struct.unpack("<I", bytes(payload[:4]))
    bits = payload[4:]
    used = channels % 4
    if used and bits[-1] >> (2 * used):
        raise WireError("padding", "padding bits set after channel %d" % (channels - 1))
    return time_ms, unpack_states(bits, channels)


def change_payload(time_ms, channel, state):
    if not 0 <= state <= 3:
        raise ValueError("state %r is not 0-3" % (state,))
    return struct.pack("<IHB", time_ms & 0xFFFFFFFF, channel, state)


def parse_change(payload):
    """``(time_ms, channel, state)``; a state above 3 raises :class:`WireError`."""
    time_ms, channel, state = struct.unpack("<IHB", bytes(payload))
    if state > 3:
        raise WireError("length", "state %d is not 0-3" % state)
    return time_ms, channel, state


def token_payload(token):
    """The payload of a PING, and of the PONG that answers it."""
    return struct.pack("<I", token & 0xFFFFFFFF)


def parse_token(payload):
    return struct.unpack("<I", bytes(payload))[0]


def error_payload(code, text):
    if isinstance(text, str):
        text = text.encode()
    return bytes([code]) + text


def parse_error(payload):
    """``(code, text)``."""
    return payload[0], "".join(chr(b) if 32 <= b < 127 else "?" for b in payload[1:])


def leds_payload(first, grb):
    """``grb``: 3 bytes (G, R, B) per LED from LED ``first`` on."""
    return struct.pack("<H", first) + bytes(grb)


def parse_leds(payload):
    """``(first, grb bytes)``."""
    return struct.unpack("<H", bytes(payload[:2]))[0], payload[2:]


def config_payload(debounce_ms, scan_hz):
    return struct.pack("<HH", debounce_ms, scan_hz)


def parse_config(payload):
    """``(debounce_ms, scan_hz)``."""
    return struct.unpack("<HH", bytes(payload))


def thresholds_payload(low, high, below):
    """Analog readings (0-65535) below ``low`` are a piece in state ``below`` (1 or 2),
    above ``high`` a piece in the other state, from ``low`` to ``high`` nothing."""
    return struct.pack("<HHB", low, high, below)


def parse_thresholds(payload):
    """``(low, high, below)``."""
    return struct.unpack("<HHB", bytes(payload))


def raw_request_payload(channels):
    """The channels whose raw readings the host asks for, 2 bytes each."""
    out = b""
    for channel in channels:
        out += struct.pack("<H", channel)
    return out


def parse_raw_request(payload):
    """The channels a RAW_REQUEST asks for, in its order."""
    return [struct.unpack("<H", bytes(payload[i:i + 2]))[0]
            for i in range(0, len(payload), 2)]


def raw_payload(readings):
    """``readings``: ``(channel, reading)`` pairs, 4 bytes each."""
    out = b""
    for channel, reading in readings:
        out += struct.pack("<HH", channel, reading)
    return out


def parse_raw(payload):
    """The ``(channel, reading)`` pairs of a RAW, in its order."""
    return [struct.unpack("<HH", bytes(payload[i:i + 4])) for i in range(0, len(payload), 4)]


# --- sequence numbers and the stream ---------------------------------------------------

class Counter:
    """A sender's sequence numbers: 0, 1, ... 255, 0, ..."""

    def __init__(self):
        self.value = 0

    def next(self):
        seq = self.value
        self.value = (seq + 1) & 0xFF
        return seq


class Message:
    """One packet that checked: ``kind``, ``seq``, ``payload``, and ``gap``: how many of
    the sender's packets went missing just before it (0 when none, -1 for the first
    message and after a HELLO, which starts the count again)."""

    def __init__(self, kind, seq, payload, gap):
        self.kind = kind
        self.seq = seq
        self.payload = payload
        self.gap = gap

    def __repr__(self):
        return "Message(%s, seq=%d, %d bytes, gap=%d)" % (
            NAMES.get(self.kind, "0x%02x" % self.kind), self.seq, len(self.payload), self.gap)


class Decoder:
    """Bytes from the line in, checked messages out, in order.

    Frames end at every 0x00: a receiver that starts mid-frame, or loses bytes, is in
    step again at the next one. A frame that fails COBS, its CRC or its length check is
    dropped and counted in ``dropped`` (by reason) and never delivered; so is a frame
    longer than the longest packet (its bytes are not kept). An exact repeat of the
    last message (same seq, same bytes: a duplicated frame) is dropped as
    ``duplicate``. Every message says how many of the sender's packets are missing
    before it (:attr:`Message.gap`); a HELLO starts the count afresh.
    """

    def __init__(self, codec):
        self.codec = codec
        self._buffer = bytearray()
        self._skipping = False
        self._last = None  # (seq, kind, payload) of the last message delivered
        self.frames = 0
        self.dropped = {}
        self.gaps = 0

    @property
    def drops(self):
        """Frames dropped so far, for every reason together."""
        total = 0
        for count in self.dropped.values():
            total += count
        return total

    def _drop(self, reason):
        self.dropped[reason] = self.dropped.get(reason, 0) + 1

    def reset(self):
        """Forget the partial frame and the sequence (a port opened again)."""
        self._buffer = bytearray()
        self._skipping = False
        self._last = None

    def feed(self, data):
        """The messages completed by ``data`` (any number of bytes)."""
        data = bytes(data)
        out = []
        start = 0
        n = len(data)
        while start < n:
            end = data.find(b"\x00", start)
            if end < 0:
                self._keep(data[start:])
                break
            if self._skipping:
                self._skipping = False
                self._buffer = bytearray()
            elif self._buffer:
                self._buffer.extend(data[start:end])
                chunk = bytes(self._buffer)
                self._buffer = bytearray()
                self._take(chunk, out)
            elif end > start:
                self._take(data[start:end], out)
            start = end + 1
        return out

    def _keep(self, part):
        if self._skipping:
            return
        if len(self._buffer) + len(part) > MAX_ENCODED:
            self._buffer = bytearray()
            self._skipping = True
            self._drop("long")
            return
        self._buffer.extend(part)

    def _take(self, chunk, out):
        if len(chunk) > MAX_ENCODED:
            self._drop("long")
            return
        try:
            kind, seq, payload = unframe(self.codec, chunk)
        except WireError as error:
            self._drop(error.reason)
            return
        last = self._last
        if last is not None and last[0] == seq and last[1] == kind and last[2] == payload:
            self._drop("duplicate")
            return
        if last is None or kind == HELLO:
            gap = -1
        else:
            gap = (seq - last[0] - 1) & 0xFF
            if gap:
                self.gaps += 1
        self._last = (seq, kind, payload)
        self.frames += 1
        out.append(Message(kind, seq, payload, gap))
