"""The end screen shows the whole score: Kulami's panels with the area and chain bonuses
of scoring levels 1 and 2 and who won by how much; ConHex's cells and the winning chain;
Akron's balls and the winning chain of balls."""

import random

import pygame
import pytest

from app.games import new_game
from app.screen.scoresheet import winning_areas
from app.screen.status import draw_status
from app.table.ending import ending
from app.table.status import Status
from app.table.view import View
from engines.conhex.geometry import NEIGHBOURS, PLAYER_SIDES, SIDES
from engines.kulami.scoring import breakdown
from engines.players import choose_move

SIZES = [(800, 480), (400, 240), (1280, 720)]


def finished(game, seed, **options):
    board, rng = new_game(game, **options), random.Random(seed)
    while not board.is_game_over():
        board.push(choose_move(board, 2, rng))
    return board


def status_of(board, message="", kind="over"):
    return Status(game=board.game, options=dict(board.options),
                  seats={"b": "person", "w": "engine"}, level=2, turn=None,
                  scores=board.scores(), moves=tuple(board.move_text(m)
                                                     for m in board.move_stack),
                  message=message, message_kind=kind, end=ending(board.outcome()))


def score_sheet(board):
    """The end screen's lines in its order: the view's sheet, then who won."""
    view = View.of(board, status_of(board))
    return [*view.sheet, view.end_short] if view.end is not None else []


def shown(board, size=(800, 480)):
    surface = pygame.Surface(size)
    drawn = draw_status(surface, View.of(board, status_of(board)), None)
    assert drawn.overlaps() == [] and drawn.outside(surface.get_rect()) == []
    return drawn.text


def a_kulami_game_with_both_bonuses():
    for seed in range(1, 30):
        board = finished("kulami", seed, scoring=2)
        parts = breakdown(board.layout, board.occupancy, 2, board.chain_lines)
        if (board.outcome().winner and sum(parts[1].points.values())
                and sum(parts[2].points.values())):
            return board, parts
    raise AssertionError("no game with both bonuses")


def test_a_kulami_end_screen_shows_panels_both_bonuses_and_the_margin():
    board, (panels, area, chains) = a_kulami_game_with_both_bonuses()
    outcome = board.outcome()
    winner, loser = outcome.winner, "w" if outcome.winner == "b" else "b"
    name = {"b": "Red", "w": "Black"}
    for size in SIZES:
        text = shown(board, size)
        assert (f"Panels: Red {panels.counted['b']} ({panels.points['b']} pts), "
                f"Black {panels.counted['w']} ({panels.points['w']} pts)") in text
        for label, part in (("Largest area", area), ("Chains of 5+", chains)):
            gainer = "b" if part.points["b"] else "w"
            assert (f"{label}: Red {part.counted['b']}, Black {part.counted['w']}: "
                    f"{name[gainer]} +{part.points[gainer]}") in text
        margin = outcome.scores[winner] - outcome.scores[loser]
        assert (f"{name[winner]} wins by {margin}, {outcome.scores[winner]} to "
                f"{outcome.scores[loser]}") in text


@pytest.mark.parametrize("scoring,parts", [(0, ["Panels"]),
                                           (1, ["Panels", "Largest area"]),
                                           (2, ["Panels", "Largest area", "Chains of 5+"])])
def test_each_kulami_scoring_level_lists_what_it_counts(scoring, parts):
    sheet = score_sheet(finished("kulami", 3, scoring=scoring))
    labels = [line.split(":")[0] for line in sheet[:-1]]
    assert labels == parts
    assert sheet[-1].startswith(("Red wins", "Black wins", "A draw"))


def test_a_conhex_end_screen_shows_cells_and_the_winning_chain():
    board = finished("conhex", 2)
    winner = board.outcome().winner
    chain = [int(c) for c in board.winning_chain(winner)]
    start, end = PLAYER_SIDES[winner]
    assert chain[0] in SIDES[start] and chain[-1] in SIDES[end]
    assert all(str(c) in board.owned(winner) for c in chain)
    assert all(b in NEIGHBOURS[a] for a, b in zip(chain, chain[1:]))
    text = shown(board)
    red, blue = len(board.owned("b")), len(board.owned("w"))
    assert f"Cells: Red {red}, Blue {blue}" in text
    # The chain in the players' words: the winner's holes in its cells, never the
    # engine's cell numbers.
    name = "Red" if winner == "b" else "Blue"
    sides = "top to bottom" if winner == "b" else "left to right"
    line = next(line for line in score_sheet(board)
                if line.startswith("The winning chain"))
    said = f"The winning chain, {sides}: {len(chain)} cells, held by {name} at "
    assert line.startswith(said) and said in text
    holes = line[len(said):].split()
    held = board.sensor_view()
    assert holes and all(held[hole] == winner for hole in holes)
    assert set(holes) == {hole for cell in chain for hole in board.areas[str(cell)]
                          if held.get(hole) == winner}
    assert not any(word.isdigit() for word in line.replace(said, "").split())
    assert winning_areas(board) == board.winning_chain(winner)
    assert f"{'Red' if winner == 'b' else 'Blue'} wins" in text
    assert " wins by " not in text  # a chain wins, not a margin of cells


def test_while_the_game_goes_on_there_is_no_sheet():
    board = new_game("kulami")
    board.push_text("d4")
    assert score_sheet(board) == []


def test_a_board_to_fix_after_the_end_shows_what_to_fix_not_the_sheet():
    board = finished("kulami", 3, scoring=1)
    status = Status(**{**status_of(board).__dict__, "message": "fix the board",
                       "message_kind": "sync", "sync_fill": frozenset({"d4"})})
    text = draw_status(pygame.Surface((800, 480)), View.of(board, status)).text
    assert "Put a piece on: d4" in text and "Panels:" not in text


def test_an_akron_end_screen_shows_the_balls_and_the_winning_chain_of_balls():
    board = new_game("akron")
    # White fills column a, red column o: white joins bottom and top.
    for row in range(1, 16, 2):
        board.push_text(f"1a{row}")
        board.push_text(f"1o{row}")
    sheet = score_sheet(board)
    assert sheet == ["Balls on the board: White 8, Red 8",
                     "The winning chain, bottom to top: balls "
                     + " ".join(f"1a{row}" for row in range(1, 16, 2)),
                     "White wins"]
    text = shown(board)
    assert "The winning chain, bottom to top: balls 1a1 1a3" in text
    assert winning_areas(board) == ()  # a chain of balls is lit on its holes, not areas
