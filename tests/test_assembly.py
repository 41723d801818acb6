"""One way to put a table together: the devices opened strip first and closed all
together, a session resumed or started with the profile's colour sense, and a terminal's
session with no board."""

import pytest

from app.errors import DeviceError
from app.hardware.profile import load_profile
from app.table import assembly
from app.table.assembly import Assembly, Devices, open_devices
from app.table.store import RecordStore


class Device:
    def __init__(self, closed, name, fails=False):
        self.closed, self.name, self.fails = closed, name, fails

    def close(self):
        self.closed.append(self.name)
        if self.fails:
            raise DeviceError(f"{self.name} would not close")


def test_a_sensor_board_that_does_not_open_turns_the_strip_off_again(monkeypatch):
    closed = []
    monkeypatch.setattr(assembly, "open_strip", lambda profile: Device(closed, "strip"))

    def busy(profile):
        raise DeviceError("sensors: /dev/ttyACM0 is busy")
    monkeypatch.setattr(assembly, "open_source", busy)
    with pytest.raises(DeviceError, match="busy"):
        open_devices(load_profile("kulami-sim"))
    assert closed == ["strip"]


def test_the_lamps_alone_open_no_sensors(monkeypatch):
    monkeypatch.setattr(assembly, "open_source", lambda profile: pytest.fail("opened"))
    devices = open_devices(load_profile("kulami-sim"), sensors=False)
    assert devices.source is None and devices.strip.count == 100
    devices.close()


def test_every_device_is_closed_even_when_one_fails_to_close():
    closed = []
    devices = Devices(Device(closed, "strip"), Device(closed, "sensors", fails=True),
                      Device(closed, "buttons", fails=True))
    with pytest.raises(DeviceError, match="would not close"):
        devices.close()
    assert closed == ["buttons", "sensors", "strip"]  # the LEDs go off last, and always


def test_a_board_s_session_senses_colour_as_its_profile_does(tmp_path):
    for name, colour in (("kulami-sim", True), ("kulami-sim-blind", False)):
        profile = load_profile(name)
        table = Assembly(RecordStore(tmp_path / name, profile=name), profile,
                         settings={"seats": {"b": "person", "w": "person"}})
        session = table.session("kulami", {})
        assert session.physical and session.pipeline.colour_sensing is colour


def test_a_saved_game_resumes_unless_a_new_one_is_asked_for(tmp_path):
    table = Assembly(RecordStore(tmp_path, profile="terminal"),
                     settings={"seats": {"b": "person", "w": "person"}, "seed": 3})
    first = table.session("conhex", {"pie": False})
    assert not first.physical and not first.resumed
    first.confirm("f6")
    again = table.session("conhex", {})
    assert again.resumed and [str(m) for m in again.board.move_stack] == ["f6"]
    fresh = table.session("conhex", {"pie": False}, new=True)
    assert not fresh.resumed and fresh.board.move_stack == []
    assert len(RecordStore(tmp_path).records()) == 2  # the unfinished one stays saved
