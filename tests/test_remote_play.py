"""The table's side of a far game (app/remote/play.py) through a real mosquitto: a board
offers its game and shows a code, another joins with it, both take the game between
two turns and play it; a wrong code, a code that is none, a cancelled offer, a game the
joining board does not play, a refused account, and leaving a game for another one.

Each table is a session with no board and the flow, turned as ``tabletop run`` turns
them: the flow's agreed game taken between turns, the link's commands, then the
session published. Every wait is for something to happen, with a generous limit."""

from __future__ import annotations

import time

import pytest

from app.games import new_game
from app.remote.far_board import FarBoard, FarGame, moves_of
from app.remote.play import FAILED, IDLE, OFFERING, FarPlay, far_game_path
from app.table.session import Session

CLUB = "riverside"
LIMIT_S = 30.0


class Table:
    """One board: its session, its far flow, and the link of the game it plays."""

    def __init__(self, mosquitto, tmp_path, user, name, games=("kulami",), **timeouts):
        config = mosquitto.config(user, club=CLUB, name=name)
        self.far = FarPlay(config, far_game_path(tmp_path / user), games, **timeouts)
        self.session = Session(new_game(games[0]), physical=False)
        self.link = None

    def turn(self):
        """A turn of the loop, then what ``tabletop run`` does between turns."""
        if self.link is not None:
            for command in self.link.commands():
                command(self)
            self.link.publish(self.session)
        link = self.far.take(self.session)
        if link is not None:
            self.link = link
            self.session = Session(link.game.board([]), seats=link.seats(), physical=False)
            self.far.recorded()
            link.start()

    def lit(self):
        pending = self.session.pending
        return None if pending is None else self.session.board.move_text(pending)

    def close(self):
        self.far.stop()


def until(condition, *tables, what="it"):
    deadline = time.monotonic() + LIMIT_S
    while time.monotonic() < deadline:
        for table in tables:
            table.turn()
        if condition():
            return
        time.sleep(0.005)
    raise AssertionError(f"{what} did not happen within {LIMIT_S} s")


@pytest.fixture
def tables(mosquitto, tmp_path):
    made = []

    def table(user, name, **kwargs):
        made.append(Table(mosquitto, tmp_path, user, name, **kwargs))
        return made[-1]

    yield table
    for table in made:
        table.close()


def offered(anna, game="kulami", options=None, colour="b") -> str:
    anna.far.offer(game, {"layout": "random:3"} if options is None else options, colour)
    until(lambda: anna.far.state.phase == OFFERING, anna, what="the offer on the broker")
    return anna.far.state.code


def test_a_game_offered_on_one_board_is_joined_with_its_code_and_played(tables, tmp_path):
    anna, ben = tables("anna", "Anna"), tables("ben", "Ben")
    code = offered(anna, colour="w")  # Anna plays second
    assert len(code) == 9 and code[4] == "-" and code in anna.far.state.line
    ben.far.join(code.lower().replace("-", " "))
    until(lambda: anna.link is not None and ben.link is not None, anna, ben,
          what="both boards took the game")
    assert anna.far.state.phase == ben.far.state.phase == IDLE
    assert anna.far.state.line == "playing Kulami with Ben's board"
    assert ben.session.board.options == anna.session.board.options  # one layout, drawn once
    assert isinstance(anna.session.seats["b"], FarBoard) and anna.session.seats["w"].at_table
    assert isinstance(ben.session.seats["w"], FarBoard) and ben.session.seats["b"].at_table
    move = sorted(ben.session.board.move_text(m) for m in ben.session.board.legal_moves)[0]
    ben.session.confirm(move)
    until(lambda: anna.lit() == move, anna, ben, what="Ben's move lit on Anna's board")
    anna.session.confirm(move)
    # What the next start resumes: the same game, from the board's own file.
    kept = FarGame.load(far_game_path(tmp_path / "anna"))
    assert (kept.peer, kept.colour, kept.game) == ("Ben", "w", "kulami")
    assert not list((tmp_path / "anna" / "far").glob("agreed-*"))  # no file left behind
    again = FarPlay(anna.far.config, far_game_path(tmp_path / "anna"), ("kulami",))
    assert again.resume().game.secret == anna.link.game.secret


def test_a_wrong_code_is_one_line_on_the_joining_board_and_the_offer_stays(tables):
    anna, ben = tables("anna", "Anna"), tables("ben", "Ben")
    code = offered(anna)
    wrong = code[:2] + ("00-0000" if code[3:] != "00-0000" else "11-1111")  # same slot
    ben.far.join(wrong)
    until(lambda: ben.far.state.phase == FAILED, anna, ben, what="the wrong code said")
    assert ben.far.state.line == ("the code does not match the invitation: check it on "
                                  "the other board and try again")
    assert anna.far.state.phase == OFFERING and ben.link is None
    ben.far.join(code)  # the right one, on the second try
    until(lambda: ben.link is not None and anna.link is not None, anna, ben,
          what="the game agreed")


def test_a_code_that_is_none_fails_at_once_and_sends_nothing(tables):
    ben = tables("ben", "Ben")
    ben.far.join("K7QM")
    assert ben.far.state.phase == FAILED
    assert ben.far.state.line == ("an invitation code is 8 letters and digits such as "
                                  "K7QM-R2XD, not 'K7QM'")
    ben.far.cancel()  # the screen's Back: the line is gone
    assert ben.far.state.phase == IDLE and ben.far.state.line == ""


def test_a_cancelled_offer_is_taken_off_the_broker(tables):
    anna, ben = tables("anna", "Anna"), tables("ben", "Ben", answer_s=3.0)
    code = offered(anna)
    anna.far.cancel()
    assert anna.far.state.phase == IDLE and anna.far.state.code == ""
    ben.far.join(code)
    until(lambda: ben.far.state.phase == FAILED, ben, what="the join refused")
    assert ben.far.state.line.startswith("no invitation with this code answered")
    assert anna.link is None and ben.link is None


def test_a_board_does_not_take_a_game_it_cannot_play(tables):
    anna = tables("anna", "Anna", games=("conhex",))
    ben = tables("ben", "Ben")  # a Kulami board
    code = offered(anna, "conhex", {})
    ben.far.join(code)
    until(lambda: ben.far.state.phase == FAILED, anna, ben, what="the game refused")
    assert ben.far.state.line == "the invitation is for ConHex; this board plays Kulami"
    assert ben.link is None and not ben.far.path.exists()


def test_a_refused_account_is_one_line(mosquitto, tmp_path):
    config = mosquitto.config("anna", club=CLUB, name="Anna")
    far = FarPlay(type(config)(**{**config.__dict__, "password": "wrong"}),
                  far_game_path(tmp_path), ("kulami",))
    try:
        far.offer("kulami", {}, "b")
        deadline = time.monotonic() + LIMIT_S
        while far.state.phase != FAILED and time.monotonic() < deadline:
            time.sleep(0.01)
        assert far.state.line == f"localhost:{mosquitto.port} refused the board: " \
                                 f"Not authorized"
    finally:
        far.stop()


def test_a_board_that_starts_another_game_leaves_the_far_one_on_both(tables):
    anna, ben = tables("anna", "Anna"), tables("ben", "Ben")
    ben.far.join(offered(anna))
    until(lambda: anna.link is not None and ben.link is not None, anna, ben,
          what="the game agreed")
    until(lambda: anna.link.peer_online and ben.link.peer_online, anna, ben,
          what="both online")
    anna.session.confirm(sorted(anna.session.board.move_text(m)
                                for m in anna.session.board.legal_moves)[0])
    until(lambda: ben.lit() is not None, anna, ben, what="Anna's move lit on Ben's board")
    link = anna.link
    anna.far.leave(anna.session)  # as the menu's new game does before it starts
    anna.link = None
    assert link.game.stopped == "its player started another game"
    until(lambda: ben.link.game.stopped != "", ben, what="Ben told")
    assert ben.session.message == ("Anna's board stopped the game: its player started "
                                   "another game")
    assert ben.lit() is None and ben.session.message_kind == "error"
    assert moves_of(ben.session.board) == []
    assert FarPlay(anna.far.config, anna.far.path, ("kulami",)).resume() is None  # stopped
