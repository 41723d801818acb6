"""Where everything of a board goes, in millimetres: the plan ``tabletop wiring`` draws.

A profile says which sensor channel and which LEDs belong to each hole; a hole's name
says where it sits on its game's grid (:func:`engines.grid.column_row`); the game's
pieces say how far apart the holes are. From these alone the plan places every hole,
gives it its sensor channel and scan lines, and puts every LED of the chain where it
shines: under its hole, or for an area with its own LED (a ConHex cell) amid the holes
the game's board groups into that area. So a maker's own profile is placed the same
way as a shipped one. Nothing here draws; :mod:`app.hardware.sheet` does.

The sizes are data, never code: ``app/hardware/pieces/GAME.toml`` for the shipped
games, or a maker's own file of the same form for other pieces or a game of their own.
They cannot live in the profile, whose tables are the wiring and are checked strictly.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from app.errors import ConfigError, ProfileError
from app.games import GAMES, new_game
from app.hardware.pinout import Scanner, scanner
from app.hardware.profile import Profile
from app.textfile import read_text
from engines.grid import column_row

#: The shipped sizes, one file per game, named as the registry names the game.
PIECES_DIR = resources.files("app.hardware") / "pieces"
#: A hole is round (a dimple for a marble or a ball, a peg's hole) or a square that a
#: piece covers.
SHAPES = ("circle", "square")
#: How far apart two LEDs of one hole or area are drawn, in pitches.
LED_SPREAD = 0.25


@dataclass(frozen=True)
class Pieces:
    """The sizes a board is drawn at, in millimetres: ``pitch_mm`` between neighbouring
    holes' centres, ``hole_mm`` across a hole (a square's side), ``edge_mm`` from the
    outer holes' centres to the board's edge."""

    where: str
    pitch_mm: float
    hole_mm: float
    shape: str
    edge_mm: float


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
    pieces: Pieces
    scanner: Scanner
    #: The game as people call it (``Blokus Duo``), or as the profile names it.
    title: str
    width: float
    height: float
    #: Every hole, in sensor channel order.
    holes: tuple[PlacedHole, ...]
    #: Every LED, in chain order.
    leds: tuple[PlacedLed, ...]


def load_pieces(game: str, path: Path | str | None = None) -> Pieces:
    """The sizes in ``path``, or the shipped ones of ``game``."""
    if path is None:
        source: Path | Traversable = PIECES_DIR / f"{game}.toml"
        if not source.is_file():
            raise ConfigError(f"no piece sizes are shipped for the game {game!r}: give "
                              f"a file of your own (--pieces)")
        # Where the file is in the checkout, not in this machine's installation.
        where = f"app/hardware/pieces/{game}.toml"
    else:
        source = Path(path)
        where = str(source)
    try:
        raw = tomllib.loads(read_text(source, ConfigError))
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{source}: not valid TOML: {error}") from None
    known = ("pitch_mm", "hole_mm", "shape", "edge_mm")
    for key in raw:
        if key not in known:
            raise ConfigError(f"{source}: {key}: unknown key (known: {', '.join(known)})")

    def size(key: str) -> float:
        if key not in raw:
            raise ConfigError(f"{source}: {key}: missing")
        value = raw[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or not 0 < value < 1000:
            raise ConfigError(f"{source}: {key}: must be millimetres above 0 and below "
                              f"1000, not {value!r}")
        return float(value)

    pieces = Pieces(where, size("pitch_mm"), size("hole_mm"), raw.get("shape", "circle"),
                    size("edge_mm"))
    if pieces.shape not in SHAPES:
        raise ConfigError(f"{source}: shape: must be one of {', '.join(SHAPES)}, not "
                          f"{pieces.shape!r}")
    if pieces.hole_mm > pieces.pitch_mm:
        raise ConfigError(f"{source}: hole_mm: {pieces.hole_mm:g} is wider than the pitch "
                          f"({pieces.pitch_mm:g}): neighbouring holes would overlap")
    return pieces


def plan(profile: Profile, pieces: Pieces) -> Plan:
    """Every hole and LED of ``profile`` placed on a board of ``pieces``' sizes."""
    places = {}
    for name in profile.holes:
        place = column_row(name)
        if place is None:
            raise ProfileError(f"{profile.path}: holes: {name} names no place on a grid "
                               f"(a column letter and a row number), so it cannot be drawn")
        places[name] = place
    columns = [column for column, _ in places.values()]
    rows = [row for _, row in places.values()]
    left, top = min(columns), max(rows)
    # Akron's holes sit on every other point of its grid: one pitch is the grid's step.
    step = math.gcd(*(c - left for c in columns), *(top - r for r in rows)) or 1
    scale = pieces.pitch_mm / step

    def at(column: float, row: float) -> tuple[float, float]:
        return (pieces.edge_mm + (column - left) * scale,
                pieces.edge_mm + (top - row) * scale)

    scan = scanner(profile)
    holes = tuple(PlacedHole(name, *at(*places[name]), hole.channel, scan.lines(hole.channel))
                  for name, hole in sorted(profile.holes.items(),
                                           key=lambda item: item[1].channel))
    centres = {hole.name: (hole.x, hole.y) for hole in holes}
    centres.update(_area_centres(profile, centres, pieces.pitch_mm))
    leds = []
    for name, indices in [*((n, h.leds) for n, h in profile.holes.items()),
                          *profile.areas.items()]:
        x, y = centres[name]
        for k, index in enumerate(indices):
            offset = (k - (len(indices) - 1) / 2) * LED_SPREAD * pieces.pitch_mm
            leds.append(PlacedLed(index, name, x + offset, y, name in profile.areas))
    width, height = at(max(columns), min(rows))
    info = GAMES.get(profile.game.lower())
    return Plan(profile, pieces, scan, info.title if info else profile.game,
                width + pieces.edge_mm, height + pieces.edge_mm, holes,
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
