"""A board's screen that is not there at start opens when it appears: looked for from
the loop's turns every few seconds (files only, no SDL, until there is a device with a
screen on it), SDL's failures tried less and less often, and one line each for the wait
and the opening. The display opened is SDL's dummy driver; the clock is the test's."""

import logging

import pytest

from app.cli import run
from app.games import GAMES, new_game
from app.screen import awaited, display
from app.screen.awaited import MAX_RETRY_S, AwaitedScreen
from app.screen.console import Console
from app.screen.display import DisplayChoice, DisplayNotReady, NoDisplayError, open_display
from app.table.session import Session

KMSDRM = DisplayChoice("kmsdrm", True)


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def console():
    return Console(Session(new_game("kulami")), tuple(GAMES))


def dummy_window():
    return open_display(DisplayChoice("dummy", False), (800, 480))


@pytest.fixture
def kernel(tmp_path):
    """The kernel's DRI folder and connector list, both empty: booting, no GPU driver yet."""
    dri, drm = tmp_path / "dev-dri", tmp_path / "sys-class-drm"
    dri.mkdir(), drm.mkdir()
    return dri, drm


def test_a_screen_whose_device_appears_later_opens_then(kernel, caplog):
    dri, drm = kernel
    clock, looks = Clock(), []

    def open_surface():
        looks.append(clock.now)
        reason = display.wait_reason(KMSDRM, dri, drm)
        if reason is not None:
            raise DisplayNotReady(reason)
        return dummy_window()

    screen = AwaitedScreen(console(), open_surface, clock=clock)
    assert screen.window is None and screen.waiting_for == f"no KMS/DRM device in {dri}"
    assert not screen.dirty
    for clock.now in (1.0, 2.0, 4.9):  # turns of the loop between looks: nothing tried
        assert screen.pump() is True
    assert looks == [0.0]
    (dri / "card1").touch()  # the GPU's driver has loaded; the screen is not found yet
    (drm / "card1-HDMI-A-1").mkdir()
    (drm / "card1-HDMI-A-1" / "status").write_text("disconnected\n")
    clock.now = 5.0
    screen.pump()
    assert screen.window is None and screen.waiting_for == "no screen connected"
    (drm / "card1-HDMI-A-1" / "status").write_text("connected\n")
    with caplog.at_level(logging.INFO, logger=awaited.__name__):
        for clock.now in (7.0, 10.0, 11.0):
            screen.pump()
    assert looks == [0.0, 5.0, 10.0]
    assert screen.window is not None and screen.waiting_for is None and screen.dirty
    screen.redraw()  # the loop draws it at once: it is dirty
    surface = screen.window.surface
    assert not screen.dirty
    assert len({tuple(surface.get_at((x, y))) for x in range(0, 800, 20)
                for y in range(0, 480, 20)}) > 2  # the status screen, not a blank window
    assert caplog.messages == ["the display appeared 10 s after start: the status screen "
                               "is on"]


def test_sdl_failing_waits_longer_each_time_then_opens(caplog):
    clock, tries = Clock(), []

    def open_surface():
        tries.append(clock.now)
        if len(tries) <= 6:
            raise NoDisplayError("SDL cannot open the kmsdrm display: kmsdrm not available")
        return dummy_window()

    screen = AwaitedScreen(console(), open_surface, retry_s=5, clock=clock)
    with caplog.at_level(logging.INFO, logger=awaited.__name__):
        while screen.window is None:
            clock.now += 1  # a turn of the loop each second
            assert screen.pump() is True
    assert tries == [0, 5, 15, 35, 75, 135, 195]  # 5, 10, 20, 40, then at most 60 s
    assert MAX_RETRY_S == 60
    assert caplog.messages == ["the display appeared 195 s after start: the status "
                               "screen is on"]


def test_a_board_without_its_screen_at_start_says_so_once_and_opens_it_later(
        kernel, monkeypatch, caplog):
    dri, drm = kernel
    monkeypatch.setattr(display, "choose_display", lambda: KMSDRM)
    monkeypatch.setattr(display, "DRI_DIR", dri)
    monkeypatch.setattr(display, "SYS_DRM", drm)
    monkeypatch.setattr(display, "screen_fix", lambda: "connect the screen")
    monkeypatch.setattr(awaited, "RETRY_S", 0)  # look again at every turn
    opened = []
    monkeypatch.setattr(display, "open_display",
                        lambda choice, size, caption: opened.append(choice) or dummy_window())
    with caplog.at_level(logging.INFO):
        screen = run.status_screen(Session(new_game("kulami")), board=True)
        assert screen.window is None
        screen.pump()
        (dri / "card0").touch()  # no connector list: SDL may try
        screen.pump()
        screen.pump()
    assert opened == [KMSDRM] and screen.window is not None
    waits = [r for r in caplog.records if r.name == run.log.name]
    assert [(r.levelno, r.getMessage()) for r in waits] == [(logging.WARNING, (
        f"no display (no KMS/DRM device in {dri}): playing without a screen until it "
        f"opens (looking every 0 s); connect the screen"))]
    assert any(r.getMessage().startswith("the display appeared") for r in caplog.records)


def test_a_board_told_to_draw_nowhere_waits_for_nothing(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    assert run.status_screen(Session(new_game("kulami")), board=True) is None
