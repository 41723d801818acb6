"""Physical buttons (confirm, hint, undo, new game) through gpiozero.

gpiozero calls ``when_pressed`` from its own thread; the session is not thread-safe, so
a press only goes into a queue that the main loop empties between sensor scans. A button
that cannot be opened (no GPIO on this machine, a pin in use) is a
:class:`~app.errors.DeviceError` naming the button and its pin.
"""

from __future__ import annotations

import queue
from collections.abc import Mapping

from app.hardware.sensors import import_gpiozero, open_gpio


class Buttons:
    """One gpiozero ``Button`` per action (pin to ground, internal pull-up)."""

    def __init__(self, pins: Mapping[str, int], *, bounce_s: float = 0.05,
                 pin_factory=None) -> None:
        self._presses: queue.SimpleQueue[str] = queue.SimpleQueue()
        self._buttons = []
        gpiozero = import_gpiozero("buttons")
        try:
            for action, pin in pins.items():
                button = open_gpio(
                    f"buttons: {action} on GPIO{pin}",
                    lambda: gpiozero.Button(pin, pull_up=True, bounce_time=bounce_s,
                                            pin_factory=pin_factory))
                button.when_pressed = self._pressed(action)
                self._buttons.append(button)
        except Exception:
            self.close()
            raise

    def _pressed(self, action: str):
        def pressed() -> None:
            self._presses.put(action)
        return pressed

    def presses(self) -> list[str]:
        """The actions pressed since the last call, oldest first."""
        actions = []
        while True:
            try:
                actions.append(self._presses.get_nowait())
            except queue.Empty:
                return actions

    def close(self) -> None:
        for button in self._buttons:
            button.close()
        self._buttons = []
