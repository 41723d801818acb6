"""Which pin does what: a board profile's wiring as tables of header pins.

A maker solders wires to pins, not to BCM numbers. This turns a profile's GPIO numbers
into the physical pins of the Raspberry Pi's 40-pin header and says what each wire goes
to (a matrix line and the holes on it, the LED data, a free pin for a button, the
supplies). A board whose sensors a Pico scans (``sensors.driver = "serial"``) gets a
second table for the Pico: the profile names only the serial port, so the table proposes
the pins in the firmware's own terms (``firmware/tt_board.py``) that scan the profile's
channels in the order the wire protocol numbers them. The same plan says which scan
lines every channel sits on, which is what the wiring drawing labels each hole with.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from app.errors import ProfileError
from app.hardware.profile import SPI0_PINS, Profile

#: The Pi's 40-pin header, physical pin 1 first: a BCM GPIO number or a supply.
PI_HEADER = ("3V3", "5V", 2, "5V", 3, "GND", 4, 14, "GND", 15, 17, 18, 27, "GND", 22, 23,
             "3V3", 24, 10, "GND", 9, 25, 11, 8, "GND", 7, 0, 1, 5, "GND", 6, 12, 13, "GND",
             19, 16, 26, 20, "GND", 21)
#: The Pico's 40 pins, pin 1 first: a GP number or what else the pin is.
PICO_HEADER = (0, 1, "GND", 2, 3, 4, 5, "GND", 6, 7, 8, 9, "GND", 10, 11, 12, 13, "GND",
               14, 15, 16, 17, "GND", 18, 19, 20, 21, "GND", 22, "RUN", 26, 27, "AGND", 28,
               "ADC_VREF", "3V3(OUT)", "3V3_EN", "GND", "VSYS", "VBUS")
#: GPIOs a button may use: GPIO 0 and 1 belong to the HAT EEPROM.
PI_BUTTON_GPIOS = range(2, 28)
#: The SPI0 data line that NeoPixels on SPI take their data from (MOSI).
SPI_DATA_GPIO = 10
#: The firmware's defaults (firmware/tt_board.py): the pin that holds it stopped at the
#: REPL and the LED chain's pin, kept out of the scan lines.
PICO_SAFE, PICO_LEDS = 21, 22
#: The Pico's GPIOs for a diode matrix's lines, rows first: every one but those two.
PICO_MATRIX_GPIOS = (*range(0, 21), 26, 27, 28)
#: A hall matrix: rows switched from GP0 up, columns through 16-input multiplexers
#: (CD74HC4067) picked by four select pins into one ADC input.
PICO_HALL_SELECT, PICO_HALL_ADC, PICO_HALL_LINES = (16, 17, 18, 19), 26, 16
#: A chain of 74HC165 shift registers (8 inputs each), as tt_board.py's example wires it.
PICO_SHIFT_PINS = {"load_pin": 2, "clock_pin": 3, "data_pin": 4}
#: Headroom a supply keeps above the LEDs' budget; it also covers the ~1 mA every
#: WS2812 draws when dark, for chains longer than this many LEDs take one mA each.
HEADROOM_MA = 500


@dataclass(frozen=True)
class Scanner:
    """How the sensor channels are scanned: ``rows`` x ``columns`` lines, channel
    ``row x columns + column`` (the Pi's matrix, and the wire protocol's numbering).
    ``kind`` is ``matrix`` (the Pi's GPIO), ``pico-matrix``, ``pico-hall``,
    ``pico-shift`` (a chip of 8 inputs is a row) or ``simulated`` (no lines at all)."""

    kind: str
    rows: int = 0
    columns: int = 0

    def lines(self, channel: int) -> tuple[int, int] | None:
        """The (row, column) lines of ``channel``; ``None`` where nothing is wired."""
        return None if self.kind == "simulated" else divmod(channel, self.columns)

    @property
    def legend(self) -> str:
        """What a hole's ``r`` and ``c`` mean on this board, for the drawing's legend."""
        return {"matrix": "r, c: its diode matrix row and column line (pin table)",
                "pico-matrix": "r, c: its diode matrix row and column line on the Pico",
                "pico-hall": "r: the row of sensors powered together, c: their "
                             "multiplexer input",
                "pico-shift": "r: its 74HC165 in the chain (0 next to the Pico), c: "
                              "that chip's input D0-D7",
                "simulated": "simulated sensors: no lines to wire"}[self.kind]


@dataclass(frozen=True)
class Pin:
    """One row of a pin table: what the wire is, the GPIO (empty for a supply), the
    header pins, and what it goes to. ``signal`` marks a wire the board's logic uses
    (a scan line, the LED data), which the parts lists count; supplies and free pins
    are not signals."""

    what: str
    gpio: str
    header: str
    to: str
    signal: bool = True


@dataclass(frozen=True)
class PinTable:
    title: str
    pins: tuple[Pin, ...]
    #: Lines to copy into the Pico's tt_board.py, empty for the Pi.
    settings: str = ""

    @property
    def signals(self) -> int:
        return sum(pin.signal for pin in self.pins)


def scanner(profile: Profile) -> Scanner:
    """The scan lines of ``profile``'s sensors: the Pi's matrix as its pins say, or the
    Pico's lines as this module proposes them (see :func:`pico_settings`)."""
    sensors = profile.sensors
    if sensors.driver == "matrix":
        return Scanner("matrix", len(sensors.row_pins), len(sensors.column_pins))
    if sensors.driver == "simulated":
        return Scanner("simulated")
    channels = max(hole.channel for hole in profile.holes.values()) + 1
    columns = min(_grid_columns(profile), PICO_HALL_LINES)
    rows = math.ceil(channels / columns)
    if sensors.colour:
        if rows > PICO_HALL_LINES:
            raise ProfileError(f"{profile.path}: {channels} channels are more than the "
                               f"Pico's hall matrix scans ({PICO_HALL_LINES} x "
                               f"{PICO_HALL_LINES})")
        return Scanner("pico-hall", rows, columns)
    if rows + columns <= len(PICO_MATRIX_GPIOS):
        return Scanner("pico-matrix", rows, columns)
    return Scanner("pico-shift", math.ceil(channels / 8), 8)


def _grid_columns(profile: Profile) -> int:
    """How many columns the holes span where the profile places them; with a hole it
    does not place, the widest row of lines the Pico has, so rows are as few as they
    can be."""
    if any(name not in profile.places for name in profile.holes):
        return PICO_HALL_LINES
    return len({place.x for place in profile.places.values()})


def supply_ma(profile: Profile) -> int:
    """The LED supply's rating: the profile's current budget (the strip never draws
    more, app/hardware/leds.py caps every frame) plus headroom, in half-amp steps."""
    needed = profile.max_ma + max(HEADROOM_MA, profile.led_count)
    return math.ceil(needed / 500) * 500


def pin_tables(profile: Profile) -> list[PinTable]:
    """The Pi's table, and the Pico's where a Pico scans the sensors."""
    tables = [_pi_table(profile)]
    if profile.sensors.driver == "serial":
        tables.append(_pico_table(profile))
    return tables


def pi_pin(gpio: int) -> str:
    """The header pin of BCM ``gpio`` (``"3"`` for GPIO2)."""
    return str(PI_HEADER.index(gpio) + 1)


def pico_pin(gp: int | str) -> str:
    """The Pico pin of ``gp`` (``"31"`` for GP26) or of a supply (``"36"`` for 3V3(OUT))."""
    return str(PICO_HEADER.index(gp) + 1)


def _supply_pins(header: tuple, name: str) -> str:
    return ", ".join(str(i + 1) for i, pin in enumerate(header) if pin == name)


def _line_holes(profile: Profile, scan: Scanner) -> tuple[dict[int, list[str]],
                                                          dict[int, list[str]]]:
    """The holes on every row line and on every column line, in channel order."""
    rows: dict[int, list[str]] = {r: [] for r in range(scan.rows)}
    columns: dict[int, list[str]] = {c: [] for c in range(scan.columns)}
    for channel, name in sorted(profile.channels().items()):
        row, column = scan.lines(channel)
        rows[row].append(name)
        columns[column].append(name)
    return rows, columns


def _holes(names: list[str]) -> str:
    return " ".join(names) if names else "(nothing wired)"


def _pi_table(profile: Profile) -> PinTable:
    sensors, leds = profile.sensors, profile.leds
    pins: list[Pin] = []
    if sensors.driver == "matrix":
        rows, columns = _line_holes(profile, scanner(profile))
        for r, gpio in enumerate(sensors.row_pins):
            pins.append(Pin(f"row {r}", f"GPIO{gpio}", pi_pin(gpio),
                            f"the switches of {_holes(rows[r])}"))
        for c, gpio in enumerate(sensors.column_pins):
            pins.append(Pin(f"column {c}", f"GPIO{gpio}", pi_pin(gpio),
                            f"the diodes' cathodes of {_holes(columns[c])}"))
    elif sensors.driver == "serial":
        pins.append(Pin("sensor board", "USB", "", f"the Pico's USB port (power and the "
                                                   f"serial line, port {sensors.port})",
                        signal=False))
    data = led_data_gpio(profile)
    if data is not None:
        pins.append(Pin("LED data", f"GPIO{data}", pi_pin(data),
                        "LED 0's data in (DIN), through a 330 ohm resistor"))
    if leds.driver == "neopixel_spi":
        others = sorted(SPI0_PINS - {SPI_DATA_GPIO})
        pins.append(Pin("SPI0", "GPIO" + ",".join(map(str, others)),
                        ",".join(pi_pin(g) for g in others),
                        "nothing: the SPI driver holds them", signal=False))
    free = ", ".join(f"GPIO{g} (pin {pi_pin(g)})" for g in free_pi_gpios(profile))
    pins.append(Pin("buttons", "free", "", f"confirm, hint, undo, new_game ([buttons] in "
                                          f"tabletop.toml): a push button from a free pin to "
                                          f"GND; free: {free}", signal=False))
    pins.append(Pin("5 V", "", _supply_pins(PI_HEADER, "5V"),
                    "nothing: the Pi's own USB-C supply feeds it; never the LEDs",
                    signal=False))
    pins.append(Pin("GND", "", _supply_pins(PI_HEADER, "GND"),
                    "the LED supply's ground (one wire), so the data has a return",
                    signal=False))
    if leds.driver in ("neopixel_spi", "neopixel", "serial"):
        pins.append(Pin("LED supply", "", "", f"a 5 V supply of "
                        f"{supply_ma(profile) / 1000:g} A or more to the strip's 5V and "
                        f"GND (the profile caps the LEDs at {profile.max_ma} mA), "
                        f"1000 uF across it", signal=False))
    title = f"Raspberry Pi 40-pin header, {profile.name}: {profile.description}"
    return PinTable(title, tuple(pins))


def led_data_gpio(profile: Profile) -> int | None:
    """The Pi GPIO that sends the LEDs their data; ``None`` where the Pi sends none."""
    if profile.leds.driver == "neopixel_spi":
        return SPI_DATA_GPIO
    if profile.leds.driver == "neopixel":
        return int(profile.leds.pin.removeprefix("D"))
    return None


def free_pi_gpios(profile: Profile) -> list[int]:
    """The Pi's GPIOs that ``profile`` leaves free, for buttons: not a matrix line, not
    the LED data, not SPI0 where the LEDs are on SPI."""
    used = set(profile.sensors.row_pins) | set(profile.sensors.column_pins)
    data = led_data_gpio(profile)
    if data is not None:
        used.add(data)
    if profile.leds.driver == "neopixel_spi":
        used |= SPI0_PINS
    return [gpio for gpio in PI_BUTTON_GPIOS if gpio not in used]


def pico_settings(profile: Profile, scan: Scanner) -> dict[str, object]:
    """The entries of tt_board.py's ``BOARD`` that scan ``profile``'s channels."""
    board: dict[str, object] = {}
    if scan.kind == "pico-hall":
        board.update(sensors="hall", row_pins=list(range(scan.rows)),
                     select_pins=list(PICO_HALL_SELECT), adc_pin=PICO_HALL_ADC,
                     columns=scan.columns)
    elif scan.kind == "pico-matrix":
        lines = PICO_MATRIX_GPIOS[:scan.rows + scan.columns]
        board.update(sensors="matrix", row_pins=list(lines[:scan.rows]),
                     column_pins=list(lines[scan.rows:]))
    else:
        board.update(sensors="shift", **PICO_SHIFT_PINS, chips=scan.rows)
    board.update(leds_pin=PICO_LEDS,
                 leds=profile.led_count if profile.leds.driver == "serial" else 0,
                 safe_pin=PICO_SAFE)
    return board


def _pico_table(profile: Profile) -> PinTable:
    scan = scanner(profile)
    board = pico_settings(profile, scan)
    rows, columns = _line_holes(profile, scan)
    pins: list[Pin] = []
    if scan.kind == "pico-hall":
        for r, gp in enumerate(board["row_pins"]):
            pins.append(Pin(f"row {r}", f"GP{gp}", pico_pin(gp),
                            f"the gate of row {r}'s MOSFET, which grounds the sensors of "
                            f"{_holes(rows[r])} and enables their multiplexer"))
        for bit, gp in enumerate(PICO_HALL_SELECT):
            pins.append(Pin(f"select S{bit}", f"GP{gp}", pico_pin(gp),
                            f"S{bit} of every multiplexer"))
        pins.append(Pin("sensor out", f"GP{PICO_HALL_ADC}", pico_pin(PICO_HALL_ADC),
                        f"every multiplexer's common SIG (input c of row r's "
                        f"multiplexer is channel r x {scan.columns} + c)"))
    elif scan.kind == "pico-matrix":
        for r, gp in enumerate(board["row_pins"]):
            pins.append(Pin(f"row {r}", f"GP{gp}", pico_pin(gp),
                            f"the switches of {_holes(rows[r])}"))
        for c, gp in enumerate(board["column_pins"]):
            pins.append(Pin(f"column {c}", f"GP{gp}", pico_pin(gp),
                            f"the diodes' cathodes of {_holes(columns[c])}"))
    else:
        for key, gp in PICO_SHIFT_PINS.items():
            pins.append(Pin(key.removesuffix("_pin"), f"GP{gp}", pico_pin(gp),
                            {"load": "SH/LD of every 74HC165", "clock": "CLK of every "
                             "74HC165", "data": "Q7 of chip 0 (each chip's Q7 feeds the "
                             "next one's DS)"}[key.removesuffix("_pin")]))
    if profile.leds.driver == "serial":
        pins.append(Pin("LED data", f"GP{PICO_LEDS}", pico_pin(PICO_LEDS),
                        "LED 0's data in (DIN), through a 330 ohm resistor"))
    pins.append(Pin("safe", f"GP{PICO_SAFE}", pico_pin(PICO_SAFE),
                    "a push button to GND: held while the Pico starts, the firmware "
                    "stays stopped for a new copy", signal=False))
    pins.append(Pin("3.3 V", "", pico_pin("3V3(OUT)"),
                    "the sensors' supply" + (" and the multiplexers'"
                                             if scan.kind == "pico-hall" else ""),
                    signal=False))
    pins.append(Pin("GND", "", _supply_pins(PICO_HEADER, "GND"),
                    "the sensors' ground side" + (" through the row MOSFETs"
                                                  if scan.kind == "pico-hall" else ""),
                    signal=False))
    settings = "\n".join(f"    {key!r}: {value!r}," for key, value in board.items())
    return PinTable(f"Raspberry Pi Pico (the sensor board), {profile.name}", tuple(pins),
                    f"In firmware/tt_board.py, BOARD = {{\n{settings}\n}}")


def format_tables(tables: Iterable[PinTable]) -> str:
    """The tables as aligned text, one pin to a line."""
    blocks = []
    for table in tables:
        head = ("what", "pin", "header", "wire to")
        rows = [head] + [(p.what, p.gpio, p.header, p.to) for p in table.pins]
        widths = [max(len(row[i]) for row in rows) for i in range(3)]
        lines = [table.title]
        lines += ["  " + "  ".join(cell.ljust(w) for cell, w in zip(row, widths))
                  + "  " + row[3] for row in rows]
        if table.settings:
            lines += ["", table.settings]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"
