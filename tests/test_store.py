"""Record persistence: atomic saves, resuming the newest game of this board, corrupt
records kept aside, the table's properties, the load list, and saves that fail."""

import errno
import logging
import os
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import app.remote.far_board  # noqa: F401 (registers its seat, as every far board does)
from app.games import new_game
from app.table import store
from app.table.seats import KINDS, words_of
from app.table.store import RecordStore, default_data_dir, write_atomically
from engines.players import engine_name


def kulami(*moves):
    board = new_game("kulami")
    for move in moves:
        board.push_text(move)
    return board


def test_data_dir_prefers_the_service_state_directory():
    env = {"STATE_DIRECTORY": "/var/lib/tabletop", "XDG_DATA_HOME": "/home/p/.data"}
    assert default_data_dir(env) == Path("/var/lib/tabletop")


def test_data_dir_takes_the_first_of_several_state_directories():
    assert default_data_dir({"STATE_DIRECTORY": "/var/lib/a:/var/lib/b"}) == Path("/var/lib/a")


linux = pytest.mark.skipif(sys.platform != "linux", reason="XDG is the Linux desktop's")


@linux
def test_data_dir_on_a_desktop_follows_xdg():
    assert default_data_dir({"XDG_DATA_HOME": "/home/p/.data"}) == Path("/home/p/.data/tabletop")
    assert default_data_dir({"HOME": "/home/p"}) == Path("/home/p/.local/share/tabletop")
    # the spec ignores a relative XDG_DATA_HOME
    assert default_data_dir({"HOME": "/home/p", "XDG_DATA_HOME": "data"}) == Path(
        "/home/p/.local/share/tabletop")


@linux
def test_data_dir_reads_the_process_environment_by_default(monkeypatch, tmp_path):
    # conftest.py points XDG_DATA_HOME at a throw-away folder: tests save games there
    assert default_data_dir() == Path(os.environ["XDG_DATA_HOME"]) / "tabletop"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_data_dir() == tmp_path / "tabletop"
    monkeypatch.setenv("STATE_DIRECTORY", "/var/lib/tabletop")
    assert default_data_dir() == Path("/var/lib/tabletop")


def test_a_given_environment_leaves_the_process_environment_alone():
    before = dict(os.environ)
    default_data_dir({"XDG_DATA_HOME": "/elsewhere"})
    assert dict(os.environ) == before


def test_every_save_replaces_the_record_and_leaves_no_temporary(tmp_path):
    records = RecordStore(tmp_path)
    board = kulami()
    path = records.start(board)
    for move in ("d4", "d7", "b7"):
        board.push_text(move)
        records.save(board)
        assert path.read_text() == board.to_record()
    assert [p.name for p in path.parent.iterdir()] == [path.name]


def test_saves_are_fsynced_file_then_directory(tmp_path, monkeypatch):
    synced = []
    real_fsync = os.fsync
    monkeypatch.setattr(store.os, "fsync", lambda fd: synced.append(os.readlink(
        f"/proc/self/fd/{fd}")) or real_fsync(fd))
    write_atomically(tmp_path / "game.sgf", "(;GM[Kulami])")
    assert synced == [str(tmp_path / "game.sgf.tmp"), str(tmp_path)]


def file_operations(monkeypatch):
    """Log every os call through which the store changes what a power cut leaves
    (creating a folder, syncing, renaming, linking, removing), each done for real and
    logged once it returned, as ``(name, path, ...)``; a sync names what it synced."""
    calls = []

    def logged(name, real, paths=lambda *args: [Path(a) for a in args[:2]
                                                if isinstance(a, (str, os.PathLike))]):
        def call(*args, **kwargs):
            result = real(*args, **kwargs)
            calls.append((name, *paths(*args)))
            return result
        return call

    monkeypatch.setattr(store.os, "fsync", logged(
        "fsync", os.fsync, lambda fd: [Path(os.readlink(f"/proc/self/fd/{fd}"))]))
    for name in ("mkdir", "rename", "replace", "link", "unlink"):
        monkeypatch.setattr(store.os, name, logged(name, getattr(os, name)))
    return calls


def test_every_folder_the_store_creates_is_synced_into_its_parent_before_a_record_goes_in(
        tmp_path, monkeypatch):
    """A first game on a new desktop: neither the data folder nor its parent exists.
    Each folder made is synced into its parent before the first record is renamed into
    place, so a file system that writes folders in any order cannot lose the game."""
    calls = file_operations(monkeypatch)
    data = tmp_path / "share" / "tabletop"
    records = RecordStore(data)
    path = records.start(kulami())
    made = [call[1] for call in calls if call[0] == "mkdir"]
    assert made == [tmp_path / "share", data, data / "games"]
    record_in_place = calls.index(("replace", path.with_name(path.name + ".tmp"), path))
    for folder in made:
        assert ("fsync", folder.parent) in calls[calls.index(("mkdir", folder)):
                                                  record_in_place], folder


def test_a_folder_whose_sync_failed_is_synced_before_the_next_save_succeeds(
        tmp_path, monkeypatch):
    """The folders were made but syncing their parent failed: they exist now, and are
    synced all the same before a record is saved in them."""
    clock = Clock()
    data = tmp_path / "data"
    state = failing(monkeypatch, errno.EIO)
    records = RecordStore(data, clock=clock)
    assert records.failure == f"cannot create {data / 'games'}: Input/output error"
    assert (data / "games").is_dir()
    board = kulami()
    records.start(board)
    state["failing"] = False
    calls = file_operations(monkeypatch)
    clock.now += store.RETRY_LONGEST_S
    assert records.retry() is True and records.failure == ""
    record_in_place = next(i for i, call in enumerate(calls) if call[0] == "replace")
    assert {("fsync", tmp_path), ("fsync", data)} <= set(calls[:record_in_place])
    assert records.current.read_text() == board.to_record()


def test_resume_loads_the_newest_game(tmp_path):
    first = RecordStore(tmp_path)
    first.start(kulami("d4"))
    newest = first.start(kulami("d4", "d7"))
    again = RecordStore(tmp_path)
    resumed = again.resume()
    assert [str(m) for m in resumed.board.move_stack] == ["d4", "d7"]
    assert resumed.problem == "" and again.current == newest


def test_new_records_are_numbered_after_the_highest(tmp_path):
    records = RecordStore(tmp_path)
    names = [records.start(kulami()).name for _ in range(3)]
    assert names == ["000001-kulami.sgf", "000002-kulami.sgf", "000003-kulami.sgf"]


def test_resume_with_no_records_finds_nothing(tmp_path):
    assert RecordStore(tmp_path).resume() == store.Resumed(None)


@pytest.mark.parametrize("damage", [
    lambda text: text[: len(text) // 2],              # truncated by a power cut
    lambda text: text.replace("B[d4]", "B[z9]"),       # a move that is no field
    lambda text: text.replace("W[d7]", "W[d4]"),       # a move the rules forbid
    lambda text: "\x00\x00\x00",                       # zeroed blocks
])
def test_a_corrupt_record_is_reported_and_kept_aside(tmp_path, damage):
    records = RecordStore(tmp_path)
    path = records.start(kulami("d4", "d7"))
    original = path.read_text()
    path.write_text(damage(original))
    resumed = RecordStore(tmp_path).resume()
    assert resumed.board is None
    kept = tmp_path / "corrupt" / path.name
    assert kept.read_text() == damage(original)
    assert not path.exists()
    assert path.name in resumed.problem and str(kept) in resumed.problem
    assert "\n" not in resumed.problem


def test_a_record_set_aside_is_durable_in_corrupt_before_it_leaves_games(tmp_path,
                                                                           monkeypatch):
    """Moving a record between folders changes two folders, which a file system may write
    in either order: its new name (the file and ``corrupt/`` synced) must be on disk
    before its old name is removed, and the removal synced after."""
    path = RecordStore(tmp_path).start(kulami("d4"))
    path.write_text("damaged")
    calls = file_operations(monkeypatch)
    assert "kept as" in RecordStore(tmp_path).resume().problem
    corrupt = tmp_path / "corrupt"
    kept = corrupt / path.name
    assert kept.read_text() == "damaged" and not path.exists()
    arrives = next(i for i, call in enumerate(calls)
                   if call[0] in ("link", "rename", "replace") and call[2] == kept)
    leaves = next(i for i, call in enumerate(calls)
                  if call[0] == "unlink" and call[1] == path
                  or call[0] in ("rename", "replace") and call[1] == path)
    assert ("fsync", kept) in calls[arrives:leaves]
    assert ("fsync", corrupt) in calls[arrives:leaves]
    assert ("fsync", path.parent) in calls[leaves:]
    assert ("fsync", tmp_path) in calls[calls.index(("mkdir", corrupt)):arrives]


def test_undecodable_bytes_are_a_corrupt_record(tmp_path):
    records = RecordStore(tmp_path)
    path = records.start(kulami())
    path.write_bytes(b"\xff\xfe(;GM[")
    assert "unreadable" in RecordStore(tmp_path).resume().problem
    assert (tmp_path / "corrupt" / path.name).read_bytes() == b"\xff\xfe(;GM["


def test_a_second_corrupt_record_of_the_same_name_does_not_overwrite_the_first(tmp_path):
    for damaged in ("first", "second"):
        records = RecordStore(tmp_path)
        path = records.games / "000001-kulami.sgf"
        path.write_text(damaged)
        records.resume()
    kept = sorted(p.read_text() for p in (tmp_path / "corrupt").iterdir())
    assert kept == ["first", "second"]


def test_an_interrupted_save_leaves_the_previous_record(tmp_path):
    records = RecordStore(tmp_path)
    path = records.start(kulami("d4"))
    (path.parent / (path.name + ".tmp")).write_text("(;GM[Kulami]LY[aa")
    resumed = RecordStore(tmp_path).resume()
    assert [str(m) for m in resumed.board.move_stack] == ["d4"]
    assert list(path.parent.iterdir()) == [path]


def test_saving_before_starting_is_refused(tmp_path):
    with pytest.raises(RuntimeError, match="start"):
        RecordStore(tmp_path).save(kulami())


# --- the table's properties -------------------------------------------------------------
class Players:
    """Stands in for the session the store reads seats, level and seed from."""

    def __init__(self, seats=None, level=2, seed=7):
        self.seats = seats or {"b": "person", "w": "engine"}
        self.level, self.seed = level, seed
        self.engine_name = engine_name(level)


@settings(max_examples=60, deadline=None)
@given(seats=st.fixed_dictionaries({"b": st.sampled_from(sorted(KINDS)),
                                    "w": st.sampled_from(sorted(KINDS))}),
       level=st.integers(1, 5), seed=st.integers(0, 2**32 - 1),
       profile=st.sampled_from(["kulami", "kulami-sim", "conhex", "my-board"]))
def test_seats_level_seed_and_profile_come_back_with_the_game(seats, level, seed, profile):
    with tempfile.TemporaryDirectory() as folder:
        records = RecordStore(folder, profile=profile)
        records.players = Players(seats, level, seed)
        board = new_game("conhex", pie=False, handicap=2)
        records.start(board)
        board.push_text("f6")
        records.save(board)
        resumed = RecordStore(folder).resume("conhex", profile)
    assert {**resumed.table, "seats": words_of(resumed.table["seats"])} == {
        "seats": seats, "level": level, "seed": seed}
    assert resumed.profile == profile
    assert dict(resumed.board.options) == {"pie": False, "handicap": 2}
    assert [str(m) for m in resumed.board.move_stack] == ["f6"]


def test_the_table_properties_sit_in_the_root_where_sgf_readers_ignore_them(tmp_path):
    records = RecordStore(tmp_path, profile="kulami")
    records.players = Players({"b": "engine", "w": "person"}, 1, 42)
    path = records.start(kulami("d4"))
    root = path.read_text().split("\n")[0]
    assert root.endswith("SEATB[engine]SEATW[person]LEVEL[1]SEED[42]PROFILE[kulami]")
    assert new_game("kulami").from_record(path.read_text()).move_stack == kulami("d4").move_stack
    # the engine is named as a player the way GTP's savesgf names it; a person is not
    game = new_game("kulami").record_format.read_game(path.read_text())
    assert dict(game.players) == {"b": "Tabletop (level 1)"}


def test_a_record_without_table_properties_resumes_with_none(tmp_path):
    RecordStore(tmp_path).start(kulami("d4"))
    resumed = RecordStore(tmp_path).resume("kulami", "")
    assert resumed.table == {} and resumed.profile == "" and resumed.board is not None


# --- which record resumes ---------------------------------------------------------------
def test_a_board_resumes_only_its_own_game_and_profile_and_leaves_the_others(tmp_path):
    plan = [("kulami", "kulami"), ("conhex", "conhex"), ("kulami", "kulami-sim"),
            ("conhex", "conhex-sim")]
    for game, profile in plan:
        RecordStore(tmp_path, profile=profile).start(new_game(game))
    before = {p.name: p.read_text() for p in (tmp_path / "games").iterdir()}
    for number, (game, profile) in enumerate(plan, 1):
        records = RecordStore(tmp_path, profile=profile)
        resumed = records.resume(game, profile)
        assert resumed.board.game == game and resumed.profile == profile
        assert records.current.name == f"{number:06d}-{game}.sgf"
    assert RecordStore(tmp_path).resume("kulami", "akron").board is None
    assert {p.name: p.read_text() for p in (tmp_path / "games").iterdir()} == before
    assert not (tmp_path / "corrupt").exists()


def test_a_gap_in_the_numbers_resumes_the_highest_and_continues_after_it(tmp_path):
    records = RecordStore(tmp_path)
    for number, moves in ((1, ["d4"]), (2, ["d4", "d7"]), (5, ["d4", "d7", "b7"])):
        (records.games / f"{number:06d}-kulami.sgf").write_text(kulami(*moves).to_record())
    again = RecordStore(tmp_path)
    resumed = again.resume("kulami", "")
    assert len(resumed.board.move_stack) == 3 and again.current.name == "000005-kulami.sgf"
    assert again.start(kulami()).name == "000006-kulami.sgf"


def test_numbers_past_six_digits_still_sort_after_the_others(tmp_path):
    records = RecordStore(tmp_path)
    (records.games / "999999-kulami.sgf").write_text(kulami().to_record())
    assert records.start(kulami()).name == "1000000-kulami.sgf"
    assert records.start(kulami()).name == "1000001-kulami.sgf"
    assert RecordStore(tmp_path).saved()[0].number == 1000001


def test_the_same_record_corrupt_a_third_time_is_kept_beside_the_first_two(tmp_path):
    for damaged in ("first", "second", "third"):
        records = RecordStore(tmp_path)
        (records.games / "000001-kulami.sgf").write_text(damaged)
        assert "kept as" in records.resume("kulami", "").problem
    corrupt = tmp_path / "corrupt"
    kept = {p.name: p.read_text() for p in corrupt.iterdir()}
    assert kept == {"000001-kulami.sgf": "first", "000001-kulami.sgf.1": "second",
                    "000001-kulami.sgf.2": "third"}


def test_a_record_with_an_option_this_version_refuses_is_kept_where_it_is(tmp_path):
    records = RecordStore(tmp_path)
    path = records.games / "000003-conhex.sgf"
    path.write_text("(;FF[CONHEX]VA[CONHEX]HA[2.0]\n;B[F6])\n")
    resumed = RecordStore(tmp_path).resume("conhex", "")
    assert resumed.board is None
    assert resumed.problem == ("record 000003-conhex.sgf cannot be resumed (HA must be 0, 2 "
                               "or 3, not '2.0' (handicap)); kept as it is")
    assert path.read_text() == "(;FF[CONHEX]VA[CONHEX]HA[2.0]\n;B[F6])\n"
    assert not (tmp_path / "corrupt").exists()
    assert records.start(new_game("conhex")).name == "000004-conhex.sgf"


def test_a_table_property_this_version_refuses_is_named(tmp_path):
    records = RecordStore(tmp_path)
    text = kulami("d4").to_record().replace("AP[Tabletop]", "AP[Tabletop]SEATB[robot]"
                                            "SEATW[person]")
    (records.games / "000001-kulami.sgf").write_text(text)
    problem = RecordStore(tmp_path).resume("kulami", "").problem
    assert "SEATB must be person, engine, remote or board, not 'robot'" in problem and "kept as it is" in problem


@pytest.mark.parametrize("properties, message", [
    ("LEVEL[0]", "LEVEL must be 1 or more, not '0'"),
    ("LEVEL[two]", "LEVEL must be a whole number, not 'two'"),
    ("SEED[1.5]", "SEED must be a whole number, not '1.5'"),
    ("SEATB[engine]", "SEATB and SEATW come together"),
])
def test_broken_table_properties_are_one_line_naming_the_property(tmp_path, properties,
                                                                  message):
    text = kulami().to_record().replace("AP[Tabletop]", "AP[Tabletop]" + properties)
    path = tmp_path / "games" / "000001-kulami.sgf"
    RecordStore(tmp_path)
    path.write_text(text)
    problem = RecordStore(tmp_path).read(path).problem
    assert message in problem and "\n" not in problem


# --- the load list ----------------------------------------------------------------------
def test_saved_lists_every_record_newest_first_and_read_moves_nothing(tmp_path):
    RecordStore(tmp_path, profile="kulami").start(kulami("d4"))
    RecordStore(tmp_path, profile="conhex").start(new_game("conhex"))
    (tmp_path / "games" / "000003-kulami.sgf").write_text("damaged")
    records = RecordStore(tmp_path)
    saved = records.saved()
    assert [(s.number, s.game) for s in saved] == [(3, "kulami"), (2, "conhex"), (1, "kulami")]
    assert records.read(saved[2].path).profile == "kulami"
    assert "000003-kulami.sgf does not load" in records.read(saved[0].path).problem
    assert len(list((tmp_path / "games").iterdir())) == 3 and records.current is None


def test_a_loaded_record_takes_the_next_number_so_a_restart_resumes_it(tmp_path):
    first = RecordStore(tmp_path, profile="kulami")
    older = first.start(kulami("d4"))
    first.start(kulami("d4", "d7"))
    records = RecordStore(tmp_path, profile="kulami")
    loaded = records.load(older)
    assert [str(m) for m in loaded.board.move_stack] == ["d4"]
    assert records.current.name == "000003-kulami.sgf" and not older.exists()
    board = loaded.board
    board.push_text("d7")
    records.save(board)
    resumed = RecordStore(tmp_path, profile="kulami").resume("kulami", "kulami")
    assert [str(m) for m in resumed.board.move_stack] == ["d4", "d7"]


def test_loading_the_newest_record_keeps_its_number(tmp_path):
    path = RecordStore(tmp_path).start(kulami("d4"))
    records = RecordStore(tmp_path)
    records.load(path)
    assert records.current == path and path.exists()


def test_a_record_whose_save_failed_reads_and_loads_as_last_saved(tmp_path, monkeypatch):
    records = RecordStore(tmp_path)
    older = records.start(kulami("d4"))
    records.start(kulami())
    records.current = older
    state = failing(monkeypatch, errno.ENOSPC)
    records.save(kulami("d4", "d7"))  # not on disk
    assert len(records.read(older).board.move_stack) == 2
    loaded = records.load(older)
    assert len(loaded.board.move_stack) == 2 and records.current.name == "000003-kulami.sgf"
    state["failing"] = False
    records.save(loaded.board)
    assert records.current.read_text() == kulami("d4", "d7").to_record()


def test_loading_a_record_that_does_not_load_leaves_everything(tmp_path):
    records = RecordStore(tmp_path)
    path = records.games / "000001-kulami.sgf"
    path.write_text("damaged")
    assert records.load(path).board is None
    assert path.read_text() == "damaged" and records.current is None



def test_a_record_s_faults_name_the_players_by_their_colours_not_gtp_s_letters(tmp_path):
    """The engines word a record's faults in GTP's letters ("it is w's turn, not b's"),
    which read as white and black; the store says them in the game's colours, Kulami's
    red and black, on the load list, in a resume's report and on the page alike."""
    records = RecordStore(tmp_path)
    path = records.start(kulami("d4", "d7"))
    path.write_text(path.read_text().replace("W[d7]", "B[d7]"))  # red twice in a row
    problem = records.read(path).problem
    assert problem.endswith("move 2 (B[d7]): it is black's turn, not red's")
    assert "\n" not in problem
    resumed = RecordStore(tmp_path).resume()
    assert resumed.board is None and "it is black's turn, not red's" in resumed.problem
    akron = records.games / "000009-akron.sgf"
    board = new_game("akron")
    board.push_text(next(board.move_text(m) for m in board.legal_moves))
    akron.write_text(board.to_record().replace(";B[", ";W[", 1))  # white's move as red's
    assert "it is white's turn, not red's" in records.read(akron).problem


# --- saves that fail --------------------------------------------------------------------
class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def failing(monkeypatch, code):
    """Make every fsync of the store fail with ``code`` until the returned switch is
    flipped; counts the attempts."""
    state = {"failing": True, "attempts": 0}
    real = os.fsync

    def fsync(fd):
        state["attempts"] += 1
        if state["failing"]:
            raise OSError(code, os.strerror(code))
        real(fd)

    monkeypatch.setattr(store.os, "fsync", fsync)
    return state


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS, errno.EACCES])
def test_a_failed_save_keeps_the_game_says_why_and_is_retried_until_it_works(
        tmp_path, monkeypatch, caplog, code):
    caplog.set_level(logging.INFO, logger="app.table.store")
    clock = Clock()
    records = RecordStore(tmp_path, clock=clock)
    board = kulami()
    path = records.start(board)
    state = failing(monkeypatch, code)
    for move in ("d4", "d7"):
        board.push_text(move)
        assert records.save(board) is False  # never raised
    assert records.failure == f"cannot save {path.name}: {os.strerror(code)}"
    errors = [r for r in caplog.records if r.levelname == "ERROR"]
    assert len(errors) == 1 and os.strerror(code) in errors[0].getMessage()
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]  # no .tmp left
    assert path.read_text() == kulami().to_record()  # the last good save stands
    attempts = state["attempts"]
    assert records.retry() is False and state["attempts"] == attempts  # too soon
    clock.now += store.RETRY_FIRST_S * 2 + 0.01  # the second failure doubled the wait
    assert records.retry() is False and state["attempts"] == attempts + 1
    clock.now += 1
    assert records.retry() is False and state["attempts"] == attempts + 1  # waits longer
    state["failing"] = False
    clock.now += store.RETRY_LONGEST_S
    assert records.retry() is True
    assert records.failure == "" and path.read_text() == board.to_record()
    assert "saving works again" in caplog.text


def test_the_wait_between_retries_stops_growing(tmp_path, monkeypatch):
    clock = Clock()
    records = RecordStore(tmp_path, clock=clock)
    records.start(kulami())
    state = failing(monkeypatch, errno.ENOSPC)
    records.save(kulami())
    for _ in range(12):
        clock.now += store.RETRY_LONGEST_S
        records.retry()
    assert state["attempts"] == 13
    before = state["attempts"]
    clock.now += store.RETRY_LONGEST_S - 0.01
    records.retry()
    assert state["attempts"] == before  # at most the longest wait, never more


def test_a_read_only_folder_refuses_the_write_itself(tmp_path, monkeypatch):
    records = RecordStore(tmp_path)
    board = kulami()
    path = records.start(board)

    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(store, "open", read_only, raising=False)
    board.push_text("d4")
    assert records.save(board) is False
    assert records.failure == f"cannot save {path.name}: Read-only file system"
    monkeypatch.undo()
    board.push_text("d7")
    assert records.save(board) is True and records.failure == ""
    assert path.read_text() == board.to_record()


def test_a_new_game_while_saves_fail_keeps_both_games(tmp_path, monkeypatch):
    records = RecordStore(tmp_path)
    first = kulami()
    records.start(first)
    state = failing(monkeypatch, errno.ENOSPC)
    first.push_text("d4")
    records.save(first)
    second = kulami("d4", "d7")
    path = records.start(second)  # the first record's number is not taken twice
    assert path.name == "000002-kulami.sgf"
    state["failing"] = False
    second.push_text("b7")
    assert records.save(second) is True
    saved = {p.name: p.read_text() for p in (tmp_path / "games").iterdir()}
    assert saved == {"000001-kulami.sgf": first.to_record(),
                     "000002-kulami.sgf": second.to_record()}


def test_a_data_folder_that_cannot_be_made_is_a_failure_not_a_crash(tmp_path, monkeypatch):
    real_mkdir = os.mkdir

    def mkdir(path, *args, **kwargs):
        if Path(path).name == "games":
            raise OSError(errno.EROFS, os.strerror(errno.EROFS))
        return real_mkdir(path, *args, **kwargs)

    monkeypatch.setattr(store.os, "mkdir", mkdir)
    records = RecordStore(tmp_path / "data")
    assert records.failure.endswith("games: Read-only file system")
    assert records.resume("kulami", "") == store.Resumed(None)
    board = kulami()
    records.start(board)
    assert records.failure
    monkeypatch.undo()
    assert records.retry() is False  # the back-off first
    records.clock = lambda: float("inf")
    assert records.retry() is True and records.failure == ""
    assert records.current.read_text() == board.to_record()
