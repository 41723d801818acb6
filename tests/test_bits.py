"""The engines' one pair of bitboard helpers: a set of points and its int agree both ways."""

import random

from engines.bits import indices, mask_of


def test_a_mask_and_its_points_go_both_ways():
    rng = random.Random(5)
    for _ in range(200):
        points = sorted(rng.sample(range(300), rng.randint(0, 40)))
        assert indices(mask_of(points)) == points


def test_the_points_come_lowest_first_as_a_list():
    """A list, not a generator: Akron's playout picks from it with ``random.choice``."""
    assert indices(0b101001) == [0, 3, 5]
    assert random.Random(1).choice(indices(1 << 70 | 1 << 2)) in (2, 70)


def test_the_empty_set():
    assert indices(0) == [] and mask_of([]) == 0
