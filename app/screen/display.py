"""Which display to open: a desktop window, the Pi's screen with no desktop, or none.

On a desktop (X11 or Wayland) SDL picks its own driver and the screen is a window. On a
Pi running without a desktop there is no ``DISPLAY``: SDL's KMS/DRM driver draws straight
to the screen, full screen. With neither, there is no display, and callers say so
instead of failing inside SDL. The driver in use is logged at start-up, because "why is
my screen black" is the first question a maker asks.

On KMS/DRM, SDL shows pygame's window surface through one of its GPU renderers, and
tries its desktop OpenGL renderer first. That one loads ``libGL.so.1`` or
``libOpenGL.so.0``, which Raspberry Pi OS Lite and install.sh's packages do not have:
SDL 2.32 logs "Could not initialize OpenGL / GLES library", creates the renderer all the
same, and every frame comes out black (seen booted under ``make pi-boot``: SDL's own
log says "Created renderer: opengl", the plane shows SDL's buffers, the picture is
black; with ``libopengl0`` added, or the GLES 2 renderer asked for, the same frames
show). So the KMS/DRM screen asks SDL for its OpenGL ES 2 renderer, the API the Pi's
GPU (vc4, v3d) is built for and whose library (``libgles2``) install.sh does install.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from app.errors import DisplayNotReady, NoDisplayError, install_extra

log = logging.getLogger(__name__)

#: Where the kernel lists graphics cards; any ``card*`` there can be driven by KMS/DRM.
DRI_DIR = Path("/dev/dri")
#: SDL drivers that draw nowhere a person can see.
INVISIBLE = frozenset({"dummy", "offscreen"})
#: Where the kernel lists each card's connectors (``card1-HDMI-A-1``), with a ``status``.
SYS_DRM = Path("/sys/class/drm")
#: SDL's hint that names the renderer behind a window surface, and the renderer the
#: KMS/DRM screen asks for (see the module's docstring): a maker's own value is kept.
FRAMEBUFFER_HINT = "SDL_FRAMEBUFFER_ACCELERATION"
KMSDRM_RENDERER = "opengles2"
#: The GPU drivers (vc4, v3d) that Mesa's GBM and EGL load, without which SDL's KMS/DRM
#: driver draws nothing: Debian's libgl1-mesa-dri puts them here, and Raspberry Pi OS
#: Lite has no Mesa at all.
MESA_DRI = ("usr/lib/*/dri/*_dri.so", "usr/lib/dri/*_dri.so")


@dataclass(frozen=True)
class DisplayChoice:
    """``driver`` for ``SDL_VIDEODRIVER`` (``None`` lets SDL pick), and full screen or not."""

    driver: str | None
    fullscreen: bool


def choose_display(environ: Mapping[str, str] = os.environ,
                   dri_dir: Path = DRI_DIR) -> DisplayChoice | None:
    """The display to open, or ``None`` when there is none a person could see."""
    forced = environ.get("SDL_VIDEODRIVER", "").strip()
    if forced:
        return None if forced in INVISIBLE else DisplayChoice(forced, forced == "kmsdrm")
    if environ.get("WAYLAND_DISPLAY") or environ.get("DISPLAY"):
        return DisplayChoice(None, False)
    if any(dri_dir.glob("card*")):
        return DisplayChoice("kmsdrm", True)
    return None


def draws_nowhere(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether SDL is told to draw nowhere a person can see (``SDL_VIDEODRIVER=dummy``)."""
    return environ.get("SDL_VIDEODRIVER", "").strip() in INVISIBLE


def wait_reason(choice: DisplayChoice, dri_dir: Path = DRI_DIR,
                sys_drm: Path = SYS_DRM) -> str | None:
    """Why the KMS/DRM screen ``choice`` names cannot open yet, seen in a few files and
    without SDL: no card in ``dri_dir`` (the kernel has not made it yet), or none of its
    connectors has a screen. ``None`` when SDL may try (and for any other driver)."""
    if choice.driver != "kmsdrm":
        return None
    if not any(dri_dir.glob("card*")):
        return f"no KMS/DRM device in {dri_dir}"
    if connected_screens(sys_drm) == []:
        return "no screen connected"
    return None


def open_when_ready(size: tuple[int, int], caption: str = "Tabletop"):
    """The display surface :func:`choose_display` picks, opened; :class:`DisplayNotReady`
    while there is nothing to open yet, :class:`NoDisplayError` when SDL fails."""
    choice = choose_display()
    if choice is None:
        raise DisplayNotReady(no_display_reason())
    reason = wait_reason(choice, DRI_DIR, SYS_DRM)
    if reason is not None:
        raise DisplayNotReady(reason)
    return open_display(choice, size, caption)


def no_display_reason(environ: Mapping[str, str] = os.environ) -> str:
    """Why :func:`choose_display` found no display, for the line that says so: SDL told
    to draw nowhere (``SDL_VIDEODRIVER=dummy``, as the tests and a screenshot do), or
    nothing to draw on."""
    forced = environ.get("SDL_VIDEODRIVER", "").strip()
    if forced in INVISIBLE:
        return f"SDL_VIDEODRIVER={forced} draws nowhere a person can see"
    return "no DISPLAY or WAYLAND_DISPLAY, no KMS/DRM device"


def connected_screens(sys_drm: Path = SYS_DRM) -> list[str] | None:
    """The connectors a screen is plugged into (``card1-HDMI-A-1``), as the kernel says;
    ``None`` when it lists no connectors at all (nothing to tell by)."""
    statuses = sorted(sys_drm.glob("card*-*/status"))
    if not statuses:
        return None
    connected = []
    for status in statuses:
        try:
            if status.read_text().strip() == "connected":
                connected.append(status.parent.name)
        except OSError:
            continue
    return connected


def has_mesa_dri(root: Path = Path("/")) -> bool:
    """Whether the GPU's DRI drivers that SDL's KMS/DRM driver loads through Mesa are
    installed on the system under ``root``."""
    return any(any(root.glob(pattern)) for pattern in MESA_DRI)


def screen_fix(environ: Mapping[str, str] = os.environ, dri_dir: Path = DRI_DIR,
               kmsdrm: bool | None = None, *, mesa_dri: bool | None = None) -> str:
    """What a maker does about a board whose screen did not open, as a phrase: the
    first cause found of the ones seen on a Pi. ``kmsdrm`` is whether pygame's SDL has
    the driver (asked of SDL when not given), ``mesa_dri`` whether the GPU's DRI drivers
    are installed (looked for when not given)."""
    forced = environ.get("SDL_VIDEODRIVER", "").strip()
    if forced in INVISIBLE:
        return f"SDL_VIDEODRIVER={forced} draws nowhere: remove it from the environment"
    cards = sorted(dri_dir.glob("card*"))
    if not cards:
        return (f"no KMS/DRM device in {dri_dir}: connect the screen and keep "
                f"dtoverlay=vc4-kms-v3d in config.txt")
    if kmsdrm is None:
        from app.screen.sdl import has_kmsdrm
        try:
            kmsdrm = has_kmsdrm()
        except OSError:
            kmsdrm = False
    if not kmsdrm:
        return f"pygame's SDL has no KMS/DRM driver: {install_extra('screen', 'pygame-ce')}"
    closed = [card for card in cards if not os.access(card, os.R_OK | os.W_OK)]
    if closed:
        return f"no access to {closed[0]}: add the user to the video and render groups"
    if not (has_mesa_dri() if mesa_dri is None else mesa_dri):
        return ("no GPU driver for SDL's KMS/DRM (it loads vc4 or v3d through Mesa's GBM "
                "and EGL): sudo apt install libgl1-mesa-dri, then restart the service")
    return "check the screen's cable and power, then restart the service"


#: The share of the desktop a new window may take, leaving room for panels and title bars.
DESKTOP_SHARE = 0.9


def fit_window(size: tuple[int, int], desktop: tuple[int, int] | None) -> tuple[int, int]:
    """``size``, shrunk to fit :data:`DESKTOP_SHARE` of ``desktop`` (each side on its own:
    the screens lay themselves out in any shape). No desktop size known: ``size``."""
    if not desktop or min(desktop) <= 0:
        return size
    return (min(size[0], int(desktop[0] * DESKTOP_SHARE)),
            min(size[1], int(desktop[1] * DESKTOP_SHARE)))


def open_display(choice: DisplayChoice, size: tuple[int, int], caption: str = "Tabletop"):
    """Open the window (or the whole screen) and log which SDL driver drives it; returns
    the display surface. A window takes ``size`` where the desktop has room for it and
    less where it has not (a 1280x720 laptop, the Pi's 800x480 display with a desktop);
    it can be resized, and what it shows scales to it. SDL quietly falls back to its
    offscreen driver when it cannot reach the display, which would be a window nobody
    sees: that is refused with :class:`NoDisplayError`, as is a display SDL cannot open
    at all (on a Pi, a user without access to ``/dev/dri``). pygame is imported here so
    that choosing costs nothing."""
    import pygame

    if choice.driver:
        os.environ["SDL_VIDEODRIVER"] = choice.driver
    if choice.driver == "kmsdrm":
        os.environ.setdefault(FRAMEBUFFER_HINT, KMSDRM_RENDERER)
    try:
        pygame.display.init()
        pygame.font.init()
        if choice.fullscreen:
            surface = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        else:
            desktops = pygame.display.get_desktop_sizes()
            surface = pygame.display.set_mode(fit_window(size, desktops[0] if desktops
                                                         else None), pygame.RESIZABLE)
    except pygame.error as error:
        pygame.display.quit()
        raise NoDisplayError(f"SDL cannot open the {choice.driver or 'desktop'} display: "
                             f"{error}") from None
    pygame.display.set_caption(caption)
    driver = pygame.display.get_driver()
    if driver in INVISIBLE and driver != choice.driver:
        pygame.display.quit()
        raise NoDisplayError(f"SDL could only open its {driver} driver, which shows nothing")
    log.info("SDL video driver %s, %dx%d%s", driver,
             *surface.get_size(), " full screen" if choice.fullscreen else "")
    return surface


def try_display(driver: str, size: tuple[int, int] = (800, 480)) -> str:
    """Open the display once with SDL's ``driver`` as the service opens it (full screen
    on KMS/DRM) and close it again, for the self-test: what opened, in words. Where it
    does not open, :class:`NoDisplayError` with SDL's own error. ``SDL_VIDEODRIVER`` and
    the renderer's hint are left as they were."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # no banner among the lines
    import pygame

    before = {name: os.environ.get(name) for name in ("SDL_VIDEODRIVER", FRAMEBUFFER_HINT)}
    choice = DisplayChoice(driver, driver == "kmsdrm")
    try:
        surface = open_display(choice, size)
        width, height = surface.get_size()
        return (f"SDL's {pygame.display.get_driver()} driver opened it, {width}x{height}"
                f"{' full screen' if choice.fullscreen else ''}")
    finally:
        pygame.display.quit()
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def resized(size: tuple[int, int] | None):
    """The display surface after the window was resized to ``size``: SDL resizes it
    itself; a driver that does not is asked to. ``None`` when no display is open."""
    import pygame

    surface = pygame.display.get_surface()
    if (surface is not None and size is not None and surface.get_size() != tuple(size)
            and not surface.get_flags() & pygame.FULLSCREEN):
        surface = pygame.display.set_mode(size, pygame.RESIZABLE)
    return surface
