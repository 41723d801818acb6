"""Little Golem SGF for ConHex: a whole game, the swap, resignation and broken records."""

from pathlib import Path

import pytest

from engines.conhex.board import SWAP, ConHexBoard
from engines.conhex.record import read, write
from engines.core import RecordError

DATA = Path(__file__).parent / "data" / "conhex"
HEAD = "(;FF[CONHEX]VA[CONHEX]PB[Ana]PW[Radu]"


def test_a_whole_game_replays_to_the_win_its_record_states():
    record = read((DATA / "won-by-w.sgf").read_text())
    board = record.board
    assert len(board.move_stack) == 44 and board.move_stack[-1].name == "c8"
    outcome = board.outcome()
    assert outcome.winner == "w" == record.winner and "W and E" in outcome.reason
    assert record.players == {"b": "Ana", "w": "Radu"} and record.resigned is None
    # w's winning chain runs from cell 5 on the east side to cell 15 on the west side.
    assert {5, 20, 30, 37, 36, 35, 28, 16, 15} <= {int(c) for c in board.owned("w")}


def test_a_written_record_reads_back_to_the_same_game():
    board = read((DATA / "won-by-w.sgf").read_text()).board
    text = board.to_record()
    assert text.startswith("(;FF[CONHEX]VA[CONHEX]RE[W+]\n;B[E6]\n;R[G6]\n")
    again = ConHexBoard.from_record(text)
    assert again.move_stack == board.move_stack and again.outcome() == board.outcome()


def test_little_golems_swap_is_our_swap_of_the_mirrored_first_gem():
    """On Little Golem B[J3];R[swap] leaves R's gem on C10 and J3 empty (B plays J3
    again later); ours is the first gem c10 turned to w."""
    text = HEAD + ";B[J3];R[swap];B[J9];R[G4];B[J3];R[I6])"
    board = read(text).board
    assert [str(m) for m in board.move_stack] == ["c10", "swap", "j9", "g4", "j3", "i6"]
    assert board.sensor_view() == {"c10": "w", "j9": "b", "g4": "w", "j3": "b", "i6": "w"}
    assert write(board, {"b": "Ana", "w": "Radu"}) == (
        "(;FF[CONHEX]VA[CONHEX]PB[Ana]PW[Radu]\n;B[J3]\n;R[swap]\n;B[J9]\n;R[G4]\n;B[J3]\n"
        ";R[I6])\n")


def test_our_swap_is_written_as_little_golems():
    board = ConHexBoard()
    for move in ("c10", "swap", "f6"):
        board.push_text(move)
    assert ";B[J3]\n;R[swap]\n;B[F6])" in board.to_record()


def test_a_resignation_is_read_as_the_end_of_the_game():
    text = HEAD + "RE[B+R];B[F6];R[E6];B[F8];R[resign])"
    record = read(text)
    assert record.resigned == "w" and record.winner == "b"
    assert len(record.board.move_stack) == 3 and record.board.outcome() is None
    assert record.text() == ("(;FF[CONHEX]VA[CONHEX]PB[Ana]PW[Radu]RE[B+R]\n;B[F6]\n;R[E6]\n"
                             ";B[F8]\n;R[resign])\n")


def test_the_second_player_may_be_written_w_as_well_as_r():
    board = read("(;FF[CONHEX];B[F6];W[E6])").board
    assert board.sensor_view() == {"f6": "b", "e6": "w"}


def test_a_handicap_game_records_its_handicap():
    board = ConHexBoard(handicap=2)
    for move in ("f6", "e6", "d6"):
        board.push_text(move)
    text = board.to_record()
    assert "HA[2]" in text and ";B[F6]\n;B[E6]\n;R[D6])" in text
    again = ConHexBoard.from_record(text)
    assert again.options["handicap"] == 2 and again.move_stack == board.move_stack


def test_only_the_player_to_move_can_resign_in_a_written_record():
    board = ConHexBoard()
    board.push_text("f6")
    with pytest.raises(RecordError, match="only the player to move can resign"):
        write(board, resigned="b")


BROKEN = {
    "not conhex": ("(;FF[4]GM[1];B[dd])", r"not a Little Golem ConHex record: FF\[4\]"),
    "other variant": ("(;FF[CONHEX]VA[HEX];B[F6])", "not a Little Golem ConHex record"),
    "move in root": ("(;FF[CONHEX]B[F6])", "the root node holds a move"),
    "no move": (HEAD + ";B[F6];C[hello])", "move 2: a node needs exactly one of B"),
    "two moves": (HEAD + ";B[F6]R[E6])", "move 1: a node needs exactly one of B"),
    "wrong colour": (HEAD + ";B[F6];B[E6])", r"move 2 \(B\[E6\]\): it is w's turn, not b's"),
    "not a hole": (HEAD + ";B[C9])", r"move 1 \(B\[C9\]\): 'C9' is not a ConHex hole"),
    "taken": (HEAD + ";B[F6];R[F6])", r"move 2 \(R\[F6\]\): f6 is taken"),
    "late swap": (HEAD + ";B[F6];R[E6];B[swap])", "move 3 .*swap is only legal as w's first"),
    "swap by b": (HEAD + ";B[swap])", "move 1 .*swap is only legal as w's first"),
    "after resign": (HEAD + ";B[F6];R[resign];B[E6])", "move 3 .*a move after the resignation"),
    "bad handicap": ("(;FF[CONHEX]HA[5];B[F6])", "HA must be 0, 2 or 3, not '5'"),
    "wrong result": (HEAD + "RE[B+R];B[F6];R[E6];B[resign])",
                     "RE\\[B\\+R\\] names b the winner, but the moves give the game to w"),
    "not a result": (HEAD + "RE[a0];B[F6])", r"RE\[a0\] is not a result: expected the "
                     r"winner's letter \(B, R, W\)"),
    "unclosed": (HEAD + ";B[F6", "SGF: a property value is not closed"),
}


@pytest.mark.parametrize("name", BROKEN)
def test_broken_records_are_refused_with_one_line(name):
    text, message = BROKEN[name]
    with pytest.raises(RecordError, match=message) as caught:
        read(text)
    assert "\n" not in str(caught.value)


def test_moves_after_the_win_are_refused():
    text = (DATA / "won-by-w.sgf").read_text().replace(";R[C8])", ";R[C8];B[D10])")
    with pytest.raises(RecordError, match=r"move 45 \(B\[D10\]\): the game is over"):
        read(text)


def test_a_result_that_contradicts_the_chain_is_refused():
    text = (DATA / "won-by-w.sgf").read_text().replace("RE[W+]", "RE[B+]")
    with pytest.raises(RecordError, match="names b the winner, but the moves give the game to w"):
        read(text)


def test_swap_reads_in_either_case():
    assert read(HEAD + ";B[J3];R[SWAP])").board.move_stack[1] is SWAP
