"""What this board is: edit it for yours before copying the firmware onto the Pico.

``sensors`` picks the scanner (tt_hw): ``"matrix"`` (a diode matrix on ``row_pins`` and
``column_pins``, up to 16 each), ``"shift"`` (a chain of ``chips`` 74HC165 on
``load_pin``, ``clock_pin`` and ``data_pin``) or ``"hall"`` (analog hall sensors, rows
powered through ``row_pins``, columns through a multiplexer on ``select_pins`` into
``adc_pin``, ``columns`` of them; this board senses which pole is up; its ``mid`` and
``threshold`` hold until the Pi sends the thresholds of a calibrated profile, see
hardware/README.md). Pins are GPIO numbers (GP0 to GP28). ``leds_pin`` and ``leds``
drive the LED chain from the Pico; leave ``leds`` at 0 when the Pi drives them. Holding
``safe_pin`` to ground while the Pico starts leaves the firmware stopped, at the REPL,
for a new copy to go on.
"""

BOARD = {
    # A 10x10 diode matrix (Kulami): rows on GP0-GP9, columns on GP10-GP19. A Pico has
    # 26 GPIOs (GP0-GP22, GP26-GP28), so a matrix of more than 26 lines, such as 14x14
    # for Blokus Duo, takes a chain of 74HC165s ("shift") instead.
    "sensors": "matrix",
    "row_pins": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    "column_pins": [10, 11, 12, 13, 14, 15, 16, 17, 18, 19],
    "settle_us": 20,
    # "sensors": "shift", "load_pin": 2, "clock_pin": 3, "data_pin": 4, "chips": 25,
    # "sensors": "hall", "row_pins": [0, 1, ...], "select_pins": [16, 17, 18, 19],
    #     "adc_pin": 26, "columns": 14, "mid": 32768, "threshold": 6000, "south_high": True,
    "leds_pin": 22,
    "leds": 0,
    "debounce_ms": 10,
    "scan_hz": 200,
    "watchdog_ms": 5000,
    "safe_pin": 21,
}
