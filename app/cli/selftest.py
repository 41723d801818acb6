"""``tabletop selftest``: check a freshly built board, LED by LED and hole by hole.

First the system: whether this machine and this user can drive what the profile uses
(SPI and its buffers, the groups, the GPIO library, the pins the serial console or the
Pi's pull-ups would spoil, the sensor board's port, the screen;
:mod:`app.hardware.system_check`), one ``ok``, ``warn`` or ``FAIL`` line each, and, on a
Pi with a screen plugged in, the display opened once as the service opens it
(:func:`check_display`), which only SDL can tell works. A failure stops the
self-test there, before the LEDs, with a one-line error: a lamp test on a machine that
cannot open the LEDs would only fail later with one driver's error, far from the cause.
On a machine that is not a Raspberry Pi the checks cannot run (``skip``, saying which),
and the drivers, opened next, say in their own one line what they cannot open.
``--system-only`` stops after the checks (the LEDs and the display may be the running
service's, so the display is not opened), and fails when they could not run.

The lamp test lights every LED in turn (a dead LED or a break in the chain shows where
the light stops), then all of them at once at the capped brightness, the worst case for
the power supply. The sensor test lights one hole at a time and waits for a piece there:
a hole that never closes, one that stays closed, and a piece seen in another hole (two
wires swapped) are reported by name.

On a simulated profile (simulated LEDs and sensors) nobody stands at the board, so a
simulated hand does what the LEDs ask: it looks at the frames the strip was shown and puts
a piece in every hole lit to be filled, lifts it from every hole lit to be emptied. The
self-test runs unchanged against it, so ``tabletop selftest --profile kulami-sim`` passes
and exercises the whole test end to end without a board.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from app.cli import seconds
from app.colours import ROLE_COLOURS
from app.errors import DeviceError, install_extra
from app.hardware.leds import Colour, LedStrip, SimulatedStrip, frame_ma
from app.hardware.pi import Machine
from app.hardware.profile import Profile, load_profile
from app.hardware.sensors import SensorSource, SimulatedSensors
from app.hardware.system_check import Finding, check_system, is_simulated
from app.screen import display
from app.table.assembly import open_devices
from app.table.config import load_config
from app.table.hand import Hand
from app.table.scene import single_scene

WHITE = (255, 255, 255)
BLACK = (0, 0, 0)
#: The SDL video driver the service draws with: systemd/tabletop.service sets
#: ``SDL_VIDEODRIVER`` to it (the self-test's tests hold the two together).
SERVICE_VIDEO_DRIVER = "kmsdrm"
#: The longest the lamp test walks the LEDs without saying how far it has got.
PROGRESS_S = 5.0


@dataclass
class SensorReport:
    """Holes that never closed, holes closed with no piece, and crossed wires
    (the lit hole -> the hole whose sensor answered)."""

    never_closed: list[str] = field(default_factory=list)
    stuck_closed: list[str] = field(default_factory=list)
    crossed: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not (self.never_closed or self.stuck_closed or self.crossed)


class FollowsTheLights:
    """A person at a simulated board who puts a piece in each hole lit as ``fill`` and
    lifts the piece from each hole lit as ``empty``, as the strip shows them now, with
    the simulated hand (:class:`~app.table.hand.Hand`) on the simulated ``sensors``.

    It sees only what the LEDs show (after the strip's brightness and current cap) and
    acts only through the sensors, so the self-test's own lighting, waiting and
    reporting are what get tested. Given to :class:`SelfTest` as its ``sleep``, it
    answers whenever the test waits, as a person would while the test polls.
    """

    def __init__(self, profile: Profile, strip: SimulatedStrip, sensors: SimulatedSensors,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.strip, self._sleep = strip, sleep
        self.hand = Hand(sensors, profile.holes)
        self._hole_at = {led: hole for hole, h in profile.holes.items() for led in h.leds}

    def asked(self) -> dict[str, str]:
        """Each lit hole -> ``fill`` or ``empty``; other light (white, areas) asks nothing."""
        asked = {}
        for led, colour in enumerate(self.strip.lit):
            hole, role = self._hole_at.get(led), role_lit_in(colour)
            if hole is not None and role is not None:
                asked[hole] = role
        return asked

    def answer(self) -> None:
        for hole, role in self.asked().items():
            if role == "fill":
                self.hand.place(hole, "b")
            else:
                self.hand.lift(hole)

    def sleep(self, seconds: float) -> None:
        """Do what the LEDs ask, then let ``seconds`` pass."""
        self.answer()
        self._sleep(seconds)


def role_lit_in(colour: Colour, roles: tuple[str, ...] = ("fill", "empty")) -> str | None:
    """The role whose colour ``colour`` is, however dimmed; ``None`` for off or any other.

    Dimming scales every channel alike, so the hue is compared: the angle between the
    two colours as vectors, which rounding of dim channels barely moves.
    """
    size = math.hypot(*colour)
    if size == 0:
        return None
    for role in roles:
        reference = ROLE_COLOURS[role]
        cosine = sum(a * b for a, b in zip(colour, reference)) / (size * math.hypot(*reference))
        if cosine > 0.99:
            return role
    return None


class SelfTest:
    def __init__(self, profile: Profile, strip: LedStrip, source: SensorSource | None = None,
                 *, say: Callable[[str], None] = print,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.profile, self.strip, self.source = profile, strip, source
        self.say, self.clock, self.sleep = say, clock, sleep

    def lamps(self, step_s: float = 0.2, hold_s: float = 3.0) -> None:
        """Each LED white in turn, then all white, dimmed by the strip to its cap. What
        is being done is said first, and how far it has got every :data:`PROGRESS_S`: a
        walk of a hundred LEDs takes 20 s, and a silent one looks like a hang."""
        count = self.strip.count
        self.say(f"lamp test: each of the {count} LEDs white in turn, {step_s:g} s each "
                 f"({count * step_s:.0f} s); the first one dark, or where the light "
                 f"stops, is the one to check")
        every = max(1, math.ceil(PROGRESS_S / step_s)) if step_s > 0 else count
        for index in range(count):
            if index and index % every == 0:
                self.say(f"    LED {index} of {count}")
            self.strip.show([WHITE if i == index else BLACK for i in range(count)])
            self.sleep(step_s)
        everything = [WHITE] * count
        asked = frame_ma([(int(c * self.strip.brightness),) * 3 for c, _, _ in everything])
        self.strip.show(everything)
        self.say(f"all {count} LEDs white at brightness {self.strip.brightness:g}: "
                 f"{asked:.0f} mA, capped to {min(asked, self.strip.max_ma):.0f} mA, for "
                 f"{hold_s:g} s")
        self.sleep(hold_s)
        self.strip.off()

    def sensors(self, timeout_s: float = 20.0, poll_s: float = 0.01) -> SensorReport:
        """Light one hole at a time; wait for a piece there and for it to be lifted."""
        report = SensorReport()
        closed = {hole for hole, on in self.source.read().items() if on}
        report.stuck_closed.extend(sorted(closed))
        for hole in self.profile.holes:
            if hole in closed:
                continue
            self.strip.show(single_scene([hole], "fill").frame(self.profile))
            answered = self._wait(lambda scan: {h for h, on in scan.items() if on} - closed,
                                  timeout_s, poll_s)
            if not answered:
                report.never_closed.append(hole)
                continue
            if hole not in answered:
                report.crossed[hole] = sorted(answered)[0]
            self.strip.show(single_scene([hole], "empty").frame(self.profile))
            if self._wait(lambda scan: answered - {h for h, on in scan.items() if on},
                          timeout_s, poll_s) is None:
                report.stuck_closed.extend(sorted(answered))
                closed |= answered
        self.strip.off()
        for label, holes in (("never closed", report.never_closed),
                             ("stuck closed", report.stuck_closed)):
            if holes:
                self.say(f"{label}: {' '.join(holes)}")
        for lit, seen in report.crossed.items():
            self.say(f"crossed: a piece on {lit} was seen on {seen}")
        self.say("all sensors answered" if report.ok else "sensor test failed")
        return report

    def _wait(self, found: Callable, timeout_s: float, poll_s: float):
        """Poll until ``found(scan)`` is non-empty; that set, or ``None`` after the timeout."""
        deadline = self.clock() + timeout_s
        while self.clock() < deadline:
            answer = found(self.source.read())
            if answer:
                return answer
            self.sleep(poll_s)
        return None



def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "selftest", help="test every LED and every sensor",
        description="Check a freshly built board: first whether this machine can drive "
                    "what the profile uses (SPI, groups, GPIO, ports, the screen), one "
                    "ok, warn or FAIL line each; then every LED in turn and all at once; "
                    "then every hole, lit one at a time, waiting for a piece there. On a "
                    "simulated profile a simulated hand places the pieces.")
    parser.add_argument("--profile", required=True,
                        help="board profile name (shipped) or .toml path")
    parser.add_argument("--config", help="configuration file, for its buttons (default: "
                                         "/etc/tabletop/tabletop.toml if it exists)")
    parser.add_argument("--only", choices=("lamps", "sensors"), help="run one test")
    parser.add_argument("--system-only", action="store_true",
                        help="check the system (SPI, groups, GPIO, ports) and stop there")
    parser.add_argument("--step", type=seconds, default=0.2,
                        help="seconds each LED stays lit (default: %(default)g)")
    parser.add_argument("--hold", type=seconds, default=3.0,
                        help="seconds all LEDs stay white (default: %(default)g)")
    parser.add_argument("--timeout", type=seconds, default=20.0,
                        help="seconds to wait for a piece in each hole (default: "
                             "%(default)g)")
    parser.set_defaults(run=run)


def system(findings: list[Finding], say: Callable[[str], None] = print) -> None:
    """Say every finding; raise one :class:`DeviceError` counting the failures. Checks
    that could not run (not a Pi) stop nothing: the drivers then say what they cannot
    open, each in its own one line."""
    for finding in findings:
        say(str(finding))
    failed = [finding for finding in findings if finding.failed]
    if failed:
        checks = ", ".join(dict.fromkeys(finding.check for finding in failed))
        lines = "line above says" if len(failed) == 1 else "lines above say"
        raise DeviceError(f"the system check found {len(failed)} problem"
                          f"{'s' if len(failed) > 1 else ''} ({checks}): the FAIL {lines} "
                          f"what to do; the LEDs and sensors were not tested")


def check_display(machine: Machine, driver: str = SERVICE_VIDEO_DRIVER,
                  try_display: Callable[[str], str] | None = None) -> list[Finding]:
    """The status screen, opened once as the service opens it (SDL's ``driver``, full
    screen) and closed again, where a screen is connected: the device checks see only
    files, and a Pi whose SDL cannot draw (no GPU driver on Raspberry Pi OS Lite) stays
    dark with every file in place. A failure is SDL's own error with the fix. Nothing
    where there is no card (the screen line says so) or no screen plugged in."""
    dri_dir = machine.path(str(display.DRI_DIR))
    cards = sorted(f"{display.DRI_DIR}/{card.name}" for card in dri_dir.glob("card*"))
    if not cards:
        return []
    screens = display.connected_screens(machine.path(str(display.SYS_DRM)))
    if screens == []:
        return [Finding("display", True, f"display: no screen connected to "
                                          f"{', '.join(cards)}: the board plays without one")]
    try:
        opened = (try_display or display.try_display)(driver)
    except ImportError as error:
        return [Finding("display", False, f"display: the {error.name or 'pygame'} library "
                                           f"is not installed: {install_extra('screen')}")]
    except display.NoDisplayError as error:
        fix = display.screen_fix({}, dri_dir, mesa_dri=display.has_mesa_dri(machine.root))
        return [Finding("display", False, f"display: {error}: {fix}")]
    return [Finding("display", True, f"display: {', '.join(screens or cards)}: {opened}")]


def run(args) -> int:
    profile = load_profile(args.profile)
    config = load_config(args.config)
    findings = check_system(profile, buttons=tuple(config.buttons.values()))
    machine = Machine()
    # The running service may hold the display as it may the LEDs: --system-only, which
    # runs beside it, leaves the display alone too.
    if not (args.system_only or is_simulated(profile)) and machine.model() is not None:
        findings += check_display(machine)
    system(findings)
    if args.system_only:
        skipped = [finding for finding in findings if not finding.ran]
        if skipped:
            raise DeviceError(skipped[0].line)
        return 0
    devices = open_devices(profile, sensors=args.only != "lamps")
    strip, source = devices.strip, devices.source
    try:
        hand = None
        if isinstance(strip, SimulatedStrip) and isinstance(source, SimulatedSensors):
            hand = FollowsTheLights(profile, strip, source)
        test = SelfTest(profile, strip, source, sleep=hand.sleep if hand else time.sleep)
        if args.only != "sensors":
            test.lamps(args.step, args.hold)
        if source is not None:
            print("sensor test, simulated board: a simulated hand puts a piece in each "
                  "lit hole and lifts it again" if hand else
                  "clear the board, then put a piece in each lit hole and lift it again")
            return 0 if test.sensors(args.timeout).ok else 1
        return 0
    except KeyboardInterrupt:
        return 130
    finally:
        devices.close()
