"""Akron's search policy (engines/akron/policy.py) and its connection distance over the
whole pyramid (engines/akron/distance.py): the distance checked against a plain
shortest-path search written from the rule sheet, on random games and on positions of
the rule sheet; the priors and the search on those positions; the minimax the search
keeps for Akron (engines/search.py's ``minimax_weight``).

Points are named as the notation names them (``1c3`` a hole, ``2d4`` the ball resting
on ``1c3``, ``1e3``, ``1c5`` and ``1e5``); ``b`` is white (south to north), ``w`` red
(west to east).
"""

from __future__ import annotations

import random

import pytest

from app.games import GAMES, new_game
from engines.akron.board import AkronBoard, Placement
from engines.akron.distance import WALL, from_grid, to_grid
from engines.akron.geometry import INDEX, NAMES, points_of
from engines.akron.policy import AkronPolicy, distances, layout_of
from engines.players import MAX_LEVEL, choose_move
from engines.paths import shortest_chains
from engines.search import Node, _back_up_minimax, policy_of, search


def balls(b: str = "", w: str = "") -> dict[str, str]:
    """A piece map from two lists of point names."""
    return {**dict.fromkeys(b.split(), "b"), **dict.fromkeys(w.split(), "w")}


def shortest(board: AkronBoard, player: str) -> tuple[int, set[str]]:
    """The policy's distance of ``player`` and the points on their shortest paths."""
    distance, points = layout_of(board).shortest(player)
    return distance, {NAMES[point] for point in points_of(from_grid(points))}


# --- a plain reference, from the rule sheet and the board's public views ---------------
def _place(name: str) -> tuple[int, int, int]:
    return int(name[0]) - 1, ord(name[1]) - ord("a"), int(name[2:]) - 1


def _touch(a: str, b: str) -> bool:
    """Whether balls on ``a`` and ``b`` would touch, nothing cut or covered: beside on
    one level, or one resting on the other."""
    (la, xa, ya), (lb, xb, yb) = _place(a), _place(b)
    if la == lb:
        return sorted((abs(xa - xb), abs(ya - yb))) == [0, 2]
    return abs(la - lb) == 1 and abs(xa - xb) == abs(ya - yb) == 1


_NEIGHBOURS = {a: [b for b in NAMES if _touch(a, b)] for a in NAMES}
_SIDES = {"b": (lambda name: name[0] == "1" and name[2:] == "1",
                lambda name: name[0] == "1" and name[2:] == "15"),
          "w": (lambda name: name[0] == "1" and name[1] == "a",
                lambda name: name[0] == "1" and name[1] == "o")}


def reference(board: AkronBoard, player: str) -> tuple[int, set[str]]:
    """The distance as the module states it, by Dijkstra over the points: own visible
    balls cost nothing, playable points and own balls covered by an own ball one, the
    rest is no path; two balls are linked when the board says they touch, an empty point
    to whatever it would touch."""
    on_board, covered, playable = board.balls(), board.covered(), board.playable()

    def cost(name):
        owner = on_board.get(name)
        if owner is None:
            return 1 if name in playable else WALL
        if owner != player:
            return WALL
        if name not in covered:
            return 0
        level, x, y = _place(name)
        above = f"{level + 3}{chr(ord('a') + x)}{y + 1}"
        return 1 if on_board.get(above) == player else WALL

    def linked(a, b):
        if a in on_board and b in on_board:
            return board.touching(a, b)
        return True

    # Engines/paths.py's Dijkstra (ConHex's, nothing of the grid layout) over point
    # indices, a point linked to those it touches in this position.
    costs = [cost(name) for name in NAMES]
    neighbours = [[INDEX[other] for other in _NEIGHBOURS[name]
                   if costs[INDEX[other]] < WALL and linked(name, other)] for name in NAMES]
    start, end = ([INDEX[name] for name in NAMES if side(name)] for side in _SIDES[player])
    least, points = shortest_chains(costs, start, end, neighbours)
    if least >= WALL:
        return WALL, set()
    return least, {NAMES[point] for point in points}


@pytest.mark.parametrize("seed", range(3))
def test_the_distance_is_the_plain_shortest_path_over_random_games(seed):
    rng, board = random.Random(seed), AkronBoard()
    checked = 0
    while not board.is_game_over() and len(board.move_stack) < 150:
        if len(board.move_stack) % 3 == 0:
            for player in "bw":
                assert shortest(board, player) == reference(board, player), board.ascii()
            assert distances(board) == (reference(board, "b")[0], reference(board, "w")[0])
            # The win the board reads from the grid layout is a chain the board draws.
            for player in "bw":
                assert layout_of(board).joins(player) == bool(board.winning_chain(player))
            checked += 1
        board.push(rng.choice(list(board.legal_moves)))
    assert checked > 20


def test_the_grid_layout_keeps_every_point():
    for point in range(len(NAMES)):
        assert from_grid(to_grid(1 << point)) == 1 << point
    board = AkronBoard.from_balls(balls(b="1c3 1e3 1c5 1e5 2d4", w="1o15 1m13"))
    layout = layout_of(board)
    assert {NAMES[p] for p in points_of(from_grid(layout.playable))} == board.playable()


# --- positions of the rule sheet ------------------------------------------------------
COLUMN_G = "1g1 1g3 1g5 1g7 1g9 1g11 1g13 1g15"
#: Red's row across the board, one gap where white's column g crosses it: 2f8 rests on
#: 1e7, 1g7, 1e9 and 1g9, and 2h8 (empty, on four balls) would bridge to 1i7 and 1i9.
RED_ROW = "1a7 1c7 1e7 1e9 1i7 1i9 1k7 1m7 1o7 2f8 1k9"


def test_an_empty_board_is_eight_balls_from_either_chain():
    assert distances(AkronBoard()) == (8, 8)


def test_a_full_column_is_a_chain_and_a_wall_while_nothing_above_it_is_playable():
    board = AkronBoard.from_balls(balls(b=COLUMN_G))
    assert shortest(board, "b") == (0, set(COLUMN_G.split()))
    assert distances(board) == (0, WALL)
    assert layout_of(board).joins("b") and not layout_of(board).joins("w")


def test_a_ball_above_the_board_bridges_white_s_column_for_red():
    board = AkronBoard.from_balls(balls(b=COLUMN_G, w=RED_ROW), turn="w")
    distance, points = shortest(board, "w")
    # The holes alone give red no path at all: column g is white.
    assert distance == 1 and "2h8" in points and not points & set(COLUMN_G.split())
    assert shortest(board, "b")[0] == 0
    # Moved there, 2h8 joins red's row and cuts 1g7-1g9 under it with 2f8.
    board.push_text("1k9-2h8")
    assert distances(board)[1] == 0 and distances(board)[0] > 0
    assert not board.touching("1g7", "1g9")


def test_a_point_above_the_board_bridges_two_holes_diagonally_apart():
    # White 1c3 and 1e5 are diagonal neighbours; red holds 1e3 and 1c5 between them.
    white = "1c1 1c3 1e5 1e7 1e9 1e11 1e13 1e15"
    board = AkronBoard.from_balls(balls(b=white, w="1e3 1c5"))
    assert shortest(board, "b") == (1, set(white.split()) | {"2d4"})
    # With 1c5 still empty 2d4 is not playable: the path runs through 1c5 instead.
    board = AkronBoard.from_balls(balls(b=white, w="1e3"))
    assert shortest(board, "b") == (1, set(white.split()) | {"1c5"})


def test_an_overpass_cuts_the_contact_beneath_it_for_the_distance():
    # The drop example of the rule sheet: red 2j4 and 2l4 bridge over white's 1k3-1k5.
    column_k = "1k1 1k3 1k5 1k7 1k9 1k11 1k13 1k15"
    red = "1i3 1i5 1m3 1m5 2j4 2l4"
    assert distances(AkronBoard.from_balls(balls(b=column_k, w="1i3 1i5 1m3 1m5")))[0] == 0
    board = AkronBoard.from_balls(balls(b=column_k, w=red))
    assert not board.touching("1k3", "1k5")
    distance, points = shortest(board, "b")
    assert distance > 0 and not board.winning_chain("b") and not layout_of(board).joins("b")
    assert reference(board, "b") == (distance, points)


def test_a_covered_ball_is_no_link_unless_its_own_cover_may_move_away():
    # The rule sheet's covered ball: red 3g7 covers white 1g7.
    holes = "1e5 1g5 1i5 1e7 1g7 1i7 1e9 1g9 1i9"
    for cover, cost in (("w", None), ("b", 1)):
        board = AkronBoard.from_balls({**balls(b=holes + " 2f6 2h6 2f8", w="2h8"),
                                       "3g7": cover})
        assert board.covered() == {"1g7"}
        free, one = layout_of(board).costs("b")
        named = {NAMES[point]: 0 for point in points_of(from_grid(free))}
        named.update({NAMES[point]: 1 for point in points_of(from_grid(one))})
        assert named.get("1g7") == cost and named["1g5"] == named["2f6"] == 0
        assert named.get("2h8") is None and named["1a1"] == 1


# --- the value, the priors and the search ---------------------------------------------
def test_the_value_favours_the_player_nearer_a_chain():
    policy, rng = AkronPolicy(), random.Random(1)
    assert policy.value(AkronBoard(), rng) > 0.5  # white moves first: half a ball ahead
    board = AkronBoard.from_balls(balls(b=COLUMN_G, w=RED_ROW), turn="w")
    assert policy.value(board, rng) > 0.5  # white's chain stands; red is a ball away
    board.push_text("1k9-2h8")  # red's stands, white's is cut
    assert policy.value(board, rng) < 0.5


def test_the_moves_onto_the_bridge_come_first_in_the_priors():
    board = AkronBoard.from_balls(balls(b=COLUMN_G, w=RED_ROW), turn="w")
    moves = list(board.legal_moves)
    priors = AkronPolicy().priors(board, moves)
    best = max(priors)
    assert {str(move) for move, prior in zip(moves, priors) if prior == best} == {
        f"{source}-2h8" for source in ("1a7", "1c7", "1k7", "1m7", "1o7", "1k9")}
    # An empty hole on neither player's path is looked at last.
    placements = [prior for move, prior in zip(moves, priors) if isinstance(move, Placement)]
    assert placements and max(placements) < best


def test_the_search_finds_the_one_move_onto_the_bridge_that_wins():
    board = AkronBoard.from_balls(balls(b=COLUMN_G, w=RED_ROW), turn="w")
    # Only from 1k9 does red keep its row whole: every other ball is a link of it.
    move = choose_move(board, MAX_LEVEL, random.Random(1))
    assert str(move) == "1k9-2h8"
    board.push(move)
    for reply in list(board.legal_moves):
        board.push(reply)
        assert board.outcome().winner == "w"
        board.pop()


def test_the_search_blocks_the_hole_that_would_complete_white_s_chain():
    # White's column g lacks 1g15 alone; red, to move, has no bridge to make.
    board = AkronBoard.from_balls(balls(b=COLUMN_G.replace(" 1g15", ""),
                                        w="1a7 1c7 1e7"), turn="w")
    assert str(search(board, random.Random(2), playouts=300)) == "1g15"


# --- the minimax the search keeps for Akron -------------------------------------------
def test_only_akron_mixes_the_minimax_into_the_search():
    for game in GAMES:
        weight = policy_of(new_game(game)).minimax_weight
        assert (weight > 0) == (game == "akron"), game


def test_a_node_s_minimax_is_its_best_child_s_for_the_player_choosing():
    root = Node(None, None)
    white = Node("a", "b")
    root.children = [white]
    replies = [Node(move, "w") for move in ("x", "y")]
    white.children = replies
    replies[0].minimax = 0.9  # red's value after x
    # A walk through y ends at a leaf worth 0.8 to white: 0.2 to red, who chooses x.
    _back_up_minimax([root, white, replies[1]], 0.8)
    assert replies[1].minimax == pytest.approx(0.2)
    assert white.minimax == pytest.approx(0.1)  # red's best, 0.9, seen by white
    # The same player moving again (as when a blocked opponent's turn is skipped):
    # their best value is their own.
    again = Node("pass", "b")
    white.children = [again]
    _back_up_minimax([root, white, again], 0.7)
    assert white.minimax == pytest.approx(0.7)
