"""The seats: one word each in records and files, refused in one line, and what each
means at the table (what may go down, what Undo does, what is said, how it resumes)."""

from dataclasses import dataclass
from typing import ClassVar

import pytest

import app.remote.far_board  # registers its seat, as on every board that plays one
from app.games import new_game
from app.table import texts
from app.table.outside_engine import EngineCommand, OutsideEngines
from app.table.seats import (KINDS, TABLE_KINDS, Browser, OurEngine, OutsideEngine, Person,
                             Seat, SeatError, parse, parse_seats, register, words_of)
from app.table.session import Session, State
from app.table.store import RecordStore
from app.table.thinker import InlineThinker
from tests.hands import Board


def moves(session):
    return [str(m) for m in session.board.move_stack]


def test_each_word_names_its_seat_and_a_seat_is_its_word():
    assert {word: type(seat) for word, seat in KINDS.items()} == {
        "person": Person, "engine": OurEngine, "remote": Browser,
        "board": app.remote.far_board.FarBoard}
    assert all(parse(word).kind == word for word in KINDS)
    assert parse(Browser()) == Browser()
    assert words_of(parse_seats({"b": "engine", "w": Person()})) == {"b": "engine",
                                                                      "w": "person"}


@pytest.mark.parametrize("seats, kinds, message", [
    ({"b": "robot", "w": "person"}, None,
     "seats: b must be person, engine, remote or board, not 'robot'"),
    ({"b": "person", "w": "remote"}, TABLE_KINDS,
     "seats: w must be person or engine, not 'remote'"),
    ({"b": "person", "w": Browser()}, TABLE_KINDS,
     "seats: w must be person or engine, not 'remote'"),
    ({"b": "person"}, None, "seats must give b and w each person, engine, remote or board, "
                            "not {'b': 'person'}"),
    ("x" * 500, TABLE_KINDS, "seats must give b and w each person or engine, not " + "x" * 60),
])
def test_anything_else_is_refused_in_one_line(seats, kinds, message):
    with pytest.raises(SeatError) as refused:
        parse_seats(seats, kinds)
    assert str(refused.value) == message


def test_what_each_seat_is_at_the_table():
    behaviour = {type(seat).__name__: (seat.at_table, seat.thinks, seat.away, seat.words(3))
                 for seat in (Person(), OurEngine(), OutsideEngine("pentobi-gtp"), Browser())}
    assert behaviour == {"Person": (True, False, False, "person"),
                         "OurEngine": (False, True, False, "engine level 3"),
                         "OutsideEngine": (False, True, False, "pentobi-gtp"),
                         "Browser": (False, False, True, "web page")}
    assert OutsideEngine("pentobi-gtp").kind == "engine"  # as records have always said


def test_an_engine_seat_is_the_outside_program_the_configuration_names_for_its_game():
    thinker = OutsideEngines({"kulami": EngineCommand.parse("/opt/bin/kulami-gtp --x")},
                             InlineThinker())
    session = Session(new_game("kulami"), seats={"b": "person", "w": "engine"},
                      thinker=thinker)
    assert session.seats["w"] == OutsideEngine("kulami-gtp")
    assert texts.seats("kulami", session.status().seats, 2) == \
        "Red: person, Black: kulami-gtp"
    session.new_game("conhex")  # no program for ConHex: our own engine plays it
    assert session.seats["w"] == OurEngine()
    assert texts.seats("conhex", session.status().seats, 2) == \
        "Red: person, Blue: engine level 2"


def test_a_piece_put_down_for_a_browser_before_its_move_is_refused():
    session = Session(new_game("kulami"), seats={"b": "person", "w": "remote"}, seed=1)
    table = Board(session)
    table.place("d4")
    assert session.message == "black's move comes from the web page"
    table.place("d7")
    assert moves(session) == ["d4"] and session.message_kind == "error"
    assert session.message == ("black plays from the web page: take the piece off and "
                                "wait for the move")


def test_news_from_outside_the_game_is_said_and_a_lit_away_move_withdrawn():
    session = Session(new_game("kulami"), seats={"b": "person", "w": "remote"}, seed=1)
    table = Board(session)
    table.place("d4")
    session.remote_move("w", "d7")
    assert session.state is State.PLACING
    revision = session.revision
    session.withdraw("b")  # not the player away's move to withdraw
    assert session.state is State.PLACING and session.revision == revision
    session.withdraw("w")
    session.say("the game with the web page stopped", "error")
    status = session.view().status
    assert session.state is State.WAITING and status.pending is None
    assert (status.message, status.message_kind) == ("the game with the web page stopped",
                                                     "error")
    table.place("d7")
    assert moves(session) == ["d4"]  # their move is theirs no longer: the piece is refused
    with pytest.raises(ValueError, match="a message's kind must be one of"):
        session.say("louder", "shout")
    assert session.message != "louder"


def test_undo_offers_to_a_player_away_and_takes_back_to_a_person_at_the_table():
    away = Session(new_game("kulami"), seats={"b": "person", "w": "remote"},
                   physical=False, seed=1)
    away.confirm("d4")
    away.undo()
    assert moves(away) == ["d4"] and away.offer == "table"
    away.accept_takeback("w")
    assert moves(away) == [] and away.offer is None
    engine = Session(new_game("kulami"), seats={"b": "person", "w": "engine"},
                     physical=False, seed=1)
    engine.confirm("d4")
    engine.poll()
    engine.undo()  # the engine's reply and the person's move: back to the person's turn
    assert moves(engine) == []
    engines = Session(new_game("kulami"), seats={"b": "engine", "w": "engine"},
                      physical=False, seed=1, level=1)
    engines.poll()
    engines.poll()
    engines.undo()  # nobody at the table: the last move alone
    assert len(moves(engines)) == 1


@dataclass(frozen=True)
class FarBoard(Seat):
    """A board far away, as the next kind of seat will be: away, with its own words."""

    kind: ClassVar[str] = "far"
    away: ClassVar[bool] = True
    name: str = "kitchen"

    def words(self, level):
        return f"board {self.name}"

    def to_move(self, game, colour):
        return f"{colour} plays on board {self.name}"

    def place(self, game, colour, move):
        return f"board {self.name} plays {move}: place it there"

    def too_soon(self, game, colour):
        return f"wait for board {self.name}"


def test_a_new_kind_of_seat_plays_with_no_change_to_the_session():
    session = Session(new_game("kulami"), seats={"b": "person", "w": FarBoard()}, seed=1)
    table = Board(session)
    table.place("d4")
    assert session.message == "w plays on board kitchen"
    table.place("d7")
    assert moves(session) == ["d4"] and session.message == "wait for board kitchen"
    table.lift("d7")
    session.remote_move("w", "d7")
    assert session.state is State.PLACING
    assert session.message == "board kitchen plays d7: place it there"
    table.place("d7")
    assert moves(session) == ["d4", "d7"]
    session.undo()
    assert session.offer == "table"  # the board far away accepts, or plays on


@dataclass(frozen=True)
class Impostor(Person):
    """Another class claiming a word that is taken."""


def test_a_kind_of_seat_from_above_the_table_is_registered_once_and_never_twice():
    register(app.remote.far_board.FarBoard())  # its package's import did: no change
    assert parse("board") == app.remote.far_board.FarBoard()
    with pytest.raises(SeatError, match="a seat's word must be new, not 'person'"):
        register(Impostor())
    assert type(parse("person")) is Person


def test_a_record_s_seat_that_is_no_seat_is_named_and_the_record_kept(tmp_path):
    store = RecordStore(tmp_path)
    text = new_game("kulami").to_record().replace("AP[Tabletop]",
                                                  "AP[Tabletop]SEATB[remote]SEATW[pc]")
    (store.games / "000001-kulami.sgf").write_text(text)
    problem = RecordStore(tmp_path).resume("kulami").problem
    assert "SEATW must be person, engine, remote or board, not 'pc'" in problem
    assert (store.games / "000001-kulami.sgf").exists()
