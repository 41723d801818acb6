"""A sensor log played through the board's own session, one JSON-ready record per event.

This is what ``tabletop sensors replay`` prints: a maker whose board misbehaves records
what the sensors said and replays it at a desk, and the tests replay generated logs the
same way. The readings go through the same :class:`~app.table.session.Session` (and so
the same pipeline) as on the board, two people seated and nothing saved, so the replay
shows exactly what the board would have done: the moves, the takebacks, what it asked
to fix, the corrections it offered, the sensors it stopped believing.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from typing import Any

from app.games import new_game
from app.sensing.pipeline import DEBOUNCE_S, SETTLE_S
from app.table.sensorlog import Header, Reading
from app.table.roles import ROLES, hole_roles
from app.table.session import Session

#: Roles only the session knows of, most urgent first, ahead of the game's own.
SESSION_ROLES = ("fault", "error", "suggestion", "candidate", "seen")


def replay(header: Header, readings: Iterable[Reading], *, debounce: float = DEBOUNCE_S,
           settle: float = SETTLE_S) -> Iterator[dict[str, Any]]:
    """Feed readings to a session of a new game; yield one record per thing that
    happened, with the log time ``t`` and the holes lit by role once it had happened,
    then let the board settle at the end."""
    session = Session(new_game(header.game, **header.options),
                      seats={"b": "person", "w": "person"}, debounce=debounce,
                      settle=settle, colour_sensing=header.colour)
    now = [0.0]
    told: list[dict[str, Any]] = []

    def listen(what: str, details: dict[str, Any]) -> None:
        """Each record is lit as things stood after it: when the next one is told, or
        when the session's call returns."""
        if told:
            told[-1].setdefault("lights", _lights(session))
        told.append({"t": round(now[0], 4), "event": what, **details})

    def lit() -> Iterator[dict[str, Any]]:
        while told:
            record = told.pop(0)
            record.setdefault("lights", _lights(session))
            yield record

    session.listener = listen

    def until(t: float) -> Iterator[dict[str, Any]]:
        while (due := session.pipeline.deadline) is not None and due <= t:
            now[0] = due
            session.tick(due)
            yield from lit()

    for reading in readings:
        yield from until(reading.t)
        now[0] = reading.t
        session.on_reading(reading.hole, reading.on, reading.t, reading.colour)
        yield from lit()
    yield from until(math.inf)


def _lights(session: Session) -> dict[str, list[str]]:
    """Role -> sorted holes, as the board lights them now: the game's roles of each hole,
    with what the session lights over them read off its view's scene, the one the LEDs,
    the screen and the page show at this revision."""
    roles = hole_roles(session.board, session.sync)
    scene = session.view().scene
    holes = set(session.board.holes)
    for role in reversed(SESSION_ROLES):
        roles.update(dict.fromkeys(scene.named(role) & holes, role))
    grouped = {role: sorted(h for h, r in roles.items() if r == role)
               for role in SESSION_ROLES + ROLES}
    return {role: holes for role, holes in grouped.items() if holes}
