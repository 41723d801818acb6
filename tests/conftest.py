"""Shared test set-up: headless pygame and mock GPIO everywhere."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")
