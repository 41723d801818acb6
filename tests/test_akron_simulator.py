"""Akron on the desktop simulator: the pyramid drawn from above (stacks, covered and
pinned balls, cut contacts), the simulated pile with gravity under the mouse, sensors
that see only the holes, and the supplies beside the board."""

import random

import pygame
import pytest

from app.games import game, new_game
from engines.akron.pile import can_lift, can_put, holes, lift
from app.screen.boards import drawer_for
from app.screen.boards.akron import (BALL_RADIUS, DARK, PIN_RING, WOOD, AkronDrawer,
                                     ball_radius, shadowed)
from app.screen.menu import Choice
from app.screen.simulator import WINDOW, Simulator
from app.table.store import RecordStore
from app.table.thinker import InlineThinker
from engines.akron.geometry import HOLES, NAMES
from tests.simulator_driver import Clock, tap, wait

PEOPLE = Choice("akron", {}, {"b": "person", "w": "person"}, 2)
WHITE, RED = (game("akron").players[p].piece for p in ("b", "w"))
#: A legal game building a small pyramid in the bottom-left corner: a 3x3 block of
#: holes, four level-2 balls on it and red's 3c3 on those. 3c3 covers 1c3; 1c1 carries
#: 2b2 and 2d2 (pinned); 1a1 carries only 2b2, with 3c3 on the same diagonal above.
PYRAMID = ("1a1 1c1 1a3 1c3 1e1 1e3 1a5 1c5 1e5 1g3 1a7 1g3-2d4 1a7-2b4 1g3 1a7 "
           "1g3-2d2 1a7-2b2 1g3 1a7 1g3-3c3").split()


def played(moves):
    board = new_game("akron")
    for move in moves:
        board.push(board.parse_move(move))
    return board


def simulator(tmp_path=None, moves=()):
    """A simulator for two people, resuming ``moves`` saved on its board when given."""
    store = None
    if moves:
        store = RecordStore(tmp_path, profile="akron-sim")
        board = new_game("akron")
        store.start(board)
        for move in moves:
            board.push(board.parse_move(move))
        store.save(board)
        store = RecordStore(tmp_path)
    clock = Clock()
    sim = Simulator(PEOPLE, clock=clock, seed=7, store=store, thinker=InlineThinker(),
                    resume=bool(moves))
    sim.window, sim.clock_ = pygame.Surface(WINDOW), clock
    sim.draw(sim.window)
    return sim


def click(sim, point, button=1):
    sim.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=sim.drawer.ball_centres[point],
                                  button=button))
    return wait(sim)


def pixel(sim, point, dx=0.0):
    """The window's colour at ``point``'s centre, ``dx`` hole spacings to the right."""
    x, y = sim.drawer.ball_centres[point]
    return sim.window.get_at((x + round(dx * sim.drawer.unit), y))[:3]


# --- the pile: physics without a window ---------------------------------------------------
def test_a_ball_comes_out_only_with_at_most_one_ball_on_it_and_the_chain_above_drops():
    pile = played(PYRAMID).balls()
    assert not can_lift(pile, "1c1")  # 2b2 and 2d2 rest on it
    assert not can_lift(pile, "1c3")  # covered by 3c3, four rest on it
    before = dict(pile)
    colour, drops = lift(pile, "1a1")
    assert colour == "b"
    assert drops == [("2b2", "1a1"), ("3c3", "2b2")]  # along the diagonal, lowest first
    assert pile["1a1"] == before["2b2"] and pile["2b2"] == before["3c3"]
    assert "3c3" not in pile and len(pile) == len(before) - 1
    with pytest.raises(ValueError, match="pinned"):
        lift(pile, "1c1")


def test_a_ball_goes_down_only_into_an_empty_hole_or_onto_four_balls():
    pile = played(PYRAMID).balls()
    assert can_put(pile, "1o15") and not can_put(pile, "1a1")
    assert not can_put(pile, "2b6")  # 1c7 is empty below it
    assert not can_put(pile, "3c3")  # taken
    lift(pile, "3c3")
    assert can_put(pile, "3c3")
    assert holes(pile) == {name: c for name, c in pile.items() if name in HOLES}


# --- the simulator's hand -----------------------------------------------------------------
def test_a_resumed_game_sets_out_every_ball_and_the_sensors_see_only_the_holes(tmp_path):
    sim = simulator(tmp_path, PYRAMID)
    board = sim.session.board
    assert sim.pieces == board.balls()
    scan = sim.sensors.read()
    assert sorted(scan) == sorted(HOLES)
    assert {hole for hole, on in scan.items() if on} == set(board.sensor_view())
    assert dict(scan.colours) == board.sensor_view()
    wait(sim)
    assert sim.session.status().state != "sync"  # the board as the game has it


def test_clicking_a_ball_lifts_the_topmost_there_and_gravity_acts_at_once(tmp_path):
    sim = simulator(tmp_path, PYRAMID)
    before = dict(sim.pieces)
    click(sim, "1c3")  # 3c3 lies over it: the top ball comes out
    assert sim.held == "w" and "3c3" not in sim.pieces
    click(sim, "3c3")  # put it back where it was
    assert sim.held is None and sim.pieces == before
    click(sim, "1c1")  # pinned: it stays, nothing in hand
    assert sim.held is None and sim.pieces == before
    scan = sim.sensors.read()
    click(sim, "1e1")  # 2d2 (red) drops into 1e1, 3c3 into 2d2
    assert sim.held == "b"
    assert sim.pieces["1e1"] == "w" and sim.pieces["2d2"] == "w" and "3c3" not in sim.pieces
    assert sim.sensors.read().colours["1e1"] == "w"  # the hole's sensor saw the drop
    assert sim.sensors.read() is not scan


def test_a_drop_shows_on_the_drawn_board(tmp_path):
    sim = simulator(tmp_path, PYRAMID)
    # Beside the level digit on a ball above the board.
    assert pixel(sim, "2b2", dx=0.27) == WHITE and pixel(sim, "3c3", dx=0.27) == RED
    click(sim, "1a1")  # white's 2b2 drops into 1a1, red's 3c3 into 2b2
    assert pixel(sim, "2b2", dx=0.27) == RED
    # 1c3 is no longer covered: it shows in full colour where 3c3 hid it.
    assert pixel(sim, "1c3") == RED
    assert pixel(sim, "1a1", dx=0.3) == WHITE


def test_a_ball_moved_above_the_board_changes_no_sensor(tmp_path):
    sim = simulator(tmp_path, PYRAMID)
    scan = sim.sensors.read()
    click(sim, "3c3")
    assert sim.held == "w"
    click(sim, "3c3")
    click(sim, "2b2", button=3)  # turned over: red now
    assert sim.pieces["2b2"] == "w"
    assert sim.sensors.read() is scan  # not one place or lift reached the sensors
    click(sim, "1a7")  # a hole: its sensor sees the ball leave
    assert sim.sensors.read()["1a7"] is False


@pytest.mark.usefixtures("no_serial_links_left")
def test_with_serial_the_hand_sets_only_the_virtual_devices_hole_channels(tmp_path):
    store = RecordStore(tmp_path, profile="akron-sim")
    board = played(PYRAMID)
    store.start(new_game("akron"))
    store.save(board)
    sim = Simulator(PEOPLE, clock=Clock(), seed=7, store=RecordStore(tmp_path),
                    thinker=InlineThinker(), resume=True, serial=True)
    try:
        sim.draw(pygame.Surface(WINDOW))
        channel = {hole: sim.profile.holes[hole].channel for hole in HOLES}
        states = lambda: {hole: sim.device.scanner.states[channel[hole]] for hole in HOLES}
        before = states()
        assert {hole for hole, state in before.items() if state} == set(board.sensor_view())
        for button, point in ((1, "3c3"), (1, "3c3"), (3, "2b2")):
            sim.click(sim.drawer.ball_centres[point], button)
        assert states() == before  # moves above the board: not one channel changed
        sim.click(sim.drawer.ball_centres["1e1"])  # red's 2d2 drops into white's hole
        assert states() == dict(before, **{"1e1": 2}) and before["1e1"] == 1
    finally:
        sim.close()


def test_a_ball_in_hand_goes_only_where_a_ball_can_go_and_shows_under_the_mouse(tmp_path):
    sim = simulator(tmp_path, PYRAMID)
    click(sim, "3c3")
    far = sim.drawer.ball_centres["1o15"]
    sim.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=far, rel=(0, 0), buttons=()))
    assert sim.dirty
    sim.draw(sim.window)
    assert sim.window.get_at(far)[:3] == RED  # the held ball, under the mouse
    click(sim, "2b6")  # nothing under it on 1c7: it stays in hand
    assert sim.held == "w" and "2b6" not in sim.pieces
    click(sim, "1a7")  # a ball there, but a ball in hand goes down, never lifts another
    assert sim.held == "w" and sim.pieces["1a7"] == "b"
    click(sim, "1o15", button=3)  # put aside, off the board
    assert sim.held is None and "1o15" not in sim.pieces
    click(sim, "1o15")  # with nothing in hand an empty hole takes the mover's ball
    assert sim.pieces["1o15"] == "b"


def test_supplies_show_under_the_board_and_count_down(tmp_path):
    sim = simulator(tmp_path, PYRAMID)
    drawn = sim.draw(sim.window)
    assert "White: 24 left" in drawn.text and "Red: 25 left" in drawn.text
    drawn = click(sim, "1o15")
    assert "White: 23 left" in drawn.text


def test_a_placement_game_played_by_clicks_reaches_a_win():
    sim = simulator()
    board = sim.session.board
    for row in range(1, 16, 2):
        click(sim, f"1a{row}")  # white joins row 1 and row 15 up column a
        if board.is_game_over():
            break
        click(sim, f"1e{row}")  # red stays in column e, joining nothing
    drawn = wait(sim)
    assert board.outcome().winner == "b"
    assert "White wins" in drawn.text, drawn.text
    assert sim.pieces == board.balls()


# --- the drawer: stacks, covered and pinned balls, cuts, hit testing ----------------------
def drawn(pieces, size=1000):
    """``pieces`` drawn on a board of ``size`` pixels: the surface and its drawer."""
    surface = pygame.Surface((size, size))
    drawer = drawer_for(new_game("akron"), surface.get_rect())
    drawer.draw(surface, pieces)
    return surface, drawer


def at(surface, drawer, point, dx=0.0):
    x, y = drawer.ball_centres[point]
    return surface.get_at((x + round(dx * drawer.unit), y))[:3]


def test_every_level_is_drawn_smaller_so_a_covered_ball_shows_as_a_rim_in_shadow():
    pile = played(PYRAMID).balls()
    rim = ball_radius(2) + 0.02  # just outside 3c3, on 1c3 under it
    surface, drawer = drawn(pile)
    assert isinstance(drawer, AkronDrawer)
    assert at(surface, drawer, "1c3", dx=rim) == shadowed(RED)
    assert at(surface, drawer, "1c3", dx=0.2) == RED  # the top ball, 3c3, over it
    del pile["3c3"]  # the top ball taken off: nothing rests on it
    surface, drawer = drawn(pile)
    assert at(surface, drawer, "1c3", dx=rim) == RED  # uncovered: in full colour


def test_a_pinned_ball_carries_a_dark_ring_and_a_free_one_none():
    surface, drawer = drawn(played(PYRAMID).balls())
    ring = PIN_RING * BALL_RADIUS - 0.02  # on the ring, drawn inward from its radius
    assert at(surface, drawer, "1c1", dx=ring) == DARK  # 2b2 and 2d2 rest on it
    assert at(surface, drawer, "1e5", dx=ring) == WHITE  # only 2d4 rests on it
    assert at(surface, drawer, "1a7", dx=ring) == WHITE  # nothing on it


def test_a_ball_above_the_board_carries_its_level_digit():
    surface, drawer = drawn(played(PYRAMID).balls())

    def ink(point):
        x, y = drawer.ball_centres[point]
        reach = round(0.15 * drawer.unit)
        return sum(sum(surface.get_at((x + dx, y + dy))[:3]) < 200
                   for dx in range(-reach, reach + 1) for dy in range(-reach, reach + 1))

    assert ink("2b4") > 20  # a white level-2 ball: a dark "2" on it
    assert ink("1e5") == 0  # a white ball in a hole: no digit


def test_a_contact_an_overpass_cuts_is_crossed_only_between_balls_of_one_colour():
    base = {f"1{c}{r}": "w" for c in "ace" for r in (1, 3, 5)}
    base.update({"1c3": "b", "1e3": "b"})
    bridged = dict(base, **{"2d2": "w", "2d4": "w"})

    def middle(pieces):
        surface, drawer = drawn(pieces)
        (ax, ay), (bx, by) = drawer.ball_centres["1c3"], drawer.ball_centres["1e3"]
        return surface.get_at(((ax + bx) // 2, (ay + by) // 2))[:3]

    assert middle(bridged) == DARK
    assert middle(dict(bridged, **{"1e3": "w"})) == WOOD  # white and red: nothing to cut
    assert middle(dict(base, **{"2d2": "w"})) == WOOD  # one bridge does not cut
    assert middle(base) == WOOD


def test_the_mouse_finds_the_topmost_ball_and_the_highest_point_a_ball_can_go():
    pile = played(PYRAMID).balls()
    _, drawer = drawn(pile)
    centre = drawer.ball_centres
    assert drawer.ball_at(centre["1c3"], pile) == "3c3"
    assert drawer.ball_at(centre["2b2"], pile) == "2b2"
    assert drawer.ball_at(centre["1c1"], pile) == "1c1"
    assert drawer.ball_at(centre["1o15"], pile) is None
    assert drawer.point_at(centre["1o15"], pile) == "1o15"
    assert drawer.point_at(centre["1a1"], pile) is None
    assert drawer.point_at(centre["2b6"], pile) is None  # 1c7 under it is empty
    del pile["3c3"]  # the top ball taken off: nothing rests on it
    assert drawer.point_at(centre["1c3"], pile) == "3c3"
    assert drawer.ball_at(centre["1c3"], pile) == "1c3"
    # Every point of the pyramid is drawn inside the board.
    board = pygame.Rect(drawer.to_px((0, 0)), (8 * drawer.unit, 8 * drawer.unit))
    assert len(drawer.ball_centres) == len(NAMES) == 204
    assert all(board.collidepoint(c) for c in drawer.ball_centres.values())


def test_tabletop_simulate_akron_opens_the_window_and_plays(monkeypatch, tmp_path):
    from app.cli import main
    from app.screen import display
    from app.screen.display import DisplayChoice

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr(display, "choose_display", lambda: DisplayChoice("dummy", False))
    seen = {}

    def run(self, surface):
        clock = Clock()  # the loop's time from now on, stepped by hand
        clock.now = self.clock()
        self.clock = self.clock_ = clock
        self.window = surface
        self.draw(surface)
        for hole in ("1a1", "1c1"):
            click(self, hole)
        seen.update(moves=[str(m) for m in self.session.board.move_stack],
                    profile=self.store.profile,
                    seats={c: s.kind for c, s in self.session.seats.items()})

    monkeypatch.setattr(Simulator, "run", run)
    assert main(["simulate", "akron", "--opponent", "person", "--new"]) == 0
    assert seen == {"moves": ["1a1", "1c1"], "profile": "akron-sim",
                    "seats": {"b": "person", "w": "person"}}


def above_the_board(move) -> bool:
    text = str(move)
    return "-" in text and all(point[0] != "1" for point in text.split("-"))


def a_game_with_a_move_above_the_board():
    """The moves of a random game that ends within 200 actions, and how many of them
    come before a move from one point above the board to another."""
    rng = random.Random(4)
    while True:
        board = new_game("akron")
        while not board.is_game_over() and len(board.move_stack) < 200:
            board.push(rng.choice(list(board.legal_moves)))
        upper = [i for i, move in enumerate(board.move_stack) if above_the_board(move)]
        if board.is_game_over() and upper:
            return [str(move) for move in board.move_stack], upper[0]


def make(sim, text):
    """A person makes ``text`` on the simulated pile by clicks, then confirms it on the
    status screen if the sensors could not tell it."""
    board = sim.session.board
    before = len(board.move_stack)
    for point in text.split("-"):
        click(sim, point)
    if len(board.move_stack) == before:
        drawn = sim.draw(sim.window)
        if not sim.session.candidates:
            drawn = tap(sim, "Confirm")  # moved where no sensor sees
        if len(sim.session.candidates) == 1:
            drawn = tap(sim, "Confirm")
        else:
            while text not in [button.label for button in drawn.buttons]:
                drawn = tap(sim, f"More ({len(sim.session.candidates)})")
            drawn = tap(sim, text)
    assert board.move_text(board.move_stack[-1]) == text and len(board.move_stack) == before + 1
    return sim.draw(sim.window)


def test_a_game_with_a_move_above_the_board_confirmed_on_screen_is_played_to_its_end(tmp_path):
    moves, upper = a_game_with_a_move_above_the_board()
    sim = simulator(tmp_path, moves[:upper])
    board = sim.session.board
    scan = sim.sensors.read()
    for point in moves[upper].split("-"):
        drawn = click(sim, point)
    assert sim.sensors.read() is scan and len(board.move_stack) == upper
    assert "Moved a piece the sensors cannot see? Press Confirm." in drawn.text
    drawn = tap(sim, "Confirm")
    assert sim.session.candidates and moves[upper] in [str(m) for m in sim.session.candidates]
    while moves[upper] not in [button.label for button in drawn.buttons]:
        drawn = tap(sim, f"More ({len(sim.session.candidates)})")
    tap(sim, moves[upper])
    assert str(board.move_stack[-1]) == moves[upper] and sim.pieces == board.balls()
    for text in moves[upper + 1:]:
        drawn = make(sim, text)
        assert sim.pieces == board.balls()
    winner = board.outcome().winner
    assert winner and f"{game('akron').players[winner].title} wins" in drawn.text
