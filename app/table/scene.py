"""LED scenes: what each hole or area shows, as data, and how a scene becomes a frame.

A scene maps a hole or an area to a :class:`Light` (a role, its colour, and whether it
blinks). It is built from the engine's ``lights()`` through :func:`app.table.roles.hole_roles`
plus what only the session knows (the engine's move waiting to be placed, a hint, an
illegal placement, moves to choose between). Colours and blinking come from
:mod:`app.colours` only; the scene dims them but invents none. Legal targets have a
colour of their own, never a player's or an error's. Rendering maps names to LED indices
through the board profile; the strip then applies its gamma table, brightness and the
current cap, so no scene can overdraw the power supply. The language is documented in
hardware/README.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from app.colours import DIM, RGB, ROLE_COLOURS, SETUP_COLOURS, role_of
from app.games import game as game_info
from app.hardware.profile import Profile
from app.table.roles import hole_roles
from app.sensing.events import OutOfSync
from engines.core import PLAYERS, Board
from engines.map_colours import colour_panels

BLACK: RGB = (0, 0, 0)


@dataclass(frozen=True)
class Light:
    """One hole's or area's light. ``by`` is whose move a lit move to place is (the
    engine's colour, or a player's away), so that the page and the screen name it as
    theirs; the LED shows the role's colour whoever's it is."""

    role: str
    colour: RGB
    blink: bool = False
    by: str | None = None


@dataclass(frozen=True)
class Scene:
    """Hole or area name -> :class:`Light`; anything not named is dark."""

    lights: Mapping[str, Light] = field(default_factory=lambda: MappingProxyType({}))

    def roles(self) -> dict[str, str]:
        return {name: light.role for name, light in self.lights.items()}

    def named(self, role: str) -> frozenset[str]:
        return frozenset(name for name, light in self.lights.items() if light.role == role)

    def frame(self, profile: Profile, *, blink_on: bool = True) -> list[RGB]:
        """One colour per LED in chain order; blinking lights are dark when ``blink_on``
        is false. Names the profile has no LEDs for are left out."""
        frame = [BLACK] * profile.led_count
        for name, light in self.lights.items():
            if name in profile.holes:
                leds = profile.holes[name].leds
            else:
                leds = profile.areas.get(name, ())
            colour = light.colour if blink_on or not light.blink else BLACK
            for index in leds:
                frame[index] = colour
        return frame


def _light(role: str, colour: RGB) -> Light:
    return Light(role, colour, role_of(role)[0].blink)


def dim(colour: RGB, factor: float = DIM) -> RGB:
    return tuple(int(c * factor) for c in colour)


def role_colour(game: str, role: str) -> RGB:
    """The colour of ``role`` in ``game``: its own (legal targets too: never a player's),
    or for the player roles (``owned_b``, ``won_w``) the player's LED colour, dimmed
    for an owned area."""
    look, player = role_of(role)
    if look.colour is not None:
        return look.colour
    led = game_info(game).players[player].led
    return dim(led) if role.startswith("owned_") else led


def recolourable_holes(board: Board) -> frozenset[str]:
    """The holes of the last move that a legal move would turn to the other colour without
    placing or lifting anything (ConHex's swap): lit so that players find that move,
    which a colour-blind board cannot see being made."""
    if not board.move_stack or board.is_game_over():
        return frozenset()
    before = board.sensor_view()
    last = last_move_holes(board)
    found = set()
    probe = board.copy()
    for hole in last:
        for move in board.moves_sensed_at(hole):
            probe.push(move)
            after = probe.sensor_view()
            probe.pop()
            if after.keys() == before.keys():
                found.update(h for h in after if after[h] != before[h])
    return frozenset(found)


def last_move_holes(board: Board) -> frozenset[str]:
    """The holes the last move filled or changed."""
    probe = board.copy()
    last = probe.pop()
    return probe.holes_of(last)


def game_scene(board: Board, *, sync: OutOfSync | None = None, show_legal: bool = True,
               suggestion: Iterable[str] = (), error: Iterable[str] = (),
               candidates: Iterable[str] = (), faults: Iterable[str] = (),
               seen: Iterable[str] = (), destinations: Iterable[str] | None = None,
               suggested_by: str | None = None) -> Scene:
    """The scene for a game in progress or over.

    In sync mode only the holes to fill and to empty light: nothing else can happen until
    the board matches. ``suggestion`` is the engine's move waiting to be placed or a
    hint, ``error`` an illegal placement, ``candidates`` moves the sensors cannot tell
    apart (or a correction to confirm), ``faults`` holes whose sensors are being
    ignored, shown in sync mode too, ``seen`` new pieces noticed before the board has
    settled, ``destinations`` where a lifted piece may go (an Akron ball in the hand),
    lit as the legal targets instead of the game's own; ``suggested_by`` is whose move
    the suggestion is, where it is a seat's chosen move rather than a hint. At the end the winner's areas shine steadily in the winner's full colour
    (nothing is asked of anyone any more), the loser's stay dim.
    """
    fault_lights = {h: _light("fault", ROLE_COLOURS["fault"]) for h in faults}
    if sync is not None:
        return Scene(MappingProxyType(
            {**{h: _light("fill", ROLE_COLOURS["fill"]) for h in sync.fill},
             **{h: _light("empty", ROLE_COLOURS["empty"]) for h in sync.empty},
             **fault_lights}))
    lights = board.lights()
    outcome = board.outcome()
    game = board.game
    scene: dict[str, Light] = {}
    for player in PLAYERS:
        role = (f"won_{player}" if outcome is not None and outcome.winner == player
                else f"owned_{player}")
        for area in lights.owned[player]:
            scene[area] = _light(role, role_colour(game, role))
    for area in lights.off_limits:
        scene[area] = _light("off_limits", ROLE_COLOURS["off_limits"])
    for hole, role in hole_roles(board).items():
        if role == "legal" and (not show_legal or destinations is not None):
            continue
        if role == "last" and outcome is not None:
            continue
        if outcome is not None and outcome.winner and role == f"owned_{outcome.winner}":
            role = f"won_{outcome.winner}"
        scene[hole] = _light(role, role_colour(game, role))
    for hole in destinations or ():
        scene[hole] = _light("legal", ROLE_COLOURS["legal"])
    for role, holes in (("seen", seen), ("candidate", candidates),
                        ("suggestion", suggestion), ("error", error)):
        by = suggested_by if role == "suggestion" else None
        for hole in holes:
            scene[hole] = Light(role, ROLE_COLOURS[role], role_of(role)[0].blink, by)
    scene.update(fault_lights)
    return Scene(MappingProxyType(scene))


def setup_scene(board: Board) -> Scene:
    """Where each loose area (a Kulami panel) goes: every area's holes in one colour,
    touching areas in different colours. Games without loose areas have none."""
    if not game_info(board.game).setup:
        return Scene()
    colours = _four_colour(board)
    return Scene(MappingProxyType({
        hole: Light("setup", SETUP_COLOURS[colours[area]])
        for area, holes in board.areas.items() for hole in holes}))


def single_scene(holes: Iterable[str], role: str) -> Scene:
    """Only ``holes`` lit, in ``role``'s colour: the self-test's one hole at a time."""
    return Scene(MappingProxyType({h: Light(role, ROLE_COLOURS[role]) for h in holes}))




def _four_colour(board: Board) -> dict[str, int]:
    """Area -> colour index with touching areas different: the areas' holes where the
    board places them, coloured as the terminal and the simulator colour them."""
    fields = {area: [(place.x, place.y) for hole in holes for place in (board.place(hole),)]
              for area, holes in board.areas.items()}
    return colour_panels(fields, len(SETUP_COLOURS))
