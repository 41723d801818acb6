"""The LED colour language (app/colours.py) stays readable for everyone.

Roles the board can light together are told apart by blinking or, when they behave
alike, by colour, for normal vision and for the three dichromacies. Each colour is seen
as a person with deuteranopia, protanopia or tritanopia sees it, by the matrices of
Machado, Oliveira and Fernandes (2009, "A physiologically-based model for simulation of
color vision deficiency", IEEE TVCG 15(6); severity 1.0, applied to linear sRGB), and
compared with CIEDE2000 (Sharma, Wu and Dalal 2005, whose test pairs check the formula
below). A difference of 20 is two colours one names differently at a glance; 2 is a
just noticeable one.
"""

from __future__ import annotations

import itertools
import math
import re
from pathlib import Path

import pytest

from app.colours import (BLINKING, DIM, PLAYER_COLOURS, ROLE_COLOURS, ROLES, SETUP_COLOURS,
                         role_of)
from app.games import GAMES, game
from app.table.scene import role_colour
from tests.test_simulator import click, sim  # noqa: F401  (sim: the fixture)

#: Roles the board lights together that blink alike must differ at least this much, in
#: every vision; so must legal targets from errors and players, and the hint from the
#: last move, whatever their blinking.
APART = 20.0
#: Every lit role differs at least this much from an unlit LED (dim owned areas too).
FROM_OFF = 15.0

MACHADO_2009 = {
    "protanopia": ((0.152286, 1.052583, -0.204868),
                   (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968),
                     (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779),
                   (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
VISIONS = ("normal", *MACHADO_2009)


def linear(value: int) -> float:
    c = value / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def seen_by(colour, vision: str) -> tuple[float, float, float]:
    """``colour`` in linear sRGB as ``vision`` sees it."""
    rgb = [linear(c) for c in colour]
    if vision == "normal":
        return tuple(rgb)
    return tuple(min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb))))
                 for row in MACHADO_2009[vision])


def lab(rgb) -> tuple[float, float, float]:
    """Linear sRGB to CIELAB (D65)."""
    r, g, b = rgb
    xyz = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b,
           0.2126729 * r + 0.7151522 * g + 0.0721750 * b,
           0.0193339 * r + 0.1191920 * g + 0.9503041 * b)
    f = [t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116
         for t in (xyz[0] / 0.95047, xyz[1] / 1.0, xyz[2] / 1.08883)]
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def ciede2000(lab1, lab2) -> float:
    """The CIEDE2000 colour difference (kL = kC = kH = 1)."""
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1, a2 = a1 * (1 + g), a2 * (1 + g)
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1 = math.degrees(math.atan2(b1, a1)) % 360 if c1 else 0.0
    h2 = math.degrees(math.atan2(b2, a2)) % 360 if c2 else 0.0
    dh = 0.0 if c1 * c2 == 0 else (h2 - h1 + 180) % 360 - 180
    dl, dc = l2 - l1, c2 - c1
    d_hue = 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    l_mean, c_mean = (l1 + l2) / 2, (c1 + c2) / 2
    if c1 * c2 == 0:
        h_mean = h1 + h2
    elif abs(h1 - h2) <= 180:
        h_mean = (h1 + h2) / 2
    else:
        h_mean = (h1 + h2 + (360 if h1 + h2 < 360 else -360)) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30))
         + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6))
         - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    rotation = 30 * math.exp(-((h_mean - 275) / 25) ** 2)
    r_c = 2 * math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c, s_h = 1 + 0.045 * c_mean, 1 + 0.015 * c_mean * t
    r_t = -math.sin(math.radians(2 * rotation)) * r_c
    return math.sqrt((dl / s_l) ** 2 + (dc / s_c) ** 2 + (d_hue / s_h) ** 2
                     + r_t * (dc / s_c) * (d_hue / s_h))


def difference(a, b, vision: str) -> float:
    return ciede2000(lab(seen_by(a, vision)), lab(seen_by(b, vision)))


def closest(a, b) -> tuple[float, str]:
    """The smallest difference between two colours over the four visions, and where."""
    return min((difference(a, b, vision), vision) for vision in VISIONS)


# --- the yardsticks themselves ---------------------------------------------------------

@pytest.mark.parametrize("lab1, lab2, expected", [  # Sharma, Wu and Dalal (2005), table 1
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, -1.0, 2.0), (50.0, 0.0, 0.0), 2.3669),
    ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0011), 7.2195),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((22.7233, 20.0904, -46.694), (23.0331, 14.973, -42.5619), 2.0373),
])
def test_ciede2000_matches_the_published_test_pairs(lab1, lab2, expected):
    assert ciede2000(lab1, lab2) == pytest.approx(expected, abs=1e-4)


def test_the_simulations_keep_greys_and_confuse_what_each_deficiency_confuses():
    for vision in VISIONS:
        for grey in ((255, 255, 255), (120, 120, 120)):
            assert ciede2000(lab(seen_by(grey, vision)), lab(seen_by(grey, "normal"))) < 1
    red, green = (255, 0, 0), (0, 160, 0)
    assert difference(red, green, "normal") > 40
    assert difference(red, (150, 120, 0), "deuteranopia") < 10  # red looks olive
    assert difference((0, 0, 255), (0, 120, 120), "tritanopia") < 20  # blue looks teal


# --- the palette ------------------------------------------------------------------------

def looks(name: str, role: str):
    """How ``role`` looks in game ``name``: its colour and whether it blinks."""
    return role_colour(name, role), role_of(role)[0].blink


def scenes(name: str) -> dict[str, set[str]]:
    """The roles each kind of scene can light at once in game ``name``."""
    roles = set(game(name).roles)
    playing = {"legal", "last", "seen", "owned_b", "owned_w", "suggestion", "error",
               "candidate", "fault"} | ({"off_limits"} & roles)
    return {"playing": playing,
            "end, red won": {"won_b", "owned_w", "error", "fault", "seen"},
            "end, the other won": {"won_w", "owned_b", "error", "fault", "seen"},
            "sync": {"fill", "empty", "fault"}}


PAIRS = [(name, scene, a, b) for name in GAMES for scene, roles in scenes(name).items()
         for a, b in itertools.combinations(sorted(roles), 2)]


@pytest.mark.parametrize("name, scene, a, b", PAIRS)
def test_roles_lit_together_differ_in_blinking_or_clearly_in_colour(name, scene, a, b):
    (colour_a, blink_a), (colour_b, blink_b) = looks(name, a), looks(name, b)
    if blink_a != blink_b:
        return  # one blinks, the other does not: told apart without colour
    gap, vision = closest(colour_a, colour_b)
    assert gap >= APART, f"{a} {colour_a} and {b} {colour_b}: {gap:.1f} in {vision}"


@pytest.mark.parametrize("name", GAMES)
def test_legal_targets_never_look_like_an_error_or_a_player(name):
    legal = ROLE_COLOURS["legal"]
    others = {"error": ROLE_COLOURS["error"],
              **{f"{role}_{p}": role_colour(name, f"{role}_{p}")
                 for role in ("owned", "won") for p in "bw"}}
    for role, colour in others.items():
        gap, vision = closest(legal, colour)
        assert gap >= APART, f"legal and {role}: {gap:.1f} in {vision}"
    assert "legal" not in BLINKING


def test_the_hint_and_the_last_move_are_distinct_in_every_vision():
    gap, vision = closest(ROLE_COLOURS["suggestion"], ROLE_COLOURS["last"])
    assert gap >= APART, f"{gap:.1f} in {vision}"


@pytest.mark.parametrize("name", GAMES)
def test_every_light_stands_out_from_an_unlit_led(name):
    for role in sorted(set(game(name).roles) - {"setup"}):
        gap, vision = closest(role_colour(name, role), (0, 0, 0))
        assert gap >= FROM_OFF, f"{role}: {gap:.1f} in {vision}"


def test_touching_setup_panels_differ_in_every_vision():
    for a, b in itertools.combinations(SETUP_COLOURS, 2):
        gap, vision = closest(a, b)
        assert gap >= APART, f"{a} and {b}: {gap:.1f} in {vision}"
    assert ROLE_COLOURS["setup"] == SETUP_COLOURS[0]


def test_errors_and_requests_blink_and_descriptions_do_not():
    assert BLINKING == {"error", "suggestion", "candidate", "fault"}
    assert not {"legal", "last", "owned", "won", "off_limits", "fill", "empty"} & BLINKING


def test_owned_areas_are_the_owner_s_colour_dimmed_and_players_use_the_palette():
    for name, info in GAMES.items():
        leds = [player.led for player in info.players.values()]
        assert set(leds) <= set(PLAYER_COLOURS.values()) and len(set(leds)) == 2
        for p, player in info.players.items():
            assert role_colour(name, f"won_{p}") == player.led
            assert role_colour(name, f"owned_{p}") == tuple(int(c * DIM) for c in player.led)


# --- the makers' guide documents the language -------------------------------------------

GUIDE = Path(__file__).resolve().parents[1] / "hardware" / "README.md"


def guide_table() -> dict[str, str]:
    """Role -> its row in the makers' guide's colour table (``fill / empty`` rows name
    both roles)."""
    text = GUIDE.read_text(encoding="utf-8")
    section = text.split("## The colour language", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) >= 3 and not set(cells[0]) <= set("-"):
            for role in re.split(r"\s*/\s*", cells[0]):
                rows[role] = line
    return rows


def test_every_role_is_in_the_makers_guide_with_its_colour_and_blinking():
    rows = guide_table()
    assert set(ROLES) <= set(rows), sorted(set(ROLES) - set(rows))
    for role, look in ROLES.items():
        row = rows[role].lower()
        assert look.words.split(",")[0] in row, (role, look.words)
        assert ("blinking" in row) == look.blink, role


# --- one language on the LEDs, in the simulator and in the legend ------------------------

def test_the_simulator_draws_the_leds_in_the_language_s_colours(sim):
    drawn = click(sim, "d4")
    legal = sorted(sim.session.scene().named("legal") - set(sim.pieces))
    assert legal and all(sim.window.get_at(sim.drawer.centres[h])[:3] == ROLE_COLOURS["legal"]
                         for h in legal)
    pending = sim.session.status().pending
    assert sim.window.get_at(sim.drawer.centres[pending])[:3] == ROLE_COLOURS["suggestion"]
    # the LEDs themselves are sent the gamma-corrected values, not the colours drawn
    sent = sim.strip.frames[-1][sim.profile.holes[legal[0]].leds[0]]
    assert sent != ROLE_COLOURS["legal"] and max(sent) < max(ROLE_COLOURS["legal"])
    assert "Legal move" in drawn.text
