"""An outside engine that answers ``genmove`` with ``resign`` resigns its colour: the game
ends as a resignation, on the screen and in the record, the program neither failed nor
replaced by our own engine (which it was before). A hint it answers so is said as the
hint. The program is the stand-in (tests/gtp_standin.py) in a process of its own."""

import io

from app.cli.play import play
from app.games import new_game
from app.table import texts
from app.table.ending import Termination
from app.table.session import Session, State
from app.table.store import RecordStore
from tests.hands import Board
from tests.test_outside_engine import (PEOPLE_FIRST, engines, gone, pids,  # noqa: F401
                                       received, recorded_players, standin)


def test_an_outside_engine_resigning_ends_the_game_as_a_resignation(tmp_path, engines):
    log = tmp_path / "engine.log"
    store = RecordStore(tmp_path / "games")
    command = standin(log, "resign")
    thinker = engines({"kulami": command})
    game = Session.start_new(store, "kulami", {}, seats=PEOPLE_FIRST, seed=1,
                             thinker=thinker)
    Board(game, 8, 8).place("a1")
    assert received(log)[1:] == ["clear_board", "play b a1", "genmove w"]
    # The game is over by black's resignation: nothing lit to place, nobody's move.
    assert game.resigned == "w" and game.state is State.OVER and game.pending is None
    status = game.status()
    assert status.end.termination is Termination.RESIGNATION
    assert game.view().end_long == "Game over: Red wins: black resigned."
    assert status.message == "game over: Red wins: black resigned."  # the screen's line
    assert "our own engine" not in status.message and not thinker.failed
    # Saved as any resignation, the program alone named as black's player.
    resumed = RecordStore(tmp_path / "games").resume()
    assert resumed.resigned == "w" and [str(m) for m in resumed.board.move_stack] == ["a1"]
    assert recorded_players(store) == {"w": str(command)}
    # Resigned is final: nothing more is asked of the program.
    game.poll()
    assert received(log).count("genmove w") == 1 and len(pids(log)) == 1


def test_the_terminal_shows_the_outside_engine_s_resignation_as_the_end(tmp_path, engines):
    log = tmp_path / "engine.log"
    game = Session(new_game("kulami"), seats=PEOPLE_FIRST, seed=1, physical=False,
                   thinker=engines({"kulami": standin(log, "resign")}))
    out = io.StringIO()
    play(game, io.StringIO("a1\n"), out, colour=False)
    text = out.getvalue()
    assert text.rstrip().endswith(game.view().end_long)
    assert "black resigned" in game.view().end_long and game.resigned == "w"
    assert "plays" not in text.split("red to move>")[-1]  # no move of ours in its place


def test_a_hint_answered_with_resign_is_said_and_the_game_goes_on(tmp_path, engines):
    log = tmp_path / "engine.log"
    thinker = engines({"kulami": standin(log, "resign")})
    game = Session(new_game("kulami"), seats=PEOPLE_FIRST, seed=1, physical=False,
                   thinker=thinker)
    game.hint()
    assert received(log)[1:] == ["clear_board", "genmove b"]
    assert game.status().message == texts.hint("resign")
    assert game.resigned is None and game.suggestion is None and not thinker.failed
    (pid,) = pids(log)
    assert not gone(pid, within=0.2)  # kept running: it answered, it did not fail
