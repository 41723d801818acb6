"""Messages only the two boards of a game can read or make.

One key agreed through the invitation (:mod:`app.remote.invitation`) gives, through
HKDF, a key for each colour's messages and the game's topic; a message is a small JSON
object sealed with ChaCha20-Poly1305 under its sender's key, a random 96-bit nonce and
its topic as associated data. Opening checks all of it at once: a message altered,
forged without the key, or moved to another topic (the other colour's) is refused.

The library is PyCA's ``cryptography``, the most kept of Python's cryptography libraries
(wheels for the Pi's 64-bit and desktop systems, OpenSSL's primitives underneath), and
the one the ``spake2`` package of the invitation is built on, so the boards carry one
cryptography library, not two. ChaCha20-Poly1305 is fast without AES instructions,
which a Pi before the 5 lacks; random nonces are safe for far more messages than a game
has (a game's key seals a few hundred).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from app.errors import Refused

#: The first byte of every sealed message: this format.
VERSION = b"\x01"
NONCE = 12
#: No message of a game comes near this (a Blokus Duo game's whole record is about
#: 600 bytes); anything longer is refused before it is opened.
MAX_MESSAGE = 16 * 1024


def derive(secret: bytes, purpose: str, length: int = 32) -> bytes:
    """A key (or name) for ``purpose`` from ``secret``; a different purpose, another key."""
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=None,
                info=f"tabletop v1 {purpose}".encode()).derive(secret)


def seal(key: bytes, topic: str, message: dict[str, Any]) -> bytes:
    """``message`` as bytes only a holder of ``key`` reads, valid on ``topic`` alone."""
    nonce = os.urandom(NONCE)
    text = json.dumps(message, separators=(",", ":")).encode()
    return VERSION + nonce + ChaCha20Poly1305(key).encrypt(nonce, text, topic.encode())


def open_sealed(key: bytes, topic: str, payload: bytes) -> dict[str, Any]:
    """The message ``payload`` sealed under ``key`` for ``topic``; :class:`Refused`
    otherwise."""
    if len(payload) > MAX_MESSAGE:
        raise Refused(f"{len(payload)} bytes, over {MAX_MESSAGE}")
    if len(payload) < 1 + NONCE + 16 or payload[:1] != VERSION:
        raise Refused("not a sealed message")
    try:
        text = ChaCha20Poly1305(key).decrypt(payload[1:1 + NONCE], payload[1 + NONCE:],
                                             topic.encode())
    except Exception:  # cryptography's InvalidTag: altered, forged, or another topic's
        raise Refused("not sealed by the other board for this topic") from None
    try:
        message = json.loads(text)
    except ValueError:
        raise Refused("sealed, but not a message") from None
    if not isinstance(message, dict):
        raise Refused("sealed, but not a message")
    return message


def confirmation(key: bytes, *parts: bytes) -> bytes:
    """Proof of holding ``key``, bound to ``parts`` (an exchange's messages)."""
    mac = hmac.new(key, b"tabletop v1 confirm", hashlib.sha256)
    for part in parts:
        mac.update(len(part).to_bytes(4, "big") + part)
    return mac.digest()
