"""A game enters through one door: nothing outside it names the game.

The door is the game's engine package (``engines/kulami/``), its entry in the registry
(``app/games.py``), its drawer module (the entry's ``drawer``) and its profiles
(``app/hardware/profiles/``, data). Every other module of the product (the app, the
engines' shared modules, the firmware) reaches a game only through the registry and the
board protocol, so that a fifth game adds files and edits none. The test reads each
module's code (identifiers, imports, strings, f-strings) for every spelling of every
game's name; prose (docstrings and comments) may name games as examples. The scripts
are outside the product: developer tools, one of them about one game's outside referee.
"""

import ast
import re
from pathlib import Path

import pytest

from app.games import GAMES

ROOT = Path(__file__).resolve().parents[1]
#: The product's packages.
PACKAGES = ("app", "engines", "firmware")


def door(info) -> set[Path]:
    """The modules of ``info``'s door: its engine package's and its drawer's."""
    engine = info.board.partition(":")[0].rsplit(".", 1)[0]
    drawer = info.drawer.partition(":")[0]
    return {*(ROOT / engine.replace(".", "/")).rglob("*.py"),
            ROOT / (drawer.replace(".", "/") + ".py"), ROOT / "app" / "games.py"}


def spellings(info) -> re.Pattern:
    """``blokus-duo``, ``blokus_duo``, ``Blokus Duo``, ``BlokusDuo`` and ``blokus``: a
    name's words, joined any way, or its first word alone when it has several."""
    words = re.split(r"[-_ ]", info.name)
    forms = {r"[-_ ]?".join(map(re.escape, words)), re.escape(words[0])}
    return re.compile("|".join(sorted(forms)), re.IGNORECASE)


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of a module, its classes and its functions."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                             ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                found.add(id(first.value))
    return found


def code_words(path: Path) -> list[tuple[int, str]]:
    """Every identifier, imported module and string of ``path``'s code, with its line;
    not its docstrings (comments the parser drops)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    prose = docstrings(tree)
    words = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in prose:
                words.append((line, node.value))
        elif isinstance(node, ast.Name):
            words.append((line, node.id))
        elif isinstance(node, ast.Attribute):
            words.append((line, node.attr))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            words.append((line, node.name))
        elif isinstance(node, ast.arg):
            words.append((line, node.arg))
        elif isinstance(node, ast.keyword) and node.arg:
            words.append((line, node.arg))
        elif isinstance(node, ast.alias):
            words += [(line, node.name), (line, node.asname or "")]
        elif isinstance(node, ast.ImportFrom) and node.module:
            words.append((line, node.module))
    return words


def modules() -> list[Path]:
    return sorted(path for package in PACKAGES for path in (ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_no_module_outside_a_game_s_door_names_it(name):
    info = GAMES[name]
    allowed, spelled = door(info), spellings(info)
    found = [f"{path.relative_to(ROOT)}:{line}: {word!r}"
             for path in modules() if path not in allowed
             for line, word in code_words(path) if spelled.search(word)]
    assert found == [], f"{info.title} named outside its door:\n" + "\n".join(found)


def test_the_check_sees_names_in_code_and_not_in_prose(tmp_path):
    """The reader above finds a name in a string, an f-string, an import and an
    identifier, and none in a docstring or a comment: the test cannot pass by not
    looking."""
    module = tmp_path / "sample.py"
    module.write_text('"""Kulami, as an example."""\n'
                      "from engines.kulami.board import KulamiBoard  # kulami\n"
                      "def f(conhex_cells):\n"
                      '    """ConHex too."""\n'
                      '    return f"{conhex_cells} akron", "Blokus Duo"\n')
    words = [word for _, word in code_words(module)]
    named = {name for name, info in GAMES.items()
             if any(spellings(info).search(word) for word in words)}
    assert named == {"kulami", "conhex", "akron", "blokus-duo"}
    prose_only = tmp_path / "prose.py"
    prose_only.write_text('"""Kulami, ConHex, Akron and Blokus Duo."""\n# kulami\nx = 1\n')
    assert not any(spellings(info).search(word) for info in GAMES.values()
                   for _, word in code_words(prose_only))
