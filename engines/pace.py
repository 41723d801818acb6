"""How many times slower than the development machine this one runs the engine: the
factor a game's own cap in seconds (a policy's ``most_seconds``) is multiplied by.

Why: the levels are budgets of playouts, the same strength wherever the search runs to
its end; a cap in seconds breaks that, since on a Pi 4 (about five times slower) the
same cap stops the search at a fifth of its budget, and a level plays weaker there than
here. Scaled by the pace, the cap lets the search make there the playouts it makes here
(``engines.players`` keeps the absolute cap of seconds a person will wait above it).

The pace is measured once per process, the first time a capped search asks: a short,
fixed workload (:data:`WORKLOAD` rounds of the bit work every engine's search is made
of, listing the points of 128-bit masks with :func:`engines.bits.indices`, in Python, so
that it names no game and costs nothing to import) timed, best of :data:`REPEATS`,
against what it takes on the development machine (:data:`REFERENCE_SECONDS`), never
below 1: a faster machine keeps the caps as set. A Pi runs Python and compiled code
alike several times slower than the development machine (about five times on a Pi 4),
so one factor serves both paths. A
machine loaded by other work measures slower, and its caps grow with it, so that the
level keeps its strength there too (``TABLETOP_PACE=1`` keeps the caps as set, a
benchmark's choice where the seconds are the point). It costs under a tenth of a second
here, about a second on a Pi Zero 2 W. ``TABLETOP_PACE`` in the environment sets
it by hand (``5`` on a Pi 4 that is not to measure itself).
"""

from __future__ import annotations

import logging
import os
import random
import threading
import time

from engines.bits import indices

#: The environment variable that sets the pace by hand.
ENVIRONMENT = "TABLETOP_PACE"
#: Rounds of the workload: masks whose points are listed.
WORKLOAD = 1_500
#: Seconds the workload takes on the development machine (x86-64, 2 cores), the best of
#: many runs with nothing else running (with other work sharing its cores it measures
#: up to several times slower, and its caps grow to match).
REFERENCE_SECONDS = 0.013
#: Times the workload runs; the fastest counts (a moment's load elsewhere is not pace).
REPEATS = 5

_log = logging.getLogger(__name__)
_lock = threading.Lock()
_pace: float | None = None


def pace() -> float:
    """This machine's pace (1: the development machine's or faster), measured the first
    time and kept, or as ``TABLETOP_PACE`` sets it."""
    global _pace
    with _lock:
        if _pace is None:
            _pace = _by_hand() or measure()
        return _pace


def forget() -> None:
    """Measure again at the next :func:`pace` (tests; a process told a new pace)."""
    global _pace
    with _lock:
        _pace = None


def measure() -> float:
    """The workload's best time of :data:`REPEATS` over the development machine's."""
    best = min(_workload(WORKLOAD) for _ in range(REPEATS))
    measured = max(1.0, best / REFERENCE_SECONDS)
    _log.info("engine pace %.2f (workload %.3f s)", measured, best)
    return measured


def _workload(rounds: int) -> float:
    """Seconds to list the points of ``rounds`` masks, the same masks every time."""
    rng = random.Random(0)
    masks = [rng.getrandbits(128) for _ in range(64)]
    started = time.perf_counter()
    for round_ in range(rounds):
        indices(masks[round_ % len(masks)])
    return time.perf_counter() - started


def _by_hand() -> float | None:
    """``TABLETOP_PACE``'s factor; ``None`` when unset, or said once in the log and
    ignored when it is not a number of at least 1."""
    text = os.environ.get(ENVIRONMENT)
    if text is None or not text.strip():
        return None
    try:
        factor = float(text)
    except ValueError:
        factor = None
    if factor is None or not factor >= 1.0 or factor == float("inf"):
        _log.warning("%s must be a number of at least 1, not %r: measuring the pace",
                     ENVIRONMENT, text)
        return None
    return factor
