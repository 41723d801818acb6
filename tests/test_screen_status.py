"""Every state the status screen must show, for every game that has landed, built from
real positions so the texts are the ones a player would see."""

from __future__ import annotations

import random
import re

from app.games import new_game
from app.table.ending import ending
from app.table.status import Status
from app.table.view import View
from engines.core import EngineError
from engines.players import choose_move

GAMES = {"kulami": {"layout": "square-1", "scoring": 1}, "conhex": {"pie": True, "handicap": 0},
         "akron": {}, "blokus-duo": {}}
SEATS = {"b": "person", "w": "engine"}


def played(game: str, plies: int, seed: int = 3):
    board = new_game(game, **GAMES[game])
    rng = random.Random(seed)
    while len(board.move_stack) < plies and not board.is_game_over():
        board.push(choose_move(board, 1, rng))
    return board


def snapshot(board, **changes) -> Status:
    values = dict(game=board.game, options=board.options, seats=SEATS, level=2,
                  turn=None if board.is_game_over() else board.turn, scores=board.scores(),
                  moves=tuple(board.move_text(m) for m in board.move_stack),
                  end=ending(board.outcome()),
                  in_hand=None if board.left_in_hand("b") is None
                  else {p: board.left_in_hand(p) for p in "bw"})
    values.update(changes)
    return Status(**values)


def view_of(status: Status) -> View:
    """The view of ``status``, on its game's board with its moves played (as far as
    they are that game's moves: a test's made-up list stops where they are not)."""
    board = new_game(status.game, **status.options)
    try:
        for move in status.moves:
            board.push_text(move)
    except EngineError:
        pass
    return View.of(board, status)


def finished(game: str):
    """A game played to its end at random (Akron's random games may wander: the first
    that ends within 300 actions)."""
    rng = random.Random(5)
    board = new_game(game, **GAMES[game])
    while not board.is_game_over():
        board.push(choose_move(board, 1, rng))
        if len(board.move_stack) > 300:
            board = new_game(game, **GAMES[game])
    return board


def states(game: str) -> dict[str, Status]:
    """State name -> Status: every message kind, thinking, candidates, and the end."""
    early, middle = played(game, 1), played(game, 22)
    legal = sorted(str(m) for m in middle.legal_moves)
    taken = sorted(middle.sensor_view())
    return {
        "start": snapshot(played(game, 0), message="Place a piece on any lit hole."),
        # The person's turn (in Blokus Duo, where a player who cannot place is passed
        # over, the board's may be the engine's).
        "playing": snapshot(middle, turn="b",
                            message="Your move: place a piece on a lit hole."),
        "illegal": snapshot(middle, message_kind="error",
                            message=f"{taken[0]} is taken: take the new piece away."),
        "sync": snapshot(middle, message_kind="sync",
                         message="The board and the game disagree: fix the lit holes.",
                         sync_fill=frozenset(taken[:11]), sync_empty=frozenset(legal[:2])),
        "waiting": snapshot(middle, turn="w", message_kind="waiting", pending=legal[0],
                            message="Place the engine's piece on the green hole."),
        "thinking": snapshot(middle, turn="w", thinking=0.4,
                             message="The engine is choosing its move."),
        "confirm-one": snapshot(early, message_kind="confirm", candidates=(legal[0],),
                                message="Is this the move you made?"),
        "confirm-several": snapshot(early, message_kind="confirm",
                                    candidates=("swap", legal[1]) if game == "conhex"
                                    else tuple(legal[:3]),
                                    message="The sensors cannot tell these apart."),
        "faults": snapshot(middle, message="Black played " + legal[0] + ".",
                           faults=(words.fault(taken[0], "stuck"),
                                   words.fault(legal[1], "chatter")),
                           saving=words.saving_fails("cannot save 000007-x.sgf: Disk full")),
        "over": snapshot(finished(game)),
    }


# --- the tests -------------------------------------------------------------------------

import pygame
import pytest

from app.games import game as game_info
from app.screen.paint import MESSAGE_COLOURS, TEXT, Action, Painter
from app.screen.status import (CONFIRM, HINT, MOVES, MOVES_SIZES, NEW, PENDING_SIZE, TURN,
                               UNDO, draw_status)
from app.table import texts as words

SIZES = [(800, 480), (1024, 600), (1920, 1080)]
CASES = [(game, name) for game in GAMES for name in states(game)]


@pytest.fixture(scope="module")
def all_states():
    return {game: states(game) for game in GAMES}


def render(status: Status, size=(800, 480), path=None):
    surface = pygame.Surface(size)
    drawn = draw_status(surface, view_of(status))
    if path is not None:
        pygame.image.save(surface, str(path))
        surface = pygame.image.load(str(path))
    return surface, drawn


def move_list(drawn, size, area=None) -> list[tuple[str, pygame.Rect]]:
    """The move list's lines as drawn: the texts in the Moves box but its title."""
    box = Painter(pygame.Surface(size), area).rect(*MOVES)
    return [(text, rect) for text, rect in drawn.texts
            if box.colliderect(rect) and not text.startswith("Moves (")]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game,name", CASES)
def test_every_state_fits_without_overlap_or_cut_text(all_states, game, name, size):
    surface, drawn = render(all_states[game][name], size)
    assert drawn.overlaps() == []
    assert drawn.outside(surface.get_rect()) == []


@pytest.mark.parametrize("game,name", CASES)
def test_every_state_shows_game_options_seats_turn_and_scores(all_states, game, name,
                                                              tmp_path):
    status = all_states[game][name]
    surface, drawn = render(status, path=tmp_path / f"{game}-{name}.png")
    text = drawn.text
    assert text.startswith(f"{words.title(game)}: ")
    assert words.options(game, status.options) in text
    assert f"{words.player(game, 'b')}: person" in text
    assert f"{words.player(game, 'w')}: engine level 2" in text
    for colour in "bw":
        assert f"{words.player(game, colour)} {status.scores[colour]}" in text
    hand = game_info(game).hand
    if hand:  # what each player has left to put down stands in for the label
        assert f"{status.in_hand['b']} / {status.in_hand['w']} {hand}" in text
    else:
        assert game_info(game).score_label(status.options) in text
    assert words.sentence(status.message) in text
    assert f"Moves ({len(status.moves)})" in text
    if status.moves:  # the list ends with the latest move, under its number
        lines = move_list(drawn, surface.get_size())
        assert lines[-1][0].endswith(status.moves[-1])
        number = f"{(len(status.moves) - 1) // 2 + 1}. "
        assert any(line.startswith(number) for line, _ in lines[-2:])
    # The turn disc, read back from the PNG, is the colour of the player it names.
    disc = Painter(surface).rect(TURN[0], TURN[1], 40, TURN[3]).center
    shown = status.end.winner if status.end else status.turn
    if shown is not None:
        assert surface.get_at(disc)[:3] == game_info(game).players[shown].piece


@pytest.mark.parametrize("game", GAMES)
def test_whose_turn_names_the_player_and_who_plays(all_states, game):
    _, drawn = render(all_states[game]["playing"])
    player = words.player(game, all_states[game]["playing"].turn)
    assert f"{player} to move (person)" in drawn.text
    _, drawn = render(all_states[game]["thinking"])
    assert f"{words.player(game, 'w')} to move (engine level 2)" in drawn.text


@pytest.mark.parametrize("game", GAMES)
def test_sync_mode_lists_the_holes_to_fill_and_to_empty(all_states, game):
    status = all_states[game]["sync"]
    _, drawn = render(status)
    places = view_of(status).board.holes  # in board order: row by row from the bottom
    fill = words.in_board_order(status.sync_fill, places)
    empty = words.in_board_order(status.sync_empty, places)
    assert f"Put a piece on: {' '.join(fill[:8])} and 3 more" in drawn.text
    assert f"Take the piece off: {' '.join(empty)}" in drawn.text


@pytest.mark.parametrize("game", GAMES)
def test_failing_saves_and_ignored_sensors_are_named_while_play_goes_on(all_states, game):
    status = all_states[game]["faults"]
    _, drawn = render(status)
    for fault in (status.saving, *status.faults):
        assert words.sentence(fault) in drawn.text
    assert status.message in drawn.text


@pytest.mark.parametrize("game", GAMES)
def test_the_engines_move_waiting_to_be_placed_is_shown_large(all_states, game):
    status = all_states[game]["waiting"]
    _, drawn = render(status)
    line = f"Engine's move: {status.pending}"
    height = {text: rect.height for text, rect in drawn.texts}
    message_lines = [t for t in height if status.message.startswith(t)]
    assert message_lines and height[line] > height[message_lines[0]]


@pytest.mark.parametrize("game", GAMES)
def test_the_engines_move_is_named_once_large_where_the_message_names_it(all_states, game):
    # The issue: "The engine plays X: place it there", then "Engine's move: X" too.
    waiting = all_states[game]["waiting"]
    move = waiting.pending
    status = Status(**{**waiting.__dict__,
                       "message": f"the engine plays {move}: place it there"})
    surface, drawn = render(status)
    named = [(text, rect) for text, rect in drawn.texts
             if move in (word.strip(".,:") for word in text.split())]
    assert len(named) == 1
    assert not [text for text, _ in drawn.texts if text.startswith("Engine's move:")]
    large = Painter(surface).font(PENDING_SIZE).get_height()
    assert named[0][1].height >= large


# The Moves panel: the whole window at 921x660 gives the status screen 461x660 beside
# the board; the others are whole screens.
WHERE = [((800, 480), None), ((1024, 600), None), ((921, 660), pygame.Rect(460, 0, 461, 660))]


@pytest.mark.parametrize("size,area", WHERE)
@pytest.mark.parametrize("game", GAMES)
def test_the_move_list_stays_in_its_box_in_one_size_and_shows_the_latest_move(
        all_states, game, size, area):
    """The issue: Blokus Duo's moves (``k4,j5,k5,l5,k6``) ran past the box and the
    window's edge, each line shrunk to its own size."""
    for name in ("playing", "over"):
        status = all_states[game][name]
        surface = pygame.Surface(size)
        drawn = draw_status(surface, view_of(status), area)
        paint = Painter(surface, area)
        box = paint.rect(*MOVES)
        lines = move_list(drawn, size, area)
        assert lines, (game, name)
        assert [text for text, rect in lines if not box.contains(rect)] == []
        # One size for every line: each is exactly its text drawn in that size.
        sizes = [s for s in MOVES_SIZES
                 if all(paint.font(s).render(text, True, TEXT).get_size() == rect.size
                        for text, rect in lines)]
        assert sizes, [(text, rect.size) for text, rect in lines]
        # Scrolled to the end: the latest move last, whole pairs from a number down.
        assert lines[-1][0].endswith(status.moves[-1])
        assert re.match(r"\d+\. ", lines[0][0])
        tops = [rect.top for _, rect in lines]
        assert tops == sorted(tops) and len(set(tops)) == len(tops)


def test_a_pair_too_long_for_a_line_puts_its_second_move_under_the_first():
    moves = ("f9,e10,f10,g10,f11", "k4,j5,k5,l5,k6", "c12,d12,d13,e13,f13")
    status = snapshot(new_game("blokus-duo"), moves=moves)
    surface, drawn = render(status)
    lines = move_list(drawn, (800, 480))
    assert [text for text, _ in lines] == ["1. f9,e10,f10,g10,f11", "k4,j5,k5,l5,k6",
                                           "2. c12,d12,d13,e13,f13"]
    number_width = Painter(surface).font(MOVES_SIZES[-1]).size("1. ")[0]
    assert lines[1][1].left == lines[0][1].left + number_width  # under the first move


def test_thinking_shows_a_progress_bar_that_grows(all_states):
    status = all_states["kulami"]["thinking"]
    bar_colour = MESSAGE_COLOURS["waiting"]

    def filled(progress):
        surface, drawn = render(Status(**{**status.__dict__, "thinking": progress}))
        assert "Engine thinking" in drawn.text
        return sum(1 for x in range(surface.get_width())
                   for y in range(330, 400, 4) if surface.get_at((x, y))[:3] == bar_colour)

    quarter, three_quarters = filled(0.25), filled(0.75)
    assert 0 < quarter < three_quarters
    assert three_quarters == pytest.approx(3 * quarter, rel=0.15)
    surface, drawn = render(all_states["kulami"]["playing"])
    assert "Engine thinking" not in drawn.text


@pytest.mark.parametrize("game", GAMES)
def test_buttons_return_their_actions_and_disabled_ones_nothing(all_states, game):
    _, drawn = render(all_states[game]["playing"])
    tap = lambda label: drawn.action_at(drawn.button(label).rect.center)
    assert tap("New game") == Action(NEW)
    assert tap("Hint") == Action(HINT)
    assert tap("Undo") == Action(UNDO)
    assert tap("Confirm") is None  # nothing to confirm
    assert drawn.action_at((0, 0)) is None
    _, drawn = render(all_states[game]["thinking"])  # the engine's turn: no hint
    assert drawn.action_at(drawn.button("Hint").rect.center) is None
    _, drawn = render(all_states[game]["start"])  # no move yet: no undo
    assert drawn.action_at(drawn.button("Undo").rect.center) is None


@pytest.mark.parametrize("game", GAMES)
def test_one_candidate_is_confirmed_by_the_confirm_button(all_states, game):
    status = all_states[game]["confirm-one"]
    _, drawn = render(status)
    confirm = drawn.button("Confirm")
    assert drawn.action_at(confirm.rect.center) == Action(CONFIRM, status.candidates[0])


@pytest.mark.parametrize("game", GAMES)
def test_several_candidates_are_each_a_button(all_states, game):
    status = all_states[game]["confirm-several"]
    _, drawn = render(status, (1024, 600))
    assert "Tap the move you made:" in drawn.text
    for move in status.candidates:
        assert drawn.action_at(drawn.button(move).rect.center) == Action(CONFIRM, move)
    assert drawn.action_at(drawn.button("Confirm").rect.center) is None


@pytest.mark.parametrize("game", GAMES)
def test_game_over_names_the_winner_and_the_reason(all_states, game):
    status = all_states[game]["over"]
    _, drawn = render(status)
    end = status.end
    winner = f"{words.player(game, end.winner)} wins" if end.winner else "A draw"
    assert winner in drawn.text
    long = words.sentence(words.end_long(game, end))
    assert long in drawn.text
    for line in view_of(status).sheet:  # the score sheet, then how it ended
        assert drawn.text.index(line) < drawn.text.index(long)
    assert "to move" not in drawn.text
    assert drawn.action_at(drawn.button("Hint").rect.center) is None


def test_a_long_move_list_shows_the_latest_moves(all_states):
    status = all_states["kulami"]["over"]
    _, drawn = render(status)
    last = len(status.moves) - 1
    assert f"{last // 2 + 1}. " in drawn.text
    assert "1. " + status.moves[0] not in [t for t, _ in drawn.texts]


def test_messages_start_with_a_capital():
    status = states("kulami")["start"]
    _, drawn = render(Status(**{**status.__dict__, "message": "the engine plays d4"}))
    assert "The engine plays d4" in drawn.text


@pytest.mark.parametrize("scoring,label", [(0, "panels"), (1, "panels + largest area"),
                                           (2, "panels + area + chains")])
def test_the_score_label_says_what_each_kulami_scoring_level_counts(scoring, label):
    board = new_game("kulami", scoring=scoring)
    for size in SIZES:
        surface, drawn = render(snapshot(board), size)
        [(_, rect)] = [(t, r) for t, r in drawn.texts if t == label]
        assert drawn.outside(surface.get_rect()) == [] and drawn.overlaps() == []
        scores = [r for t, r in drawn.texts if t in ("Red 0", "Black 0")]
        assert len(scores) == 2
        assert all(rect.left >= r.right for r in scores)  # beside the scores, not on them
    assert game_info("conhex").score_label(new_game("conhex").options) == "cells"


def test_options_read_as_words():
    from engines.kulami.layout import named_layouts
    assert words.options("kulami", {"layout": named_layouts()["cross"], "scoring": 2,
                                    "chain_lines": "all"}) == \
        "layout cross, scoring level 2, all chains"
    assert words.options("kulami", {"layout": "random:7", "scoring": 0}) == \
        "layout random:7, scoring level 0"
    custom = new_game("kulami", layout="random-free:4").options["layout"]
    assert words.options("kulami", {"layout": custom, "scoring": 0}).startswith(
        "layout of your own")
    assert words.options("conhex", {"pie": False, "handicap": 3}) == "no pie rule, handicap 3"


def test_a_move_made_by_button_is_offered_with_what_it_does():
    from app.screen.status import PLAY
    board = new_game("conhex", pie=True)
    board.push_text("f6")
    status = snapshot(board, seats={"b": "person", "w": "person"})
    for size in SIZES:
        surface = pygame.Surface(size)
        drawn = draw_status(surface, view_of(status), None)
        assert drawn.outside(surface.get_rect()) == [] and drawn.overlaps() == []
        swap = drawn.button("Swap")
        assert drawn.action_at(swap.rect.center) == Action(PLAY, "swap")
        assert "Blue may swap: take over Red's first gem, and Red moves next" in drawn.text
    _, drawn = render(snapshot(board))  # the engine's turn: not offered, no button
    assert "Swap" not in [b.label for b in drawn.buttons]


def test_the_console_offers_the_swap_only_while_a_person_may_take_it():
    from app.screen.console import Console
    from app.table.session import Session
    board = new_game("conhex", pie=True)
    session = Session(board, seats={"b": "person", "w": "person"})
    console = Console(session, ("conhex",))
    assert console.offers() == ()
    board.push_text("f6")
    session.revision += 1  # moved on the board itself: the session's view is made anew
    assert console.offers() == ("swap",)
    surface = pygame.Surface((800, 480))
    console.draw(surface)
    console.tap(console.drawn.button("Swap").rect.center)
    assert [board.move_text(m) for m in session.board.move_stack] == ["f6", "swap"]
    assert console.offers() == ()  # red to move now
    for seats, pie, offered in ((({"b": "person", "w": "engine"}), True, ()),
                                (({"b": "person", "w": "person"}), False, ())):
        board = new_game("conhex", pie=pie)
        board.push_text("f6")
        session = Session(board, seats=seats)
        session.pending = None  # the engine still thinking
        assert Console(session, ("conhex",)).offers() == offered


def test_the_engines_swap_waiting_to_be_made_is_a_button():
    from app.screen.console import Console
    from app.table.session import Session
    from engines.conhex.board import SWAP
    board = new_game("conhex", pie=True)
    board.push_text("f6")
    session = Session(board, seats={"b": "person", "w": "engine"})
    session.pending = SWAP  # what the engine chose, for a person to make
    console = Console(session, ("conhex",))
    assert console.offers() == ("swap",)
    console.draw(pygame.Surface((800, 480)))
    console.tap(console.drawn.button("Swap").rect.center)
    assert [board.move_text(m) for m in session.board.move_stack] == ["f6", "swap"]


# --- the legend: what the lights mean ------------------------------------------------------

LEGEND_SIZES = [(800, 480), (1280, 720)]


def lamp_runs(surface, row_y, left, right, colour):
    """The stretches of ``colour`` along pixel row ``row_y`` from ``left`` to ``right``."""
    runs, inside = 0, False
    for x in range(left, right):
        hit = surface.get_at((x, row_y))[:3] == colour
        runs += hit and not inside
        inside = hit
    return runs


@pytest.mark.parametrize("size", LEGEND_SIZES)
@pytest.mark.parametrize("game,name", CASES)
def test_the_legend_names_each_light_in_use_beside_a_lamp_of_its_colour(all_states, game,
                                                                        name, size):
    from app.colours import role_of
    from app.screen.legend import TITLE
    from app.table.legend import legend_roles, meaning
    from app.screen.status import LEGEND
    from app.table.scene import role_colour
    status = all_states[game][name]
    surface, drawn = render(status, size)
    roles = legend_roles(status)
    # A finished Blokus Duo game lights nothing: it has no areas to own or win.
    assert roles or (game, name) == ("blokus-duo", "over")
    assert TITLE in [text for text, _ in drawn.texts]
    legend = Painter(surface).rect(*LEGEND)
    for role in roles:
        words_for = meaning(status, role)
        rects = [rect for text, rect in drawn.texts if text == words_for
                 and legend.contains(rect)]
        assert len(rects) == 1, (role, words_for)
        colour = role_colour(game, role)
        runs = lamp_runs(surface, rects[0].centery, legend.x, rects[0].x, colour)
        # a lamp in the LED's own colour; a blinking role's unlit lamp beside it, a ring
        # of that colour crossed twice
        assert runs == (3 if role_of(role)[0].blink else 1), (role, colour, runs)


def test_the_legend_follows_the_state(all_states):
    from app.table.legend import legend_roles
    kulami = all_states["kulami"]
    start = snapshot(played("kulami", 0))
    assert legend_roles(start) == ["legal"]
    assert legend_roles(kulami["sync"]) == ["fill", "empty"]
    assert legend_roles(kulami["illegal"])[0] == "error"
    assert legend_roles(kulami["waiting"])[0] == "suggestion"
    assert legend_roles(kulami["confirm-several"])[:2] == ["suggestion", "candidate"]
    assert legend_roles(kulami["faults"])[0] == "fault"
    over = kulami["over"]
    winner, loser = over.end.winner, over.end.loser
    assert f"won_{winner}" in legend_roles(over) and "legal" not in legend_roles(over)
    assert legend_roles(snapshot(played("kulami", 0), state="setup")) == ["setup"]
    assert f"owned_{loser}" in legend_roles(over) or not over.scores.get(loser)


def test_the_legend_words_name_the_players_and_the_moment(all_states):
    from app.table.legend import meaning
    kulami = all_states["kulami"]
    assert meaning(kulami["playing"], "owned_w") == "Owned by Black"
    assert meaning(all_states["conhex"]["playing"], "owned_w") == "Owned by Blue"
    assert meaning(kulami["waiting"], "suggestion") == "Engine's move"
    assert meaning(kulami["confirm-several"], "suggestion") == "Move chosen"
    # A hint is known by its kind, whatever the message says (an outside engine that
    # gave up says so in place of the hint's words).
    failed = words.outside_engine_failed("pentobi-gtp", "it resigned")
    assert meaning(snapshot(played("kulami", 3), hint="d4", message=failed),
                   "suggestion") == "Hint"
    assert meaning(kulami["playing"], "legal") == "Legal move"


def test_the_legend_shows_the_roles_the_board_lights():
    """Driven through a real session: the legend names every role the scene lights (a
    piece just noticed, lit for less than a settle time, aside) and nothing else, but
    for an owned panel the status cannot tell is hidden under the off-limits light."""
    from app.hardware.sensors import SimulatedSensors
    from app.table.legend import legend_roles
    from app.table.session import Session

    board = new_game("kulami")
    session = Session(board, seats={"b": "person", "w": "person"}, seed=1)
    sensors = SimulatedSensors(board.holes)
    t = [0.0]

    def put(hole, on=True):
        t[0] += 0.2
        (sensors.place if on else sensors.lift)(hole)
        for name, value in sensors.read().items():
            session.on_reading(name, value, t[0])
        t[0] += 2.0
        session.tick(t[0])

    def lit():
        return {role for role in session.scene().roles().values()} - {"seen"}

    seen = []
    session.tick(0.0)
    session.new_game()  # laying out the panels first
    assert session.setting_up
    seen.append((legend_roles(session.status()), lit()))
    session.confirm()
    for hole in ("d4", "d7", "b7", "b2"):
        seen.append((legend_roles(session.status()), lit()))
        put(hole)
    put("e5")  # not legal: an error
    seen.append((legend_roles(session.status()), lit()))
    put("e5", on=False)
    session.hint()
    session.tick(t[0] + 5)
    seen.append((legend_roles(session.status()), lit()))
    put("b7", on=False)  # a piece gone: sync mode
    seen.append((legend_roles(session.status()), lit()))
    for shown, lights in seen:
        assert lights <= set(shown) <= lights | {"owned_b", "owned_w"}, (shown, lights)
    assert {"setup", "legal", "last", "off_limits", "owned_b", "owned_w", "error",
            "suggestion", "fill"} <= {role for shown, _ in seen for role in shown}


def test_many_candidates_show_the_picked_one_first_and_a_button_for_more(all_states):
    middle = played("akron", 40)
    moves = tuple(sorted(str(m) for m in middle.legal_moves))[:9]
    status = snapshot(middle, message_kind="confirm", candidates=moves, choice=4,
                      message=words.WHICH_MOVE)
    _, drawn = render(status, (1024, 600))
    chips = [move for move in moves if move in drawn.text]
    assert chips == list(moves[4:7])  # the picked one (lit on the board) and the next
    more = drawn.button("More (9)")
    assert drawn.action_at(more.rect.center) == Action(HINT, "3")
    assert drawn.action_at(drawn.button(moves[4]).rect.center) == Action(CONFIRM, moves[4])


def test_moves_the_sensors_cannot_see_are_offered_through_confirm():
    middle = played("akron", 40)
    status = snapshot(middle, unseen=12, message="Your move.")
    _, drawn = render(status)
    assert "Moved a piece the sensors cannot see? Press Confirm." in drawn.text
    assert drawn.action_at(drawn.button("Confirm").rect.center) == Action(CONFIRM)
    _, drawn = render(snapshot(middle, message="Your move."))
    assert drawn.action_at(drawn.button("Confirm").rect.center) is None
    assert "cannot see" not in drawn.text


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_web_page_s_address_and_code_follow_the_players_line(name):
    from app.screen.status import draw_status
    surface = pygame.Surface((800, 480))
    status = snapshot(played(name, 3))
    note = "web code 424242"
    drawn = draw_status(surface, view_of(status), note=note)
    assert "code 424242" in drawn.text
    assert drawn.overlaps() == [] and drawn.outside(surface.get_rect()) == []


def test_a_takeback_a_player_away_offered_is_accepted_by_the_table_s_confirm():
    """Offered from the page, the takeback waits for the table: its Confirm is lit and
    takes the moves back; before the offer, Confirm stays grey."""
    from app.screen.console import Console
    from app.table.session import Session

    board = new_game("kulami", layout="square-1")
    session = Session(board, seats={"b": "person", "w": "remote"}, physical=False)
    board.push_text("d4")
    board.push_text("d7")
    console = Console(session, ["kulami"])
    surface = pygame.Surface((800, 480))
    assert not console.draw(surface).button("Confirm").enabled
    session.offer_takeback("w")
    drawn = console.draw(surface)
    assert drawn.button("Confirm").enabled
    console.tap(drawn.button("Confirm").rect.center)
    assert [board.move_text(m) for m in session.board.move_stack] == ["d4"]
    assert session.offer is None


def test_confirm_finishes_laying_out_the_board():
    """Kulami's panels are laid out before play: the session takes Confirm as "laid
    out", so the screen's Confirm is lit then (it was grey, and only a first marble
    ended the setup; make pi-boot's tap found it)."""
    from app.screen.console import Console
    from app.table.session import Session

    session = Session.start_new(None, "kulami", {"layout": "square-1"},
                                seats={"b": "person", "w": "person"})
    assert session.setting_up
    console = Console(session, ["kulami"])
    surface = pygame.Surface((800, 480))
    drawn = console.draw(surface)
    assert drawn.button("Confirm").enabled
    console.tap(drawn.button("Confirm").rect.center)
    assert not session.setting_up


@pytest.mark.parametrize("game", GAMES)
def test_a_player_away_s_own_move_is_named_as_theirs_not_the_engine_s(all_states, game):
    """Issue 32: a browser player's move waiting to be placed was called "Engine's
    move" in the legend and on the screen."""
    from app.table.legend import meaning
    waiting = all_states[game]["waiting"]
    theirs = Status(**{**waiting.__dict__, "seats": {"b": "person", "w": "remote"},
                       "message": "place it"})
    name = words.player(game, "w")
    assert meaning(theirs, "suggestion") == f"{name}'s move"
    view = view_of(theirs)
    [row] = [row for row in view.legend if row.role == "suggestion"]
    assert row.meaning == f"{name}'s move" and row.player == "w"
    _, drawn = render(theirs)
    assert f"{name}'s move: {theirs.pending}" in drawn.text
    assert "Engine's move" not in drawn.text
