"""A hint is the engine's own choice at the table's level, and says how sure it is.

Each game has a position where one move is plainly best (a seeded random game's, or one
built from the rule sheet), checked here by the rules themselves, and the hint there
says the move is clearly best; two moves that win alike are hinted as looking alike; a
search its clock stops at once is a guess; and the shares said are the search's own
counts, read from its stats, never from the words. Budgets are the levels' playouts and
every generator is seeded; the one clock is a fake that moves a second a reading.
"""

from __future__ import annotations

import importlib
import importlib.util
import random

import pytest

from app.games import new_game
from app.table import texts
from app.table.engine_process import ProcessThinker
from app.table.session import Session
from app.table.sureness import Sureness
from app.table.thinker import InlineThinker, Thought
from app.web.snapshot import snapshot
from engines.blokus_duo.policy import BlokusDuoPolicy
from engines.core import other
from engines.players import MAX_LEVEL, choose_move, judge, playouts, seconds_cap
from engines.search import search

PEOPLE = {"b": "person", "w": "person"}
PATIENCE_S = 120.0


@pytest.fixture
def python_trees(monkeypatch):
    """Every game's search tree in Python, which counts wins as well as visits (the
    reference the compiled trees walk as). Blokus Duo keeps its compiled playouts and
    only its tree is Python's: its weighted playout in Python, the reference, is too
    slow to reach these budgets within the level's cap."""
    cores = [importlib.import_module(f"engines.{name}.compiled")
             for name in ("akron", "conhex", "kulami")
             if importlib.util.find_spec(f"engines.{name}.compiled")]
    before = [core.enabled() for core in cores]
    for core in cores:
        core.use(False)
    monkeypatch.setattr(BlokusDuoPolicy, "native_tree", lambda self, board, rng: None)
    yield
    for core, was in zip(cores, before):
        core.use(was)


def played(game: str, seed: int, plies: int):
    """``game`` after ``plies`` random moves of a game seeded ``seed``."""
    board, rng = new_game(game), random.Random(seed)
    for _ in range(plies):
        board.push(rng.choice(list(board.legal_moves)))
    return board


def akron_block_or_lose():
    """Akron from the rule sheet's moves: White (``b``) has column e from row 1 to 13,
    Red (``w``) row 15 but for e15 and row 1 but for White's e1. e15 completes White's
    column where no ball of Red's can cover it, and stops Red's row; anything else lets
    Red take e15 (or e1, for White's ball moved from there) and win."""
    board = new_game("akron")
    whites = ["1e1", "1e3", "1e5", "1e7", "1e9", "1e11", "1e13",
              "1i5", "1i9", "1m5", "1m9", "1a5", "1a9", "1k7"]
    reds = ["1a15", "1c15", "1g15", "1i15", "1k15", "1m15", "1o15",
            "1a1", "1c1", "1g1", "1i1", "1k1", "1m1", "1o1"]
    for white, red in zip(whites, reds):
        board.push_text(white)
        board.push_text(red)
    return board


def wins_at_once(board) -> list:
    mover, winners = board.turn, []
    for move in list(board.legal_moves):
        board.push(move)
        outcome = board.outcome()
        if outcome is not None and outcome.winner == mover:
            winners.append(move)
        board.pop()
    return winners


def replies_all_lose(board, move) -> bool:
    """After ``move``, every reply leaves the mover the winner (Akron's win, which
    stands once the other side has had its turn to cut it)."""
    mover = board.turn
    board.push(move)
    try:
        replies = list(board.legal_moves)
        for reply in replies:
            board.push(reply)
            outcome = board.outcome()
            board.pop()
            if outcome is None or outcome.winner != mover:
                return False
        return bool(replies)
    finally:
        board.pop()


def solved(board, budget: list[int]):
    """The winner with best play (``None``: a draw), searched to the end."""
    outcome = board.outcome()
    if outcome is not None:
        return outcome.winner
    budget[0] -= 1
    assert budget[0] > 0, "the position is too big to solve in a test"
    mover, results = board.turn, set()
    for move in list(board.legal_moves):
        board.push(move)
        result = solved(board, budget)
        board.pop()
        if result == mover:
            return mover
        results.add(result)
    return None if None in results else other(mover)


def only_winning_move(board):
    """The one move that wins with best play, the others losing or drawing."""
    mover, winners = board.turn, []
    for move in list(board.legal_moves):
        board.push(move)
        if solved(board, [20_000]) == mover:
            winners.append(move)
        board.pop()
    assert len(winners) == 1, [board.move_text(m) for m in winners]
    return winners[0]


def conhex_win_or_lose():
    """A ConHex game where one move wins at once and every other lets the other side
    win at once."""
    board = played("conhex", 0, 58)
    winner, = wins_at_once(board)
    for move in list(board.legal_moves):
        if move != winner:
            board.push(move)
            assert wins_at_once(board), board.move_text(move)
            board.pop()
    return board, winner


def plainly_best(game: str):
    """A position of ``game`` with one plainly best move, and that move."""
    if game == "conhex":
        return conhex_win_or_lose()
    if game == "akron":
        board = akron_block_or_lose()
        block, = [m for m in board.legal_moves if replies_all_lose(board, m)]
        return board, block
    board = played(game, *{"kulami": (13, 47), "blokus-duo": (11, 23)}[game])
    return board, only_winning_move(board)


def hinted(board, level: int = MAX_LEVEL, seed: int = 5, **kwargs) -> Sureness:
    return Sureness.of(judge(board, level, random.Random(seed), **kwargs), board.move_text)


@pytest.mark.parametrize("game", ["akron", "blokus-duo", "conhex", "kulami"])
def test_a_plainly_best_move_is_hinted_as_clearly_best(game, python_trees):
    board, best = plainly_best(game)
    sure = hinted(board)
    assert (sure.move, sure.verdict) == (board.move_text(best), "clear")
    line = texts.hint(sure.move, sure)
    assert line.startswith(f"hint: {sure.move}, clearly best: won ") and "%" in line


def compiled_hint(game: str):
    """``game``'s plainly best position, its move, and the hint there with the search
    in the game's compiled core."""
    core = importlib.import_module(f"engines.{game.replace('-', '_')}.compiled")
    assert core.available(), "the compiled core was not built (pip install -e .)"
    before = core.enabled()
    core.use(True)
    try:
        board, best = plainly_best(game)
        return board, best, hinted(board)
    finally:
        core.use(before)


@pytest.mark.parametrize("game", ["akron", "blokus-duo", "conhex", "kulami"])
def test_a_compiled_tree_counts_wins_and_the_hint_says_the_share_won(game):
    """The compiled trees count the root's wins as the Python tree does, so the hint
    says the share of the chosen move's trial games it won, as in Python."""
    board, best, sure = compiled_hint(game)
    assert (sure.move, sure.verdict) == (board.move_text(best), "clear")
    assert texts.hint(sure.move, sure) == (
        f"hint: {sure.move}, clearly best: won {round(100 * sure.share)}% of the engine's "
        f"trial games with it")


def test_two_moves_that_win_alike_are_hinted_as_looking_alike(python_trees):
    board = played("conhex", 2, 62)
    both = wins_at_once(board)
    assert len(both) == 2 and len(list(board.legal_moves)) > 2
    sure = hinted(board)
    assert sure.verdict == "alike"
    assert {sure.move, sure.runner_up} == {board.move_text(m) for m in both}
    assert texts.hint(sure.move, sure) == (
        f"hint: {sure.move} or {sure.runner_up}, they look as good (they won 100% and "
        f"100% of their trial games)")
    assert texts.hint_legend(sure) == "Hint: one of two alike (100%, 100%)"


class SecondClock:
    """A clock that moves a second at every reading: a search's time is the number of
    times it looked, the same on any machine."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


@pytest.mark.parametrize("game", ["conhex", "kulami"])
def test_a_hint_whose_search_the_clock_stops_at_once_is_a_guess(game, monkeypatch,
                                                                 python_trees):
    board, _ = plainly_best(game)
    monkeypatch.setattr("engines.search.time.perf_counter", SecondClock())
    judgement = judge(board, MAX_LEVEL, random.Random(5), seconds=2.5)
    sure = Sureness.of(judgement, board.move_text)
    assert judgement.walks == 32 and judgement.budget == playouts(board, MAX_LEVEL)
    assert sure.verdict == "guess"
    assert texts.hint(sure.move, sure) == (
        f"hint: {sure.move}, a guess: the search had too little time "
        f"(32 of the {judgement.budget:,} trial games it plays)")
    assert texts.hint_legend(sure) == "Hint: a guess, too little time"


@pytest.mark.parametrize("game, seed", [("conhex", 3), ("kulami", 4), ("akron", 5),
                                        ("blokus-duo", 6)])
def test_the_shares_are_the_searchs_own_counts(game, seed, python_trees):
    """The hint's percentages are the root's wins over visits as the search counted
    them, for the chosen move and the runner-up (a mid-game position, at level 3)."""
    board = played(game, seed, 10)
    level = 3
    stats = {}
    budget = playouts(board, level)
    move = search(board, random.Random(seed), playouts=budget,
                  seconds=seconds_cap(board), stats=stats)
    (first, visits, wins), (second, r_visits, r_wins) = stats["root"][:2]
    sure = hinted(board, level, seed)
    assert first == move and sure.move == board.move_text(move)
    assert sure.share == wins / visits and sure.runner_up == board.move_text(second)
    assert sure.runner_up_share == r_wins / r_visits
    assert sure.trials == stats["walks"] >= budget  # walks in steps of CHECK_EVERY
    assert f"{round(100 * sure.share)}%" in texts.hint(sure.move, sure)


@pytest.mark.parametrize("level, words, legend", [
    (1, "picked at random: level 1 does not look ahead", "Hint: a random move"),
    (2, "the best score one move ahead: level 2 looks only one move ahead",
     "Hint: best one move ahead")])
def test_the_levels_without_a_search_say_how_little_they_look_ahead(level, words, legend):
    board = played("kulami", 1, 6)
    sure = hinted(board, level)
    assert texts.hint(sure.move, sure) == f"hint: {sure.move}, {words}"
    assert texts.hint_legend(sure) == legend


def test_the_only_legal_move_is_said_to_be_the_only_one():
    board = played("kulami", 0, 49)
    assert len(list(board.legal_moves)) == 1
    sure = hinted(board)
    assert sure.verdict == "only" and texts.hint(sure.move, sure).endswith("the only legal move")


def table(board, level: int, thinker=None) -> Session:
    return Session(board, seats=PEOPLE, level=level, seed=3, physical=False,
                   thinker=thinker or InlineThinker())


def test_the_hint_is_the_move_the_engine_plays_at_the_tables_level(python_trees):
    """The hint searches as the engine seat would: the table's level, its seeded
    generator, the strongest level's budget at max."""
    board, best = plainly_best("conhex")
    game = table(board, MAX_LEVEL)
    engine_would = choose_move(game.board.copy(), MAX_LEVEL, game._rng())
    game.hint()
    assert game.suggestion == engine_would == best


def test_the_view_carries_how_sure_and_every_front_end_shows_its_words(python_trees):
    """The typed value is on the view; the status screen's legend, the page (the view
    as JSON) and the terminal (the view's message and legend) show its words."""
    board, best = plainly_best("kulami")
    game = table(board, MAX_LEVEL)
    game.hint()
    view = game.view()
    sure = view.hint
    assert sure is not None and sure.verdict == "clear" and sure.move == board.move_text(best)
    legend = {row.role: row.meaning for row in view.legend}
    assert legend["suggestion"] == f"Hint: clearly best ({round(100 * sure.share)}%)"
    assert view.message == texts.sentence(texts.hint(sure.move, sure))
    page = snapshot(view)
    assert page["status"]["message"] == view.message
    assert {"role": "suggestion", "meaning": legend["suggestion"]}.items() <= \
        next(row for row in page["legend"] if row["role"] == "suggestion").items()
    game.confirm(sure.move)  # the game moves on: the hint and its sureness go
    assert game.view().hint is None


def test_the_engines_process_sends_the_same_judgement_as_a_search_in_the_table():
    board, _ = plainly_best("akron")
    thinker = ProcessThinker()
    try:
        far = thinker.think(board, 3, random.Random(9))
        assert thinker.wait(far, PATIENCE_S)
    finally:
        thinker.close()
    near = Thought()
    near.run(board.copy(), 3, random.Random(9))
    assert far.judgement == near.judgement and far.move == near.move
    assert near.judgement.considered  # Akron's tree counts: something was compared


@pytest.mark.parametrize("size", [(800, 480), (1024, 600), (1920, 1080)])
@pytest.mark.parametrize("verdict", ["clear", "probable", "alike", "guess"])
def test_the_status_screen_fits_the_longest_hint_words(size, verdict):
    """Blokus Duo names a move by its five squares: the hint's words with two such
    moves still fit the status screen's message box and legend, uncut."""
    import pygame

    from app.screen.status import draw_status
    from app.table.status import Status
    from app.table.view import View

    board = played("blokus-duo", 11, 23)
    first, second = sorted((board.move_text(m) for m in board.legal_moves), key=len)[-2:]
    sure = Sureness(first, verdict, MAX_LEVEL, share=0.537, runner_up=second,
                    runner_up_share=0.528, trials=10_000, budget=40_000)
    status = Status(game=board.game, options=board.options, seats=PEOPLE, level=MAX_LEVEL,
                    turn=board.turn, scores=board.scores(),
                    moves=tuple(board.move_text(m) for m in board.move_stack),
                    message=texts.hint(first, sure), hint=first, hint_sureness=sure,
                    in_hand={p: board.left_in_hand(p) for p in "bw"})
    view = View.of(board, status)
    assert texts.hint_legend(sure) in [row.meaning for row in view.legend]
    surface = pygame.Surface(size)
    drawn = draw_status(surface, view)
    assert drawn.overlaps() == [] and drawn.outside(surface.get_rect()) == []
    assert any(texts.hint_legend(sure) == text for text, _ in drawn.texts)


def test_a_hint_our_engine_finishes_for_a_failed_program_says_how_sure(tmp_path):
    """An outside program says nothing of how sure it is (its hint is the move alone);
    when it crashes and our own search finishes the hint, ours says it on the legend,
    while the message says the program stopped."""
    import sys
    from pathlib import Path

    from app.table.outside_engine import EngineCommand, OutsideEngines

    standin = Path(__file__).with_name("gtp_standin.py")
    log = tmp_path / "engine.log"
    thinker = OutsideEngines(
        {"kulami": EngineCommand((sys.executable, str(standin), "kulami", "crash",
                                  str(log)), 20.0)}, InlineThinker())
    try:
        game = Session(played("kulami", 1, 6), seats=PEOPLE, level=3, seed=3,
                       physical=False, thinker=thinker)
        game.hint()
        assert game.thought is None or game.thought.wait(PATIENCE_S)
        game.poll()
        view = game.view()
    finally:
        thinker.close()
    assert "stopped" in view.message and view.hint is not None
    assert view.hint.level == 3 and view.hint.trials >= playouts(game.board, 3)
    legend = {row.role: row.meaning for row in view.legend}
    assert legend["suggestion"] == texts.hint_legend(view.hint) != "Hint"
