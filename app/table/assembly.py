"""One way to put a table together, for every front end.

A table is a profile's devices (the LED strip, the sensors, the buttons), a record store,
a session resumed from it or started in it, and the loop that turns them. ``tabletop
run``, ``tabletop simulate`` and ``tabletop play`` all build it from the configuration
(:meth:`Assembly.configured`: seats, level, seed, ``[options]``, ``[engines]``); the
simulator on a ``-sim`` profile, the self-test only the devices, ``tabletop play`` only
the store and a session with no board. Each goes through :class:`Assembly`, so how a
table is built (the strip opened first, a game resumed or started, the sensors' colour
sense passed to the session) is decided here once.

Games change while the loop turns: the screen's menu and the page ask for a new game
(:func:`start_game`, the one way a new game with its seats begins) or a saved one, from
inside a turn of the loop. :class:`Asked` holds what was asked until the turn is over,
and whoever runs the loop carries it out between turns, so a session is never replaced
while a turn of the loop is still working on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from app.hardware.buttons import Buttons
from app.hardware.devices import open_source, open_strip
from app.hardware.leds import LedStrip
from app.hardware.profile import Profile
from app.hardware.sensors import SensorSource
from app.table.loop import Table
from app.table.session import Session
from app.table.store import RecordStore
from app.table.outside_engine import EngineCommand, OutsideEngines
from app.table.thinker import InlineThinker, Thinker
from app.table.seats import parse_seats


@dataclass
class Devices:
    """A board's open devices; ``close`` turns the LEDs off last."""

    strip: LedStrip
    source: SensorSource | None = None
    buttons: Buttons | None = None

    def close(self) -> None:
        """Close the buttons, the sensors and the strip, each even if one before fails."""
        try:
            if self.buttons is not None:
                self.buttons.close()
        finally:
            try:
                if self.source is not None:
                    self.source.close()
            finally:
                self.strip.close()


def open_devices(profile: Profile, *, sensors: bool = True,
                 buttons: Mapping[str, int] | None = None) -> Devices:
    """The devices ``profile`` describes: the strip first (a board that cannot light its
    holes cannot play, and must not start and save a game either), then the buttons
    (action -> GPIO pin) and the sensors if asked. One that fails closes the ones opened
    before its error goes on; a real device never turns into a simulated one."""
    devices = Devices(open_strip(profile))
    try:
        if buttons:
            devices.buttons = Buttons(buttons)
        if sensors:
            devices.source = open_source(profile)
    except BaseException:
        devices.close()
        raise
    return devices


@dataclass
class Assembly:
    """What a table is built from: its ``store`` (which names the profile its games are
    played on; ``None``: nothing is saved, and only new games are played), the
    ``profile`` (``None`` for a game with no board), and what a new session is given
    (seats, level, seed, ``show_legal``, a ``thinker``); a resumed game keeps what its
    record says of them. ``engines`` are the configuration's outside engines (game ->
    command): the games they name are theirs to play, with the ``thinker`` (our own
    search) for the others and after a failure; :meth:`close` ends their programs."""

    store: RecordStore | None
    profile: Profile | None = None
    settings: Mapping[str, Any] = field(default_factory=dict)
    thinker: Thinker | None = None
    engines: Mapping[str, EngineCommand] = field(default_factory=dict)

    @classmethod
    def configured(cls, config, store: RecordStore | None, profile: Profile | None = None,
                   *, thinker: Thinker | None = None, **overrides: Any) -> "Assembly":
        """The table ``config`` (:class:`~app.table.config.Config`) describes: its seats,
        level, seed and ``show_legal`` for a new game, its outside engines; ``overrides``
        (a front end's own flags, such as ``tabletop play --level``) replace settings of
        the file. Every front end assembles its table here, so one file serves them all."""
        settings = dict(seats=dict(config.seats), level=config.level, seed=config.seed,
                        show_legal=config.show_legal)
        settings.update({key: value for key, value in overrides.items()
                         if value is not None})
        return cls(store, profile, settings=settings, thinker=thinker,
                   engines=config.engines)

    def __post_init__(self) -> None:
        if self.engines:
            self.thinker = OutsideEngines(self.engines, self.thinker or InlineThinker())

    def close(self) -> None:
        """The table stops: end what the thinker keeps running (outside engines)."""
        if self.thinker is not None:
            self.thinker.close()

    def _kwargs(self, overrides: Mapping[str, Any]) -> dict[str, Any]:
        physical = self.profile is not None
        kwargs = dict(self.settings, physical=physical, thinker=self.thinker)
        if physical:
            kwargs["colour_sensing"] = self.profile.sensors.colour
        return {**kwargs, **overrides}

    def session(self, game: str, options: Mapping[str, Any], *, record: str | None = None,
                new: bool = False, **overrides: Any) -> Session:
        """The game of ``game`` in progress on this board (or the saved ``record``),
        else a new one with ``options``; ``new`` starts one whatever is saved.
        ``overrides`` change the session's settings for this one (a seed of its own, a
        finished game not shown again: ``finished=False``)."""
        kwargs = self._kwargs(overrides)
        if new or self.store is None:
            kwargs.pop("finished", None)
            kwargs.pop("report_kept", None)
            return Session.start_new(self.store, game, options, **kwargs)
        return Session.resume_or_start(self.store, game, options, record=record, **kwargs)

    def table(self, session: Session, devices: Devices, **loop: Any) -> Table:
        """The loop that turns ``session`` on ``devices`` (``loop``: the screen, the
        notifier, the blink period)."""
        return Table(session, self.profile, devices.strip, devices.source,
                     buttons=devices.buttons, **loop)


def start_game(session: Session, game: str, options: Mapping[str, Any],
               seats: Mapping[str, Any], level: int) -> None:
    """A new game of ``game`` with ``options`` on ``session``'s board, with these seats
    and level: the one way the touch screen's menu and the page start a game on a board
    (the simulator, which changes boards, starts its new board's session with them)."""
    session.set_players(parse_seats(seats), level)
    session.new_game(game, **options)


class Asked:
    """What the screen's menu or the page asked for during a turn of the table loop (a
    new game, a saved one), kept until the turn is over: the last asked wins, as a
    second tap overrides the first. Whoever turns the loop takes it between turns."""

    def __init__(self) -> None:
        self._asked: tuple[str, Any] | None = None

    def new(self, choice: Any) -> None:
        """A new game (the menu's or the page's choice)."""
        self._asked = ("new", choice)

    def load(self, saved: Any) -> None:
        """A saved game from the load list."""
        self._asked = ("load", saved)

    def take(self) -> tuple[str, Any] | None:
        """What was asked since the last take: ``("new", choice)``, ``("load", saved)``
        or ``None``."""
        asked, self._asked = self._asked, None
        return asked
