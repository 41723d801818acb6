"""Record persistence: atomic saves, resuming the newest game, corrupt records kept aside."""

import os
import sys
from pathlib import Path

import pytest

from app.games import new_game
from app.table import store
from app.table.store import RecordStore, default_data_dir, write_atomically


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
