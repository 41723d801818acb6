"""LED strips behind one small interface: NeoPixels on a PWM pin, on SPI, or simulated.

Every strip takes whole frames (one (r, g, b) per LED in chain order, in the colours of
:mod:`app.colours`, meant as a screen would show them) and applies a gamma table, the
profile's brightness and the current cap itself, so dim colours look right on WS2812s
and no scene can ever ask the power supply for more than the profile allows. Hardware libraries are imported inside the driver that
needs them, so the simulator and the tests never load Blinka. A real strip that cannot be
opened (its library missing, a machine Blinka does not drive, SPI off, no permission) is
a :class:`~app.errors.DeviceError` naming the strip and the cause, never a simulated strip
in its place.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Sequence
from importlib import import_module

from app.errors import (DeviceError, DisconnectError, NoSuchPinError, describe,
                        install_extra)
from app.hardware.brightness import BRIGHTNESS_RULE, is_brightness
from app.hardware.pi import Machine, check_led_path
from app.hardware.profile import MA_PER_CHANNEL
from app.hardware.spi import BUFSIZ_FILE, check_transfer

Colour = tuple[int, int, int]
BLACK: Colour = (0, 0, 0)

#: A WS2812's light is linear in the value sent (a PWM duty), the eye's response is not:
#: value 128 looks nearly as bright as 255, and a dim amber turns yellow. Every channel
#: therefore goes through ``(v / 255) ** GAMMA`` first (2.8, as Adafruit's NeoPixel
#: guides use), so that the LEDs look like the colours a screen shows for the same values.
GAMMA = 2.8
GAMMA_TABLE: tuple[int, ...] = tuple(round(255 * (v / 255) ** GAMMA) for v in range(256))


def gamma_frame(frame: Sequence[Colour]) -> list[Colour]:
    """``frame`` through :data:`GAMMA_TABLE`: the values that look like ``frame``."""
    table = GAMMA_TABLE
    return [(table[r], table[g], table[b]) for r, g, b in frame]




def frame_ma(frame: Sequence[Colour], ma_per_channel: float = MA_PER_CHANNEL) -> float:
    """Worst-case current of a frame: each channel draws its duty times ``ma_per_channel``."""
    return sum(r + g + b for r, g, b in frame) * ma_per_channel / 255


def cap_frame(frame: Sequence[Colour], max_ma: float,
              ma_per_channel: float = MA_PER_CHANNEL) -> list[Colour]:
    """The frame dimmed evenly, just enough that its worst-case current is within ``max_ma``.

    Scaling every channel by the same factor keeps hues; rounding down keeps the
    result under the cap rather than a milliamp over it.
    """
    draw = frame_ma(frame, ma_per_channel)
    if draw <= max_ma:
        return [tuple(pixel) for pixel in frame]
    scale = max_ma / draw
    return [(int(r * scale), int(g * scale), int(b * scale)) for r, g, b in frame]


class LedStrip(ABC):
    """A chain of ``count`` RGB LEDs; ``show`` applies the gamma table, brightness, then
    the current cap."""

    def __init__(self, count: int, *, brightness: float = 1.0,
                 max_ma: float | None = None) -> None:
        if count < 1:
            raise ValueError(f"an LED strip needs at least one LED, not {count}")
        if not is_brightness(brightness):
            raise ValueError(f"brightness must be {BRIGHTNESS_RULE}, not {brightness!r}")
        self.count = count
        self.brightness = brightness
        self.max_ma = max_ma if max_ma is not None else count * 3 * MA_PER_CHANNEL
        #: How much the last frame's light was scaled: brightness times the cap's factor.
        self.dimming = brightness

    def show(self, frame: Sequence[Colour]) -> None:
        """Light the strip: one (r, g, b), each 0-255, per LED in chain order.

        Each value goes through the gamma table, then is scaled by ``brightness`` (which
        so scales the light and the current alike), then the frame is capped to
        ``max_ma``: the cap is reckoned on the values the LEDs are sent.
        """
        if len(frame) != self.count:
            raise ValueError(f"frame has {len(frame)} colours for {self.count} LEDs")
        for index, pixel in enumerate(frame):
            if len(pixel) != 3 or not all(isinstance(c, int) and 0 <= c <= 255 for c in pixel):
                raise ValueError(f"LED {index}: {pixel!r} is not an (r, g, b) of 0-255")
        b = self.brightness
        dimmed = [(int(r * b), int(g * b), int(bl * b)) for r, g, bl in gamma_frame(frame)]
        draw = frame_ma(dimmed)
        self.dimming = b * min(1.0, self.max_ma / draw) if draw else b
        self._write(cap_frame(dimmed, self.max_ma))

    def off(self) -> None:
        self.show([BLACK] * self.count)

    def close(self) -> None:
        """Turn the LEDs off and release the hardware (released even when a strip that
        went away cannot be turned off)."""
        try:
            self.off()
        finally:
            self._release()

    def __enter__(self) -> "LedStrip":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @abstractmethod
    def _write(self, frame: list[Colour]) -> None:
        """Send a frame that is already gamma-corrected, dimmed and capped."""

    def _release(self) -> None:
        """Free pins or buses; nothing to free by default."""


class SimulatedStrip(LedStrip):
    """A strip that keeps every frame it was sent, as real LEDs would have been, and
    what they look like."""

    def __init__(self, count: int, **kwargs) -> None:
        super().__init__(count, **kwargs)
        #: Every frame as sent to the LEDs: gamma-corrected, dimmed and capped.
        self.frames: list[list[Colour]] = []
        self._looks: list[Colour] = [BLACK] * count

    def show(self, frame: Sequence[Colour]) -> None:
        super().show(frame)
        # The gamma curve is a power law, so light scaled by ``dimming`` looks like the
        # colour scaled by ``dimming ** (1 / GAMMA)``: the same hue, darker.
        factor = self.dimming ** (1 / GAMMA)
        self._looks = [(round(r * factor), round(g * factor), round(b * factor))
                       for r, g, b in frame]

    @property
    def lit(self) -> list[Colour]:
        """What the LEDs show now, as a screen shows the same colours (the simulator
        draws these): the scene's own colours at full brightness within the cap,
        darker in the same hue when brightness or the cap dims them; all off before the
        first ``show``."""
        return self._looks

    def _write(self, frame: list[Colour]) -> None:
        self.frames.append(frame)


class _AdafruitStrip(LedStrip):
    """What both Adafruit NeoPixel drivers share: ``_pixels`` takes a whole frame, and a
    write that fails once the strip was open means the LEDs went away."""

    _pixels: object
    _where: str

    def _write(self, frame: list[Colour]) -> None:
        try:
            self._pixels[:] = frame
            self._pixels.show()
        except (OSError, RuntimeError) as error:
            raise DisconnectError(f"{self._where}: lost while in use: "
                                  f"{led_problem(error)}") from error


class NeoPixelStrip(_AdafruitStrip):
    """WS2812 LEDs on a PWM or PCM pin through adafruit-circuitpython-neopixel: root on a
    Pi 1 to 4, ``/dev/pio0`` on a Pi 5. Refused before anything opens where ``machine``
    (this one by default) will not let this user drive them."""

    def __init__(self, count: int, *, pin: str = "D18", pixel_order: str = "GRB",
                 label: str = "LEDs", machine: Machine | None = None, **kwargs) -> None:
        super().__init__(count, **kwargs)
        self._where = where = f"{label} (neopixel on {pin})"
        check_led_path("neopixel", where, machine)
        board = _blinka_module("board", "Adafruit-Blinka", where)
        neopixel = _blinka_module("neopixel", "adafruit-circuitpython-neopixel", where)
        board_pin = getattr(board, pin, None)
        if board_pin is None:
            raise NoSuchPinError(f"{where}: this board has no pin {pin} for NeoPixels "
                                 f"{_machine(board)}")
        try:
            self._pixels = neopixel.NeoPixel(board_pin, count, brightness=1.0,
                                             auto_write=False, pixel_order=pixel_order)
        except Exception as error:
            raise DeviceError(f"{where}: cannot open: {led_problem(error)}") from error

    def _release(self) -> None:
        self._pixels.deinit()


class NeoPixelSpiStrip(_AdafruitStrip):
    """WS2812 LEDs on the SPI MOSI pin through adafruit-circuitpython-neopixel-spi.

    SPI needs no root and no DMA channel; ``spi`` defaults to the board's SPI bus, on
    which a frame must go out in one transfer (:mod:`app.hardware.spi`): a chain too long
    for the kernel's buffer or for ``SPI_BUFSIZE`` is refused before it lights the wrong
    holes, and with no ``SPI_BUFSIZE`` set the library is told the size that fits.
    """

    def __init__(self, count: int, *, spi=None, pixel_order: str = "GRB",
                 label: str = "LEDs", machine: Machine | None = None, **kwargs) -> None:
        super().__init__(count, **kwargs)
        self._where = where = f"{label} (neopixel_spi on SPI)"
        neopixel_spi = _blinka_module("neopixel_spi", "adafruit-circuitpython-neopixel-spi",
                                      where)
        if spi is None:
            machine = machine or Machine()
            chunk = check_transfer(count, pixel_order, where,
                                   bufsiz_file=machine.path(str(BUFSIZ_FILE)))
            os.environ.setdefault("SPI_BUFSIZE", str(chunk))
            board = _blinka_module("board", "Adafruit-Blinka", where)
            if not hasattr(board, "SPI"):
                raise DeviceError(f"{where}: this board has no SPI bus {_machine(board)}")
            try:
                spi = board.SPI()
            except Exception as error:
                raise DeviceError(f"{where}: cannot open the SPI bus: "
                                  f"{led_problem(error)}") from error
        try:
            self._pixels = neopixel_spi.NeoPixel_SPI(spi, count, brightness=1.0,
                                                     auto_write=False,
                                                     pixel_order=pixel_order)
        except Exception as error:
            raise DeviceError(f"{where}: cannot open: {led_problem(error)}") from error


def _blinka_module(name: str, package: str, where: str):
    """Import one of Blinka's modules; a missing library or a machine Blinka refuses
    (``NotImplementedError: Board not supported``) is a :class:`DeviceError`."""
    try:
        return import_module(name)
    except ImportError as error:
        missing = error.name or name
        raise DeviceError(f"{where}: the {missing} library is not installed "
                          f"({install_extra('pi', package)})") from error
    except Exception as error:
        raise DeviceError(f"{where}: cannot load {name}: {led_problem(error)}") from error


def _machine(board) -> str:
    """The board as Blinka sees it, for messages: "(GENERIC_LINUX_PC: this machine is not
    a Raspberry Pi)", or "(RASPBERRY_PI_4B)"."""
    board_id = str(getattr(board, "board_id", None) or "unknown")
    if board_id.upper().startswith("RASPBERRY_PI"):
        return f"({board_id})"
    return f"({board_id}: this machine is not a Raspberry Pi)"


def led_problem(error: BaseException) -> str:
    """What went wrong with an LED strip, as a phrase for a one-line message."""
    text = describe(error)
    if isinstance(error, NotImplementedError) and "not supported" in text.lower():
        return f"Blinka does not support this machine, which is not a Raspberry Pi ({text})"
    if isinstance(error, PermissionError):
        return (f"permission denied on {error.filename or 'the device'}: add the user to "
                f"the spi and gpio groups (NeoPixels on a PWM pin need root)")
    if isinstance(error, FileNotFoundError):
        return f"no {error.filename or 'device'}: is SPI enabled (raspi-config)?"
    if "No Hardware SPI" in text:
        return "no hardware SPI bus: is SPI enabled (raspi-config)?"
    if isinstance(error, OSError):
        return text
    return f"{type(error).__name__}: {text}"
