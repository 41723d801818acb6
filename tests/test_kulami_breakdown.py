"""Kulami's score in its parts (panels, the area bonus, the chain bonus), as the end
screen lists it: checked against whole games played to the end."""

import random

import pytest

from app.games import new_game
from engines.kulami.scoring import breakdown, chains, largest_area, panel_owner
from engines.players import choose_move


def finished(seed, **options):
    board, rng = new_game("kulami", **options), random.Random(seed)
    while not board.is_game_over():
        board.push(choose_move(board, 2, rng))
    return board


@pytest.mark.parametrize("scoring", [0, 1, 2])
@pytest.mark.parametrize("chain_lines", ["all", "diagonal"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_parts_add_up_to_the_games_own_score(scoring, chain_lines, seed):
    board = finished(seed, scoring=scoring, chain_lines=chain_lines)
    parts = breakdown(board.layout, board.occupancy, scoring, chain_lines)
    assert [p.name for p in parts] == ["panels", "area", "chains"][:scoring + 1]
    for player in "bw":
        assert sum(p.points[player] for p in parts) == board.scores()[player]


def test_each_part_counts_what_it_says():
    board = finished(4, scoring=2)
    occupancy, layout = board.occupancy, board.layout
    panels, area, chain = breakdown(layout, occupancy, 2, "all")
    owners = [panel_owner(layout, occupancy, panel) for panel in layout.panels]
    assert panels.counted == {p: owners.count(p) for p in "bw"}
    assert sum(panels.points.values()) == sum(
        len(fields) for panel, fields in layout.panels.items()
        if panel_owner(layout, occupancy, panel))
    assert area.counted == {p: largest_area(occupancy, p) for p in "bw"}
    assert chain.counted == {p: sum(chains(occupancy, p)) for p in "bw"}
    for part in (area, chain):  # the larger scores the difference, the other nothing
        b, w = part.counted["b"], part.counted["w"]
        assert part.points == {"b": max(0, b - w), "w": max(0, w - b)}


def test_some_real_game_has_both_bonuses():
    """So the tests above are not vacuous: bonuses do occur in played games."""
    boards = [finished(seed, scoring=2) for seed in range(1, 8)]
    parts = [breakdown(b.layout, b.occupancy, 2, "all") for b in boards]
    assert any(sum(p[1].points.values()) for p in parts)
    assert any(sum(p[2].points.values()) for p in parts)
