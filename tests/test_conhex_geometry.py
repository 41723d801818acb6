"""The ConHex board data against every fact docs/rules.md's ConHex section lists."""

from collections import Counter

import pytest

from engines.conhex.geometry import (CELLS, CELLS_OF_HOLE, HOLE_INDEX, HOLES, NEIGHBOURS,
                                     PLAYER_SIDES, SIDES, grid_name, grid_point, mirror)

# The hole diagram of docs/rules.md (ConHex), typed independently of cells.txt.
DIAGRAM = """
11  o . . . . . . . . . o
10  . . o o o o o o o . .
 9  . o . o o o o o . o .
 8  . o o . o o o . o o .
 7  . o o o . o . o o o .
 6  . o o o o o o o o o .
 5  . o o o . o . o o o .
 4  . o o . o o o . o o .
 3  . o . o o o o o . o .
 2  . . o o o o o o o . .
 1  o . . . . . . . . . o
"""


def diagram_holes():
    holes = set()
    for line in DIAGRAM.strip().splitlines():
        row, *points = line.split()
        holes |= {grid_name(col, int(row)) for col, p in enumerate(points, 1) if p == "o"}
    return holes


def cell_hole_names(cell):
    return {HOLES[h] for h in cell.holes}


def test_the_holes_are_the_69_of_the_diagram():
    assert len(HOLES) == 69 == len(set(HOLES))
    assert set(HOLES) == diagram_holes()


def test_holes_are_listed_top_row_first_left_to_right():
    assert HOLES[:4] == ("a11", "k11", "c10", "d10") and HOLES[-2:] == ("a1", "k1")


def test_cells_by_kind_16_edge_24_inner_one_centre():
    kinds = Counter(cell.kind for cell in CELLS)
    assert len(CELLS) == 41 and kinds == {"edge": 16, "inner": 24, "centre": 1}
    assert [c.number for c in CELLS if c.kind == "edge"] == list(range(16))
    assert CELLS[40].kind == "centre"


@pytest.mark.parametrize("kind, holes, threshold", [("edge", 3, 2), ("inner", 6, 3),
                                                    ("centre", 5, 3)])
def test_claim_thresholds_by_kind(kind, holes, threshold):
    cells = [c for c in CELLS if c.kind == kind]
    assert {len(c.holes) for c in cells} == {holes}
    assert {c.threshold for c in cells} == {threshold}


def test_every_hole_lies_in_three_cells_except_the_corners_and_the_centre():
    single = {HOLES[h] for h, cells in enumerate(CELLS_OF_HOLE) if len(cells) == 1}
    assert single == {"a1", "a11", "k1", "k11", "f6"}
    assert all(len(cells) == 3 for h, cells in enumerate(CELLS_OF_HOLE)
               if HOLES[h] not in single)
    assert CELLS_OF_HOLE[HOLE_INDEX["f6"]] == (40,)


def test_104_touching_pairs_and_the_neighbour_counts():
    pairs = {frozenset((a, b)) for a, ns in enumerate(NEIGHBOURS) for b in ns}
    assert len(pairs) == 104
    corners = {0, 4, 8, 12}
    for cell in CELLS:
        expected = (3 if cell.number in corners else
                    6 if cell.kind == "inner" else 4)
        assert len(NEIGHBOURS[cell.number]) == expected, cell.number


def test_touching_means_sharing_a_hole():
    for a in CELLS:
        for b in CELLS:
            shares = bool(set(a.holes) & set(b.holes)) and a is not b
            assert (b.number in NEIGHBOURS[a.number]) == shares


def test_the_sides_and_who_joins_them():
    assert SIDES == {"N": {0, 1, 2, 3, 4}, "E": {4, 5, 6, 7, 8}, "S": {8, 9, 10, 11, 12},
                     "W": {12, 13, 14, 15, 0}}
    assert PLAYER_SIDES == {"b": ("N", "S"), "w": ("W", "E")}


@pytest.mark.parametrize("number, holes", [
    (0, "a11 b9 c10"), (4, "i10 j9 k11"), (8, "i2 j3 k1"), (12, "a1 b3 c2"),
    (16, "b8 b9 c8 c10 d9 d10"), (22, "h2 h3 i2 i4 j3 j4"), (33, "e3 e4 f3 f4 g3 g4"),
    (40, "e6 f5 f6 f7 g6")])
def test_sample_rows_of_the_cell_table(number, holes):
    assert cell_hole_names(CELLS[number]) == set(holes.split())


SYMMETRIES = {
    "turn a quarter": lambda c, r: (r, 12 - c),
    "turn a half": lambda c, r: (12 - c, 12 - r),
    "mirror left-right": lambda c, r: (12 - c, r),
    "mirror top-bottom": lambda c, r: (c, 12 - r),
    "mirror a1-k11": lambda c, r: (r, c),
}


@pytest.mark.parametrize("name", SYMMETRIES)
def test_the_cell_table_has_the_symmetries_of_the_square(name):
    """A mistyped hole in cells.txt would break at least one of these."""
    move = SYMMETRIES[name]
    cells = {frozenset(cell_hole_names(c)) for c in CELLS}
    moved = {frozenset(grid_name(*move(*grid_point(h))) for h in cell) for cell in cells}
    assert moved == cells


def test_the_little_golem_mirror_maps_j3_to_c10_and_one_goal_onto_the_other():
    assert mirror("j3") == "c10" and mirror("c10") == "j3" and mirror("f6") == "f6"
    side_of = {}
    for side, cells in SIDES.items():
        mirrored = {frozenset(mirror(h) for h in cell_hole_names(CELLS[n])) for n in cells}
        side_of[side] = next(s for s, others in SIDES.items()
                             if {frozenset(cell_hole_names(CELLS[n])) for n in others}
                             == mirrored)
    assert side_of == {"N": "E", "E": "N", "S": "W", "W": "S"}


@pytest.mark.parametrize("name", ["a12", "l1", "a0", "aa1", "A1", "", "f 6"])
def test_names_off_the_grid_are_not_points(name):
    assert grid_point(name) is None
