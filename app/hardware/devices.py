"""Opening a board's devices: the sensor source and the LED strip its profile names.

Each driver lives in a module of its own: the GPIO diode matrix and the simulated
sensors in :mod:`app.hardware.sensors`, the NeoPixel strips in :mod:`app.hardware.leds`,
the sensor board over USB (sensors and, if it drives them, LEDs) in
:mod:`app.hardware.serial_board`. This is the one place that picks among them, so no
driver needs to know of another. A real device that cannot be opened raises
:class:`~app.errors.DeviceError`: only a ``simulated`` profile gets simulated hardware.
"""

from __future__ import annotations

from app.hardware.leds import LedStrip, NeoPixelSpiStrip, NeoPixelStrip, SimulatedStrip
from app.hardware.profile import Profile, ProfileError
from app.hardware.sensors import MatrixScanner, SensorSource, SimulatedSensors


def open_source(profile: Profile, *, pin_factory=None) -> SensorSource:
    """The sensor source a profile describes; a real one that cannot be opened raises
    :class:`~app.errors.DeviceError`, never a simulated board in its place."""
    config = profile.sensors
    if config.driver == "matrix":
        return MatrixScanner(config.row_pins, config.column_pins, profile.channels(),
                             settle_us=config.settle_us, pin_factory=pin_factory,
                             label=f"profile {profile.name}: sensor matrix")
    if config.driver == "simulated":
        return SimulatedSensors(profile.holes, colour_sensing=config.colour)
    if config.driver == "serial":
        # A microcontroller under the board, over USB serial: pyserial is loaded only here.
        from app.hardware.serial_board import open_serial_sensors
        return open_serial_sensors(profile)
    raise ProfileError(f"{profile.path}: sensors.driver: no {config.driver!r} sensor driver "
                       f"is installed in this version")



def open_strip(profile: Profile) -> LedStrip:
    """The strip a profile describes, with its brightness and current cap (``tabletop
    run`` passes the profile with the configuration's ``[leds] brightness``).

    Only a ``simulated`` profile gets a simulated strip: a real strip that cannot be
    opened raises :class:`~app.errors.DeviceError`, so a board never runs dark while
    the software believes it lights the holes.
    """
    config = profile.leds
    common = {"brightness": config.brightness, "max_ma": config.max_ma,
              "label": f"profile {profile.name}: LEDs"}
    if config.driver == "neopixel":
        return NeoPixelStrip(profile.led_count, pin=config.pin,
                             pixel_order=config.pixel_order, **common)
    if config.driver == "neopixel_spi":
        return NeoPixelSpiStrip(profile.led_count, pixel_order=config.pixel_order, **common)
    if config.driver == "simulated":
        del common["label"]
        return SimulatedStrip(profile.led_count, **common)
    if config.driver == "serial":
        from app.hardware.serial_board import open_serial_strip  # pyserial, only here
        return open_serial_strip(profile, brightness=config.brightness)
    raise ProfileError(f"{profile.path}: leds.driver: no {config.driver!r} LED driver "
                       f"is installed in this version")
