"""How an invitation ends, and how a board comes back into a game agreed as it stopped,
through a real mosquitto: a cancel ends the invitation's thread at once, the joining
board's refusal (a game it does not play, its person cancelling) reaches the inviting
board as one line, sealed, and a game agreed just before the board stopped is the one
it plays at its next start, in a record of its own.

The tables are tests/test_remote_play.py's: a session with no board and the flow,
turned as ``tabletop run`` turns them. Every wait is for something to happen, with a
generous limit; nothing is timed."""

from __future__ import annotations

import json
import threading

import pytest

from app.errors import InvitationError
from app.remote.far_board import FarBoard, FarGame
from app.remote.invitation import Guest, Host
from app.remote.play import AGREED, FAILED, IDLE, JOINING, FarPlay, far_game_path
from app.remote.sealing import seal
from app.table.seats import Person
from app.table.session import Session
from app.table.store import RecordStore
from tests.test_remote import connected
from tests.test_remote_play import (CLUB, LIMIT_S, offered, tables,  # noqa: F401
                                    until)


def threads_started_by(action) -> list[threading.Thread]:
    before = set(threading.enumerate())
    action()
    return [thread for thread in threading.enumerate() if thread not in before]


def test_a_cancelled_offer_ends_its_thread_at_once(tables):
    anna = tables("anna", "Anna")  # an offer waits ten minutes for a board to join
    started = threads_started_by(lambda: offered(anna))
    invitation = [thread for thread in started if thread.name == "far-invitation"]
    assert len(invitation) == 1
    anna.far.cancel()
    invitation[0].join(LIMIT_S)
    assert not invitation[0].is_alive()


def test_a_cancelled_join_ends_its_thread_at_once(tables):
    ben = tables("ben", "Ben", answer_s=600.0)  # waits for an offer nobody made
    started = threads_started_by(lambda: ben.far.join("ZZZZ-ZZZZ"))
    until(lambda: ben.far.state.phase == JOINING, ben, what="the join under way")
    ben.far.cancel()
    for thread in started:
        thread.join(LIMIT_S)
        assert not thread.is_alive(), thread.name


def test_the_inviting_board_is_told_the_joining_board_does_not_play_its_game(tables):
    anna = tables("anna", "Anna", games=("conhex",))
    ben = tables("ben", "Ben")  # a Kulami board
    ben.far.join(offered(anna, "conhex", {}))
    until(lambda: anna.far.state.phase == FAILED and ben.far.state.phase == FAILED,
          anna, ben, what="both boards said the game is refused")
    assert anna.far.state.line == ("Ben's board does not play ConHex: the invitation is "
                                   "withdrawn")
    assert ben.far.state.line == "the invitation is for ConHex; this board plays Kulami"
    assert anna.link is None and ben.link is None
    kept = [list(table.far.path.parent.glob("*")) for table in (anna, ben)]
    assert kept == [[], []]  # no game kept on either board
    anna.far.cancel()  # the screen's Back: the inviting board is idle, and may offer again
    assert anna.far.state.phase == IDLE and anna.far.state.line == ""


class Listener:
    """Every message on the invitation's topics, as a third client of the broker sees
    them: here, to know that a board has answered before going on."""

    def __init__(self, broker, topic: str) -> None:
        self.seen: list[tuple[str, bytes]] = []
        broker.subscribe(topic + "/#", lambda where, payload: self.seen.append(
            (where, payload)))

    def on(self, topic: str) -> list[bytes]:
        return [payload for where, payload in list(self.seen) if where == topic]


def test_a_joining_board_whose_person_cancels_says_so_to_the_inviting_board(mosquitto):
    anna = connected(mosquitto.config("anna"), "anna-invites")
    ben = connected(mosquitto.config("ben"), "ben-joins")
    eve = connected(mosquitto.config("eve"), "eve")
    try:
        # Anna's offer listens from the start; it answers once its wait begins.
        host = Host(anna, CLUB, "kulami", {}, "b", "Anna")
        seen = Listener(eve, host.topic)
        guest = Guest(ben, CLUB, host.code, "Ben")
        outcome = {}

        def joining():
            try:
                guest.wait(LIMIT_S * 20)
            except InvitationError as error:
                outcome["ben"] = str(error)

        waiting = threading.Thread(target=joining)
        waiting.start()
        until(lambda: seen.on(host.topic + "/join"), what="Ben's board answered the offer")
        guest.cancel()  # Ben's person pressed Back while the board waits for the game
        waiting.join(LIMIT_S)
        assert not waiting.is_alive() and outcome["ben"] == "cancelled"
        with pytest.raises(InvitationError) as refused:
            host.wait(LIMIT_S)
        assert str(refused.value) == ("Ben's board cancelled joining: the invitation is "
                                      "withdrawn")
    finally:
        for broker in (anna, ben, eve):
            broker.stop()


def test_a_refusal_nobody_sealed_does_not_end_the_invitation(mosquitto):
    """Eve reads the invitation's topics and sends refusals of her own, unsealed and
    sealed under a key of her own, after Ben's board answered and before it takes the
    game: the game is agreed all the same."""
    anna = connected(mosquitto.config("anna"), "anna-invites")
    ben = connected(mosquitto.config("ben"), "ben-joins")
    eve = connected(mosquitto.config("eve"), "eve")
    try:
        host = Host(anna, CLUB, "kulami", {}, "b", "Anna")
        seen = Listener(eve, host.topic)
        guest = Guest(ben, CLUB, host.code, "Ben")
        agreed = {}
        waiting = threading.Thread(target=lambda: agreed.update(ben=guest.wait(LIMIT_S)))
        waiting.start()
        until(lambda: seen.on(host.topic + "/join"), what="Ben's board answered the offer")
        reply = host.topic + "/reply"
        eve.publish(reply, json.dumps({"id": host.invitation,
                                       "answer": "cancelled"}).encode())
        eve.publish(reply, seal(bytes(32), reply, {"id": host.invitation,
                                                   "answer": "other game"}))
        until(lambda: len(seen.on(reply)) == 2, what="Eve's refusals on the broker")
        agreed["anna"] = host.wait(LIMIT_S)  # Ben's join, then Eve's two, then Ben's word
        waiting.join(LIMIT_S)
        assert agreed["anna"].secret == agreed["ben"].secret
        assert agreed["anna"].guest_name == "Ben"
    finally:
        for broker in (anna, ben, eve):
            broker.stop()


def test_a_game_agreed_as_the_board_stopped_is_played_at_its_next_start(tables, tmp_path):
    """Ben's board joined and the game was agreed, and it stopped (a power cut) before
    its next turn took the game: Anna's board plays it already. At Ben's next start the
    agreed game is the one resumed, in a new record, even though an older record of a
    game with another far board is the newest with a far board's seat."""
    anna, ben = tables("anna", "Anna"), tables("ben", "Ben")
    store = RecordStore(tmp_path / "ben" / "data", profile="kulami-sim")
    earlier = Session.start_new(store, "kulami", {}, physical=False,
                                seats={"b": Person(), "w": FarBoard("Carl")})
    assert earlier.store.current.name == "000001-kulami.sgf"
    ben.far.join(offered(anna))
    until(lambda: anna.link is not None, anna, what="Anna's board took the game")
    until(lambda: ben.far.state.phase == AGREED, what="the game agreed on Ben's board")
    left = list(ben.far.path.parent.glob("agreed-*.json"))
    assert len(left) == 1 and not ben.far.path.exists()

    again = FarPlay(ben.far.config, far_game_path(tmp_path / "ben"), ("kulami",))
    link = again.resume()  # Ben's board starts again
    assert link is not None and link.game.peer == "Anna" and link.game.colour == "w"
    assert again.record(store) is None  # a record of its own, not Carl's game's
    assert not list(ben.far.path.parent.glob("agreed-*.json"))
    ben.far.stop()
    ben.far, ben.link = again, link
    ben.session = Session(link.game.board([]), seats=link.seats(), physical=False)
    again.recorded()
    link.start()
    board = anna.session.board
    move = sorted(board.move_text(m) for m in board.legal_moves)[0]
    anna.session.confirm(move)
    until(lambda: ben.lit() == move, anna, ben, what="Anna's move lit on Ben's board")
    assert FarGame.load(far_game_path(tmp_path / "ben")).secret == anna.link.game.secret


def test_a_clean_stop_before_the_agreed_game_is_taken_leaves_the_game_on_the_table(
        tables, tmp_path):
    """Ben's board plays Carl's board far away (here: Anna's, in a first game) and joins
    a new invitation; it stops between the agreement and its next turn. The game on the
    table is left, said to its far board as taking the new one would, and the new one
    is kept for the next start."""
    anna, ben = tables("anna", "Anna"), tables("ben", "Ben")
    ben.far.join(offered(anna))
    until(lambda: anna.link is not None and ben.link is not None, anna, ben,
          what="a first game agreed")
    first = ben.link
    until(lambda: anna.link.peer_online, anna, ben, what="Ben's board online")
    ben.far.join(offered(anna))  # Anna's board offers a second game, Ben joins it
    until(lambda: ben.far.state.phase == AGREED, anna, what="the second game agreed")
    ben.far.stop(ben.session)  # SIGTERM: the loop's turn never came
    assert first.game.stopped == "its player started another game"
    assert FarPlay(ben.far.config, ben.far.path, ("kulami",)).resume().game.secret \
        != first.game.secret  # the second game, at the next start
