"""Shared test set-up: headless pygame, mock GPIO, a throw-away data directory, no web
page unless a test asks for one, and the sensor board's serial links closed after each
test that opens them."""

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
# The command's lgpio folder (app/hardware/lgpio_dir.py), else made in the user's cache.
os.environ.setdefault("LG_WD", os.environ["XDG_DATA_HOME"])


@pytest.fixture(autouse=True)
def no_web_page_by_default(monkeypatch):
    """``tabletop run`` serves its page on port 80 and announces it on the network unless
    told not to; a test of the loop runs without it, and the web tests start their own
    on a free local port."""
    from app.table import config
    monkeypatch.setattr(config, "WEB_DEFAULT", None)


@pytest.fixture
def no_serial_links_left():
    """Close every serial link a test opened (the driver shares one per port, kept in
    ``serial_board._LINKS``), so no port outlives its test."""
    yield
    from app.hardware import serial_board
    for link in list(serial_board._LINKS.values()):
        link.close()
    serial_board._LINKS.clear()


@pytest.fixture
def mosquitto(tmp_path):
    """A real mosquitto of the test's own (its configuration, a CA the test makes,
    password accounts, a free port: tests/mosquitto.py), stopped by its process id."""
    from tests.mosquitto import Mosquitto
    broker = Mosquitto(tmp_path / "broker")
    broker.start()
    yield broker
    broker.stop()
