"""One raw change of one hole's sensor: the record the sensor logs write and read, the
scripted hand produces and the pipeline consumes, so a generated placement and a logged
one are the same value."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


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
