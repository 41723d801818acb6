"""The firmware's codec and packets checked against the shared test vectors.

Runs on the Pico (``import tt_selftest; tt_selftest.main()`` with ``wire_vectors.json``
copied beside it), under MicroPython elsewhere, and under CPython in the tests: the
same checks the Pi's own codec passes, so both ends agree byte for byte.
"""

import json

try:
    import wire
    import tt_codec
except ImportError:
    from firmware import wire
    from firmware import tt_codec


def _hex(text):
    return bytes.fromhex(text)


def check(vectors, codec=None):
    """Every failure as a line of text (none when all agree); also the number of checks."""
    codec = codec or tt_codec.CODEC
    failures = []
    count = 0

    def fail(what):
        failures.append(what)

    for case in vectors["crc16"]:
        count += 1
        got = codec.crc16(_hex(case["data"]))
        if got != case["crc"]:
            fail("crc16 %s: 0x%04x, not 0x%04x" % (case["name"], got, case["crc"]))
    for case in vectors["cobs"]:
        count += 2
        decoded, encoded = _hex(case["decoded"]), _hex(case["encoded"])
        if codec.cobs_encode(decoded) != encoded:
            fail("cobs encode %s" % case["name"])
        try:
            if codec.cobs_decode(encoded) != decoded:
                fail("cobs decode %s" % case["name"])
        except Exception:
            fail("cobs decode %s: refused" % case["name"])
    for case in vectors["cobs_invalid"]:
        count += 1
        try:
            codec.cobs_decode(_hex(case["encoded"]))
            fail("cobs invalid %s: accepted" % case["name"])
        except Exception:
            pass
    for case in vectors["frames"]:
        count += 3
        kind, seq, payload = case["type"], case["seq"], _hex(case["payload"])
        if wire.packet(codec, kind, seq, payload) != _hex(case["packet"]):
            fail("packet %s" % case["name"])
        if wire.frame(codec, kind, seq, payload) != _hex(case["frame"]):
            fail("frame %s" % case["name"])
        try:
            got = wire.unframe(codec, _hex(case["frame"])[:-1])
            if got != (kind, seq, payload):
                fail("unframe %s" % case["name"])
        except wire.WireError as error:
            fail("unframe %s: %s" % (case["name"], error.reason))
    for case in vectors["bad_frames"]:
        count += 1
        try:
            wire.unframe(codec, _hex(case["frame"])[:-1])
            fail("bad frame %s: accepted" % case["name"])
        except wire.WireError as error:
            if error.reason != case["reason"]:
                fail("bad frame %s: %s, not %s" % (case["name"], error.reason, case["reason"]))
    for case in vectors["snapshot_packing"]:
        count += 2
        states, packed = case["states"], _hex(case["packed"])
        if wire.pack_states(states) != packed:
            fail("pack %r" % (states,))
        if wire.unpack_states(packed, len(states)) != states:
            fail("unpack %r" % (states,))
    stream = vectors["stream"]
    count += 1
    decoder = wire.Decoder(codec)
    got = [{"type": m.kind, "seq": m.seq, "gap": m.gap}
           for m in decoder.feed(_hex(stream["bytes"]))]
    if got != stream["messages"] or decoder.dropped != stream["dropped"]:
        fail("stream: %r, dropped %r" % (got, decoder.dropped))
    return failures, count


def main(path="wire_vectors.json"):
    """Check the vectors in ``path`` and print the outcome (on the Pico's REPL)."""
    with open(path) as file:
        vectors = json.load(file)
    failures, count = check(vectors)
    for failure in failures:
        print("FAIL", failure)
    print("%d checks, %d failed" % (count, len(failures)))
    return not failures
