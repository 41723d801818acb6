"""The layers of the README's "For developers", held by the imports themselves.

Data flows down and no arrow points back up: the engines know nothing of the app, of
hardware or of pygame; the table loop knows nothing of the screen or the command line;
the screen nothing of the command line; the drivers nothing of the loop, the screen,
the command line or the sensing pipeline above them. Every import counts, the ones
inside a function too (the app imports hardware libraries lazily, where they are
needed), so a rule here fails the moment a module reaches up, however it does it.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Each layer (a package, as a path under the checkout) and what it must never import.
RULES = {
    "engines": ("app", "pygame", "gpiozero", "board", "neopixel", "neopixel_spi", "serial",
                "platformdirs"),
    "app/hardware": ("app.table", "app.screen", "app.cli", "app.sensing", "pygame"),
    "app/sensing": ("app.table", "app.screen", "app.cli", "pygame"),
    "app/table": ("app.screen", "app.cli"),
    "app/screen": ("app.cli",),
}


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
    modules = sorted((ROOT / layer).rglob("*.py"))
    assert modules, f"no modules under {layer}"
    wrong = {f"{path.relative_to(ROOT)} imports {name}"
             for path in modules for name in imports(path) if reaches(name, RULES[layer])}
    assert not wrong, sorted(wrong)


def test_the_check_sees_an_import_inside_a_function(tmp_path):
    module = tmp_path / "reaching_up.py"
    module.write_text("def later():\n    from app.screen import console\n"
                      "import os.path\nfrom . import sibling\n")
    assert imports(module) == {"app.screen", "os.path"}
    assert reaches("app.screen", RULES["app/table"])
    assert not reaches("application", ("app",))
