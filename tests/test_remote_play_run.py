"""``tabletop run`` and the record of a game with a board far away: after a restart it
continues that game's own record, not merely the newest record of its game, and a new
game from the page, as one from the menu, leaves the far game on both boards.

Anna's board is a session in this process (tests/test_remote.py's side), Ben's is
``tabletop run`` on a simulated ConHex board, in a process of its own or, where the
page is driven, in this one."""

from __future__ import annotations

import signal
import time

from app.cli import main
from app.remote.far_board import FarBoard, FarGame
from app.remote.play import OFFERING, FarPlay, far_game_path
from app.table.assembly import start_game
from app.table.service import ServiceStop
from app.table.session import Session
from app.table.store import RecordStore
from tests.mosquitto import USERS
from tests.test_remote import LIMIT_S, Side, invite, until
from tests.test_remote_run import Run

PROFILE = "conhex-sim"


def configuration(mosquitto, tmp_path, data) -> str:
    config = tmp_path / "ben.toml"
    config.write_text(
        f'data_dir = "{data}"\n[web]\nenabled = false\n[remote]\n'
        f'broker = "localhost:{mosquitto.port}"\nuser = "ben"\n'
        f'password = "{USERS["ben"]}"\nca = "{mosquitto.ca}"\nclub = "riverside"\n'
        f'name = "Ben"\n')
    return config


def own_game(data) -> str:
    """A game of Ben's own on the board, a person on each side, one move in; its record."""
    store = RecordStore(data, profile=PROFILE)
    session = Session.start_new(store, "conhex", {}, physical=False,
                                seats={"b": "person", "w": "person"})
    board = session.board
    session.confirm(sorted(board.move_text(m) for m in board.legal_moves)[-1])
    assert len(board.move_stack) == 1
    return store.current.name


def test_a_restarted_board_continues_the_far_game_s_own_record(mosquitto, tmp_path):
    anna_game, ben_game = invite(mosquitto, tmp_path, "conhex")  # Ben plays white
    data = tmp_path / "ben-data"
    ben_game.path = far_game_path(data)
    ben_game.save()
    before = own_game(data)  # the newest record of ConHex on Ben's board
    config = configuration(mosquitto, tmp_path, data)
    anna = Side(anna_game, mosquitto.config("anna"), physical=False)
    ben = Run(config)
    try:
        until(lambda: anna.link.peer_online, anna, what="Ben's board online")
        assert ben.said("resuming the game with Anna's board")
        move = "f6"
        anna.session.confirm(move)
        until(lambda: ben.said(f"plays {move} from Anna's board: place it there"), anna,
              what="Anna's move lit on Ben's board")
        ben.kill()
        since = own_game(data)  # a game of the board's own is the newest record now

        ben = Run(config)
        until(lambda: ben.said(f"plays {move} from Anna's board: place it there"), anna,
              what="Anna's move lit on Ben's board again")
        records = [path.name for path in RecordStore(data).records()]
        # The far game's record (000002) continued, and renumbered as the newest.
        assert records == [before, since, "000004-conhex.sgf"]
        assert ben.said("000004-conhex.sgf with 0 moves")  # Anna's move lit, not placed
        assert "SEATB[board]" in (data / "games" / "000004-conhex.sgf").read_text()
        assert not anna.link.game.stopped and not FarGame.load(ben_game.path).stopped
    finally:
        anna.link.stop()
        ben.kill()


def test_a_new_game_from_the_page_leaves_the_far_game_on_both_boards(
        mosquitto, tmp_path, monkeypatch):
    """Ben's ``tabletop run`` joins Anna's invitation from its screen; then its page
    starts a new game of ConHex with the same options and people at the table. The far
    game ends on both boards (before, the far game went on under the page's game, its
    moves sent as Ben's)."""
    from app.cli import run as run_command

    anna = FarPlay(mosquitto.config("anna", club="riverside", name="Anna"),
                   far_game_path(tmp_path / "anna"), ("conhex",))
    anna.offer("conhex", {}, "b")
    deadline = time.monotonic() + LIMIT_S
    while anna.state.phase != OFFERING:
        assert time.monotonic() < deadline, anna.state
        time.sleep(0.01)
    seen = {}

    class Page:
        """Ben's page: a new game asked for on it is started as the page starts one,
        by the function ``tabletop run`` gives it, in the loop's thread."""

        note = ""

        def __init__(self, new_game):
            self.new_game, self.asked = new_game, []

        def commands(self):
            asked, self.asked = self.asked, []
            return asked

        def publish(self, session):
            pass

        def close(self):
            pass

    def web_page(store, games, address, pairing_code=None, new_game=None, far=None,
                 club=None):
        if new_game is None:  # run.web_page's own default
            def new_game(table, game, options, seats, level):
                start_game(table.session, game, options, seats, level)
        seen["page"] = Page(new_game)
        seen["page's far"], seen["page's club"] = far, club
        return seen["page"]

    class Console:
        def __init__(self, session):
            self.session, self.far, self.note = session, None, ""
            self.start = None  # the menu's new game: not used here

    class Screen:
        """Ben's screen, on which Ben types the code; Anna's table turns with it."""

        shows_leds, dirty = False, False

        def __init__(self, session, load, board, games):
            self.console = Console(session)
            self.anna = None  # Anna's table: (session, link) once her game is agreed

        def pump(self):
            assert time.monotonic() < deadline + LIMIT_S, (anna.state,
                                                           self.console.far.state)
            if "joined" not in seen:
                seen["joined"] = True
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
                    # The page offers and joins through the board's own flow, and lists
                    # the club [remote] names.
                    assert seen["page's far"]() is self.console.far
                    assert seen["page's club"]().club == "riverside"
                    page = seen["page"]
                    page.asked.append(lambda table: page.new_game(
                        table, "conhex", {}, {"b": "person", "w": "person"}, 1))
            return True

        @property
        def session(self):  # what the far link's commands on Anna's table are handed
            return self.anna[0]

        def redraw(self):
            pass

    data = tmp_path / "ben-data"
    config = tmp_path / "ben.toml"
    config.write_text(
        f'data_dir = "{data}"\n[web]\nhost = "127.0.0.1"\n'  # served by Page, above
        f'[remote]\nbroker = "localhost:{mosquitto.port}"\n'
        f'user = "ben"\npassword = "{USERS["ben"]}"\nca = "{mosquitto.ca}"\n'
        f'club = "riverside"\nname = "Ben"\n')
    monkeypatch.setattr(run_command, "status_screen", Screen)
    monkeypatch.setattr(run_command, "web_page", web_page)
    try:
        assert main(["run", "--profile", PROFILE, "--config", str(config)]) == 0
    finally:
        anna.stop()
    assert seen["anna"] == "Ben's board stopped the game: its player started another game"
    assert FarGame.load(far_game_path(data)).stopped  # not resumed at the next start
    played = seen["left"]  # the far game's session, the page's game started on it
    assert not any(isinstance(seat, FarBoard) for seat in played.seats.values())
    # The board's own game at the start, the far game, the page's game.
    assert [r.name for r in RecordStore(data).records()] == [
        "000001-conhex.sgf", "000002-conhex.sgf", "000003-conhex.sgf"]
    assert "SEATB[person]SEATW[person]" in RecordStore(data).records()[-1].read_text()
