"""Record formats join their board through the game's package, without an import cycle."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import engines
from app.games import GAMES, game as game_info

ENGINES = Path(engines.__file__).parent


def imported_modules(path):
    """Every module a source file imports, at the top or inside functions."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            names.add(node.module)
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
    return names


@pytest.mark.parametrize("game", ["kulami", "conhex"])
def test_the_record_depends_on_the_board_and_never_the_other_way(game):
    board_imports = imported_modules(ENGINES / game / "board.py")
    assert f"engines.{game}.record" not in board_imports
    assert f"engines.{game}.board" in imported_modules(ENGINES / game / "record.py")


@pytest.mark.parametrize("first", ["board", "record"])
@pytest.mark.parametrize("game, cls", [("kulami", "KulamiBoard"), ("conhex", "ConHexBoard")])
def test_a_fresh_interpreter_reaches_the_records_whichever_module_it_imports_first(
        game, cls, first):
    script = (f"import engines.{game}.{first}\n"
              f"from engines.{game}.board import {cls}\n"
              f"board = {cls}.new()\n"
              f"board.push(next(iter(board.legal_moves)))\n"
              f"print(len({cls}.from_record(board.to_record()).move_stack))\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=60)
    assert result.stderr == "" and result.stdout == "1\n"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_writes_and_reads_its_record_through_the_board(game):
    cls = game_info(game).board_class
    board = cls.new()
    for _ in range(3):
        board.push(next(iter(board.legal_moves)))
    again = cls.from_record(board.to_record())
    assert again.move_stack == board.move_stack and again.turn == board.turn
    assert again.options == board.options
