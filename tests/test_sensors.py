"""Sensor sources: the simulated board, and the diode-matrix scanner driven through
gpiozero's mock pins wired up as a real matrix would be, diodes or not."""

import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from app.errors import DeviceError
from app.hardware.profile import load_profile
from app.hardware.devices import open_source
from app.hardware.sensors import MatrixScanner, SimulatedSensors

ROWS, COLUMNS = [4, 5, 6], [12, 13, 16]
#: Channel = row * 3 + column, named like a 3x3 board.
CHANNELS = {r * 3 + c: f"{'abc'[c]}{r + 1}" for r in range(3) for c in range(3)}


class Matrix:
    """Switches at (row, column) crossings. With diodes, current flows only from the
    driven row into the columns of its closed switches. Without them it flows both ways
    through any closed switch, so a column also reads high when a path row -> column ->
    other row -> column links it to the driven row."""

    def __init__(self, factory, diodes=True):
        self.factory, self.diodes, self.closed = factory, diodes, set()
        for pin in ROWS:
            factory.pin(pin, pin_class=RowPin, matrix=self)

    def update(self):
        driven = {r for r, pin in enumerate(ROWS) if self.factory.pin(pin).state}
        reached_rows, reached_columns = set(driven), set()
        while True:
            columns = {c for r, c in self.closed if r in reached_rows}
            rows = {r for r, c in self.closed if c in columns} if not self.diodes else set()
            if columns <= reached_columns and rows <= reached_rows:
                break
            reached_columns |= columns
            reached_rows |= rows
        for c, pin in enumerate(COLUMNS):
            column = self.factory.pin(pin)
            if column.function != "input":
                continue
            if c in reached_columns:
                column.drive_high()
            else:
                column.drive_low()


class RowPin(MockPin):
    def __init__(self, factory, info, matrix=None):
        super().__init__(factory, info)
        self.matrix = matrix

    def _change_state(self, value):
        changed = super()._change_state(value)
        self.matrix.update()
        return changed


@pytest.fixture
def factory():
    factory = MockFactory()
    yield factory
    factory.reset()


def scanner(factory, diodes=True):
    matrix = Matrix(factory, diodes)
    return matrix, MatrixScanner(ROWS, COLUMNS, CHANNELS, settle_us=0, pin_factory=factory)


def occupied(scan):
    return {hole for hole, on in scan.items() if on}


def test_the_scanner_reads_each_closed_switch_as_its_hole(factory):
    matrix, source = scanner(factory)
    assert source.holes == ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")
    assert occupied(source.read()) == set()
    matrix.closed |= {(0, 0), (1, 2), (2, 1)}
    scan = source.read()
    assert occupied(scan) == {"a1", "c2", "b3"} and scan.colours == {}
    assert all(not factory.pin(pin).state for pin in ROWS)  # rows left low after a scan
    source.close()


def test_with_diodes_three_pieces_at_rectangle_corners_read_as_three(factory):
    matrix, source = scanner(factory)
    matrix.closed |= {(0, 0), (0, 1), (1, 0)}  # a1, b1, a2
    assert occupied(source.read()) == {"a1", "b1", "a2"}


def test_without_diodes_the_fourth_corner_of_a_rectangle_is_a_ghost(factory):
    """Scanning row 2, current runs a2's switch -> column a -> a1's switch -> row 1 ->
    b1's switch -> column b: b2 reads occupied though it is empty. Hence a diode per
    switch (hardware/README.md)."""
    matrix, source = scanner(factory, diodes=False)
    matrix.closed |= {(0, 0), (0, 1), (1, 0)}  # a1, b1, a2
    assert occupied(source.read()) == {"a1", "b1", "a2", "b2"}


def test_unwired_channels_are_not_reported(factory):
    Matrix(factory)
    source = MatrixScanner(ROWS, COLUMNS, {0: "a1", 8: "c3"}, pin_factory=factory)
    assert source.holes == ("a1", "c3") and set(source.read()) == {"a1", "c3"}


def test_a_channel_outside_the_matrix_is_refused_and_pins_are_released(factory):
    with pytest.raises(ValueError, match=r"channel 9 \(z9\) is outside the 3x3 matrix"):
        MatrixScanner(ROWS, COLUMNS, {9: "z9"}, pin_factory=factory)
    MatrixScanner(ROWS, COLUMNS, {0: "a1"}, pin_factory=factory).close()  # pins free again


def test_a_profile_opens_its_matrix_on_its_pins(factory):
    profile = load_profile("kulami")
    with open_source(profile, pin_factory=factory) as source:
        assert len(source.holes) == 100
        factory.pin(17).drive_high()  # column a held high: a piece in every a-hole
        scan = source.read()
    assert occupied(scan) == {f"a{n}" for n in range(1, 11)}


def test_a_simulated_board_reports_what_is_placed_and_lifted():
    sensors = SimulatedSensors(["a1", "b1"])
    sensors.place("a1", "b")
    assert sensors.read() == {"a1": True, "b1": False}
    assert sensors.read().colours == {}  # colour-blind: the colour is not seen
    sensors.lift("a1")
    sensors.lift("b1")
    assert occupied(sensors.read()) == set()


def test_a_colour_sensing_simulated_board_reports_colours():
    sensors = SimulatedSensors(["a1", "b1"], colour_sensing=True)
    sensors.place("a1", "w")
    sensors.place("b1")
    assert sensors.read().colours == {"a1": "w"}


def test_a_simulated_board_refuses_unknown_holes_and_colours():
    sensors = SimulatedSensors(["a1"])
    with pytest.raises(ValueError, match="no hole 'z9' on this board"):
        sensors.place("z9")
    with pytest.raises(ValueError, match="colour must be b or w, not 'red'"):
        sensors.place("a1", "red")
    assert occupied(sensors.read()) == set()


def test_simulated_profiles_open_simulated_sensors_with_their_colour_sensing():
    source = open_source(load_profile("blokus-duo-sim"))
    assert isinstance(source, SimulatedSensors) and source.colour_sensing
    assert len(source.holes) == 196


def test_a_sensor_board_that_is_not_plugged_in_is_a_clear_error_never_a_simulation():
    with pytest.raises(DeviceError, match=r"^profile blokus-duo: sensor board: no sensor "
                                          r"board found \(/dev/tabletop-sensors or a USB "
                                          r"device 2e8a:0005\): is it plugged in\?$"):
        open_source(load_profile("blokus-duo"))


def test_an_idle_simulated_board_gives_the_same_scan_until_a_piece_moves():
    sensors = SimulatedSensors(["a1", "b1"])
    first = sensors.read()
    assert sensors.read() is first
    sensors.place("a1")
    moved = sensors.read()
    assert moved is not first and moved == {"a1": True, "b1": False} and first["a1"] is False
    sensors.lift("a1")
    assert sensors.read() == first
