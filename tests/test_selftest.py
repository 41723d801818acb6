"""The self-test: every LED in turn then all under the cap; every hole checked by a
simulated person who puts a piece wherever a hole lights up."""

from app.cli.selftest import SelfTest
from app.hardware.leds import SimulatedStrip, frame_ma
from app.hardware.profile import load_profile
from app.hardware.sensors import SimulatedSensors

PROFILE = load_profile("kulami-sim")


class Person:
    """Watches the strip; puts a piece in the lit hole, lifts it when it turns red.
    ``dead`` holes never close, ``crossed`` holes close another hole's sensor."""

    def __init__(self, strip, sensors, dead=(), crossed=None, stuck=()):
        self.strip, self.sensors = strip, sensors
        self.dead, self.crossed, self.stuck = set(dead), dict(crossed or {}), set(stuck)
        self.now = 0.0
        self.hole_at = {led: hole for hole, h in PROFILE.holes.items() for led in h.leds}
        for hole in stuck:
            sensors.place(hole)

    def clock(self):
        return self.now

    def sleep(self, seconds):
        self.now += seconds
        lit = [i for i, c in enumerate(self.strip.lit) if c != (0, 0, 0)]
        if len(lit) != 1:
            return
        hole = self.crossed.get(self.hole_at[lit[0]], self.hole_at[lit[0]])
        if self.strip.lit[lit[0]][1] > 0 and hole not in self.dead:  # green: fill
            self.sensors.place(hole)
        elif hole not in self.stuck:
            self.sensors.lift(hole)


def run_sensors(**faults):
    strip = SimulatedStrip(PROFILE.led_count)
    sensors = SimulatedSensors(PROFILE.holes)
    person = Person(strip, sensors, **faults)
    said = []
    test = SelfTest(PROFILE, strip, sensors, say=said.append, clock=person.clock,
                    sleep=person.sleep)
    return test.sensors(timeout_s=1.0, poll_s=0.1), said, strip


def test_every_hole_answers_on_a_good_board():
    report, said, strip = run_sensors()
    assert report.ok and said == ["all sensors answered"]
    assert strip.lit == [(0, 0, 0)] * PROFILE.led_count


def test_a_hole_that_never_closes_is_named():
    report, said, _ = run_sensors(dead={"c3", "h9"})
    assert report.never_closed == ["c3", "h9"] and "never closed: c3 h9" in said


def test_a_hole_stuck_closed_is_named():
    report, said, _ = run_sensors(stuck={"e5"})
    assert report.stuck_closed == ["e5"] and not report.never_closed
    assert "stuck closed: e5" in said and "sensor test failed" in said


def test_swapped_wires_are_named():
    report, said, _ = run_sensors(crossed={"a1": "a2", "a2": "a1"})
    assert report.crossed == {"a1": "a2", "a2": "a1"}
    assert "crossed: a piece on a1 was seen on a2" in said


def test_the_lamp_test_lights_each_led_alone_then_all_under_the_cap():
    strip = SimulatedStrip(PROFILE.led_count, brightness=0.5, max_ma=1000)
    said = []
    SelfTest(PROFILE, strip, say=said.append, sleep=lambda s: None).lamps()
    singles = strip.frames[:PROFILE.led_count]
    for index, frame in enumerate(singles):
        assert [i for i, c in enumerate(frame) if c != (0, 0, 0)] == [index]
    everything = strip.frames[PROFILE.led_count]
    assert all(c != (0, 0, 0) for c in everything) and frame_ma(everything) <= 1000
    assert said == ["all 100 LEDs white at brightness 0.5: 2988 mA, capped to 1000 mA"]
    assert strip.lit == [(0, 0, 0)] * PROFILE.led_count
