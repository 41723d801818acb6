"""Board profiles: which sensor channel and which LEDs belong to each hole, as TOML data.

A profile describes one physical board (or its simulated twin) so that no driver and no
game needs to know how a maker wired it. Everything is checked at load time and every
problem is one line naming the file, the key and what is wrong, so a maker with a
soldering iron in one hand can fix it without reading Python. See hardware/README.md.

Besides the wiring, a profile may give the board's own sizes (``[board]``: the hole
pitch, a hole's size and shape, the edge), which ``tabletop wiring`` draws the board
at. They belong to the board, not to the game: a maker whose pieces differ writes them
into their own profile, and a ``-sim`` twin takes them from its ``base`` with the holes.

A board of analog hall sensors may give the readings that tell its pieces apart
(``[sensors.thresholds]``): ``tabletop sensors calibrate`` measures them on the board and
writes them into a copy of its profile (:func:`with_thresholds`), and the serial driver
sends them to the sensor board.
"""

from __future__ import annotations

import json
import math
import string
import tomllib
from importlib import resources
from importlib.resources.abc import Traversable
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from app.errors import ProfileError, kind_words
from app.hardware.brightness import BRIGHTNESS_RULE, is_brightness
from app.games import GAMES, new_game
from app.textfile import read_text
from engines.core import Place, PointError
from firmware.tt_hw import RAIL

#: Shipped profiles are package data, found through importlib.resources so that they are
#: there wherever the package is installed; ``load_profile("kulami")`` reads ``kulami.toml``.
PROFILE_DIR = resources.files("app.hardware") / "profiles"

#: A WS2812 draws about 20 mA per colour channel at full duty: 60 mA at full white.
MA_PER_CHANNEL = 20

#: BCM numbers a matrix may use: GPIO 0 and 1 are reserved for the HAT ID EEPROM.
GPIO_PINS = range(2, 28)
#: Pins the kernel's spidev driver claims for SPI0 (MISO, MOSI, SCLK, CE0, CE1).
SPI0_PINS = frozenset({7, 8, 9, 10, 11})
#: Pins rpi_ws281x can drive NeoPixels from (PWM0, PWM1, PCM; SPI is its own driver).
NEOPIXEL_PINS = ("D12", "D18", "D21")
PIXEL_ORDERS = ("GRB", "RGB", "BGR", "GRBW", "RGBW")
GRID_CHAINS = ("rows", "serpentine", "columns", "serpentine-columns")
#: Marks a sensor channel with nothing wired to it in an explicit ``holes.names`` list.
UNWIRED = "-"

SENSOR_DRIVERS = ("matrix", "simulated", "serial")
#: ``serial``: the sensor board drives the LEDs (LEDS frames over its USB link).
LED_DRIVERS = ("neopixel", "neopixel_spi", "simulated", "serial")
TABLES = ("holes", "chain", "sensors", "leds")
#: Tables a profile may leave out: ``board``, the sizes its holes are drawn and built
#: at (``tabletop wiring``); nothing that plays needs them.
OPTIONAL_TABLES = ("board",)
#: A hole is round (a dimple for a marble or a ball, a peg's hole) or a square that a
#: piece covers.
HOLE_SHAPES = ("circle", "square")
#: The keys of ``[board]``; the three sizes are millimetres above 0 and below MAX_MM.
BOARD_KEYS = ("pitch_mm", "hole_mm", "shape", "edge_mm")
MAX_MM = 1000
#: An analog reading's range (the Pico's ADC): 0 to 65535.
READING_MAX = 65535
#: Where the first player's pieces read: below ``low``, or above ``high`` (the build
#: guides glue its magnets north pole down, which a DRV5055 reads low).
FIRST_READS = ("low", "high")
#: The keys of ``[sensors.thresholds]``: the thresholds, then what a calibration
#: measured (optional, all of them or none).
THRESHOLD_KEYS = ("low", "high", "first_reads")
MEASURED_KEYS = ("empty", "first_piece", "second_piece", "first_beside", "second_beside")


@dataclass(frozen=True)
class Hole:
    """One hole: the sensor channel under it and the LEDs (chain indices) that light it."""

    channel: int
    leds: tuple[int, ...]


@dataclass(frozen=True)
class HallReadings:
    """What a calibration measured, medians of raw readings (0-65535): an empty hole, a
    piece of each player's on it, and the empty hole with a piece of each player's on
    the hole beside it. The virtual sensor board reads as the real one measured."""

    empty: int
    first_piece: int
    second_piece: int
    first_beside: int
    second_beside: int


@dataclass(frozen=True)
class HallThresholds:
    """How an analog hall sensor's reading (0-65535) becomes a state: below ``low`` a
    piece of the player whose pieces read there (``first_reads``: ``low`` or ``high``),
    above ``high`` a piece of the other, in between an empty hole."""

    low: int
    high: int
    first_reads: str
    measured: HallReadings | None = None

    def table(self, comment: str = "") -> str:
        """The ``[sensors.thresholds]`` table as TOML, ``comment`` (lines) above its
        keys."""
        side, other = "below low", "above high"
        if self.first_reads == "high":
            side, other = other, side
        lines = ["[sensors.thresholds]"]
        lines += [f"# {line}" for line in comment.splitlines()]
        lines += [f"low = {self.low}",
                  f"high = {self.high}",
                  f'first_reads = "{self.first_reads}"    # the first player\'s pieces read '
                  f"{side}, the second's {other}"]
        if self.measured is not None:
            lines.append("# what was measured (medians), which the virtual board reads too")
            lines += [f"{key} = {getattr(self.measured, key)}" for key in MEASURED_KEYS]
        return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class SensorConfig:
    driver: str
    colour: bool = False
    row_pins: tuple[int, ...] = ()
    column_pins: tuple[int, ...] = ()
    settle_us: float = 20.0
    port: str = ""
    baudrate: int = 115200
    #: A serial board of hall sensors: the thresholds its profile gives, if any.
    thresholds: HallThresholds | None = None


@dataclass(frozen=True)
class LedConfig:
    driver: str
    brightness: float
    max_ma: int
    pixel_order: str = "GRB"
    pin: str = ""


@dataclass(frozen=True)
class BoardSize:
    """The board's own sizes, in millimetres (the profile's ``[board]`` table):
    ``pitch_mm`` between neighbouring holes' centres, ``hole_mm`` across a hole (a
    square's side), ``edge_mm`` from the outer holes' centres to the board's edge."""

    pitch_mm: float
    hole_mm: float
    shape: str
    edge_mm: float


@dataclass(frozen=True)
class Profile:
    """A validated board profile. ``chain`` names what each LED lights, in chain order."""

    name: str
    path: Path | Traversable
    game: str
    description: str
    holes: Mapping[str, Hole]
    areas: Mapping[str, tuple[int, ...]]
    chain: tuple[str, ...]
    sensors: SensorConfig
    leds: LedConfig
    #: The ``[board]`` table's sizes; ``None`` where the profile gives none.
    board: BoardSize | None = None
    #: Where each hole sits: as its game's board places it (:meth:`Board.place`), or
    #: for a game the table does not have yet, at its column and row of the profile's
    #: own ``columns`` and ``rows``. Empty where neither says (a planned game's holes
    #: listed by name).
    places: Mapping[str, Place] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def led_count(self) -> int:
        return len(self.chain)

    @property
    def brightness(self) -> float:
        return self.leds.brightness

    @property
    def max_ma(self) -> int:
        return self.leds.max_ma

    def channels(self) -> dict[int, str]:
        """Sensor channel -> the hole wired to it (unwired channels are absent)."""
        return {hole.channel: name for name, hole in self.holes.items()}

    def neighbours(self) -> dict[str, tuple[str, ...]]:
        """Each hole's nearest holes, in channel order: those one step away where
        :attr:`places` puts them, the step being the shortest between any two. A piece's
        magnet there is the one a hole's sensor feels most; a hole with no place has
        none."""
        places = {name: (place.x, place.y) for name, place in self.places.items()}
        placed = sorted((self.holes[name].channel, name, place)
                        for name, place in places.items())
        step = min((math.dist(a[2], b[2]) for i, a in enumerate(placed)
                    for b in placed[i + 1:]), default=0)
        return {name: tuple(other for _, other, there in placed
                            if other != name and name in places
                            and math.isclose(math.dist(places[name], there), step))
                for name in self.holes}


def load_profile(path_or_name: str | Path) -> Profile:
    """A profile from a file path, or from a shipped name (``app/hardware/profiles/NAME.toml``)."""
    path = _resolve(path_or_name)
    raw = _read(path)
    return _Checker(path, raw).profile()


def shipped_profiles() -> list[str]:
    """Names of the profiles shipped with the package."""
    return sorted(p.name.removesuffix(".toml") for p in PROFILE_DIR.iterdir()
                  if p.name.endswith(".toml"))


def _resolve(path_or_name: str | Path) -> Path | Traversable:
    path = Path(path_or_name)
    if path.suffix == ".toml" or path.parent != Path("."):
        if not path.is_file():
            raise ProfileError(f"{path}: no such profile file")
        return path
    path = PROFILE_DIR.joinpath(f"{path_or_name}.toml")
    if not path.is_file():
        known = ", ".join(shipped_profiles())
        raise ProfileError(f"no profile named {str(path_or_name)!r} (shipped: {known})")
    return path


def _read(path: Path | Traversable, seen: tuple[str, ...] = ()) -> dict[str, Any]:
    """The TOML tables of ``path``, with any missing table taken from its ``base``."""
    try:
        raw = tomllib.loads(read_text(path, ProfileError))
    except tomllib.TOMLDecodeError as error:
        raise ProfileError(f"{path}: not valid TOML: {error}") from None
    base = raw.pop("base", None)
    if base is None:
        return raw
    if not isinstance(base, str):
        raise ProfileError(f"{path}: base: must be a profile name, not {base!r}")
    base_path = PROFILE_DIR.joinpath(f"{base}.toml")
    if not base_path.is_file() or str(base_path) in seen:
        problem = "refers back to itself" if base_path.is_file() else "no such shipped profile"
        raise ProfileError(f"{path}: base: {base!r} {problem}")
    inherited = _read(base_path, seen + (str(path),))
    return {**inherited, **raw}


class _Checker:
    """Turns raw TOML into a :class:`Profile`, failing on the first problem found."""

    def __init__(self, path: Path | Traversable, raw: dict[str, Any]) -> None:
        self.path = path
        self.raw = raw

    def fail(self, key: str, problem: str) -> ProfileError:
        return ProfileError(f"{self.path}: {key}: {problem}")

    def table(self, key: str, data: dict, name: str) -> dict:
        value = data.get(name)
        if not isinstance(value, dict):
            raise self.fail(key, "missing table" if value is None else "must be a table")
        return value

    def allowed(self, key: str, data: dict, names: tuple[str, ...]) -> None:
        for name in data:
            if name not in names:
                raise self.fail(f"{key}.{name}" if key else name,
                                f"unknown key (known: {', '.join(names)})")

    def get(self, key: str, data: dict, name: str, kind: type | tuple, default: Any = ...,
            check=None, problem: str = "") -> Any:
        full = f"{key}.{name}" if key else name
        if name not in data:
            if default is ...:
                raise self.fail(full, "missing")
            return default
        value = data[name]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds:
            raise self.fail(full, f"must be {kind_words(*kinds)}, not {value!r}")
        if not isinstance(value, kinds):
            raise self.fail(full, f"must be {kind_words(*kinds)}, not {value!r}")
        if check is not None and not check(value):
            raise self.fail(full, f"{problem}, not {value!r}")
        return value

    # --- the whole profile ----------------------------------------------------------
    def profile(self) -> Profile:
        self.allowed("", self.raw, ("game", "description") + TABLES + OPTIONAL_TABLES)
        game = self.get("", self.raw, "game", str, check=lambda g: _is_name(g.strip()),
                        problem="must name a game")
        description = self.get("", self.raw, "description", str, "")
        for name in TABLES:
            self.table(name, self.raw, name)
        names, grid = self.holes()
        places = self.places(game.strip(), names, grid)
        self.cover(game.strip(), names)
        chain, area_names = self.chain(names, grid)
        hole_leds: dict[str, list[int]] = {name: [] for name in names if name != UNWIRED}
        area_leds: dict[str, list[int]] = {name: [] for name in area_names}
        for index, name in enumerate(chain):
            (hole_leds.get(name) if name in hole_leds else area_leds[name]).append(index)
        for name, leds in [*hole_leds.items(), *area_leds.items()]:
            if not leds:
                raise self.fail("chain.order", f"{name} has no LED in the chain")
        holes = {name: Hole(channel, tuple(hole_leds[name]))
                 for channel, name in enumerate(names) if name != UNWIRED}
        sensors = self.sensors(len(names))
        leds = self.leds(sensors)
        return Profile(self.path.name.removesuffix(".toml"), self.path, game.strip(), description,
                       MappingProxyType(holes),
                       MappingProxyType({k: tuple(v) for k, v in area_leds.items()}),
                       tuple(chain), sensors, leds, self.board(), MappingProxyType(places))

    # --- holes ----------------------------------------------------------------------
    def holes(self) -> tuple[list[str], tuple[list[str], list[str]] | None]:
        """Hole names in sensor channel order, and the grid's labels when it is a grid."""
        data = self.raw["holes"]
        self.allowed("holes", data, ("names", "columns", "rows"))
        if "names" in data:
            if "columns" in data or "rows" in data:
                raise self.fail("holes", "give either names or columns and rows, not both")
            names = self.get("holes", data, "names", list, check=bool, problem="must list holes")
            for i, name in enumerate(names):
                if not _is_name(name):
                    raise self.fail(f"holes.names[{i}]", f"must be a hole name, not {name!r}")
            duplicates = sorted({n for n in names if names.count(n) > 1 and n != UNWIRED})
            if duplicates:
                raise self.fail("holes.names", f"{duplicates[0]} is listed twice")
            return names, None
        columns = self.labels("columns", data, string.ascii_lowercase)
        rows = self.labels("rows", data, None)
        names = [column + row for row in rows for column in columns]
        if len(set(names)) != len(names):
            raise self.fail("holes", "column and row labels make the same name twice")
        return names, (columns, rows)

    def places(self, game: str, names: list[str], grid) -> dict[str, Place]:
        """Where each hole sits (:attr:`Profile.places`). A name the game's board does
        not place is refused here, in one line, rather than left out of the plan, the
        neighbours and the page."""
        wired = [name for name in names if name != UNWIRED]
        if game.lower() in GAMES:
            board = new_game(game)
            places = {}
            for name in wired:
                try:
                    places[name] = board.place(name)
                except PointError as error:
                    raise self.fail("holes", str(error)) from None
            return places
        if grid is None:
            return {}
        columns, rows = grid
        return {column + row: Place(x, y) for y, row in enumerate(rows)
                for x, column in enumerate(columns)}

    def cover(self, game: str, names: list[str]) -> None:
        """Every hole of ``game`` needs a sensor: a hole the board cannot see would hide
        moves from the table, and a profile written for a smaller board would load and
        then miss them without a word. The game is its default setup (Kulami's 8x8
        frame; a 10x10 profile also fits the free layouts). Games the registry does not
        have yet (a board built for a planned game) have no holes to check against."""
        if game.lower() not in GAMES:
            return
        holes = new_game(game).holes
        wired = set(names)
        missing = [hole for hole in holes if hole not in wired]
        if missing:
            raise self.fail("holes", f"{len(missing)} of the {len(holes)} holes of {game} "
                                     f"have no sensor: {', '.join(missing)}")

    def labels(self, name: str, data: dict, letters: str | None) -> list[str]:
        """Grid labels: a count (letters a.. or numbers 1..) or an explicit list."""
        value = self.get("holes", data, name, (int, list))
        if isinstance(value, int):
            limit = len(letters) if letters else 99
            if not 1 <= value <= limit:
                raise self.fail(f"holes.{name}", f"must be 1 to {limit}, not {value}")
            return list(letters[:value]) if letters else [str(n + 1) for n in range(value)]
        if not value or not all(_is_name(v) for v in value):
            raise self.fail(f"holes.{name}", "must be a count or a list of labels")
        return value

    # --- LED chain ------------------------------------------------------------------
    def chain(self, names: list[str], grid) -> tuple[list[str], list[str]]:
        data = self.raw["chain"]
        self.allowed("chain", data, ("order", "areas"))
        areas = self.get("chain", data, "areas", list, [])
        holes = set(names) - {UNWIRED}
        for i, area in enumerate(areas):
            if not _is_name(area) or area in holes:
                raise self.fail(f"chain.areas[{i}]", f"must be an area name that is not a "
                                                      f"hole, not {area!r}")
        order = self.get("chain", data, "order", (str, list))
        if isinstance(order, str):
            if grid is None:
                raise self.fail("chain.order", "a named order needs a grid of holes "
                                                "(columns and rows); list the chain instead")
            if order not in GRID_CHAINS:
                raise self.fail("chain.order", f"unknown order {order!r} (known: "
                                                f"{', '.join(GRID_CHAINS)}, or a list)")
            return grid_chain(*grid, order), areas
        known = holes | set(areas)
        for i, name in enumerate(order):
            if not isinstance(name, str) or name not in known:
                raise self.fail(f"chain.order[{i}]", f"{name!r} is neither a hole nor an "
                                                      f"area in chain.areas")
        return order, areas

    # --- drivers --------------------------------------------------------------------
    def sensors(self, channels: int) -> SensorConfig:
        data = self.raw["sensors"]
        driver = self.get("sensors", data, "driver", str, check=SENSOR_DRIVERS.__contains__,
                          problem=f"must be one of {', '.join(SENSOR_DRIVERS)}")
        colour = self.get("sensors", data, "colour", bool, False)
        if driver == "simulated":
            self.allowed("sensors", data, ("driver", "colour"))
            return SensorConfig(driver, colour)
        if driver == "serial":
            self.allowed("sensors", data, ("driver", "colour", "port", "baudrate",
                                           "thresholds"))
            port = self.get("sensors", data, "port", str, check=str.strip,
                            problem="must name a serial device")
            baud = self.get("sensors", data, "baudrate", int, 115200, check=lambda b: b > 0,
                            problem="must be positive")
            thresholds = None
            if "thresholds" in data:
                if not colour:
                    raise self.fail("sensors.thresholds", "hall-sensor thresholds need "
                                                          "colour = true: a board of hall "
                                                          "sensors tells the colours apart")
                thresholds = self.thresholds(self.table("sensors.thresholds", data,
                                                        "thresholds"))
            return SensorConfig(driver, colour, port=port, baudrate=baud,
                                thresholds=thresholds)
        self.allowed("sensors", data, ("driver", "colour", "row_pins", "column_pins",
                                       "settle_us"))
        if colour:
            raise self.fail("sensors.colour", "a diode matrix sees occupancy only, not colour")
        rows = self.pins("sensors.row_pins", data, "row_pins")
        columns = self.pins("sensors.column_pins", data, "column_pins")
        shared = sorted(set(rows) & set(columns))
        if shared:
            raise self.fail("sensors.column_pins", f"GPIO{shared[0]} is also a row pin")
        if len(rows) * len(columns) < channels:
            raise self.fail("sensors", f"{len(rows)} rows x {len(columns)} columns scan "
                                       f"{len(rows) * len(columns)} channels; the profile "
                                       f"has {channels} holes")
        settle = self.get("sensors", data, "settle_us", (int, float), 20.0,
                          check=lambda v: 0 <= v <= 10_000, problem="must be 0 to 10000")
        return SensorConfig(driver, False, tuple(rows), tuple(columns), float(settle))

    def thresholds(self, data: dict) -> HallThresholds:
        """``[sensors.thresholds]``: thresholds the sensor board can take (an empty band
        clear of the rails, where a reading is a fault), and measured readings, when
        given, that fall where the thresholds put them: a hand-edited threshold that
        would misread the board's own pieces is refused here, not found in a game."""
        key = "sensors.thresholds"
        self.allowed(key, data, THRESHOLD_KEYS + MEASURED_KEYS)

        def reading(name: str, default: Any = ...) -> int:
            return self.get(key, data, name, int, default,
                            check=lambda v: 0 <= v <= READING_MAX,
                            problem=f"must be a reading from 0 to {READING_MAX}")

        low, high = reading("low"), reading("high")
        if not RAIL < low < high < READING_MAX - RAIL:
            raise self.fail(key, f"low {low} and high {high}: need {RAIL} < low < high "
                                 f"< {READING_MAX - RAIL} (nearer the ends a reading is a "
                                 f"dead sensor)")
        first_reads = self.get(key, data, "first_reads", str,
                               check=FIRST_READS.__contains__,
                               problem=f"must be one of {', '.join(FIRST_READS)}")
        given = [name for name in MEASURED_KEYS if name in data]
        if not given:
            return HallThresholds(low, high, first_reads)
        if len(given) < len(MEASURED_KEYS):
            missing = next(name for name in MEASURED_KEYS if name not in data)
            raise self.fail(f"{key}.{missing}", "missing: give every measured reading "
                                                f"({', '.join(MEASURED_KEYS)}) or none")
        measured = HallReadings(*(reading(name) for name in MEASURED_KEYS))
        first_side = "below low" if first_reads == "low" else "above high"
        second_side = "above high" if first_reads == "low" else "below low"
        where = {"empty": "from low to high", "first_beside": "from low to high",
                 "second_beside": "from low to high", "first_piece": first_side,
                 "second_piece": second_side}
        for name in MEASURED_KEYS:
            value = getattr(measured, name)
            side = ("below low" if value < low else "above high" if value > high
                    else "from low to high")
            if side != where[name]:
                raise self.fail(f"{key}.{name}", f"{value} is not {where[name]} ({low} to "
                                                 f"{high}): the thresholds would misread "
                                                 f"what was measured")
        return HallThresholds(low, high, first_reads, measured)

    def pins(self, key: str, data: dict, name: str) -> list[int]:
        pins = self.get("sensors", data, name, list, check=bool, problem="must list pins")
        for i, pin in enumerate(pins):
            if not isinstance(pin, int) or isinstance(pin, bool) or pin not in GPIO_PINS:
                raise self.fail(f"{key}[{i}]", f"must be a BCM GPIO number 2-27, not {pin!r}")
            if pins.count(pin) > 1:
                raise self.fail(key, f"GPIO{pin} is listed twice")
        return pins

    def leds(self, sensors: SensorConfig) -> LedConfig:
        data = self.raw["leds"]
        driver = self.get("leds", data, "driver", str, check=LED_DRIVERS.__contains__,
                          problem=f"must be one of {', '.join(LED_DRIVERS)}")
        keys = ("driver", "brightness", "max_ma", "pixel_order")
        self.allowed("leds", data, keys + (("pin",) if driver == "neopixel" else ()))
        brightness = self.get("leds", data, "brightness", (int, float),
                              check=is_brightness, problem=f"must be {BRIGHTNESS_RULE}")
        max_ma = self.get("leds", data, "max_ma", int, check=lambda m: m > 0,
                          problem="must be a positive number of milliamps")
        order = self.get("leds", data, "pixel_order", str, "GRB",
                         check=PIXEL_ORDERS.__contains__,
                         problem=f"must be one of {', '.join(PIXEL_ORDERS)}")
        pin = ""
        used = set(sensors.row_pins) | set(sensors.column_pins)
        if driver == "neopixel":
            pin = self.get("leds", data, "pin", str, check=NEOPIXEL_PINS.__contains__,
                           problem=f"must be one of {', '.join(NEOPIXEL_PINS)}")
            if int(pin[1:]) in used:
                raise self.fail("leds.pin", f"{pin} is also a sensor pin")
        if driver == "serial" and sensors.driver != "serial":
            raise self.fail("leds.driver", "serial LEDs are driven by the sensor board: "
                                           "they need sensors.driver = \"serial\"")
        if driver == "neopixel_spi" and used & SPI0_PINS:
            raise self.fail("leds.driver", f"SPI0 needs GPIO{min(used & SPI0_PINS)}, which "
                                           f"is a sensor pin")
        return LedConfig(driver, float(brightness), max_ma, order, pin)


    # --- the board's sizes ------------------------------------------------------------
    def board(self) -> BoardSize | None:
        """The ``[board]`` table: optional, since nothing that plays needs it, but
        checked like every other table when it is there."""
        if "board" not in self.raw:
            return None
        data = self.table("board", self.raw, "board")
        self.allowed("board", data, BOARD_KEYS)
        pitch, hole, edge = (
            float(self.get("board", data, name, (int, float), check=lambda v: 0 < v < MAX_MM,
                           problem=f"must be millimetres above 0 and below {MAX_MM}"))
            for name in ("pitch_mm", "hole_mm", "edge_mm"))
        shape = self.get("board", data, "shape", str, "circle", check=HOLE_SHAPES.__contains__,
                         problem=f"must be one of {', '.join(HOLE_SHAPES)}")
        if hole > pitch:
            raise self.fail("board.hole_mm", f"{hole:g} is wider than the pitch "
                                             f"({pitch:g}): neighbouring holes would overlap")
        if edge < hole / 2:
            raise self.fail("board.edge_mm", f"{edge:g} is less than half a hole "
                                             f"({hole:g} across): the outer holes would run "
                                             f"off the board")
        return BoardSize(pitch, hole, shape, edge)


def with_thresholds(text: str, sensors: SensorConfig, thresholds: HallThresholds,
                    comment: str = "") -> str:
    """A profile's TOML ``text`` with ``thresholds`` as its ``[sensors.thresholds]``
    table (``comment`` above its keys), every other line as it was, the maker's
    comments among them: an old table is replaced where it stood, a new one goes at
    the end. The comment lines just above the next table belong to that table and stay.
    A profile that takes its ``[sensors]`` from its ``base`` gets a copy of it
    (``sensors``), since a table of its own replaces the base's whole."""
    table = thresholds.table(comment)
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines)
                  if line.split("#", 1)[0].strip() == "[sensors.thresholds]"), None)
    if start is None:
        body = text if not text or text.endswith("\n") else text + "\n"
        if "sensors" not in tomllib.loads(text):
            table = (f"[sensors]    # the base's, which a table of its own replaces whole\n"
                     f'driver = "{sensors.driver}"\nport = {json.dumps(sensors.port)}\n'
                     f"baudrate = {sensors.baudrate}\n"
                     f"colour = {str(sensors.colour).lower()}\n\n{table}")
        return body + "\n" + table
    end = next((i for i in range(start + 1, len(lines))
                if lines[i].lstrip().startswith("[")), len(lines))
    while end > start + 1 and (not lines[end - 1].strip()
                               or lines[end - 1].lstrip().startswith("#")):
        end -= 1
    rest = "".join(lines[end:]).lstrip("\n")
    return "".join(lines[:start]) + table + ("\n" + rest if rest else "")


def grid_chain(columns: list[str], rows: list[str], order: str) -> list[str]:
    """Hole names in chain order for a grid; the chain starts at the lower-left hole."""
    if order.endswith("columns"):
        lines = [[c + r for r in rows] for c in columns]
    else:
        lines = [[c + r for c in columns] for r in rows]
    if order.startswith("serpentine"):
        lines = [line[::-1] if i % 2 else line for i, line in enumerate(lines)]
    return [name for line in lines for name in line]


def _is_name(value: Any) -> bool:
    """Whether ``value`` is a name (a game, a hole, a label, an area): text without spaces
    or control characters. Names go into one-line messages and sensor logs, where a
    newline or a tab would split or hide them."""
    return (isinstance(value, str) and value != "" and value.isprintable()
            and not any(ch.isspace() for ch in value))
