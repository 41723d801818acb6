"""Legal moves as a lazy view, ``is_legal`` by the rule, and the moves a sensor can see."""

import random

import pytest
from hypothesis import example, given, settings, strategies as st

from app.games import new_game
from engines.conhex.board import SWAP, ConHexBoard, Move
from engines.core import PASS, Board
from engines.kulami.board import KulamiBoard, KulamiMove
from engines.kulami.layout import random_layout

SQUARE = "aaabbccd/aaaeeccd/ffgeehhd/iigjjhhk/iiljjhhk/mmljjnnk/mmloonnp/qqqoonnp"


@pytest.fixture
def spy(monkeypatch):
    """Count the calls of a board class's generator and the moves taken from it."""
    seen = {"calls": 0, "moves": 0}

    def install(cls):
        real = cls.generate_legal_moves

        def counting(self, player):
            seen["calls"] += 1
            for move in real(self, player):
                seen["moves"] += 1
                yield move
        monkeypatch.setattr(cls, "generate_legal_moves", counting)
        return seen
    return install


def played(game, *texts, **options):
    board = new_game(game, **options)
    for text in texts:
        board.push_text(text)
    return board


def random_position(game, seed, plies, **options):
    board, rng = new_game(game, **options), random.Random(seed)
    while len(board.move_stack) < plies and not board.is_game_over():
        board.push(rng.choice(list(board.legal_moves)))
    return board


def finished(game, seed=3):
    return random_position(game, seed, 200)


# --- a lazy view ----------------------------------------------------------------------

@pytest.mark.parametrize("game, moves, probes", [
    ("kulami", ["d4"], ["d7", "e5", "e4", "d4", "pass"]),
    ("conhex", ["j3"], ["f6", "j3", "swap", "pass"]),
    ("conhex", ["j3", "f6"], ["swap", "a1"]),
])
def test_in_asks_the_rule_and_generates_nothing(spy, game, moves, probes):
    board = played(game, *moves)
    seen = spy(type(board))
    answers = {text: board.parse_move(text) in board.legal_moves for text in probes}
    assert seen["calls"] == 0
    assert answers == {text: board.is_legal(board.parse_move(text)) for text in probes}
    assert ("j", 3) not in board.legal_moves and seen["calls"] == 0


@pytest.mark.parametrize("game", ["kulami", "conhex"])
def test_any_stops_at_the_first_move(spy, game):
    board = played(game)
    seen = spy(type(board))
    assert board.legal_moves.any() and bool(board.legal_moves)
    assert seen["moves"] == 2  # one move each: any() and bool()


@pytest.mark.parametrize("game", ["kulami", "conhex"])
def test_everything_that_needs_all_moves_generates_them_once(spy, game):
    board = played(game)
    seen = spy(type(board))
    moves = board.legal_moves
    count = len(moves)
    assert moves.count() == count == len(list(moves)) and moves[count - 1] == list(moves)[-1]
    random.Random(1).choice(moves)
    assert seen["calls"] == 1


def test_the_view_is_live_across_push_and_pop():
    board = played("kulami", layout=SQUARE)
    moves = board.legal_moves
    assert len(moves) == 64
    board.push(board.parse_move("d4"))
    assert sorted(map(str, moves)) == ["a4", "b4", "c4", "d1", "d2", "d6", "d7", "d8", "f4",
                                       "g4", "h4"]
    assert moves.player == "b" and len(moves) == 11  # still b's moves, in the new position
    board.pop()
    assert len(moves) == 64


def test_repr_names_the_player_and_the_moves():
    board = played("kulami", "d4", layout=SQUARE)
    text = repr(board.legal_moves)
    assert text.startswith("<LegalMoves w (") and text.endswith(")>")
    assert sorted(text[len("<LegalMoves w ("):-2].split(", ")) == sorted(
        map(str, board.legal_moves))


def test_legal_moves_for_either_player_whoever_is_to_move():
    board = played("conhex", "j3")
    assert board.turn == "w"
    assert board.legal_moves_for("w").count() == 69 and board.legal_moves_for("b").count() == 68
    assert SWAP in board.legal_moves_for("w") and SWAP not in board.legal_moves_for("b")
    assert Move("f6") in board.legal_moves_for("b") and Move("j3") not in board.legal_moves_for("b")


@pytest.mark.parametrize("game", ["kulami", "conhex"])
def test_nothing_is_legal_once_the_game_is_over(game):
    board = finished(game)
    assert board.is_game_over()
    for moves in (board.legal_moves, board.legal_moves_for("b"), board.legal_moves_for("w")):
        assert not moves and not moves.any() and moves.count() == 0 and list(moves) == []
    assert repr(board.legal_moves) == f"<LegalMoves {board.turn} ()>"
    assert not any(board.is_legal(board.parse_move(hole)) for hole in board.holes)


# --- Kulami's is_legal is the rule itself ---------------------------------------------

@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), square=st.booleans())
def test_kulami_is_legal_agrees_with_the_generated_moves_over_whole_games(seed, square):
    board = KulamiBoard.new(layout=random_layout(seed, square=square).text())
    rng = random.Random(seed)
    fields = [KulamiMove(x, y) for x, y in board.layout.fields]
    while True:
        generated = set(board.legal_moves)
        assert {move for move in fields if board.is_legal(move)} == generated
        assert not board.is_legal(PASS) and not board.is_legal(Move("d4"))
        if board.is_game_over():
            break
        board.push(rng.choice(sorted(generated)))


# --- what a sensor can see ------------------------------------------------------------

def sensed_sets(board):
    """The game's own answer and the generic default's, for every hole and a stranger."""
    holes = list(board.holes) + ["z99"]
    return ({h: set(board.moves_sensed_at(h)) for h in holes},
            {h: set(Board.moves_sensed_at(board, h)) for h in holes})


@settings(max_examples=40, deadline=None)
@given(game=st.sampled_from(["kulami", "conhex"]), seed=st.integers(0, 10**6),
       plies=st.integers(0, 70), handicap=st.sampled_from([0, 0, 2]))
@example(game="conhex", seed=1, plies=1, handicap=0)  # the swap is legal
@example(game="kulami", seed=3, plies=70, handicap=0)  # a finished game
def test_moves_sensed_at_by_rule_equal_the_generic_default(game, seed, plies, handicap):
    options = {"handicap": handicap} if game == "conhex" else {"layout": f"random:{seed}"}
    board = random_position(game, seed, plies, **options)
    before = (list(board.move_stack), board.turn, board.sensor_view())
    by_rule, generic = sensed_sets(board)
    assert by_rule == generic
    assert (list(board.move_stack), board.turn, board.sensor_view()) == before
    # Every legal move is seen somewhere: the sensing layer misses none.
    assert set().union(*by_rule.values()) == set(board.legal_moves)


def test_the_swap_is_sensed_at_the_first_gem_only():
    board = played("conhex", "j3")
    assert list(board.moves_sensed_at("j3")) == [SWAP]
    assert list(board.moves_sensed_at("f6")) == [Move("f6")]
    board.push(Move("f6"))
    assert list(board.moves_sensed_at("j3")) == [] and list(board.moves_sensed_at("f6")) == []


def test_a_kulami_marble_is_sensed_where_it_may_go():
    board = played("kulami", "d4", layout=SQUARE)
    assert list(board.moves_sensed_at("d7")) == [KulamiMove(3, 6)]
    assert list(board.moves_sensed_at("e5")) == [] and list(board.moves_sensed_at("d4")) == []


def test_the_generic_default_is_right_for_a_game_that_does_not_override_it():
    """ConHexBoard without its override: the default plays each move to find out."""
    class Plain(ConHexBoard):
        moves_sensed_at = Board.moves_sensed_at

    board = Plain()
    board.push_text("j3")
    assert set(board.moves_sensed_at("j3")) == {SWAP}
    assert set(board.moves_sensed_at("a1")) == {Move("a1")}
