"""The GTP front end, through the engine object and through ``tabletop gtp``."""

import os
from pathlib import Path
import subprocess
import sys

import pytest

from app.games import GAMES, game
from engines.conhex.board import ConHexBoard
from engines.core import EngineError
from engines.gtp import GtpEngine
from engines.kulami.board import KulamiBoard
from engines.kulami.layout import random_layout

SESSION = "all_legal b\nplay b d4\nall_legal w\nfinal_score\nquit\n"


def run_gtp(*args, stdin):
    result = subprocess.run([sys.executable, "-m", "app.cli", "gtp", *args], input=stdin,
                            capture_output=True, text=True, timeout=60)
    return result


def answers(text):
    return [block for block in text.split("\n\n") if block]


def test_the_issue_session_answers_in_gtp_form():
    result = run_gtp("kulami", stdin=SESSION)
    assert result.returncode == 0 and result.stderr == ""
    replies = answers(result.stdout)
    assert len(replies) == 5 and all(r.startswith("=") for r in replies)
    assert len(replies[0].split("\n")) == 64
    assert replies[1] == "= "
    assert sorted(replies[2][2:].split("\n")) == ["a4", "b4", "c4", "d1", "d2", "d6", "d7",
                                                   "d8", "f4", "g4", "h4"]
    assert replies[3] == "= B+6"  # d4 gives red the majority of its 2x3 panel j


def reference_legal(layout, played):
    """The move rule read straight off the sheet, for checking the engine."""
    if not played:
        return set(layout.panel_of)
    x, y = played[-1]
    banned = {layout.panel_of[f] for f in played[-2:]}
    return {f for f in layout.panel_of if (f[0] == x or f[1] == y)
            and f not in played and layout.panel_of[f] not in banned}


@pytest.mark.parametrize("seed, square", [(3, True), (11, False), (29, False)])
def test_on_any_layout_all_legal_is_right_at_every_step(seed, square):
    layout = random_layout(seed, square=square)
    engine = GtpEngine(KulamiBoard, layout=layout.text())
    played = []
    while True:
        colour = "bw"[len(played) % 2]
        reply = engine.handle(f"all_legal {colour}")[2:].strip()
        fields = set(reply.split("\n")) - {""}
        names = {f"{'abcdefghij'[x]}{y + 1}": (x, y) for x, y in layout.panel_of}
        assert {names[f] for f in fields} == reference_legal(layout, played)
        if not fields or len(played) == 56:
            break
        field = sorted(fields)[len(played) % len(fields)]
        assert engine.handle(f"play {colour} {field}") == "= \n\n"
        played.append(names[field])


def test_administrative_commands():
    engine = GtpEngine(KulamiBoard)
    assert engine.handle("protocol_version") == "= 2\n\n"
    assert engine.handle("name") == "= Tabletop\n\n"
    assert engine.handle("7 known_command genmove") == "=7 true\n\n"
    assert engine.handle("known_command fly") == "= false\n\n"
    listed = engine.handle("list_commands")[2:].split()
    for command in ("all_legal", "final_score", "layout", "undo", "showboard", "clear_board"):
        assert command in listed
    assert engine.handle("# a comment") is None and engine.handle("   ") is None


def test_the_games_own_commands_are_known_and_listed():
    engine = GtpEngine(KulamiBoard)
    assert engine.handle("known_command layout") == "= true\n\n"
    assert "layout" in engine.handle("list_commands")[2:].split()
    assert GtpEngine(ConHexBoard).handle("known_command layout") == "= false\n\n"
    assert GtpEngine(ConHexBoard).handle("layout") == "? unknown command\n\n"


@pytest.mark.parametrize("name", GAMES)
def test_known_command_is_true_for_every_listed_command_and_false_for_other_games(name):
    cls = game(name).board_class
    engine = GtpEngine(cls)
    listed = engine.handle("list_commands")[2:-2].split("\n")
    assert set(cls.gtp_commands) <= set(listed)
    for command in listed:
        assert engine.handle(f"known_command {command}") == "= true\n\n", command
        assert engine.handle(f"5 known_command {command.upper()}") == "=5 true\n\n"
    others = {c for other in GAMES.values() for c in other.board_class.gtp_commands} - set(
        listed)
    assert name != "conhex" or "layout" in others
    for command in others:
        assert engine.handle(f"known_command {command}") == "= false\n\n", command
        assert engine.handle(command) == "? unknown command\n\n"
    # The engine's own methods are not commands, and neither is nothing.
    for line in ("known_command cmd_play", "known_command handle", "known_command"):
        assert engine.handle(line) == "= false\n\n"


@pytest.mark.parametrize("options, message", [
    ({"level": "x"}, "level must be 1, 2, 3, 4 or max, not 'x'"),
    ({"level": "5"}, "level must be 1, 2, 3, 4 or max, not '5'"),
    ({"level": 2.0}, "level must be 1, 2, 3, 4 or max, not 2.0"),
    ({"level": "maximum"}, "level must be 1, 2, 3, 4 or max, not 'maximum'"),
    ({"seed": "x"}, "seed must be a whole number, not 'x'"),
    ({"seed": "1.5"}, "seed must be a whole number, not '1.5'"),
])
def test_bad_player_options_are_one_line_engine_errors(options, message):
    with pytest.raises(EngineError) as error:
        GtpEngine(KulamiBoard, **options)
    assert str(error.value) == message


def test_player_options_from_the_command_line_are_checked():
    result = run_gtp("kulami", "seed=x", stdin="")
    assert result.returncode == 2
    assert result.stderr.strip() == "tabletop gtp: seed must be a whole number, not 'x'"
    assert GtpEngine(KulamiBoard, level="2", seed="7").level == 2


def test_the_default_level_is_the_one_the_readme_marks_for_gtp_too(tmp_path):
    """The README's table of levels marks level 2 the default, GTP included; GTP's was 1
    (random). Through the command line too: the record names the level that played."""
    from engines.players import DEFAULT_LEVEL, GREEDY
    assert DEFAULT_LEVEL == GREEDY == 2
    assert GtpEngine(KulamiBoard).level == 2
    assert GtpEngine(KulamiBoard, seed="1").level == 2
    path = tmp_path / "game.sgf"
    result = run_gtp("conhex", stdin=f"genmove b\nsavesgf {path}\nquit\n")
    assert result.returncode == 0 and "?" not in result.stdout, result
    assert "PB[Tabletop (level 2)]" in path.read_text(encoding="utf-8")



def test_tabletop_gtp_takes_the_engine_s_part_of_the_configuration(tmp_path):
    """``--config``: the level and seed of ``[game]`` and the game's ``[options]``, under
    the key=value words given; a mistake in the file is its own one line."""
    config = tmp_path / "tabletop.toml"
    config.write_text('[game]\nlevel = 1\nseed = 5\n\n[options.kulami]\nlayout = "cross"\n')
    session = "param\nshowboard\nquit\n"
    result = run_gtp("kulami", "--config", str(config), stdin=session)
    assert result.returncode == 0 and result.stderr == "", result
    assert "level 1\n" in result.stdout and "seed 5\n" in result.stdout
    cross = run_gtp("kulami", "layout=cross", stdin="showboard\nquit\n").stdout
    assert answers(cross)[0] in answers(result.stdout)
    typed = run_gtp("kulami", "level=3", "layout=square-1", "--config", str(config),
                    stdin=session)
    assert "level 3\n" in typed.stdout and "seed 5\n" in typed.stdout
    assert answers(cross)[0] not in answers(typed.stdout)
    config.write_text("[game]\nlevel = 9\n")
    bad = run_gtp("kulami", "--config", str(config), stdin="quit\n")
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr == (f"tabletop gtp: {config}: game.level: must be 1, 2, 3, 4 or "
                          f"\"max\", not 9\n")


def test_tabletop_gtp_help_describes_every_argument_with_its_default():
    result = subprocess.run([sys.executable, "-m", "app.cli", "gtp", "--help"],
                            capture_output=True, text=True, timeout=60)
    text = " ".join(result.stdout.split())
    assert result.returncode == 0
    assert "--config CONFIG configuration file (default: /etc/tabletop/tabletop.toml if " \
           "it exists): its [game] level and seed and the game's [options]" in text
    assert "default: the configuration's, else 2" in text
    assert "the game: kulami, conhex, blokus-duo, akron" in text

def test_genmove_undo_clear_and_showboard():
    engine = GtpEngine(KulamiBoard, seed="1", level="2")
    move = engine.handle("genmove b")[2:].strip()
    assert engine.board.move_stack and str(engine.board.last_move) == move
    assert "X" in engine.handle("showboard")
    assert engine.handle("undo") == "= \n\n" and not engine.board.move_stack
    assert engine.handle("undo").startswith("? no move to take back")
    engine.handle("play b d4")
    assert engine.handle("clear_board") == "= \n\n" and not engine.board.move_stack


def test_the_layout_option_and_command():
    layout = random_layout(5, square=False).text()
    engine = GtpEngine(KulamiBoard, layout=layout)
    assert engine.handle("layout") == f"= {layout}\n\n"
    engine.handle("play b " + engine.board.holes[0])
    assert engine.handle("layout square-2") == "= \n\n"
    assert engine.board.move_stack == [] and engine.handle("layout")[2:].startswith("aabbccdd")
    assert engine.handle("layout zz/zz").startswith("? layout has 0 panels")


@pytest.mark.parametrize("line, error", [
    ("fly", "? unknown command"),
    ("3 fly", "?3 unknown command"),
    ("play b", "? play wants a colour and a move"),
    ("play green d4", "? unknown colour 'green'"),
    ("play w d4", "? it is b's turn, not w's"),
    ("play b z99", "? 'z99' is not a field"),
    ("genmove", "? genmove wants a colour"),
    ("all_legal", "? all_legal wants a colour"),
])
def test_bad_commands_answer_with_a_message_never_a_traceback(line, error):
    engine = GtpEngine(KulamiBoard)
    reply = engine.handle(line)
    assert reply.startswith(error) and reply.endswith("\n\n") and reply.count("\n") == 2


def test_a_finished_game_refuses_play_and_genmove_passes():
    engine = GtpEngine(KulamiBoard, seed="4")
    while not engine.board.is_game_over():
        engine.handle(f"genmove {engine.board.turn}")
    assert engine.handle("genmove b") == "= pass\n\n"
    assert engine.handle("play b a1") .startswith("? ")
    assert engine.handle("final_score") == f"= {engine.board.outcome().result()}\n\n"


def run_gtp_bytes(*args, stdin: bytes, locale: str):
    env = {**os.environ, "LC_ALL": locale}
    env.pop("PYTHONIOENCODING", None)
    return subprocess.run([sys.executable, "-m", "app.cli", "gtp", *args], input=stdin,
                          capture_output=True, env=env, timeout=60)


@pytest.mark.parametrize("locale", ["C.UTF-8", "C"])
def test_bad_bytes_are_answered_and_the_engine_lives_on(locale):
    """The issue's case: under a UTF-8 locale one byte that is not UTF-8 killed the
    engine and a GUI driving it lost the game."""
    session = (b"1 name\n"
               b"\xff\n"                       # line noise: no id to answer with
               b"2 play b d\xe9\n"             # a Latin-1 move: answered with its id
               b"play b d4 # caf\xe9\n"        # a Latin-1 comment is only a comment
               b"\x01\x02\x7f\x1b\r\n"          # control characters only: no answer
               b"\xc2\x85\t\n"                 # NEL (a C1 control) and a tab: no answer
               b"\xc2\xb2 name\n"              # a superscript two is not an id
               b"\xd9\xa3 name\n"              # neither is an Arabic-Indic three
               b"3 all_legal w\r\n"
               b"4 quit\n")
    result = run_gtp_bytes("kulami", stdin=session, locale=locale)
    assert result.returncode == 0 and result.stderr == b""
    replies = result.stdout.decode("utf-8").split("\n\n")
    assert replies[-1] == ""
    assert replies[:6] == ["=1 Tabletop", "? invalid UTF-8", "?2 invalid UTF-8", "= ",
                           "? unknown command", "? unknown command"]
    assert replies[6].startswith("=3 ") and "d4" not in replies[6] and "a4" in replies[6]
    assert replies[7:] == ["=4 ", ""]


@pytest.mark.parametrize("line", ["\x7f", "\x00\x1b\x07", "\u0085", "\t \t", "# \x01", b"\x00",
                                  b"# \xff\xfe", b"\r"])
def test_lines_of_control_characters_and_comments_get_no_answer(line):
    assert GtpEngine(KulamiBoard).handle(line) is None


@pytest.mark.parametrize("line, answer", [
    ("\u00b2 name", "? unknown command"),
    ("\u0663 name", "? unknown command"),
    ("\uff11 name", "? unknown command"),  # a fullwidth one
    ("12 name", "=12 Tabletop"),
    ("007", "?007 missing command"),
    (b"8 \xc3", "?8 invalid UTF-8"),
    (b"\xc3\xa9 name", "? unknown command"),
])
def test_ids_are_ascii_digits(line, answer):
    assert GtpEngine(KulamiBoard).handle(line) == answer + "\n\n"


def test_bad_start_options_are_clear():
    result = run_gtp("chess", stdin="")
    assert result.returncode == 2
    assert result.stderr.startswith("tabletop gtp: unknown game 'chess' (known: kulami, conhex")
    result = run_gtp("kulami", "layout=zz/zz", stdin="")
    assert result.returncode == 2
    assert result.stderr.strip() == "tabletop gtp: layout has 0 panels of 2x3; the set has 4"
    result = run_gtp("kulami", "oops", stdin="")
    assert result.returncode != 0 and "expected key=value" in result.stderr


# --- loadsgf and savesgf ----------------------------------------------------------------

def ok(engine, line):
    reply = engine.handle(line)
    assert reply.startswith("=") and reply.endswith("\n\n"), (line, reply)
    return reply[1:].strip()


def refused(engine, line):
    reply = engine.handle(line)
    assert reply.startswith("? ") and reply.endswith("\n\n") and reply.count("\n") == 2, \
        (line, reply)
    return reply[2:].strip()


#: Options none of which is its game's default, so that a record must carry them.
OTHER_OPTIONS = {"kulami": {"layout": "cross", "scoring": "2", "chain_lines": "diagonal"},
                 "conhex": {"pie": "false", "handicap": "2"},
                 "blokus-duo": {"start": "fixed"}, "akron": {}}  # Akron has no options


@pytest.mark.parametrize("name", sorted(GAMES))
def test_savesgf_and_loadsgf_carry_a_game_with_its_options_and_players(name, tmp_path):
    cls = game(name).board_class
    engine = GtpEngine(cls, seed="2", level="2", **OTHER_OPTIONS[name])
    for _ in range(7):
        ok(engine, f"genmove {engine.board.turn}")
    path = tmp_path / "game.sgf"
    assert ok(engine, f"savesgf {path}") == ""
    text = path.read_text(encoding="utf-8")
    assert "PB[Tabletop (level 2)]" in text and "PW[Tabletop (level 2)]" in text
    assert cls.from_record(text).move_stack == engine.board.move_stack
    again = GtpEngine(cls)
    assert ok(again, f"loadsgf {path}") == ""
    assert again.board.move_stack == engine.board.move_stack
    assert dict(again.board.options) == dict(engine.board.options)
    assert (dict(engine.board.options) != dict(cls.new().options)) == bool(OTHER_OPTIONS[name])
    assert again.players == engine.players
    assert ok(again, "showboard") == ok(engine, "showboard")
    assert ok(again, "final_score") == ok(engine, "final_score")
    # clear_board keeps the loaded options for the next game
    ok(again, "clear_board")
    assert again.board.move_stack == [] and dict(again.board.options) == dict(
        engine.board.options)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_loadsgf_with_a_move_number_loads_the_position_before_that_move(name, tmp_path):
    cls = game(name).board_class
    engine = GtpEngine(cls, seed="3")
    for _ in range(6):
        ok(engine, f"genmove {engine.board.turn}")
    path = tmp_path / "game.sgf"
    ok(engine, f"savesgf {path}")
    moves = engine.board.move_stack
    for number, expected in [(1, []), (2, moves[:1]), (4, moves[:3]), (7, moves),
                             (99, moves)]:
        again = GtpEngine(cls)
        ok(again, f"loadsgf {path} {number}")
        assert again.board.move_stack == expected, number
    for bad in ("0", "-1", "x", "2.5", "\u0663"):
        assert refused(engine, f"loadsgf {path} {bad}").startswith(
            "the move number must be a whole number from 1")
    assert refused(engine, "loadsgf").startswith("loadsgf wants a file name")
    assert refused(engine, f"loadsgf {path} 1 2").startswith("loadsgf wants a file name")
    assert refused(engine, "savesgf").startswith("savesgf wants a file name")


def test_unreadable_files_are_one_line_and_leave_the_game_alone(tmp_path):
    engine = GtpEngine(KulamiBoard)
    ok(engine, "play b d4")
    conhex = tmp_path / "conhex.sgf"
    conhex.write_text("(;FF[CONHEX]VA[CONHEX];B[F6])")
    (tmp_path / "latin1.sgf").write_bytes(b"(;GM[Kulami]C[caf\xe9])")
    (tmp_path / "broken.sgf").write_text("(;GM[Kulami]LY[square-1];B[d4]")
    (tmp_path / "illegal.sgf").write_text("(;GM[Kulami]LY[square-1];B[d4];W[e4])")
    (tmp_path / "huge.sgf").write_bytes(b" " * (2 << 20))
    (tmp_path / "folder").mkdir()
    cases = {
        "missing.sgf": "No such file or directory",
        "folder": "Is a directory",
        "latin1.sgf": "not UTF-8 text: byte 0xe9 at offset 17",
        "broken.sgf": "SGF: the record ends early",
        "illegal.sgf": "move 2 (W[e4]): e4 is on an off-limits panel",
        "huge.sgf": "larger than 1 MB",
        "conhex.sgf": "not a Kulami record",
    }
    for name, why in cases.items():
        path = tmp_path / name
        message = refused(engine, f"loadsgf {path}")
        assert message.startswith(f"cannot load file {path}: ") and why in message, message
    assert [str(m) for m in engine.board.move_stack] == ["d4"]
    assert refused(engine, f"savesgf {tmp_path}/no/such/folder/x.sgf") == \
        f"cannot save file {tmp_path}/no/such/folder/x.sgf: No such file or directory"
    assert refused(engine, f"savesgf {tmp_path}") == \
        f"cannot save file {tmp_path}: Is a directory"


def test_a_player_resigns_with_play_resign_and_the_record_keeps_it(tmp_path):
    engine = GtpEngine(KulamiBoard)
    ok(engine, "play b d4")
    assert refused(engine, "play b resign") == ("it is w's turn, not b's: only the player to "
                                                 "move resigns")
    ok(engine, "play w resign")
    assert ok(engine, "final_score") == "B+R"
    assert refused(engine, "play w d7") == "the game is over (w resigned)"
    assert ok(engine, "genmove w") == "pass" and ok(engine, "all_legal w") == ""
    assert "w resigned: b wins" in ok(engine, "showboard")
    path = tmp_path / "resigned.sgf"
    ok(engine, f"savesgf {path}")
    text = path.read_text()
    assert "RE[B+R]" in text and text.endswith(";B[d4]\n;W[resign])\n")
    again = GtpEngine(KulamiBoard)
    ok(again, f"loadsgf {path}")
    assert ok(again, "final_score") == "B+R" and again.resigned == "w"
    assert refused(again, "play w d7") == "the game is over (w resigned)"
    # the position before the resignation is the game still going
    ok(again, f"loadsgf {path} 2")
    assert again.resigned is None and ok(again, "final_score") == "B+6"
    # undo takes back the resignation first, then moves
    ok(engine, "undo")
    assert engine.resigned is None and ok(engine, "final_score") == "B+6"
    ok(engine, "play w d7")
    ok(engine, "play b resign")
    ok(engine, "clear_board")
    assert engine.resigned is None and ok(engine, "final_score") == "0"


def test_tabletop_gtp_loads_a_little_golem_record_and_saves_it_back(tmp_path):
    source = Path(__file__).parent / "data" / "conhex" / "won-by-w.sgf"
    saved = tmp_path / "again.sgf"
    session = (f"loadsgf {source}\nfinal_score\nloadsgf {source} 3\nfinal_score\n"
               f"loadsgf {tmp_path}/missing.sgf\nloadsgf {source}\nsavesgf {saved}\nquit\n")
    result = run_gtp("conhex", stdin=session)
    assert result.returncode == 0 and result.stderr == ""
    replies = answers(result.stdout)
    assert replies[:4] == ["= ", "= W+", "= ", "= 0"]
    assert replies[4] == f"? cannot load file {tmp_path}/missing.sgf: No such file or directory"
    assert replies[5:] == ["= ", "= ", "= "]
    assert ConHexBoard.from_record(saved.read_text()).move_stack == \
        ConHexBoard.from_record(source.read_text()).move_stack
    assert "PB[Ana]PW[Radu]RE[W+]" in saved.read_text()
