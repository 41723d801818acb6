"""``tabletop wiring``: the drawing and the schematic read back against the profile, the
pin table against the header, and the makers' parts lists against the profiles they build.

The SVGs are parsed, never compared as pictures: every hole once, at its place on a
lattice of the profile's pitch, with its channel and scan lines; every LED in chain order
along the chain's line, under its hole or amid its area's holes; every pin the profile
names on the schematic's header, labelled with its net, and the same net at the far end.
The pictures in hardware/README.md are checked the same way, so a profile that changes
makes a stale picture fail here.
"""

from __future__ import annotations

import ast
import csv
import math
import re
import struct
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import firmware_standins as fake
from app.cli import main
from app.games import new_game
from app.drawings import pinout
from app.hardware.profile import load_profile, shipped_profiles
from app.drawings.sheet import SVG_NS

ROOT = Path(__file__).resolve().parents[1]
HARDWARE = ROOT / "hardware"
#: The boards a maker builds: every shipped profile but the simulated twins.
BOARDS = [name for name in shipped_profiles() if "-sim" not in name]
G = f"{{{SVG_NS}}}"


def draw(tmp_path, capsys, *args) -> tuple[ET.Element, str]:
    """Run the command; the SVG it wrote, parsed, and what it printed."""
    assert main(["wiring", *args, "--out", str(tmp_path)]) == 0
    profile = load_profile(args[0])
    printed = capsys.readouterr()
    return ET.parse(tmp_path / f"{profile.name}.svg").getroot(), printed.out


def circuit(tmp_path: Path, name: str) -> ET.Element:
    """The schematic the command wrote beside the drawing, parsed."""
    return ET.parse(tmp_path / f"{load_profile(name).name}-schematic.svg").getroot()


def groups(root: ET.Element, kind: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{G}g") if g.get("class") == kind]


def texts(group: ET.Element) -> list[str]:
    return [t.text for t in group.iter(f"{G}text")]


def centre(group: ET.Element) -> tuple[float, float]:
    """The centre of a group's first outline: a circle, a square or a diamond."""
    shape = next(e for e in group if e.tag != f"{G}text")
    if shape.tag == f"{G}circle":
        return float(shape.get("cx")), float(shape.get("cy"))
    if shape.tag == f"{G}rect":
        return (float(shape.get("x")) + float(shape.get("width")) / 2,
                float(shape.get("y")) + float(shape.get("height")) / 2)
    points = [tuple(map(float, p.split(","))) for p in shape.get("points").split()]
    return (sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points))


def check_drawing(root: ET.Element, profile, pitch: float) -> None:
    """Everything the drawing must say about ``profile``, read back from the SVG."""
    holes = groups(root, "hole")
    names = [g.get("data-hole") for g in holes]
    assert sorted(names) == sorted(profile.holes), "every hole drawn, each once"
    scan = pinout.scanner(profile)
    places = {}
    for group in holes:
        name = group.get("data-hole")
        channel = profile.holes[name].channel
        assert group.get("data-channel") == str(channel)
        assert f"ch {channel}" in texts(group) and name in texts(group)
        if profile.sensors.driver == "simulated":
            assert group.get("data-lines") == ""
        else:
            row, column = divmod(channel, scan.columns)
            assert group.get("data-lines") == f"r{row} c{column}" in texts(group)
        places[name] = centre(group)
    # The holes sit on a lattice of the pitch, the columns left to right and row 1 at
    # the bottom, the nearest two one pitch apart.
    x0 = min(x for x, _ in places.values())
    y0 = min(y for _, y in places.values())
    for x, y in places.values():
        assert (x - x0) / pitch == pytest.approx(round((x - x0) / pitch), abs=0.01)
        assert (y - y0) / pitch == pytest.approx(round((y - y0) / pitch), abs=0.01)
    nearest = min(math.dist(a, b) for i, a in enumerate(places.values())
                  for b in list(places.values())[i + 1:])
    assert nearest == pytest.approx(pitch, abs=0.01)
    def column_row(name):  # where the game's board (or the profile's grid) places it
        return profile.places[name].x, profile.places[name].y

    by_grid = sorted(places, key=column_row)
    for a, b in zip(by_grid, by_grid[1:]):
        if column_row(a)[0] == column_row(b)[0]:
            assert places[b][1] < places[a][1], f"{b} is above {a}"
        else:
            assert places[b][0] > places[a][0], f"{b} is right of {a}"
    # The LEDs in chain order, each under its hole or amid its area's holes, and the
    # chain's line through them from LED 0.
    leds = groups(root, "led") + groups(root, "area-led")
    leds.sort(key=lambda g: int(g.get("data-led")))
    assert [int(g.get("data-led")) for g in leds] == list(range(profile.led_count))
    assert [g.get("data-lights") for g in leds] == list(profile.chain)
    assert all(str(int(g.get("data-led"))) in texts(g) for g in leds)
    spots = [centre(g) for g in leds]
    for group, spot in zip(leds, spots):
        lights = group.get("data-lights")
        if lights in profile.holes:
            assert group.get("class") == "led"
            x, y = places[lights]
            if len(profile.holes[lights].leds) == 1:
                assert spot == pytest.approx((x, y), abs=0.02)
            else:  # side by side under the hole
                assert spot[1] == pytest.approx(y) and abs(spot[0] - x) < pitch / 2
        else:
            assert group.get("class") == "area-led" and lights in profile.areas
            area = [places[h] for h in new_game(profile.game).areas[lights]]
            for axis in (0, 1):
                values = [point[axis] for point in area]
                assert min(values) - pitch / 2 <= spot[axis] <= max(values) + pitch / 2
            assert all(math.dist(spot, p) > pitch / 4 for p in places.values()), \
                f"area {lights}'s LED is not under a hole's"
    line = next(root.iter(f"{G}polyline"))
    points = [tuple(map(float, p.split(","))) for p in line.get("points").split()]
    assert [v for point in points for v in point] == \
        pytest.approx([v for spot in spots for v in spot], abs=0.02)


@pytest.mark.parametrize("name", shipped_profiles())
def test_every_shipped_profile_is_drawn_as_it_is_wired(name, tmp_path, capsys):
    profile = load_profile(name)
    root, _ = draw(tmp_path, capsys, name)
    check_drawing(root, profile, profile.board.pitch_mm)
    legend = " ".join(texts(groups(root, "legend")[0]))
    assert "100 mm" in legend and profile.description.split(",")[0] in legend


def test_the_drawing_prints_at_1_to_1(tmp_path, capsys):
    root, _ = draw(tmp_path, capsys, "conhex")
    width, height = (float(v) for v in root.get("viewBox").split()[2:])
    assert root.get("width") == f"{width:g}mm" and root.get("height") == f"{height:g}mm"
    board = groups(root, "board")[0][0]
    assert float(board.get("width")) == 290  # 10 pitches of 25 mm and two 20 mm edges
    png = (tmp_path / "conhex.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", png[16:24]) == (round(width / 25.4 * 200),
                                                round(height / 25.4 * 200))
    at = png.index(b"pHYs")
    assert struct.unpack(">IIB", png[at + 4:at + 13]) == (7874, 7874, 1)  # 200 dpi
    assert at < png.index(b"IDAT")


def test_without_pygame_the_svg_is_still_drawn_and_a_line_says_why(tmp_path, capsys,
                                                                    monkeypatch):
    monkeypatch.setitem(sys.modules, "pygame", None)  # import pygame fails, as uninstalled
    monkeypatch.delitem(sys.modules, "app.drawings.paper", raising=False)
    assert main(["wiring", "akron", "--out", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["akron-schematic.svg", "akron.svg"]
    err = capsys.readouterr().err
    assert "no PNG: pygame-ce paints it" in err and "[screen] extra" in err


#: A board's sizes as a maker's profile gives them.
BOARD = "[board]\npitch_mm = 20\nhole_mm = 10\nedge_mm = 5\n"


def test_a_maker_s_own_profile_draws_the_same_way_at_its_own_sizes(tmp_path, capsys):
    profile = tmp_path / "tiny.toml"
    profile.write_text('game = "three-in-a-row"\n[holes]\ncolumns = 3\nrows = 2\n'
                       '[chain]\norder = ["a1", "a1", "b1", "c1", "c2", "b2", "a2"]\n'
                       '[sensors]\ndriver = "matrix"\nrow_pins = [5, 6]\n'
                       'column_pins = [13, 19, 26]\n'
                       '[leds]\ndriver = "neopixel_spi"\nbrightness = 0.5\nmax_ma = 400\n'
                       "[board]\npitch_mm = 30\nhole_mm = 12\nshape = 'square'\n"
                       "edge_mm = 10\n")
    root, out = draw(tmp_path, capsys, str(profile))
    check_drawing(root, load_profile(profile), 30)
    first, second = (centre(g) for g in groups(root, "led")[:2])
    assert first[1] == second[1] and second[0] - first[0] == pytest.approx(7.5), \
        "a hole's two LEDs side by side"
    assert root.find(f".//{G}g[@class='hole']/{G}rect") is not None, "square holes"
    assert float(groups(root, "board")[0][0].get("width")) == 80  # 2 pitches, 2 edges
    assert ["row", "1", "GPIO6", "31"] in table(out)
    assert ["column", "2", "GPIO26", "37"] in table(out)
    check_schematic(circuit(tmp_path, str(profile)), load_profile(profile))


def test_a_profile_without_sizes_is_told_in_one_line_what_to_add(tmp_path, capsys):
    profile = tmp_path / "sizeless.toml"
    profile.write_text('game = "three-in-a-row"\n[holes]\ncolumns = 3\nrows = 1\n'
                       '[chain]\norder = "rows"\n[sensors]\ndriver = "simulated"\n'
                       '[leds]\ndriver = "simulated"\nbrightness = 1\nmax_ma = 100\n')
    error = one_line_error(capsys, [str(profile), "--out", str(tmp_path / "out")])
    assert f"{profile}: board: missing table: add [board] with pitch_mm, hole_mm, shape " \
           f"and edge_mm" in error
    assert not (tmp_path / "out").exists()
    # A profile on a shipped base takes the base's sizes with its holes, as the -sim
    # twins do.
    profile.write_text('base = "akron"\n[leds]\ndriver = "simulated"\nbrightness = 1\n'
                       'max_ma = 100\n')
    assert load_profile(profile).board == load_profile("akron-sim").board \
        == load_profile("akron").board
    root, _ = draw(tmp_path, capsys, str(profile))
    check_drawing(root, load_profile(profile), 20)


def test_a_bad_board_table_is_one_line_and_nothing_is_written(tmp_path, capsys):
    profile = tmp_path / "wide.toml"
    profile.write_text('base = "akron"\n[board]\npitch_mm = 20\nhole_mm = 25\nedge_mm = 20\n')
    assert "board.hole_mm: 25 is wider than the pitch (20)" in one_line_error(
        capsys, [str(profile), "--out", str(tmp_path / "out")])
    assert not (tmp_path / "out").exists()


def test_piece_sizes_are_no_longer_a_file_of_their_own():
    """The sizes moved into the profiles: no per-game files, no option, no package data."""
    assert not (ROOT / "app" / "hardware" / "pieces").exists()
    assert "pieces/" not in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    with pytest.raises(SystemExit):
        main(["wiring", "akron", "--pieces", "sizes.toml"])


# --- the pin table ----------------------------------------------------------------------

def table(out: str) -> list[list[str]]:
    """The first four words of every line: what (two words for a line), pin, header."""
    return [line.split()[:4] for line in out.splitlines()]


def test_the_headers_have_every_pin_once():
    pi_gpios = [p for p in pinout.PI_HEADER if isinstance(p, int)]
    assert len(pinout.PI_HEADER) == 40 and sorted(pi_gpios) == list(range(28))
    pico_gps = [p for p in pinout.PICO_HEADER if isinstance(p, int)]
    assert len(pinout.PICO_HEADER) == 40
    assert sorted(pico_gps) == [*range(23), 26, 27, 28]
    # Spot checks against the printed pinouts.
    assert [pinout.pi_pin(g) for g in (2, 10, 18, 21, 26)] == ["3", "19", "12", "40", "37"]
    assert [pinout.pico_pin(g) for g in (0, 16, 22, 26, "3V3(OUT)", "VBUS")] == \
        ["1", "21", "29", "31", "36", "40"]


@pytest.mark.parametrize("name", [n for n in BOARDS if load_profile(n).sensors.driver == "matrix"])
def test_a_matrix_board_s_pin_table_names_every_line_and_its_holes(name, tmp_path, capsys):
    profile = load_profile(name)
    _, out = draw(tmp_path, capsys, name)
    lines = out.splitlines()
    width = len(profile.sensors.column_pins)
    for kind, pins in (("row", profile.sensors.row_pins),
                       ("column", profile.sensors.column_pins)):
        for index, gpio in enumerate(pins):
            line = next(l for l in lines if l.split()[:2] == [kind, str(index)])
            assert line.split()[2:4] == [f"GPIO{gpio}", pinout.pi_pin(gpio)]
            on_line = [h for h, hole in profile.holes.items()
                       if divmod(hole.channel, width)[kind == "column"] == index]
            assert line.split()[-len(on_line):] == sorted(on_line,
                                                          key=lambda h: profile.holes[h].channel)
    assert ["LED", "data", "GPIO10", "19"] in table(out)
    free = re.search(r"free: (.*)", out)[1]
    used = {*profile.sensors.row_pins, *profile.sensors.column_pins, 7, 8, 9, 10, 11}
    assert {int(g) for g in re.findall(r"GPIO(\d+)", free)} == set(range(2, 28)) - used


def test_the_pico_s_pins_build_the_firmware_s_scanner_for_the_profile(tmp_path, capsys,
                                                                      monkeypatch):
    _, out = draw(tmp_path, capsys, "blokus-duo")
    assert ["row", "13", "GP13", "17"] in table(out)
    assert ["select", "S3", "GP19", "25"] in table(out)
    assert ["sensor", "out", "GP26", "31"] in table(out)
    board = ast.literal_eval(re.search(r"BOARD = (\{.*?\})", out, re.S)[1])
    fake.install(monkeypatch)
    from firmware import tt_main
    scanner = tt_main.scanner(board)
    assert (scanner.rows, scanner.cols) == (14, 14)
    assert scanner.polarity, "a colour board senses which pole is up"
    assert board["leds"] == 0, "the Pi drives this board's LEDs"


@pytest.mark.parametrize("grid, colour, kind", [((4, 3), False, "pico-matrix"),
                                                ((16, 10), False, "pico-shift"),
                                                ((16, 16), True, "pico-hall")])
def test_a_maker_s_serial_board_gets_pico_pins_its_firmware_takes(grid, colour, kind, tmp_path,
                                                                  capsys, monkeypatch):
    columns, rows = grid
    profile = tmp_path / "serial.toml"
    # a board for a game not known yet: no game's holes to cover, none refused
    profile.write_text(f'game = "planned"\n[holes]\ncolumns = {columns}\nrows = {rows}\n'
                       f'[chain]\norder = "rows"\n[sensors]\ndriver = "serial"\nport = "auto"\n'
                       f'colour = {str(colour).lower()}\n'
                       f'[leds]\ndriver = "serial"\nbrightness = 0.5\nmax_ma = 1000\n')
    loaded = load_profile(profile)
    assert pinout.scanner(loaded).kind == kind
    tables = pinout.pin_tables(loaded)
    board = ast.literal_eval(tables[1].settings.partition("BOARD = ")[2])
    fake.install(monkeypatch)
    from firmware import tt_main
    scanner = tt_main.scanner(board)
    assert scanner.rows * scanner.cols >= columns * rows
    assert board["leds"] == loaded.led_count, "the Pico drives the LEDs here"
    for channel in (0, columns * rows - 1):
        row, column = pinout.scanner(loaded).lines(channel)
        assert row * scanner.cols + column == channel


def test_a_colour_board_too_big_for_the_pico_is_one_line(tmp_path, capsys):
    profile = tmp_path / "big.toml"
    profile.write_text('game = "huge"\n[holes]\ncolumns = 17\nrows = 17\n[chain]\n'
                       'order = "rows"\n[sensors]\ndriver = "serial"\nport = "auto"\n'
                       'colour = true\n[leds]\ndriver = "simulated"\nbrightness = 1\n'
                       'max_ma = 100\n' + BOARD)
    assert "289 channels are more than the Pico's hall matrix" in one_line_error(
        capsys, [str(profile), "--out", str(tmp_path)])


def test_the_led_supply_covers_the_budget_with_headroom():
    assert pinout.supply_ma(load_profile("kulami")) == 3000  # as the profile's comment says
    assert pinout.supply_ma(load_profile("blokus-duo")) == 4000


# --- the schematic ------------------------------------------------------------------------

def check_schematic(root: ET.Element, profile) -> None:
    """Every pin ``profile`` names is on the schematic's header (the Pi's, or the Pico's
    as the pin table proposes it), labelled with its net, and the same net at the far
    end names the same pin; every hole of a diode matrix has its box at its lines; the
    counts are the profile's."""
    pins = {(g.get("data-board"), g.get("data-pin")): g for g in groups(root, "pin")}
    serial = profile.sensors.driver == "serial"
    assert len(pins) == (80 if serial else 40), "every header pin drawn once"
    far = groups(root, "net")

    def named(board: str, pin: str, name: str, net: str) -> None:
        group = pins[(board, pin)]
        assert (group.get("data-name"), group.get("data-net")) == (name, net), (pin, net)
        assert {pin, name, net} <= set(texts(group)), f"{name} is labelled {net}"
        ends = [g for g in far if g.get("data-net") == net and g.get("data-board") == board]
        assert ends, f"{net} goes nowhere"
        for end in ends:
            assert (end.get("data-pin"), end.get("data-name")) == (pin, name)
            assert re.search(rf"\b{pin}\b", " ".join(texts(end))), "the far end names the pin"

    sensors, scan = profile.sensors, pinout.scanner(profile)
    if sensors.driver == "matrix":
        for kind, gpios in (("row", sensors.row_pins), ("column", sensors.column_pins)):
            for index, gpio in enumerate(gpios):
                named("pi", pinout.pi_pin(gpio), f"GPIO{gpio}", f"{kind} {index}")
    if profile.leds.driver == "neopixel_spi":  # the SPI0 MOSI
        named("pi", "19", "GPIO10", "LED data")
    elif profile.leds.driver == "neopixel":
        gpio = int(profile.leds.pin[1:])
        named("pi", pinout.pi_pin(gpio), f"GPIO{gpio}", "LED data")
    if serial:
        board = pinout.pico_settings(profile, scan)
        lines = {"row": board.get("row_pins", []), "column": board.get("column_pins", []),
                 "select S": board.get("select_pins", [])}
        for kind, gps in lines.items():
            for index, gp in enumerate(gps):
                named("pico", pinout.pico_pin(gp), f"GP{gp}",
                      f"{kind}{'' if kind.endswith(' S') else ' '}{index}")
        if "adc_pin" in board:
            named("pico", pinout.pico_pin(board["adc_pin"]), f"GP{board['adc_pin']}",
                  "sensor out")
        for key in ("load_pin", "clock_pin", "data_pin"):
            if key in board:
                named("pico", pinout.pico_pin(board[key]), f"GP{board[key]}",
                      key.removesuffix("_pin"))
        if board["leds"]:
            named("pico", pinout.pico_pin(board["leds_pin"]), f"GP{board['leds_pin']}",
                  "LED data")
        safe = pins[("pico", pinout.pico_pin(board["safe_pin"]))]
        assert safe.get("data-net") == "safe"
    if scan.kind in ("matrix", "pico-matrix"):
        cells = groups(root, "cell")
        assert sorted(g.get("data-hole") for g in cells) == sorted(profile.holes)
        for cell in cells:
            hole = cell.get("data-hole")
            channel = profile.holes[hole].channel
            assert cell.get("data-channel") == str(channel) and hole in texts(cell)
            row, column = divmod(channel, scan.columns)
            assert cell.get("data-lines") == f"r{row} c{column}"
    counts = {g.get("data-what"): int(g.get("data-count")) for g in groups(root, "count")}
    if sensors.driver == "matrix" or scan.kind == "pico-matrix":
        assert counts["diode"] == len(profile.holes)
    elif scan.kind == "pico-hall":
        assert counts["hall sensor"] == len(profile.holes)
    if profile.leds.driver != "simulated":
        assert counts["LED"] == profile.led_count
        assert f"5 V {pinout.supply_ma(profile) / 1000:g} A" in " ".join(texts(root))


@pytest.mark.parametrize("name", BOARDS)
def test_every_pin_a_shipped_board_names_is_labelled_on_its_schematic(name, tmp_path, capsys):
    draw(tmp_path, capsys, name)
    check_schematic(circuit(tmp_path, name), load_profile(name))


@pytest.mark.parametrize("name", BOARDS)
def test_the_schematic_and_the_pin_table_agree(name, tmp_path, capsys):
    """Every signal wire of the pin table is on the schematic's header under the same
    name, at the same pin, and nothing else is called a signal there."""
    draw(tmp_path, capsys, name)
    root = circuit(tmp_path, name)
    labelled = {(g.get("data-board"), g.get("data-pin")): g.get("data-net")
                for g in groups(root, "pin") if g.get("data-net")}
    expected = {}
    for board, table in zip(("pi", "pico"), pinout.pin_tables(load_profile(name))):
        for pin in table.pins:
            if pin.signal:
                expected[(board, pin.header)] = pin.what
    assert {key: labelled.get(key) for key in expected} == expected
    assert len(expected) == sum(t.signals for t in pinout.pin_tables(load_profile(name)))


def test_the_schematic_draws_the_buttons_on_free_pins(tmp_path, capsys):
    draw(tmp_path, capsys, "conhex")
    root = circuit(tmp_path, "conhex")
    nets = {g.get("data-net"): g.get("data-name") for g in groups(root, "pin")}
    assert [nets[action] for action in ("confirm", "hint", "undo", "new_game")] == \
        ["GPIO14", "GPIO15", "GPIO26", "GPIO27"]  # as hardware/conhex.md wires them
    words = " ".join(texts(root))
    assert "[buttons] confirm = 14" in words and "74AHCT125" in words and "330 ohm" in words


@pytest.mark.parametrize("grid, colour, kind", [((4, 3), False, "pico-matrix"),
                                                ((16, 10), False, "pico-shift"),
                                                ((16, 16), True, "pico-hall")])
def test_a_maker_s_serial_board_gets_a_schematic_of_its_pico(grid, colour, kind, tmp_path,
                                                             capsys):
    columns, rows = grid
    profile = tmp_path / "serial.toml"
    profile.write_text(f'game = "four-by-three"\n[holes]\ncolumns = {columns}\n'
                       f'rows = {rows}\n[chain]\norder = "rows"\n[sensors]\n'
                       f'driver = "serial"\nport = "auto"\ncolour = {str(colour).lower()}\n'
                       f'[leds]\ndriver = "serial"\nbrightness = 0.5\nmax_ma = 1000\n' + BOARD)
    loaded = load_profile(profile)
    assert pinout.scanner(loaded).kind == kind
    draw(tmp_path, capsys, str(profile))
    check_schematic(circuit(tmp_path, str(profile)), loaded)


def test_a_simulated_profile_has_nothing_to_wire_and_says_so(tmp_path, capsys):
    assert main(["wiring", "kulami-sim", "--out", str(tmp_path)]) == 0
    assert not list(tmp_path.glob("*schematic*"))  # the board and its A3 pages only
    assert sorted(p.name for p in tmp_path.glob("kulami-sim.*")) == ["kulami-sim.png",
                                                                     "kulami-sim.svg"]
    assert "no schematic: kulami-sim's sensors and LEDs are simulated" in \
        capsys.readouterr().err


# --- bad input ----------------------------------------------------------------------------

def one_line_error(capsys, args: list[str]) -> str:
    assert main(["wiring", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1, captured.err
    assert captured.err.startswith("tabletop wiring: ")
    return captured.err


def test_an_unknown_profile_is_one_line(tmp_path, capsys):
    assert "no profile named 'chess'" in one_line_error(capsys, ["chess", "--out",
                                                                 str(tmp_path)])
    assert list(tmp_path.iterdir()) == []


def test_an_out_folder_that_cannot_be_written_is_one_line(tmp_path, capsys):
    plain = tmp_path / "plain"
    plain.write_text("")
    assert "plain: not a folder" in one_line_error(capsys, ["kulami", "--out", str(plain)])
    assert f"{plain} is not a folder" in one_line_error(
        capsys, ["kulami", "--out", str(plain / "inside")])


def test_an_out_folder_whose_parent_is_missing_is_refused_not_made(tmp_path, capsys):
    """A typo must not silently make a tree of folders somewhere nobody looks."""
    typo = tmp_path / "no" / "such" / "dir"
    assert one_line_error(capsys, ["kulami", "--out", str(typo)]) == (
        f"tabletop wiring: --out {typo}: there is no folder {typo.parent} to make it "
        f"in\n")
    assert list(tmp_path.iterdir()) == []


def test_a_missing_out_folder_in_a_folder_there_is_made_and_said(tmp_path, capsys):
    out = tmp_path / "drawings"
    assert main(["wiring", "kulami-sim", "--out", str(out)]) == 0
    assert capsys.readouterr().err.splitlines()[0] == f"made the folder {out}"
    assert {"kulami-sim.png", "kulami-sim.svg"} <= {p.name for p in out.iterdir()}


def test_a_hole_with_no_place_is_one_line(tmp_path, capsys):
    """A planned game's holes listed by name have no place to draw them at; a known
    game's hole its board does not place is refused as the profile loads."""
    profile = tmp_path / "odd.toml"
    profile.write_text('game = "odd"\n[holes]\nnames = ["a1", "centre"]\n[chain]\n'
                       'order = ["a1", "centre"]\n[sensors]\ndriver = "simulated"\n'
                       '[leds]\ndriver = "simulated"\nbrightness = 1\nmax_ma = 100\n'
                       + BOARD)
    assert "holes: a1 has no place: odd is no game this table knows, so its holes are " \
           "placed only as [holes] columns and rows" in one_line_error(
               capsys, [str(profile), "--out", str(tmp_path)])
    profile.write_text(profile.read_text().replace('"odd"', '"akron"'))
    assert "holes: 'a1' is not a point: a point is a level 1-8" in one_line_error(
        capsys, [str(profile), "--out", str(tmp_path)])


# --- the makers' guides -------------------------------------------------------------------

def parts(board: str) -> list[dict[str, str]]:
    with open(HARDWARE / f"{board}-parts.csv", newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file))


def counted(rows: list[dict[str, str]], per: str, word: str = "") -> list[int]:
    return [int(r["quantity"]) for r in rows
            if r["per"] == per and word in r["item"].lower()]


@pytest.mark.parametrize("board", BOARDS)
def test_a_board_s_parts_list_counts_what_its_profile_wires(board):
    profile = load_profile(board)
    rows = parts(board)
    assert list(rows[0]) == ["item", "quantity", "per", "specification", "notes"]
    holes = len(profile.holes)
    sensor = "reed switch" if profile.sensors.driver == "matrix" else "hall sensor"
    assert counted(rows, "hole", sensor) == [holes]
    assert counted(rows, "LED", "ws2812b") == [profile.led_count]
    tables = pinout.pin_tables(profile)
    assert counted(rows, "Pi GPIO line") == [tables[0].signals]
    if profile.sensors.driver == "matrix":
        assert counted(rows, "hole", "diode") == [holes]
    else:
        scan = pinout.scanner(profile)
        assert counted(rows, "Pico GPIO line") == [tables[1].signals]
        assert counted(rows, "sensor row", "multiplexer") == [scan.rows]
        assert counted(rows, "sensor row", "mosfet") == [scan.rows]
        assert not counted(rows, "hole", "diode")
    supply = next(r for r in rows if r["item"].lower() == "led power supply")
    assert f"{pinout.supply_ma(profile) / 1000:g} A" in supply["specification"]
    for row in rows:
        assert int(row["quantity"]) > 0 and row["specification"], row


@pytest.mark.parametrize("board", BOARDS)
def test_every_board_has_a_guide_that_uses_its_drawing_and_parts(board):
    guide = (HARDWARE / f"{board}.md").read_text(encoding="utf-8")
    assert f"{board}-parts.csv" in guide and f"tabletop wiring {board}" in guide
    profile = load_profile(board)
    assert f"{profile.max_ma} mA" in guide
    assert f"{profile.board.pitch_mm:g} mm" in guide
    assert "--pieces" not in guide and "pieces file" not in guide



@pytest.mark.parametrize("board", BOARDS)
def test_the_level_shifter_is_part_of_every_board(board, tmp_path, capsys):
    """A WS2812B at 5 V reads a high from 0.7 x 5 V = 3.5 V, and the Pi sends 3.3 V: the
    74AHCT125 is in every parts list, guide and schematic, with its capacitor, and
    nowhere called optional."""
    rows = parts(board)
    shifter = [r for r in rows if "74AHCT125" in r["item"]]
    assert len(shifter) == 1 and shifter[0]["quantity"] == "1"
    assert "optional" not in " ".join(shifter[0].values()).lower()
    assert [r for r in rows if "100 nF" in r["item"] and "74AHCT125" in r["notes"]]
    assert "74AHCT125" in (HARDWARE / f"{board}.md").read_text(encoding="utf-8")
    draw(tmp_path, capsys, board)
    words = " ".join(texts(circuit(tmp_path, board)))
    assert "74AHCT125" in words and "optional" not in words
    readme = (HARDWARE / "README.md").read_text(encoding="utf-8")
    assert not re.search(r"optional\s+74AHCT125|74AHCT125[^.]*optional", readme)

def test_the_readme_s_pictures_are_the_boards_as_they_are_wired():
    readme = (HARDWARE / "README.md").read_text(encoding="utf-8")
    pictures = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", readme)
    svgs = [p for p in pictures if p.endswith(".svg")]
    schematics = [p for p in svgs if p.endswith("-schematic.svg")]
    assert len(svgs) - len(schematics) >= 2 and len(schematics) >= 2
    for picture in svgs:
        path = (HARDWARE / picture).resolve()
        assert path.is_relative_to(ROOT) and path.is_file(), picture
        board = path.stem.removesuffix("-schematic")
        assert f"tabletop wiring {board}" in readme
        profile = load_profile(board)
        root = ET.parse(path).getroot()
        if picture in schematics:
            check_schematic(root, profile)
        else:
            check_drawing(root, profile, profile.board.pitch_mm)
    assert "--pieces" not in readme and "app/hardware/pieces" not in readme
    links = re.findall(r"\]\(([^)]+)\)", readme)
    assert not [link for link in links if "://" in link or link.startswith("/")]
