"""What an LED brightness may be, said once for every place that takes one.

A brightness scales every colour before the current cap: above 0 (at 0 the board would
look switched off while it plays) and at most 1 (full). The profile's ``[leds]``, the
configuration's ``[leds] brightness``, the page's slider and the strip itself all take
one, and they refuse the same values in the same words. ``true`` is not a brightness,
though Python counts it as 1.
"""

from __future__ import annotations

from typing import Any

#: The rule in words, for one-line errors: ``brightness must be above 0 and at most 1``.
BRIGHTNESS_RULE = "above 0 and at most 1"


def is_brightness(value: Any) -> bool:
    """Whether ``value`` is a brightness: a number (not a boolean) above 0, at most 1."""
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and 0 < value <= 1)


__all__ = ["BRIGHTNESS_RULE", "is_brightness"]
