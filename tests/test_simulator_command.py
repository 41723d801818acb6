"""``tabletop simulate``: a window when there is a display, a terminal demo when not, and
the display choice (desktop window, KMS/DRM full screen, none)."""

import logging

import pygame
import pytest

from app.cli import main, run
from app.games import new_game
from app.screen import display
from app.screen.display import (DisplayChoice, NoDisplayError, choose_display, open_display,
                                screen_fix)
from app.screen.simulator import WINDOW, Simulator
from app.table.session import Session


@pytest.mark.parametrize("environ,card,expected", [
    ({"DISPLAY": ":0"}, False, DisplayChoice(None, False)),
    ({"WAYLAND_DISPLAY": "wayland-0"}, True, DisplayChoice(None, False)),
    ({}, True, DisplayChoice("kmsdrm", True)),
    ({}, False, None),
    ({"SDL_VIDEODRIVER": "dummy", "DISPLAY": ":0"}, True, None),
    ({"SDL_VIDEODRIVER": "x11"}, False, DisplayChoice("x11", False)),
    ({"SDL_VIDEODRIVER": "kmsdrm"}, False, DisplayChoice("kmsdrm", True)),
])
def test_the_display_is_a_desktop_window_the_pi_screen_or_none(environ, card, expected,
                                                                tmp_path):
    if card:
        (tmp_path / "card0").touch()
    assert choose_display(environ, tmp_path) == expected


def test_opening_the_display_logs_the_sdl_driver(caplog):
    with caplog.at_level(logging.INFO, logger=display.__name__):
        surface = open_display(DisplayChoice("dummy", False), (800, 480))
    assert surface.get_size() == (800, 480)
    assert "SDL video driver dummy, 800x480" in caplog.text


def test_sdl_falling_back_to_a_driver_that_shows_nothing_is_refused(monkeypatch, capsys):
    monkeypatch.setenv("SDL_VIDEODRIVER", "offscreen")  # what SDL falls back to
    with pytest.raises(NoDisplayError, match=r"could only open its (offscreen|dummy) driver"):
        open_display(DisplayChoice(None, False), (800, 480))
    monkeypatch.setattr(display, "choose_display", lambda: DisplayChoice(None, False))
    assert main(["simulate", "--pause", "0", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("tabletop simulate: no display (SDL could only open its ")
    assert "Game over: " in out


def test_a_display_sdl_cannot_open_is_one_line_and_the_board_plays_on(monkeypatch, caplog):
    """A Pi user without access to /dev/dri, or (here) a machine without KMS/DRM: SDL
    fails in init or in set_mode, and pygame.error never leaks out."""
    def refuse(*args, **kwargs):
        raise pygame.error("Could not initialize KMSDRM: Permission denied")

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")  # restored after open_display sets it
    monkeypatch.setattr(pygame.display, "set_mode", refuse)
    with pytest.raises(NoDisplayError) as refused:
        open_display(DisplayChoice("kmsdrm", True), (800, 480))
    message = str(refused.value)
    assert message.startswith("SDL cannot open the kmsdrm display: ") and "\n" not in message
    # `tabletop run` says so in one log line and plays on without a screen.
    monkeypatch.setattr(display, "choose_display", lambda: DisplayChoice("kmsdrm", True))
    with caplog.at_level(logging.INFO, logger=run.log.name):
        assert run.status_screen(Session(new_game("kulami"))) is None
    assert caplog.messages == [f"no display ({message}): playing without a screen"]


def test_on_a_board_a_screen_that_does_not_open_is_a_warning_with_its_fix(monkeypatch,
                                                                          caplog, tmp_path):
    """The service's journal shows it under ``journalctl -p warning``; a simulated
    profile playing headless stays at INFO. (``tmp_path`` is an empty /dev/dri.)"""
    monkeypatch.setattr(display, "choose_display", lambda: None)
    monkeypatch.setattr(display, "screen_fix", lambda: screen_fix({}, tmp_path, True))
    with caplog.at_level(logging.INFO, logger=run.log.name):
        assert run.status_screen(Session(new_game("kulami")), board=True) is None
        assert run.status_screen(Session(new_game("kulami"))) is None
    board, simulated = caplog.records
    assert board.levelno == logging.WARNING and simulated.levelno == logging.INFO
    assert board.getMessage().endswith(
        f"playing without a screen; no KMS/DRM device in {tmp_path}: connect the screen "
        f"and keep dtoverlay=vc4-kms-v3d in config.txt")
    assert simulated.getMessage().endswith("playing without a screen")


def test_sdl_told_to_draw_nowhere_is_said_so_not_a_missing_display(monkeypatch, capsys):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("DISPLAY", ":0")
    assert main(["simulate", "--pause", "0", "--seed", "1"]) == 0
    assert capsys.readouterr().out.startswith(
        "tabletop simulate: no display (SDL_VIDEODRIVER=dummy draws nowhere a person can "
        "see); playing an engine-against-engine demo in the terminal instead.")
    # A --web address that is none is refused before anything starts (it played the
    # demo and exited 0, whatever the address).
    assert main(["simulate", "--pause", "0", "--web", "notaport"]) == 2
    assert capsys.readouterr() == ("", "tabletop simulate: --web: expected [HOST:]PORT, "
                                       "not 'notaport'\n")
    monkeypatch.delenv("SDL_VIDEODRIVER")
    assert display.no_display_reason() == "no DISPLAY or WAYLAND_DISPLAY, no KMS/DRM device"


def test_the_fix_for_a_dark_screen_names_the_first_cause(tmp_path):
    card = tmp_path / "card0"
    assert screen_fix({"SDL_VIDEODRIVER": "dummy"}, tmp_path, True).startswith(
        "SDL_VIDEODRIVER=dummy draws nowhere")
    assert screen_fix({}, tmp_path, True).startswith("no KMS/DRM device in ")
    card.touch()
    assert screen_fix({}, tmp_path, False) == (
        "pygame's SDL has no KMS/DRM driver: install Tabletop's [screen] extra from its "
        "checkout, which brings pygame-ce: pip install '.[screen]' there, or "
        "/opt/tabletop/venv/bin/pip install '/opt/tabletop/src[screen]' on a Pi set up by "
        "systemd/install.sh")
    assert screen_fix({}, tmp_path, True, mesa_dri=False) == (
        "no GPU driver for SDL's KMS/DRM (it loads vc4 or v3d through Mesa's GBM and "
        "EGL): sudo apt install libgl1-mesa-dri, then restart the service")
    assert screen_fix({}, tmp_path, True, mesa_dri=True) == (
        "check the screen's cable and power, then restart the service")


def test_the_gpus_dri_drivers_are_found_where_debian_installs_them(tmp_path):
    assert not display.has_mesa_dri(tmp_path)
    drivers = tmp_path / "usr/lib/aarch64-linux-gnu/dri"
    drivers.mkdir(parents=True)
    (drivers / "vc4_dri.so").touch()
    assert display.has_mesa_dri(tmp_path)


def test_a_card_the_user_may_not_open_asks_for_the_video_and_render_groups(tmp_path,
                                                                          monkeypatch):
    (tmp_path / "card0").touch()
    monkeypatch.setattr(display.os, "access", lambda path, mode: False)
    assert screen_fix({}, tmp_path, True) == (
        f"no access to {tmp_path / 'card0'}: add the user to the video and render groups")


@pytest.mark.parametrize("game", ["kulami", "conhex"])
def test_with_no_display_it_says_so_and_plays_a_demo_in_the_terminal(game, capsys):
    assert main(["simulate", game, "--pause", "0", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("tabletop simulate: no display")
    assert out.count(" plays ") >= 10
    assert out.rstrip().splitlines()[-1].startswith("Game over: ")


def test_bad_games_and_options_get_one_line(capsys):
    assert main(["simulate", "chess"]) == 2
    assert main(["simulate", "kulami", "scoring=9"]) == 2
    errors = capsys.readouterr().err.strip().splitlines()
    assert len(errors) == 2
    assert errors[0].startswith("tabletop simulate: unknown game 'chess'")
    assert errors[1].startswith("tabletop simulate: scoring must be 0, 1 or 2")


def test_with_a_display_it_opens_the_simulator_window(monkeypatch):
    opened = []
    monkeypatch.setattr(display, "choose_display", lambda: DisplayChoice("dummy", False))
    monkeypatch.setattr(pygame.event, "get", lambda: [pygame.event.Event(pygame.QUIT)])
    real_run = Simulator.run

    def run(self, surface):
        opened.append((self.session.board.game, {c: s.kind for c, s in self.session.seats.items()},
                       surface.get_size()))
        real_run(self, surface)

    monkeypatch.setattr(Simulator, "run", run)
    assert main(["simulate", "conhex", "pie=false", "--engine-starts", "--level", "1"]) == 0
    desktop = pygame.display.get_desktop_sizes()[0]  # the dummy driver's: 1024x768
    assert opened == [("conhex", {"b": "engine", "w": "person"},
                       display.fit_window(WINDOW, desktop))]
    assert opened[0][2][0] <= desktop[0] * 0.9 and opened[0][2][1] <= desktop[1] * 0.9


@pytest.mark.parametrize("desktop,window", [
    ((1920, 1080), (1460, 660)),  # room enough: the size asked for
    ((1280, 720), (1152, 648)),   # a laptop: nine tenths of it
    ((800, 480), (720, 432)),     # the Pi's touch display with a desktop
    (None, (1460, 660)),          # a driver that does not say
])
def test_the_window_fits_the_desktop(desktop, window):
    assert display.fit_window(WINDOW, desktop) == window


def test_the_simulator_saves_in_the_data_dir_and_continues_the_unfinished_game(monkeypatch,
                                                                              tmp_path):
    """As `tabletop run`: every game saved as it goes under the simulated board's
    profile; a start with no options continues the game in progress (after a crash
    too), options or --new start a new one."""
    from app.table.store import RecordStore

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr(display, "choose_display", lambda: DisplayChoice("dummy", False))
    seen = []

    def run(self, surface):
        board = self.session.board
        seen.append((len(board.move_stack), board.options["layout"], self.store.profile))
        board.push(next(iter(board.legal_moves)))  # a move, saved as the session saves
        self.store.save(board)
        raise SystemExit  # the window is killed: no goodbye

    monkeypatch.setattr(Simulator, "run", run)
    for argv in (["simulate"], ["simulate"], ["simulate", "--new"],
                 ["simulate", "kulami", "layout=cross"]):
        with pytest.raises(SystemExit):
            main(argv)
    cross = new_game("kulami", layout="cross").options["layout"]
    square = new_game("kulami").options["layout"]
    assert seen == [(0, square, "kulami-sim"), (1, square, "kulami-sim"),
                    (0, square, "kulami-sim"), (0, cross, "kulami-sim")]
    store = RecordStore(tmp_path / "tabletop", profile="kulami-sim")
    assert len(store.records()) == 3 and store.resume("kulami", "kulami-sim").board


def test_simulate_serial_plays_through_a_virtual_device_and_the_serial_driver(
        monkeypatch, tmp_path):
    """`tabletop simulate --serial`, headless on SDL's dummy driver: the mouse puts
    pieces on a virtual sensor board, the table reads them through the real serial
    driver over a pseudo-terminal, the moves are played; the device stops with the
    window."""
    import time
    from app.hardware import serial_board
    from app.hardware.serial_board import SerialSensors
    from app.hardware.virtual_device import VirtualDevice

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr(display, "choose_display", lambda: DisplayChoice("dummy", False))
    seen = {}

    def run(self, surface):
        self.surface = surface
        assert isinstance(self.table.source, SerialSensors)
        assert isinstance(self.device, VirtualDevice) and self.profile.sensors.driver == \
            "serial" and self.profile.sensors.port == self.device.path
        board = self.session.board
        for _ in range(2):
            count = len(board.move_stack)
            move = next(iter(board.legal_moves))
            probe = board.copy()
            probe.push(move)
            for hole, colour in probe.sensor_view().items():
                if board.sensor_view().get(hole) != colour:
                    self.place(hole, colour)
            end = time.monotonic() + 5
            while len(board.move_stack) == count and time.monotonic() < end:
                self.table.turn(time.monotonic())
                time.sleep(0.01)
            assert len(board.move_stack) == count + 1, self.session.message
        seen["moves"] = len(board.move_stack)
        seen["device"] = self.device
        seen["channels"] = bytes(self.device.scanner.states)
        self.close()

    monkeypatch.setattr(Simulator, "run", run)
    assert main(["simulate", "kulami", "--opponent", "person", "--serial", "--new"]) == 0
    assert seen["moves"] == 2 and sum(1 for s in seen["channels"] if s) == 2
    assert set(seen["channels"]) == {0, 1, 2}  # a black piece and a white one
    assert seen["device"].link is None and not serial_board._LINKS


def test_the_real_simulator_loop_closes_the_serial_board_with_the_window(monkeypatch):
    from app.hardware import serial_board
    from app.screen.menu import Choice
    sim = Simulator(Choice("kulami", {}, {"b": "person", "w": "person"}, 1), serial=True)
    device = sim.device
    assert device.link is not None and serial_board._LINKS
    monkeypatch.setattr(pygame.event, "get", lambda: [pygame.event.Event(pygame.QUIT)])
    sim.run(open_display(DisplayChoice("dummy", False), (800, 480)))
    assert device.link is None and not serial_board._LINKS and sim.device is None


# --- pictures: --screenshot and --screen ------------------------------------------------

def test_a_picture_is_saved_off_screen_with_no_window_even_on_a_desktop(monkeypatch,
                                                                        tmp_path, capsys):
    def no_window(*args, **kwargs):
        raise AssertionError("a window was opened")

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("DISPLAY", ":0")  # a desktop there, and SDL told to use it
    monkeypatch.setenv("SDL_VIDEODRIVER", "x11")
    monkeypatch.setattr(display, "choose_display", no_window)
    monkeypatch.setattr(display, "open_display", no_window)
    monkeypatch.setattr(pygame.display, "set_mode", no_window)
    window, screen = tmp_path / "board.png", tmp_path / "screen.png"
    assert main(["simulate", "blokus-duo", "--moves", "3", "--seed", "2",
                 "--screenshot", str(window), "--screen", str(screen)]) == 0
    assert capsys.readouterr().out.splitlines() == [f"saved {window}", f"saved {screen}"]
    assert pygame.image.load(str(window)).get_size() == WINDOW
    assert pygame.image.load(str(screen)).get_size() == (800, 480)
    import os
    assert os.environ["SDL_VIDEODRIVER"] == "dummy"
    # Nothing was saved but the pictures: the user's games are left alone.
    assert not (tmp_path / "data").exists()


def test_the_same_arguments_make_the_same_picture_and_the_moves_show(tmp_path, capsys):
    def picture(name, *argv):
        path = tmp_path / name
        assert main(["simulate", "kulami", *argv, "--screen", str(path)]) == 0
        return pygame.image.tobytes(pygame.image.load(str(path)), "RGB")

    seeded = picture("a.png", "--moves", "5", "--seed", "4")
    assert picture("b.png", "--moves", "5", "--seed", "4") == seeded
    assert picture("c.png", "--moves", "5", "--seed", "5") != seeded
    board = new_game("kulami")
    board.push_text("d4")
    one, other = (board.move_text(move) for move in list(board.legal_moves)[:2])
    assert picture("d.png", "--play", f"d4 {one}") != picture("e.png", "--play", f"d4 {other}")
    # A game over is pictured too, its end screen and all.
    assert picture("f.png", "--moves", "999") != picture("g.png", "--moves", "0")


@pytest.mark.parametrize("argv,line", [
    (["chess", "--screen", "{tmp}/x.png"], "unknown game 'chess'"),
    (["kulami", "--play", "d4 d4", "--screen", "{tmp}/x.png"],
     "move 2 of --play, 'd4': d4 is already taken"),
    (["kulami", "--play", "d4 z99", "--screen", "{tmp}/x.png"], "move 2 of --play, 'z99': "),
    (["kulami", "--screenshot", "{tmp}/no/such/x.png"],
     "cannot write {tmp}/no/such/x.png: there is no directory {tmp}/no/such"),
    (["kulami", "--screen", "{tmp}/folder.png"],
     "cannot write {tmp}/folder.png: it is a directory"),
    (["kulami", "--screen", "{tmp}/x.jpg"], "{tmp}/x.jpg: pictures are saved as PNG"),
    (["kulami", "--moves", "-1", "--screen", "{tmp}/x.png"],
     "argument --moves: must be 0 moves or more, not -1"),
    (["kulami", "--moves", "3"], "--moves and --play set out a position for a picture"),
    (["kulami", "--serial", "--screen", "{tmp}/x.png"], "--serial needs the window"),
    (["kulami", "--web", "--screen", "{tmp}/x.png"], "--web serves a window's board"),
])
def test_bad_picture_input_is_one_line_and_exit_status_2(argv, line, tmp_path, capsys):
    (tmp_path / "folder.png").mkdir()
    argv = [word.replace("{tmp}", str(tmp_path)) for word in argv]
    try:
        status = main(["simulate", *argv])
    except SystemExit as exit:  # argparse's own refusals
        status = exit.code
    assert status == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("tabletop simulate: ")
    assert line.replace("{tmp}", str(tmp_path)) in err
    assert not [path for path in tmp_path.rglob("*") if path.is_file()]  # no picture


def test_a_page_picture_without_chromium_is_one_line(tmp_path, monkeypatch, capsys):
    import shutil
    monkeypatch.setattr(shutil, "which", lambda name: None)
    status = main(["simulate", "kulami", "--page", str(tmp_path / "page.png")])
    err = capsys.readouterr().err
    assert status == 2 and err == ("tabletop simulate: --page needs Chromium to draw the "
                                   "page: install Debian's chromium package\n")
    assert not (tmp_path / "page.png").exists()


#: The simulator in a process of its own on SDL's dummy driver, taken as a window a
#: person sees, so that its loop runs as on a desktop.
WINDOWED = """\
import sys
from app.screen import display
display.choose_display = lambda: display.DisplayChoice("dummy", False)
from app.cli import main
sys.exit(main(["simulate", "kulami", "--seed", "1"]))
"""


def test_sigterm_stops_the_simulator_with_its_game_under_way(tmp_path):
    """A game under way, so that a window's close would ask "Leave this game?": SIGTERM
    is no close of the window, and stops the simulator at once, its game saved."""
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    from app.table.store import RecordStore
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    env.pop("STATE_DIRECTORY", None)
    store = RecordStore(tmp_path / "tabletop", profile="kulami-sim")
    board = new_game("kulami")
    board.push(next(iter(board.legal_moves)))
    store.start(board)
    root = Path(__file__).resolve().parent.parent
    process = subprocess.Popen([sys.executable, "-c", WINDOWED], cwd=root, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = []
        while not any("resumed" in line or "continu" in line.lower() for line in lines):
            line = process.stderr.readline()
            assert line, f"the simulator ended first: {''.join(lines)}"
            lines.append(line)
        time.sleep(1)  # into its loop
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    err = "".join(lines) + err
    assert process.returncode == 0 and "Traceback" not in err, err
    assert "stopping on SIGTERM; every move is saved" in err


def test_without_a_display_simulate_web_serves_the_simulated_board_s_page(tmp_path):
    """No display: the simulated board needs no window, so ``--web`` serves its page (it
    served nothing and exited 0), with the configuration's pairing code and [options],
    until SIGTERM."""
    import json
    import os
    import signal
    import socket
    import subprocess
    import sys
    import time
    import urllib.request
    from pathlib import Path

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = tmp_path / "tabletop.toml"
    config.write_text(f'data_dir = "{tmp_path / "data"}"\n[options.conhex]\npie = false\n'
                      f'[web]\npairing_code = "135790"\n')
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy"}
    for name in ("DISPLAY", "WAYLAND_DISPLAY"):
        env.pop(name, None)
    root = Path(__file__).resolve().parent.parent
    process = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "simulate", "conhex", "--config", str(config),
         "--web", f"127.0.0.1:{port}"], cwd=root, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    try:
        lines = []
        while not any("web page on" in line for line in lines):
            line = process.stderr.readline()
            assert line, f"the simulator ended first: {''.join(lines)}"
            lines.append(line)
        url = f"http://127.0.0.1:{port}/"
        state = {}
        for _ in range(600):  # the board is up a moment after its page
            with urllib.request.urlopen(url + "api/state", timeout=30) as answer:
                state = json.load(answer)
            if state.get("game"):
                break
            time.sleep(0.1)
        request = urllib.request.Request(url + "api/pair", method="POST",
                                         data=b'{"code": "135790"}',
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            paired = answer.status
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert state["game"] == "conhex" and paired == 200
    assert "serving the simulated board's web page alone" in out
    assert process.returncode == 0 and "Traceback" not in err, err
    saved = list((tmp_path / "data" / "games").glob("*.sgf"))
    assert saved == [] or all("pie" in p.read_text() for p in saved)


def test_simulate_plays_the_configuration_s_seats_level_options_and_outside_engine(
        tmp_path, monkeypatch):
    """``tabletop simulate`` read no configuration: an ``[engines]`` entry, the seats,
    the level and ``[options]`` of the file were ``tabletop run``'s alone."""
    from app.screen import simulator as simulator_module
    from app.table.outside_engine import OutsideEngines
    made = {}

    class Recorder:
        def __init__(self, choice, **kwargs):
            made.update(choice=choice, **kwargs)
            self.console = type("Console", (), {})()

        def run(self, surface):
            pass

    monkeypatch.setattr(display, "choose_display",
                        lambda: display.DisplayChoice("dummy", False))
    monkeypatch.setattr(simulator_module, "Simulator", Recorder)
    config = tmp_path / "tabletop.toml"
    config.write_text(f'data_dir = "{tmp_path / "data"}"\n'
                      '[game]\nfirst = "engine"\nsecond = "person"\nlevel = 3\n'
                      '[options.conhex]\npie = false\n'
                      '[engines]\nconhex = "conhex-gtp --strong"\n')
    assert main(["simulate", "conhex", "--config", str(config)]) == 0
    choice, thinker = made["choice"], made["thinker"]
    assert choice.options["pie"] is False and choice.level == 3
    assert choice.seats == {"b": "engine", "w": "person"}
    assert isinstance(thinker, OutsideEngines)
    assert thinker.commands["conhex"].argv[0] == "conhex-gtp"
    thinker.close()
    # Its own flags override the file's: the seat's word decides, as seats are parsed.
    assert main(["simulate", "conhex", "handicap=2", "--config", str(config),
                 "--opponent", "person", "--level", "1"]) == 0
    choice = made["choice"]
    assert choice.seats == {"b": "person", "w": "person"} and choice.level == 1
    assert choice.options["pie"] is False and choice.options["handicap"] == 2
    made["thinker"].close()


def test_simulate_web_serves_the_page_where_the_configuration_s_web_says(
        tmp_path, monkeypatch, capsys):
    """``--web`` took only the pairing code of ``[web]``; the host and port, and
    ``[game] show_legal``, were ``tabletop run``'s alone. Now ``--web`` with no address
    serves the page where the file's ``[web]`` serves a board's (read and served as run
    does), ``--web HOST:PORT`` overrides it, and a mistake is the file's one line."""
    import socket
    from app.screen import simulator as simulator_module
    made = {}

    class Recorder:
        def __init__(self, choice, **kwargs):
            remote = kwargs["remote"]
            made.update(kwargs, url=remote and remote.url, note=remote and remote.note)
            self.console = type("Console", (), {})()

        def run(self, surface):
            made["thinker"].close()

    monkeypatch.setattr(display, "choose_display",
                        lambda: display.DisplayChoice("dummy", False))
    monkeypatch.setattr(simulator_module, "Simulator", Recorder)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = tmp_path / "tabletop.toml"
    config.write_text(f'data_dir = "{tmp_path / "data"}"\n[game]\nshow_legal = false\n'
                      f'[web]\nhost = "127.0.0.1"\nport = {port}\npairing_code = "135790"\n')
    assert main(["simulate", "--config", str(config), "--web"]) == 0
    assert made["url"] == f"http://127.0.0.1:{port}/" and made["note"] == "web code 135790"
    assert made["settings"]["show_legal"] is False
    # No --web, no page, whatever the file says: the simulator serves one when asked.
    assert main(["simulate", "--config", str(config)]) == 0
    assert made["remote"] is None
    # The flag's address over the file's.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        other = probe.getsockname()[1]
    assert main(["simulate", "--config", str(config), "--web", f"127.0.0.1:{other}"]) == 0
    assert made["url"] == f"http://127.0.0.1:{other}/" and made["note"] == "web code 135790"
    capsys.readouterr()
    config.write_text('[web]\nhost = "no-such-host.invalid"\n')
    assert main(["simulate", "--config", str(config), "--web"]) == 2
    assert capsys.readouterr().err == (
        f"tabletop simulate: {config}: web: 'no-such-host.invalid' is neither \"lan\" nor "
        f"an address or name of this machine\n")


def test_simulate_web_without_a_configuration_file_or_with_its_page_off_is_port_8080():
    """Port 80, a board's, is not a desktop user's: the simulator's own default stands
    where no file gives an address."""
    from app.cli.simulate import _web_address
    from app.table.config import Config
    assert _web_address("", Config(None, "/tmp")) == ("lan", 8080)
    assert _web_address("", Config("/etc/x.toml", "/tmp", web=None)) == ("lan", 8080)
    assert _web_address("", Config("/etc/x.toml", "/tmp", web="lan:8123")) == ("lan", 8123)
    assert _web_address(None, Config("/etc/x.toml", "/tmp")) is None


def test_the_simulator_gives_every_session_the_configuration_s_show_legal():
    from app.screen.menu import Choice
    from app.table.thinker import InlineThinker
    people = {"b": "person", "w": "person"}
    sim = Simulator(Choice("kulami", {"layout": "square-1"}, people, 2),
                    thinker=InlineThinker(), settings={"show_legal": False})
    try:
        assert sim.session.show_legal is False
        sim.choose(Choice("conhex", {}, people, 2))
        assert sim.session.show_legal is False and not sim.session.view().scene.named("legal")
    finally:
        sim.close()
