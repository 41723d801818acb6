"""The colour language shared by the LEDs and the screen.

LED roles have one colour each, documented in ``hardware/README.md``; the scene may dim
or blink them but never invents colours of its own. The players' colours belong to each
game's entry in :mod:`app.games`.
"""

from __future__ import annotations

RGB = tuple[int, int, int]

#: LED colour per role. Player-coloured roles (legal, owned) use the player's LED colour.
ROLE_COLOURS: dict[str, RGB] = {
    "off_limits": (80, 50, 0),     # dim amber: the last two Kulami panels (dim red
                                   # would read as a red player's owned panel)
    "last": (255, 255, 255),       # white: the last move
    "suggestion": (0, 255, 0),     # green: the engine's suggested move or its own move
    "fill": (0, 255, 0),           # green: sync mode, put a piece here
    "empty": (255, 0, 0),          # red: sync mode, take the piece away
    "error": (255, 0, 0),          # red flash: an illegal placement
    "candidate": (255, 200, 0),    # amber, blinking: moves to choose between
    "fault": (255, 0, 255),        # magenta, blinking: a sensor being ignored
    "seen": (110, 110, 110),       # soft white: a piece noticed, the move not yet read
    "setup": (0, 120, 255),        # blue: where a Kulami panel goes in the setup scene
}

#: The setup scene's colours, touching panels in different ones; the first is "setup".
SETUP_COLOURS: tuple[RGB, ...] = ((0, 120, 255), (255, 140, 0), (0, 200, 120), (200, 0, 200))

