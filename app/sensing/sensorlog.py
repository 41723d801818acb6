"""Sensor logs: raw readings as JSON lines, and their replay through the real pipeline.

A maker whose board misbehaves records what the sensors said and replays it at a desk;
the tests replay generated logs the same way. The first line is a header (game, options,
profile, whether colour is sensed); each further line is one raw change of one hole:
``{"t": seconds, "hole": "d4", "on": true, "channel": 33}`` (plus ``"colour"`` when
sensed). ``app.table.replay`` plays a log through the pipeline.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import IO, Any

from app.errors import SensorLogError
from app.hardware.profile import Profile
from app.hardware.sensors import Scan
from engines.core import PLAYERS

FORMAT = "tabletop-sensors"
VERSION = 1


@dataclass(frozen=True)
class Header:
    game: str
    options: Mapping[str, Any] = field(default_factory=dict)
    profile: str = ""
    colour: bool = False

    def to_json(self) -> str:
        return json.dumps({"log": FORMAT, "version": VERSION, "game": self.game,
                           "options": dict(self.options), "profile": self.profile,
                           "colour": self.colour})


@dataclass(frozen=True)
class Reading:
    """One raw change: at ``t`` seconds, ``hole`` (on sensor ``channel``) went on or off."""

    t: float
    hole: str
    on: bool
    channel: int | None = None
    colour: str | None = None

    def to_json(self) -> str:
        line: dict[str, Any] = {"t": self.t, "hole": self.hole, "on": self.on}
        if self.channel is not None:
            line["channel"] = self.channel
        if self.colour is not None:
            line["colour"] = self.colour
        return json.dumps(line)


class LogWriter:
    """Writes a header, then one line per hole that changed between successive scans."""

    def __init__(self, stream: IO[str], header: Header, profile: Profile | None = None) -> None:
        self.stream = stream
        self._channels = {name: hole.channel for name, hole in profile.holes.items()} \
            if profile else {}
        self._last: dict[str, tuple[bool, str | None]] = {}
        stream.write(header.to_json() + "\n")

    def scan(self, t: float, scan: Scan) -> None:
        """Record the holes of ``scan`` (taken at ``t`` seconds) that changed."""
        for hole, on in scan.items():
            state = (on, scan.colours.get(hole) if on else None)
            if self._last.get(hole, (False, None)) != state:
                self._last[hole] = state
                self.stream.write(Reading(round(t, 4), hole, on, self._channels.get(hole),
                                          state[1]).to_json() + "\n")


def read_log(lines: Iterable[str]) -> tuple[Header, list[Reading]]:
    """Parse a log; raises :class:`SensorLogError` naming the first bad line."""
    header: Header | None = None
    readings: list[Reading] = []
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise SensorLogError(f"line {number}: not JSON ({error.msg})") from None
        if not isinstance(data, dict):
            raise SensorLogError(f"line {number}: expected a JSON object")
        if header is None:
            header = _header(number, data)
        else:
            readings.append(_reading(number, data, readings[-1].t if readings else -math.inf))
    if header is None:
        raise SensorLogError("the log is empty (expected a header line)")
    return header, readings


def _header(number: int, data: dict) -> Header:
    if data.get("log") != FORMAT or data.get("version") != VERSION:
        raise SensorLogError(f"line {number}: not a {FORMAT} log of version {VERSION}")
    game, options = data.get("game"), data.get("options", {})
    if not isinstance(game, str) or not isinstance(options, dict):
        raise SensorLogError(f"line {number}: the header needs a game name and an options "
                             f"object")
    return Header(game, options, str(data.get("profile", "")), bool(data.get("colour")))


def _reading(number: int, data: dict, previous: float) -> Reading:
    t, hole, on = data.get("t"), data.get("hole"), data.get("on")
    if not isinstance(t, (int, float)) or isinstance(t, bool) or not math.isfinite(t):
        raise SensorLogError(f"line {number}: t must be a number of seconds, not {t!r}")
    if t < previous:
        raise SensorLogError(f"line {number}: t {t} goes back in time (previous {previous})")
    if not isinstance(hole, str) or not isinstance(on, bool):
        raise SensorLogError(f"line {number}: needs a hole name and on true or false")
    colour = data.get("colour")
    if colour is not None and colour not in PLAYERS:
        raise SensorLogError(f"line {number}: colour must be b or w, not {colour!r}")
    return Reading(float(t), hole, on, data.get("channel"), colour)
