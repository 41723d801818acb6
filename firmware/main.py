# The Pico runs main.py at start: the sensor board's firmware (tt_main). Elsewhere
# (the Pi importing the package) this file does nothing.
import sys

if sys.implementation.name == "micropython":
    import tt_main
    tt_main.run()
