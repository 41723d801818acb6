"""Fuzzing three inputs that people and programs hand the table: GTP command lines,
board profiles and sensor logs. Each starts from real input (the command table, the shipped
profiles, a recorded game) and breaks it the way input breaks: stray bytes, a flipped
bit, a line lost or doubled, a value of the wrong type. The answer is always an answer
(GTP) or one line that says what is wrong (files): never a traceback. ``EXAMPLES`` holds
the example counts the issue's closing note reports.
"""

import contextlib
import copy
import json
import os
import random
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from app.cli import main
from app.games import GAMES, game
from app.hardware.profile import PROFILE_DIR, load_profile, shipped_profiles
from app.table.sensorlog import read_log
from app.table.replay import replay
from engines.errors import TabletopError
from engines.gtp import GtpEngine

EXAMPLES = {"gtp": 300, "profile": 200, "log": 120}
ROOT = Path(__file__).resolve().parent.parent

# --- GTP --------------------------------------------------------------------------------

COMMANDS = sorted({command for name in GAMES
                   for command in GtpEngine(game(name).board_class).commands} | {"fly"})
ARGS = ["b", "w", "B", "white", "black", "d4", "a1", "f6", "k11", "j3", "z99", "swap", "pass",
        "PASS", "square-3", "cross", "random:5", "random-free:7", "aab/aab", "zz/zz",
        "play", "1", "0", "-1", "2.5", "1e999", "nan", "\u00b2", "\u0663", "\u00e9", "\u2028",
        "x" * 200]
#: Bytes that are not UTF-8 on their own, and control characters GTP discards.
NOISE = [b"\xff", b"\xfe", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"\x00", b"\x7f", b"\x1b",
         b"\r", b"\t", b"#", b"\xc2\x85", b"\xef\xbb\xbf"]

#: Commands a controller would send, so that sessions get somewhere: moves on the holes
#: of every game (and of every Kulami layout), genmove, takebacks and new layouts.
HOLES = sorted({hole for name in GAMES for hole in game(name).new_board().holes}
               | {f"{c}{r}" for c in "abcdefghij" for r in range(1, 11)})
sensible = st.one_of(
    st.builds("play {} {}".format, st.sampled_from("bw"),
              st.sampled_from(HOLES + ["swap", "pass"])),
    st.builds("genmove {}".format, st.sampled_from("bw")),
    st.sampled_from(["undo", "showboard", "final_score", "clear_board", "list_commands",
                     "all_legal b", "all_legal w", "layout", "layout random-free:3",
                     "layout square-3", "known_command layout", "version", "quit",
                     "savesgf game.sgf", "loadsgf game.sgf", "loadsgf game.sgf 3",
                     "play b resign", "play w resign"]))
anything = st.builds(lambda command, args: " ".join([command, *args]),
                     st.sampled_from(COMMANDS), st.lists(st.sampled_from(ARGS), max_size=3))
clean_lines = st.builds(
    lambda ident, words, gap: (f"{ident} " if ident is not None else "") + gap.join(
        words.split(" ")),
    st.one_of(st.none(), st.integers(0, 10**6)), sensible | anything,
    st.sampled_from([" ", "\t", "  "]))


@st.composite
def command_lines(draw):
    """A command line as bytes, and whether it is clean: from the command table, or the
    same with noise and random bytes spliced in."""
    data = bytearray(draw(clean_lines).encode("utf-8"))
    noisy = draw(st.booleans())
    if noisy:
        for _ in range(draw(st.integers(1, 3))):
            at = draw(st.integers(0, len(data)))
            data[at:at] = draw(st.one_of(st.sampled_from(NOISE), st.binary(max_size=4)))
    return bytes(data), not noisy


def check_answer(answer, line, clean):
    if answer is None:
        assert not clean, line  # every clean line names a command
        return
    assert answer[0] in "=?" and answer.endswith("\n\n"), (line, answer)
    assert "\n\n" not in answer[:-2], (line, answer)  # a blank line ends the answer
    words = line.split()
    if clean and words[0].isdigit():
        assert answer[1:].startswith(words[0].decode()), (line, answer)


@pytest.fixture(scope="module")
def gtp_folder(tmp_path_factory):
    """Where fuzzed sessions run: loadsgf and savesgf name files in the working folder."""
    return tmp_path_factory.mktemp("gtp")


@settings(max_examples=EXAMPLES["gtp"], deadline=None)
@given(name=st.sampled_from(sorted(GAMES)), lines=st.lists(command_lines(), min_size=1,
                                                             max_size=20))
def test_fuzzed_gtp_sessions_always_answer_in_gtp_form(gtp_folder, name, lines):
    engine = GtpEngine(game(name).board_class, seed="1")
    with contextlib.chdir(gtp_folder):
        for line, clean in lines:
            check_answer(engine.handle(line), line, clean)
            if engine.finished:
                break


def test_a_fuzzed_session_through_the_real_command_never_ends_it(tmp_path):
    """One long seeded session through ``tabletop gtp``, bytes in and bytes out: the
    process answers exactly as the engine object does, to the last line."""
    rng = random.Random(11)
    lines = []
    for _ in range(400):
        words = [rng.choice(COMMANDS)] + rng.sample(ARGS, rng.randint(0, 3))
        words = [word for word in words if word != "quit"] or ["name"]
        data = bytearray(" ".join(words).encode("utf-8"))
        for _ in range(rng.randint(0, 2)):
            at = rng.randint(0, len(data))
            data[at:at] = rng.choice(NOISE + [bytes([rng.randrange(256)])])
        lines.append(bytes(data).replace(b"\n", b" ") + b"\n")
    session = b"".join(lines) + b"999 name\n"
    # Each run in a folder of its own, for the files that savesgf writes and loadsgf reads.
    (tmp_path / "process").mkdir()
    (tmp_path / "object").mkdir()
    result = subprocess.run([sys.executable, "-m", "app.cli", "gtp", "kulami", "seed=3"],
                            input=session, capture_output=True, timeout=120,
                            cwd=tmp_path / "process",
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 0 and result.stderr == b""
    engine = GtpEngine(game("kulami").board_class, seed="3")
    with contextlib.chdir(tmp_path / "object"):
        answers = [engine.handle(line + b"\n") for line in session.split(b"\n")[:-1]]
    expected = "".join(answer for answer in answers if answer is not None)
    assert result.stdout.decode("utf-8") == expected
    assert expected.endswith("\n\n=999 Tabletop\n\n") and expected.count("\n\n") > 300


# --- mutating files ---------------------------------------------------------------------

@st.composite
def mutated(draw, original: bytes):
    """``original`` with one to four edits: a byte flipped, bytes inserted or deleted, a
    line deleted, doubled or swapped with the next."""
    data = bytearray(original)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["flip", "insert", "delete", "line"]))
        at = draw(st.integers(0, max(len(data) - 1, 0)))
        if kind == "flip" and data:
            data[at] ^= draw(st.integers(1, 255))
        elif kind == "insert":
            data[at:at] = draw(st.one_of(st.binary(min_size=1, max_size=6),
                                         st.sampled_from(NOISE + [b"\n", b'"', b"[", b"{"])))
        elif kind == "delete":
            del data[at:at + draw(st.integers(1, 12))]
        else:
            lines = bytes(data).split(b"\n")
            i = draw(st.integers(0, len(lines) - 1))
            edit = draw(st.sampled_from(["delete", "double", "swap"]))
            if edit == "delete":
                del lines[i]
            elif edit == "double":
                lines.insert(i, lines[i])
            elif i + 1 < len(lines):
                lines[i], lines[i + 1] = lines[i + 1], lines[i]
            data = bytearray(b"\n".join(lines))
    return bytes(data)


#: Any value TOML or JSON can hold, for a key that expects another: the wrong types the
#: issue found (``1.5``, ``true``, ``[]``, ``inf``) and their neighbours.
scalars = (st.booleans() | st.integers(-2**70, 2**70) | st.floats()
           | st.text(st.characters(exclude_categories=["Cs"]), max_size=6)
           | st.sampled_from(["kulami", "conhex", "a1", "d4", "D18", "matrix", "simulated"]))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.sampled_from(["a", "driver", "x"]), inner,
                                        max_size=2), max_leaves=5)


@st.composite
def retyped(draw, document: dict, keep_none: bool = False):
    """``document`` (one TOML file or one JSON line, parsed) with one to three values
    replaced by another type, deleted, or added under a known or an unknown key."""
    data = copy.deepcopy(document)
    for _ in range(draw(st.integers(1, 3))):
        table = data
        while table and draw(st.booleans()):
            key = draw(st.sampled_from(sorted(table)))
            if not isinstance(table[key], dict):
                break
            table = table[key]
        key = draw(st.sampled_from(sorted(table) + ["extra"]))
        action = draw(st.sampled_from(["retype", "retype", "delete", "item"]))
        if action == "delete":
            table.pop(key, None)
        elif action == "item" and isinstance(table.get(key), list) and table[key]:
            index = draw(st.integers(0, len(table[key]) - 1))
            table[key][index] = draw(values)
        else:
            table[key] = draw(values | st.none()) if keep_none else draw(values)
    return data


def toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if value != value:
            return "nan"
        if abs(value) == float("inf"):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, (int, str)):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + "}"


def toml_text(data: dict) -> bytes:
    """``data`` written as TOML: top-level values, then one section per table."""
    lines = [f"{json.dumps(k)} = {toml_value(v)}" for k, v in data.items()
             if not isinstance(v, dict)]
    for name, table in data.items():
        if isinstance(table, dict):
            lines.append(f"[{json.dumps(name)}]")
            lines += [f"{json.dumps(k)} = {toml_value(v)}" for k, v in table.items()]
    return "\n".join(lines).encode("utf-8")


def one_line(error: TabletopError) -> None:
    text = str(error)
    assert text and "\n" not in text and "\r" not in text, repr(text)


PROFILES = {name: PROFILE_DIR.joinpath(f"{name}.toml").read_bytes()
            for name in shipped_profiles()}


@st.composite
def broken_profiles(draw):
    """A shipped profile with its bytes mutated, or with its values retyped (which
    reaches the checks behind the TOML parser)."""
    original = PROFILES[draw(st.sampled_from(sorted(PROFILES)))]
    if draw(st.booleans()):
        return draw(mutated(original))
    return toml_text(draw(retyped(tomllib.loads(original.decode("utf-8")))))


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz")


@settings(max_examples=EXAMPLES["profile"], deadline=None)
@given(text=broken_profiles())
def test_mutated_profiles_load_or_fail_with_one_line(scratch, text):
    path = scratch / "board.toml"
    path.write_bytes(text)
    try:
        load_profile(path)
    except TabletopError as error:
        one_line(error)


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    """The first 200 lines of a noisy recorded game of each game: long enough to hold
    moves, short enough to replay a hundred times."""
    folder = tmp_path_factory.mktemp("logs")
    recorded = []
    for profile in ("kulami-sim", "conhex-sim"):
        path = folder / f"{profile}.jsonl"
        assert main(["sensors", "record", profile, "--play", "3", "--out", str(path)]) == 0
        recorded.append(b"".join(path.read_bytes().splitlines(keepends=True)[:200]))
    return recorded


@settings(max_examples=EXAMPLES["log"], deadline=None)
@given(data=st.data())
def test_mutated_sensor_logs_replay_or_fail_with_one_line(logs, data):
    """As ``tabletop sensors replay`` reads a log: bytes, line by line, then the replay,
    whose game and options come from the (mutated) header."""
    text = data.draw(st.sampled_from(logs))
    if data.draw(st.booleans()):
        text = data.draw(mutated(text))
    else:  # one line's values retyped: the header's game and options, or a reading's
        lines = text.splitlines()
        at = data.draw(st.sampled_from([0, 1, data.draw(st.integers(0, len(lines) - 1))]))
        lines[at] = json.dumps(data.draw(retyped(json.loads(lines[at]), keep_none=True)),
                               allow_nan=True).encode("utf-8")
        text = b"\n".join(lines)
    try:
        header, readings = read_log(text.splitlines(keepends=True))
        for record in replay(header, readings):
            assert record["event"]
    except TabletopError as error:
        one_line(error)
