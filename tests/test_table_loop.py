"""The table loop: one loop for the board and the simulator, the status screen drawn only
on change, and the engine thinking off the loop while the sensors are still read."""

import threading

import pygame
import pytest

from app.errors import DisconnectError
from app.games import new_game
from app.hardware.leds import SimulatedStrip
from app.hardware.profile import load_profile
from app.hardware.sensors import SimulatedSensors
from app.screen.console import Console
from app.screen.window import StatusWindow
from app.table import thinker as thinker_module
from app.table.loop import Table
from app.table.service import Notifier
from app.table.session import Session, State
from app.table.thinker import InlineThinker, Thinker
from engines.players import Judgement

PROFILE = load_profile("kulami-sim")
TURN = 0.01


class CountingNotifier(Notifier):
    def __init__(self):
        super().__init__(None)
        self.pings = 0

    def watchdog(self):
        self.pings += 1
        return True


def table_for(session, *, screen=None, notifier=None):
    sensors = SimulatedSensors(PROFILE.holes)
    strip = SimulatedStrip(PROFILE.led_count)
    return Table(session, PROFILE, strip, sensors, screen=screen, notifier=notifier), sensors


def turns(table, start, count):
    t = start
    for _ in range(count):
        table.turn(t)
        t = round(t + TURN, 6)
    return t


def test_the_status_screen_is_drawn_at_start_on_change_and_never_when_idle():
    pygame.display.init()
    pygame.font.init()
    surface = pygame.display.set_mode((800, 480))
    session = Session(new_game("kulami"), seats={"b": "person", "w": "person"})
    window = StatusWindow(surface, Console(session, ("kulami", "conhex")))
    draws = []
    redraw = window.redraw
    window.redraw = lambda: (draws.append(session.revision), redraw())
    table, sensors = table_for(session, screen=window)
    t = turns(table, 0.0, 100)
    # the first picture, perhaps once more when the empty board is first judged
    assert len(draws) <= 2
    idle = len(draws)
    t = turns(table, t, 100)
    assert len(draws) == idle  # then nothing while nobody moves
    sensors.place("d4")
    t = turns(table, t, 100)  # debounce and settle: the move is played
    assert session.board.move_stack and len(draws) >= 2
    assert "Red played d4" in window.console.drawn.text
    settled = len(draws)
    turns(table, t, 200)
    assert len(draws) == settled


def test_an_idle_board_lights_its_leds_once():
    session = Session(new_game("kulami"), seats={"b": "person", "w": "person"})
    table, _ = table_for(session)
    turns(table, 0.0, 300)
    assert len(table.strip.frames) == 1  # no blinking light on an empty board


class SlowSearch:
    """A stand-in for a long search: reports progress, then waits to be let go."""

    def __init__(self):
        self.go = threading.Event()
        self.started = threading.Event()

    def __call__(self, board, level, rng, player=None, progress=None):
        self.started.set()
        progress(0.5)
        while not self.go.wait(0.005):
            progress(0.5)
        progress(1.0)
        return Judgement(next(iter(board.legal_moves)), level)


@pytest.fixture
def slow_search(monkeypatch):
    search = SlowSearch()
    monkeypatch.setattr(thinker_module, "judge", search)
    yield search
    search.go.set()


def test_the_engine_thinks_off_the_loop_which_keeps_reading_and_feeding_the_watchdog(
        slow_search):
    board = new_game("kulami")
    session = Session(board, seats={"b": "person", "w": "engine"}, thinker=Thinker())
    notifier = CountingNotifier()
    table, sensors = table_for(session, notifier=notifier)
    sensors.place("d4")
    t = turns(table, 0.0, 100)
    assert board.move_stack and slow_search.started.wait(5)
    assert session.state is State.THINKING
    assert session.status().thinking == 0.5 and session.status().state == "thinking"
    pings = notifier.pings
    sensors.lift("d4")  # a takeback while the engine thinks is still read
    t = turns(table, t, 100)
    assert notifier.pings >= pings + 100
    assert board.move_stack == [] and session.thought is None  # cancelled with the move
    assert session.state is State.WAITING


def test_the_engines_move_arrives_from_the_worker_and_waits_for_a_hand(slow_search):
    board = new_game("kulami")
    session = Session(board, seats={"b": "person", "w": "engine"}, thinker=Thinker())
    table, sensors = table_for(session)
    sensors.place("d4")
    t = turns(table, 0.0, 100)
    thought = session.thought
    slow_search.go.set()
    assert thought.wait(5)
    turns(table, t, 1)
    assert session.state is State.PLACING and session.pending is not None
    assert session.status().thinking is None


def test_a_new_game_cancels_the_search(slow_search):
    session = Session(new_game("kulami"), seats={"b": "engine", "w": "person"},
                      thinker=Thinker())
    thought = session.thought
    assert slow_search.started.wait(5) and session.state is State.THINKING
    session.new_game()
    assert thought.cancelled and session.thought is not thought
    assert thought.wait(5) and thought.move is None  # ended at its next report


def test_the_inline_thinker_has_the_move_at_once():
    session = Session(new_game("kulami"), seats={"b": "engine", "w": "person"},
                      thinker=InlineThinker())
    assert session.state is State.PLACING and session.pending is not None


class UnpluggedSensors(SimulatedSensors):
    """Simulated sensors whose cable can be pulled."""

    plugged = True

    def read(self):
        if not self.plugged:
            raise DisconnectError("sensor board: USB cable unplugged")
        return super().read()


def test_a_disconnected_source_keeps_the_game_and_says_so_until_it_answers_again():
    session = Session(new_game("kulami"), seats={"b": "person", "w": "person"})
    sensors = UnpluggedSensors(PROFILE.holes)
    notifier = CountingNotifier()
    table = Table(session, PROFILE, SimulatedStrip(PROFILE.led_count), sensors,
                  notifier=notifier)
    sensors.place("d4")
    t = turns(table, 0.0, 100)
    assert [str(m) for m in session.board.move_stack] == ["d4"]
    sensors.plugged = False
    t = turns(table, t, 50)
    assert session.state is State.DISCONNECTED and "unplugged" in session.status().message
    assert notifier.pings >= 150 and len(session.board.move_stack) == 1
    sensors.plugged = True
    sensors.place("d7")
    turns(table, t, 100)
    assert session.state is not State.DISCONNECTED
    assert [str(m) for m in session.board.move_stack] == ["d4", "d7"]


def test_one_view_a_revision_is_what_the_leds_the_screen_and_the_page_show(monkeypatch):
    """The scene and the status used to be made for the LEDs and the screen, and made
    again for the page: now one view is made a revision, and all three read it."""
    from app.table import view as view_module
    from app.web.snapshot import snapshot

    made = []
    of = view_module.View.of.__func__
    monkeypatch.setattr(view_module.View, "of", classmethod(
        lambda cls, *args, **kwargs: made.append(args[-1]) or of(cls, *args, **kwargs)))
    pygame.display.init()
    pygame.font.init()
    surface = pygame.display.set_mode((800, 480))
    session = Session(new_game("kulami"), seats={"b": "person", "w": "person"})
    window = StatusWindow(surface, Console(session, ("kulami",)))
    pages = []

    class Page:
        def publish(self, session):
            pages.append(snapshot(session.view()))

        def commands(self):
            return []

    sensors = SimulatedSensors(PROFILE.holes)
    table = Table(session, PROFILE, SimulatedStrip(PROFILE.led_count), sensors,
                  screen=window, remote=Page())
    t = turns(table, 0.0, 50)
    sensors.place("d4")
    turns(table, t, 100)
    assert session.board.move_stack
    assert made == sorted(set(made))  # never twice for one revision
    assert [page["revision"] for page in pages] == made
    view = session.view()
    assert table._scene is view.scene
    assert pages[-1]["lights"] == snapshot(view)["lights"]
    assert "Red played d4" in window.console.drawn.text


class FrontEnd:
    """A front end in another thread as the loop sees it: the revisions it was told of,
    and the commands it hands over once."""

    def __init__(self, name, log, *commands):
        self.name, self.log, self.queued = name, log, list(commands)
        self.told = []

    def publish(self, session):
        self.told.append(session.revision)
        self.log.append(("told", self.name))

    def commands(self):
        queued, self.queued = self.queued, []
        return queued


def test_the_page_and_a_far_board_s_link_each_follow_the_table_and_each_command_it():
    session = Session(new_game("kulami"), seats={"b": "person", "w": "remote"}, seed=1,
                      lay_out=False)
    order = []
    page = FrontEnd("page", order, lambda table: order.append(("page", "hint")))
    link = FrontEnd("link", order,
                    lambda table: table.session.remote_move("w", "d7") or order.append(
                        ("link", "move")))
    table = Table(session, PROFILE, SimulatedStrip(PROFILE.led_count),
                  SimulatedSensors(PROFILE.holes), remote=page, remotes=[link])
    assert table.remotes == [page, link] and table.remote is page
    session.confirm("d4")
    table.turn(0.0)
    assert order == [("page", "hint"), ("link", "move"), ("told", "page"), ("told", "link")]
    assert session.pending is not None and page.told == link.told == [session.revision]
    restarted = FrontEnd("page again", order)
    table.remote = restarted  # a page started again takes the old page's place alone
    assert table.remotes == [restarted, link]
    session.say("news")
    table.turn(TURN)
    assert restarted.told == link.told[-1:] == [session.revision]
    assert page.told == link.told[:1]
