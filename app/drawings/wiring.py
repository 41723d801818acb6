"""Where everything of a board goes, in millimetres: the plan ``tabletop wiring`` draws.

A profile says which sensor channel and which LEDs belong to each hole, and where each
hole sits (:attr:`Profile.places`: as its game's board places it, in hole spacings); the
profile's ``[board]`` table says how far apart the holes are and how big. From these alone the
plan places every hole, gives it its sensor channel and scan lines, and puts every LED
of the chain where it shines: under its hole, or for an area with its own LED (a ConHex
cell) amid the holes the game's board groups into that area. So a maker's own profile
is placed the same way as a shipped one, at its own sizes. Nothing here draws;
:mod:`app.drawings.sheet` does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from app.errors import ProfileError
from app.games import GAMES, new_game
from app.drawings.pinout import Scanner, scanner
from app.hardware.profile import BoardSize, Profile

#: How far apart two LEDs of one hole or area are drawn, in pitches.
LED_SPREAD = 0.25


@dataclass(frozen=True)
class PlacedHole:
    """A hole at ``x``, ``y`` mm from the board's top-left corner (``y`` grows down the
    paper), its sensor channel and scan lines (``None`` on a simulated board)."""

    name: str
    x: float
    y: float
    channel: int
    lines: tuple[int, int] | None


@dataclass(frozen=True)
class PlacedLed:
    """LED ``index`` of the chain, lighting ``lights`` (a hole, or an area when
    ``area``), at ``x``, ``y`` mm on the board."""

    index: int
    lights: str
    x: float
    y: float
    area: bool


@dataclass(frozen=True)
class Plan:
    profile: Profile
    board: BoardSize
    scanner: Scanner
    #: The game as people call it (``Blokus Duo``), or as the profile names it.
    title: str
    width: float
    height: float
    #: Every hole, in sensor channel order.
    holes: tuple[PlacedHole, ...]
    #: Every LED, in chain order.
    leds: tuple[PlacedLed, ...]


def plan(profile: Profile) -> Plan:
    """Every hole and LED of ``profile`` placed on a board of its ``[board]`` sizes."""
    board = profile.board
    if board is None:
        raise ProfileError(f"{profile.path}: board: missing table: add [board] with "
                           f"pitch_mm, hole_mm, shape and edge_mm, the sizes to draw the "
                           f"board at (hardware/README.md, \"The board's sizes\")")
    unplaced = [name for name in profile.holes if name not in profile.places]
    if unplaced:
        raise ProfileError(f"{profile.path}: holes: {unplaced[0]} has no place: "
                           f"{profile.game} is no game this table knows, so its holes are "
                           f"placed only as [holes] columns and rows")
    places = {name: (place.x, place.y) for name, place in profile.places.items()}
    columns = [x for x, _ in places.values()]
    rows = [y for _, y in places.values()]
    left, top = min(columns), max(rows)

    def at(x: float, y: float) -> tuple[float, float]:
        """A place in hole spacings on the board, in mm from its top-left corner."""
        return (board.edge_mm + (x - left) * board.pitch_mm,
                board.edge_mm + (top - y) * board.pitch_mm)

    scan = scanner(profile)
    holes = tuple(PlacedHole(name, *at(*places[name]), hole.channel, scan.lines(hole.channel))
                  for name, hole in sorted(profile.holes.items(),
                                           key=lambda item: item[1].channel))
    centres = {hole.name: (hole.x, hole.y) for hole in holes}
    centres.update(_area_centres(profile, centres, board.pitch_mm))
    leds = []
    for name, indices in [*((n, h.leds) for n, h in profile.holes.items()),
                          *profile.areas.items()]:
        x, y = centres[name]
        for k, index in enumerate(indices):
            offset = (k - (len(indices) - 1) / 2) * LED_SPREAD * board.pitch_mm
            leds.append(PlacedLed(index, name, x + offset, y, name in profile.areas))
    width, height = at(max(columns), min(rows))
    info = GAMES.get(profile.game.lower())
    return Plan(profile, board, scan, info.title if info else profile.game,
                width + board.edge_mm, height + board.edge_mm, holes,
                tuple(sorted(leds, key=lambda led: led.index)))


def _area_centres(profile: Profile, centres: dict[str, tuple[float, float]],
                  pitch: float) -> dict[str, tuple[float, float]]:
    """Where an area's own LED goes: amid the holes the game groups into the area. The
    holes of an area along the board's side (a ConHex side cell) lie in a line, whose
    middle hole is their centre: that LED goes half a pitch further out, where the
    area reaches to the edge, so that it is not under a hole's LED."""
    if not profile.areas:
        return {}
    if profile.game.lower() not in GAMES:
        raise ProfileError(f"{profile.path}: chain.areas: {profile.game} is no game "
                           f"Tabletop knows, so its areas have no place to be drawn")
    areas = new_game(profile.game).areas
    xs, ys = [x for x, _ in centres.values()], [y for _, y in centres.values()]
    middle = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
    found = {}
    for name in profile.areas:
        if name not in areas:
            raise ProfileError(f"{profile.path}: chain.areas: {name} is no area of "
                               f"{profile.game}, so it has no place to be drawn")
        points = [centres[hole] for hole in sorted(areas[name])]
        x = sum(x for x, _ in points) / len(points)
        y = sum(y for _, y in points) / len(points)
        if any(math.dist((x, y), point) < pitch / 4 for point in points):
            dx, dy = x - middle[0], y - middle[1]
            if abs(dx) >= abs(dy):
                x += math.copysign(pitch / 2, dx)
            else:
                y += math.copysign(pitch / 2, dy)
        found[name] = (x, y)
    return found
