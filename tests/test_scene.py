"""LED scenes light what rules.md says, in the documented colours, under the current cap."""

import pytest
from hypothesis import given, settings, strategies as st

from app.colours import ROLE_COLOURS, SETUP_COLOURS
from app.games import game, new_game
from app.hardware.leds import SimulatedStrip, frame_ma
from app.hardware.profile import load_profile
from app.sensing.events import OutOfSync
from app.table.scene import (DIM, Light, Scene, game_scene, role_colour, setup_scene,
                             single_scene)

PROFILE = load_profile("kulami-sim")
RED, BLUE = game("kulami").players["b"].led, game("kulami").players["w"].led


def kulami(*moves, **options):
    board = new_game("kulami", **options)
    for move in moves:
        board.push_text(move)
    return board


def panel_holes(board, hole):
    return next(holes for holes in board.areas.values() if hole in holes)


def test_legal_targets_follow_the_move_rule_in_their_own_colour():
    board = kulami("d4", "d7", "b7")
    scene = game_scene(board)
    banned = panel_holes(board, "d7") | panel_holes(board, "b7")
    expected = {h for h in board.holes if (h[0] == "b" or h[1:] == "7") and h not in banned
                and h not in ("d4", "d7", "b7")}
    assert (scene.named("legal") & set(board.holes)) == expected
    assert {scene.lights[h].colour for h in expected} == {ROLE_COLOURS["legal"]}
    red_turn = game_scene(kulami("d4", "d7"))
    assert {red_turn.lights[h].colour for h in red_turn.named("legal")} == \
        {ROLE_COLOURS["legal"]}


@pytest.mark.parametrize("name", ["kulami", "conhex"])
def test_a_new_game_does_not_glow_in_a_player_s_or_the_error_colour(name):
    """At the start every hole is a legal target: the board must not glow red (the red
    player's colour, and the error's), nor blue, nor blink."""
    board = new_game(name)
    lights = game_scene(board).lights.values()
    assert {light.role for light in lights} == {"legal"}
    players = {player.led for player in game(name).players.values()}
    assert {light.colour for light in lights} == {ROLE_COLOURS["legal"]}
    assert ROLE_COLOURS["legal"] not in players | {ROLE_COLOURS["error"]}
    assert not any(light.blink for light in lights)


def test_the_last_two_panels_are_off_limits_and_the_last_marble_is_white():
    board = kulami("d4", "d7", "b7")
    scene = game_scene(board)
    banned = panel_holes(board, "d7") | panel_holes(board, "b7")
    assert (scene.named("off_limits") & set(board.holes)) == banned - {"b7"}
    assert scene.lights["b7"] == Light("last", ROLE_COLOURS["last"])
    assert ROLE_COLOURS["off_limits"] not in (RED, BLUE)


def test_owned_panels_glow_dimly_in_the_owners_colour():
    board = kulami("d4", "d7", "b7")
    scene = game_scene(board)
    panel = panel_holes(board, "d4")
    assert (scene.named("owned_b") & set(board.holes)) == panel
    assert scene.lights["e4"].colour == tuple(int(c * DIM) for c in RED)
    assert not scene.lights["e4"].blink
    assert len({role_colour("kulami", r) for r in ("owned_b", "off_limits", "owned_w")}) == 3


def test_sync_mode_lights_only_holes_to_fill_and_to_empty():
    scene = game_scene(kulami("d4", "d7"), sync=OutOfSync(frozenset({"d7"}), frozenset({"a1"})))
    assert scene.roles() == {"d7": "fill", "a1": "empty"}
    assert scene.lights["d7"].colour == ROLE_COLOURS["fill"]
    assert scene.lights["a1"].colour == ROLE_COLOURS["empty"]


def test_suggestion_error_and_candidates_blink_over_the_game():
    scene = game_scene(kulami("d4"), suggestion={"d7"}, error={"a1"}, candidates={"d8"})
    assert scene.lights["d7"] == Light("suggestion", ROLE_COLOURS["suggestion"], True)
    assert scene.lights["a1"] == Light("error", ROLE_COLOURS["error"], True)
    assert scene.lights["d8"] == Light("candidate", ROLE_COLOURS["candidate"], True)
    assert scene.lights["d6"].role == "legal"


def test_legal_targets_can_be_kept_for_hints():
    assert not game_scene(kulami("d4"), show_legal=False).named("legal")


def test_at_the_end_the_winners_panels_shine_steadily_and_nothing_is_legal():
    board = new_game("kulami")
    while not board.is_game_over():
        board.push(min(board.legal_moves, key=str))
    outcome = board.outcome()
    scene = game_scene(board)
    assert outcome.winner is not None
    won = (scene.named(f"won_{outcome.winner}") & set(board.holes))
    owned = board.lights().owned[outcome.winner]
    assert won == {h for area in owned for h in board.areas[area]}
    winner = game("kulami").players[outcome.winner].led
    # Full strength, steady: a blinking red would read as an error on the red winner's panels.
    assert {scene.lights[h] for h in won} == {Light(f"won_{outcome.winner}", winner)}
    assert not scene.named("legal") and not scene.named("last")


@pytest.mark.parametrize("layout", ["random:7", "square-3", "square-4", "cross"])
def test_the_setup_scene_shows_every_panel_with_touching_panels_apart(layout):
    board = kulami(layout=layout)
    scene = setup_scene(board)
    assert set(scene.lights) == set(board.holes)
    colour_of = {area: scene.lights[next(iter(holes))].colour
                 for area, holes in board.areas.items()}
    for area, holes in board.areas.items():
        assert {scene.lights[h].colour for h in holes} == {colour_of[area]}
    for a in board.holes:
        for b in board.holes:
            if abs(ord(a[0]) - ord(b[0])) + abs(int(a[1:]) - int(b[1:])) == 1:
                area_a = next(n for n, h in board.areas.items() if a in h)
                area_b = next(n for n, h in board.areas.items() if b in h)
                if area_a != area_b:
                    assert colour_of[area_a] != colour_of[area_b]
    assert set(colour_of.values()) <= set(SETUP_COLOURS)


def test_games_without_loose_panels_have_an_empty_setup_scene():
    assert setup_scene(new_game("conhex")).lights == {}


def test_a_frame_puts_each_hole_on_its_leds_and_blinks():
    scene = Scene({"a1": Light("fill", (0, 255, 0)), "b1": Light("error", (255, 0, 0), True),
                   "z99": Light("fill", (0, 255, 0))})
    lit = scene.frame(PROFILE)
    assert lit[PROFILE.holes["a1"].leds[0]] == (0, 255, 0)
    assert lit[PROFILE.holes["b1"].leds[0]] == (255, 0, 0)
    assert sum(c != (0, 0, 0) for c in lit) == 2
    dark = scene.frame(PROFILE, blink_on=False)
    assert dark[PROFILE.holes["b1"].leds[0]] == (0, 0, 0)
    assert dark[PROFILE.holes["a1"].leds[0]] == (0, 255, 0)


def test_area_lights_go_to_area_leds_where_the_profile_has_them():
    profile = load_profile("conhex-sim")
    board = new_game("conhex")
    area = next(iter(board.areas))
    frame = Scene({area: Light("owned_b", (9, 0, 0))}).frame(profile)
    assert [i for i, c in enumerate(frame) if c == (9, 0, 0)] == list(profile.areas[area])


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 55), st.integers(0, 2**32))
def test_no_scene_draws_more_than_the_cap(moves, seed):
    import random
    rng = random.Random(seed)
    board = new_game("kulami")
    for _ in range(moves):
        if board.is_game_over():
            break
        board.push(rng.choice(board.legal_moves))
    strip = SimulatedStrip(PROFILE.led_count, brightness=1.0, max_ma=400)
    strip.show(game_scene(board, error={"a1"}).frame(PROFILE))
    strip.show(setup_scene(board).frame(PROFILE))
    assert all(frame_ma(frame) <= 400 for frame in strip.frames)


def test_the_holes_of_a_move_are_what_it_fills():
    board = kulami("d4")
    assert board.holes_of(board.parse_move("d7")) == {"d7"}
    assert [str(m) for m in board.move_stack] == ["d4"]


def test_single_scene_lights_one_role():
    assert single_scene(["c3"], "fill").roles() == {"c3": "fill"}


def test_the_first_gem_blinks_while_the_swap_may_take_it():
    """ConHex's swap changes no hole's occupancy: the gem it would take blinks as a
    candidate for the player who may swap, and only then."""
    from app.table.session import Session

    people = {"b": "person", "w": "person"}
    game = Session(new_game("conhex"), seats=people)
    assert game.scene().named("candidate") == frozenset()  # no gem yet
    game.board.push_text("f6")
    assert game.scene().named("candidate") == {"f6"}
    game.board.push_text("c2")
    assert game.scene().named("candidate") == frozenset()  # too late to swap
    no_pie = Session(new_game("conhex", pie="false"), seats=people)
    no_pie.board.push_text("f6")
    assert no_pie.scene().named("candidate") == frozenset()
    kulami = Session(new_game("kulami"), seats=people)
    kulami.board.push_text("d4")
    assert kulami.scene().named("candidate") == frozenset()
