"""Shared test set-up: headless pygame, mock GPIO, a throw-away data directory, and the
sensor board's serial links closed after each test that opens them."""

import atexit
import os
import shutil
import tempfile

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")

# Games the tests play are saved somewhere of their own, never in a person's data.
os.environ.pop("STATE_DIRECTORY", None)
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="tabletop-tests-")
atexit.register(shutil.rmtree, os.environ["XDG_DATA_HOME"], ignore_errors=True)


@pytest.fixture
def no_serial_links_left():
    """Close every serial link a test opened (the driver shares one per port, kept in
    ``serial_board._LINKS``), so no port outlives its test."""
    yield
    from app.hardware import serial_board
    for link in list(serial_board._LINKS.values()):
        link.close()
    serial_board._LINKS.clear()
