"""Outside engines at the table: a GTP program the configuration names plays the engine's
moves and gives hints, kept in step with the game, asked off the loop with progress and
cancelling; when it crashes, hangs, refuses or plays nonsense the table says so in one
line, keeps the game and plays on with our own engine. The program here is a stand-in
(tests/gtp_standin.py) that misbehaves as each test asks; one test uses our own
``tabletop gtp``."""

import logging
import os
import sys
import time
from pathlib import Path

import pytest

from app.errors import ConfigError
from app.games import new_game
from app.table import texts
from app.table.assembly import Assembly
from app.table.config import load_config
from app.table.engine_process import ProcessThinker
from app.table.outside_engine import DEFAULT_TIMEOUT_S, EngineCommand, OutsideEngines
from app.table.session import Session, State
from app.table.store import RecordStore
from app.table.thinker import InlineThinker, Thinker
from engines.players import engine_name
from tests.hands import Board

ROOT = Path(__file__).resolve().parents[1]
STANDIN = Path(__file__).with_name("gtp_standin.py")
EXAMPLE = ROOT / "app" / "table" / "tabletop.example.toml"
PROGRAM = os.path.basename(sys.executable)
PEOPLE_FIRST = {"b": "person", "w": "engine"}


def standin(log, mode="good", game="kulami", timeout=20.0, **flags):
    extra = [part for key, value in flags.items() for part in (f"--{key}", str(value))]
    return EngineCommand((sys.executable, str(STANDIN), game, mode, str(log), *extra),
                         timeout)


def received(log):
    """What the stand-in was told, one command a line (its ``pid`` lines too)."""
    return log.read_text(encoding="utf-8").splitlines() if log.exists() else []


def pids(log):
    return [int(line.split()[1]) for line in received(log) if line.startswith("pid ")]


def gone(pid, within=5.0):
    """Whether process ``pid`` has ended (and been reaped) within ``within`` seconds."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.02)
    return False


def first_longest(board):
    """The stand-in's choice: the first legal move with the longest text."""
    moves = list(board.legal_moves)
    longest = max(len(board.move_text(move)) for move in moves)
    return next(move for move in moves if len(board.move_text(move)) == longest)


@pytest.fixture
def engines():
    """Outside engines made by a test, all closed after it."""
    made = []

    def make(commands, fallback=None):
        thinker = OutsideEngines(commands, fallback or InlineThinker())
        made.append(thinker)
        return thinker
    yield make
    for thinker in made:
        thinker.close()


def ours(moves, **kwargs):
    """The move our own engine picks after ``moves`` (seed 1), as a session without an
    outside engine would light it."""
    board = new_game("kulami")
    for move in moves:
        board.push_text(move)
    session = Session(board, seats=PEOPLE_FIRST, seed=1, **kwargs)
    return session.pending


# --- playing ---------------------------------------------------------------------------

def test_the_outside_engines_move_is_lit_and_counts_once_a_person_places_it(
        tmp_path, engines, caplog, capfd):
    caplog.set_level(logging.DEBUG, logger="app.table.outside_engine")
    log = tmp_path / "engine.log"
    store = RecordStore(tmp_path / "games")
    game = Session.start_new(store, "kulami", {}, seats=PEOPLE_FIRST, seed=1,
                             thinker=engines({"kulami": standin(log)}))
    table = Board(game, 8, 8)
    table.place("a1")
    reply = first_longest(_after(["a1"]))
    assert game.pending == reply and game.state is State.PLACING
    assert game.status().message == texts.place_engine_move(str(reply))
    assert game.scene().lights[str(reply)].role == "suggestion"
    assert received(log)[1:] == ["clear_board", "play b a1", "genmove w"]
    table.place(str(reply))
    assert [str(m) for m in game.board.move_stack] == ["a1", str(reply)]
    # The record names the program that played the engine's seat, as configured.
    assert recorded_players(store) == {"w": str(standin(log))}
    mine = next(str(m) for m in game.board.legal_moves)
    table.place(mine)
    # Only what is new is told: no clear_board, no replay.
    assert received(log)[4:] == [f"play b {mine}", "genmove w"]
    assert len(pids(log)) == 1
    # The program's standard error is in our log at debug level, not in our output.
    assert "stand-in engine started" in caplog.text
    out, err = capfd.readouterr()
    assert "stand-in engine started" not in out + err


def recorded_players(store):
    """The players the game's record names (``PB``/``PW``), by colour."""
    return dict(new_game("kulami").record_format.read_game(
        store.current.read_text(encoding="utf-8")).players)


def _after(moves, game="kulami"):
    board = new_game(game)
    for move in moves:
        board.push_text(move)
    return board


FAILURES = [
    ("crash", "it exited with status 3 at genmove w"),
    ("hang", "no answer to genmove w within 1 s"),
    ("refuse", "it refused genmove w (not now)"),
    ("illegal", "it played a1, which is not legal ("),
    ("nomove", "it answered 'zz99', which is no move ("),
    ("garbage", "its answer to genmove w is not GTP: 'thinking very hard...'"),
    ("pass", "it played pass, which is not legal (kulami has no passing"),
]


@pytest.mark.parametrize("mode, why", FAILURES, ids=[mode for mode, _ in FAILURES])
def test_a_failing_outside_engine_is_one_line_and_our_engine_plays_on(
        tmp_path, engines, caplog, mode, why):
    log = tmp_path / "engine.log"
    store = RecordStore(tmp_path / "games")
    thinker = engines({"kulami": standin(log, mode, timeout=1.0 if mode == "hang" else 20.0)})
    game = Session.start_new(store, "kulami", {}, seats=PEOPLE_FIRST, seed=1, thinker=thinker)
    table = Board(game, 8, 8)
    table.place("a1")
    status = game.status()
    assert status.message_kind == "waiting" and "\n" not in status.message
    assert status.message.startswith(f"the outside engine {PROGRAM} stopped: ")
    assert why in status.message and status.message.endswith("our own engine plays instead")
    assert caplog.text.count(status.message) == 1  # logged once, as a warning
    # The game is untouched, and our own engine's move is lit as it would have been.
    assert [str(m) for m in game.board.move_stack] == ["a1"]
    assert [str(m) for m in RecordStore(tmp_path / "games").resume().board.move_stack] == ["a1"]
    assert game.pending == ours(["a1"]) and game.state is State.PLACING
    assert game.scene().lights[str(game.pending)].role == "suggestion"
    (pid,) = pids(log)
    assert gone(pid)
    # From then on our own engine plays this game: the program is not asked again, and
    # the record names both.
    table.place(str(game.pending))
    assert recorded_players(store) == {
        "w": f"{standin(log, mode, timeout=1.0 if mode == 'hang' else 20.0)}, then "
             f"{engine_name(game.level)}"}
    mine = next(str(m) for m in game.board.legal_moves)
    table.place(mine)
    assert game.pending == ours(["a1", str(ours(["a1"])), mine])
    assert received(log).count("genmove w") == 1 and len(pids(log)) == 1


def test_a_program_that_does_not_start_is_one_line_too(tmp_path, engines):
    missing = EngineCommand((str(tmp_path / "no-such-engine"), "--level", "5"))
    game = Session(new_game("kulami"), seats=PEOPLE_FIRST, seed=1,
                   thinker=engines({"kulami": missing}))
    Board(game, 8, 8).place("a1")
    assert game.status().message == texts.outside_engine_failed(
        "no-such-engine", "it did not start (No such file or directory)")
    assert game.pending == ours(["a1"])


def test_a_new_game_tries_the_program_again(tmp_path, engines):
    log = tmp_path / "engine.log"
    game = Session(new_game("kulami"), seats=PEOPLE_FIRST, seed=1, physical=False,
                   thinker=engines({"kulami": standin(log, "crash", **{"from": 2})}))
    game.confirm("a1")
    game.poll()
    game.confirm(next(str(m) for m in game.board.legal_moves))
    game.poll()
    assert "stopped: it exited with status 3" in game.status().message
    assert len(game.board.move_stack) == 4
    game.new_game()
    game.confirm("a1")
    game.poll()
    assert len(pids(log)) == 2 and received(log)[-3:] == ["clear_board", "play b a1",
                                                          "genmove w"]
    assert [str(m) for m in game.board.move_stack] == ["a1", str(first_longest(_after(["a1"])))]


# --- off the loop: progress and cancelling -----------------------------------------------

def wait_for(condition, within=10.0):
    end = time.monotonic() + within
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.02)
    return False


def test_the_question_runs_off_the_loop_with_progress_and_a_takeback_cancels_it(
        tmp_path, engines):
    log = tmp_path / "engine.log"
    thinker = engines({"kulami": standin(log, "slow", timeout=4.0, delay=1.5)}, Thinker())
    game = Session(new_game("kulami"), seats=PEOPLE_FIRST, seed=1, thinker=thinker)
    table = Board(game, 8, 8)
    table.place("a1")
    assert game.state is State.THINKING and game.pending is None

    def progressing():
        game.poll()
        return (game.status().thinking or 0) > 0
    assert wait_for(progressing)
    assert game.state is State.THINKING
    # The person takes the move back while the program thinks: GTP cannot interrupt a
    # genmove, so the program is stopped, and nothing is said or lit.
    (first,) = pids(log)
    table.lift("a1")
    assert game.board.move_stack == [] and game.thought is None
    assert gone(first)
    assert "stopped" not in game.status().message and game.pending is None
    # The next question starts it again and replays the game.
    table.place("b2")

    def lit():
        game.poll()
        return game.pending is not None
    assert wait_for(lit)
    assert game.pending == first_longest(_after(["b2"]))
    assert len(pids(log)) == 2
    assert received(log)[-3:] == ["clear_board", "play b b2", "genmove w"]
    assert game.status().message == texts.place_engine_move(str(game.pending))


def test_after_a_crash_our_search_finishes_the_move_in_the_engines_own_process(
        tmp_path, engines):
    log = tmp_path / "engine.log"
    ours_thinker = ProcessThinker()
    thinker = engines({"kulami": standin(log, "crash")}, ours_thinker)
    game = Session(new_game("kulami"), seats=PEOPLE_FIRST, seed=1, thinker=thinker)
    Board(game, 8, 8).place("a1")

    def lit():
        game.poll()
        return game.pending is not None
    assert wait_for(lit, within=60.0)
    assert game.pending == ours(["a1"]) and "stopped" in game.status().message
    assert ours_thinker.process is not None  # not a thread of the table's process


def test_a_hanging_program_is_given_up_after_its_time_limit_off_the_loop(tmp_path, engines):
    log = tmp_path / "engine.log"
    thinker = engines({"kulami": standin(log, "hang", timeout=1.0)}, Thinker())
    game = Session(new_game("kulami"), seats=PEOPLE_FIRST, seed=1, thinker=thinker)
    table = Board(game, 8, 8)
    started = time.monotonic()
    table.place("a1")
    assert time.monotonic() - started < 0.9  # the loop never waited for it

    def lit():
        game.poll()
        return game.pending is not None
    assert wait_for(lit)
    assert "no answer to genmove w within 1 s" in game.status().message
    assert game.pending == ours(["a1"])
    assert gone(pids(log)[0])


# --- keeping in step ----------------------------------------------------------------------

def play_moves(game, count):
    """The person plays the first legal move, the engine answers, ``count`` times."""
    for _ in range(count):
        game.confirm(next(str(m) for m in game.board.legal_moves))
        game.poll()


@pytest.mark.parametrize("mode", ["good", "noundo"])
def test_a_takeback_is_undone_in_the_program_too(tmp_path, engines, mode):
    log = tmp_path / "engine.log"
    game = Session(new_game("kulami"), seats=PEOPLE_FIRST, seed=1, physical=False,
                   thinker=engines({"kulami": standin(log, mode)}))
    play_moves(game, 2)
    before = [str(m) for m in game.board.move_stack]
    game.undo()  # the engine's reply and the person's move
    assert [str(m) for m in game.board.move_stack] == before[:2]
    other = [str(m) for m in game.board.legal_moves][1]
    game.confirm(other)
    game.poll()
    told = received(log)
    tail = told[told.index("genmove w", told.index("genmove w") + 1) + 1:]
    if mode == "good":
        assert tail == ["undo", "undo", f"play b {other}", "genmove w"]
    else:  # undo refused: the game is replayed from a clear board
        assert tail == ["undo", "clear_board", *(f"play {c} {m}" for c, m in
                                                 zip("bw", before[:2])),
                        f"play b {other}", "genmove w"]
    assert "stopped" not in game.status().message and len(pids(log)) == 1
    assert len(game.board.move_stack) == 4


def test_a_resumed_game_is_replayed_to_the_program(tmp_path, engines):
    log = tmp_path / "engine.log"
    store = RecordStore(tmp_path / "games")
    board = new_game("kulami")
    for _ in range(3):
        board.push(next(iter(board.legal_moves)))
    store.start(board)
    store.save(board)
    moves = [board.move_text(m) for m in board.move_stack]
    game = Session.resume_or_start(RecordStore(tmp_path / "games"), "kulami", {},
                                   seats=PEOPLE_FIRST, seed=1,
                                   thinker=engines({"kulami": standin(log)}))
    assert game.resumed and game.pending == first_longest(_after(moves))
    assert received(log)[1:] == ["clear_board", *(f"play {c} {m}" for c, m in
                                                  zip("bwb", moves)), "genmove w"]


def test_a_hint_is_the_programs_and_taken_back_there_when_not_played(tmp_path, engines):
    log = tmp_path / "engine.log"
    game = Session(new_game("kulami"), seats=PEOPLE_FIRST, seed=1, physical=False,
                   thinker=engines({"kulami": standin(log)}))
    game.hint()
    suggestion = first_longest(new_game("kulami"))
    assert game.suggestion == suggestion
    assert game.status().message == texts.hint(str(suggestion))
    assert received(log)[1:] == ["clear_board", "genmove b"]
    # The person plays another move: the hint is taken back in the program.
    game.confirm("b2")
    game.poll()
    assert received(log)[3:] == ["undo", "play b b2", "genmove w"]
    assert game.board.move_stack[-1] == first_longest(_after(["b2"]))
    # A hint the person follows needs nothing taken back.
    game.hint()
    hinted = game.suggestion
    game.confirm(str(hinted))
    game.poll()
    assert received(log)[6:] == ["genmove b", "genmove w"]


def test_pentobis_way_of_writing_a_piece_reads_as_our_move(tmp_path, engines):
    """The stand-in writes a Blokus Duo piece's squares in reverse order, as Pentobi may
    write them in an order of its own: the move is ours all the same."""
    log = tmp_path / "engine.log"
    game = Session(new_game("blokus-duo"), seats={"b": "engine", "w": "person"}, seed=1,
                   physical=False, thinker=engines({"blokus-duo": standin(log, game="blokus-duo")}))
    game.poll()
    expected = first_longest(new_game("blokus-duo"))
    assert "," in str(expected) and game.board.move_stack == [expected]
    assert received(log)[1:] == ["clear_board", "genmove b"]


def test_our_own_gtp_server_serves_as_an_outside_engine(tmp_path, engines):
    command = EngineCommand((sys.executable, "-m", "app.cli", "gtp", "kulami", "level=1",
                             "seed=3"), 30.0)
    game = Session(new_game("kulami"), seats=PEOPLE_FIRST, seed=1, physical=False,
                   thinker=engines({"kulami": command}))
    play_moves(game, 3)
    assert len(game.board.move_stack) == 6 and game.message_kind != "error"


# --- closing --------------------------------------------------------------------------

def test_closing_ends_the_program_and_later_questions_are_ours(tmp_path, engines):
    log = tmp_path / "engine.log"
    thinker = engines({"kulami": standin(log)})
    game = Session(new_game("kulami"), seats=PEOPLE_FIRST, seed=1, physical=False,
                   thinker=thinker)
    play_moves(game, 1)
    (pid,) = pids(log)
    thinker.close()
    assert gone(pid) and received(log)[-1] == "quit"
    play_moves(game, 1)
    assert len(pids(log)) == 1 and len(game.board.move_stack) == 4


def test_closing_while_the_program_thinks_kills_it_and_says_nothing(tmp_path, engines):
    log = tmp_path / "engine.log"
    thinker = engines({"kulami": standin(log, "hang", timeout=30.0)}, Thinker())
    game = Session(new_game("kulami"), seats=PEOPLE_FIRST, seed=1, thinker=thinker)
    Board(game, 8, 8).place("a1")
    assert wait_for(lambda: "genmove w" in received(log))
    thought = game.thought
    started = time.monotonic()
    thinker.close()
    assert thought.wait(5) and thought.move is None
    assert time.monotonic() - started < 2 and gone(pids(log)[0])
    game.poll()
    assert "stopped" not in game.status().message and game.pending is None


def test_the_assembly_seats_the_configured_engine_and_closes_it(tmp_path):
    log = tmp_path / "engine.log"
    assembly = Assembly(None, settings={"seats": PEOPLE_FIRST, "seed": 1},
                        thinker=InlineThinker(), engines={"kulami": standin(log)})
    try:
        game = assembly.session("kulami", {}, physical=False)
        assert isinstance(game.thinker, OutsideEngines)
        assert isinstance(game.thinker.fallback, InlineThinker)
        play_moves(game, 1)
        (pid,) = pids(log)
        # A game the configuration names no engine for is our own engine's.
        other = assembly.session("conhex", {}, physical=False)
        play_moves(other, 1)
        assert len(pids(log)) == 1 and len(other.board.move_stack) == 2
    finally:
        assembly.close()
    assert gone(pid)
    assert Assembly(None).thinker is None


# --- the configuration -------------------------------------------------------------------

def config(tmp_path, text):
    path = tmp_path / "tabletop.toml"
    path.write_text(text, encoding="utf-8")
    return load_config(path)


def test_the_configuration_names_an_engine_per_game(tmp_path):
    loaded = config(tmp_path, '[engines]\ntimeout_s = 30\n'
                              'blokus-duo = "pentobi-gtp --game duo --level 5 --quiet --nobook"\n'
                              '[engines.kulami]\ncommand = "\'/opt/my engine/run\' -v"\n'
                              'timeout_s = 2.5\n')
    assert loaded.engines == {
        "blokus-duo": EngineCommand(("pentobi-gtp", "--game", "duo", "--level", "5",
                                     "--quiet", "--nobook"), 30.0),
        "kulami": EngineCommand(("/opt/my engine/run", "-v"), 2.5)}
    assert loaded.engines["blokus-duo"].program == "pentobi-gtp"
    assert config(tmp_path, '[engines]\nakron = "x"\n').engines["akron"].timeout_s \
        == DEFAULT_TIMEOUT_S
    assert config(tmp_path, "").engines == {}


@pytest.mark.parametrize("text, message", [
    ('[engines]\nchess = "gnuchess"', "engines.chess: unknown key (known: kulami, conhex, "
                                      "blokus-duo, akron, timeout_s)"),
    ('[engines]\nkulami = ""', "engines.kulami: must be a command line that names a "
                               "program, not ''"),
    ('[engines]\nkulami = "  "', "engines.kulami: must be a command line that names a "
                                 "program"),
    ('[engines]\nkulami = "run \'me"', "engines.kulami: must be a command line that names "
                                       "a program, not \"run 'me\" (No closing quotation)"),
    ('[engines]\nkulami = 5', "engines.kulami: must be a command line in quotes, not 5"),
    ('[engines]\ntimeout_s = 0', "engines.timeout_s: must be a number of seconds above 0 "
                                 "and at most 3600, not 0"),
    ('[engines]\ntimeout_s = "60"', "engines.timeout_s: must be a number of seconds"),
    ('[engines.kulami]\ntimeout_s = 5', "engines.kulami.command: missing"),
    ('[engines.kulami]\ncommand = "x"\nlevel = 5', "engines.kulami.level: unknown key "
                                                   "(known: command, timeout_s)"),
    ('[engines.kulami]\ncommand = "x"\ntimeout_s = true', "engines.kulami.timeout_s: must "
                                                          "be a number"),
    ('engines = "pentobi-gtp"', "engines: must be a table"),
])
def test_a_bad_engine_entry_is_one_line_naming_the_key(tmp_path, text, message):
    with pytest.raises(ConfigError) as error:
        config(tmp_path, text)
    assert message in str(error.value) and "\n" not in str(error.value)
    assert str(tmp_path / "tabletop.toml") in str(error.value)


def test_the_example_configuration_shows_an_engine_entry_commented_out(tmp_path):
    text = EXAMPLE.read_text(encoding="utf-8")
    assert "[engines]" in text and "# blokus-duo = \"pentobi-gtp" in text
    assert load_config(EXAMPLE).engines == {}
    lines = [line.removeprefix("# ") if line.startswith(("# blokus-duo", "# timeout_s"))
             else line for line in text.splitlines()]
    uncommented = config(tmp_path, "\n".join(lines).replace("[buttons]\nconfirm = 27", ""))
    assert uncommented.engines["blokus-duo"].program == "pentobi-gtp"
