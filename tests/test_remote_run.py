"""``tabletop run`` with ``[remote]``: its mistakes stop the board in one line, and the
game with a board far away is continued after a power cut, through the command itself.

The far board's test plays two processes through a real mosquitto: Anna's board is a
session in this process (tests/test_remote.py's side), Ben's is ``tabletop run`` on a
simulated ConHex board, killed as by a power cut and started again."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import pytest

import app.remote
from app.cli import main
from app.remote.far_board import FarGame
from app.remote.play import far_game_path
from app.table.session import Session
from app.table.store import RecordStore
from tests.mosquitto import USERS
from tests.test_layers import ROOT
from tests.test_remote import LIMIT_S, Side, invite, until


@pytest.mark.parametrize("remote, line", [
    ('broker = "a b"', "remote.broker: must be a host name or address, or host:port, "
                       "not 'a b'"),
    ('broker = "h"\nclub = "a/#"', "remote.club: must be 1 to 32 lower-case letters, "
                                   "digits, - or _, not 'a/#'"),
    ('user = "anna"', "remote: broker is needed (the broker's host, or host:port)"),
    ('broker = "h"\nport = 1', "remote.port: no such setting (there are broker, user, "
                               "password, certificate, key, ca, tls, club, name)"),
])
def test_a_wrong_remote_setting_stops_the_board_in_one_line(remote, line, tmp_path, capsys):
    config = tmp_path / "tabletop.toml"
    config.write_text(f'data_dir = "{tmp_path / "data"}"\n[remote]\n{remote}\n')
    assert main(["run", "--profile", "conhex-sim", "--config", str(config)]) == 2
    assert capsys.readouterr().err == f"tabletop run: {config}: {line}\n"
    assert RecordStore(tmp_path / "data").records() == []


class Run:
    """``tabletop run`` in a process of its own, its journal (standard output) read
    line by line as it comes."""

    def __init__(self, config) -> None:
        self.lines: list[str] = []
        self.process = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "run", "--profile", "conhex-sim", "--config",
             str(config)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, env={**os.environ, "SDL_VIDEODRIVER": "dummy"})
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def said(self, words: str) -> bool:
        assert self.process.poll() is None, "\n".join(self.lines[-20:])
        return any(words in line for line in self.lines)

    def kill(self) -> None:
        """A power cut: no clean stop, no last word to the broker."""
        self.process.kill()
        self.process.wait(timeout=LIMIT_S)
        self._reader.join(timeout=LIMIT_S)
        self.process.stdout.close()


def test_a_board_restarted_by_tabletop_run_comes_back_into_the_far_game(mosquitto, tmp_path):
    anna_game, ben_game = invite(mosquitto, tmp_path, "conhex")
    ben_data = tmp_path / "ben-data"
    kept = far_game_path(ben_data)  # where Ben's board keeps the game it agreed
    ben_game.path = kept
    ben_game.save()
    config = tmp_path / "ben.toml"
    config.write_text(
        f'data_dir = "{ben_data}"\n[web]\nenabled = false\n[remote]\n'
        f'broker = "localhost:{mosquitto.port}"\nuser = "ben"\n'
        f'password = "{USERS["ben"]}"\nca = "{mosquitto.ca}"\nclub = "riverside"\n'
        f'name = "Ben"\n')
    anna = Side(anna_game, mosquitto.config("anna"), physical=False)
    ben = Run(config)
    try:
        until(lambda: anna.link.peer_online, anna, what="Ben's board online")
        assert ben.said("resuming the game with Anna's board")
        ben.kill()
        until(lambda: not anna.link.peer_online, anna, what="Ben's board offline")
        connections = FarGame.load(kept).conn

        ben = Run(config)  # the board comes back, as after a power cut
        until(lambda: anna.link.peer_online, anna, what="Ben's board back online")
        assert ben.said("resumed 000001-conhex.sgf at move 0")  # its own game, no new one
        assert FarGame.load(kept).conn == connections + 1  # its counts kept, not begun anew
        move = "f6"
        anna.session.confirm(move)  # a move made after the restart reaches Ben's board
        until(lambda: ben.said(f"plays {move} from Anna's board: place it there"), anna,
              what="Anna's move lit on Ben's board")
        assert [r.name for r in RecordStore(ben_data).records()] == ["000001-conhex.sgf"]
        assert "SEATB[board]" in (RecordStore(ben_data).records()[0]).read_text()
    finally:
        anna.link.stop()
        ben.kill()


def test_a_game_joined_while_run_turns_takes_the_table_and_another_game_leaves_it(
        mosquitto, tmp_path, monkeypatch):
    """Ben's ``tabletop run`` joins Anna's invitation from its screen: the game takes
    the table between two turns (a new record, the far board seated, the link started),
    and a new game from the menu afterwards leaves it, said on Anna's board, so that the
    next start plays the board's own game."""
    from app.cli import run as run_command
    from app.remote.far_board import FarBoard
    from app.remote.play import OFFERING, FarPlay
    from app.screen.menu import Choice
    from app.table.service import ServiceStop
    import signal

    anna = FarPlay(mosquitto.config("anna", club="riverside", name="Anna"),
                   far_game_path(tmp_path / "anna"), ("conhex",))
    anna.offer("conhex", {"pie": False}, "b")
    deadline = time.monotonic() + LIMIT_S
    while anna.state.phase != OFFERING:
        assert time.monotonic() < deadline, anna.state
        time.sleep(0.01)
    seen = {}

    class Console:
        def __init__(self, session):
            self.session, self.far, self.note = session, None, ""
            self.start = lambda choice: seen.setdefault("started", choice)

    class Screen:
        """Ben's screen, on which Ben types the code; Anna's table turns with it."""

        shows_leds, dirty = False, False

        def __init__(self, session, load, board, games):
            self.console = Console(session)
            self.anna = None  # Anna's table: (session, link) once her game is agreed
            self.deadline = time.monotonic() + LIMIT_S

        def pump(self):
            assert time.monotonic() < self.deadline, (anna.state, self.console.far.state)
            if "joined" not in seen:
                seen["joined"] = self.console.session
                self.console.far.join(anna.state.code)
            link = anna.take(None)
            if link is not None:
                self.anna = (Session(link.game.board([]), seats=link.seats(),
                                     physical=False), link)
                link.start()
            if self.anna is not None:
                session, link = self.anna
                for command in link.commands():
                    command(self)
                link.publish(session)
                if link.game.stopped:
                    seen["anna"] = session.message
                    raise ServiceStop(signal.SIGTERM)
                if link.peer_online and "left" not in seen:
                    seen["left"] = self.console.session
                    self.console.start(Choice("conhex", {}, {"b": "person",
                                                             "w": "engine"}, 1))
            return True

        @property
        def session(self):  # what the far link's commands on Anna's table are handed
            return self.anna[0]

        def redraw(self):
            pass

    ben_data = tmp_path / "ben-data"
    config = tmp_path / "ben.toml"
    config.write_text(
        f'data_dir = "{ben_data}"\n[remote]\nbroker = "localhost:{mosquitto.port}"\n'
        f'user = "ben"\npassword = "{USERS["ben"]}"\nca = "{mosquitto.ca}"\n'
        f'club = "riverside"\nname = "Ben"\n')
    monkeypatch.setattr(run_command, "status_screen", Screen)
    try:
        assert main(["run", "--profile", "conhex-sim", "--config", str(config)]) == 0
    finally:
        anna.stop()
    far_session = seen["left"]
    assert far_session is not seen["joined"]  # a new session, taken between turns
    assert isinstance(far_session.seats["b"], FarBoard) and far_session.seats["w"].at_table
    assert far_session.board.options["pie"] is False  # Anna's options, not the file's
    assert seen["started"].seats == {"b": "person", "w": "engine"}  # the menu's game
    assert seen["anna"] == "Ben's board stopped the game: its player started another game"
    assert FarGame.load(far_game_path(ben_data)).stopped  # not resumed at the next start
    assert [r.name for r in RecordStore(ben_data).records()] == ["000001-conhex.sgf",
                                                                  "000002-conhex.sgf"]


def test_the_screen_is_drawn_again_when_the_far_flow_moves_on(tmp_path):
    """The code arrives, or the line changes, in the invitation's thread: no tap and
    no move marks the screen, so the run loop does when the flow's state changes."""
    from app.cli.run import turn_until_asked
    from app.remote.config import RemoteConfig
    from app.remote.play import FarPlay
    from app.table.assembly import Asked

    far = FarPlay(RemoteConfig("localhost", 1883, tls=False), far_game_path(tmp_path),
                  ("kulami",))

    class Screen:
        dirty = False

    class Table:
        screen, session, turns = Screen(), None, 0

        def turn(self, t):
            self.turns += 1
            if self.turns == 2:
                far.join("K7Q")  # the flow's state changes (here at once: a code that is none)
            return self.turns < 4

    table = Table()
    assert turn_until_asked(table, Asked(), 0, sleep=lambda s: None, far=far) is None
    assert table.screen.dirty and far.state.phase == "failed"


def test_remote_without_its_library_stops_the_board_in_one_line(tmp_path, capsys,
                                                                 monkeypatch):
    # The import run tries makes a new app.remote package and binds it on app: put the
    # old one back afterwards too, or later tests reach a package without its modules.
    monkeypatch.setattr(app, "remote", app.remote)
    for name in [n for n in sys.modules if n.startswith(("paho", "app.remote"))]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "paho", None)  # not installed
    config = tmp_path / "tabletop.toml"
    config.write_text(f'data_dir = "{tmp_path / "data"}"\n[remote]\nbroker = "h"\n')
    assert main(["run", "--profile", "conhex-sim", "--config", str(config)]) == 2
    line = capsys.readouterr().err
    assert line.startswith(f"tabletop run: {config}: remote: needs the paho library: "
                           f"install Tabletop's [remote] extra")
    assert line.count("\n") == 1 and RecordStore(tmp_path / "data").records() == []
