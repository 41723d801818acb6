"""The self-test: every LED in turn then all under the cap; every hole checked by a
simulated person who puts a piece wherever a hole lights up."""

import pytest

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
    assert said[-1] == "all 100 LEDs white at brightness 0.5: 2988 mA, capped to 1000 mA, " \
                       "for 3 s"
    assert strip.lit == [(0, 0, 0)] * PROFILE.led_count


def test_the_lamp_test_says_what_it_does_and_is_never_long_silent():
    """100 LEDs at 0.2 s were 20 s without a word, on a 27 s self-test."""
    strip = SimulatedStrip(PROFILE.led_count)
    now, said = [0.0], []

    def sleep(seconds):
        now[0] += seconds

    SelfTest(PROFILE, strip, say=lambda line: said.append((now[0], line)),
             sleep=sleep).lamps(step_s=0.2, hold_s=3.0)
    assert said[0] == (0.0, "lamp test: each of the 100 LEDs white in turn, 0.2 s each "
                            "(20 s); the first one dark, or where the light stops, is the "
                            "one to check")
    times = [t for t, _ in said] + [now[0]]
    assert max(b - a for a, b in zip(times, times[1:])) <= 5.0 + 1e-9
    assert said[1] == (pytest.approx(5.0), "    LED 25 of 100")


# --- a simulated board answers the self-test by itself ---------------------------------

def test_the_hand_reads_fill_and_empty_from_dimmed_and_capped_frames():
    from app.cli.selftest import role_lit_in
    from app.colours import ROLE_COLOURS
    for brightness, cap in ((1.0, None), (0.3, None), (0.05, 50)):
        strip = SimulatedStrip(PROFILE.led_count, brightness=brightness, max_ma=cap)
        for role in ("fill", "empty"):
            strip.show([ROLE_COLOURS[role]] * PROFILE.led_count)
            assert {role_lit_in(c) for c in strip.lit} == {role}, (brightness, cap)
    for other in [(0, 0, 0), (255, 255, 255), (8, 8, 8), (255, 200, 0), (0, 0, 255)]:
        assert role_lit_in(other) is None


def test_the_hand_places_where_green_asks_and_lifts_where_red_asks():
    from app.cli.selftest import FollowsTheLights
    from app.table.scene import single_scene
    strip = SimulatedStrip(PROFILE.led_count, brightness=0.2)
    sensors = SimulatedSensors(PROFILE.holes)
    slept = []
    hand = FollowsTheLights(PROFILE, strip, sensors, sleep=slept.append)
    strip.show(single_scene(["c3", "h9"], "fill").frame(PROFILE))
    hand.sleep(0.5)
    assert {h for h, on in sensors.read().items() if on} == {"c3", "h9"} and slept == [0.5]
    strip.show(single_scene(["c3"], "empty").frame(PROFILE))
    hand.sleep(0.5)
    assert {h for h, on in sensors.read().items() if on} == {"h9"}
    strip.show([(255, 255, 255)] * PROFILE.led_count)  # the lamp test asks nothing
    hand.sleep(0.5)
    assert {h for h, on in sensors.read().items() if on} == {"h9"}


def test_the_hand_ignores_lit_areas_that_are_no_holes():
    from app.cli.selftest import FollowsTheLights
    from app.colours import ROLE_COLOURS
    conhex = load_profile("conhex-sim")
    assert conhex.areas
    strip = SimulatedStrip(conhex.led_count)
    sensors = SimulatedSensors(conhex.holes)
    frame = [(0, 0, 0)] * conhex.led_count
    for leds in conhex.areas.values():
        for led in leds:
            frame[led] = ROLE_COLOURS["fill"]
    strip.show(frame)
    FollowsTheLights(conhex, strip, sensors, sleep=lambda s: None).answer()
    assert not any(sensors.read().values())


@pytest.mark.parametrize("name", ["kulami-sim", "conhex-sim"])
def test_the_self_test_passes_on_a_simulated_board_by_itself(name):
    from app.cli.selftest import FollowsTheLights
    profile = load_profile(name)
    strip = SimulatedStrip(profile.led_count, brightness=profile.brightness,
                           max_ma=profile.max_ma)
    sensors = SimulatedSensors(profile.holes)
    clock = [0.0]
    hand = FollowsTheLights(profile, strip, sensors,
                         sleep=lambda s: clock.__setitem__(0, clock[0] + s))
    said = []
    test = SelfTest(profile, strip, sensors, say=said.append, clock=lambda: clock[0],
                    sleep=hand.sleep)
    test.lamps(step_s=0.0, hold_s=0.0)
    report = test.sensors(timeout_s=1.0, poll_s=0.1)
    assert report.ok and said[-1] == "all sensors answered"
    # each hole answered at the first wait, both when lit green and when lit red
    assert clock[0] == pytest.approx(len(profile.holes) * 2 * 0.1)
    assert strip.lit == [(0, 0, 0)] * profile.led_count and not any(sensors.read().values())


def test_tabletop_selftest_passes_on_a_simulated_profile(capsys):
    from app.cli import main
    code = main(["selftest", "--profile", "kulami-sim", "--step", "0", "--hold", "0",
                 "--timeout", "2"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "simulated hand" in out and out.rstrip().endswith("all sensors answered")


def test_a_makers_own_profile_is_a_path(tmp_path, capsys):
    from app.cli import main
    mine = tmp_path / "my-board.toml"
    mine.write_text('base = "kulami-sim"\ndescription = "my board"\n')
    code = main(["selftest", "--profile", str(mine), "--only", "sensors", "--timeout", "2"])
    assert code == 0 and "all sensors answered" in capsys.readouterr().out


def test_hold_sets_how_long_all_leds_stay_white(monkeypatch):
    from app.cli import main, selftest
    asked = []
    monkeypatch.setattr(selftest.SelfTest, "lamps",
                        lambda self, step_s=0.2, hold_s=3.0: asked.append((step_s, hold_s)))
    assert main(["selftest", "--profile", "kulami-sim", "--only", "lamps"]) == 0
    assert main(["selftest", "--profile", "kulami-sim", "--only", "lamps",
                 "--step", "0", "--hold", "0.25"]) == 0
    assert asked == [(0.2, 3.0), (0.0, 0.25)]


@pytest.mark.parametrize("value", ["-1", "nan", "inf", "soon"])
def test_hold_step_and_timeout_are_seconds_zero_or_more(value, capsys):
    from app.cli import main
    with pytest.raises(SystemExit) as stop:
        main(["selftest", "--profile", "kulami-sim", "--hold", value])
    assert stop.value.code == 2
    error = capsys.readouterr().err
    assert error.startswith("tabletop selftest: argument --hold: ") and value in error
    assert ("must be 0 seconds or more" in error or "expected a number of seconds" in error)
    assert error.count("\n") == 1


# --- the display, opened once as the service opens it -------------------------------------

from pathlib import Path  # noqa: E402

from app.cli import selftest  # noqa: E402
from app.hardware.system_check import Finding  # noqa: E402
from app.screen import display  # noqa: E402
from tests.test_system_check import FakePi  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def screen_pi(tmp_path):
    """A Pi 4 with its KMS card and a screen on HDMI, as the kernel lists them."""
    pi = FakePi(tmp_path / "pi")
    pi.device("/dev/dri/card1", "video")
    pi.write("/sys/class/drm/card1-HDMI-A-1/status", b"connected\n")
    pi.write("/sys/class/drm/card1-HDMI-A-2/status", b"disconnected\n")
    return pi


def test_the_display_opens_with_sdls_driver_and_says_so(screen_pi, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "x11")
    assert selftest.check_display(screen_pi.machine("video"), "dummy") == [Finding(
        "display", True, "display: card1-HDMI-A-1: SDL's dummy driver opened it, 800x480")]
    assert display.os.environ["SDL_VIDEODRIVER"] == "x11"  # as it was


def test_a_display_sdl_cannot_open_is_sdls_own_error_with_the_fix(screen_pi):
    """SDL without the driver it is told to use fails in its own words (here: a driver no
    SDL has; on a Pi Lite without Mesa, kmsdrm's), and the fix follows them."""
    [finding] = selftest.check_display(screen_pi.machine("video"), "nosuchdriver")
    assert finding.failed and finding.line == (
        "display: SDL cannot open the nosuchdriver display: nosuchdriver not available: no "
        "GPU driver for SDL's KMS/DRM (it loads vc4 or v3d through Mesa's GBM and EGL): "
        "sudo apt install libgl1-mesa-dri, then restart the service")
    screen_pi.write("/usr/lib/aarch64-linux-gnu/dri/vc4_dri.so")
    [finding] = selftest.check_display(screen_pi.machine("video"), "nosuchdriver")
    assert finding.line.endswith(": check the screen's cable and power, then restart the "
                                 "service")


def test_no_screen_plugged_in_opens_nothing(screen_pi, tmp_path):
    def never(driver):
        raise AssertionError(driver)
    screen_pi.write("/sys/class/drm/card1-HDMI-A-1/status", b"disconnected\n")
    assert selftest.check_display(screen_pi.machine("video"), "dummy", never) == [Finding(
        "display", True, "display: no screen connected to /dev/dri/card1: the board plays "
                         "without one")]
    assert selftest.check_display(FakePi(tmp_path / "bare").machine(), "dummy", never) == []


def test_the_display_is_tried_with_the_driver_the_service_sets():
    unit = (ROOT / "systemd" / "tabletop.service").read_text()
    assert f"Environment=SDL_VIDEODRIVER={selftest.SERVICE_VIDEO_DRIVER}\n" in unit


def test_a_dark_screen_stops_the_self_test_before_the_lamps(screen_pi, monkeypatch, capsys):
    from app.cli import main
    from app.table import assembly
    tried = []

    def no_kmsdrm(driver):
        tried.append(driver)
        raise display.NoDisplayError("SDL cannot open the kmsdrm display: kmsdrm not "
                                     "available")

    def never(*args):
        raise AssertionError(args)
    monkeypatch.setattr(selftest, "Machine", lambda: screen_pi.machine("video"))
    monkeypatch.setattr(selftest, "check_system", lambda profile, **kw: [])
    monkeypatch.setattr(display, "try_display", no_kmsdrm)
    monkeypatch.setattr(display, "has_mesa_dri", lambda root: False)
    monkeypatch.setattr(assembly, "open_strip", never)
    assert main(["selftest", "--profile", "kulami"]) == 1
    assert tried == ["kmsdrm"]
    assert capsys.readouterr().out.startswith(
        "FAIL display: SDL cannot open the kmsdrm display: kmsdrm not available: no GPU "
        "driver for SDL's KMS/DRM")
    # beside the running service (--system-only) the display is its, and left alone
    assert main(["selftest", "--profile", "kulami", "--system-only"]) == 0
    assert tried == ["kmsdrm"]
