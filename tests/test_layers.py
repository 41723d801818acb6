"""The layers of the README's "For developers", held by the imports themselves.

Data flows down and no arrow points back up: the sensor board's firmware and the engines
know nothing of the app (the firmware runs on a Pico, where only its own modules and the
wire protocol it shares with the Pi's driver are; on the Pi the protocol's error joins
the one error tree at its root, ``engines.errors``); the engines nothing of hardware or
pygame; the sensing pipeline is pure, with no driver in it; the table
loop knows nothing of the screen, the command line or the link to a board far away (a
far board's seat registers itself); the screen nothing of the command line, and of a
game's engine only in that game's drawer; the web page nothing of the screen, the
command line or pygame; the link to a board far away (``app/remote``) nothing of those
nor of the web page; the drivers nothing of the loop, the screen, the command line or the pipeline
above them or the makers' drawings (``app/drawings``), which read the profiles the drivers
read and nothing above them; and none of the drivers, the pipeline or the table imports a game's engine:
they reach a game through the registry (``app/games.py``) and the board protocol every
engine shares. Every import counts, the ones inside a function too (the app imports
hardware libraries lazily, where they are needed), so a rule here fails the moment a
module reaches up, however it does it.
"""

import ast
from pathlib import Path

import pytest

from app.games import GAMES

ROOT = Path(__file__).resolve().parents[1]
#: Each game's engine package, as the registry names it (``engines.kulami``).
GAME_ENGINES = tuple(sorted({info.board.partition(":")[0].rsplit(".", 1)[0]
                             for info in GAMES.values()}))

#: Each layer (a package, as a path under the checkout) and what it must never import.
RULES = {
    "firmware": ("app", "pygame", "gpiozero", "board", "serial"),
    "engines": ("app", "pygame", "gpiozero", "board", "neopixel", "neopixel_spi", "serial",
                "platformdirs"),
    "app/hardware": ("app.table", "app.screen", "app.cli", "app.sensing", "app.drawings",
                     "pygame",
                     *GAME_ENGINES),
    "app/sensing": ("app.hardware", "app.table", "app.screen", "app.cli", "pygame",
                    *GAME_ENGINES),
    "app/table": ("app.screen", "app.cli", "app.web", "app.remote", "pygame", *GAME_ENGINES),
    "app/web": ("app.screen", "app.cli", "pygame", *GAME_ENGINES),
    "app/remote": ("app.screen", "app.cli", "app.web", "pygame", *GAME_ENGINES),
    "app/screen": ("app.cli", *GAME_ENGINES),
    "app/drawings": ("app.table", "app.screen", "app.cli", "app.sensing", "app.web",
                     "app.remote", *GAME_ENGINES),
}
#: Modules a rule does not cover: each game's drawer, the one screen module that knows
#: its game's geometry (the registry names it, as it names the engine).
DRAWERS = frozenset(ROOT / (info.drawer.partition(":")[0].replace(".", "/") + ".py")
                    for info in GAMES.values())


def imports(path: Path) -> set[str]:
    """Every module ``path`` imports, at the top or anywhere below it."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def reaches(name: str, forbidden: tuple[str, ...]) -> bool:
    return any(name == top or name.startswith(top + ".") for top in forbidden)


@pytest.mark.parametrize("layer", sorted(RULES))
def test_no_module_of_a_layer_imports_a_layer_above_it(layer):
    modules = sorted(set((ROOT / layer).rglob("*.py")) - DRAWERS)
    assert modules, f"no modules under {layer}"
    wrong = {f"{path.relative_to(ROOT)} imports {name}"
             for path in modules for name in imports(path) if reaches(name, RULES[layer])}
    assert not wrong, sorted(wrong)


def test_every_game_of_the_registry_has_its_engine_package_ruled_out():
    assert GAME_ENGINES == ("engines.akron", "engines.blokus_duo", "engines.conhex",
                            "engines.kulami")


def test_the_check_sees_an_import_inside_a_function(tmp_path):
    module = tmp_path / "reaching_up.py"
    module.write_text("def later():\n    from app.screen import console\n"
                      "import os.path\nfrom . import sibling\n")
    assert imports(module) == {"app.screen", "os.path"}
    assert reaches("app.screen", RULES["app/table"])
    assert not reaches("application", ("app",))
