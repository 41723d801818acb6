"""Kulami layouts: the panel set, the layout text, named layouts and a generator.

A layout is where the 17 panels lie on one square grid of at most 10x10. Its text form
is like FEN: rows top to bottom separated by ``/``, one character per field, a panel
letter or ``.`` for no field. Everything that builds a layout goes through
:func:`Layout.parse` or :meth:`Layout.check`, so no illegal layout can exist.
"""

from __future__ import annotations

import random
import string
from collections import Counter
from dataclasses import dataclass
from functools import cached_property, lru_cache
from importlib import resources
from types import MappingProxyType

from engines.errors import LayoutError

MAX_SIDE = 10
#: Panel size in fields -> (short side, long side, how many the set has).
PANEL_SET = MappingProxyType({6: (2, 3, 4), 4: (2, 2, 5), 3: (1, 3, 4), 2: (1, 2, 4)})
PANEL_COUNT = sum(count for _, _, count in PANEL_SET.values())
FIELD_COUNT = sum(size * count for size, (_, _, count) in PANEL_SET.items())
PANEL_LETTERS = string.ascii_lowercase


def field_name(x: int, y: int) -> str:
    """``a1`` is the lower-left field of the layout grid."""
    return f"{string.ascii_lowercase[x]}{y + 1}"


@dataclass(frozen=True)
class Layout:
    """A checked arrangement of panels: ``panels`` maps a letter to its fields (x, y)."""

    width: int
    height: int
    panels: MappingProxyType  # letter -> frozenset[(x, y)]

    @classmethod
    def parse(cls, text: str) -> "Layout":
        rows = text.strip().split("/")
        if not text.strip():
            raise LayoutError("layout is empty")
        height, width = len(rows), max(len(row) for row in rows)
        if height > MAX_SIDE or width > MAX_SIDE:
            raise LayoutError(f"layout is {width}x{height}; a Kulami board is at most "
                              f"{MAX_SIDE}x{MAX_SIDE}")
        cells: dict[str, set[tuple[int, int]]] = {}
        for r, row in enumerate(rows):
            for x, char in enumerate(row):
                if char == ".":
                    continue
                if char not in PANEL_LETTERS:
                    raise LayoutError(f"row {r + 1}: {char!r} is neither a panel letter "
                                      f"(a-z) nor '.'")
                cells.setdefault(char, set()).add((x, height - 1 - r))
        return cls.check(width, height, cells)

    @classmethod
    def check(cls, width: int, height: int, cells: dict[str, set]) -> "Layout":
        """Validate panel shapes and the panel set; name the panel and the reason."""
        sizes = Counter()
        for letter, fields in sorted(cells.items()):
            xs = [x for x, _ in fields]
            ys = [y for _, y in fields]
            w, h = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
            if w * h != len(fields):
                raise LayoutError(f"panel {letter}: its {len(fields)} fields are not one "
                                  f"rectangle (a letter used twice, or panels overlapping)")
            if len(fields) not in PANEL_SET or sorted((w, h)) != list(PANEL_SET[len(fields)][:2]):
                raise LayoutError(f"panel {letter}: {w}x{h} is not a Kulami panel "
                                  f"(2x3, 2x2, 1x3 or 1x2)")
            sizes[len(fields)] += 1
        for size, (short, long, count) in PANEL_SET.items():
            if sizes[size] != count:
                raise LayoutError(f"layout has {sizes[size]} panels of {short}x{long}; "
                                  f"the set has {count}")
        panels = {letter: frozenset(fields) for letter, fields in sorted(cells.items())}
        return cls(width, height, MappingProxyType(panels))

    @cached_property
    def panel_of(self) -> dict[tuple[int, int], str]:
        return {field: letter for letter, fields in self.panels.items() for field in fields}

    @cached_property
    def fields(self) -> tuple[tuple[int, int], ...]:
        """All fields, top row first, left to right (a stable order for sensors)."""
        return tuple(sorted(self.panel_of, key=lambda f: (-f[1], f[0])))


    def text(self) -> str:
        rows = []
        for y in reversed(range(self.height)):
            rows.append("".join(self.panel_of.get((x, y), ".") for x in range(self.width)))
        return "/".join(rows)

    def __str__(self) -> str:
        return self.text()


# --- colouring ------------------------------------------------------------------------

# --- named layouts ---------------------------------------------------------------------

def named_layouts() -> dict[str, str]:
    """Shipped layouts by name, from ``layouts.txt`` (``name: text`` per line)."""
    return dict(_shipped_layouts())


@lru_cache(maxsize=1)
def _shipped_layouts() -> dict[str, str]:
    """``layouts.txt`` read once: it ships with the package and never changes while the
    program runs, and every snapshot of a Kulami game names its layout (a read each
    time cost a file descriptor and a parse per change)."""
    table = {}
    data = resources.files(__package__).joinpath("layouts.txt").read_text(encoding="utf-8")
    for line in data.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, text = line.partition(":")
            table[name.strip()] = text.strip()
    return table


#: Layout kinds drawn at random; alone (without ``:SEED``) a seed is drawn too.
RANDOM_KINDS = ("random", "random-free")


def resolve(spec: str) -> Layout:
    """A layout from a name, ``random:SEED``, ``random-free:SEED``, ``random`` or
    ``random-free`` (a seed drawn now: every front end that offers "random", the touch
    screen's menu, the page, the configuration, the command line, gets a layout from
    here) or layout text. A game's options name the layout drawn by its text, so its
    record replays it."""
    spec = spec.strip()
    if spec in RANDOM_KINDS:
        spec = f"{spec}:{random.SystemRandom().randrange(10**6)}"
    return _resolve(spec)


@lru_cache(maxsize=256)
def _resolve(spec: str) -> Layout:
    """:func:`resolve` of a spec that names one layout; the same object for the same
    text, so that its geometry is built once."""
    named = named_layouts()
    if spec in named:
        return Layout.parse(named[spec])
    kind, sep, seed = spec.partition(":")
    if sep and kind in RANDOM_KINDS:
        try:
            number = int(seed)
        except ValueError:
            raise LayoutError(f"layout {spec!r}: the seed must be a whole number") from None
        return random_layout(number, square=(kind == "random"))
    if "/" not in spec:
        raise LayoutError(f"unknown layout {spec!r} (named: {', '.join(named)}; or "
                          f"random, random-free, random:SEED, random-free:SEED, or layout "
                          f"text)")
    return Layout.parse(spec)


# --- the generator ---------------------------------------------------------------------

def _shapes() -> list[tuple[int, int]]:
    """One (w, h) per panel in the set, so placing all of them uses the set exactly."""
    return [(short, long) for short, long, count in PANEL_SET.values() for _ in range(count)]


def random_layout(seed: int, square: bool = True) -> Layout:
    """A legal layout from ``seed``: a closed 8x8 square, or a free shape within 10x10."""
    rng = random.Random(seed)
    while True:
        square_8 = {(x, y) for x in range(8) for y in range(8)}
        cells = tile_region(square_8, rng) if square else _grow_free(rng)
        if cells is not None:
            return _lettered(cells)


def _lettered(cells: list[set]) -> Layout:
    """Letter panels in reading order (top row first, then left to right)."""
    cells = sorted(cells, key=lambda fields: min((-y, x) for x, y in fields))
    width = max(x for fields in cells for x, _ in fields) + 1
    height = max(y for fields in cells for _, y in fields) + 1
    return Layout.check(width, height, {PANEL_LETTERS[i]: set(f) for i, f in enumerate(cells)})


def tile_region(region: set, rng: random.Random) -> list[set] | None:
    """Backtracking tiling of ``region`` with exactly the panel set, in random order."""
    if len(region) != FIELD_COUNT:
        raise LayoutError(f"a region of {len(region)} fields cannot hold the panel set "
                          f"({FIELD_COUNT} fields)")
    free = set(region)
    remaining = Counter(_shapes())
    placed: list[set] = []

    def solve() -> bool:
        if not free:
            return True
        x0, y0 = min(free, key=lambda f: (f[1], f[0]))
        kinds = list(remaining.elements())
        rng.shuffle(kinds)
        tried = set()
        for short, long in kinds:
            for w, h in rng.sample([(short, long), (long, short)], 2):
                if (w, h) in tried:
                    continue
                tried.add((w, h))
                fields = {(x0 + dx, y0 + dy) for dx in range(w) for dy in range(h)}
                if fields <= free:
                    free.difference_update(fields)
                    remaining[(short, long)] -= 1
                    placed.append(fields)
                    if solve():
                        return True
                    placed.pop()
                    remaining[(short, long)] += 1
                    free.update(fields)
        return False

    return placed if solve() else None


def _grow_free(rng: random.Random) -> list[set] | None:
    """Panels added one by one, each touching the shape so far, inside 10x10."""
    shapes = _shapes()
    rng.shuffle(shapes)
    placed: list[set] = []
    taken: set = set()
    for short, long in shapes:
        options = []
        for w, h in {(short, long), (long, short)}:
            for x in range(MAX_SIDE - w + 1):
                for y in range(MAX_SIDE - h + 1):
                    fields = {(x + dx, y + dy) for dx in range(w) for dy in range(h)}
                    if fields & taken:
                        continue
                    touches = any((fx + dx, fy + dy) in taken for fx, fy in fields
                                  for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))
                    if touches or not taken:
                        options.append(fields)
        if not options:
            return None
        fields = rng.choice(options)
        placed.append(fields)
        taken |= fields
    min_x = min(x for x, _ in taken)
    min_y = min(y for _, y in taken)
    return [{(x - min_x, y - min_y) for x, y in fields} for fields in placed]
