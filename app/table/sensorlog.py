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
from pathlib import Path
from typing import IO, Any

from app.errors import SensorLogError, describe
from app.games import new_game
from app.hardware.profile import Profile, load_profile, shipped_profiles
from app.hardware.sensors import Scan
from app.sensing.reading import Reading
from app.textfile import decode
from engines.core import PLAYERS
from engines.errors import EngineError

FORMAT = "tabletop-sensors"
VERSION = 1
#: The keys of the header line and of a reading line; any other is refused by name.
HEADER_KEYS = ("log", "version", "game", "options", "profile", "colour")
READING_KEYS = ("t", "hole", "on", "channel", "colour")
#: The largest time a log may give, in seconds (about 31 years): readings are stamped from
#: the start of the recording, and beyond this a float no longer keeps the milliseconds
#: apart that debouncing counts in (at 1e20 two readings a hundred years apart are equal).
LONGEST_S = 1e9


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


def read_log(lines: Iterable[str | bytes], profile: Profile | None = None
             ) -> tuple[Header, list[Reading]]:
    """Parse a log; raises :class:`SensorLogError` naming the first bad line.

    Lines may be bytes, as a file opened ``"rb"`` yields them: each is decoded here, so
    a byte that is not UTF-8 is reported with its line and its offset in the file.
    Readings must name holes of the board the log was recorded on: ``profile`` when the
    caller knows it, else the shipped profile the header names, else the holes of the
    header's game. A hole outside them would be ignored by the pipeline, so a log with
    a misnamed hole would replay a game that never happened without a word. For the
    same reason a ``profile`` of another game than the log's is refused (it would be
    passed over for the header's own board), and so is a key a reading line does not
    have: a misspelt ``"colour"`` would leave the reading colourless and its move lost.
    """
    header: Header | None = None
    holes: tuple[frozenset[str], str] = (frozenset(), "")
    readings: list[Reading] = []
    offset = 0
    for number, line in enumerate(lines, 1):
        if isinstance(line, bytes):
            text = decode(line, f"line {number}", SensorLogError, offset=offset)
            offset += len(line)
        else:
            text = line
        if not text.strip():
            continue
        data = _json(number, text)
        if header is None:
            header = _header(number, data)
            if profile is not None and profile.game != header.game:
                raise SensorLogError(f"the log is a {header.game} game and profile "
                                     f"{profile.name} a {profile.game} board")
            holes = _holes(number, header, profile)
        else:
            readings.append(_reading(number, data, readings[-1].t if readings else -math.inf,
                                     holes))
    if header is None:
        raise SensorLogError("the log is empty (expected a header line)")
    return header, readings


def read_log_file(path: str | Path, profile: Profile | None = None
                  ) -> tuple[Header, list[Reading]]:
    """:func:`read_log` of the file at ``path``; every error is one line that starts
    with the path."""
    try:
        with open(path, "rb") as stream:
            return read_log(stream, profile)
    except OSError as error:
        raise SensorLogError(f"{path}: cannot read: {error.strerror or describe(error)}") \
            from None
    except SensorLogError as error:
        raise SensorLogError(f"{path}: {error}") from None


def _json(number: int, text: str) -> dict:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise SensorLogError(f"line {number}: not JSON ({error.msg})") from None
    except ValueError:  # an integer of more digits than Python will convert
        raise SensorLogError(f"line {number}: not JSON (a number too long)") from None
    except RecursionError:
        raise SensorLogError(f"line {number}: not JSON (nested too deeply)") from None
    if not isinstance(data, dict):
        raise SensorLogError(f"line {number}: expected a JSON object")
    return data


def _header(number: int, data: dict) -> Header:
    if data.get("log") != FORMAT or data.get("version") != VERSION:
        raise SensorLogError(f"line {number}: not a {FORMAT} log of version {VERSION}")
    _known_keys(number, data, HEADER_KEYS, "the header")
    game, options = data.get("game"), data.get("options", {})
    if not isinstance(game, str) or not isinstance(options, dict):
        raise SensorLogError(f"line {number}: the header needs a game name and an options "
                             f"object")
    profile, colour = data.get("profile", ""), data.get("colour", False)
    if not isinstance(profile, str) or not isinstance(colour, bool):
        raise SensorLogError(f"line {number}: the header's profile must be a name and its "
                             f"colour true or false")
    return Header(game, options, profile, colour)


def _holes(number: int, header: Header, profile: Profile | None) -> tuple[frozenset[str], str]:
    """The holes readings may name, and how to call them in an error: those of the
    first of ``profile`` and the header's shipped profile that is a board of the log's
    game."""
    named = load_profile(header.profile) if header.profile in shipped_profiles() else None
    for board in (profile, named):
        if board is not None and board.game == header.game:
            return frozenset(board.holes), f"profile {board.name}"
    try:
        board = new_game(header.game, **header.options)
    except EngineError as error:
        raise SensorLogError(f"line {number}: {describe(error)}") from None
    return frozenset(board.holes), f"this {board.game} board"


def _reading(number: int, data: dict, previous: float,
             holes: tuple[frozenset[str], str]) -> Reading:
    _known_keys(number, data, READING_KEYS, "a reading")
    t, hole, on = data.get("t"), data.get("hole"), data.get("on")
    if not isinstance(t, (int, float)) or isinstance(t, bool) or not _finite(t):
        raise SensorLogError(f"line {number}: t must be a number of seconds, not {t!r}")
    if abs(t) > LONGEST_S:
        raise SensorLogError(f"line {number}: t {t} is out of range (a log's times are "
                             f"seconds from its start, at most {LONGEST_S:.0f})")
    if t < previous:
        raise SensorLogError(f"line {number}: t {t} goes back in time (previous {previous})")
    if not isinstance(hole, str) or not isinstance(on, bool):
        raise SensorLogError(f"line {number}: needs a hole name and on true or false")
    known, board = holes
    if hole not in known:
        raise SensorLogError(f"line {number}: {hole!r} is not a hole of {board}")
    colour, channel = data.get("colour"), data.get("channel")
    for key in ("colour", "channel"):  # a key given as null says nothing: left out it is
        if key in data and data[key] is None:
            raise SensorLogError(f"line {number}: {key} is null; leave the key out for "
                                 f"a reading without one")
    if colour is not None and colour not in PLAYERS:
        raise SensorLogError(f"line {number}: colour must be b or w, not {colour!r}")
    if channel is not None and (not isinstance(channel, int) or isinstance(channel, bool)
                                or channel < 0):
        raise SensorLogError(f"line {number}: channel must be a sensor number, not "
                             f"{channel!r}")
    return Reading(float(t), hole, on, channel, colour)


def _known_keys(number: int, data: dict, keys: tuple[str, ...], what: str) -> None:
    """Refuse a key ``what`` does not have: a misspelt one would be passed over (a
    ``"cOlour"`` leaves a reading colourless), changing the game replayed without a
    word."""
    for key in data:
        if key not in keys:
            raise SensorLogError(f"line {number}: {key!r} is not a key of {what} "
                                 f"(keys: {', '.join(keys)})")


def _finite(t: int | float) -> bool:
    """Whether ``t`` is a time at all: JSON allows ``Infinity`` and ``NaN`` and integers
    too large for a float."""
    try:
        return math.isfinite(t)
    except OverflowError:
        return False
