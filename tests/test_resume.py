"""Resume fidelity: a board resumes its own game with every option, the seats, the level
and the seed it was played with, and a configuration never changes or discards it."""

import logging

import pytest

from app.games import new_game
from app.table.seats import words_of
from app.table.session import Session
from app.table.store import RecordStore
from engines import OptionError


def start(tmp_path, game, options=None, profile="", **kwargs):
    """``tabletop run`` starting on ``profile``: resume the game there, else a new one."""
    store = RecordStore(tmp_path, profile=profile)
    return Session.resume_or_start(store, game, options or {}, **kwargs)


def test_conhex_without_the_pie_rule_comes_back_without_it_every_time(tmp_path):
    session = start(tmp_path, "conhex", {"pie": False}, "conhex")
    session.confirm("f6")
    for _ in range(50):
        again = start(tmp_path, "conhex", {"pie": True}, "conhex")
        assert again.board.options == {"pie": False, "handicap": 0}
        assert [str(m) for m in again.board.move_stack] == ["f6"]
        assert not again.board.is_legal(again.board.parse_move("swap"))
    assert len(again.store.records()) == 1


@pytest.mark.parametrize("game, options", [
    ("conhex", {"pie": False, "handicap": 3}),
    ("conhex", {"pie": True, "handicap": 2}),
    ("kulami", {"layout": "cross", "scoring": 2, "chain_lines": "diagonal"}),
    ("kulami", {"layout": "random-free:7", "scoring": 1}),
])
def test_every_option_comes_back(tmp_path, game, options):
    first = start(tmp_path, game, options, game)
    again = start(tmp_path, game, {}, game)
    assert dict(again.board.options) == dict(first.board.options)
    assert again.store.current == first.store.current


def test_seats_level_and_seed_come_back_from_the_record_not_the_configuration(tmp_path,
                                                                              caplog):
    first = start(tmp_path, "kulami", {}, "kulami", seats={"b": "engine", "w": "person"},
                  level=1)
    assert first.pending is not None  # the engine, as b, has lit its first move
    with caplog.at_level(logging.WARNING, logger="app.table.session"):
        again = start(tmp_path, "kulami", {"scoring": 2}, "kulami",
                      seats={"b": "person", "w": "engine"}, level=2, seed=99)
    assert words_of(again.seats) == {"b": "engine", "w": "person"} and again.level == 1
    assert again.seed == first.seed and again.pending == first.pending
    [warning] = caplog.records
    assert warning.getMessage() == ("000001-kulami.sgf keeps its own seats, level and "
                                    "options, not the configuration's")


def test_the_configuration_s_own_options_are_not_a_difference(tmp_path, caplog):
    start(tmp_path, "kulami", {"layout": "square-2"}, "kulami", level=2)
    with caplog.at_level(logging.WARNING, logger="app.table.session"):
        start(tmp_path, "kulami", {"layout": "square-2"}, "kulami", level=2)
    assert caplog.records == []


def test_a_kulami_board_never_resumes_a_conhex_game(tmp_path):
    kulami = start(tmp_path, "kulami", {}, "kulami")
    kulami.confirm("d4")
    conhex = start(tmp_path, "conhex", {}, "conhex")
    conhex.confirm("f6")
    conhex_record = conhex.store.current.read_text()
    again = start(tmp_path, "kulami", {}, "kulami")
    assert again.board.game == "kulami" and [str(m) for m in again.board.move_stack] == ["d4"]
    assert conhex.store.current.read_text() == conhex_record
    simulated = start(tmp_path, "kulami", {}, "kulami-sim")  # another board of the game
    assert simulated.board.move_stack == [] and simulated.store.current.name.startswith("000003")


def test_a_record_with_a_refused_option_is_reported_kept_and_a_new_game_starts(tmp_path):
    store = RecordStore(tmp_path, profile="conhex")
    old = store.games / "000001-conhex.sgf"
    old.write_text("(;FF[CONHEX]VA[CONHEX]HA[2.0]PROFILE[conhex]\n;B[F6])\n")
    session = start(tmp_path, "conhex", {}, "conhex")
    assert session.status().message_kind == "error"
    assert "HA must be 0, 2 or 3, not '2.0'" in session.status().message
    assert old.read_text() == "(;FF[CONHEX]VA[CONHEX]HA[2.0]PROFILE[conhex]\n;B[F6])\n"
    assert session.store.current.name == "000002-conhex.sgf"


def test_handicap_2_0_is_refused_before_it_reaches_a_record(tmp_path):
    with pytest.raises(OptionError, match="handicap must be 0, 2 or 3, not 2.0"):
        start(tmp_path, "conhex", {"handicap": 2.0}, "conhex")
    assert RecordStore(tmp_path).records() == []


def test_a_record_from_the_load_list_continues_with_its_own_table(tmp_path):
    first = start(tmp_path, "conhex", {"handicap": 2}, "conhex-sim",
                  seats={"b": "person", "w": "person"})
    first.confirm("f6")
    other = start(tmp_path, "kulami", {}, "kulami", seats={"b": "person", "w": "engine"})
    name = first.store.current.name
    loaded = Session.resume_or_start(other.store, "conhex", {}, record=name,
                                     seats={"b": "person", "w": "engine"})
    assert loaded.board.options["handicap"] == 2 and len(loaded.board.move_stack) == 1
    assert words_of(loaded.seats) == {"b": "person", "w": "person"}
    assert loaded.store.current.name == "000003-conhex.sgf"  # now the newest
    loaded.confirm("e6")
    assert "PROFILE[kulami]" in loaded.store.current.read_text()  # played on this board now


def test_a_new_game_records_the_seats_it_is_played_with(tmp_path):
    session = start(tmp_path, "kulami", {}, "kulami", seats={"b": "person", "w": "person"})
    session.seats = {"b": "engine", "w": "person"}
    session.level = 1
    session.new_game()
    text = session.store.current.read_text()
    assert "SEATB[engine]SEATW[person]LEVEL[1]" in text and "PROFILE[kulami]" in text
    assert new_game("kulami").from_record(text).move_stack == []


def test_a_browser_s_seat_is_handed_back_to_the_table_after_a_restart(tmp_path, caplog):
    """No browser holds a seat after a restart: the table plays it, says so, and a
    takeback is done at once, not offered to nobody."""
    first = start(tmp_path, "kulami", {}, "kulami", seats={"b": "person", "w": "remote"},
                  physical=False)
    first.confirm("d4")
    assert "comes from the web page" in first.message
    with caplog.at_level(logging.WARNING, logger="app.table.session"):
        again = start(tmp_path, "kulami", {}, "kulami", physical=False)
    assert again.message == ("resumed 000001-kulami.sgf at move 1; black played from the "
                             "web page: a person at the table plays black now")
    assert [r.getMessage() for r in caplog.records] == [
        "black played from the web page: a person at the table plays black now"]
    again.confirm("d7")  # black's move, typed at the table
    assert [str(m) for m in again.board.move_stack] == ["d4", "d7"]
    again.undo()
    assert again.offer is None and [str(m) for m in again.board.move_stack] == ["d4"]
    assert "SEATW[person]" in again.store.current.read_text(encoding="utf-8")
    assert again.seats["w"].at_table and not again.seats["w"].away
