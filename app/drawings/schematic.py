"""A board's schematic: the circuit ``tabletop wiring`` draws beside the 1:1 sheet.

The sheet (:mod:`app.drawings.sheet`) shows where things go on the board; this shows
how they are connected: the Raspberry Pi's 40-pin header (and the Pico's 40 pins where
a Pico scans the sensors) with every pin the profile uses labelled with its net, the
sensors' circuit (the diode matrix with one box per hole at its row and column line and
the cell every box stands for drawn once with its count; or a row of hall sensors with
its MOSFET and multiplexer; or a 74HC165 with its inputs), the LED chain from its data
pin through the level shifter and the 330 ohm resistor, the LED supply with its
capacitor and ground, and the buttons on free pins. Nets with the same name are joined,
as in any schematic: ``row 0`` at the header is ``row 0`` on the matrix, and every
label there repeats the pin (``GPIO2``, header pin 3) so that nothing needs looking up.

Like the sheet, it is built from the profile alone (its pins, and the Pico's pins as
:mod:`app.drawings.pinout` proposes them), so a maker's own profile gets one too, and it
is a list of plain shapes: the same SVG and PNG writers draw it. Every pin and net is a
group carrying its facts as ``data-`` attributes, so a test reads the SVG back.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

from app.drawings.pinout import (PI_HEADER, PICO_HALL_SELECT, PICO_HEADER, PICO_SHIFT_PINS,
                                 SPI_DATA_GPIO, free_pi_gpios, led_data_gpio, pi_pin,
                                 pico_pin, pico_settings, scanner, supply_ma)
from app.hardware.profile import SPI0_PINS, Profile
from app.drawings.sheet import (AREA, CHAR_WIDTH, GREY, INK, LED, WHITE, Circle, Group,
                                Polygon, Polyline, Rect, Sheet, Text)

PAGE_WIDTH, MARGIN = 297.0, 10.0
TITLE, HEADING, TEXT, SMALL, TINY = 4.4, 3.4, 2.6, 2.2, 1.7
#: A header pin's row on the page, and the header's outline.
PIN_STEP, HEADER_WIDTH = 4.6, 44.0
#: The space a net label takes beside a header.
LABEL_ROOM = 28.0
NET, POWER, BODY, PALE = AREA, "#b03a2e", "#eef2f5", "#fdf7ec"
WIRE_WIDTH = 0.35
#: The buttons the table knows ([buttons] in tabletop.toml), in the order they get pins.
BUTTONS = ("confirm", "hint", "undo", "new_game")


@dataclass(frozen=True)
class Wire:
    """A header pin in use: on ``board`` (``pi`` or ``pico``), header pin ``pin``,
    called ``name`` there (``GPIO2``, ``GP0``, ``3V3(OUT)``), carrying ``net``.
    ``signal`` marks a wire the profile's logic uses, which the far end shows too."""

    board: str
    pin: int
    name: str
    net: str
    signal: bool = True

    @property
    def where(self) -> str:
        """What a net label says about the pin it goes to: ``GPIO2, pin 3`` (the Pi's
        header), ``GP0, Pico pin 1``, ``Pi pin 6`` (a supply)."""
        board = "Pico pin" if self.board == "pico" else "pin"
        if self.name.startswith("GP"):
            return f"{self.name}, {board} {self.pin}"
        return f"{'Pico' if self.board == 'pico' else 'Pi'} pin {self.pin}"


def wires(profile: Profile) -> list[Wire]:
    """Every header pin ``profile`` uses, with its net: the Pi's, and the Pico's where a
    Pico scans the sensors (the pins :func:`app.drawings.pinout.pico_settings` gives)."""
    sensors, found = profile.sensors, []

    def pi(gpio: int, net: str, signal: bool = True) -> None:
        found.append(Wire("pi", int(pi_pin(gpio)), f"GPIO{gpio}", net, signal))

    def pico(gp: int | str, net: str, signal: bool = True) -> None:
        name = f"GP{gp}" if isinstance(gp, int) else gp
        found.append(Wire("pico", int(pico_pin(gp)), name, net, signal))

    if sensors.driver == "matrix":
        for r, gpio in enumerate(sensors.row_pins):
            pi(gpio, f"row {r}")
        for c, gpio in enumerate(sensors.column_pins):
            pi(gpio, f"column {c}")
    data = led_data_gpio(profile)
    if data is not None:
        pi(data, "LED data")
    if profile.leds.driver == "neopixel_spi":
        for gpio in sorted(SPI0_PINS - {SPI_DATA_GPIO}):
            pi(gpio, "SPI0, held", signal=False)
    for action, gpio in buttons(profile).items():
        pi(gpio, action, signal=False)
    if _has_leds(profile):
        found.append(Wire("pi", PI_HEADER.index("GND") + 1, "GND", "GND", signal=False))
    if sensors.driver == "serial":
        scan = scanner(profile)
        board = pico_settings(profile, scan)
        if scan.kind == "pico-matrix":
            for r, gp in enumerate(board["row_pins"]):
                pico(gp, f"row {r}")
            for c, gp in enumerate(board["column_pins"]):
                pico(gp, f"column {c}")
        elif scan.kind == "pico-hall":
            for r, gp in enumerate(board["row_pins"]):
                pico(gp, f"row {r}")
            for bit, gp in enumerate(board["select_pins"]):
                pico(gp, f"select S{bit}")
            pico(board["adc_pin"], "sensor out")
        else:
            for key in PICO_SHIFT_PINS:
                pico(board[key], key.removesuffix("_pin"))
        if profile.leds.driver == "serial":
            pico(board["leds_pin"], "LED data")
        pico(board["safe_pin"], "safe", signal=False)
        pico("3V3(OUT)", "3V3", signal=False)
        found.append(Wire("pico", len(PICO_HEADER) - PICO_HEADER[::-1].index("GND"), "GND",
                          "GND", signal=False))
    return found


def buttons(profile: Profile) -> dict[str, int]:
    """The buttons drawn, each on a free Pi pin (the first ones free, in BCM order)."""
    return dict(zip(BUTTONS, free_pi_gpios(profile)))


def _has_leds(profile: Profile) -> bool:
    return profile.leds.driver != "simulated"


def schematic(profile: Profile) -> Sheet | None:
    """The schematic of ``profile``; ``None`` where nothing is wired (every part
    simulated)."""
    if profile.sensors.driver == "simulated" and not _has_leds(profile):
        return None
    page = _Page(profile)
    return page.draw()


class _Page:
    """The schematic laid out from the top down: the headers, the sensors, the LEDs and
    their supply, the buttons."""

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self.wires = wires(profile)
        self.nets = {(w.board, w.net): w for w in self.wires}
        self.scan = scanner(profile)
        self.groups: list[Group] = []
        self.y = MARGIN

    # --- the page --------------------------------------------------------------------
    def draw(self) -> Sheet:
        profile = self.profile
        heading = f"{profile.name}: {profile.description}" if profile.description \
            else profile.name
        shapes: list = []
        self.y = self.paragraph(shapes, f"Schematic of {heading}", MARGIN, self.y, TITLE,
                                bold=True)
        self.y = self.paragraph(
            shapes, "Made by tabletop wiring from the profile. Labels with the same name "
                    "are one net: join them with a wire. Every label away from a header "
                    "names its pin too (GPIO number and header pin).", MARGIN, self.y,
            TEXT, colour=GREY)
        self.groups.append(Group("title", tuple(shapes)))
        self.y += 4
        self.headers()
        if profile.sensors.driver == "simulated":
            self.note("Sensors: simulated, nothing to wire.")
        elif self.scan.kind in ("matrix", "pico-matrix"):
            self.matrix()
        elif self.scan.kind == "pico-hall":
            self.hall()
        else:
            self.shift()
        if _has_leds(profile):
            self.leds()
        else:
            self.note("LEDs: simulated, nothing to wire.")
        self.buttons()
        return Sheet(f"Schematic of {heading}", PAGE_WIDTH, self.y + MARGIN,
                     tuple(self.groups))

    def paragraph(self, shapes: list, text: str, x: float, y: float, size: float,
                  width: float | None = None, bold: bool = False, colour: str = INK
                  ) -> float:
        """``text`` wrapped from ``x`` (to the page's margin, or ``width`` mm); the y
        under it."""
        room = (PAGE_WIDTH - MARGIN - x) if width is None else width
        for line in textwrap.wrap(text, max(12, int(room / (CHAR_WIDTH * size)))):
            shapes.append(Text(x, y + size / 2, line, size, colour, bold, "start"))
            y += size * 1.35
        return y

    def heading(self, text: str) -> list:
        shapes = [Polyline(((MARGIN, self.y), (PAGE_WIDTH - MARGIN, self.y)), GREY, 0.2)]
        self.y = self.paragraph(shapes, text, MARGIN, self.y + 2, HEADING, bold=True) + 2
        return shapes

    def note(self, text: str) -> None:
        shapes = self.heading(text)
        self.groups.append(Group("note", tuple(shapes)))

    def label(self, wire: Wire | None, net: str, x: float, y: float, anchor: str = "end",
              colour: str = NET) -> Group:
        """A net label away from the headers: the net and the pin it comes from."""
        words = net if wire is None else f"{net} ({wire.where})"
        data = (("net", net),) + ((("board", wire.board), ("pin", str(wire.pin)),
                                   ("name", wire.name)) if wire else ())
        return Group("net", (Text(x, y, words, TEXT, colour, True, anchor),), data)

    # --- the headers -----------------------------------------------------------------
    def headers(self) -> None:
        top = self.y
        pi_x = MARGIN + LABEL_ROOM
        bottom = self.header("pi", pi_x, top, PI_HEADER, "Raspberry Pi 40-pin header",
                             "from above: odd pins left, the even pins along the Pi's edge")
        if self.profile.sensors.driver == "serial":
            pico_x = PAGE_WIDTH - MARGIN - LABEL_ROOM - HEADER_WIDTH
            self.header("pico", pico_x, top, PICO_HEADER, "Raspberry Pi Pico",
                        "from above, USB at the top: pins 1-20 down the left")
            y = top + 30
            left, right = pi_x + HEADER_WIDTH + LABEL_ROOM, pico_x - LABEL_ROOM
            shapes = [Polyline(((left, y), (right, y)), INK, 0.8),
                      Rect(left - 1, y - 2, 4, 4, INK, None),
                      Rect(right - 3, y - 2, 4, 4, INK, None),
                      Text((left + right) / 2, y - 3, "USB cable", TEXT, bold=True)]
            self.paragraph(shapes, f"from a USB port of the Pi to the Pico's: the Pico's "
                                   f"power and the serial line (port "
                                   f"{self.profile.sensors.port})", left, y + 3, SMALL,
                           width=right - left)
            self.groups.append(Group("usb", tuple(shapes)))
        else:
            self.legend(pi_x + HEADER_WIDTH + LABEL_ROOM + 6, top + 8)
        self.y = bottom + 6

    def header(self, board: str, x: float, top: float, names: tuple, title: str,
               caption: str) -> float:
        """A 40-pin header with every used pin's net label beside it; the y under it."""
        shapes = [Text(x + HEADER_WIDTH / 2, top + 2, title, HEADING, bold=True),
                  Text(x + HEADER_WIDTH / 2, top + 6, caption, SMALL, GREY)]
        body = top + 9
        shapes.append(Rect(x, body, HEADER_WIDTH, 20 * PIN_STEP + 2, BODY, INK, 0.4))
        self.groups.append(Group("header", tuple(shapes), (("board", board),)))
        used = {w.pin: w for w in self.wires if w.board == board}
        for index, name in enumerate(names):
            number = index + 1
            if board == "pi":
                row, left = index // 2, index % 2 == 0
            else:
                row, left = (index, True) if index < 20 else (39 - index, False)
            y = body + 1 + PIN_STEP * (row + 0.5)
            cx = x + 4 if left else x + HEADER_WIDTH - 4
            name = f"{'GPIO' if board == 'pi' else 'GP'}{name}" if isinstance(name, int) \
                else name
            wire = used.get(number)
            fill = WHITE if wire is None else (NET if wire.signal else "#cfe3e8")
            pin_shapes = [
                Rect(cx - 1.6, y - 1.6, 3.2, 3.2, fill, INK, 0.25) if number == 1
                else Circle(cx, y, 1.6, fill, INK, 0.25),
                Text(cx, y, str(number), TINY, WHITE if wire and wire.signal else INK),
                Text(cx + (2.6 if left else -2.6), y, name, SMALL,
                     POWER if name in ("5V", "VBUS", "VSYS") else INK,
                     anchor="start" if left else "end")]
            data = [("board", board), ("pin", str(number)), ("name", name)]
            if wire is not None:
                end = x - 7 if left else x + HEADER_WIDTH + 7
                pin_shapes += [Polyline(((x if left else x + HEADER_WIDTH, y), (end, y)),
                                        INK, WIRE_WIDTH),
                               Circle(end, y, 0.6, INK, None),
                               Text(end + (-1 if left else 1), y, wire.net, TEXT,
                                    NET if wire.signal else GREY, wire.signal,
                                    "end" if left else "start")]
                data.append(("net", wire.net))
            self.groups.append(Group("pin", tuple(pin_shapes), tuple(data)))
        return body + 20 * PIN_STEP + 2

    def legend(self, x: float, y: float) -> None:
        """How to read the page, beside the Pi's header where no Pico stands."""
        shapes: list = [Text(x, y, "Symbols", HEADING, bold=True, anchor="start")]
        y += 6
        rows = [("switch", "a reed switch: closes under a piece's magnet"),
                ("diode", "a diode (1N4148): current flows towards the band"),
                ("resistor", "a resistor"), ("capacitor", "a capacitor"),
                ("button", "a push button, momentary"), ("ground", "GND"),
                ("dot", "wires joined (a crossing without a dot is not a joint)")]
        for kind, words in rows:
            shapes += _symbol(kind, x + 5, y)
            shapes.append(Text(x + 14, y, words, TEXT, anchor="start"))
            y += 7.5
        self.groups.append(Group("legend", tuple(shapes)))

    # --- the sensors -----------------------------------------------------------------
    def matrix(self) -> None:
        """The diode matrix: its lines labelled with their pins, a box at every wired
        crossing naming its hole, and one box drawn out as its switch and diode."""
        profile, scan = self.profile, self.scan
        board = "pi" if scan.kind == "matrix" else "pico"
        holes = profile.channels()
        crossings = scan.rows * scan.columns
        shapes = self.heading(
            f"Sensors: a diode matrix of {scan.rows} rows x {scan.columns} columns on the "
            f"{'Pi' if board == 'pi' else 'Pico'}: {len(holes)} reed switches, each with a "
            f"1N4148 diode")
        self.groups.append(Group("count", tuple(shapes), (("what", "diode"),
                                                          ("count", str(len(holes))))))
        left = MARGIN + 44
        detail = 92
        cell = min(12.0, (PAGE_WIDTH - MARGIN - detail - 8 - left) / scan.columns)
        top = self.y + 2
        right = left + scan.columns * cell
        bottom = top + scan.rows * cell
        for r in range(scan.rows):
            y = top + (r + 0.5) * cell
            wire = self.nets[(board, f"row {r}")]
            self.groups.append(Group("net", (
                Polyline(((left - 2, y), (right, y)), INK, WIRE_WIDTH),
                Text(left - 34, y, f"row {r}", TEXT, NET, True, "start"),
                Text(left - 21, y, wire.name, SMALL, anchor="start"),
                Text(left - 10, y, f"pin {wire.pin}", SMALL, anchor="start")),
                (("net", f"row {r}"), ("board", board), ("pin", str(wire.pin)),
                 ("name", wire.name))))
        captions = [Text(left - 4, bottom + 3, "column", TEXT, NET, True, "end"),
                    Text(left - 4, bottom + 6.5, "GPIO" if board == "pi" else "GP",
                         SMALL, anchor="end"),
                    Text(left - 4, bottom + 9.5, "pin", SMALL, anchor="end")]
        self.groups.append(Group("note", tuple(captions)))
        size = min(SMALL, 0.2 * cell)
        for c in range(scan.columns):
            x = left + (c + 0.5) * cell
            wire = self.nets[(board, f"column {c}")]
            self.groups.append(Group("net", (
                Polyline(((x, top), (x, bottom + 1)), INK, WIRE_WIDTH),
                Text(x, bottom + 3, str(c), TEXT, NET, True),
                Text(x, bottom + 6.5, wire.name.removeprefix("GPIO").removeprefix("GP"),
                     size),
                Text(x, bottom + 9.5, str(wire.pin), size)),
                (("net", f"column {c}"), ("board", board), ("pin", str(wire.pin)),
                 ("name", wire.name))))
        for channel, hole in sorted(holes.items()):
            r, c = scan.lines(channel)
            x, y = left + (c + 0.5) * cell, top + (r + 0.5) * cell
            self.groups.append(Group("cell", (
                Rect(x - 0.42 * cell, y - 0.28 * cell, 0.84 * cell, 0.56 * cell, PALE, INK,
                     0.2),
                Text(x, y, hole, min(SMALL, 0.2 * cell), bold=True)),
                (("hole", hole), ("channel", str(channel)), ("lines", f"r{r} c{c}"))))
        # One box drawn out: row line, switch, diode, column line.
        dx, dy = PAGE_WIDTH - MARGIN - detail, top
        cell_shapes: list = [Text(dx, dy + 1, f"Every box, x {len(holes)}:", HEADING,
                                  bold=True, anchor="start")]
        row_y, down_x, column_x = dy + 9, dx + 12, dx + 72
        cell_shapes += [
            Polyline(((dx, row_y), (column_x + 10, row_y)), INK, WIRE_WIDTH),
            Text(dx, row_y - 2.2, "its row line", SMALL, NET, anchor="start"),
            Circle(down_x, row_y, 0.7, INK, None),
            Polyline(((down_x, row_y), (down_x, row_y + 5)), INK, WIRE_WIDTH),
            *_symbol("switch-down", down_x, row_y + 9),
            Polyline(((down_x, row_y + 13), (down_x, row_y + 17)), INK, WIRE_WIDTH),
            *_symbol("diode-down", down_x, row_y + 20),
            Polyline(((down_x, row_y + 23), (down_x, row_y + 28), (column_x, row_y + 28)),
                     INK, WIRE_WIDTH),
            Circle(column_x, row_y + 28, 0.7, INK, None),
            Polyline(((column_x, row_y + 3), (column_x, row_y + 34)), INK, WIRE_WIDTH),
            Text(column_x - 1.5, row_y + 33, "its column line", SMALL, NET,
                 anchor="end"),
            Text(down_x + 4, row_y + 9, "reed switch under the hole", SMALL,
                 anchor="start"),
            Text(down_x + 4, row_y + 18.8, "1N4148: anode at the switch,", SMALL,
                 anchor="start"),
            Text(down_x + 4, row_y + 21.6, "cathode (band) to the column", SMALL,
                 anchor="start")]
        unwired = crossings - len(holes)
        driver = "The Pi" if board == "pi" else "The Pico"
        self.paragraph(
            cell_shapes,
            f"A box at a crossing is the hole wired there: channel = row x "
            f"{scan.columns} + column. {driver} drives one row high at a time and reads "
            f"every column through its own pull-down: no resistors. The diodes stop "
            f"ghosts (hardware/README.md)."
            + (f" {unwired} crossings have no box: nothing is wired there." if unwired
               else ""), dx, row_y + 38, SMALL, width=detail)
        self.groups.append(Group("part", tuple(cell_shapes), (("part", "matrix-cell"),)))
        self.y = max(bottom + 14, row_y + 60)

    def hall(self) -> None:
        """Hall sensors a row at a time: every row pin with its holes, and one row drawn
        out with its MOSFET, its sensors and its multiplexer."""
        profile, scan = self.profile, self.scan
        sensors = len(profile.holes)
        shapes = self.heading(
            f"Sensors: {scan.rows} rows of up to {scan.columns} linear hall sensors "
            f"(DRV5055A2): {sensors} sensors, each row grounded through its own MOSFET "
            f"and read through its own CD74HC4067 multiplexer, one row at a time")
        self.groups.append(Group("count", tuple(shapes), (("what", "hall sensor"),
                                                          ("count", str(sensors)))))
        rows: dict[int, list[str]] = {r: [] for r in range(scan.rows)}
        for channel, hole in sorted(profile.channels().items()):
            rows[scan.lines(channel)[0]].append(hole)
        top = self.y + 1
        y = top
        self.groups.append(Group("note", (
            Text(MARGIN, y, "row pins: each to its row's MOSFET gate", SMALL, GREY,
                 anchor="start"),)))
        for r in range(scan.rows):
            y += 4.2
            wire = self.nets[("pico", f"row {r}")]
            names = rows[r]
            holes = f"{names[0]} ... {names[-1]}" if len(names) > 2 else " ".join(names)
            self.groups.append(Group("net", (
                Text(MARGIN, y, f"row {r}", TEXT, NET, True, "start"),
                Text(MARGIN + 13, y, wire.name, SMALL, anchor="start"),
                Text(MARGIN + 22, y, f"pin {wire.pin}", SMALL, anchor="start"),
                Text(MARGIN + 34, y, holes, SMALL, GREY, anchor="start")),
                (("net", f"row {r}"), ("board", "pico"), ("pin", str(wire.pin)),
                 ("name", wire.name))))
        # One row drawn out.
        x0 = MARGIN + 66
        rail, ground = top + 8, top + 30
        part: list = [Text(x0, top + 1, f"Row r, x {scan.rows}:", HEADING, bold=True,
                           anchor="start")]
        three = self.nets[("pico", "3V3")]
        part += [Polyline(((x0 + 8, rail), (x0 + 150, rail)), POWER, WIRE_WIDTH),
                 Text(x0 + 8, rail - 2.2, f"3V3 ({three.where})", SMALL, POWER,
                      anchor="start"),
                 Polyline(((x0 + 8, ground), (x0 + 150, ground)), INK, WIRE_WIDTH),
                 Text(x0 + 150, ground - 2, "row r's switched ground", SMALL,
                      anchor="end")]
        # The MOSFET: drain up to the row's ground, gate from the row pin, source down.
        mx, my = x0 + 8, ground + 10
        part += [Rect(mx - 6, my - 5, 12, 10, WHITE, INK, 0.3),
                 Text(mx, my - 1.5, "AO3400A", TINY, bold=True),
                 Text(mx, my + 1.5, "N-MOSFET", TINY),
                 Polyline(((mx, my - 5), (mx, ground)), INK, WIRE_WIDTH),
                 Circle(mx, ground, 0.7, INK, None),
                 Text(mx + 1, my - 7, "D", TINY, anchor="start"),
                 Polyline(((mx, my + 5), (mx, my + 9)), INK, WIRE_WIDTH),
                 *_symbol("ground", mx, my + 9),
                 Text(mx + 1, my + 7, "S", TINY, anchor="start"),
                 Polyline(((mx - 6, my), (mx - 14, my)), INK, WIRE_WIDTH),
                 Text(mx - 7, my - 1.5, "G", TINY, anchor="end"),
                 Circle(mx - 11, my, 0.7, INK, None),
                 Polyline(((mx - 11, my), (mx - 11, my + 3)), INK, WIRE_WIDTH),
                 *_symbol("resistor-down", mx - 11, my + 6),
                 Polyline(((mx - 11, my + 9), (mx - 11, my + 11)), INK, WIRE_WIDTH),
                 *_symbol("ground", mx - 11, my + 11),
                 Text(mx - 12.5, my + 6, "100k", TINY, anchor="end")]
        self.groups.append(Group("net", (Text(mx - 15, my, "row r", TEXT, NET, True,
                                              "end"),), (("net", "row r"),)))
        # The sensors: c0, c1, ..., the last; VCC up, GND down, OUT to the multiplexer.
        mux_top, columns = ground + 8, scan.columns
        shown = [0, 1, columns - 1] if columns > 3 else list(range(columns))
        xs = [x0 + 34 + 22 * k for k in range(len(shown))]
        if columns > 3:
            xs[-1] += 14
            part.append(Text((xs[1] + xs[2]) / 2, rail + 10, "...", HEADING, bold=True))
        for k, (column, x) in enumerate(zip(shown, xs)):
            sy = rail + 10
            part += [Rect(x - 6, sy - 4, 12, 8, WHITE, INK, 0.3),
                     Text(x, sy - 1.4, "DRV5055", TINY, bold=True),
                     Text(x, sy + 1.6, f"c{column}", TINY),
                     Polyline(((x - 3, sy - 4), (x - 3, rail)), POWER, WIRE_WIDTH),
                     Circle(x - 3, rail, 0.7, POWER, None),
                     Polyline(((x - 3, sy + 4), (x - 3, ground)), INK, WIRE_WIDTH),
                     Circle(x - 3, ground, 0.7, INK, None),
                     Polyline(((x + 3, sy + 4), (x + 3, mux_top)), INK, WIRE_WIDTH),
                     Text(x - 2.6, sy - 5.2, "VCC", TINY, anchor="start"),
                     Text(x + 3.4, sy + 5.2, "OUT", TINY, anchor="start")]
            if k == 0:
                part += [Polyline(((x - 3, sy - 6), (x - 9, sy - 6)), INK, WIRE_WIDTH),
                         *_symbol("capacitor-down", x - 9, sy),
                         Polyline(((x - 9, sy - 6), (x - 9, sy - 2)), INK, WIRE_WIDTH),
                         Polyline(((x - 9, sy + 2), (x - 9, sy + 6), (x - 3, sy + 6)),
                                  INK, WIRE_WIDTH),
                         Text(x - 10.5, sy + 3.5, "100 nF", TINY, anchor="end")]
        # The multiplexer: C inputs on top, S0-S3 below, SIG right, EN left.
        left, right = xs[0] - 8, xs[-1] + 14
        mux_bottom = mux_top + 14
        part += [Rect(left, mux_top, right - left, 14, BODY, INK, 0.4),
                 Text((left + right) / 2, mux_top + 7, "CD74HC4067, row r's multiplexer",
                      SMALL, bold=True)]
        for column, x in zip(shown, xs):
            part.append(Text(x + 3, mux_top + 2.2, f"C{column}", TINY))
        en = left - 12
        part += [Polyline(((left, mux_top + 4), (en, mux_top + 4), (en, ground)),
                          INK, WIRE_WIDTH),
                 Circle(en, ground, 0.7, INK, None),
                 Text(left + 1, mux_top + 4, "EN", TINY, anchor="start"),
                 Polyline(((en, ground), (en, ground - 4)), INK, WIRE_WIDTH),
                 *_symbol("resistor-down", en, ground - 7),
                 Polyline(((en, ground - 10), (en, rail)), INK, WIRE_WIDTH),
                 Circle(en, rail, 0.7, POWER, None),
                 Text(en - 1.5, ground - 7, "10k", TINY, anchor="end"),
                 Text(left + 1, mux_top + 10, "VCC 3V3, GND", TINY, GREY, anchor="start")]
        for bit in range(len(PICO_HALL_SELECT)):
            x = left + 10 + 9 * bit
            wire = self.nets[("pico", f"select S{bit}")]
            part += [Polyline(((x, mux_bottom), (x, mux_bottom + 4)), INK, WIRE_WIDTH),
                     Text(x, mux_bottom - 2, f"S{bit}", TINY)]
            self.groups.append(Group("net", (
                Text(x, mux_bottom + 6, f"select S{bit}", TINY, NET, True),
                Text(x, mux_bottom + 8.5, wire.name, TINY),
                Text(x, mux_bottom + 11, f"pin {wire.pin}", TINY)),
                (("net", f"select S{bit}"), ("board", "pico"), ("pin", str(wire.pin)),
                 ("name", wire.name))))
        out = self.nets[("pico", "sensor out")]
        sig_y = mux_top + 7
        part += [Polyline(((right, sig_y), (right + 6, sig_y)), INK, WIRE_WIDTH),
                 Text(right - 1, sig_y + 3.5, "SIG", TINY, anchor="end")]
        self.groups.append(self.label(out, "sensor out", right + 7, sig_y, "start"))
        self.groups.append(Group("part", tuple(part), (("part", "hall-row"),)))
        notes: list = []
        y = self.paragraph(
            notes,
            f"Every row the same: its MOSFET's gate on its own row pin (the list on the "
            f"left); its sensors c0 to c{columns - 1} on C0 to C{columns - 1} of its own "
            f"multiplexer; every multiplexer's S0-S3 joined to the select nets and every "
            f"SIG joined to sensor out (ADC0). A row's ground is also its multiplexer's "
            f"EN, so an unpowered row never loads SIG. A north pole reads low, a south "
            f"pole high (firmware/tt_board.py: mid, threshold).",
            x0, mux_bottom + 15, SMALL)
        self.groups.append(Group("note", tuple(notes)))
        self.y = max(y, top + 4.2 * (scan.rows + 1)) + 4

    def shift(self) -> None:
        """74HC165 shift registers in a chain: chip 0 drawn out with one input."""
        profile, scan = self.profile, self.scan
        sensors = len(profile.holes)
        shapes = self.heading(
            f"Sensors: {sensors} reed switches on a chain of {scan.rows} 74HC165 shift "
            f"registers, 8 inputs each, chip 0 next to the Pico")
        self.groups.append(Group("count", tuple(shapes), (("what", "74HC165"),
                                                          ("count", str(scan.rows)))))
        top = self.y + 4
        x0 = MARGIN + 70
        part: list = [Rect(x0, top, 40, 40, BODY, INK, 0.4),
                      Text(x0 + 20, top + 4, "74HC165, chip k", SMALL, bold=True)]
        pins = (("SH/LD", 1, "load"), ("CLK", 2, "clock"), ("QH", 9, "data"),
                ("SER", 10, None), ("CLK INH", 15, None))
        for i, (name, number, net) in enumerate(pins):
            y = top + 10 + 6 * i
            part += [Polyline(((x0, y), (x0 - 8, y)), INK, WIRE_WIDTH),
                     Text(x0 + 1, y, f"{name} ({number})", TINY, anchor="start")]
            if net is not None:
                wire = self.nets[("pico", net)]
                words = "chip 0's QH; chip k's QH to chip k-1's SER" if net == "data" \
                    else "every chip's"
                self.groups.append(self.label(wire, net, x0 - 9, y))
                part.append(Text(x0 - 9, y + 2.6, words, TINY, GREY, anchor="end"))
            elif name == "SER":
                part.append(Text(x0 - 9, y, "the next chip's QH (the last: GND)", TINY,
                                 GREY, anchor="end"))
            else:
                part += _symbol("ground", x0 - 8, y)
        three = self.nets[("pico", "3V3")]
        part += [Text(x0 + 20, top + 38, f"VCC (16) to 3V3 ({three.where}), GND (8)",
                      TINY, GREY)]
        # Input A (D0) drawn out: a 10k pull-up and a switch to ground.
        ix, iy = x0 + 40, top + 14
        part += [Polyline(((ix, iy), (ix + 20, iy)), INK, WIRE_WIDTH),
                 Text(ix - 1, iy, "A/D0 (11)", TINY, anchor="end"),
                 Circle(ix + 12, iy, 0.7, INK, None),
                 Polyline(((ix + 12, iy), (ix + 12, iy - 3)), INK, WIRE_WIDTH),
                 *_symbol("resistor-down", ix + 12, iy - 6),
                 Text(ix + 14, iy - 6, "10k to 3V3", TINY, anchor="start"),
                 Polyline(((ix + 20, iy), (ix + 20, iy + 4)), INK, WIRE_WIDTH),
                 *_symbol("switch-down", ix + 20, iy + 8),
                 Polyline(((ix + 20, iy + 12), (ix + 20, iy + 15)), INK, WIRE_WIDTH),
                 *_symbol("ground", ix + 20, iy + 15),
                 Text(ix + 23, iy + 8, "reed switch", TINY, anchor="start")]
        self.groups.append(Group("part", tuple(part), (("part", "shift-chip"),)))
        notes: list = []
        y = self.paragraph(
            notes, "Inputs B-H (D1-D7: pins 12, 13, 14, 3, 4, 5, 6) the same. Channel = "
                   "chip x 8 + input: chip 0's A is channel 0. A closed switch reads low "
                   "(a piece).", x0 + 70, top + 30, SMALL)
        self.groups.append(Group("note", tuple(notes)))
        self.y = max(y, top + 44) + 4

    # --- the LEDs and their supply ---------------------------------------------------
    def leds(self) -> None:
        profile = self.profile
        count = profile.led_count
        board = "pico" if profile.leds.driver == "serial" else "pi"
        data = self.nets[(board, "LED data")]
        shapes = self.heading(
            f"LEDs: {count} WS2812B in one chain from LED 0 (the drawing's orange line), "
            f"on their own 5 V supply")
        self.groups.append(Group("count", tuple(shapes), (("what", "LED"),
                                                          ("count", str(count)))))
        line = self.y + 14
        rail, ground = line + 14, line + 22
        x = MARGIN + 46
        self.groups.append(self.label(data, "LED data", x - 1, line))
        part: list = [Polyline(((x, line), (x + 8, line)), LED, WIRE_WIDTH)]
        # The level shifter, a 74AHCT125's first buffer: 1A in, 1Y out, 1OE to GND. Part of
        # every board: a WS2812B at 5 V reads a high from 3.5 V, the Pi sends 3.3 V.
        bx = x + 8
        part += [Text(bx + 10, line - 12, "spare A and OE pins to GND; 100 nF at VCC",
                      TINY, GREY),
                 Rect(bx, line - 6, 20, 12, WHITE, INK, 0.3),
                 Polygon(((bx + 7, line - 3), (bx + 13, line), (bx + 7, line + 3)), None,
                         INK, 0.3),
                 Text(bx + 10, line - 8, "74AHCT125", SMALL, bold=True),
                 Text(bx + 1, line - 4.5, "1A", TINY, anchor="start"),
                 Text(bx + 19, line - 4.5, "1Y", TINY, anchor="end"),
                 Text(bx + 1, line + 4.5, "1OE: GND", TINY, anchor="start"),
                 Text(bx + 19, line + 4.5, "VCC", TINY, POWER, anchor="end"),
                 Polyline(((bx + 16, line + 6), (bx + 16, rail)), POWER, WIRE_WIDTH),
                 Circle(bx + 16, rail, 0.7, POWER, None),
                 Polyline(((bx + 20, line), (bx + 26, line)), LED, WIRE_WIDTH),
                 *_symbol("resistor", bx + 29, line),
                 Text(bx + 29, line - 3, "330 ohm", TINY),
                 Polyline(((bx + 32, line), (bx + 40, line)), LED, WIRE_WIDTH)]
        # The chain: LED 0, LED 1, ..., the last.
        shown = [0, 1, count - 1] if count > 3 else list(range(count))
        lx = bx + 40
        for k, index in enumerate(shown):
            if k and index != shown[k - 1] + 1:
                part += [Polyline(((lx, line), (lx + 4, line)), LED, WIRE_WIDTH),
                         Text(lx + 9, line, "...", HEADING, LED, True),
                         Polyline(((lx + 14, line), (lx + 18, line)), LED, WIRE_WIDTH)]
                lx += 18
            part += [Rect(lx, line - 6, 22, 12, PALE, INK, 0.3),
                     Text(lx + 11, line - 2, f"LED {index}", SMALL, LED, True),
                     Text(lx + 11, line + 1.5, "WS2812B", TINY),
                     Text(lx + 1, line - 4.5, "DIN", TINY, anchor="start"),
                     Text(lx + 21, line - 4.5, "DOUT", TINY, anchor="end"),
                     Text(lx + 1, line + 4.5, "5V", TINY, POWER, anchor="start"),
                     Text(lx + 21, line + 4.5, "GND", TINY, anchor="end"),
                     Polyline(((lx + 3, line + 6), (lx + 3, rail)), POWER, WIRE_WIDTH),
                     Circle(lx + 3, rail, 0.7, POWER, None),
                     Polyline(((lx + 19, line + 6), (lx + 19, ground)), INK, WIRE_WIDTH),
                     Circle(lx + 19, ground, 0.7, INK, None)]
            lx += 22
            if k < len(shown) - 1:
                part.append(Polyline(((lx, line), (lx + 6, line)), LED, WIRE_WIDTH))
                lx += 6
        # The supply at the chain's end, its capacitor, the one ground wire to the Pi.
        amps = f"{supply_ma(profile) / 1000:g} A"
        cx, sx = lx + 8, lx + 16
        part += [Rect(sx, rail - 5, 30, ground - rail + 10, WHITE, POWER, 0.4),
                 Text(sx + 15, rail - 1, f"5 V {amps}", TEXT, POWER, True),
                 Text(sx + 15, ground + 1, "LED supply", SMALL),
                 Text(sx + 2, rail, "+", TEXT, POWER, True),
                 Text(sx + 2, ground, "-", TEXT, INK, True),
                 Polyline(((bx + 12, rail), (sx, rail)), POWER, 0.6),
                 Polyline(((bx + 12, ground), (sx, ground)), INK, 0.6),
                 Circle(cx, rail, 0.7, POWER, None), Circle(cx, ground, 0.7, INK, None),
                 *_symbol("capacitor-down", cx, (rail + ground) / 2),
                 Polyline(((cx, rail), (cx, (rail + ground) / 2 - 3)), POWER, WIRE_WIDTH),
                 Polyline(((cx, (rail + ground) / 2 + 3), (cx, ground)), INK, WIRE_WIDTH),
                 Text(cx + 1.5, ground + 2.5, "1000 uF", TINY, anchor="start"),
                 Text(sx + 32, rail, "5 V and GND: fed in at", SMALL, POWER, anchor="start"),
                 Text(sx + 32, rail + 3.2, "several places along the", SMALL, POWER,
                      anchor="start"),
                 Text(sx + 32, rail + 6.4, "chain (the guide says where)", SMALL, POWER,
                      anchor="start")]
        gnd = self.nets[("pi", "GND")]
        part += [Polyline(((bx + 12, ground), (bx + 12, ground + 5)), INK, WIRE_WIDTH),
                 Circle(bx + 12, ground, 0.7, INK, None)]
        self.groups.append(Group("part", tuple(part), (("part", "led-chain"),)))
        self.groups.append(self.label(gnd, "GND", bx + 11, ground + 5.5, "end", INK))
        notes: list = []
        y = self.paragraph(
            notes,
            f"The profile caps the LEDs at {profile.max_ma} mA, so the supply is "
            f"{amps} or more; one wire joins its ground to the Pi's. Never the Pi's 5 V "
            f"pins: "
            + ("the Pi has its own USB-C supply." if board == "pi" else
               "the Pi has its own USB-C supply, and the Pico is fed over USB."),
            bx + 20, ground + 5, SMALL)
        self.groups.append(Group("note", tuple(notes)))
        self.y = max(y, ground + 10) + 4

    # --- the buttons -----------------------------------------------------------------
    def buttons(self) -> None:
        chosen = buttons(self.profile)
        pico = self.profile.sensors.driver == "serial"
        free = free_pi_gpios(self.profile)
        shapes = self.heading("Buttons: momentary, from a pin to GND (the internal "
                              "pull-up), named in [buttons] of /etc/tabletop/tabletop.toml")
        self.groups.append(Group("note", tuple(shapes)))
        top = self.y + 2
        items = [(self.nets[("pi", action)], action, f"[buttons] {action} = {gpio}")
                 for action, gpio in chosen.items()]
        if pico:
            items.append((self.nets[("pico", "safe")], "safe",
                          "held while the Pico starts: its firmware stays stopped"))
        for i, (wire, net, words) in enumerate(items):
            x, y = MARGIN + 42 + 66 * (i % 4), top + 4 + 16 * (i // 4)
            self.groups.append(self.label(wire, net, x - 1, y))
            part = [Polyline(((x, y), (x + 4, y)), INK, WIRE_WIDTH),
                    *_symbol("button", x + 8, y),
                    Polyline(((x + 12, y), (x + 16, y), (x + 16, y + 2)), INK, WIRE_WIDTH),
                    *_symbol("ground", x + 16, y + 2)]
            self.groups.append(Group("part", tuple(part), (("part", "button"),)))
            caption: list = []
            self.paragraph(caption, words, x - 38, y + 3.5, SMALL, width=56)
            self.groups.append(Group("note", tuple(caption)))
        rows = (len(items) + 3) // 4
        notes: list = []
        others = [f"GPIO{g}" for g in free[len(chosen):]]
        text = (f"Free for buttons: {', '.join(f'GPIO{g}' for g in free)}." if free else
                "No Pi pin is left for a button: the touch screen offers every action.")
        if len(chosen) < len(BUTTONS) and free:
            text += " The touch screen offers the actions without a button."
        elif others:
            text += " Any free pin will do."
        self.y = self.paragraph(notes, text, MARGIN, top + 16 * rows + 2, SMALL) + 2
        self.groups.append(Group("note", tuple(notes)))


def _symbol(kind: str, x: float, y: float) -> list:
    """The shapes of a symbol centred on ``x``, ``y``: a horizontal one from x - 3 to
    x + 3, a ``-down`` one from y - 3 (or 4) to y + 3 (or 4)."""
    w = WIRE_WIDTH
    if kind in ("switch", "switch-down"):
        if kind == "switch":
            return [Polyline(((x - 4, y), (x - 2, y)), INK, w), Circle(x - 2, y, 0.5, WHITE),
                    Polyline(((x - 1.6, y - 0.3), (x + 2, y - 2.2)), INK, w),
                    Circle(x + 2, y, 0.5, WHITE), Polyline(((x + 2.5, y), (x + 4, y)), INK, w)]
        return [Polyline(((x, y - 4), (x, y - 2)), INK, w), Circle(x, y - 2, 0.5, WHITE),
                Polyline(((x + 0.3, y - 1.6), (x + 2.2, y + 2)), INK, w),
                Circle(x, y + 2, 0.5, WHITE), Polyline(((x, y + 2.5), (x, y + 4)), INK, w)]
    if kind == "diode":
        return [Polyline(((x - 4, y), (x + 4, y)), INK, w),
                Polygon(((x - 1.5, y - 1.8), (x + 1.5, y), (x - 1.5, y + 1.8)), INK, INK, w),
                Polyline(((x + 1.5, y - 1.8), (x + 1.5, y + 1.8)), INK, 0.5)]
    if kind == "diode-down":
        return [Polyline(((x, y - 3), (x, y + 3)), INK, w),
                Polygon(((x - 1.8, y - 1.5), (x + 1.8, y - 1.5), (x, y + 1.5)), INK, INK, w),
                Polyline(((x - 1.8, y + 1.5), (x + 1.8, y + 1.5)), INK, 0.5)]
    if kind == "resistor":
        return [Rect(x - 3, y - 1, 6, 2, WHITE, INK, w)]
    if kind == "resistor-down":
        return [Rect(x - 1, y - 3, 2, 6, WHITE, INK, w)]
    if kind == "capacitor":
        return [Polyline(((x - 4, y), (x - 0.6, y)), INK, w),
                Polyline(((x - 0.6, y - 2), (x - 0.6, y + 2)), INK, 0.5),
                Polyline(((x + 0.6, y - 2), (x + 0.6, y + 2)), INK, 0.5),
                Polyline(((x + 0.6, y), (x + 4, y)), INK, w)]
    if kind == "capacitor-down":
        return [Polyline(((x, y - 3), (x, y - 0.6)), INK, w),
                Polyline(((x - 2, y - 0.6), (x + 2, y - 0.6)), INK, 0.5),
                Polyline(((x - 2, y + 0.6), (x + 2, y + 0.6)), INK, 0.5),
                Polyline(((x, y + 0.6), (x, y + 3)), INK, w)]
    if kind == "button":
        return [Polyline(((x - 4, y), (x - 2, y)), INK, w), Circle(x - 2, y, 0.5, WHITE),
                Circle(x + 2, y, 0.5, WHITE), Polyline(((x + 2.5, y), (x + 4, y)), INK, w),
                Polyline(((x - 2.5, y - 1.5), (x + 2.5, y - 1.5)), INK, w),
                Polyline(((x, y - 1.5), (x, y - 3.5)), INK, w)]
    if kind == "ground":
        return [Polyline(((x - 2, y), (x + 2, y)), INK, 0.4),
                Polyline(((x - 1.3, y + 0.8), (x + 1.3, y + 0.8)), INK, 0.4),
                Polyline(((x - 0.6, y + 1.6), (x + 0.6, y + 1.6)), INK, 0.4)]
    if kind == "dot":
        return [Polyline(((x - 4, y), (x + 4, y)), INK, w),
                Polyline(((x, y - 3), (x, y + 3)), INK, w), Circle(x, y, 0.7, INK, None)]
    raise ValueError(f"no symbol {kind!r}")
