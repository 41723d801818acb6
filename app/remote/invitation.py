"""An invitation: a short code that gives two boards, and only them, one strong key.

The inviting board shows a code such as ``K7QM-R2XD``; the joining board's player types
it. The code is the password of a SPAKE2 exchange (the ``spake2`` package): what
crosses the broker lets nobody test guesses at leisure, so eight characters are enough,
and a stranger guessing online has :data:`TRIES` tries before the invitation is
withdrawn. The package's README, topics and limits are in :mod:`app.remote`.

:class:`Host` and :func:`join` block until the other board answers (SPAKE2 itself, in
pure Python, takes 0.02 s for both sides on a desktop); the screen or the page runs them
off the table loop.
"""

from __future__ import annotations

import base64
import binascii
import json
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from spake2 import SPAKE2_Symmetric
from spake2.spake2 import SPAKEError

from app.errors import InvitationError
from app.games import new_game
from app.remote.broker import Broker, Inbox
from app.remote.config import NAME_CHARS
from app.remote.sealing import Refused, confirmation, derive, open_sealed, seal

#: Crockford's base 32: no I, L, O or U, which are misread as 1, 1, 0 and V.
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
CODE_CHARS = 8
#: Characters of the code that only choose where the invitation waits (public).
SLOT_CHARS = 2
#: Wrong codes after which the invitation is withdrawn.
TRIES = 3
#: How long a joining board waits for the inviting one's answer.
ANSWER_S = 30.0
MAX_FIELD = 4096
#: The length of a SPAKE2 message (a side byte and a point); any other is refused
#: before the package sees it (it asserts the length).
PAKE_BYTES = 33
#: What the package raises for a message that is no exchange (a stranger's bytes).
_BAD_EXCHANGE = (SPAKEError, ValueError, TypeError, IndexError, AssertionError)


@dataclass(frozen=True)
class Agreed:
    """What both boards know once the invitation is accepted."""

    secret: bytes
    #: The game the host offered: its name, options and which colour the host plays.
    game: str
    options: Mapping[str, Any]
    host_colour: str
    host_name: str
    guest_name: str


def new_code() -> str:
    """A fresh code of :data:`CODE_CHARS` random characters, shown as ``XXXX-XXXX``."""
    code = "".join(secrets.choice(ALPHABET) for _ in range(CODE_CHARS))
    return f"{code[:4]}-{code[4:]}"


def normalise(text: str) -> str:
    """The code a person typed, as the boards compare it (case, dashes and spaces, and
    the letters read as digits forgiven); :class:`InvitationError` if it is none."""
    code = text.strip().upper().replace("-", "").replace(" ", "")
    code = code.translate(str.maketrans("OIL", "011"))
    if len(code) != CODE_CHARS or any(c not in ALPHABET for c in code):
        raise InvitationError(f"an invitation code is {CODE_CHARS} letters and digits "
                              f"such as K7QM-R2XD, not {text[:20]!r}")
    return code


def _topic(club: str, code: str) -> str:
    return f"tabletop/v1/{club}/invite/{code[:SLOT_CHARS]}"


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def _unb64(value: Any) -> bytes:
    if not isinstance(value, str) or len(value) > MAX_FIELD:
        raise ValueError("not a field")
    return base64.b64decode(value, validate=True)


def _read(payload: bytes) -> dict[str, Any]:
    try:
        message = json.loads(payload)
    except ValueError:
        raise ValueError("not JSON") from None
    if not isinstance(message, dict):
        raise ValueError("not an object")
    return message


def _keys(key: bytes, invitation: str) -> tuple[bytes, bytes]:
    """The welcome's key and the game's secret, from SPAKE2's key."""
    return derive(key, f"welcome {invitation}"), derive(key, f"game {invitation}")


class Host:
    """The inviting board's side: offers ``game`` on the broker under a new code."""

    def __init__(self, broker: Broker, club: str, game: str, options: Mapping[str, Any],
                 host_colour: str, name: str, code: str | None = None) -> None:
        self.broker, self.club, self.name = broker, club, name
        # Options as the engine resolves them (a random Kulami layout as its text), so
        # that both boards set out the same game.
        self.game, self.host_colour = game, host_colour
        self.options = dict(new_game(game, **options).options)
        self.code = code or new_code()
        self._password = normalise(self.code).encode()
        self.topic = _topic(club, normalise(self.code))
        self.invitation = secrets.token_hex(8)
        self.wrong = 0
        self._inbox = Inbox()
        broker.subscribe(self.topic + "/join", self._inbox.put)  # before an answer can come
        self._offer()

    def _offer(self, refused: bytes = b"") -> None:
        """A new exchange on the broker; ``refused`` is the last wrong answer, so that
        its board tells a wrong code from a stranger's try before its own."""
        self._spake = SPAKE2_Symmetric(self._password,
                                       idSymmetric=f"tabletop {self.invitation}".encode())
        self._sent = self._spake.start()
        self.broker.publish(self.topic, json.dumps(
            {"v": 1, "id": self.invitation, "try": self.wrong, "pake": _b64(self._sent),
             "refused": _b64(refused)}).encode(), retain=True)

    def withdraw(self) -> None:
        """Take the offer off the broker (an empty retained message clears it)."""
        self.broker.unsubscribe(self.topic + "/join")
        self.broker.publish(self.topic, b"", retain=True)

    def wait(self, timeout: float) -> Agreed:
        """The game agreed with the board that joins with the right code within
        ``timeout`` seconds; :class:`InvitationError` after :data:`TRIES` wrong codes or
        none in time (the offer is then withdrawn)."""
        deadline = time.monotonic() + timeout
        try:
            while (left := deadline - time.monotonic()) > 0:
                got = self._inbox.get(min(left, 1.0))
                if got is None:
                    continue
                agreed = self._answer(got[1])
                if agreed is not None:
                    return agreed
                if self.wrong >= TRIES:
                    raise InvitationError(f"{TRIES} wrong codes: the invitation is "
                                          f"withdrawn, make a new one")
            raise InvitationError("nobody joined in time: the invitation is withdrawn")
        finally:
            self.withdraw()

    def _answer(self, payload: bytes) -> Agreed | None:
        try:
            join = _read(payload)
            if join.get("id") != self.invitation or join.get("try") != self.wrong:
                return None  # an old offer's answer, or none: no try counted
            theirs, proof = _unb64(join.get("pake")), _unb64(join.get("confirm"))
            if len(theirs) != PAKE_BYTES:
                raise ValueError("not an exchange")
            name = join.get("name")
            if not isinstance(name, str) or not 0 < len(name) <= NAME_CHARS:
                raise ValueError("no name")
        except (ValueError, binascii.Error):
            return None
        try:
            key = self._spake.finish(theirs)
        except _BAD_EXCHANGE:
            key = None
        if key is None or not secrets.compare_digest(
                proof, confirmation(key, b"guest", self._sent, theirs, name.encode())):
            self.wrong += 1
            if self.wrong < TRIES:
                self._offer(theirs)  # SPAKE2 is one exchange per key: one more for a try
            else:  # the last try: said, so that its board need not wait for an answer
                self.broker.publish(self.topic, json.dumps(
                    {"v": 1, "id": self.invitation, "closed": True,
                     "refused": _b64(theirs)}).encode(), retain=True)
            return None
        welcome, secret = _keys(key, self.invitation)
        self.broker.publish(self.topic + "/welcome", seal(welcome, self.topic + "/welcome", {
            "id": self.invitation, "game": self.game, "options": self.options,
            "host": self.host_colour, "name": self.name}))
        return Agreed(secret, self.game, self.options, self.host_colour, self.name, name)


def join(broker: Broker, club: str, typed: str, name: str,
         timeout: float = ANSWER_S) -> Agreed:
    """Join the invitation whose code a person ``typed``: the game agreed, or
    :class:`InvitationError` in one line (a wrong code, no such invitation, no answer)."""
    code, name = normalise(typed), name[:NAME_CHARS]
    topic = _topic(club, code)
    inbox = Inbox()
    broker.subscribe(topic + "/welcome", inbox.put)
    broker.subscribe(topic, inbox.put)
    deadline = time.monotonic() + timeout
    offer: dict[str, Any] | None = None
    sent = key = None
    try:
        while (left := deadline - time.monotonic()) > 0:
            got = inbox.get(min(left, 1.0))
            if got is None:
                continue
            where, payload = got
            if where == topic:
                try:
                    new = _read(payload)
                    refused = _unb64(new.get("refused", ""))
                    if new.get("closed") is True:
                        theirs = invitation = None
                    else:
                        invitation, theirs = new["id"], _unb64(new["pake"])
                        if len(theirs) != PAKE_BYTES or not isinstance(invitation, str) \
                                or len(invitation) > 64:
                            raise ValueError("not an exchange")
                except (ValueError, KeyError, TypeError, binascii.Error):
                    continue  # withdrawn (empty), or not an offer
                if sent is not None and refused == sent:
                    raise InvitationError("the code does not match the invitation: check "
                                          "it on the other board and try again")
                if new.get("closed") is True:
                    raise InvitationError("the invitation was withdrawn: ask the other "
                                          "board for a new one")
                offer = new
                spake = SPAKE2_Symmetric(code.encode(),
                                         idSymmetric=f"tabletop {invitation}".encode())
                sent = spake.start()
                try:
                    key = spake.finish(theirs)
                except _BAD_EXCHANGE:
                    raise InvitationError("the invitation on the broker is damaged: "
                                          "ask for a new one") from None
                broker.publish(topic + "/join", json.dumps({
                    "id": invitation, "try": offer.get("try"), "name": name,
                    "pake": _b64(sent),
                    "confirm": _b64(confirmation(key, b"guest", theirs, sent,
                                                 name.encode()))}).encode())
            elif key is not None and offer is not None:
                welcome, secret = _keys(key, offer["id"])
                try:
                    game = open_sealed(welcome, where, payload)
                except Refused:
                    continue  # another board's welcome on the same slot, or a stranger's
                if game.get("id") != offer["id"]:
                    continue
                return _agreed(secret, game, name)
        raise InvitationError("no invitation with this code answered: check it, or ask "
                              "the other board for a new one" if offer is None else
                              "the inviting board did not answer in time")
    finally:
        broker.unsubscribe(topic)
        broker.unsubscribe(topic + "/welcome")


def _agreed(secret: bytes, game: dict[str, Any], name: str) -> Agreed:
    try:
        if not isinstance(game["game"], str) or not isinstance(game["options"], dict) \
                or game["host"] not in ("b", "w") or not isinstance(game["name"], str):
            raise TypeError
    except (KeyError, TypeError):
        raise InvitationError("the inviting board sent a game this board cannot "
                              "read") from None
    return Agreed(secret, game["game"], game["options"], game["host"],
                  game["name"][:NAME_CHARS], name)
