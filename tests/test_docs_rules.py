"""docs/rules.md: written for this project, standing alone, and saying what the engines do."""

import re
from pathlib import Path

import pytest

from app.games import GAMES
from engines.conhex.board import HANDICAP, PIE
from engines.conhex.geometry import HOLES
from engines.kulami.board import OPTIONS as KULAMI_OPTIONS
from engines.kulami.layout import named_layouts

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"


@pytest.fixture(scope="module")
def text():
    return RULES.read_text(encoding="utf-8")


def test_it_covers_every_game_its_decisions_notation_and_records(text):
    headings = re.findall(r"^#+ (.+)$", text, re.M)
    for heading in ("Kulami", "ConHex", "Blokus Duo", "Akron", "What we decided",
                    "Notation", "Records"):
        assert heading in headings, heading
    assert headings.count("What we decided") == 3 and headings.count("Notation") == 3
    for game in GAMES.values():  # a rules section and a records section for each
        assert headings.count(game.title) == 2, game.title


def test_it_points_nowhere_outside_the_repository(text):
    assert "://" not in text and "www." not in text and "../" not in text
    assert "shared/" not in text and "seeds/" not in text
    for path in re.findall(r"`((?:engines|app|docs|tests|hardware)/[\w./-]+)`", text):
        assert (ROOT / path).exists(), path
    for target in re.findall(r"\]\(([^)]+)\)", text):  # markdown links, if any
        assert not re.match(r"\w+:", target) and (RULES.parent / target).exists(), target


def test_the_defaults_it_names_are_the_engines(text):
    kulami = {option.name: option.default for option in KULAMI_OPTIONS}
    assert "(option `chain_lines`, default `all`)" in text and kulami["chain_lines"] == "all"
    assert "(default 0: panels only)" in text and kulami["scoring"] == 0
    assert "(`pie`, default on)" in text and PIE.default is True
    assert "(`handicap`: 0, 2 or 3; default 0)" in text
    assert HANDICAP.default == 0 and HANDICAP.choices == (0, 2, 3)
    for name in named_layouts():
        assert f"`{name}`" in text or (name.startswith("square-") and "`square-1` to "
                                       "`square-6`" in text), name
    assert f"square-1` is:\n\n```\n{named_layouts()['square-1']}\n```" in text


def test_its_conhex_hole_map_is_the_engines(text):
    block = text.split("bottom (`o` is a hole, `.` a point of the grid that is not one):")[1]
    rows = [line for line in block.split("```")[1].splitlines() if line.strip()]
    columns = rows[-1].split()
    holes = {f"{columns[i]}{row.split()[0]}" for row in rows[:-1]
             for i, mark in enumerate(row.split()[1:]) if mark == "o"}
    assert holes == set(HOLES) and len(holes) == 69
