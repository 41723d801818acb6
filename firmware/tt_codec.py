"""COBS and CRC-16/CCITT-FALSE for the firmware, in plain MicroPython.

MicroPython has no ``cobs`` package and its ``binascii`` no ``crc_hqx``, so the Pico
carries these two small versions. They give the same bytes as the Pi's (the ``cobs``
package and ``binascii.crc_hqx``): the shared test vectors check both ends.
"""

try:
    import wire  # on the Pico: copied beside this file
except ImportError:
    from firmware import wire


def cobs_encode(data):
    """COBS: no 0x00 in the result, one code byte per run of up to 254 non-zero bytes.
    A run of exactly 254 at the very end closes without a further code byte."""
    out = bytearray(b"\x00")
    code_at = 0
    code = 1
    n = len(data)
    for i in range(n):
        byte = data[i]
        if byte:
            out.append(byte)
            code += 1
            if code == 0xFF and i + 1 < n:
                out[code_at] = code
                code_at = len(out)
                out.append(0)
                code = 1
        else:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
    out[code_at] = code
    return bytes(out)


def cobs_decode(data):
    """The bytes :func:`cobs_encode` made ``data`` from; ``ValueError`` if ``data`` holds
    a 0x00 or a code byte runs past its end."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        end = i + code
        if code == 0 or end > n:
            raise ValueError("not valid COBS")
        for j in range(i + 1, end):
            byte = data[j]
            if byte == 0:
                raise ValueError("not valid COBS")
            out.append(byte)
        i = end
        if code < 0xFF and i < n:
            out.append(0)
    return bytes(out)


def _table():
    table = []
    for i in range(256):
        crc = i << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_TABLE = _table()


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE: polynomial 0x1021, start 0xFFFF, no reflection, no final xor."""
    table = _TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ byte]
    return crc


CODEC = wire.Codec(cobs_encode, cobs_decode, crc16)
