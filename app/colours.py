"""The LED colour language: what each light looks like and what it means, in one place.

Every light the board shows has a role (``legal``, ``last``, ``error``, ...). Each role
has one colour, blinks or not, and has a meaning in words; the LED scenes
(:mod:`app.table.scene`), the simulator (which draws the LEDs as they are lit) and the
status screen's legend (:mod:`app.screen.legend`) all take them from here, and
``hardware/README.md`` documents them. Scenes may dim a colour but never invent one.

Hue is never the only difference between roles that are shown together: blinking asks
someone to act now (steady lights describe the game), owned areas glow dimly while the
lights about the next move shine at full strength, and roles that share a behaviour
differ in lightness or on both colour axes, so that they stay apart for people with
deuteranopia, protanopia or tritanopia too (``tests/test_colour_language.py`` simulates
the three and measures the distance between every such pair).
"""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]

# --- the palette --------------------------------------------------------------------------
WHITE: RGB = (255, 255, 255)
GREY: RGB = (120, 120, 120)
SKY_BLUE: RGB = (96, 176, 224)
GREEN: RGB = (0, 255, 128)  # a blue-green: kept apart from red for red-green blindness
RED: RGB = (255, 0, 0)
BLUE: RGB = (0, 0, 255)
MAGENTA: RGB = (255, 0, 255)
AMBER: RGB = (160, 112, 0)  # dark amber: brighter than an owned area, dimmer than a move

#: The LED colours players may have, by name (each game picks its two in app/games.py).
PLAYER_COLOURS: dict[str, RGB] = {"red": RED, "blue": BLUE}

#: Owned areas glow at this fraction of the owner's colour, so that the full-strength
#: lights about the next move stand out on top of them.
DIM = 0.45

#: The setup scene's colours, touching panels in different ones; the first is "setup".
#: Blue, teal, red and yellow differ in lightness or on both colour axes, so touching
#: panels stay apart for colour-blind players too.
SETUP_COLOURS: tuple[RGB, ...] = ((0, 0, 255), (0, 200, 200), (200, 0, 0), (255, 230, 0))


@dataclass(frozen=True)
class Role:
    """How one role looks and what it means.

    ``colour`` is ``None`` for the player roles (``owned_b``, ``won_w``, ...), which take
    the player's LED colour; ``words`` names the colour, ``meaning`` is the legend's
    line (``{player}`` stands for the player's name).
    """

    colour: RGB | None
    words: str
    blink: bool
    meaning: str


#: Every role, most urgent first (the legend lists them in this order).
ROLES: dict[str, Role] = {
    "fault": Role(MAGENTA, "magenta", True, "Sensor ignored"),
    "fill": Role(GREEN, "green", False, "Put a piece here"),
    "empty": Role(RED, "red", False, "Take this piece off"),
    "error": Role(RED, "red", True, "Not a legal move"),
    "suggestion": Role(GREEN, "green", True, "Engine's move or hint"),
    "candidate": Role(WHITE, "white", True, "Move to confirm"),
    "seen": Role(GREY, "grey", False, "Piece noticed"),
    "last": Role(WHITE, "white", False, "Last move"),
    "legal": Role(SKY_BLUE, "sky blue", False, "Legal move"),
    "off_limits": Role(AMBER, "dark amber", False, "Off limits now"),
    "owned": Role(None, "the owner's colour, dim", False, "Owned by {player}"),
    "won": Role(None, "the winner's colour", False, "Won by {player}"),
    "setup": Role(SETUP_COLOURS[0], "blue, teal, red, yellow", False, "Where a panel goes"),
}

#: LED colour per role; the player roles (owned, won) take the player's LED colour.
ROLE_COLOURS: dict[str, RGB] = {name: role.colour for name, role in ROLES.items()
                                if role.colour is not None}

#: Roles that blink: each asks a person to do something now.
BLINKING = frozenset(name for name, role in ROLES.items() if role.blink)


def role_of(name: str) -> tuple[Role, str | None]:
    """The :class:`Role` of a scene's role name and its player: ``owned_b`` is
    (``ROLES["owned"]``, ``"b"``), ``legal`` is (``ROLES["legal"]``, ``None``)."""
    if name in ROLES:
        return ROLES[name], None
    kind, _, player = name.rpartition("_")
    if kind in ROLES and ROLES[kind].colour is None and player:
        return ROLES[kind], player
    raise KeyError(f"no LED role {name!r}")
