"""The page's "Far board" part: what it shows of a game with a board far away being set
up (:class:`app.remote.play.FarPlay`'s state), to whom.

The invitation's code is the invitation's password: whoever has it may take the far seat
(it is good for one exchange only, and the invitation is withdrawn after a few wrong
tries). So the live snapshot, which every browser on the home network may read, carries
the state without it (:func:`public`: the phase and the line, the code blotted out), and
only a paired browser is given the code, with a link and a QR code of it
(:func:`invitation`) to pass on to the other board's player.

The link names ``tabletop.local``, not this board's address: scanned in the other home,
it opens the page of the board there (mDNS finds each home's own board by that name) at
its Join form with the code filled in (``#join=CODE``, in the fragment, so the code
never reaches a server's log or another page's Referer). It carries the code and
nothing else.
"""

from __future__ import annotations

import re
from typing import Any

import segno

from app.web.mdns import HOST_NAME

#: Anything written as an invitation code (``K7QM-R2XD``, Crockford's letters and digits).
_CODE = re.compile(r"\b[0-9A-HJKMNP-TV-Z]{4}-?[0-9A-HJKMNP-TV-Z]{4}\b")
#: What the public view shows in place of a code.
HIDDEN = "····-····"
#: The phase in which an offer is on the broker, the only time its link is of use (as
#: :mod:`app.remote.play` names it).
OFFERING = "offering"


def public(state: Any, seen: int) -> dict[str, Any]:
    """``state`` (a :class:`~app.remote.play.FarState`) as any browser may see it: its
    phase and line with no code in them; ``seen`` counts the changes, so a paired page
    knows when to ask for the rest."""
    line = state.line.replace(state.code, HIDDEN) if state.code else state.line
    return {"phase": state.phase, "line": _CODE.sub(HIDDEN, line), "busy": state.busy,
            "seen": seen}


def invitation(state: Any, port: int) -> dict[str, Any]:
    """``state`` as a paired browser sees it: with its code and, while an offer waits on
    the broker, the link to the other board's Join form and its QR code (an SVG data
    URI, drawn by segno)."""
    shown = {"phase": state.phase, "line": state.line, "busy": state.busy,
             "code": state.code, "link": None, "qr": None}
    if state.code and state.phase == OFFERING:
        link = join_link(state.code, port)
        shown.update(link=link, qr=qr_code(link))
    return shown


def join_link(code: str, port: int) -> str:
    """The Join form of the board called ``tabletop.local`` in the network of whoever
    opens it (on this board's port, the one boards serve on by default unless the
    configuration moved it), with ``code`` filled in."""
    at = "" if port == 80 else f":{port}"
    return f"http://{HOST_NAME}.local{at}/#join={code}"


def qr_code(link: str) -> str:
    """``link`` as a QR code, an SVG data URI the page shows as an image (its style
    sheet's ``img-src data:`` allows it): dark modules on a light ground with the quiet
    zone the standard asks for, so a phone's camera reads it off a dark page."""
    return segno.make(link, error="m").svg_data_uri(scale=6, dark="#000", light="#fff")
