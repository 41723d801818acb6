"""Shared test set-up: headless pygame, mock GPIO, and a throw-away data directory."""

import atexit
import os
import shutil
import tempfile

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")

# Games the tests play are saved somewhere of their own, never in a person's data.
os.environ.pop("STATE_DIRECTORY", None)
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="tabletop-tests-")
atexit.register(shutil.rmtree, os.environ["XDG_DATA_HOME"], ignore_errors=True)
