"""``tabletop wiring PROFILE``: a board drawn to lay under it, its schematic, and its pin
table.

Writes ``PROFILE.svg`` and ``PROFILE.png`` into ``--out`` (default: here; a missing
folder is made when its parent is there, and said so): the board at
1:1 with every hole, its sensor channel and scan lines, and the LED chain numbered from
LED 0, to print at actual size and lay under the board while drilling and wiring. Beside
them ``PROFILE-schematic.svg`` and ``.png``: the Pi's header (and the Pico's) with every
pin the profile uses, the sensors' circuit, the LED chain and its supply, the buttons.
The pin table (which header pin goes to which line, the LED data, free pins for buttons,
the supplies) goes to standard output, so ``> pins.txt`` keeps it. The board's sizes are
the profile's own ``[board]`` table, so a maker's own profile draws the same way.

The PNGs are painted with pygame-ce, the screen's library; without the [screen] extra
the SVGs alone are written and a line on standard error says why. A profile whose
sensors and LEDs are all simulated has nothing to wire: no schematic, and a line says so.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from app.errors import install_extra
from app.drawings.pinout import format_tables, pin_tables
from app.hardware.profile import load_profile
from app.drawings.schematic import schematic
from app.drawings.sheet import draw, svg
from app.drawings.tiles import A3, tiles
from app.drawings.wiring import plan
from engines.errors import TabletopError


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "wiring", help="draw a board's holes, sensors and LED chain (SVG, PNG) to print at "
                       "1:1 and its schematic, and print its pin table",
        description="Draw a board to lay under it while drilling and wiring (every "
                    "hole, its sensor channel and scan lines, the LED chain), its "
                    "schematic, and print which header pin goes to which line.")
    parser.add_argument("profile", help="a shipped profile's name or a profile file")
    parser.add_argument("--out", default=".", metavar="DIR",
                        help="the folder for PROFILE.svg, PROFILE-schematic.svg, "
                             "PROFILE-a3-N.svg (the board on A3 pages, when larger) and "
                             "their PNGs (default: here)")
    parser.set_defaults(run=run)


def run(args) -> int:
    profile = load_profile(args.profile)
    board = draw(plan(profile))
    sheets = {profile.name: board}
    pages = tiles(board, A3)
    if len(pages) > 1:  # larger than A3: also as A3 pages that tape together at 1:1
        sheets.update((f"{profile.name}-a3-{n}", page) for n, page in enumerate(pages, 1))
    circuit = schematic(profile)
    if circuit is not None:
        sheets[f"{profile.name}-schematic"] = circuit
    tables = format_tables(pin_tables(profile))
    out = _folder(Path(args.out))
    written = [_write(out / f"{name}.svg", svg(sheet).encode("utf-8"))
               for name, sheet in sheets.items()]
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        from app.drawings.paper import png
    except ModuleNotFoundError as missing:
        if missing.name != "pygame":
            raise
        print(f"no PNG: pygame-ce paints it ({install_extra('screen', 'it')})",
              file=sys.stderr)
    else:
        written += [_write(out / f"{name}.png", png(sheet)) for name, sheet in sheets.items()]
    sys.stdout.write(tables)
    if circuit is None:
        print(f"no schematic: {profile.name}'s sensors and LEDs are simulated, so nothing "
              f"is wired", file=sys.stderr)
    for path in written:
        print(f"wrote {path}", file=sys.stderr)
    return 0


def _folder(out: Path) -> Path:
    """The ``--out`` folder, made (and said so) when it is missing but its parent is
    there, as ``mkdir`` makes one. A missing parent is refused in one line rather than
    made: ``--out drawigns/today`` is more likely a typo than a tree wanted, and a tree
    made silently would leave the drawings where nobody looks."""
    if out.is_dir():
        return out
    if out.exists():
        raise TabletopError(f"--out {out}: not a folder")
    parent = out.parent
    if not parent.is_dir():
        problem = f"{parent} is not a folder" if parent.exists() else \
            f"there is no folder {parent} to make it in"
        raise TabletopError(f"--out {out}: {problem}")
    try:
        out.mkdir()
    except OSError as error:
        raise TabletopError(f"--out {out}: cannot make the folder: "
                            f"{error.strerror or error}") from None
    print(f"made the folder {out}", file=sys.stderr)
    return out


def _write(path: Path, data: bytes) -> Path:
    """``data`` into ``path``; one line if that cannot be done."""
    try:
        path.write_bytes(data)
    except OSError as error:
        raise TabletopError(f"{path.parent}: cannot write {path.name} there: "
                            f"{error.strerror or error}") from None
    return path
