"""A sensor log played through the real pipeline, one JSON-ready record per event.

This is what ``tabletop sensors replay`` prints: a maker whose board misbehaves records
what the sensors said and replays it at a desk, and the tests replay generated logs the
same way. Moves and takebacks are applied to a new game as a session would.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from typing import Any

from app.sensing.events import (Candidates, Event, InSync, Moved, OutOfSync, Takeback,
                                Waiting)
from app.sensing.pipeline import DEBOUNCE_S, SETTLE_S, Pipeline
from app.sensing.sensorlog import Header, Reading
from app.table.roles import by_role, hole_roles
from app.games import new_game


def replay(header: Header, readings: Iterable[Reading], *, debounce: float = DEBOUNCE_S,
           settle: float = SETTLE_S) -> Iterator[dict[str, Any]]:
    """Feed readings through the pipeline, applying moves and takebacks to a new game as
    a session would; yield one record per event, then let the board settle at the end."""
    board = new_game(header.game, **header.options)
    pipeline = Pipeline(board, debounce=debounce, settle=settle, colour_sensing=header.colour)
    sync: list[OutOfSync | None] = [None]

    def report(t: float, events: list[Event]) -> Iterator[dict[str, Any]]:
        for event in events:
            record: dict[str, Any] = {"t": round(t, 4), **_describe(board, event)}
            if isinstance(event, Moved):
                board.push(event.move)
            elif isinstance(event, Takeback):
                board.pop()
            sync[0] = event if isinstance(event, OutOfSync) else None
            record["lights"] = by_role(hole_roles(board, sync[0]))
            yield record
            if isinstance(event, (Moved, Takeback)):
                yield from report(t, pipeline.resync(board))

    def until(t: float) -> Iterator[dict[str, Any]]:
        while (due := pipeline.deadline) is not None and due <= t:
            yield from report(due, pipeline.tick(due))

    for reading in readings:
        yield from until(reading.t)
        yield from report(reading.t, pipeline.feed(reading.hole, reading.on, reading.t,
                                                   reading.colour))
    yield from until(math.inf)


def _describe(board, event: Event) -> dict[str, Any]:
    """An event as JSON-ready data, moves in the game's (GTP) notation."""
    if isinstance(event, Moved):
        return {"event": "moved", "player": board.turn, "move": board.move_text(event.move)}
    if isinstance(event, Takeback):
        return {"event": "takeback", "move": board.move_text(event.move)}
    if isinstance(event, Candidates):
        return {"event": "candidates", "moves": [board.move_text(m) for m in event.moves]}
    if isinstance(event, Waiting):
        return {"event": "waiting", "extra": sorted(event.extra),
                "missing": sorted(event.missing)}
    if isinstance(event, OutOfSync):
        return {"event": "out_of_sync", "fill": sorted(event.fill),
                "empty": sorted(event.empty)}
    assert isinstance(event, InSync)
    return {"event": "in_sync"}
