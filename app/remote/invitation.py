"""An invitation: a short code that gives two boards, and only them, one strong key.

The inviting board shows a code such as ``K7QM-R2XD``; the joining board's player types
it. The code is the password of a SPAKE2 exchange (the ``spake2`` package): what
crosses the broker lets nobody test guesses at leisure, so eight characters are enough,
and a stranger guessing online has :data:`TRIES` tries before the invitation is
withdrawn. The package's README, topics and limits are in :mod:`app.remote`.

Once the exchange gives the key, the inviting board seals the game for the joining one
(the welcome), and the joining board answers it, sealed too: it takes the game, or
refuses it (a game it does not play, or its person cancelled), so that the inviting
board never starts a game the other board will not play, and says why in one line.

:class:`Host` and :class:`Guest` (:func:`join`) wait until the other board answers
(SPAKE2 itself, in pure Python, takes 0.02 s for both sides on a desktop); the screen or
the page runs them off the table loop, and ``cancel`` from another thread ends the wait
at once.
"""

from __future__ import annotations

import base64
import binascii
import json
import secrets
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from spake2 import SPAKE2_Symmetric
from spake2.spake2 import SPAKEError

from app.errors import InvitationError
from app.games import GAMES, new_game
from app.remote.broker import Broker, Inbox
from app.remote.config import NAME_CHARS
from app.remote.sealing import Refused, confirmation, derive, open_sealed, seal
from app.table import texts

#: Crockford's base 32: no I, L, O or U, which are misread as 1, 1, 0 and V.
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
CODE_CHARS = 8
#: Characters of the code that only choose where the invitation waits (public).
SLOT_CHARS = 2
#: Wrong codes after which the invitation is withdrawn.
TRIES = 3
#: How long a joining board waits for the inviting one's answer, and the inviting
#: board for the joining one's word on the game it was sent.
ANSWER_S = 30.0
#: What a joining board says to the game it was sent, and how the inviting board words
#: a refusal (after the joining board's name).
ACCEPT = "accept"
REFUSALS = {"other game": "does not play {game}", "cancelled": "cancelled joining"}
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


def _title(game: str) -> str:
    """A game's title, or its name (cut short) for a game this version does not know."""
    return texts.title(game) if game in GAMES else game[:32]


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


def _keys(key: bytes, invitation: str) -> tuple[bytes, bytes, bytes]:
    """The welcome's key, the joining board's reply's and the game's secret, from
    SPAKE2's key."""
    return (derive(key, f"welcome {invitation}"), derive(key, f"reply {invitation}"),
            derive(key, f"game {invitation}"))


class _Mailbox:
    """The messages an invitation waits for (a bounded :class:`Inbox`), and a cancel
    that wakes the wait at once rather than at its next look."""

    def __init__(self) -> None:
        self._inbox = Inbox()
        self._ready = threading.Event()
        self.cancelled = False

    def put(self, topic: str, payload: bytes) -> None:  # paho's thread
        self._inbox.put(topic, payload)
        self._ready.set()

    def cancel(self) -> None:
        self.cancelled = True
        self._ready.set()

    def get(self, timeout: float) -> tuple[str, bytes] | None:
        """The next message, ``None`` once ``timeout`` seconds pass without one;
        :class:`InvitationError` once cancelled."""
        deadline = time.monotonic() + timeout
        while True:
            self._ready.clear()  # before looking: a message or cancel after it sets it
            if self.cancelled:
                raise InvitationError("cancelled")
            got = self._inbox.get(0)
            if got is not None:
                return got
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self._ready.wait(left)


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
        self._mailbox = _Mailbox()
        self._withdrawn = False
        # Both before an answer can come.
        broker.subscribe(self.topic + "/join", self._mailbox.put)
        broker.subscribe(self.topic + "/reply", self._mailbox.put)
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
        """Take the offer off the broker (an empty retained message clears it); once."""
        if self._withdrawn:
            return
        self._withdrawn = True
        self.broker.unsubscribe(self.topic + "/join")
        self.broker.publish(self.topic, b"", retain=True)

    def cancel(self) -> None:
        """End the invitation from another thread: the offer is taken off the broker,
        and :meth:`wait` ends at once (:class:`InvitationError`)."""
        self._mailbox.cancel()
        self.withdraw()

    def wait(self, timeout: float) -> Agreed:
        """The game agreed with the board that joins with the right code within
        ``timeout`` seconds and takes the game; :class:`InvitationError` in one line
        after :data:`TRIES` wrong codes, none in time, the joining board's refusal or no
        word from it within :data:`ANSWER_S`, or a :meth:`cancel` (the offer is then
        withdrawn)."""
        deadline = time.monotonic() + timeout
        agreed = None
        try:
            while (got := self._mailbox.get(deadline - time.monotonic())) is not None:
                topic, payload = got
                if agreed is None and topic == self.topic + "/join":
                    agreed = self._answer(payload)
                    if agreed is not None:
                        self.withdraw()  # one board joins: nobody else need try
                        deadline = time.monotonic() + ANSWER_S
                    elif self.wrong >= TRIES:
                        raise InvitationError(f"{TRIES} wrong codes: the invitation is "
                                              f"withdrawn, make a new one")
                elif agreed is not None and topic == self.topic + "/reply":
                    answer = self._reply(payload)
                    if answer == ACCEPT:
                        return agreed
                    if answer in REFUSALS:
                        said = REFUSALS[answer].format(game=_title(self.game))
                        raise InvitationError(f"{agreed.guest_name}'s board {said}: the "
                                              f"invitation is withdrawn")
            if agreed is not None:
                raise InvitationError(f"{agreed.guest_name}'s board did not answer: the "
                                      f"invitation is withdrawn, make a new one")
            raise InvitationError("nobody joined in time: the invitation is withdrawn")
        finally:
            self.broker.unsubscribe(self.topic + "/reply")
            self.withdraw()

    def _reply(self, payload: bytes) -> str | None:
        """What the joining board said to the game (``None``: not its word on it)."""
        try:
            reply = open_sealed(self._reply_key, self.topic + "/reply", payload)
        except Refused:
            return None  # a stranger's, or a refused try's board's
        answer = reply.get("answer")
        return answer if reply.get("id") == self.invitation and isinstance(answer, str) \
            else None

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
        welcome, self._reply_key, secret = _keys(key, self.invitation)
        self.broker.publish(self.topic + "/welcome", seal(welcome, self.topic + "/welcome", {
            "id": self.invitation, "game": self.game, "options": self.options,
            "host": self.host_colour, "name": self.name}))
        return Agreed(secret, self.game, self.options, self.host_colour, self.name, name)


class Guest:
    """The joining board's side: answers the invitation whose code a person ``typed``
    (:class:`InvitationError` at once if it is no code)."""

    def __init__(self, broker: Broker, club: str, typed: str, name: str) -> None:
        self.broker, self.name = broker, name[:NAME_CHARS]
        self.code = normalise(typed)
        self.topic = _topic(club, self.code)
        self._mailbox = _Mailbox()
        #: Guards the one word this board says to the game sent, which a cancel from
        #: another thread may say instead of :meth:`wait`.
        self._lock = threading.Lock()
        self._reply_key: bytes | None = None
        self._invitation = ""
        self._replied = False
        broker.subscribe(self.topic + "/welcome", self._mailbox.put)
        broker.subscribe(self.topic, self._mailbox.put)

    def cancel(self) -> None:
        """End the wait from another thread, at once; an inviting board that may have
        this board's answer is told that its person cancelled."""
        with self._lock:
            self._mailbox.cancel()
            if self._reply_key is not None and not self._replied:
                self._say("cancelled")

    def _say(self, answer: str) -> None:
        """This board's word on the game the inviting board sent (once)."""
        self._replied = True
        topic = self.topic + "/reply"
        self.broker.publish(topic, seal(self._reply_key, topic, {
            "id": self._invitation, "answer": answer}))

    def wait(self, timeout: float = ANSWER_S, games: Sequence[str] | None = None) -> Agreed:
        """The game agreed, taken if this board plays it (``games``; ``None``: any), or
        :class:`InvitationError` in one line: a wrong code, no such invitation, no
        answer, a game this board does not play (the inviting board is told so), or a
        :meth:`cancel`."""
        topic = self.topic
        deadline = time.monotonic() + timeout
        offer: dict[str, Any] | None = None
        sent = key = None
        try:
            while (got := self._mailbox.get(deadline - time.monotonic())) is not None:
                where, payload = got
                if where == topic:
                    try:
                        new = _read(payload)
                        refused = _unb64(new.get("refused", ""))
                        if new.get("closed") is True:
                            theirs = invitation = None
                        else:
                            invitation, theirs = new["id"], _unb64(new["pake"])
                            if (len(theirs) != PAKE_BYTES or not isinstance(invitation, str)
                                    or len(invitation) > 64):
                                raise ValueError("not an exchange")
                    except (ValueError, KeyError, TypeError, binascii.Error):
                        continue  # withdrawn (empty), or not an offer
                    if sent is not None and refused == sent:
                        raise InvitationError("the code does not match the invitation: "
                                              "check it on the other board and try again")
                    if new.get("closed") is True:
                        raise InvitationError("the invitation was withdrawn: ask the other "
                                              "board for a new one")
                    offer = new
                    spake = SPAKE2_Symmetric(self.code.encode(),
                                             idSymmetric=f"tabletop {invitation}".encode())
                    sent = spake.start()
                    try:
                        key = spake.finish(theirs)
                    except _BAD_EXCHANGE:
                        raise InvitationError("the invitation on the broker is damaged: "
                                              "ask for a new one") from None
                    with self._lock:
                        self._reply_key = _keys(key, invitation)[1]
                        self._invitation = invitation
                    self.broker.publish(topic + "/join", json.dumps({
                        "id": invitation, "try": offer.get("try"), "name": self.name,
                        "pake": _b64(sent),
                        "confirm": _b64(confirmation(key, b"guest", theirs, sent,
                                                     self.name.encode()))}).encode())
                elif key is not None and offer is not None:
                    welcome, _, secret = _keys(key, offer["id"])
                    try:
                        game = open_sealed(welcome, where, payload)
                    except Refused:
                        continue  # another board's welcome on this slot, or a stranger's
                    if game.get("id") != offer["id"]:
                        continue
                    return self._answer(_agreed(secret, game, self.name), games)
            raise InvitationError("no invitation with this code answered: check it, or "
                                  "ask the other board for a new one" if offer is None else
                                  "the inviting board did not answer in time")
        finally:
            self.broker.unsubscribe(topic)
            self.broker.unsubscribe(topic + "/welcome")

    def _answer(self, agreed: Agreed, games: Sequence[str] | None) -> Agreed:
        """Take the game sent, or refuse it, saying so to the inviting board."""
        with self._lock:
            if self._replied:  # cancelled, and said so
                raise InvitationError("cancelled")
            if games is not None and agreed.game not in games:
                self._say("other game")
                raise InvitationError(f"the invitation is for {_title(agreed.game)}; "
                                      f"this board plays "
                                      f"{' and '.join(map(texts.title, games))}")
            self._say(ACCEPT)
        return agreed


def join(broker: Broker, club: str, typed: str, name: str,
         timeout: float = ANSWER_S) -> Agreed:
    """Join the invitation whose code a person ``typed``, taking whatever game it
    offers: see :meth:`Guest.wait`."""
    return Guest(broker, club, typed, name).wait(timeout)


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
