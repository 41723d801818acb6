"""The sensor board's firmware: MicroPython for a Raspberry Pi Pico (RP2040).

These modules are copied flat onto the Pico (with ``firmware/wire.py`` as
``wire.py``); on the Pi they are importable as ``firmware`` so that the tests and
the virtual device run the very same logic under CPython. See README.md here.
"""
