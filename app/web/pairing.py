"""Who may change the table from a browser: the pairing code and the tokens it earns.

Anyone on the home network may watch the board and download its games; changing the
table (a new game, a takeback, the settings, a seat) needs the pairing code that the
status screen shows, a new one at each start unless the configuration fixes one. A code
typed right earns the browser a token, which it sends in a header with every change
(never a cookie, which a page on another site could make the browser send: no
cross-site request forgery). Wrong codes are refused for a while after a few, per
address and from all addresses together, so that six digits cannot be guessed by trying
from one device or from many: a try is counted before its code is judged, in one step
with the check, so tries sent at once are counted like tries sent one by one. Every
answer, right or wrong, waits ``ANSWER_DELAY_S``, so its time tells nothing.
"""

from __future__ import annotations

import hmac
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from app.table.config import CODE_DIGITS  # a million codes, TRIES guesses per LOCKOUT_S

#: Wrong codes from one address before it must wait, and how long it waits.
TRIES, LOCKOUT_S = 5, 300.0
#: Wrong codes from all addresses together before every address waits: 50 devices guess
#: no faster than two (about 170 days on average for a 6-digit code). Only the board's
#: own page may send a code (``Origin``), so another site cannot spend these tries.
ALL_TRIES = 10
#: Every answer, right or wrong, waits this long: guessing by script is slowed, and the
#: time of an answer does not tell a right code from a wrong one.
ANSWER_DELAY_S = 1.0
#: The header a paired browser sends its token in.
TOKEN_HEADER = "X-Tabletop-Token"


def new_code() -> str:
    """A fresh random pairing code, ``CODE_DIGITS`` digits."""
    return f"{secrets.randbelow(10 ** CODE_DIGITS):0{CODE_DIGITS}d}"


@dataclass
class Pairing:
    """The code of this start, the tokens it has earned, and the wrong tries per
    address. ``clock`` gives seconds (monotonic); tests pass a fake one."""

    code: str = field(default_factory=new_code)
    clock: Callable[[], float] = time.monotonic
    tokens: set[str] = field(default_factory=set)
    _wrong: dict[str, list[float]] = field(default_factory=dict)
    _all_wrong: list[float] = field(default_factory=list)

    def locked_for(self, address: str) -> float:
        """Seconds ``address`` must still wait before its next try (0: it may try)."""
        now = self.clock()
        recent = [t for t in self._wrong.get(address, []) if now - t < LOCKOUT_S]
        self._wrong[address] = recent
        self._all_wrong = [t for t in self._all_wrong if now - t < LOCKOUT_S]
        waits = [LOCKOUT_S - (now - tries[-limit]) for tries, limit in
                 ((recent, TRIES), (self._all_wrong, ALL_TRIES)) if len(tries) >= limit]
        return max(waits, default=0.0)

    def pair(self, address: str, code: str) -> str | None:
        """A new token for ``address`` if ``code`` is this start's, else ``None`` (the
        wrong try counted); :class:`Locked` if ``address`` must wait first. The try is
        counted before the code is judged, with no pause between: concurrent tries
        cannot slip past the count."""
        wait = self.locked_for(address)
        if wait:
            raise Locked(wait)
        now = self.clock()
        self._wrong.setdefault(address, []).append(now)
        self._all_wrong.append(now)
        if hmac.compare_digest(_bytes(code.strip()), _bytes(self.code)):
            self._wrong.pop(address, None)
            self._all_wrong.remove(now)
            token = secrets.token_urlsafe(24)
            self.tokens.add(token)
            return token
        return None

    def allows(self, token: str | None) -> bool:
        """Whether ``token`` was earned with this start's code (any text: a header
        may hold anything)."""
        return bool(token) and any(hmac.compare_digest(_bytes(token), _bytes(known))
                                   for known in self.tokens)


class Locked(Exception):
    """Too many wrong codes: ``wait`` seconds before the next try."""

    def __init__(self, wait: float) -> None:
        super().__init__(f"too many wrong codes: try again in {int(wait) + 1} s")
        self.wait = wait


def _bytes(text: str) -> bytes:
    """``text`` as bytes, whatever it holds (a lone surrogate from JSON included)."""
    return text.encode("utf-8", "surrogatepass")
