"""The ConHex pie swap on a physical board: a colour change for colour sensors, a gem
lifted and put back for colour-blind ones, through the real pipeline and sensor logs."""

import io
import json
import random

import pytest

from app.cli import main
from app.games import new_game
from app.hardware.profile import load_profile
from app.hardware.sensors import SimulatedSensors
from app.sensing.events import Candidates, InSync, Moved, OutOfSync, Seen, Takeback
from app.sensing.inference import Inference
from app.sensing.pipeline import Pipeline
from app.sensing.script import Hand
from app.table.sensorlog import Header, LogWriter, read_log
from app.table.replay import replay
from engines.players import choose_move
from pipeline_driver import drive as drive_pipeline

HOLES = tuple(load_profile("conhex-sim").holes)
FIRST = "f6"  # b's first gem, in the centre


def conhex(*moves, **options):
    board = new_game("conhex", **options)
    for move in moves:
        board.push_text(move)
    return board


def hand(start=1.0):
    return Hand(HOLES, random.Random(7), start=start)


def drive(pipeline, board, touches, **options):
    """The pipeline driven as a session does, without its InSync notes."""
    return [e for e in drive_pipeline(pipeline, board, touches, **options)
            if not isinstance(e, InSync)]


def log_lines(touches, *, colour, options=None):
    """A sensor log of ``touches`` as the simulated board would record them."""
    sensors = SimulatedSensors(HOLES, colour_sensing=colour)
    stream = io.StringIO()
    writer = LogWriter(stream, Header("conhex", options or {}, "conhex-sim", colour),
                       load_profile("conhex-sim"))
    for touch in touches:
        if touch.on:
            sensors.place(touch.hole, touch.colour)
        else:
            sensors.lift(touch.hole)
        writer.scan(touch.t, sensors.read())
    return stream.getvalue().splitlines()


def replayed(touches, *, colour, options=None):
    """Replay records (as ``tabletop sensors replay`` prints them), in_sync and the early
    seen lights left out."""
    header, readings = read_log(log_lines(touches, colour=colour, options=options))
    return [{k: v for k, v in r.items() if k in ("event", "move", "moves", "player")}
            for r in replay(header, readings) if r["event"] not in ("in_sync", "seen")]


def first_gem_then(gesture):
    """b places the first gem; after a pause w acts ``gesture`` on it."""
    h = hand()
    h.place(FIRST, "b")
    h.pause(2.0)
    gesture(h, FIRST)
    return h.readings


def quick_swap(h, hole):
    h.lift(hole)
    h.pause(0.2)
    h.place(hole, "w")


def slow_swap(h, hole):
    h.lift(hole)
    h.pause(1.5)  # well past the settle time: the takeback is offered
    h.place(hole, "w")


MOVED_FIRST = {"event": "moved", "player": "b", "move": FIRST}
MOVED_SWAP = {"event": "moved", "player": "w", "move": "swap"}
SWAP_CANDIDATE = {"event": "candidates", "moves": ["swap"]}
TAKEBACK = {"event": "takeback", "move": FIRST}


# --- colour sensing: the swap is a colour change ------------------------------------------

def test_a_colour_sensed_swap_is_the_swap():
    board = conhex()
    events = drive(Pipeline(board, colour_sensing=True), board, first_gem_then(quick_swap))
    assert events == [Moved(board.parse_move(FIRST)), Moved(board.parse_move("swap"))]
    assert board.sensor_view() == {FIRST: "w"} and board.turn == "b"
    assert replayed(first_gem_then(quick_swap), colour=True) == [MOVED_FIRST, MOVED_SWAP]


def test_a_slow_colour_sensed_swap_takes_back_then_redoes_the_gem_then_swaps():
    board = conhex()
    events = drive(Pipeline(board, colour_sensing=True), board, first_gem_then(slow_swap))
    first, swap = board.parse_move(FIRST), board.parse_move("swap")
    assert events == [Moved(first), Takeback(first), Moved(first), Moved(swap)]
    assert board.move_stack == [first, swap]
    assert replayed(first_gem_then(slow_swap), colour=True) == [
        MOVED_FIRST, TAKEBACK, MOVED_FIRST, MOVED_SWAP]


def test_a_colour_sensed_gem_put_back_in_its_own_colour_is_nothing():
    def same_gem(h, hole):
        h.lift(hole)
        h.pause(0.2)
        h.place(hole, "b")
    assert replayed(first_gem_then(same_gem), colour=True) == [MOVED_FIRST]


def test_a_wrong_colour_put_back_after_a_takeback_without_pie_is_the_gem_to_fix():
    records = replayed(first_gem_then(slow_swap), colour=True, options={"pie": False})
    assert [r["event"] for r in records] == ["moved", "takeback", "moved", "out_of_sync"]


# --- colour-blind: the hand shows the swap, the player confirms it ------------------------

def test_a_quick_lift_and_put_back_offers_the_swap_and_changes_nothing():
    board = conhex()
    events = drive(Pipeline(board), board, first_gem_then(quick_swap))
    assert events == [Moved(board.parse_move(FIRST)), Candidates((board.parse_move("swap"),))]
    assert [board.move_text(m) for m in board.move_stack] == [FIRST] and board.turn == "w"
    assert replayed(first_gem_then(quick_swap), colour=False) == [MOVED_FIRST,
                                                                  SWAP_CANDIDATE]


def test_a_held_lift_offers_the_takeback_and_putting_back_then_offers_the_swap():
    board = conhex(FIRST)
    pipeline = Pipeline(board)
    pipeline.feed(FIRST, True, 0.0)
    assert pipeline.tick(1.0) == [InSync()]
    h = hand(start=2.0)
    slow_swap(h, FIRST)
    events = drive(pipeline, board, h.readings, apply_takebacks=False)
    first = board.parse_move(FIRST)
    assert events == [Takeback(first), Candidates((board.parse_move("swap"),))]
    assert board.move_stack == [first]


def test_a_held_lift_taken_back_then_put_back_is_the_gem_again_and_offers_the_swap():
    board = conhex()
    events = drive(Pipeline(board), board, first_gem_then(slow_swap))
    first = board.parse_move(FIRST)
    assert events == [Moved(first), Takeback(first), Moved(first),
                      Candidates((board.parse_move("swap"),))]
    assert board.move_stack == [first] and board.turn == "w"
    assert replayed(first_gem_then(slow_swap), colour=False) == [
        MOVED_FIRST, TAKEBACK, MOVED_FIRST, SWAP_CANDIDATE]


def test_inference_offers_a_recolouring_move_only_for_relifted_holes():
    board, seen = conhex(FIRST), {FIRST: ""}
    swap = board.parse_move("swap")
    assert Inference(board).judge(seen) == InSync()
    assert Inference(board).judge(seen, relifted=frozenset({FIRST})) == Candidates((swap,))
    assert Inference(board).judge(seen, relifted=frozenset({"c2"})) == InSync()
    assert Inference(board, colour_sensing=True).judge(
        {FIRST: "b"}, relifted=frozenset({FIRST})) == InSync()
    assert Inference(board, colour_sensing=True).judge({FIRST: "w"}) == Moved(swap)


def test_inference_redoes_a_taken_back_move_whatever_colour_comes_back():
    board, first = conhex(), conhex().parse_move(FIRST)
    sensing = Inference(board, colour_sensing=True)
    assert sensing.judge({FIRST: "w"}) == OutOfSync(frozenset(), {FIRST})
    assert sensing.judge({FIRST: "w"}, redo=first) == Moved(first)
    assert sensing.judge({FIRST: "w", "c2": "w"}, redo=first) == \
        OutOfSync(frozenset(), {FIRST, "c2"})
    # Red on c2 and blue on f6 are two moves, red's then blue's, whatever came before.
    assert sensing.judge({FIRST: "w", "c2": "b"}, redo=first) == \
        Moved(board.parse_move("c2"))


def test_with_the_swap_on_offer_a_held_lift_is_a_gem_to_put_back_not_a_takeback():
    board = conhex()
    h = hand()
    h.place(FIRST, "b")
    h.pause(2.0)
    quick_swap(h, FIRST)
    h.pause(2.0)
    slow_swap(h, FIRST)
    events = drive(Pipeline(board), board, h.readings)
    swap = board.parse_move("swap")
    assert events == [Moved(board.parse_move(FIRST)), Candidates((swap,)),
                      OutOfSync(frozenset({FIRST}), frozenset()), Candidates((swap,))]
    assert len(board.move_stack) == 1


def test_the_swap_confirmed_leaves_the_board_in_sync():
    board = conhex()
    pipeline = Pipeline(board)
    drive(pipeline, board, first_gem_then(quick_swap))
    board.push_text("swap")  # the player confirms on the screen
    assert pipeline.resync(board) == []
    assert pipeline.status == InSync()


def test_a_gem_played_instead_of_the_swap_is_that_move_and_the_lift_is_forgotten():
    board = conhex()
    h = hand()
    h.place(FIRST, "b")
    h.pause(2.0)
    quick_swap(h, FIRST)
    h.pause(2.0)
    h.place("c2", "w")  # w plays on instead of confirming
    h.pause(2.0)
    h.lift("c2")  # and takes that back
    h.pause(2.0)
    events = drive(Pipeline(board), board, h.readings)
    first, swap, c2 = (board.parse_move(m) for m in (FIRST, "swap", "c2"))
    assert events == [Moved(first), Candidates((swap,)), Moved(c2), Takeback(c2)]
    assert board.move_stack == [first]


def test_a_lift_before_a_move_undone_by_button_is_forgotten():
    board = conhex()
    pipeline = Pipeline(board)
    h = hand()
    h.place(FIRST, "b")
    h.pause(2.0)
    quick_swap(h, FIRST)
    h.pause(2.0)
    h.place("c2", "w")
    drive(pipeline, board, h.readings)
    c2 = board.pop()  # the undo button takes c2 back; the gem is still on the board
    assert pipeline.resync(board) == [Moved(c2)]  # a session shows the gem to lift
    pipeline.feed("c2", False, 20.0)
    # the light of the gem to lift goes out; no swap offered again
    assert pipeline.tick(21.0) == [Seen(frozenset()), InSync()]


@pytest.mark.parametrize("gesture", [quick_swap, slow_swap])
def test_without_the_pie_rule_the_same_gestures_offer_no_candidate(gesture):
    board = conhex(pie=False)
    events = drive(Pipeline(board), board, first_gem_then(gesture))
    assert not any(isinstance(e, Candidates) for e in events)
    assert [board.move_text(m) for m in board.move_stack] == [FIRST]
    records = replayed(first_gem_then(gesture), colour=False, options={"pie": False})
    assert SWAP_CANDIDATE not in records
    assert records == ([MOVED_FIRST] if gesture is quick_swap
                       else [MOVED_FIRST, TAKEBACK, MOVED_FIRST])


def test_after_the_first_turn_lifting_the_last_gem_and_putting_it_back_is_nothing():
    board = conhex(FIRST, "swap", "c2")
    pipeline = Pipeline(board)
    for hole in ("f6", "c2"):
        pipeline.feed(hole, True, 0.0)
    assert pipeline.tick(1.0) == [InSync()]
    h = hand(start=2.0)
    quick_swap(h, "c2")
    quick_swap(h, FIRST)
    assert drive(pipeline, board, h.readings) == []
    assert len(board.move_stack) == 3


def test_kulami_lifting_the_last_marble_and_putting_it_back_is_nothing():
    board = new_game("kulami", layout="square-1")
    pipeline = Pipeline(board)
    h = Hand([f"{c}{r}" for r in range(1, 11) for c in "abcdefghij"], random.Random(3))
    h.place("d4")
    h.pause(2.0)
    h.lift("d4")
    h.pause(0.2)
    h.place("d4")
    events = drive(pipeline, board, h.readings)
    assert events == [Moved(board.parse_move("d4"))]


# --- a whole noisy opening, through `tabletop sensors replay` -----------------------------

def opening(seed, length=14):
    """b's first gem, w's swap, then random gems: a short game that nobody wins."""
    board, rng = conhex(), random.Random(seed)
    moves = [choose_move(board, 1, rng)]
    board.push(moves[0])
    moves.append(board.parse_move("swap"))
    board.push(moves[1])
    while len(moves) < length:
        moves.append(choose_move(board, 1, rng))
        board.push(moves[-1])
    assert not board.is_game_over()
    return [board.move_text(m) for m in moves]


def noisy_log(tmp_path, seed, *, colour):
    played = opening(seed)
    board = conhex()
    h = Hand(HOLES, random.Random(seed))
    h.play(board, [board.parse_move(m) for m in played])
    path = tmp_path / f"conhex-{seed}.log"
    path.write_text("\n".join(log_lines(h.readings, colour=colour)) + "\n")
    return played, path


def replay_cli(capsys, path):
    """What ``tabletop sensors replay`` decided, without the early lights of new gems."""
    assert main(["sensors", "replay", str(path)]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return [r for r in records if r["event"] != "seen"]


@pytest.mark.parametrize("seed", range(4))
def test_a_noisy_colour_sensed_opening_replays_to_exactly_its_moves(tmp_path, capsys, seed):
    played, path = noisy_log(tmp_path, seed, colour=True)
    records = replay_cli(capsys, path)
    board = conhex()
    for record in records:
        assert record["event"] in ("moved", "takeback", "in_sync")
        if record["event"] == "moved":
            assert record["player"] == board.turn
            board.push_text(record["move"])
        elif record["event"] == "takeback":  # the swap held past the settle time
            assert [board.move_text(m) for m in board.move_stack] == played[:1]
            board.pop()
    assert [board.move_text(m) for m in board.move_stack] == played


@pytest.mark.parametrize("seed", range(4))
def test_a_noisy_colour_blind_opening_offers_the_swap_once_and_every_gem(tmp_path, capsys,
                                                                         seed):
    played, path = noisy_log(tmp_path, seed, colour=False)
    records = [r for r in replay_cli(capsys, path) if r["event"] != "in_sync"]
    candidates = [i for i, r in enumerate(records) if r["event"] == "candidates"]
    assert len(candidates) == 1 and records[candidates[0]]["moves"] == ["swap"]
    before, after = records[:candidates[0]], records[candidates[0] + 1:]
    assert before[0]["move"] == before[-1]["move"] == played[0]  # perhaps taken back, redone
    assert {r["event"] for r in after} == {"moved"}  # nobody confirmed: the gems count on
    assert [r["move"] for r in after] == played[2:]
