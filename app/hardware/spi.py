"""One frame of NeoPixels over SPI, and the buffers it has to fit in.

``neopixel_spi`` sends every bit of an LED's colour as one SPI byte at 6.4 MHz (a WS2812
bit is 1.25 µs, eight SPI bits), so an RGB LED takes 24 bytes and an RGBW LED 32, and it
puts 80 µs of zero bytes (64 of them) before and after the frame as the reset. The whole
frame has to leave in one SPI transfer: Adafruit_PureIO cuts a longer write into pieces
of ``SPI_BUFSIZE`` bytes (4,096 unless that variable says otherwise) and sends each with
its own call into the kernel, and the line rests between two pieces long enough for the
LEDs to latch, so the LEDs after the first piece take the rest as a new frame and the
board lights the wrong holes. The kernel's spidev driver, for its part, refuses any
transfer over its ``bufsiz`` parameter (4,096 bytes by default). 4,096 bytes hold 165
RGB LEDs: Blokus Duo's 196 do not fit.

So a chain on SPI needs both raised: the service sets ``SPI_BUFSIZE`` and
``systemd/install.sh`` sets ``spidev.bufsiz`` on the kernel's command line, each to
:func:`buffer_for` the profile; the strip refuses to open with one line when either is
too small (:func:`check_transfer`). ``python -m app.hardware.spi PROFILE`` prints that
size, which is how install.sh learns it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

from app.errors import DeviceError

#: neopixel_spi's bus clock and reset time (its defaults): 8 SPI bits per LED bit.
SPI_HZ = 6_400_000
RESET_S = 80e-6
#: What both the kernel's spidev ``bufsiz`` and Adafruit_PureIO default to.
DEFAULT_BUFSIZ = 4096
#: Where the running kernel shows spidev's buffer size.
BUFSIZ_FILE = Path("/sys/module/spidev/parameters/bufsiz")


def transfer_bytes(led_count: int, pixel_order: str = "GRB") -> int:
    """Bytes in one SPI transfer of a frame: 8 per colour bit, plus a reset either side."""
    reset = round(SPI_HZ * RESET_S / 8)
    return 8 * led_count * len(pixel_order) + 2 * reset


def buffer_for(led_count: int, pixel_order: str = "GRB") -> int:
    """The buffer size to configure for a chain: the default, or the next power of two
    that holds one frame (196 RGB LEDs, 4,832 bytes: 8,192)."""
    size = DEFAULT_BUFSIZ
    while size < transfer_bytes(led_count, pixel_order):
        size *= 2
    return size


def kernel_bufsiz(path: Path = BUFSIZ_FILE) -> int | None:
    """spidev's buffer size in the running kernel, or ``None`` where spidev is not loaded."""
    try:
        return int(path.read_text(encoding="ascii").strip())
    except (OSError, ValueError):
        return None


def transfer_problems(led_count: int, pixel_order: str, kernel: int | None,
                      environ: Mapping[str, str] = os.environ) -> list[str]:
    """What keeps one frame of the chain from going out in one transfer, each as a phrase
    that says what to change: the kernel's buffer (``None``: not known, not checked),
    then ``SPI_BUFSIZE``. The strip refuses on the first; the self-test lists them all."""
    needed = transfer_bytes(led_count, pixel_order)
    size = buffer_for(led_count, pixel_order)
    problems = []
    if kernel is not None and kernel < needed:
        problems.append(f"{led_count} LEDs need one SPI transfer of {needed:,} bytes and the "
                        f"kernel's spidev buffer holds {kernel:,}: run systemd/install.sh "
                        f"again (it adds spidev.bufsiz={size} to the kernel command line) "
                        f"and reboot")
    chunk = environ.get("SPI_BUFSIZE", "").strip()
    if chunk and (not chunk.isdigit() or int(chunk) < needed):
        problems.append(f"SPI_BUFSIZE={chunk} would split a frame of {needed:,} bytes into "
                        f"pieces the LEDs take as separate frames: set SPI_BUFSIZE={size} "
                        f"(install.sh writes it to /etc/default/tabletop)")
    return problems


def check_transfer(led_count: int, pixel_order: str, where: str, *,
                   environ: Mapping[str, str] = os.environ,
                   bufsiz_file: Path = BUFSIZ_FILE) -> int:
    """Refuse, with one line saying what to change, a chain whose frame would not go out
    in one transfer; return the chunk size Adafruit_PureIO must use (for ``SPI_BUFSIZE``).
    """
    kernel = kernel_bufsiz(bufsiz_file)
    problems = transfer_problems(led_count, pixel_order, kernel, environ)
    if problems:
        raise DeviceError(f"{where}: {problems[0]}")
    chunk = environ.get("SPI_BUFSIZE", "").strip()
    return int(chunk) if chunk else max(transfer_bytes(led_count, pixel_order), kernel or 0)


def main(argv: list[str] | None = None) -> int:
    """``python -m app.hardware.spi PROFILE``: the buffer size the profile's LEDs need
    (the default for a profile whose LEDs are not on SPI)."""
    from app.hardware.profile import load_profile
    from app.errors import TabletopError, describe

    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m app.hardware.spi PROFILE", file=sys.stderr)
        return 2
    try:
        profile = load_profile(args[0])
    except TabletopError as error:
        print(f"app.hardware.spi: {describe(error)}", file=sys.stderr)
        return 2
    if profile.leds.driver != "neopixel_spi":
        print(DEFAULT_BUFSIZ)
    else:
        print(buffer_for(profile.led_count, profile.leds.pixel_order))
    return 0


if __name__ == "__main__":
    sys.exit(main())
