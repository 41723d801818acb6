"""Colours for the areas of a board, such that areas sharing an edge differ.

Kulami's panels, ConHex's cells, any board's areas where the board places their holes: the
terminal's shades, the simulator's woods and the setup scene's LED colours all tell
neighbouring areas apart the same way, whatever the game, so it lives here, beside the
engines and in none of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping


def colour_panels(panels: Mapping[str, Iterable[tuple[int, int]]], colours: int
                  ) -> dict[str, int]:
    """A colour index below ``colours`` per panel, such that panels sharing an edge differ.

    ``panels`` maps a name to its fields on one grid: a layout's panels, or any board's
    areas where the board places their holes. The terminal's shades, the simulator's woods and the
    setup scene's LED colours all come from here. Panels on a grid are a planar map, so
    four colours always suffice; a greedy colouring does not find them on every layout
    (square-3 ran out of shades), so this backtracks, trying the panel with the fewest
    colours left first, which keeps the search to a few steps. Fewer colours than a map
    needs is a ``ValueError``.
    """
    owner = {field: name for name, fields in panels.items() for field in fields}
    touching: dict[str, set[str]] = {name: set() for name in panels}
    for (x, y), name in owner.items():
        for other in (owner.get((x + 1, y)), owner.get((x, y + 1))):
            if other is not None and other != name:
                touching[name].add(other)
                touching[other].add(name)
    colour: dict[str, int] = {}

    def taken(name: str) -> set[int]:
        return {colour[other] for other in touching[name] if other in colour}

    def paint() -> bool:
        if len(colour) == len(touching):
            return True
        name = min((n for n in touching if n not in colour),
                   key=lambda n: (-len(taken(n)), -len(touching[n]), n))
        for candidate in sorted(set(range(colours)) - taken(name)):
            colour[name] = candidate
            if paint():
                return True
            del colour[name]
        return False

    if not paint():
        raise ValueError(f"these panels need more than {colours} colours")
    return colour
