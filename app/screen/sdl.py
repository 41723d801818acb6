"""The video drivers compiled into the SDL that pygame loaded, asked without a display.

A pygame whose SDL was built without KMS/DRM cannot light a Pi's screen when no desktop
runs, and nothing says so until the board starts dark: SDL only tells, at
``set_mode``, that the driver is not available. Asking SDL itself which drivers it was
built with answers the question anywhere, before any display is opened: the test suite
requires KMSDRM of the ``[screen]`` extra, ``tabletop run`` names the cause when the
screen cannot open, and ``make pi-check`` asks it inside an emulated Pi.

The list comes from ``SDL_GetNumVideoDrivers`` and ``SDL_GetVideoDriver`` of the very
``libSDL2`` pygame mapped into this process (the one bundled in its wheel, or the
system's), found in ``/proc/self/maps``, so it is never another SDL on the machine.
"""

from __future__ import annotations

import ctypes
import re
from pathlib import Path

#: The name SDL gives its KMS/DRM video driver in this list.
KMSDRM = "KMSDRM"
#: SDL's own library, as a system installs it (``libSDL2-2.0.so.0``) or as a wheel
#: bundles it under a hashed name (``libSDL2-2-50d19f93.0.so.0.3200.10``); not
#: ``libSDL2_ttf`` and the other helper libraries.
SDL_FILE = re.compile(r"libSDL2[-.]")


def loaded_sdl(maps: Path = Path("/proc/self/maps")) -> Path | None:
    """The ``libSDL2`` file this process has mapped, or ``None`` (pygame not imported)."""
    try:
        lines = maps.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    for line in lines:
        fields = line.split(maxsplit=5)
        if len(fields) == 6 and SDL_FILE.match(Path(fields[5]).name):
            return Path(fields[5])
    return None


def video_drivers() -> list[str]:
    """The video drivers of pygame's SDL, in SDL's order of preference (``KMSDRM``,
    ``x11``, ``wayland``, ``offscreen``, ``dummy``...). Imports pygame; an SDL that
    cannot be found is ``OSError``."""
    import pygame  # noqa: F401  (maps its SDL into this process)

    library = loaded_sdl()
    if library is None:
        raise OSError("pygame is imported but no libSDL2 is mapped into this process")
    sdl = ctypes.CDLL(str(library))
    sdl.SDL_GetNumVideoDrivers.restype = ctypes.c_int
    sdl.SDL_GetVideoDriver.restype = ctypes.c_char_p
    sdl.SDL_GetVideoDriver.argtypes = [ctypes.c_int]
    return [sdl.SDL_GetVideoDriver(i).decode("ascii")
            for i in range(sdl.SDL_GetNumVideoDrivers())]


def has_kmsdrm() -> bool:
    """Whether pygame's SDL can draw on a screen with no desktop (KMS/DRM)."""
    return KMSDRM.lower() in (name.lower() for name in video_drivers())
