"""The colour language shared by the LEDs and the screen.

Players have a display name and a piece colour per game (the wire colours are always
``b`` for the first player and ``w`` for the second). LED roles have one colour each,
documented in ``hardware/README.md``; the scene may dim or blink them but never invents
colours of its own.
"""

from __future__ import annotations

RGB = tuple[int, int, int]

#: game -> wire colour -> (display name, piece colour on screen, the player's LED colour)
PLAYERS: dict[str, dict[str, tuple[str, RGB, RGB]]] = {
    "kulami": {"b": ("red", (200, 30, 30), (255, 0, 0)),
               "w": ("black", (25, 25, 25), (0, 60, 255))},
    "conhex": {"b": ("red", (200, 30, 30), (255, 0, 0)),
               "w": ("blue", (30, 70, 200), (0, 60, 255))},
    "akron": {"b": ("white", (235, 235, 225), (255, 255, 255)),
              "w": ("red", (200, 30, 30), (255, 0, 0))},
    "blokus-duo": {"b": ("purple", (120, 60, 170), (140, 0, 255)),
                   "w": ("orange", (240, 140, 30), (255, 110, 0))},
}

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
    "setup": (0, 120, 255),        # blue: where a Kulami panel goes in the setup scene
}

#: The setup scene's colours, touching panels in different ones; the first is "setup".
SETUP_COLOURS: tuple[RGB, ...] = ((0, 120, 255), (255, 140, 0), (0, 200, 120), (200, 0, 200))


def player_name(game: str, player: str) -> str:
    return PLAYERS.get(game, PLAYERS["kulami"])[player][0]


def piece_colour(game: str, player: str) -> RGB:
    return PLAYERS.get(game, PLAYERS["kulami"])[player][1]


def led_colour(game: str, player: str) -> RGB:
    return PLAYERS.get(game, PLAYERS["kulami"])[player][2]
