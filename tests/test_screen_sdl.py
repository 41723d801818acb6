"""The ``[screen]`` extra's SDL can light a Pi's screen with no desktop (KMS/DRM).

pygame 2.6.1's wheel lists ``x11, wayland, offscreen, dummy, evdev`` and no KMSDRM, on
x86-64 and aarch64 alike, which left every board's status screen dark; these tests fail
on such an SDL. They ask the SDL pygame loaded, through ctypes, with no display.
"""

import pytest

from app.screen import sdl


def test_the_installed_sdl_has_the_kms_drm_video_driver():
    drivers = sdl.video_drivers()
    assert sdl.KMSDRM in drivers, f"pygame's SDL has only {drivers}"
    assert sdl.has_kmsdrm()


def test_the_driver_list_is_sdls_own_and_holds_the_drivers_the_tests_use():
    drivers = sdl.video_drivers()
    assert {"dummy", "offscreen"} <= set(drivers)
    assert len(drivers) == len(set(drivers))


def test_the_loaded_sdl_is_the_library_mapped_into_this_process():
    sdl.video_drivers()
    library = sdl.loaded_sdl()
    assert library is not None and library.is_file()
    assert library.name.startswith("libSDL2") and "_" not in library.name.split(".")[0]


@pytest.mark.parametrize("name, found", [
    ("libSDL2-2.0.so.0.2600.5", True),                    # Debian's SDL
    ("libSDL2-2-50d19f93.0.so.0.3200.10", True),          # bundled in a wheel
    ("libSDL2_ttf-2-e69aa315.0.so.0.2400.0", False),      # a helper library
    ("libSDL2_mixer-2.0.so.0", False),
])
def test_sdl_is_told_from_its_helper_libraries(tmp_path, name, found):
    maps = tmp_path / "maps"
    maps.write_text(f"7f35-7f36 r--p 00000000 fe:00 5317717   /usr/lib/{name}\n"
                    "7f37-7f38 r-xp 00000000 00:00 0\n")
    assert (sdl.loaded_sdl(maps) is not None) is found


def test_no_maps_file_finds_no_sdl(tmp_path):
    assert sdl.loaded_sdl(tmp_path / "absent") is None
