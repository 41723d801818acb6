"""Blokus Duo on the table: its registry entry and drawer, pieces put down square by
square through the session (waiting, then the move; sync mode; the takeback) and what
the LEDs light (attachment corners, start points, the last piece, a hint)."""

import random

import pygame
import pytest

from app.games import game, new_game
from app.hardware.sensors import SimulatedSensors
from app.sensing.events import Moved, OutOfSync, Takeback, Waiting
from app.sensing.script import Hand
from app.screen.boards import HOLE, drawer_for
from app.screen.boards.blokus_duo import BOARD_COLOUR, START_RING, BlokusDuoDrawer
from app.table.scene import game_scene
from app.table.session import Session

PURPLE, ORANGE = (game("blokus-duo").players[p].piece for p in "bw")


# --- the entry and the drawer -----------------------------------------------------------

def test_the_entry_names_pentobis_colours_and_the_start_rule_in_words():
    entry = game("blokus-duo")
    assert entry.title == "Blokus Duo" and entry.drawer_class() is BlokusDuoDrawer
    assert [entry.players[p].name for p in "bw"] == ["purple", "orange"]
    assert entry.describe({"start": "either"}) == ["start on either point"]
    assert entry.describe({"start": "fixed"}) == ["fixed start points"]
    (start,) = entry.menu
    assert start.key == "start" and start.choices() == ("either", "fixed")
    assert new_game("blokus-duo", start="fixed").options["start"] == "fixed"


@pytest.mark.parametrize("area", [pygame.Rect(0, 0, 600, 600), pygame.Rect(40, 10, 900, 500)])
def test_every_square_lies_in_the_area_and_the_mouse_finds_it(area):
    board = new_game("blokus-duo")
    drawer = drawer_for(board, area)
    assert sorted(drawer.centres) == sorted(board.holes) and len(drawer.centres) == 196
    for square, centre in drawer.centres.items():
        assert area.collidepoint(centre) and drawer.hole_at(centre) == square
    # a1 is the lower left, n14 the upper right, as Pentobi draws the board.
    assert drawer.centres["a1"][0] < drawer.centres["n1"][0]
    assert drawer.centres["a14"][1] < drawer.centres["a1"][1]


def played(plies, seed=2):
    board = new_game("blokus-duo")
    rng = random.Random(seed)
    for _ in range(plies):
        board.push(rng.choice(list(board.legal_moves)))
    return board


def test_pieces_are_joined_tiles_in_their_players_colours_and_leds_glow_at_their_squares():
    board = played(4)
    surface = pygame.Surface((700, 700))
    drawer = drawer_for(board, surface.get_rect())
    pieces = board.sensor_view()
    green = (0, 255, 128)
    empty = sorted(set(board.holes) - set(pieces))
    drawer.draw(surface, pieces, {empty[0]: green})
    assert surface.get_at(drawer.centres[empty[0]])[:3] == green
    assert surface.get_at(drawer.centres[empty[1]])[:3] == HOLE
    colours = {"b": PURPLE, "w": ORANGE}
    for move in board.move_stack:
        squares = move.squares
        player = pieces[squares[0]]
        for square in squares:
            assert surface.get_at(drawer.centres[square])[:3] == colours[player]
        # Between two squares of one piece the tile goes on: the piece reads as one.
        for a in squares:
            for b in squares:
                (ax, ay), (bx, by) = drawer.centres[a], drawer.centres[b]
                if a < b and abs(ax - bx) + abs(ay - by) == round(drawer.unit) \
                        and (ax == bx or ay == by):
                    middle = ((ax + bx) // 2, (ay + by) // 2)
                    assert surface.get_at(middle)[:3] == colours[player]


def test_the_start_points_are_ringed_on_the_empty_board():
    board = new_game("blokus-duo")
    surface = pygame.Surface((700, 700))
    drawer = drawer_for(board, surface.get_rect())
    drawer.draw(surface, {})
    for square in ("e10", "j5", "a1"):
        x, y = drawer.centres[square]
        ring = surface.get_at((x + drawer.px(0.37), y))[:3]
        assert ring == (START_RING if square != "a1" else BOARD_COLOUR), square


def test_the_screen_offers_no_piece_by_button_and_names_no_owned_areas():
    from app.games import GAMES
    from app.screen.console import Console
    from app.table.legend import legend_roles

    session = Session(played(3), seats={"b": "person", "w": "person"}, seed=1)
    console = Console(session, tuple(GAMES))
    assert console.offers() == ()  # every piece is seen by the sensors: no buttons
    roles = legend_roles(session.status())
    assert "legal" in roles and "last" in roles
    assert not [role for role in roles if role.startswith(("owned", "won"))]


# --- square by square through the session ----------------------------------------------

SCAN = 0.01


class Table:
    """A Blokus Duo session fed by a scripted hand, ticked every scan as the loop does."""

    def __init__(self, board=None, *, colour_sensing=True, seats=None, seed=5):
        board = board if board is not None else new_game("blokus-duo")
        self.session = Session(board, seats=seats or {"b": "person", "w": "person"},
                               seed=1, colour_sensing=colour_sensing)
        self.hand = Hand(board.holes, random.Random(seed), start=1.0)
        for square, colour in board.sensor_view().items():
            self.hand.occupied.add(square)
            self.session.on_reading(square, True, 0.0, colour)
        self.t = 0.0
        self.events = []
        self.run()

    def run(self, seconds=2.0):
        """Feed what the hand did so far, ticking every scan, then ``seconds`` more."""
        touches = sorted(self.hand.readings, key=lambda touch: touch.t)
        self.hand.readings = []
        end = max([self.t, *(touch.t for touch in touches)]) + seconds
        index = 0
        while self.t <= end:
            while index < len(touches) and touches[index].t <= self.t:
                touch = touches[index]
                self.events += self.session.on_reading(touch.hole, touch.on, touch.t,
                                                       touch.colour)
                index += 1
            self.events += self.session.tick(self.t)
            self.t = round(self.t + SCAN, 6)
        self.hand.t = max(self.hand.t, self.t)

    def put(self, squares, colour=None, gap=(0.03, 0.15)):
        """A piece coming down square by square, ``gap`` seconds apart (under a settle)."""
        colour = colour or self.session.board.turn
        for square in squares:
            self.hand.place(square, colour)
            self.hand.pause(*gap)

    def take(self, squares, gap=(0.03, 0.15)):
        for square in squares:
            self.hand.lift(square)
            self.hand.pause(*gap)

    @property
    def moves(self):
        return [str(move) for move in self.session.board.move_stack]

    def of(self, kind):
        return [event for event in self.events if isinstance(event, kind)]


@pytest.mark.parametrize("colour_sensing", [True, False])
def test_a_piece_put_down_square_by_square_waits_then_is_that_move(colour_sensing):
    table = Table(colour_sensing=colour_sensing)
    # Two squares of the X piece, neither on a start point: part of a legal placement.
    table.put(["f11", "f10"])
    table.run(1.0)
    assert table.moves == [] and table.of(Waiting) and not table.of(OutOfSync)
    assert table.session.scene().named("seen") == {"f11", "f10"}
    assert table.session.message == "a move under way"
    table.put(["e10", "g10", "f9"])
    table.run()
    assert table.moves == ["f9,e10,f10,g10,f11"] and table.of(Moved)
    assert table.session.scene().named("last") == {"f9", "e10", "f10", "g10", "f11"}
    assert table.session.scene().named("seen") == frozenset()
    # The second player's piece, square by square in any order, covers the other point.
    table.put(["j7", "j6", "j5"])
    table.run()
    assert table.moves[-1] == "j5,j6,j7" and table.session.board.turn == "b"


def test_squares_that_fit_no_legal_placement_are_sync_mode_on_those_squares():
    table = Table()
    table.put(["a1", "b1"])  # far from both start points: no placement covers them
    table.run()
    assert table.moves == [] and table.session.sync is not None
    assert table.session.sync.empty == {"a1", "b1"} and not table.session.sync.fill
    assert table.session.scene().named("empty") == {"a1", "b1"}
    table.take(["a1", "b1"])
    table.run()
    assert table.session.sync is None and table.moves == []


def test_one_stray_square_is_an_illegal_placement_with_the_reason():
    table = Table(played(2))
    assert table.session.board.turn == "b"
    own = next(move for move in table.session.board.move_stack
               if table.session.board.owner(move.squares[0]) == "b")
    x, y = own.squares[0][0], int(own.squares[0][1:])
    beside = next(s for s in (f"{x}{y + 1}", f"{x}{y - 1}")
                  if s in table.session.board.holes
                  and table.session.board.owner(s) is None)
    table.put([beside])
    table.run()
    assert table.session.error == {beside} and table.moves == [str(m) for m in
                                                                played(2).move_stack]
    assert "not a legal move" in table.session.message


def test_lifting_the_last_piece_offers_the_takeback():
    table = Table()
    table.put(["e10", "e11", "e12", "f12"])
    table.run()
    assert table.moves == ["e10,e11,e12,f12"]
    table.take(["f12", "e12", "e11", "e10"])
    table.run()
    assert table.moves == [] and table.of(Takeback)
    assert table.session.message == "took back e10,e11,e12,f12"


def test_the_scene_lights_start_points_attachment_corners_the_last_piece_and_a_whole_hint():
    board = new_game("blokus-duo")
    assert game_scene(board).named("legal") == {"e10", "j5"}
    fixed = new_game("blokus-duo", start="fixed")
    assert game_scene(fixed).named("legal") == {"e10"}
    board.push(board.parse_move("e10,e11,f11"))
    scene = game_scene(board)
    assert scene.named("last") == {"e10", "e11", "f11"} and scene.named("legal") == {"j5"}
    board.push(board.parse_move("j5"))
    scene = game_scene(board)
    # b's corners: every corner square of its piece that no edge of it touches.
    assert scene.named("legal") == board.attachment_points("b") == {
        "d9", "f9", "d12", "g12", "g10"}
    assert scene.named("last") == {"j5"}
    # The hint lights the whole piece it suggests.
    session = Session(board, seats={"b": "person", "w": "person"}, seed=1,
                      thinker=__import__("app.table.thinker", fromlist=["x"]).InlineThinker())
    session.hint()
    session.tick(0.0)
    assert session.suggestion is not None
    assert session.scene().named("suggestion") == set(session.suggestion.squares)
    assert len(session.suggestion.squares) > 1


def test_the_last_piece_lifted_square_by_square_slowly_is_still_the_takeback():
    """Each square held off longer than the settle time: the board waits while part of
    the last piece is off (never a correction or sync mode), then takes it back."""
    table = Table()
    table.put(["e10", "e11", "e12", "f12"])
    table.run()
    assert table.moves == ["e10,e11,e12,f12"]
    table.take(["f12", "e12", "e11", "e10"], gap=(0.6, 0.8))
    table.run()
    assert table.moves == [] and table.of(Takeback)
    assert not table.of(OutOfSync) and table.session.correction is None
    assert table.session.message == "took back e10,e11,e12,f12"
