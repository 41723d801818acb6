"""What every game's compiled core shares with the others: loading it (said once in the
log where it was not built: the engine then plays in Python), the switch between it and
the pure-Python reference (``TABLETOP_ENGINE=python`` turns it off for a process,
``use`` for a test or a benchmark), and whether a generator draws as the core expects.
Each game's ``compiled`` module keeps what is its own: why its core is in C and how its
positions cross into it."""

from __future__ import annotations

import importlib
import logging
import os
import random
from types import ModuleType

#: The environment variable that, set to ``python``, keeps every engine in Python.
ENVIRONMENT = "TABLETOP_ENGINE"


def load(module: str, title: str) -> ModuleType | None:
    """The compiled core ``module`` (``engines.kulami._core``), or ``None`` where the
    install could not build it, said once under the game's ``title``."""
    try:
        return importlib.import_module(module)
    except ImportError as error:  # no compiler where it was installed
        logging.getLogger(module.rpartition(".")[0] + ".compiled").warning(
            "%s's compiled core is not built (%s): playing in Python", title, error)
        return None


class Switch:
    """Whether a game plays through its compiled ``core``: built, and not turned off."""

    def __init__(self, core: ModuleType | None) -> None:
        self.core = core
        self.on = core is not None and os.environ.get(ENVIRONMENT) != "python"

    def available(self) -> bool:
        """Whether the compiled core was built here."""
        return self.core is not None

    def enabled(self) -> bool:
        """Whether the engine plays through the compiled core now."""
        return self.on

    def use(self, compiled: bool) -> None:
        """Play through the compiled core (when built) or, with ``False``, in Python."""
        self.on = compiled and self.core is not None


def draws_alike(rng: random.Random) -> bool:
    """Whether a core draws from ``rng`` as the Python code would: ``random.Random``
    itself (a subclass may draw otherwise)."""
    return type(rng) is random.Random
