"""A fifth game that differs needs no edit outside its door: Honeycomb (tests/honeycomb.py),
a hexagonal board with names in capitals, goes through the board protocol's geometry,
the page's snapshot, the screen's drawer, the setup of a scene and the terminal with
nothing of the product knowing it, only its registry entry put in for each test.

Before the geometry was the board's, the page, the terminal and the wiring read places
off names of lowercase letters and digits: every one of Honeycomb's cells would have
vanished from the page without a word."""

import json
import math
from types import MappingProxyType

import pygame
import pytest

import app.games
from app.games import game, new_game
from app.screen.boards import drawer_for
from app.web.snapshot import board_view
from engines.core import Place, PointError
from engines.gtp import moves_are_points
from tests import honeycomb
from tests.honeycomb import CELLS, ENTRY, NAME, ROW_STEP


@pytest.fixture(autouse=True)
def registered(monkeypatch):
    """Honeycomb in the registry for the length of a test, as its entry would be."""
    monkeypatch.setattr(app.games, "GAMES", MappingProxyType({**app.games.GAMES, NAME: ENTRY}))


def played(*moves):
    board = new_game(NAME)
    for move in moves:
        board.push_text(move)
    return board


def test_its_geometry_is_hexagonal_and_its_names_its_own():
    board = new_game(NAME)
    assert board.holes == CELLS and board.points == CELLS
    assert board.place("B2") == Place(1.5, ROW_STEP)
    for cell in CELLS:
        place = board.place(cell)
        assert board.point_at(place.x, place.y) == cell
    assert sorted(board.neighbours("B2")) == ["A2", "A3", "B1", "B3", "C1", "C2"]
    assert sorted(board.neighbours("A1")) == ["A2", "B1"]
    assert sorted(board.neighbours("C1")) == ["B1", "B2", "C2"]
    with pytest.raises(PointError, match="'b2' is not a cell"):
        board.place("b2")  # the shipped games' notation is not this one's


def test_it_is_played_and_won_through_its_own_neighbours():
    board = played("B1", "A1", "B2", "A2", "A3")  # b: B1-B2-A3 joins row 1 to row 3
    outcome = board.outcome()
    assert outcome is not None and outcome.winner == "b"
    assert board.winning_chain("b") == ()  # a game may leave the chain unnamed


def test_the_page_places_every_cell_where_the_board_does():
    board = played("B2", "A1")
    view = json.loads(json.dumps(board_view(board)))
    assert set(view["holes"]) == set(CELLS), "no cell vanishes from the page"
    assert view["holes"]["B2"] == [1.5, pytest.approx(ROW_STEP), 1]
    assert view["holes"]["A3"] == [1.0, pytest.approx(2 * ROW_STEP), 1]
    assert view["pieces"] == {"B2": "b", "A1": "w"} and view["last"] == ["A1"]
    assert [text for _, text in view["labels"]["columns"]] == ["A", "B", "C"]
    assert [text for _, text in view["labels"]["rows"]] == ["1", "2", "3"]
    assert view["shape"] == "marble"


def test_the_whole_snapshot_of_a_session_shows_it():
    from app.table.session import Session
    from app.web.snapshot import snapshot
    state = json.loads(json.dumps(snapshot(Session(played("B2")).view())))
    assert state["title"] == "Honeycomb" and state["game"] == NAME
    assert set(state["board"]["holes"]) == set(CELLS)
    assert set(state["lights"]) <= set(CELLS) and state["lights"]


def test_its_end_is_shown_on_the_screen_and_the_page_in_its_own_words():
    """The end of its game (a chain joining its sides) is a typed value, worded from its
    entry's sides and chain on the status screen and the page alike."""
    from app.screen.status import draw_status
    from app.table.session import Session
    from app.web.snapshot import snapshot
    view = Session(played("B1", "A1", "B2", "A2", "A3")).view()
    long = "Game over: red joins bottom and top with a chain of stones. Red wins."
    assert view.end.termination.value == "connection" and view.end_long == long
    assert snapshot(view)["end"]["short"] == "Red wins"
    pygame.init()
    drawn = draw_status(pygame.Surface((800, 480)), view)
    assert long in drawn.text and not drawn.overlaps()


def test_the_screen_lists_the_cells_out_of_place_in_board_order():
    """The status screen's sync lists name the cells to fill and to empty in the order
    the board places them (row by row from the bottom, each from the left), from the
    view's board, never sorted by reading the names (which gave A2 B1 C1)."""
    from dataclasses import replace
    from app.screen.status import draw_status
    from app.table.session import Session
    from app.table.view import View
    board = played()
    status = replace(Session(board).view().status, message_kind="sync",
                     message="The board and the game differ.",
                     sync_fill=frozenset({"A2", "C1", "B1"}),
                     sync_empty=frozenset({"C2", "A3", "B2"}))
    pygame.init()
    drawn = draw_status(pygame.Surface((800, 480)), View.of(board, status))
    assert "Put a piece on: B1 C1 A2" in drawn.text
    assert "Take the piece off: B2 C2 A3" in drawn.text


def test_a_drawer_draws_it_from_the_board_s_places():
    board = played("B2", "A1")
    area = pygame.Rect(0, 0, 500, 400)
    drawer = drawer_for(board, area)
    assert type(drawer) is honeycomb.HoneycombDrawer
    assert set(drawer.centres) == set(CELLS)
    for cell in CELLS:  # one unit between neighbours, rows shifted half a cell
        centre = drawer.centres[cell]
        assert area.collidepoint(centre) and drawer.hole_at(centre) == cell
        for near in board.neighbours(cell):
            assert math.dist(centre, drawer.centres[near]) == pytest.approx(drawer.unit,
                                                                            abs=1.5)
    assert drawer.centres["A2"][0] - drawer.centres["A1"][0] == pytest.approx(
        drawer.unit / 2, abs=1)
    assert drawer.centres["A2"][1] < drawer.centres["A1"][1], "row 2 above row 1"
    assert sorted(text for text, _ in drawer.labels()) == ["1", "2", "3", "A", "B", "C"]
    pygame.init()
    surface = pygame.Surface(area.size)
    drawer.draw(surface, board.piece_view(), hole_leds={"C3": (0, 255, 128)})
    red, blue = (player.piece for player in game(NAME).players.values())
    assert tuple(surface.get_at(drawer.centres["B2"]))[:3] == red
    assert tuple(surface.get_at(drawer.centres["A1"]))[:3] == blue
    assert tuple(surface.get_at(drawer.centres["C3"]))[:3] == (0, 255, 128)


def test_the_terminal_draws_it_row_by_row_from_its_places_and_gogui_is_not_offered():
    """A board that is not a square grid: the terminal draws the session's view, each
    row of cells on a line, each cell at its place across in half steps (the rows shift
    as the board's do), named by the board's own axes; what the view lights is marked
    (a hint too). GTP's GoGui commands (a square grid's) are not offered."""
    from app.cli.terminal import key, render
    from app.table.session import Session
    session = Session(played("B2", "A1"), seats={"b": "person", "w": "person"},
                      physical=False)
    assert render(session.view(), colour=False).splitlines() == [
        " 3   \u00b7 \u00b7 \u00b7",
        " 2  \u00b7 R \u00b7",
        " 1 B \u00b7 \u00b7",
        "   A B C"]
    session.hint()
    drawn = render(session.view(), colour=False)
    assert drawn.count("\u25c7") == 1 and drawn.count("\u00b7") == 6
    assert "\u25c7 Hint" in key(session.view(), colour=False)
    assert not moves_are_points(honeycomb.HoneycombBoard)


def test_no_product_module_names_it():
    from tests.test_game_names import code_words, modules, spellings
    spelled = spellings(ENTRY)
    assert not [path for path in modules() for _, word in code_words(path)
                if spelled.search(word)]


def test_the_table_words_its_cells_in_board_order_from_the_board_s_places():
    """Hole names in words are ordered by where the board places them (level, then row
    from the bottom, then from the left), never by parsing the name: a hexagonal board's
    rows are straight while its columns slant, and its capitals are its own."""
    from app.table.texts import holes, in_board_order
    from app.table.view import BoardView
    places = BoardView.of(new_game(NAME)).holes
    shuffled = ["C3", "A2", "B1", "B3", "A1", "C2", "A3", "C1", "B2"]
    assert in_board_order(shuffled, places) == list(CELLS)  # A1 B1 C1 A2 ... C3
    assert holes(shuffled, places, 4) == "A1 B1 C1 A2 and 5 more"
    akron = new_game("akron")
    points = {point: akron.place(point) for point in akron.points}
    assert in_board_order(["2d4", "1c3", "1e1", "1a5"], points) == ["1e1", "1c3", "1a5",
                                                                     "2d4"]
    with pytest.raises(KeyError):
        in_board_order(["b2"], places)  # a name the board does not place is an error
