"""GTP as the specification and the programs that read it strictly want it: the answer's
exact form, either colour for ``genmove`` and ``play``, Pentobi's ``reg_genmove``, GoGui's
``param`` and rules commands, and ``tabletop gtp --version``.

The strict reader here is written from the GTP 2 specification, not from our engine: an
answer starts with ``=`` or ``?``, the command's id if it had one, then one space, the
text, and ends with exactly one blank line; nothing may come between answers.
"""

import os
import random
import re
import select
import subprocess
import sys
import time

import pytest

from app.games import GAMES, game
from engines.akron.board import AkronBoard
from engines.blokus_duo.board import BlokusDuoBoard
from engines.conhex.board import ConHexBoard
from engines.core import PASS
from engines.errors import EngineError
from engines.gtp import GtpEngine, answer, from_gogui, to_gogui, version
from engines.kulami.board import KulamiBoard

#: The first line of an answer: the mark, the id, one space, the text's first line.
FIRST_LINE = re.compile(r"([=?])(\d*) (.*)")


class StrictGtp:
    """A controller that reads ``tabletop gtp`` as a strict one does: it sends a command,
    reads exactly one answer line by line and refuses any byte out of place."""

    def __init__(self, *args):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "gtp", *args], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
        self.pending = b""

    def _line(self, deadline: float) -> str:
        while b"\n" not in self.pending:
            ready, _, _ = select.select([self.process.stdout], [], [],
                                        max(0.0, deadline - time.monotonic()))
            assert ready, f"no answer in time; read so far: {self.pending!r}"
            data = os.read(self.process.stdout.fileno(), 65536)
            assert data, f"the engine closed its output mid-answer: {self.pending!r}"
            self.pending += data
        line, self.pending = self.pending.split(b"\n", 1)
        assert not line.endswith(b"\r"), "a line ends with a carriage return"
        return line.decode("utf-8")

    def send(self, command: str, ident: str = "", seconds: float = 60):
        """Send ``command`` (with ``ident`` in front when given); returns (success, text)."""
        assert self.pending == b"", f"stray output before {command!r}: {self.pending!r}"
        self.process.stdin.write(f"{ident} {command}\n".lstrip().encode("utf-8"))
        self.process.stdin.flush()
        deadline = time.monotonic() + seconds
        first = FIRST_LINE.fullmatch(self._line(deadline))
        assert first, f"{command!r}: the answer does not start with '=' or '?', an id and a space"
        mark, echoed, text = first.groups()
        assert echoed == ident, f"{command!r}: id {ident!r} answered as {echoed!r}"
        lines = [text]
        while (line := self._line(deadline)) != "":
            lines.append(line)
        return mark == "=", "\n".join(lines)

    def ok(self, command: str, ident: str = "") -> str:
        success, text = self.send(command, ident)
        assert success, f"{command!r} refused: {text}"
        return text

    def refused(self, command: str, ident: str = "") -> str:
        success, text = self.send(command, ident)
        assert not success, f"{command!r} accepted: {text}"
        assert text and "\n" not in text and "Traceback" not in text
        return text

    def close(self) -> None:
        """``quit``, then nothing more: the output ends, stderr is empty, status 0."""
        self.ok("quit")
        rest, errors = self.process.communicate(timeout=30)
        assert self.pending + rest == b"", f"stray output after quit: {rest!r}"
        assert errors == b"" and self.process.returncode == 0, errors


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_answers_a_strict_reader_to_the_byte(name):
    gtp = StrictGtp(name, "seed=4", "level=1")
    try:
        assert gtp.ok("protocol_version", "1") == "2"
        assert gtp.ok("name") == "Tabletop" and gtp.ok("version") == version()
        assert gtp.ok("known_command genmove", "22") == "true"
        commands = gtp.ok("list_commands").split("\n")
        assert {"reg_genmove", "param", "play", "genmove", "undo"} <= set(commands)
        assert gtp.ok("clear_board", "3") == ""  # "=3 " and a blank line
        assert gtp.refused("fly", "4") == "unknown command"
        assert gtp.refused("play b nowhere")
        first = gtp.ok("reg_genmove b", "5")
        assert gtp.ok("genmove b") == first  # reg_genmove played nothing and took no luck
        legal = gtp.ok("all_legal w").split("\n")
        assert gtp.ok(f"play w {legal[0]}", "6") == ""
        gtp.ok("genmove b")
        assert gtp.ok("showboard", "7").startswith("\n")  # the board on lines of its own
        assert gtp.ok("final_score")
        assert gtp.ok("param").startswith("[list/1/2/3/max] level 1")
        assert gtp.ok("param level 2", "8") == ""
        assert gtp.refused("param speed 3").startswith("unknown parameter 'speed'")
        assert gtp.ok("gogui-analyze_commands") == "param/Engine player/param"
        if "gogui-rules_legal_moves" in commands:
            assert gtp.ok("gogui-rules_game_id") == game(name).board_class.game.capitalize()
            assert gtp.ok("gogui-rules_side_to_move") == "white"
            assert gtp.ok("gogui-rules_final_result") == "unknown"
            assert gtp.ok("gogui-rules_legal_moves")
            assert len(gtp.ok("gogui-rules_board").split("\n")) == int(
                gtp.ok("gogui-rules_board_size").split()[-1])
        assert gtp.ok("undo", "9") == ""
        assert gtp.ok("undo") == ""
        assert gtp.ok("all_legal w").split("\n")[0] == legal[0]
    finally:
        if gtp.process.poll() is None:
            gtp.close()


def test_the_reader_itself_refuses_a_bare_mark():
    """The strict reader must fail on the form the issue found (``=`` and a blank line)."""
    assert FIRST_LINE.fullmatch("=") is None and FIRST_LINE.fullmatch("?") is None
    assert FIRST_LINE.fullmatch("=5") is None and FIRST_LINE.fullmatch("= ")
    assert FIRST_LINE.fullmatch("=5 ").groups() == ("=", "5", "")


@pytest.mark.parametrize("mark, ident, text, expected", [
    ("=", "", "", "= \n\n"),
    ("?", "", "illegal move", "? illegal move\n\n"),
    ("=", "12", "", "=12 \n\n"),
    ("=", "3", "\nrow 2\n\nrow 1\n", "=3 \nrow 2\nrow 1\n\n"),  # no blank line inside
])
def test_an_answer_has_its_space_and_one_blank_line_at_the_end(mark, ident, text, expected):
    assert answer(mark, ident, text) == expected


def test_tabletop_gtp_version():
    result = subprocess.run([sys.executable, "-m", "app.cli", "gtp", "--version"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stdout == f"tabletop {version()}\n"


# --- either colour ----------------------------------------------------------------------

def ok(engine, line):
    reply = engine.handle(line)
    assert reply.startswith("= ") and reply.endswith("\n\n"), (line, reply)
    return reply[2:-2]


def refused(engine, line):
    reply = engine.handle(line)
    assert reply.startswith("? ") and reply.count("\n") == 2, (line, reply)
    return reply[2:-2]


def test_blokus_duo_plays_for_the_colour_asked_as_pentobi_does(tmp_path):
    engine = GtpEngine(BlokusDuoBoard, seed="2")
    assert engine.board.turn == "b"
    move = ok(engine, "genmove w")  # w's first piece, although b is to move
    assert engine.board.mover(0) == "w" and engine.board.move_text(engine.board.last_move) == move
    assert engine.board.turn == "b"  # then the turn goes on from w's move
    assert refused(engine, f"savesgf {tmp_path / 'game.sgf'}").endswith(
        "move 1 was played while it was b's turn, and a record holds moves in turn only")
    ok(engine, "undo")
    assert not engine.board.move_stack and engine.board.turn == "b"
    ok(engine, "play w j5")  # a move of the colour not to move, by the rules of w
    assert engine.board.sensor_view() == {"j5": "w"} and engine.board.turn == "b"
    assert refused(engine, "play w j6") == "the 1 piece of this colour is already on the board"
    assert engine.board.move_stack == [engine.board.parse_move("j5")]
    ok(engine, "undo")
    assert engine.board.turn == "b"
    ok(engine, "play b e10")
    ok(engine, "savesgf " + str(tmp_path / "in-turn.sgf"))  # moves in turn are a record


def blocked_blokus_game() -> BlokusDuoBoard:
    """A Blokus Duo game still going in which the player not to move cannot place."""
    for seed in range(100):
        board, rng = BlokusDuoBoard(start="fixed"), random.Random(seed)
        while not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
            rival = "w" if board.turn == "b" else "b"
            if not board.is_game_over() and not board.can_place(rival):
                return board
    raise AssertionError("no game of 100 blocked a player")


def test_a_blocked_colour_passes_and_nothing_changes():
    engine = GtpEngine(BlokusDuoBoard)
    engine._new_game(blocked_blokus_game())
    board = engine.board
    blocked = "w" if board.turn == "b" else "b"
    stack, turn = list(board.move_stack), board.turn
    assert ok(engine, f"genmove {blocked}") == "pass"
    assert ok(engine, f"reg_genmove {blocked}") == "pass"
    assert ok(engine, f"play {blocked} pass") == ""  # a controller relaying that pass
    assert board.move_stack == stack and board.turn == turn
    assert refused(engine, f"play {blocked} a1") == f"{blocked} has no legal move"
    assert ok(engine, f"genmove {turn}") != "pass"


def test_akron_passes_for_a_player_to_move_who_has_no_legal_action():
    engine = GtpEngine(AkronBoard, seed="1")
    engine._new_game(AkronBoard.from_balls({}, turn="b", supply={"b": 0, "w": 5}))
    move = ok(engine, "genmove w")  # b can do nothing: the rules make it pass first
    assert engine.board.move_stack[0] == PASS and str(engine.board.last_move) == move
    assert engine.board.mover(1) == "w" and engine.board.turn == "b"
    ok(engine, "undo")
    ok(engine, "undo")
    assert engine.board.move_stack == [] and engine.board.turn == "b"
    ok(engine, "play w 1c3")
    assert [str(m) for m in engine.board.move_stack] == ["pass", "1c3"]


def test_akron_hands_the_turn_over_and_undo_gives_it_back():
    engine = GtpEngine(AkronBoard, seed="1")
    ok(engine, "play b 1c3")
    ok(engine, "play b 1e3")  # b again, although w was to move: w's turn is handed over
    assert engine.board.turn == "w" and engine.board.supply("b") == 30
    assert engine.board.supply("w") == 32
    ok(engine, "undo")
    assert engine.board.turn == "w" and engine.board.balls() == {"1c3": "b"}
    assert refused(engine, "play b 1c3") == "1c3 already holds a ball"
    assert engine.board.turn == "w"  # a refused move hands nothing over


@pytest.mark.parametrize("cls, first, other", [(KulamiBoard, "d4", "d7"),
                                               (ConHexBoard, "f6", "e6")])
def test_where_turns_follow_the_move_count_the_colour_not_to_move_passes(cls, first, other):
    """Kulami counts each player's marbles, ConHex its handicap and swap, by the number
    of moves: a move out of turn would corrupt them, so that colour passes instead."""
    engine = GtpEngine(cls, seed="1")
    ok(engine, f"play b {first}")
    assert ok(engine, "genmove b") == "pass" and ok(engine, "reg_genmove b") == "pass"
    assert ok(engine, "play b pass") == ""
    assert refused(engine, f"play b {other}") == "it is w's turn, not b's"
    assert [str(m) for m in engine.board.move_stack] == [first] and engine.board.turn == "w"


def test_reg_genmove_plays_nothing_and_genmove_then_plays_its_move():
    for cls in (KulamiBoard, ConHexBoard, AkronBoard, BlokusDuoBoard):
        engine = GtpEngine(cls, seed="9", level="2")
        for colour in "bwb":
            before = (list(engine.board.move_stack), engine.board.turn)
            planned = ok(engine, f"reg_genmove {colour}")
            assert (list(engine.board.move_stack), engine.board.turn) == before
            assert ok(engine, f"genmove {colour}") == planned, cls.game


# --- param ------------------------------------------------------------------------------

def test_param_lists_and_changes_the_level_and_the_seed():
    engine = GtpEngine(KulamiBoard, level="3", seed="5")
    assert ok(engine, "param") == "[list/1/2/3/max] level 3\n[string] seed 5"
    ok(engine, "param level max")
    assert engine.level == 4 and ok(engine, "param").startswith("[list/1/2/3/max] level max")
    ok(engine, "param level 1")
    ok(engine, "param seed 11")
    moves = [ok(engine, f"genmove {c}") for c in "bwbw"]
    again = GtpEngine(KulamiBoard, level="1", seed="11")
    assert [ok(again, f"genmove {c}") for c in "bwbw"] == moves
    ok(engine, "param seed")  # fresh random choices, as with no seed at all
    assert engine.seed is None and ok(engine, "param").endswith("[string] seed")


@pytest.mark.parametrize("line, message", [
    ("param level 9", "level must be 1, 2, 3, 4 or max, not '9'"),
    ("param level", "param level wants one value: 1, 2, 3, 4 or max"),
    ("param seed x", "seed must be a whole number, not 'x'"),
    ("param seed 1 2", "param seed wants one value: a whole number"),
    ("param coords gogui", "unknown parameter 'coords' (known: level, seed)"),
])
def test_bad_params_are_one_line(line, message):
    engine = GtpEngine(KulamiBoard)
    assert refused(engine, line) == message
    assert engine.level == 2 and engine.seed is None


# --- GoGui ------------------------------------------------------------------------------

def test_gogui_rules_for_kulami():
    engine = GtpEngine(KulamiBoard, layout="square-1")
    assert ok(engine, "gogui-rules_game_id") == "Kulami"
    assert ok(engine, "gogui-rules_board_size") == "8"
    assert ok(engine, "gogui-rules_side_to_move") == "black"
    assert len(ok(engine, "gogui-rules_legal_moves").split()) == 64
    ok(engine, "play b d4")
    assert ok(engine, "gogui-rules_side_to_move") == "white"
    rows = ok(engine, "gogui-rules_board").split("\n")
    assert len(rows) == 8 and rows[4] == ". . . X . . . ." and rows[0] == " ".join("." * 8)
    assert set(ok(engine, "gogui-rules_legal_moves").split()) == set(
        ok(engine, "all_legal w").split("\n"))
    while not engine.board.is_game_over():
        ok(engine, f"genmove {engine.board.turn}")
    assert ok(engine, "gogui-rules_legal_moves") == ""  # GoGui's sign that the game ended
    winner = engine.board.outcome().winner
    result = ok(engine, "gogui-rules_final_result")
    assert result.startswith({"b": "Black wins, B+", "w": "White wins, W+", None: "Draw"}[winner])


def test_gogui_rules_draw_holes_and_gaps_of_a_grid_that_is_not_square():
    engine = GtpEngine(KulamiBoard, layout="random-free:3")
    columns, rows = (int(n) for n in (ok(engine, "gogui-rules_board_size").split() * 2)[:2])
    drawn = [row.split() for row in ok(engine, "gogui-rules_board").split("\n")]
    assert len(drawn) == rows and {len(row) for row in drawn} == {columns}
    holes = {f"{chr(ord('a') + x)}{rows - y}" for y, row in enumerate(drawn)
             for x, mark in enumerate(row) if mark == "."}
    assert holes == set(engine.board.holes) and "?" in {m for row in drawn for m in row}


def test_gogui_coordinates_have_no_column_i():
    board = BlokusDuoBoard.new()  # 14x14 squares: every name below is one of them
    assert [to_gogui(board, n) for n in ("a1", "h8", "i3", "j3", "k11", "swap", "pass")] \
        == ["A1", "H8", "J3", "K3", "L11", "swap", "pass"]
    assert [from_gogui(board, n) for n in ("A1", "h8", "J3", "k3", "L11", "swap")] == [
        "a1", "h8", "i3", "j3", "k11", "swap"]
    with pytest.raises(EngineError, match="'I3' is not a point as GoGui writes them"):
        from_gogui(board, "I3")
    # a point where the board has no hole is left for the board to refuse
    assert from_gogui(board, "P1") == "P1" and from_gogui(ConHexBoard.new(), "H8") == "H8"


def test_a_conhex_session_in_gogui_coordinates():
    engine = GtpEngine(ConHexBoard, coords="gogui", pie="false", seed="3")
    assert ok(engine, "gogui-rules_board_size") == "11"
    assert ok(engine, "gogui-rules_game_id") == "Conhex"
    legal = ok(engine, "gogui-rules_legal_moves").split()
    assert "L11" in legal and "K9" in legal and not any(m.startswith("I") for m in legal)
    ok(engine, "play B J4")  # GoGui's J is the ninth column: our i
    assert engine.board.sensor_view() == {"i4": "b"}
    assert refused(engine, "play w I5").startswith("'I5' is not a point as GoGui writes")
    move = ok(engine, "genmove w")
    assert move == to_gogui(engine.board, str(engine.board.last_move)) and move[0] != "I"
    assert all(m[0] != "I" for m in ok(engine, "all_legal b").split("\n"))


def test_gogui_rules_are_offered_only_where_moves_are_points():
    for cls, offered in ((KulamiBoard, True), (ConHexBoard, True), (AkronBoard, False),
                         (BlokusDuoBoard, False)):
        engine = GtpEngine(cls)
        assert ok(engine, "known_command gogui-rules_legal_moves") == str(offered).lower()
        if not offered:
            assert refused(engine, "gogui-rules_board") == "unknown command"
            with pytest.raises(EngineError, match="coords=gogui is for games whose moves "
                                                  "are points"):
                GtpEngine(cls, coords="gogui")
