"""The configuration file: who plays, the engine's level, buttons, where games are saved.

The board profile says how a board is wired; this file says how the people at it want to
play, so one profile serves every household. Every key is optional and every problem is
one line naming the file, the key and what is wrong. A commented example lives in
app/table/tabletop.example.toml; on a Pi it is installed as /etc/tabletop/tabletop.toml.

Game options have a table per game (``[options.kulami]``, ``[options.conhex]``), so one
file serves whichever board it is installed with. Each is checked by its game's typed
options, as a record's are: ``handicap = 2.0`` is refused by name with the allowed
values instead of reaching a record. They are for a new game: a game in progress keeps
the options, seats and level of its record.

``[engines]`` names an outside engine per game, a GTP program that plays the engine's
moves and gives the hints in place of our own search (:mod:`app.table.outside_engine`):
``blokus-duo = "pentobi-gtp --game duo --level 5 --quiet --nobook"``, a command line split
as a shell would, or a table ``[engines.blokus-duo]`` with ``command`` and a
``timeout_s`` of its own. ``timeout_s`` in ``[engines]`` is how long every engine may
take for one answer (default 60 seconds); a program that fails is reported and our own
engine plays on. A missing program is such a failure, not a configuration error: the
board still plays.

``[remote]`` says which MQTT broker the board plays boards far away through. The table
keeps it as written (:attr:`Config.remote`) and ``tabletop run`` has it checked by
:func:`app.remote.config.parse`, key by key in one line each as here: the table layer
knows nothing of the link to a board far away.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from app import games
from app.errors import ConfigError, kind_words
from app.hardware.brightness import BRIGHTNESS_RULE, is_brightness
from app.hardware.profile import GPIO_PINS, SPI0_PINS, Profile
from app.table.outside_engine import DEFAULT_TIMEOUT_S, MAX_TIMEOUT_S, EngineCommand
from app.table.seats import TABLE_KINDS, SeatError, parse
from app.table.store import default_data_dir
from app.textfile import read_text
from engines import OptionError
from engines.players import DEFAULT_LEVEL, LEVELS, MAX_LEVEL

#: Where ``tabletop run`` looks when no ``--config`` is given.
SYSTEM_CONFIG = Path("/etc/tabletop/tabletop.toml")
#: Digits in the web page's pairing code (app/web/pairing.py): a fixed one is checked
#: here, as the rest of the file is.
CODE_DIGITS = 6
#: Where ``tabletop run`` serves its web page unless ``[web]`` says otherwise: every
#: address of the board, whatever the network gives it and when, port 80, so that
#: ``http://tabletop.local/`` finds it.
WEB_DEFAULT = "lan:80"
#: What the buttons do, in the order a maker usually wires them.
BUTTON_ACTIONS = ("confirm", "hint", "undo", "new_game")


@dataclass(frozen=True)
class Config:
    path: Path | None
    data_dir: Path
    seats: Mapping[str, str] = field(default_factory=lambda: {"b": "person", "w": "engine"})
    level: int = DEFAULT_LEVEL
    seed: int | None = None
    show_legal: bool = True
    #: Game name -> the options for a new game of it.
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    buttons: Mapping[str, int] = field(default_factory=dict)
    poll_s: float = 0.01
    blink_s: float = 0.5
    #: ``[leds] brightness``: overrides the profile's, 0 < b <= 1 (``None``: the profile's).
    brightness: float | None = None
    #: ``[engines]``: game name -> the outside engine that plays it (none: ours).
    engines: Mapping[str, EngineCommand] = field(default_factory=dict)
    #: ``[web]``: the page on the home network, as ``[HOST:]PORT`` (``lan``: every
    #: address, following the network), or ``None`` when it is off; a fixed pairing
    #: code, or a new one at each start (``None``).
    web: str | None = field(default_factory=lambda: WEB_DEFAULT)
    pairing_code: str | None = None
    #: ``[remote]`` as written, for :func:`app.remote.config.parse` (``None``: no such
    #: table, the board plays no board far away).
    remote: Mapping[str, Any] | None = None

    def options_for(self, game: str) -> dict[str, Any]:
        """The options for a new game of ``game`` (none given: its defaults)."""
        return dict(self.options.get(game, {}))

    def leds(self, profile: Profile) -> Profile:
        """``profile`` with this file's LED brightness, if it sets one."""
        if self.brightness is None:
            return profile
        return replace(profile, leds=replace(profile.leds, brightness=self.brightness))

    def check_buttons(self, profile: Profile) -> None:
        """Refuse button pins the profile's sensors or LEDs already use."""
        used = set(profile.sensors.row_pins) | set(profile.sensors.column_pins)
        if profile.leds.driver == "neopixel_spi":
            used |= SPI0_PINS
        if profile.leds.pin:
            used.add(int(profile.leds.pin[1:]))
        for action, pin in self.buttons.items():
            if pin in used:
                raise ConfigError(f"{self.path}: buttons.{action}: GPIO{pin} is used by "
                                  f"profile {profile.name}")


def load_config(path: Path | str | None = None,
                environ: Mapping[str, str] = os.environ) -> Config:
    """The configuration in ``path``; with none, /etc/tabletop/tabletop.toml if present,
    else the defaults."""
    if path is None:
        if not SYSTEM_CONFIG.is_file():
            return Config(None, default_data_dir(environ))
        path = SYSTEM_CONFIG
    path = Path(path)
    try:
        raw = tomllib.loads(read_text(path, ConfigError))
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    return _Reader(path, raw).config(environ)


class _Reader:
    def __init__(self, path: Path, raw: dict) -> None:
        self.path, self.raw = path, raw

    def fail(self, key: str, problem: str) -> ConfigError:
        return ConfigError(f"{self.path}: {key}: {problem}")

    def table(self, data: dict, name: str, known: tuple[str, ...]) -> dict:
        table = data.get(name, {})
        if not isinstance(table, dict):
            raise self.fail(name, "must be a table")
        for key in table:
            if key not in known:
                raise self.fail(f"{name}.{key}", f"unknown key (known: {', '.join(known)})")
        return table

    def value(self, data: dict, key: str, name: str, kind: type, default: Any,
              ok=lambda v: True, problem: str = "") -> Any:
        if name not in data:
            return default
        value = data[name]
        if isinstance(value, bool) != (kind is bool) or not isinstance(value, kind):
            raise self.fail(key, f"must be {kind_words(kind)}, not {value!r}")
        if not ok(value):
            raise self.fail(key, f"{problem}, not {value!r}")
        return value

    def seat(self, game: dict, name: str, default: str) -> str:
        """``[game] first`` or ``second``: a seat's word the table offers."""
        word = self.value(game, f"game.{name}", name, str, default)
        try:
            return parse(word, TABLE_KINDS).kind
        except SeatError as error:
            raise self.fail(f"game.{name}", str(error)) from None

    def level(self, game: dict) -> int:
        """``[game] level``: a number of the engine's levels, or ``"max"``."""
        level = game.get("level", DEFAULT_LEVEL)
        if level == "max":
            return MAX_LEVEL
        if type(level) is not int or level not in LEVELS:
            raise self.fail("game.level", f"must be {', '.join(map(str, LEVELS))} or "
                                          f"\"max\", not {level!r}")
        return level

    def options(self) -> dict[str, dict[str, Any]]:
        """Each game's table of ``options``, checked option by option by its typed
        options, then together by making a board of them (a Kulami layout name or text)."""
        tables = self.table(self.raw, "options", tuple(games.GAMES))
        return {game: self.game_options(game, raw) for game, raw in tables.items()}

    def game_options(self, game: str, raw: Any) -> dict[str, Any]:
        where = f"options.{game}"
        if not isinstance(raw, dict):
            raise self.fail(where, "must be a table")
        cls = games.game(game).board_class
        spec = {option.name: option for option in cls.OPTIONS}
        checked = {}
        for key, value in raw.items():
            option = spec.get(key)
            if option is None:
                raise self.fail(f"{where}.{key}", f"{game} has no such option "
                                f"(options: {', '.join(spec) or 'none'})")
            try:
                checked[key] = option.accept(value)
            except OptionError:
                raise self.fail(f"{where}.{key}",
                                f"must be {option.allowed()}, not {value!r}") from None
        try:
            cls.new(**checked)
        except OptionError as error:
            raise self.fail(where, str(error)) from None
        return checked

    def engines(self) -> dict[str, EngineCommand]:
        """``[engines]``: per game a command line, or a table of ``command`` and
        ``timeout_s``; ``timeout_s`` beside them is every engine's time limit."""
        table = self.table(self.raw, "engines", (*games.GAMES, "timeout_s"))
        default = self.timeout(table, "engines.timeout_s", DEFAULT_TIMEOUT_S)
        engines = {}
        for game, entry in table.items():
            if game == "timeout_s":
                continue
            where, timeout = f"engines.{game}", default
            if isinstance(entry, dict):
                for key in entry:
                    if key not in ("command", "timeout_s"):
                        raise self.fail(f"{where}.{key}",
                                        "unknown key (known: command, timeout_s)")
                timeout = self.timeout(entry, f"{where}.timeout_s", default)
                if "command" not in entry:
                    raise self.fail(f"{where}.command", "missing: the engine's command line")
                where, entry = f"{where}.command", entry["command"]
            if not isinstance(entry, str):
                raise self.fail(where, f"must be a command line in quotes, not {entry!r}")
            try:
                engines[game] = EngineCommand.parse(entry, timeout)
            except ValueError as error:
                raise self.fail(where, f"must be a command line that names a program, not "
                                       f"{entry!r} ({error})") from None
        return engines

    def web(self) -> tuple[str | None, str | None]:
        """``[web]``: ``enabled``, ``host``, ``port`` and ``pairing_code``, as the address
        the page is served on (``None``: off) and the fixed code, if any."""
        table = self.table(self.raw, "web", ("enabled", "host", "port", "pairing_code"))
        if not table:
            return WEB_DEFAULT, None
        enabled = self.value(table, "web.enabled", "enabled", bool, True)
        host = self.value(table, "web.host", "host", str, "lan",
                          lambda v: bool(v.strip()) and not any(c in v for c in " /\0"),
                          "must be \"lan\" or an address of this machine")
        port = self.value(table, "web.port", "port", int, 80, lambda v: 1 <= v <= 65535,
                          "must be a port, 1 to 65535")
        code = self.value(table, "web.pairing_code", "pairing_code", str, None,
                          lambda v: len(v) == CODE_DIGITS and v.isdigit(),
                          f"must be {CODE_DIGITS} digits")
        return (f"{host}:{port}" if enabled else None), code

    def timeout(self, table: dict, key: str, default: float) -> float:
        value = table.get("timeout_s", default)
        if (isinstance(value, bool) or not isinstance(value, (int, float))
                or not 0 < value <= MAX_TIMEOUT_S):
            raise self.fail(key, f"must be a number of seconds above 0 and at most "
                                 f"{MAX_TIMEOUT_S:g}, not {value!r}")
        return float(value)

    def config(self, environ: Mapping[str, str]) -> Config:
        known = ("data_dir", "game", "options", "buttons", "loop", "leds", "engines", "web",
                 "remote")
        for key in self.raw:
            if key not in known:
                raise self.fail(key, f"unknown key (known: {', '.join(known)})")
        data_dir = self.value(self.raw, "data_dir", "data_dir", str, "", str.strip,
                              "must name a directory")
        if "\0" in data_dir:
            # TOML spells one as \u0000; no path holds it, and the record store's mkdir
            # would end the command in a traceback (ValueError: embedded null byte).
            raise self.fail("data_dir", f"must be a directory's path, which holds no NUL "
                                        f"character, not {data_dir!r}")
        game = self.table(self.raw, "game", ("first", "second", "level", "seed",
                                             "show_legal"))
        seats = {player: self.seat(game, name, default)
                 for player, name, default in (("b", "first", "person"),
                                               ("w", "second", "engine"))}
        buttons = self.table(self.raw, "buttons", BUTTON_ACTIONS)
        for action, pin in buttons.items():
            self.value(buttons, f"buttons.{action}", action, int, None,
                       GPIO_PINS.__contains__, "must be a BCM GPIO number 2-27")
        taken: dict[int, str] = {}
        for action, pin in buttons.items():
            if pin in taken:
                raise self.fail(f"buttons.{action}", f"GPIO{pin} is also {taken[pin]}")
            taken[pin] = action
        loop = self.table(self.raw, "loop", ("poll_ms", "blink_ms"))
        poll = self.value(loop, "loop.poll_ms", "poll_ms", int, 10, lambda v: 1 <= v <= 1000,
                          "must be 1 to 1000")
        blink = self.value(loop, "loop.blink_ms", "blink_ms", int, 500,
                           lambda v: 50 <= v <= 5000, "must be 50 to 5000")
        leds = self.table(self.raw, "leds", ("brightness",))
        brightness = leds.get("brightness")
        if brightness is not None and not is_brightness(brightness):
            raise self.fail("leds.brightness",
                            f"must be a number {BRIGHTNESS_RULE}, not {brightness!r}")
        return Config(
            self.path, Path(data_dir) if data_dir else default_data_dir(environ), seats,
            self.level(game),
            self.value(game, "game.seed", "seed", int, None),
            self.value(game, "game.show_legal", "show_legal", bool, True),
            self.options(), dict(buttons), poll / 1000, blink / 1000,
            None if brightness is None else float(brightness), self.engines(), *self.web(),
            self.raw.get("remote"))
