"""The simulator's window: any size from the Pi's 800x480 up, resized at will, with
nothing cut off; Esc asks before leaving a game in progress."""

import pygame
import pytest

from app.screen.simulator import Simulator, layout
from app.table.thinker import InlineThinker
from tests.simulator_driver import Clock, tap, wait
from tests.test_simulator import KULAMI, click, conhex_sim

SIZES = [(800, 480), (1280, 720), (1460, 660), (1920, 1080), (1024, 600), (600, 900),
         (720, 432)]


def fits(sim, surface):
    """Everything drawn lies inside the window, the board inside its square, the screen
    beside it; returns what the screen drew."""
    drawn = sim.draw(surface)
    window = surface.get_rect()
    board_area, screen_area = layout(surface.get_size())
    assert not board_area.colliderect(screen_area)
    assert window.contains(board_area) and window.contains(screen_area)
    assert board_area.contains(sim.drawer.extent), (sim.drawer.extent, board_area)
    assert drawn.outside(screen_area if not sim.asking else window) == []
    assert drawn.overlaps() == []
    assert min(board_area.size) >= min(surface.get_size()) // 2 - 1  # a board to play on
    return drawn


@pytest.fixture
def sim():
    clock = Clock()
    simulator = Simulator(KULAMI, clock=clock, seed=7, thinker=InlineThinker())
    simulator.window, simulator.clock_ = pygame.Surface((1460, 660)), clock
    simulator.draw(simulator.window)
    return simulator


@pytest.mark.parametrize("size", SIZES)
def test_every_screen_fits_every_window(sim, size):
    surface = pygame.Surface(size)
    fits(sim, surface)
    click(sim, "d4")
    fits(sim, surface)
    sim.console.act(sim.drawn.button("New game").action)  # the menu
    fits(sim, surface)
    sim.console.menu = None
    sim.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE))  # the question
    assert "Leave this game?" in fits(sim, surface).text


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_a_conhex_game_with_its_swap_button_fits(size):
    sim = conhex_sim()
    click(sim, "f6")
    drawn = fits(sim, pygame.Surface(size))
    assert drawn.button("Swap").enabled


def test_resizing_the_window_redraws_at_the_new_size(sim):
    pygame.display.init()
    sim.surface = pygame.display.set_mode((1460, 660), pygame.RESIZABLE)
    for size in [(800, 480), (1280, 720), (600, 900)]:
        sim.dirty = False
        assert sim.handle(pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0],
                                             h=size[1]))
        assert sim.dirty and sim.surface.get_size() == size
        sim.redraw()
        fits(sim, sim.surface)
        hole = sim.drawer.hole_at(sim.drawer.centres["a1"])
        assert hole == "a1"  # the mouse finds holes where they are drawn now


def test_the_pi_screen_window_takes_resizes_too():
    from app.games import new_game
    from app.screen.console import Console
    from app.screen.window import StatusWindow
    from app.table.session import Session

    pygame.display.init()
    window = StatusWindow(pygame.display.set_mode((800, 480), pygame.RESIZABLE),
                          Console(Session(new_game("kulami")), ("kulami",)))
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=(1280, 720), w=1280,
                                         h=720))
    window.pump()
    assert window.dirty and window.surface.get_size() == (1280, 720)
    window.redraw()
    assert window.console.drawn.outside(window.surface.get_rect()) == []


# --- Esc ------------------------------------------------------------------------------------
def esc(sim):
    return sim.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE))


def test_esc_leaves_at_once_when_no_game_is_in_progress(sim):
    assert esc(sim) is False
    assert sim.handle(pygame.event.Event(pygame.QUIT)) is False


def test_esc_asks_before_leaving_a_game_in_progress_and_stay_returns_to_it(sim):
    click(sim, "d4")
    assert esc(sim) is True and sim.asking
    drawn = sim.draw(sim.window)
    assert "Leave this game?" in drawn.text and "Stay" in drawn.text
    board_before = list(sim.session.board.move_stack)
    # The board is out of reach while the question is open.
    sim.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=sim.drawer.centres["a4"],
                                  button=1))
    assert "a4" not in sim.pieces
    drawn = tap(sim, "Stay")
    assert not sim.asking and "Leave this game?" not in drawn.text
    assert sim.session.board.move_stack == board_before
    click(sim, sim.session.status().pending)
    assert len(sim.session.board.move_stack) == 2


def test_esc_twice_or_leave_leaves(sim):
    click(sim, "d4")
    assert esc(sim) is True
    assert esc(sim) is False
    sim.asking = False
    assert esc(sim) is True
    drawn = sim.draw(sim.window)
    leave = drawn.button("Leave")
    assert sim.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=leave.rect.center,
                                         button=1)) is False
    assert sim.handle(pygame.event.Event(pygame.QUIT)) is False  # closing, asked already


def test_closing_the_window_asks_too_and_the_question_says_the_game_is_kept(tmp_path):
    from app.table.store import RecordStore

    clock = Clock()
    sim = Simulator(KULAMI, clock=clock, seed=7, thinker=InlineThinker(),
                    store=RecordStore(tmp_path))
    sim.window, sim.clock_ = pygame.Surface((1280, 720)), clock
    sim.draw(sim.window)
    click(sim, "d4")
    assert sim.handle(pygame.event.Event(pygame.QUIT)) is True
    assert "It is saved" in wait(sim).text
