"""The Pi's KMS/DRM screen asks SDL for its OpenGL ES 2 renderer.

SDL tries its desktop OpenGL renderer first for a window surface; without libGL.so.1 or
libOpenGL.so.0 (Raspberry Pi OS Lite, install.sh's packages) it creates it anyway and
every frame is black, as ``make pi-boot`` showed. These tests catch SDL at ``set_mode``
(no DRM device is needed) and look at what it was told.
"""

import pygame
import pytest

from app.screen import display
from app.screen.display import (FRAMEBUFFER_HINT, KMSDRM_RENDERER, DisplayChoice,
                                NoDisplayError, open_display, try_display)


@pytest.fixture
def sdl_at_set_mode(monkeypatch):
    """SDL's hint for the window surface's renderer as set_mode sees it; set_mode then
    fails as SDL does on a machine without the display (the opening is not the test)."""
    seen = []

    def set_mode(*args, **kwargs):
        seen.append(display.os.environ.get(FRAMEBUFFER_HINT))
        raise pygame.error("no display here")

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")  # restored after open_display sets it
    monkeypatch.delenv(FRAMEBUFFER_HINT, raising=False)
    monkeypatch.setattr(pygame.display, "init", lambda: None)
    monkeypatch.setattr(pygame.display, "get_desktop_sizes", lambda: [(1920, 1080)])
    monkeypatch.setattr(pygame.display, "set_mode", set_mode)
    return seen


def test_the_kms_drm_screen_asks_sdl_for_its_gles2_renderer(sdl_at_set_mode):
    with pytest.raises(NoDisplayError):
        open_display(DisplayChoice("kmsdrm", True), (800, 480))
    assert sdl_at_set_mode == [KMSDRM_RENDERER] == ["opengles2"]


def test_a_makers_own_renderer_is_kept(sdl_at_set_mode, monkeypatch):
    monkeypatch.setenv(FRAMEBUFFER_HINT, "software")
    with pytest.raises(NoDisplayError):
        open_display(DisplayChoice("kmsdrm", True), (800, 480))
    assert sdl_at_set_mode == ["software"]


@pytest.mark.parametrize("driver", [None, "x11", "wayland"])
def test_a_desktop_window_leaves_sdl_its_own_choice(sdl_at_set_mode, driver):
    with pytest.raises(NoDisplayError):
        open_display(DisplayChoice(driver, False), (800, 480))
    assert sdl_at_set_mode == [None]


def test_the_self_tests_try_leaves_the_environment_as_it_was(sdl_at_set_mode):
    with pytest.raises(NoDisplayError):
        try_display("kmsdrm")
    assert sdl_at_set_mode == [KMSDRM_RENDERER]
    assert FRAMEBUFFER_HINT not in display.os.environ
    assert display.os.environ["SDL_VIDEODRIVER"] == "dummy"
