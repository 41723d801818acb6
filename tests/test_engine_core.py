"""The board protocol itself: the turn as state, the pass move, errors, creation hooks."""

import dataclasses
import random

import pytest

import engines
import engines.core
from app.games import GAMES, new_game
from engines.conhex.board import SWAP, ConHexBoard
from engines.core import PASS, Board, Lights, Outcome, Pass
from engines.errors import (EngineError, IllegalMoveError, InvalidMoveError, OptionError,
                            RecordError, TabletopError)
from engines.gtp import GtpEngine
from holes_in_a_row import HolesInARow


class Stones(HolesInARow, Board):
    """A test-only game that allows passing, as Go does: a stone on any empty hole of
    three, or a pass; two passes in a row, or a full row, end the game."""

    game = "stones"
    HOLES = ("a1", "b1", "c1")

    def __init__(self):
        super().__init__()
        self.stones = {}

    options = property(lambda self: {})
    holes = property(lambda self: self.HOLES)

    def parse_notation(self, text):
        if text.strip() not in self.HOLES:
            raise InvalidMoveError(f"{text!r} is not a hole")
        return text.strip()

    def generate_legal_moves(self, player):
        return (hole for hole in self.HOLES if hole not in self.stones)

    def may_pass(self, player):
        return True

    def _apply(self, move):
        if move != PASS:
            self.stones[move] = self.turn

    def _undo(self, move):
        if move != PASS:
            del self.stones[move]

    def outcome(self):
        if self.move_stack[-2:] != [PASS, PASS] and len(self.stones) < len(self.HOLES):
            return None
        scores = self.scores()
        winner = None if scores["b"] == scores["w"] else max(scores, key=scores.get)
        return Outcome(winner, scores, "two passes or a full row")

    def scores(self):
        return {p: list(self.stones.values()).count(p) for p in "bw"}

    def sensor_view(self):
        return dict(self.stones)

    def lights(self):
        return Lights.build(self.turn, legal=self.generate_legal_moves(self.turn))

    def ascii(self):
        return " ".join(self.stones.get(h, ".") for h in self.HOLES)



def state(board):
    return (board.turn, list(board.move_stack), board.sensor_view(), board.outcome())


# --- errors ---------------------------------------------------------------------------

def test_every_engine_error_has_one_root_and_stays_a_value_error():
    for error in (EngineError, InvalidMoveError, IllegalMoveError, OptionError, RecordError):
        assert issubclass(error, TabletopError) and issubclass(error, ValueError)
    assert not issubclass(TabletopError, ValueError)
    # The old import paths keep working.
    assert engines.core.IllegalMoveError is engines.IllegalMoveError is IllegalMoveError
    assert engines.core.TabletopError is engines.TabletopError is TabletopError


# --- the turn is state ----------------------------------------------------------------

def test_the_turn_follows_push_and_pop_exactly():
    board = new_game("kulami")
    turns = [board.turn]
    for text in ("d4", "d7", "d2", "d5"):
        board.push_text(text)
        turns.append(board.turn)
    assert turns == ["b", "w", "b", "w", "b"]
    while board.move_stack:
        turns.pop()
        board.pop()
        assert board.turn == turns[-1]


@pytest.mark.parametrize("handicap, order", [(0, "bwbwb"), (2, "bbwbw"), (3, "bbbwb")])
def test_conhex_handicap_turns_go_through_the_hook_and_pop_back(handicap, order):
    board = ConHexBoard(handicap=handicap)
    states = []
    for hole in ("f6", "a1", "k1", "a11", "k11"):
        states.append(state(board))
        board.push_text(hole)
    assert "".join(turn for turn, *_ in states) == order
    while board.move_stack:
        board.pop()
        assert state(board) == states.pop()


def test_after_a_swap_b_moves_and_pop_gives_the_swap_back_to_w():
    board = ConHexBoard()
    board.push_text("j3")
    board.push(SWAP)
    assert board.turn == "b"
    board.pop()
    assert board.turn == "w" and board.is_legal(SWAP)


def test_a_copy_keeps_the_turn_and_pops_like_the_original():
    for board in (ConHexBoard(handicap=2), new_game("kulami")):
        for _ in range(2):
            board.push(next(iter(board.legal_moves)))
        clone = board.copy()
        assert clone.turn == board.turn
        clone.pop()
        board.pop()
        assert clone.turn == board.turn


# --- the pass -------------------------------------------------------------------------

def test_pass_is_one_small_immutable_value_written_pass():
    assert str(PASS) == "pass" and Pass() == PASS and hash(Pass()) == hash(PASS)
    with pytest.raises(dataclasses.FrozenInstanceError):
        PASS.player = "b"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_pass_round_trips_through_text_in_every_game(game):
    board = new_game(game)
    for text in ("pass", " PASS ", "Pass"):
        assert board.parse_move(text) == PASS
    assert board.move_text(PASS) == "pass"
    assert board.parse_move(board.move_text(PASS)) == PASS


@pytest.mark.parametrize("game, reason", [
    ("kulami", "kulami has no passing: the game ends when the player to move has no legal"),
    ("conhex", "conhex has no passing: a chain always wins before the holes run out"),
])
def test_kulami_and_conhex_refuse_a_pass_with_the_rule_and_change_nothing(game, reason):
    board = new_game(game)
    board.push(next(iter(board.legal_moves)))
    before = state(board)
    assert not board.is_legal(PASS) and PASS not in board.legal_moves
    assert PASS not in list(board.legal_moves)
    assert board.illegal_reason(PASS) == board.pass_refused
    with pytest.raises(IllegalMoveError, match=reason):
        board.push(PASS)
    with pytest.raises(IllegalMoveError, match=reason):
        board.push_text("pass")
    assert state(board) == before


@pytest.mark.parametrize("game", ["kulami", "conhex"])
def test_gtp_play_pass_is_a_one_line_refusal(game):
    engine = GtpEngine(GAMES[game].board_class)
    reply = engine.handle("play b pass")
    assert reply == f"? {engine.board.pass_refused}\n\n"
    assert engine.board.move_stack == []


def test_a_game_that_allows_passing_pushes_and_pops_a_pass():
    board = Stones()
    assert board.legal_moves.count() == 4 and PASS in board.legal_moves
    assert list(board.legal_moves)[-1] == PASS
    board.push(PASS)
    assert board.turn == "w" and board.move_stack == [PASS] and board.sensor_view() == {}
    board.push_text("b1")
    assert board.turn == "b" and board.sensor_view() == {"b1": "w"}
    board.push_text("pass")
    board.push(PASS)
    outcome = board.outcome()
    assert outcome.winner == "w" and not board.legal_moves.any()
    with pytest.raises(IllegalMoveError, match="the game is over"):
        board.push(PASS)
    board.pop()
    assert board.turn == "w" and board.outcome() is None and board.is_legal(PASS)
    board.pop()
    board.pop()
    assert board.turn == "w" and board.move_stack == [PASS]
    board.pop()
    assert state(board) == state(Stones())


def test_gtp_plays_and_lists_a_pass_where_the_game_allows_it():
    engine = GtpEngine(Stones, seed="1")
    assert "pass" in engine.handle("all_legal b")
    assert engine.handle("play b pass") == "= \n\n"
    assert engine.board.turn == "w" and engine.board.last_move == PASS
    assert engine.handle("play w pass") == "= \n\n"
    assert engine.board.is_game_over() and engine.handle("genmove b") == "= pass\n\n"
    assert engine.handle("final_score") == "= 0\n\n"
    assert engine.handle("undo") == "= \n\n" and engine.board.turn == "w"


# --- the defaults of the newer hooks --------------------------------------------------

@pytest.mark.parametrize("game", sorted(GAMES))
def test_placement_games_move_no_piece_once_placed(game):
    board = new_game(game)
    board.push(next(iter(board.legal_moves)))
    assert all(list(board.moves_from(hole)) == [] for hole in board.holes)


def test_a_game_builds_from_checked_options_through_new():
    board = Stones.new()
    assert isinstance(board, Stones) and board.turn == "b"
    with pytest.raises(OptionError, match=r"stones has no option 'size' \(options: none\)"):
        Stones.new(size="3")


def test_the_turn_is_handed_only_where_each_player_keeps_their_own_pieces():
    """GTP may ask either colour to move: Blokus Duo hands the turn over and takes it
    back with the move; Kulami counts its marbles by moves, so it refuses."""
    from app.games import new_game
    from engines.errors import EngineError

    duo = new_game("blokus-duo")
    duo.hand_turn("w")
    assert duo.turn == "w"
    duo.push(next(iter(duo.legal_moves)))
    assert duo.turn == "b" and duo.mover() == "w"
    duo.pop()
    assert duo.turn == "w"
    kulami = new_game("kulami")
    with pytest.raises(EngineError, match="it is b's turn, not w's"):
        kulami.hand_turn("w")
    assert kulami.turn == "b"


@pytest.mark.parametrize("game", list(GAMES))
def test_push_legal_plays_a_listed_move_as_push_does_without_asking_again(game):
    # The search's walks push only moves they listed: the same position, turn and moves.
    rng = random.Random(5)
    checked, trusted = new_game(game), new_game(game)
    for _ in range(12):
        if checked.is_game_over():
            break
        move = rng.choice(list(checked.legal_moves))
        checked.push(move)
        trusted.push_legal(move)
        assert trusted.turn == checked.turn and trusted.move_stack == checked.move_stack
        assert trusted.sensor_view() == checked.sensor_view()
        assert list(trusted.legal_moves) == list(checked.legal_moves)
    assert len(trusted.move_stack) >= 2
