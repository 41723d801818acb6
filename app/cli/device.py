"""``tabletop device PROFILE``: a virtual sensor board for a profile, on a pseudo-terminal.

It runs the firmware's own logic (:mod:`app.hardware.virtual_device`) for the board the
profile describes: as many channels as the profile's holes use (rows and columns as
near a square as they fit), polarity if the profile senses colour, the LED chain if the
profile's LEDs are driven by the sensor board (``leds.driver = "serial"``). It prints
the port it opened, one line, and runs until Ctrl-C, SIGTERM or ``--seconds``; another
program (``tabletop sensors record --port``, ``tabletop run`` with a profile whose
``sensors.port`` names it) talks to it as to a Pico. ``--link`` puts the port's name
where a profile can name it before the device starts; ``--noise`` damages the line both
ways (bytes dropped, changed, sent twice), seeded by ``--seed``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from app.cli import seconds
from app.hardware.profile import ProfileError, load_profile


def probability(text: str) -> float:
    """An argparse type: a probability from 0 to 1."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a probability, not {text!r}") from None
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"must be from 0 to 1, not {text}")
    return value


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "device", help="a virtual sensor board for a profile, on a pseudo-terminal",
        description="A sensor board that is not there: the firmware's own logic behind "
                    "a pseudo-terminal, answering the wire protocol for the profile's "
                    "holes, so that 'tabletop run' and other programs can read it as "
                    "they read a Pico.")
    parser.add_argument("profile", help="profile name (shipped) or .toml path")
    parser.add_argument("--noise", type=probability, default=0.0, metavar="P",
                        help="chance of each byte being damaged, each way (default 0)")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the line noise (default: %(default)s)")
    parser.add_argument("--seconds", type=seconds, default=None, metavar="N",
                        help="stop after this long (default: Ctrl-C)")
    parser.add_argument("--link", metavar="PATH",
                        help="the port's name: a symbolic link made here (default: in a "
                             "new temporary folder)")
    parser.set_defaults(run=run)


def run(args) -> int:
    from app.hardware.virtual_device import device_for  # the firmware's logic: only here
    from app.table.service import ServiceStop, stop_on_signals
    profile = load_profile(args.profile)
    folder = name = None
    if args.link:
        folder, name = os.path.split(os.path.abspath(args.link))
        if not os.path.isdir(folder):
            raise ProfileError(f"--link {args.link}: no folder {folder}")
        if os.path.exists(args.link) and not os.path.islink(args.link):
            raise ProfileError(f"--link {args.link}: exists and is not a symbolic link")
    device = device_for(profile, noise=args.noise, seed=args.seed, folder=folder)
    if name:
        device.path = os.path.join(folder, name)
    # Ctrl-C stops it through a handler of its own, as SIGTERM does: Python installs
    # its KeyboardInterrupt only where SIGINT was not ignored at start, and a script's
    # background job (some CI runners start the tests so) has it ignored.
    with stop_on_signals():
        try:
            device.start()
            rows, cols = device.scanner.rows, device.scanner.cols
            print(device.path, flush=True)
            print(f"tabletop device: {profile.name}: {rows} x {cols} channels"
                  f"{', polarity' if profile.sensors.colour else ''}"
                  f"{f', {device.leds.count} LEDs' if device.leds else ''} on "
                  f"{device.link.name}; Ctrl-C stops it", file=sys.stderr, flush=True)
            end = None if args.seconds is None else time.monotonic() + args.seconds
            while end is None or time.monotonic() < end:
                time.sleep(0.05 if end is None else max(0.0, min(0.05, end - time.monotonic())))
        except ServiceStop:
            pass  # Ctrl-C or SIGTERM is how a device without --seconds stops
        finally:
            device.stop()
    return 0
