"""LED strips behind one small interface: NeoPixels on a PWM pin, on SPI, or simulated.

Every strip takes whole frames (one (r, g, b) per LED in chain order) and applies the
profile's brightness and current cap itself, so no scene can ever ask the power supply
for more than the profile allows. Hardware libraries are imported inside the driver that
needs them, so the simulator and the tests never load Blinka.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from app.hardware.profile import MA_PER_CHANNEL, Profile

Colour = tuple[int, int, int]
BLACK: Colour = (0, 0, 0)


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
    """A chain of ``count`` RGB LEDs; ``show`` applies brightness, then the current cap."""

    def __init__(self, count: int, *, brightness: float = 1.0,
                 max_ma: float | None = None) -> None:
        if count < 1:
            raise ValueError(f"an LED strip needs at least one LED, not {count}")
        if not 0 < brightness <= 1:
            raise ValueError(f"brightness must be above 0 and at most 1, not {brightness}")
        self.count = count
        self.brightness = brightness
        self.max_ma = max_ma if max_ma is not None else count * 3 * MA_PER_CHANNEL

    def show(self, frame: Sequence[Colour]) -> None:
        """Light the strip: one (r, g, b), each 0-255, per LED in chain order."""
        if len(frame) != self.count:
            raise ValueError(f"frame has {len(frame)} colours for {self.count} LEDs")
        for index, pixel in enumerate(frame):
            if len(pixel) != 3 or not all(isinstance(c, int) and 0 <= c <= 255 for c in pixel):
                raise ValueError(f"LED {index}: {pixel!r} is not an (r, g, b) of 0-255")
        dimmed = [(int(r * self.brightness), int(g * self.brightness), int(b * self.brightness))
                  for r, g, b in frame]
        self._write(cap_frame(dimmed, self.max_ma))

    def off(self) -> None:
        self.show([BLACK] * self.count)

    def close(self) -> None:
        """Turn the LEDs off and release the hardware."""
        self.off()
        self._release()

    def __enter__(self) -> "LedStrip":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @abstractmethod
    def _write(self, frame: list[Colour]) -> None:
        """Send a frame that is already dimmed and capped."""

    def _release(self) -> None:
        """Free pins or buses; nothing to free by default."""


class SimulatedStrip(LedStrip):
    """A strip that keeps every frame it was shown, as the LEDs would have lit."""

    def __init__(self, count: int, **kwargs) -> None:
        super().__init__(count, **kwargs)
        self.frames: list[list[Colour]] = []

    @property
    def lit(self) -> list[Colour]:
        """The frame showing now (all off before the first ``show``)."""
        return self.frames[-1] if self.frames else [BLACK] * self.count

    def _write(self, frame: list[Colour]) -> None:
        self.frames.append(frame)


class NeoPixelStrip(LedStrip):
    """WS2812 LEDs on a PWM or PCM pin through adafruit-circuitpython-neopixel (needs root)."""

    def __init__(self, count: int, *, pin: str = "D18", pixel_order: str = "GRB",
                 **kwargs) -> None:
        super().__init__(count, **kwargs)
        import board
        import neopixel

        board_pin = getattr(board, pin, None)
        if board_pin is None:
            raise ValueError(f"this board has no pin {pin} for NeoPixels")
        self._pixels = neopixel.NeoPixel(board_pin, count, brightness=1.0, auto_write=False,
                                         pixel_order=pixel_order)

    def _write(self, frame: list[Colour]) -> None:
        self._pixels[:] = frame
        self._pixels.show()

    def _release(self) -> None:
        self._pixels.deinit()


class NeoPixelSpiStrip(LedStrip):
    """WS2812 LEDs on the SPI MOSI pin through adafruit-circuitpython-neopixel-spi.

    SPI needs no root and no DMA channel; ``spi`` defaults to the board's SPI bus.
    """

    def __init__(self, count: int, *, spi=None, pixel_order: str = "GRB", **kwargs) -> None:
        super().__init__(count, **kwargs)
        import neopixel_spi

        if spi is None:
            import board
            spi = board.SPI()
        self._pixels = neopixel_spi.NeoPixel_SPI(spi, count, brightness=1.0,
                                                 auto_write=False, pixel_order=pixel_order)

    def _write(self, frame: list[Colour]) -> None:
        self._pixels[:] = frame
        self._pixels.show()


def open_strip(profile: Profile) -> LedStrip:
    """The strip a profile describes, with its brightness and current cap."""
    config = profile.leds
    common = {"brightness": config.brightness, "max_ma": config.max_ma}
    if config.driver == "neopixel":
        return NeoPixelStrip(profile.led_count, pin=config.pin,
                             pixel_order=config.pixel_order, **common)
    if config.driver == "neopixel_spi":
        return NeoPixelSpiStrip(profile.led_count, pixel_order=config.pixel_order, **common)
    return SimulatedStrip(profile.led_count, **common)
