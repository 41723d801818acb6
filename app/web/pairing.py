"""Who may change the table from a browser: the pairing code and the tokens it earns.

Anyone on the home network may watch the board and download its games; changing the
table (a new game, a takeback, the settings, a seat) needs the pairing code that the
status screen shows, a new one at each start unless the configuration fixes one. A code
typed right earns the browser a token, which it sends in a header with every change
(never a cookie, which a page on another site could make the browser send: no
cross-site request forgery). Wrong codes are slowed and then refused for a while, per
address, so that six digits cannot be guessed by trying.
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
#: Each wrong code is answered this much later: guessing by script is slowed at once.
WRONG_DELAY_S = 1.0
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

    def locked_for(self, address: str) -> float:
        """Seconds ``address`` must still wait before its next try (0: it may try)."""
        now = self.clock()
        recent = [t for t in self._wrong.get(address, []) if now - t < LOCKOUT_S]
        self._wrong[address] = recent
        if len(recent) < TRIES:
            return 0.0
        return LOCKOUT_S - (now - recent[-TRIES])

    def pair(self, address: str, code: str) -> str | None:
        """A new token for ``address`` if ``code`` is this start's, else ``None`` (the
        wrong try counted). The caller refuses an address that is locked first."""
        if hmac.compare_digest(code.strip().encode(), self.code.encode()):
            self._wrong.pop(address, None)
            token = secrets.token_urlsafe(24)
            self.tokens.add(token)
            return token
        self._wrong.setdefault(address, []).append(self.clock())
        return None

    def allows(self, token: str | None) -> bool:
        """Whether ``token`` was earned with this start's code."""
        return bool(token) and any(hmac.compare_digest(token, known)
                                   for known in self.tokens)
