"""The Pico's start: the board of ``tt_board`` built from ``tt_hw`` parts, then the
device's loop, under a watchdog, and never stopped by a Ctrl-C on the line."""

try:
    import tt_board
    import tt_device
    import tt_hw
except ImportError:
    from firmware import tt_board, tt_device, tt_hw


def scanner(board):
    """The scanner ``board["sensors"]`` names."""
    kind = board.get("sensors", "matrix")
    if kind == "matrix":
        return tt_hw.DiodeMatrix(board["row_pins"], board["column_pins"],
                                 board.get("settle_us", 20))
    if kind == "shift":
        return tt_hw.ShiftChain(board["load_pin"], board["clock_pin"], board["data_pin"],
                                board["chips"], board.get("active_low", True))
    if kind == "hall":
        return tt_hw.HallMatrix(board["row_pins"], board["select_pins"], board["adc_pin"],
                                board["columns"], board.get("mid", tt_hw.MID),
                                board.get("threshold", tt_hw.THRESHOLD),
                                board.get("rail", tt_hw.RAIL), board.get("south_high", True))
    raise ValueError("tt_board: sensors must be matrix, shift or hall, not %r" % (kind,))


def build(board, link=None, clock=None):
    """The device ``board`` describes; the link is made first, so that Ctrl-C is off
    before anything else can fail."""
    link = link or tt_hw.UsbLink()
    leds = None
    if board.get("leds", 0):
        leds = tt_hw.Leds(board["leds_pin"], board["leds"])
    return tt_device.Device(scanner(board), link, clock or tt_hw.Clock(), leds,
                            debounce_ms=board.get("debounce_ms", tt_device.DEBOUNCE_MS),
                            scan_hz=board.get("scan_hz", tt_device.SCAN_HZ))


def safe_mode(board):
    """Whether the safe pin is held to ground: then the firmware stays stopped."""
    pin = board.get("safe_pin")
    if pin is None:
        return False
    from machine import Pin
    return Pin(pin, Pin.IN, Pin.PULL_UP).value() == 0


def run(board=None, turns=None):
    """Build the board and run it: for ever on the Pico, ``turns`` turns in the tests.
    The watchdog restarts a Pico whose loop hangs."""
    board = board or tt_board.BOARD
    if safe_mode(board):
        print("tabletop firmware: safe pin held, not starting")
        return None
    device = build(board)
    dog = None
    if board.get("watchdog_ms"):
        from machine import WDT
        dog = WDT(timeout=board["watchdog_ms"])
    device.start()
    done = 0
    while turns is None or done < turns:
        wait = device.step()
        if dog is not None:
            dog.feed()
        if wait:
            device.clock.sleep_ms(wait)
        done += 1
    return device
