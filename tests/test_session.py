"""The session on a simulated board: whole games, the engine's move waiting for a hand,
takebacks, illegal placements, sync mode, hints, new games and resuming."""

import logging
import random

import pytest

from app.games import new_game
from app.table.seats import SeatError, words_of
from app.table.session import Session, SessionError, State
from app.table.store import RecordStore
from tests.hands import Board


def session(tmp_path=None, moves=(), **kwargs):
    board = new_game("kulami")
    for move in moves:
        board.push_text(move)
    store = None
    if tmp_path is not None:
        store = RecordStore(tmp_path)
        store.start(board)
    return Session(board, store=store, seed=1, **kwargs)


def texts(session):
    return [str(m) for m in session.board.move_stack]


def test_a_whole_game_between_two_people_through_the_pipeline(tmp_path):
    game = session(tmp_path)
    table = Board(game)
    rng = random.Random(5)
    played = []
    while not game.board.is_game_over():
        move = str(rng.choice(game.board.legal_moves))
        table.place(move)
        played.append(move)
        assert texts(game) == played
        assert RecordStore(tmp_path).resume().board.move_stack == game.board.move_stack
    status = game.status()
    assert status.turn is None and status.end is not None
    assert status.message_kind == "over" and "game over" in status.message
    assert status.moves == tuple(played)


def test_the_engines_move_counts_only_once_a_person_places_it(tmp_path):
    game = session(tmp_path, seats={"b": "person", "w": "engine"})
    table = Board(game)
    table.place("d4")
    pending = game.pending
    assert pending is not None and texts(game) == ["d4"]
    status = game.status()
    assert status.pending == str(pending) and status.message_kind == "waiting"
    assert game.scene().lights[str(pending)].role == "suggestion"
    table.settle()
    assert texts(game) == ["d4"]  # waiting does not play it
    table.place(str(pending))
    assert texts(game) == ["d4", str(pending)] and game.pending is None
    assert RecordStore(tmp_path).resume().board.move_stack == game.board.move_stack


def test_the_engines_move_placed_in_the_wrong_hole_is_refused(tmp_path):
    game = session(tmp_path, seats={"b": "person", "w": "engine"})
    table = Board(game)
    table.place("d4")
    wrong = next(str(m) for m in game.board.legal_moves if m != game.pending)
    table.place(wrong)
    assert texts(game) == ["d4"]
    assert game.status().message_kind == "error" and str(game.pending) in game.status().message
    assert game.scene().lights[wrong].role == "error"
    table.lift(wrong)
    table.place(str(game.pending))
    assert texts(game) == ["d4", str(game.pending or game.board.move_stack[-1])]
    assert len(game.board.move_stack) == 2


def test_the_engine_moving_first_waits_at_the_start():
    game = session(seats={"b": "engine", "w": "person"})
    assert game.pending is not None and game.status().message_kind == "waiting"


def test_the_engine_chooses_the_same_move_after_a_restart():
    first = session(moves=["d4"], seats={"b": "person", "w": "engine"})
    again = session(moves=["d4"], seats={"b": "person", "w": "engine"})
    assert first.pending == again.pending


def test_lifting_the_last_piece_takes_the_move_back(tmp_path):
    game = session(tmp_path)
    table = Board(game)
    table.place("d4", )
    table.place("d7")
    table.lift("d7")
    assert texts(game) == ["d4"] and "took back d7" in game.status().message
    assert RecordStore(tmp_path).resume().board.move_stack == game.board.move_stack


def test_the_undo_button_takes_back_the_engines_reply_too_and_shows_what_to_lift(tmp_path):
    game = session(tmp_path, seats={"b": "person", "w": "engine"})
    table = Board(game)
    table.place("d4")
    reply = str(game.pending)
    table.place(reply)
    game.undo()
    assert texts(game) == [] and game.pending is None
    assert game.status().sync_empty == {"d4", reply}
    assert game.scene().roles() == {"d4": "empty", reply: "empty"}
    table.lift(reply)  # half lifted: d4 alone would look like a first move
    assert texts(game) == [] and game.status().sync_empty == {"d4"}
    table.lift("d4")
    assert game.sync is None and texts(game) == []
    assert RecordStore(tmp_path).resume().board.move_stack == []


def test_nothing_to_undo_says_so():
    game = session()
    game.undo()
    assert game.status().message == "nothing to take back"


def test_an_illegal_placement_flashes_and_says_why():
    game = session(moves=["d4"])
    table = Board(game)
    table.place("d4")
    table.place("e5")  # same panel as d4, not in its row or column
    status = game.status()
    assert texts(game) == ["d4"] and status.message_kind == "error"
    assert "row or column" in status.message
    light = game.scene().lights["e5"]
    assert light.role == "error" and light.blink
    assert game.scene().lights["d7"].role == "legal"
    table.lift("e5")
    assert game.status().message_kind == "info" and not game.error


def test_a_board_that_does_not_match_enters_sync_mode_and_changes_nothing():
    game = session(moves=["d4", "d7"])
    table = Board(game)
    table.settle()
    assert game.status().sync_fill == {"d4", "d7"} and game.status().message_kind == "sync"
    table.place("d4")
    assert game.status().sync_fill == {"d7"} and texts(game) == ["d4", "d7"]
    table.place("d7")
    assert game.sync is None and texts(game) == ["d4", "d7"]
    table.place("b7")
    assert texts(game) == ["d4", "d7", "b7"]


def test_a_hint_lights_a_suggested_legal_move():
    game = session(moves=["d4"], show_legal=False)
    assert not game.scene().named("legal")
    game.hint()
    suggestion = game.suggestion
    assert game.board.is_legal(suggestion)
    assert game.status().message == f"hint: {suggestion}, the best score one move ahead: " \
                                    "level 2 looks only one move ahead"
    scene = game.scene()
    assert scene.lights[str(suggestion)].role == "suggestion" and scene.named("legal")


def test_a_person_may_enter_a_move_on_the_screen_and_then_place_it():
    game = session(moves=["d4"])
    game.confirm("d7")
    assert texts(game) == ["d4", "d7"]
    game.confirm("e5")
    assert texts(game) == ["d4", "d7"] and game.status().message_kind == "error"
    game.confirm("zz")
    assert "is not a field" in game.status().message


def test_a_new_game_starts_with_the_setup_scene_until_confirmed(tmp_path):
    game = session(tmp_path, moves=["d4"])
    table = Board(game)
    table.place("d4")
    game.new_game()
    assert texts(game) == [] and game.status().sync_empty == {"d4"}
    table.lift("d4")
    assert game.setting_up and {light.role for light in game.scene().lights.values()} == {"setup"}
    game.confirm()
    assert not game.setting_up and game.scene().named("legal")
    assert len(RecordStore(tmp_path).records()) == 2


def test_resume_or_start_resumes_then_reports_a_corrupt_record(tmp_path):
    store = RecordStore(tmp_path)
    first = Session.resume_or_start(store, "kulami", {}, seed=1)
    assert first.setting_up and first.store.current.name == "000001-kulami.sgf"
    first.confirm("d4")
    resumed = Session.resume_or_start(RecordStore(tmp_path), "kulami", {}, seed=1)
    assert texts(resumed) == ["d4"] and "resumed" in resumed.status().message
    resumed.store.current.write_text("(;GM[Kulami]LY[")
    fresh = Session.resume_or_start(RecordStore(tmp_path), "kulami", {}, seed=1)
    assert texts(fresh) == [] and fresh.status().message_kind == "error"
    assert "kept as" in fresh.status().message
    assert (tmp_path / "corrupt" / "000001-kulami.sgf").exists()


@pytest.mark.parametrize("seats, level, error", [
    ({"b": "person"}, 2, SeatError), ({"b": "robot", "w": "person"}, 2, SeatError),
    ({"b": "person", "w": "person"}, 0, SessionError)])
def test_impossible_seats_and_levels_are_refused(seats, level, error):
    with pytest.raises(error):
        Session(new_game("kulami"), seats=seats, level=level)


def test_undoing_one_move_waits_for_the_piece_to_be_lifted():
    game = session()
    table = Board(game)
    table.place("d4")
    game.undo()
    assert texts(game) == [] and game.status().sync_empty == {"d4"}
    table.settle()
    assert texts(game) == []  # the lone marble is not played again as a first move
    table.lift("d4")
    assert game.sync is None


def test_a_disk_that_fails_mid_game_never_stops_play_and_the_game_is_saved_later(
        tmp_path, monkeypatch):
    """ENOSPC on every fsync from the second move on: the moves still count, the screen
    says saving fails, and once the disk has room the loop's poll writes them all."""
    import errno
    import os

    from app.table import store as store_module

    now = [0.0]
    records = RecordStore(tmp_path, clock=lambda: now[0])
    game = Session(new_game("kulami"), store=records, seed=1,
                   seats={"b": "person", "w": "person"})
    records.start(game.board)
    table = Board(game)
    table.place("d4")
    real_fsync, full = os.fsync, [True]

    def fsync(fd):
        if full[0]:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_fsync(fd)

    monkeypatch.setattr(store_module.os, "fsync", fsync)
    table.place("d7")
    assert texts(game) == ["d4", "d7"]  # the move counted
    status = game.status()
    assert status.saving.startswith("saving fails (cannot save 000001-kulami.sgf: No space")
    assert status.message == status.saving and status.message_kind == "error"
    table.place("d2")
    assert texts(game) == ["d4", "d7", "d2"]
    full[0] = False
    game.poll()  # too soon after the last failure: nothing tried yet
    assert game.status().saving
    now[0] += store_module.RETRY_LONGEST_S
    game.poll()
    assert game.status().saving == "" and game.message == "saving works again: the game is on disk"
    resumed = RecordStore(tmp_path).resume("kulami")
    assert [str(m) for m in resumed.board.move_stack] == ["d4", "d7", "d2"]


def test_the_log_says_a_move_is_saved_only_when_it_is_on_disk(tmp_path, monkeypatch,
                                                               caplog):
    """A full disk (ENOSPC from the store's fsync) from the second move: that move is
    logged as not saved, with why, never as saved."""
    import errno
    import os

    from app.table import store as store_module

    records = RecordStore(tmp_path)
    game = Session(new_game("kulami"), store=records, seed=1, physical=False,
                   seats={"b": "person", "w": "person"})
    records.start(game.board)
    caplog.set_level(logging.INFO, logger="app.table.session")
    game.confirm("d4")

    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(store_module.os, "fsync", full)
    game.confirm("d7")
    assert texts(game) == ["d4", "d7"]
    moves = [r.getMessage() for r in caplog.records if r.getMessage().startswith("move ")]
    assert moves == ["move 1: Red d4 (saved)",
                     "move 2: Black d7 (not saved: cannot save 000001-kulami.sgf: No space "
                     "left on device)"]


def test_a_piece_lights_as_seen_at_once_and_counts_at_settle():
    from app.sensing.pipeline import DEBOUNCE_S, SETTLE_S

    game = session(seats={"b": "person", "w": "person"})
    game.tick(0.0)
    game.tick(1.0)
    revision = game.revision
    game.on_reading("d4", True, 2.0)
    game.tick(2.0 + DEBOUNCE_S)
    assert game.scene().named("seen") == {"d4"} and game.revision > revision
    assert texts(game) == []  # not a move yet
    game.tick(2.0 + SETTLE_S)
    assert texts(game) == ["d4"] and game.scene().named("seen") == frozenset()
    assert game.scene().named("last") == {"d4"}


def test_a_piece_of_the_wrong_colour_is_named_as_such_on_a_colour_sensing_board():
    game = session(seats={"b": "person", "w": "person"}, colour_sensing=True)
    game.tick(0.0)
    game.on_reading("d4", True, 1.0, colour="w")  # a black marble, red to move
    game.tick(3.0)
    assert texts(game) == [] and game.error == {"d4"}
    assert game.message == ("not a legal move: a black piece on d4, but red is to move: "
                            "take it off")
    game.on_reading("d4", False, 4.0)
    game.on_reading("d4", True, 5.0, colour="b")
    game.tick(7.0)
    assert texts(game) == ["d4"]


# --- no board (the terminal): typed moves, the engine's played, nothing to lift -----------

PEOPLE = {"b": "person", "w": "person"}
ENGINE_SECOND = {"b": "person", "w": "engine"}


def boardless(tmp_path=None, moves=(), **kwargs):
    return session(tmp_path, moves, physical=False, **kwargs)


def test_without_a_board_the_engines_move_is_played_once_its_search_is_done(tmp_path):
    game = boardless(tmp_path, seats=ENGINE_SECOND)
    game.confirm("d4")
    # Found already (inline), but played by the front end's poll, not inside d4's call.
    assert texts(game) == ["d4"] and game.state is State.THINKING
    game.poll()
    assert len(texts(game)) == 2 and game.pending is None and game.state is State.WAITING
    assert game.sync is None and game.message.startswith("black played ")
    assert RecordStore(tmp_path).resume().board.move_stack == game.board.move_stack
    # the very move a board would have lit for a person to place
    assert session(moves=["d4"], seats=ENGINE_SECOND).pending == game.board.move_stack[1]


def test_without_a_board_nothing_is_played_before_the_first_poll():
    """The constructor plays nothing (its record may not be started yet); each poll
    then plays the engine's move, one at a time, to the end of a game of engines."""
    game = boardless(seats={"b": "engine", "w": "engine"}, level=1)
    assert texts(game) == [] and game.state is State.THINKING
    for moves in range(1, 200):
        game.poll()
        assert len(texts(game)) == moves
        if game.board.is_game_over():
            break
    assert game.state is State.OVER and "game over" in game.message


def test_a_typed_move_without_a_board_enters_no_sync_mode():
    on_board = session(seats=PEOPLE)
    Board(on_board).settle()
    on_board.confirm("d4")  # a button's move: the piece is still to be put down
    assert on_board.state is State.SYNC and on_board.status().sync_fill == {"d4"}
    game = boardless(seats=PEOPLE)
    assert not game.setting_up  # no panels to lay out either
    game.confirm("d4")
    assert texts(game) == ["d4"] and game.state is State.WAITING
    assert game.status().sync_fill == frozenset() and game.message == "red played d4"
    game.confirm("e5")  # refused in one line, the game untouched
    assert texts(game) == ["d4"] and game.message_kind == "error"
    assert "row or column" in game.message


def test_undo_without_a_board_takes_back_the_engines_reply_and_leaves_nothing_to_lift(
        tmp_path):
    game = boardless(tmp_path, seats=ENGINE_SECOND)
    game.confirm("d4")
    game.poll()
    reply = texts(game)[1]
    game.undo()
    assert texts(game) == [] and game.state is State.WAITING and game.sync is None
    assert game.message == f"took back {reply}, d4"
    assert RecordStore(tmp_path).resume().board.move_stack == []
    game.undo()
    assert game.message == "nothing to take back"


def test_a_hint_without_a_board_is_shown_at_once():
    game = boardless(moves=["d4"], seats=PEOPLE)
    game.hint()
    assert game.board.is_legal(game.suggestion)
    assert game.message.startswith(f"hint: {game.suggestion}, ")
    assert texts(game) == ["d4"]


def test_a_boardless_game_resumes_after_a_restart_with_the_engines_same_choice(
        tmp_path, caplog):
    def start(**kwargs):
        return Session.resume_or_start(RecordStore(tmp_path, profile="terminal"), "kulami",
                                       {}, physical=False, **kwargs)

    first = start(seats=ENGINE_SECOND)
    first.confirm("d4")  # the terminal is closed before the engine's reply is played
    with caplog.at_level(logging.WARNING, logger="app.table.session"):
        again = start(seats=PEOPLE, level=3, seed=99, report_kept=False)
    assert caplog.records == []  # the caller words the difference itself
    assert again.resumed and texts(again) == ["d4"]
    assert words_of(again.seats) == ENGINE_SECOND and again.level == 2 and again.seed == first.seed
    again.poll()
    first.poll()
    assert again.board.move_stack == first.board.move_stack


def test_a_finished_game_is_resumed_to_show_its_end_unless_asked_not_to(tmp_path):
    def start(**kwargs):
        return Session.resume_or_start(RecordStore(tmp_path), "kulami", {}, physical=False,
                                       seats={"b": "engine", "w": "engine"}, level=1,
                                       **kwargs)

    game = start()
    while not game.board.is_game_over():
        game.poll()
    shown = start()
    assert shown.resumed and shown.board.is_game_over()
    fresh = start(finished=False)
    assert not fresh.resumed and texts(fresh) == []
    assert fresh.store.current.name == "000002-kulami.sgf"


# --- a seat played from a browser -------------------------------------------------------
def test_a_remote_move_is_lit_only_at_its_turn_and_only_when_legal():
    game = session(seats={"b": "person", "w": "remote"})
    table = Board(game)
    game.remote_move("w", "d4")  # red's turn: not the browser's
    assert game.pending is None and game.message_kind == "error"
    table.place("d4")
    assert texts(game) == ["d4"] and "comes from the web page" in game.message
    game.remote_move("b", "d7")  # not the seat the browser holds
    assert game.pending is None and "not red's move" in game.message
    game.remote_move("w", "zz9")
    assert game.pending is None and game.message_kind == "error"
    game.remote_move("w", "d7")
    assert str(game.pending) == "d7" and game.state == State.PLACING
    assert game.scene().roles()["d7"] == "suggestion"
    table.place("d7")
    assert texts(game) == ["d4", "d7"] and game.pending is None


def test_a_move_declines_a_takeback_on_offer_and_nobody_accepts_their_own():
    game = session(seats={"b": "person", "w": "remote"})
    table = Board(game)
    table.place("d4")
    game.offer_takeback("w")
    assert game.offer == "w" and game.status().offer == "w"
    game.accept_takeback("w")  # the offerer's own offer
    assert texts(game) == ["d4"]
    game.remote_move("w", "d7")
    table.place("d7")
    assert texts(game) == ["d4", "d7"] and game.offer is None  # the move declined it
