"""The desktop simulator: mouse events on holes play games through the simulated sensors,
the sensing pipeline and the session, and the window shows what the LEDs show."""

import pygame
import pytest

from app.colours import ROLE_COLOURS
from app.games import GAMES, game
from app.screen.menu import Choice
from app.table.thinker import InlineThinker
from app.screen.simulator import BLINK_S, WINDOW, Simulator

KULAMI = Choice("kulami", {"layout": "square-1", "scoring": 0}, {"b": "person", "w": "engine"}, 2)


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


@pytest.fixture
def sim():
    clock = Clock()
    simulator = Simulator(KULAMI, clock=clock, seed=7, thinker=InlineThinker())
    simulator.window = pygame.Surface(WINDOW)
    simulator.draw(simulator.window)
    simulator.clock_ = clock
    return simulator


def wait(sim, seconds=1.0, blink_on=True):
    """Let the board settle, ending in the blink phase asked for, and redraw."""
    clock = sim.clock_
    end = clock.now + seconds
    while clock.now < end:
        clock.now += 0.1
        sim.step()
    phase = int(clock.now / BLINK_S) % 2 == 0
    if phase != blink_on:
        clock.now += BLINK_S
        sim.step()
    return sim.draw(sim.window)


def click(sim, hole, button=1):
    sim.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=sim.drawer.centres[hole],
                                  button=button))
    return wait(sim)


def tap(sim, label):
    drawn = sim.draw(sim.window)
    sim.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=drawn.button(label).rect.center,
                                  button=1))
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
    assert tuple(GAMES) == ("kulami", "conhex")


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
