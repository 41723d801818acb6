"""A resignation over the link, through a real mosquitto (tests/mosquitto.py): a player
resigns on their own turn on their board, the other board ends the game the same way,
both records say so, and it holds across a restart; a new game after it needs both
sides, as any new game does. Each wait is for something to happen (tests/test_remote.py)."""

from __future__ import annotations

from app.remote.far_board import FarGame, position_hash
from app.remote.sealing import seal
from app.table.ending import Termination
from app.table.session import State
from tests.test_remote import (Side, boards, connected, play,
                               typed, until)


def ended_by(side: Side, colour: str) -> bool:
    end = side.session.status().end
    return end is not None and end.termination is Termination.RESIGNATION \
        and end.loser == colour


def test_a_resignation_ends_the_game_on_both_boards(mosquitto, tmp_path):
    anna, ben = boards(mosquitto, tmp_path)
    try:
        play(anna, ben)
        ben.session.resign("w")  # Ben, on his turn, at his board
        assert ended_by(ben, "w")
        until(lambda: anna.session.state is State.OVER, anna, ben,
              what="the resignation on Anna's board")
        assert ended_by(anna, "w") and anna.session.resigned == "w"
        assert anna.session.view().end_long == "Game over: Red wins: black resigned."
        assert anna.game.resigned == ben.game.resigned == "w"
        assert anna.moves() == ben.moves() and len(anna.moves()) == 1
        assert anna.game.stopped == ben.game.stopped == ""
    finally:
        anna.link.stop()
        ben.link.stop()


def test_a_resigned_game_stays_ended_after_the_other_board_restarts(mosquitto, tmp_path):
    """Anna's board was off when Ben resigned: it learns it from the retained state when
    it comes back, and a second restart (its link's file says it already ended) does
    not resign again or say anything new."""
    anna, ben = boards(mosquitto, tmp_path, physical=False)
    try:
        typed(anna, ben)
        until(lambda: anna.game.peer_moves == anna.moves(), anna, ben, what="ben placed")
        anna.link.stop()
        ben.session.resign("w")
        ben.turn()
        anna = Side(FarGame.load(tmp_path / "anna" / "far.json"), mosquitto.config("anna"),
                    physical=False)
        until(lambda: anna.session.resigned == "w", anna, ben,
              what="the resignation caught up with")
        assert FarGame.load(tmp_path / "anna" / "far.json").resigned == "w"
        anna.link.stop()
        anna = Side(FarGame.load(tmp_path / "anna" / "far.json"), mosquitto.config("anna"),
                    physical=False)
        anna.session.resign("w", by="w")  # as its record has it, resumed
        seen = anna.game.peer_seq
        until(lambda: anna.game.peer_seq > seen, anna, ben, what="Ben's state again")
        assert anna.session.resigned == "w" and anna.game.stopped == ""
        assert not any("cannot resign" in line for line in anna.shown)  # not again
    finally:
        anna.link.stop()
        ben.link.stop()


def test_after_a_resignation_a_new_game_needs_both_boards(mosquitto, tmp_path):
    anna, ben = boards(mosquitto, tmp_path, physical=False)
    try:
        anna.session.resign("b")  # at once, before any move: nothing was sent yet
        until(lambda: ben.session.resigned == "b", anna, ben, what="Ben told")
        anna.session.undo()  # final: no takeback to offer
        assert "ended by resignation" in anna.session.message
        anna.session.new_game()
        until(lambda: ben.session.message_kind == "confirm", anna, ben,
              what="the new game offered on Ben's board")
        ben.session.new_game()
        typed(anna, ben)
        assert anna.game.round == ben.game.round == 1
        assert anna.game.resigned == ben.game.resigned == ""
        assert anna.session.resigned is None and ben.session.resigned is None
        assert anna.game.stopped == ben.game.stopped == ""
    finally:
        anna.link.stop()
        ben.link.stop()


def test_a_resignation_at_another_position_stops_the_game_with_one_line(mosquitto,
                                                                        tmp_path):
    """A board whose resignation comes with a record this board does not have (its own
    bug, or a board far behind) stops the game rather than end it differently."""
    anna, ben = boards(mosquitto, tmp_path, physical=False)
    try:
        typed(anna, ben)
        ben.link.stop()  # Ben's board says nothing more of its own, and then, faulty:
        game = ben.game
        faulty = connected(mosquitto.config("ben"), "ben-faulty")
        topic = game.topic("w", "state")
        faulty.publish(topic, seal(game.key("w"), topic, {
            "seq": game.seq + 1, "game": game.game, "n": 0, "moves": [],
            "hash": position_hash(game.board([])), "takebacks": 0, "round": 0,
            "resigned": "w"}), retain=True)
        until(lambda: anna.game.stopped != "", anna, what="Anna's board stopped")
        faulty.stop()
        assert anna.game.stopped == ("Ben's board resigned after move 0, where this board "
                                     "is after move 1")
        assert anna.session.resigned is None and anna.session.message_kind == "error"
    finally:
        anna.link.stop()
        ben.link.stop()
