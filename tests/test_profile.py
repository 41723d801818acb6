"""Board profiles: every shipped profile loads, maps holes to channels and LEDs as
documented, and every broken profile fails with one line naming file, key and problem."""

from pathlib import Path

import pytest

from app.cli import main
from app.games import GAMES, new_game
from engines.core import Place
from app.hardware.profile import (PROFILE_DIR, BoardSize, ProfileError, grid_chain,
                                  load_profile, shipped_profiles)

GAMES_WITH_PROFILES = ("kulami", "conhex", "akron", "blokus-duo")


def test_a_real_and_a_simulated_profile_ship_for_every_game():
    names = shipped_profiles()
    for game in GAMES_WITH_PROFILES:
        assert game in names and f"{game}-sim" in names


@pytest.mark.parametrize("name", shipped_profiles())
def test_every_shipped_profile_loads(name):
    profile = load_profile(name)
    assert profile.game in GAMES_WITH_PROFILES
    channels = [hole.channel for hole in profile.holes.values()]
    assert len(set(channels)) == len(channels)
    lit = sorted(i for hole in profile.holes.values() for i in hole.leds) + sorted(
        i for leds in profile.areas.values() for i in leds)
    assert sorted(lit) == list(range(profile.led_count))


@pytest.mark.parametrize("name", [n for n in shipped_profiles()
                                  if load_profile(n).game in GAMES])
def test_profiles_cover_every_hole_of_their_game(name):
    profile = load_profile(name)
    board = new_game(profile.game)
    assert set(board.holes) <= set(profile.holes)
    assert set(board.areas) <= set(profile.areas) or not profile.areas


def test_simulated_profiles_share_holes_and_chain_with_their_board():
    for game in GAMES_WITH_PROFILES:
        real, sim = load_profile(game), load_profile(f"{game}-sim")
        assert (sim.holes, sim.areas, sim.chain) == (real.holes, real.areas, real.chain)
        assert sim.sensors.driver == sim.leds.driver == "simulated"
        # The desktop twin senses colour, as a hall-sensor board can, whatever the board.
        assert sim.sensors.colour


def test_the_colour_blind_kulami_twin_is_the_reed_switch_board_simulated():
    real, blind = load_profile("kulami"), load_profile("kulami-sim-blind")
    assert (blind.holes, blind.areas, blind.chain) == (real.holes, real.areas, real.chain)
    assert blind.sensors.driver == "simulated"
    assert blind.sensors.colour is real.sensors.colour is False


def test_kulami_holes_are_a_10x10_grid_read_row_by_row_and_lit_in_a_serpentine():
    profile = load_profile("kulami")
    assert len(profile.holes) == 100
    assert profile.holes["a1"].channel == 0 and profile.holes["j1"].channel == 9
    assert profile.holes["a2"].channel == 10 and profile.holes["j10"].channel == 99
    assert [profile.holes[h].leds for h in ("a1", "j1", "j2", "a2", "a3")] == [
        (0,), (9,), (10,), (19,), (20,)]
    assert profile.channels()[33] == "d4"


def test_conhex_lights_holes_then_cells_and_leaves_three_channels_unwired():
    profile = load_profile("conhex")
    assert len(profile.holes) == 69 and len(profile.areas) == 41
    assert profile.led_count == 110
    assert profile.areas["0"] == (69,) and profile.areas["40"] == (109,)
    assert set(profile.channels()) == set(range(69))


def test_akron_names_board_holes_on_the_doubled_grid():
    profile = load_profile("akron")
    assert {"1a1", "1o1", "1a15", "1o15"} <= set(profile.holes)
    assert len(profile.holes) == 64


@pytest.mark.parametrize("order, expected", [
    ("rows", ["a1", "b1", "c1", "a2", "b2", "c2"]),
    ("serpentine", ["a1", "b1", "c1", "c2", "b2", "a2"]),
    ("columns", ["a1", "a2", "b1", "b2", "c1", "c2"]),
    ("serpentine-columns", ["a1", "a2", "b2", "b1", "c1", "c2"]),
])
def test_grid_chain_orders_start_at_the_lower_left(order, expected):
    assert grid_chain(["a", "b", "c"], ["1", "2"], order) == expected


#: The smallest board Kulami fits: its 8x8 frame, one sensor and one LED per hole.
GOOD = """
game = "kulami"
[holes]
columns = 8
rows = 8
[chain]
order = "serpentine"
[sensors]
driver = "matrix"
row_pins = [2, 3, 4, 5, 6, 12, 13, 14]
column_pins = [15, 16, 17, 19, 20, 21, 22, 23]
[leds]
driver = "neopixel"
pin = "D18"
brightness = 0.5
max_ma = 500
"""
ROWS = "row_pins = [2, 3, 4, 5, 6, 12, 13, 14]"
COLUMNS = "column_pins = [15, 16, 17, 19, 20, 21, 22, 23]"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "board.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_minimal_profile_loads_from_a_path(tmp_path):
    profile = load_profile(write(tmp_path, GOOD))
    assert profile.name == "board" and profile.led_count == 64
    assert profile.sensors.row_pins == (2, 3, 4, 5, 6, 12, 13, 14)
    assert profile.leds.pin == "D18"
    assert (profile.brightness, profile.max_ma) == (0.5, 500)


def test_an_explicit_chain_may_give_a_hole_two_leds_and_light_areas(tmp_path):
    order = ["a1", "b1", "c1", "x"] + grid_chain(list("abcdefgh"), list("12345678"),
                                                  "rows")[3:] + ["h8"]
    text = GOOD.replace('order = "serpentine"', f'areas = ["x"]\norder = {order}'.replace(
        "'", '"'))
    profile = load_profile(write(tmp_path, text))
    assert profile.holes["h8"].leds == (64, 65) and profile.areas["x"] == (3,)


BROKEN = [
    ('game = "kulami"', 'game = 3', "game: must be text"),
    # Names go into one-line messages: a newline, a tab or a space in one is refused.
    ('game = "kulami"', 'game = "ku\\nlami"', "game: must name a game, not 'ku\\nlami'"),
    ("columns = 8\nrows = 8", 'names = ["a\\n1", "a\\n1"]',
     "holes.names[0]: must be a hole name, not 'a\\n1'"),
    ("columns = 8", 'columns = ["a", "b c"]', "holes.columns: must be a count or a list"),
    ('order = "serpentine"', 'order = "serpentine"\nareas = ["x\\ty"]',
     "chain.areas[0]: must be an area name"),
    ('game = "kulami"', 'game = "kulami"\ncolour = 1', "colour: unknown key"),
    ('[chain]\norder = "serpentine"\n', "", "chain: missing table"),
    ('[chain]', '[chained]', "chained: unknown key"),
    ("columns = 8", "columns = 0", "holes.columns: must be 1 to 26"),
    ("columns = 8", 'columns = [""]', "holes.columns: must be a count or a list"),
    ("columns = 8\nrows = 8", 'names = ["a1", "a1"]', "holes.names: a1 is listed twice"),
    ("columns = 8\nrows = 8", 'names = ["a1", 5]', "holes.names[1]: must be a hole name"),
    ("columns = 8", 'columns = 8\nnames = ["a1"]', "holes: give either names"),
    # The case: a profile wired for one row of the 8x8 frame loaded without a word.
    ("rows = 8", "rows = 1", "holes: 56 of the 64 holes of kulami have no sensor: a8, b8, "),
    ("columns = 8\nrows = 8", 'names = ["a1", "-", "b1"]',
     "holes: 62 of the 64 holes of kulami have no sensor: a8, "),
    ('order = "serpentine"', 'order = "spiral"', "chain.order: unknown order 'spiral'"),
    ('order = "serpentine"', 'order = ["a1", "z9"]', "chain.order[1]: 'z9' is neither"),
    ('order = "serpentine"', 'order = [[]]', "chain.order[0]: [] is neither"),
    ('order = "serpentine"', 'order = ["a1", "b1"]', "chain.order: c1 has no LED"),
    ('order = "serpentine"', 'order = ["a1"]\nareas = ["a1"]', "chain.areas[0]: must be an"),
    ('driver = "matrix"', 'driver = "usb"', "sensors.driver: must be one of"),
    (ROWS, "row_pins = [4, 4]", "sensors.row_pins: GPIO4 is listed twice"),
    (ROWS, "row_pins = [4, 1]", "sensors.row_pins[1]: must be a BCM GPIO"),
    (ROWS, "row_pins = [4, 15]", "sensors.column_pins: GPIO15 is also a row"),
    (ROWS, "row_pins = [4]", "sensors: 1 rows x 8 columns scan 8 channels; the profile "
                             "has 64 holes"),
    (ROWS, ROWS + "\ncolour = true", "sensors.colour: a diode"),
    (ROWS, ROWS + "\nsettle_us = -1", "sensors.settle_us: must be"),
    ('pin = "D18"', 'pin = "D4"', "leds.pin: must be one of D12, D18, D21"),
    (ROWS, ROWS.replace("14]", "18]"), "leds.pin: D18 is also a sensor pin"),
    ('pin = "D18"\n', 'pin = "D18"\nspeed = 3\n', "leds.speed: unknown key"),
    ('driver = "neopixel"\npin = "D18"', 'driver = "neopixel_spi"\npin = "D18"',
     "leds.pin: unknown key"),
    ('driver = "neopixel"\npin = "D18"', 'driver = "neopixel_spi"', None),
    ("brightness = 0.5", "brightness = 0", "leds.brightness: must be above 0"),
    ("brightness = 0.5", 'brightness = "half"', "leds.brightness: must be a whole number"),
    ("max_ma = 500", "max_ma = -5", "leds.max_ma: must be a positive number of milliamps"),
    # A budget of nothing would leave every LED dark, which looks like a wiring fault.
    ("max_ma = 500", "max_ma = 0", "leds.max_ma: must be a positive number of milliamps, "
                                   "not 0"),
    ("max_ma = 500", "max_ma = true", "leds.max_ma: must be a whole number, not True"),
    ("max_ma = 500", "", "leds.max_ma: missing"),
    ('pin = "D18"', 'pin = "D18"\npixel_order = "XYZ"', "leds.pixel_order: must be one of"),
    ('game = "kulami"', 'game = "kulami"\nbase = "nowhere"', "base: 'nowhere' no such"),
    ('game = "kulami"', 'game = [', "not valid TOML"),
    ('game = "kulami"', 'game = "kulami"\nboard = 30', "board: must be a table"),
    # a hole the game's board does not place is refused where it is read, in one line
    ("columns = 8", "columns = 11", "holes: 'k1' is not a field (a column a-j and a row "
                                    "1-10, e.g. d4)"),
]


@pytest.mark.parametrize("old, new, message", BROKEN)
def test_a_broken_profile_fails_with_one_line_naming_file_key_and_problem(
        tmp_path, old, new, message):
    assert old in GOOD
    text = GOOD.replace(old, new)
    if message is None:  # the SPI variant of the same wiring claims GPIO 7-11
        text = text.replace(COLUMNS, COLUMNS.replace("17", "10"))
        message = "leds.driver: SPI0 needs GPIO10, which is a sensor pin"
    with pytest.raises(ProfileError) as error:
        load_profile(write(tmp_path, text))
    text = str(error.value)
    assert "\n" not in text
    assert text.startswith(f"{tmp_path / 'board.toml'}: ")
    assert message in text


def test_serial_sensors_need_a_port(tmp_path):
    text = GOOD.replace('driver = "matrix"', 'driver = "serial"\nport = ""').replace(
        f"{ROWS}\n{COLUMNS}\n", "")
    with pytest.raises(ProfileError, match="sensors.port: must name a serial device"):
        load_profile(write(tmp_path, text))


def test_a_byte_that_is_not_utf8_is_one_line_naming_the_file_and_its_offset(tmp_path, capsys):
    # A description typed in a Latin-1 editor: "café" with a lone 0xe9.
    data = GOOD.replace('game = "kulami"', 'game = "kulami"\ndescription = "café"').encode(
        "latin-1")
    path = tmp_path / "board.toml"
    path.write_bytes(data)
    expected = f"{path}: not UTF-8 text: byte 0xe9 at offset {data.index(0xe9)}"
    with pytest.raises(ProfileError) as error:
        load_profile(path)
    assert str(error.value) == expected
    assert main(["selftest", "--profile", str(path)]) == 2
    assert capsys.readouterr().err == f"tabletop selftest: {expected}\n"


def test_a_maker_profile_on_a_shipped_base_still_covers_the_game(tmp_path):
    text = 'base = "kulami"\n[holes]\ncolumns = 8\nrows = 7\n'
    with pytest.raises(ProfileError, match=r"holes: 8 of the 64 holes of kulami have no "
                                           r"sensor: a8, b8, c8, d8, e8, f8, g8, h8$"):
        load_profile(write(tmp_path, text))


def test_unknown_names_and_missing_files_are_clear():
    with pytest.raises(ProfileError, match="no profile named 'chess' .shipped: akron"):
        load_profile("chess")
    with pytest.raises(ProfileError, match="nowhere.toml: no such profile file"):
        load_profile("nowhere.toml")


def test_a_base_that_refers_back_to_itself_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr("app.hardware.profile.PROFILE_DIR", tmp_path)
    (tmp_path / "loop.toml").write_text('base = "loop"\n', encoding="utf-8")
    with pytest.raises(ProfileError, match="base: 'loop' refers back to itself"):
        load_profile("loop")


def test_profiles_ship_inside_the_package():
    import app.hardware
    assert PROFILE_DIR.is_dir()
    assert str(PROFILE_DIR).startswith(str(Path(app.hardware.__file__).parent))


# --- the board's sizes ----------------------------------------------------------------

BOARD = """
[board]
pitch_mm = 20
hole_mm = 12
shape = "circle"
edge_mm = 15
"""


def test_the_board_table_gives_the_sizes_the_board_is_drawn_at(tmp_path):
    assert load_profile(write(tmp_path, GOOD + BOARD)).board == BoardSize(20, 12, "circle", 15)
    square = BOARD.replace('"circle"', '"square"').replace("= 20", "= 16.67")
    assert load_profile(write(tmp_path, GOOD + square)).board == \
        BoardSize(16.67, 12, "square", 15)
    round_by_default = BOARD.replace('shape = "circle"\n', "")
    assert load_profile(write(tmp_path, GOOD + round_by_default)).board.shape == "circle"
    # Optional: nothing that plays needs it; `tabletop wiring` asks for it.
    assert load_profile(write(tmp_path, GOOD)).board is None


@pytest.mark.parametrize("old, new, message", [
    ("pitch_mm = 20\n", "", "board.pitch_mm: missing"),
    ("edge_mm = 15\n", "", "board.edge_mm: missing"),
    ("pitch_mm = 20", "pitch_mm = -3",
     "board.pitch_mm: must be millimetres above 0 and below 1000, not -3"),
    ("hole_mm = 12", "hole_mm = 0", "board.hole_mm: must be millimetres above 0"),
    ("pitch_mm = 20", "pitch_mm = 1000", "board.pitch_mm: must be millimetres above 0"),
    ("pitch_mm = 20", 'pitch_mm = "20"', "board.pitch_mm: must be a whole number or a "
                                          "number, not '20'"),
    ("pitch_mm = 20", "pitch_mm = true", "board.pitch_mm: must be a whole number or a "
                                         "number, not True"),
    ("hole_mm = 12", "hole_mm = 25", "board.hole_mm: 25 is wider than the pitch (20): "
                                     "neighbouring holes would overlap"),
    ('shape = "circle"', 'shape = "hex"', "board.shape: must be one of circle, square, "
                                          "not 'hex'"),
    ('shape = "circle"', "shape = 3", "board.shape: must be text, not 3"),
    ("edge_mm = 15", "edge_mm = 5", "board.edge_mm: 5 is less than half a hole (12 "
                                    "across): the outer holes would run off the board"),
    ("edge_mm = 15", "edge_mm = 15\ncolour = 'red'",
     "board.colour: unknown key (known: pitch_mm, hole_mm, shape, edge_mm)"),
    ("pitch_mm = 20", "pitch_mm = [", "not valid TOML"),
])
def test_a_broken_board_table_fails_with_one_line_naming_file_key_and_problem(
        tmp_path, old, new, message):
    assert old in BOARD
    with pytest.raises(ProfileError) as error:
        load_profile(write(tmp_path, GOOD + BOARD.replace(old, new)))
    text = str(error.value)
    assert "\n" not in text and text.startswith(f"{tmp_path / 'board.toml'}: ")
    assert message in text


def test_every_board_has_its_sizes_and_its_twins_take_them_through_base():
    for game in GAMES_WITH_PROFILES:
        real = load_profile(game)
        assert real.board is not None and real.board.hole_mm <= real.board.pitch_mm
        for name in shipped_profiles():
            if name.startswith(f"{game}-sim"):
                assert load_profile(name).board == real.board, name


def test_a_maker_profile_on_a_shipped_base_may_give_its_own_sizes(tmp_path):
    profile = load_profile(write(tmp_path, 'base = "akron"\n' + BOARD))
    assert profile.board == BoardSize(20, 12, "circle", 15)
    assert profile.holes == load_profile("akron").holes


# --- hall-sensor thresholds ([sensors.thresholds], written by tabletop sensors calibrate)

HALL = ('base = "blokus-duo"\n[sensors]\ndriver = "serial"\nport = "auto"\ncolour = true\n'
        '[sensors.thresholds]\nlow = 25000\nhigh = 40000\nfirst_reads = "low"\n')
MEASURED = ("empty = 32000\nfirst_piece = 18000\nsecond_piece = 47000\n"
            "first_beside = 31000\nsecond_beside = 33000\n")


def test_a_hall_board_may_give_its_thresholds_and_what_they_were_measured_from(tmp_path):
    from app.hardware.profile import HallReadings, HallThresholds
    assert load_profile(write(tmp_path, HALL)).sensors.thresholds == \
        HallThresholds(25000, 40000, "low")
    measured = load_profile(write(tmp_path, HALL + MEASURED)).sensors.thresholds
    assert measured == HallThresholds(25000, 40000, "low",
                                      HallReadings(32000, 18000, 47000, 31000, 33000))
    assert load_profile("blokus-duo").sensors.thresholds is None


@pytest.mark.parametrize("old, new, message", [
    ("colour = true", "colour = false", "sensors.thresholds: hall-sensor thresholds need "
                                        "colour = true"),
    ("high = 40000", "high = 25000", "sensors.thresholds: low 25000 and high 25000: need "
                                     "1500 < low < high < 64035"),
    ("low = 25000", "low = 1500", "need 1500 < low"),
    ("high = 40000", "high = 64035", "need 1500 < low < high < 64035"),
    ("high = 40000", "high = 70000", "sensors.thresholds.high: must be a reading from 0 to "
                                     "65535, not 70000"),
    ("low = 25000", 'low = "low"', "sensors.thresholds.low: must be a whole number"),
    ('first_reads = "low"', 'first_reads = "north"', "sensors.thresholds.first_reads: "
                                                     "must be one of low, high"),
    ('first_reads = "low"', "", "sensors.thresholds.first_reads: missing"),
    ("low = 25000", "low = 25000\nmiddle = 3", "sensors.thresholds.middle: unknown key"),
    ("empty = 32000\n", "", "sensors.thresholds.empty: missing: give every measured"),
    ("first_piece = 18000", "first_piece = 26000", "sensors.thresholds.first_piece: 26000 "
                                                   "is not below low (25000 to 40000)"),
    ("second_piece = 47000", "second_piece = 20000", "sensors.thresholds.second_piece: "
                                                     "20000 is not above high"),
    ("first_beside = 31000", "first_beside = 24000", "sensors.thresholds.first_beside: "
                                                     "24000 is not from low to high"),
    (HALL[HALL.index("[sensors.thresholds]"):] + MEASURED, "thresholds = 3\n",
     "sensors.thresholds: must be a table"),
    ('driver = "serial"\nport = "auto"\n', 'driver = "simulated"\n',
     "sensors.thresholds: unknown key"),
])
def test_broken_thresholds_fail_with_one_line_naming_the_key(tmp_path, old, new, message):
    text = HALL + MEASURED
    assert old in text
    with pytest.raises(ProfileError) as error:
        load_profile(write(tmp_path, text.replace(old, new)))
    assert "\n" not in str(error.value) and message in str(error.value)


def test_a_hole_sits_where_its_game_s_board_places_it(tmp_path):
    akron = load_profile("akron")
    assert akron.places["1c3"] == new_game("akron").place("1c3") == Place(1, 1)
    assert set(akron.places) == set(akron.holes)
    # a game the table does not have yet: at the profile's own columns and rows
    planned = load_profile(write(tmp_path, GOOD.replace('"kulami"', '"planned"').replace(
        "columns = 8", 'columns = ["x", "y", "z", "xx", "yy", "zz", "q", "w"]')))
    assert planned.places["x1"] == Place(0, 0) and planned.places["xx8"] == Place(3, 7)
    assert planned.neighbours()["x1"] == ("y1", "x2")


def test_a_hole_s_neighbours_are_one_grid_step_away():
    blokus = load_profile("blokus-duo").neighbours()
    assert blokus["a1"] == ("b1", "a2") and blokus["b2"] == ("b1", "a2", "c2", "b3")
    assert max(map(len, blokus.values())) == 4 and len(blokus["n14"]) == 2
    akron = load_profile("akron").neighbours()  # its holes on every other grid point
    assert akron["1a1"] == ("1c1", "1a3")
    conhex = load_profile("conhex").neighbours()  # a corner hole far from any other
    assert conhex["a1"] == () and conhex["f6"] == ("f5", "e6", "g6", "f7")
