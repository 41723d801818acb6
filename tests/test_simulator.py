"""The desktop simulator: mouse events on holes play games through the simulated sensors,
the sensing pipeline and the session, and the window shows what the LEDs show."""

import pygame
import pytest

from app.colours import ROLE_COLOURS
from app.games import GAMES, game
from app.screen.menu import Choice
from app.screen.simulator import BLINK_S, WINDOW, Simulator
from app.table.seats import words_of
from app.table.thinker import InlineThinker
from tests.simulator_driver import Clock, tap, wait

KULAMI = Choice("kulami", {"layout": "square-1", "scoring": 0}, {"b": "person", "w": "engine"}, 2)


@pytest.fixture
def sim():
    clock = Clock()
    simulator = Simulator(KULAMI, clock=clock, seed=7, thinker=InlineThinker())
    simulator.window = pygame.Surface(WINDOW)
    simulator.draw(simulator.window)
    simulator.clock_ = clock
    return simulator


def click(sim, hole, button=1):
    sim.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=sim.drawer.centres[hole],
                                  button=button))
    return wait(sim)


def glow(sim, hole):
    return sim.window.get_at(sim.drawer.centres[hole])[:3]


def test_a_whole_kulami_game_is_played_with_the_mouse_against_the_engine(sim):
    session = sim.session
    while not session.board.is_game_over():
        status = session.status()
        if status.pending is not None:
            hole = status.pending  # the engine's move, placed by the person for it
            assert glow(sim, hole) == ROLE_COLOURS["suggestion"]
        else:
            hole = sorted(str(m) for m in session.board.legal_moves)[0]
            assert glow(sim, hole) == sim.hole_leds()[hole] != (0, 0, 0)  # a legal target
        before = len(session.board.move_stack)
        drawn = click(sim, hole)
        assert len(session.board.move_stack) == before + 1
        assert sim.window.get_at(sim.drawer.centres[hole])[:3] == \
            game("kulami").players[status.turn].piece
        assert f"Moves ({before + 1})" in drawn.text
    outcome = session.board.outcome()
    drawn = sim.draw(sim.window)
    assert ("wins" in drawn.text) or ("A draw" in drawn.text)
    assert f"Red {outcome.scores['b']}" in drawn.text


def test_every_hole_glows_exactly_as_the_led_frame_says(sim):
    click(sim, "d4")
    frame = sim.strip.lit
    for name, hole in sim.profile.holes.items():
        if name in sim.drawer.centres and name not in sim.pieces:
            colour = frame[hole.leds[0]]
            expected = colour if any(colour) else (40, 28, 18)
            assert glow(sim, name) == expected, name


def test_a_misplaced_marble_is_flagged_and_lifting_it_clears_the_error(sim):
    click(sim, "d4")
    pending = sim.session.status().pending
    click(sim, pending)
    legal = {str(m) for m in sim.session.board.legal_moves}
    wrong = next(h for h in sim.drawer.centres if h not in legal and h not in sim.pieces)
    drawn = click(sim, wrong)
    assert sim.session.status().message_kind == "error"
    assert "Not a legal move" in drawn.text
    assert sim.hole_leds()[wrong] == ROLE_COLOURS["error"]  # the red flash, blink on
    click(sim, wrong)  # lift it
    assert sim.session.status().message_kind != "error"
    assert len(sim.session.board.move_stack) == 2


def test_lifting_the_last_marble_takes_it_back(sim):
    click(sim, "d4")
    click(sim, sim.session.status().pending)
    last = sim.session.board.move_text(sim.session.board.last_move)
    click(sim, last)
    assert len(sim.session.board.move_stack) == 1


def test_the_right_button_places_the_other_colour_and_the_board_catches_it(sim):
    drawn = click(sim, "d4", button=3)
    assert sim.pieces["d4"] == "w"
    assert glow(sim, "d4") == game("kulami").players["w"].piece
    # The simulated sensors tell the colours apart: black's marble on red's turn is no
    # move; the hole is shown (lit red under the marble) and the screen says so.
    assert sim.session.board.move_stack == []
    assert sim.hole_leds()["d4"] == ROLE_COLOURS["error"]
    assert sim.session.status().message_kind in ("error", "sync")
    assert "d4" in drawn.text
    click(sim, "d4")  # lifted
    click(sim, "d4")  # and red's marble placed: red's move
    assert [str(m) for m in sim.session.board.move_stack][:1] == ["d4"]


def test_the_screen_buttons_work_from_the_window(sim):
    click(sim, "d4")
    click(sim, sim.session.status().pending)
    tap(sim, "Undo")
    assert sim.session.board.move_stack == []
    drawn = tap(sim, "New game")
    assert "Red (starts)" in drawn.text and "Engine level" in drawn.text
    tap(sim, "ConHex")
    drawn = tap(sim, "Start")
    assert sim.session.board.game == "conhex"
    assert drawn.text.startswith("ConHex: ")
    assert sim.pieces == {}
    assert len(sim.drawer.centres) == 69


def test_a_conhex_game_claims_cells_and_lights_them():
    clock = Clock()
    sim = Simulator(Choice("conhex", {"pie": False, "handicap": 0},
                           {"b": "person", "w": "person"}, 2), clock=clock)
    sim.window, sim.clock_ = pygame.Surface(WINDOW), clock
    sim.draw(sim.window)
    for hole in ("c10", "f6", "d10", "f5"):  # red claims edge cell 1 with c10 and d10
        click(sim, hole)
    assert "1" in sim.session.board.owned("b")
    assert any(sim.area_leds()["1"])
    assert "Red 1" in sim.draw(sim.window).text


def test_the_simulator_offers_the_games_it_can_draw():
    assert tuple(GAMES) == ("kulami", "conhex", "blokus-duo", "akron")


def test_escape_and_closing_the_window_stop_the_loop(sim):
    assert sim.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE)) is False
    assert sim.handle(pygame.event.Event(pygame.QUIT)) is False
    assert sim.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a)) is True


def test_the_simulator_saves_every_move_of_its_game(tmp_path):
    from app.table.store import RecordStore
    from engines.kulami.board import KulamiBoard

    clock = Clock()
    store = RecordStore(tmp_path)
    simulator = Simulator(KULAMI, clock=clock, seed=7, store=store, thinker=InlineThinker())
    simulator.window = pygame.Surface(WINDOW)
    simulator.draw(simulator.window)
    simulator.clock_ = clock
    click(simulator, "d4")
    [record] = store.records()
    saved = KulamiBoard.from_record(record.read_text())
    assert [str(m) for m in saved.move_stack] == ["d4"]


# --- saving, resuming after a crash, the load list --------------------------------------
def simulator_on(store, choice=KULAMI, resume=False):
    clock = Clock()
    sim = Simulator(choice, clock=clock, seed=7, store=store, thinker=InlineThinker(),
                    resume=resume)
    sim.window, sim.clock_ = pygame.Surface(WINDOW), clock
    sim.draw(sim.window)
    return sim


def test_every_game_is_saved_under_its_simulated_board_and_resumes_after_a_crash(tmp_path):
    from app.table.store import RecordStore

    sim = simulator_on(RecordStore(tmp_path))
    click(sim, "d4")
    click(sim, sim.session.status().pending)
    click(sim, "a4")
    played = [str(m) for m in sim.session.board.move_stack]
    assert len(played) == 3
    # The process dies here; the next start continues the game on the same board.
    again = simulator_on(RecordStore(tmp_path), resume=True)
    assert [str(m) for m in again.session.board.move_stack] == played
    assert again.store.profile == "kulami-sim"
    assert again.pieces == again.session.board.sensor_view()  # the pieces are still there
    wait(again)
    assert again.session.status().state == "placing"  # the board matches: no fixing
    assert words_of(again.session.seats) == {"b": "person", "w": "engine"}
    click(again, again.session.status().pending)  # and it plays on
    assert len(again.session.board.move_stack) == 4


def test_a_finished_game_is_not_resumed_and_without_a_record_a_new_game_starts(tmp_path):
    from app.table.store import RecordStore

    store = RecordStore(tmp_path)
    sim = simulator_on(store, resume=True)  # nothing saved: a new game, saved at once
    assert sim.session.board.move_stack == [] and len(store.records()) == 1
    board = sim.session.board
    import random

    from engines.players import choose_move
    rng = random.Random(1)
    while not board.is_game_over():
        board.push(choose_move(board, 1, rng))
    store.save(board)
    again = simulator_on(RecordStore(tmp_path), resume=True)
    assert again.session.board.move_stack == [] and len(again.store.records()) == 2


def test_an_older_unfinished_game_is_resumed_after_a_newer_one_finished(tmp_path):
    import random

    from app.table.store import RecordStore
    from engines.players import choose_move
    store = RecordStore(tmp_path, profile="kulami-sim")
    unfinished = game("kulami").new_board()
    unfinished.push_text("d4")
    store.start(unfinished)
    finished, rng = game("kulami").new_board(), random.Random(1)
    while not finished.is_game_over():
        finished.push(choose_move(finished, 1, rng))
    store.start(finished)
    again = simulator_on(RecordStore(tmp_path), resume=True)
    assert [str(m) for m in again.session.board.move_stack] == ["d4"]
    assert again.store.current.name == "000001-kulami.sgf" and again.pieces == {"d4": "b"}


def test_a_game_left_before_its_first_move_is_not_kept(tmp_path):
    """Opening the simulator and closing it kept a game of no moves every time."""
    from app.table.store import RecordStore

    store = RecordStore(tmp_path)
    sim = simulator_on(store)  # a new Kulami game, saved at once
    assert [p.name for p in store.records()] == ["000001-kulami.sgf"]
    people = {"b": "person", "w": "person"}
    sim.choose(Choice("conhex", {"pie": True, "handicap": 0}, people, 2))
    assert [p.name for p in store.records()] == ["000001-conhex.sgf"]
    sim.draw(sim.window)
    click(sim, "f6")
    assert len(sim.session.board.move_stack) == 1
    sim.choose(KULAMI)
    assert [p.name for p in store.records()] == ["000001-conhex.sgf", "000002-kulami.sgf"]
    sim.pump = lambda: False  # the window closed
    sim.run(sim.window)
    assert [p.name for p in store.records()] == ["000001-conhex.sgf"]
    # A game of no moves saved before (a crash, its layout set out) and continued is kept.
    RecordStore(tmp_path, profile="kulami-sim").start(game("kulami").new_board())
    again = simulator_on(RecordStore(tmp_path), resume=True)
    assert again.session.resumed and again.store.current.name == "000002-kulami.sgf"
    again.choose(Choice("conhex", {"pie": True, "handicap": 0}, people, 2))
    assert [p.name for p in store.records()][:2] == ["000001-conhex.sgf",
                                                    "000002-kulami.sgf"]


def test_a_saved_game_is_continued_from_the_menus_load_list(tmp_path):
    from app.table.store import RecordStore

    store = RecordStore(tmp_path)
    conhex = Choice("conhex", {"pie": False, "handicap": 0}, {"b": "person", "w": "person"}, 2)
    sim = simulator_on(store, conhex)
    for hole in ("f6", "e6"):
        click(sim, hole)
    tap(sim, "New game")
    tap(sim, "Kulami")
    tap(sim, "Start")  # a Kulami game now; the ConHex game is in the load list
    click(sim, "d4")
    tap(sim, "New game")
    drawn = tap(sim, "Saved games")
    label = next(b.label for b in drawn.buttons if b.label.startswith("ConHex"))
    assert "2 moves" in label and "no pie rule" in label
    drawn = tap(sim, label)
    board = sim.session.board
    assert board.game == "conhex" and [str(m) for m in board.move_stack] == ["f6", "e6"]
    assert sim.pieces == {"f6": "b", "e6": "w"} and len(sim.drawer.centres) == 69
    assert sim.store.profile == "conhex-sim"
    click(sim, "d6")
    assert len(sim.session.board.move_stack) == 3
    assert [str(m) for m in type(board).from_record(
        sim.store.current.read_text()).move_stack] == ["f6", "e6", "d6"]


# --- the ConHex swap ----------------------------------------------------------------------
def conhex_sim(pie=True):
    clock = Clock()
    sim = Simulator(Choice("conhex", {"pie": pie, "handicap": 0},
                           {"b": "person", "w": "person"}, 2), clock=clock, seed=3)
    sim.window, sim.clock_ = pygame.Surface(WINDOW), clock
    sim.draw(sim.window)
    return sim


def piece_at(sim, hole):
    return sim.window.get_at(sim.drawer.centres[hole])[:3]


def test_the_swap_is_a_button_while_it_is_legal_and_the_first_gem_blinks():
    sim = conhex_sim()
    drawn = wait(sim)
    assert "Swap" not in [b.label for b in drawn.buttons]  # nothing to swap yet
    drawn = click(sim, "f6")
    swap = drawn.button("Swap")
    assert swap.enabled and "Blue may swap" in drawn.text
    red, blue = (game("conhex").players[p].piece for p in "bw")
    assert sim.blinking() == {"f6"}
    assert piece_at(sim, "f6") == red  # blink on: the gem
    sim.clock_.now += BLINK_S
    assert sim.dirty  # the window is redrawn as it blinks
    wait(sim, 0.1, blink_on=False)
    assert piece_at(sim, "f6") != red  # blink off: only a ring in its colour
    drawn = click(sim, "e6")  # blue places instead: the swap is gone
    assert "Swap" not in [b.label for b in drawn.buttons] and not sim.blinking()


def test_the_swap_button_swaps_and_the_gem_takes_blues_colour():
    sim = conhex_sim()
    drawn = click(sim, "f6")
    drawn = tap(sim, "Swap")
    board = sim.session.board
    assert [board.move_text(m) for m in board.move_stack] == ["f6", "swap"]
    assert sim.pieces == {"f6": "w"} == board.sensor_view()
    assert piece_at(sim, "f6") == game("conhex").players["w"].piece
    assert sim.session.status().state == "waiting"  # the board matches: no fixing
    assert "Red to move" in drawn.text and "Swap" not in [b.label for b in drawn.buttons]


def test_without_the_pie_rule_there_is_no_swap_button():
    sim = conhex_sim(pie=False)
    drawn = click(sim, "f6")
    assert "Swap" not in [b.label for b in drawn.buttons] and not sim.blinking()


def test_turning_the_first_gem_over_by_hand_is_the_swap_on_a_colour_sensing_board():
    sim = conhex_sim()
    click(sim, "f6")
    click(sim, "f6", button=3)  # the right button turns the gem over in one go
    board = sim.session.board
    assert [board.move_text(m) for m in board.move_stack] == ["f6", "swap"]


def test_a_finished_conhex_game_outlines_its_winning_chain_on_the_drawn_board():
    import random

    from engines.players import choose_move

    sim = conhex_sim(pie=False)
    rng = random.Random(4)
    while not sim.session.board.is_game_over():
        board = sim.session.board
        click(sim, board.move_text(choose_move(board, 1, rng)))
    board = sim.session.board
    winner = board.outcome().winner
    chain = board.winning_chain(winner)
    colour = (255, 255, 255)
    assert chain and sim.marked() == {c: colour for c in chain}

    def count():
        sim.draw(sim.window)
        area = sim.drawer.area
        return sum(sim.window.get_at((x, y))[:3] == colour
                   for x in range(area.left, area.right, 2)
                   for y in range(area.top, area.bottom, 2))

    marked = count()
    sim.marked = lambda: {}
    assert marked > count() + 20 * len(chain)
    assert "The winning chain" in sim.draw(sim.window).text


def test_a_game_asked_for_during_a_turn_begins_once_that_turn_is_over(tmp_path):
    """The menu's load list and the page ask from inside a turn of the table loop (the
    window's events, the page's commands); the new board and session came in at once, so
    the rest of that turn worked on a table it no longer had (a turn within a turn)."""
    from app.table.store import RecordStore

    store = RecordStore(tmp_path)
    people = {"b": "person", "w": "person"}
    sim = simulator_on(store, Choice("conhex", {"pie": False, "handicap": 0}, people, 2))
    click(sim, "f6")
    saved = next(s for s in store.saved() if s.game == "conhex")
    sim.choose(KULAMI)
    kulami_table, during = sim.table, []

    def pump():
        sim.console.load(saved)  # the load list's tap, inside the turn
        sim.ask(Choice("akron", {}, people, 2))  # and the page's new game after it
        during.append((sim.table, sim.session.board.game))
        return True

    sim.pump = pump
    assert sim.turn()
    assert during == [(kulami_table, "kulami")]  # nothing replaced under the turn
    assert sim.session.board.game == "akron"  # the last asked, once the turn was over
    sim.console.load(saved)  # outside a turn: begun at the next step, as before
    sim.step()
    assert [str(m) for m in sim.session.board.move_stack] == ["f6"]


def test_a_click_during_a_turn_is_taken_by_the_next_turn_never_a_turn_within_it(sim):
    """The window's clicks come from the loop's own pump, inside a turn: the hand put the
    marble down and then ran the table's sense and step itself, a turn within the turn
    (twice each in one turn). Now the turn under way steps once, and the next turn's scan
    reads the marble."""
    table, entered = sim.table, []
    for part in ("sense", "step"):
        def counted(t, run=getattr(table, part), part=part):
            entered.append(part)
            return run(t)
        setattr(table, part, counted)
    event = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=sim.drawer.centres["d4"],
                               button=1)
    sim.pump = lambda: sim.handle(event)
    assert sim.turn()
    assert entered == ["sense", "step"]  # the turn's own, nothing nested
    assert sim.pieces == {"d4": "b"}  # the hand holds it down on the sensor
    sim.pump = lambda: True
    wait(sim)
    assert [str(move) for move in sim.session.board.move_stack][:1] == ["d4"]
