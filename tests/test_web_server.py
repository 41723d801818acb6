"""The page on the home network, served by a real server on this machine beside a
simulated board: the live snapshot over a WebSocket, the saved games, and every change
refused without the pairing code's token."""

import asyncio
import json

import aiohttp
import pytest

from app.games import GAMES
from app.remote.far_board import FarBoard
from app.table.seats import Person, words_of
from app.table.store import RecordStore
from app.table.thinker import InlineThinker
from app.web import pairing, server
from app.web.address import lan_address, web_address
from app.web.pairing import TOKEN_HEADER
from app.web.server import Actions, WebError, WebFront, new_game_on
from tests.web_table import Clock, call, served, settle

CODE = "424242"


@pytest.fixture
def table(tmp_path, monkeypatch):
    """A simulated Kulami board for two people with the page on a free port."""
    with served(tmp_path, monkeypatch, CODE) as pair:
        yield pair


def paired(front):
    status, body, _ = call("POST", front.url + "api/pair", json={"code": CODE})
    assert status == 200
    return {TOKEN_HEADER: body["token"]}


def test_the_page_and_its_snapshot_show_the_board_as_it_is(table):
    board, front = table
    status, page, _ = call("GET", front.url)
    assert status == 200 and "<svg id=\"board\"" in page
    board.place("d4")
    settle(board)
    status, state, _ = call("GET", front.url + "api/state")
    assert state["game"] == "kulami" and state["status"]["moves"] == ["d4"]
    assert state["board"]["pieces"] == {"d4": "b"} and state["board"]["last"] == ["d4"]
    assert state["board"]["holes"]["d4"] == [3, 3, 1]  # x, y in hole spacings from a1
    assert state["status"]["turn"] == "w" and state["players"]["w"]["title"] == "Black"
    assert {entry["role"] for entry in state["legend"]} >= {"legal", "last"}
    assert state["lights"]["d4"]["role"] == "last"


def test_an_open_page_hears_of_a_move_without_asking(table):
    board, front = table

    async def watch():
        async with aiohttp.ClientSession() as client:
            async with client.ws_connect(front.url + "ws") as socket:
                first = json.loads((await socket.receive(timeout=5)).data)
                await asyncio.to_thread(lambda: (board.place("d4"), settle(board)))
                while True:
                    state = json.loads((await socket.receive(timeout=5)).data)
                    if state["status"]["moves"]:
                        return first, state

    first, moved = asyncio.run(watch())
    assert first["status"]["moves"] == [] and moved["status"]["moves"] == ["d4"]


def test_every_change_needs_the_token_that_only_the_code_earns(table):
    board, front = table
    board.place("d4")
    settle(board)
    status, body, _ = call("POST", front.url + "api/command", json={"action": "undo"})
    assert status == 401 and "pair this browser first" in body["error"]
    status, body, _ = call("POST", front.url + "api/command", json={"action": "undo"},
                           headers={TOKEN_HEADER: "guessed"})
    assert status == 401
    board.step()
    assert len(board.session.board.move_stack) == 1  # nothing changed
    status, body, _ = call("POST", front.url + "api/command", json={"action": "undo"},
                           headers=paired(front))
    assert status == 202
    board.step()  # the loop carries it out on its next turn
    assert board.session.board.move_stack == []


def test_wrong_codes_are_refused_then_locked_out(table):
    board, front = table
    for _ in range(pairing.TRIES):
        status, body, _ = call("POST", front.url + "api/pair", json={"code": "000000"})
        assert status == 403 and "wrong pairing code" in body["error"]
    status, body, headers = call("POST", front.url + "api/pair", json={"code": CODE})
    assert status == 429 and int(headers["Retry-After"]) > 0  # even the right code waits
    assert front.pairing.tokens == set()


def test_bad_commands_are_one_clear_refusal_and_change_nothing(table):
    board, front = table
    token = paired(front)
    cases = [({"action": "new_game", "game": "chess"}, "not 'chess'"),
             ({"action": "new_game", "game": "kulami", "options": {"scoring": "9"},
               "seats": {"b": "person", "w": "engine"}, "level": 2}, "scoring"),
             ({"action": "new_game", "game": "kulami", "seats": {"b": "robot", "w": "person"},
               "level": 2}, "seats"),
             ({"action": "new_game", "game": "kulami", "seats": {"b": "person",
               "w": "person"}, "level": 9}, "level"),
             ({"action": "brightness", "value": 2}, "brightness"),
             ({"action": "brightness", "value": True}, "brightness"),
             ({"action": "format the disk"}, "no such command"),
             ([1, 2], "not a JSON object")]
    for body, words in cases:
        status, answer, _ = call("POST", front.url + "api/command", json=body, headers=token)
        assert status == 400 and words in answer["error"], body
    status, answer, _ = call("POST", front.url + "api/command", data=b"{not json",
                             headers=token)
    assert status == 400 and "not JSON" in answer["error"]
    status, _, _ = call("POST", front.url + "api/command", data=b"x" * 20000, headers=token)
    assert status == 413
    board.step()
    assert front.commands() == [] and board.session.board.game == "kulami"


def test_a_new_game_and_the_brightness_are_set_from_the_page(table):
    board, front = table
    token = paired(front)
    status, _, _ = call("POST", front.url + "api/command", headers=token, json={
        "action": "new_game", "game": "kulami", "options": {"scoring": 2},
        "seats": {"b": "engine", "w": "person"}, "level": 1})
    assert status == 202
    status, _, _ = call("POST", front.url + "api/command", headers=token,
                        json={"action": "brightness", "value": 0.25})
    assert status == 202
    board.step()
    session = board.session
    assert session.board.options["scoring"] == 2 and session.seats["b"].kind == "engine"
    assert session.level == 1 and board.strip.brightness == 0.25


def test_saved_games_are_listed_replayed_and_downloaded_by_name_only(table):
    board, front = table
    for hole in ("d4", "d7"):
        board.place(hole)
        settle(board)
    status, games, _ = call("GET", front.url + "api/games")
    assert status == 200 and len(games) == 1
    entry = games[0]
    assert entry["game"] == "kulami" and entry["moves"] == 2
    assert entry["result"] == "unfinished" and "Red: person" in entry["players"]
    status, replay, _ = call("GET", front.url + f"api/games/{entry['name']}")
    assert replay["moves"] == ["d4", "d7"] and len(replay["positions"]) == 3
    assert replay["positions"][0]["pieces"] == {}
    assert replay["positions"][2]["pieces"] == {"d4": "b", "d7": "w"}
    status, record, headers = call("GET", front.url + f"api/games/{entry['name']}/record")
    assert status == 200 and "attachment" in headers["Content-Disposition"]
    loaded = GAMES["kulami"].board_class.from_record(record)
    assert [loaded.move_text(m) for m in loaded.move_stack] == ["d4", "d7"]
    for name in ("..%2F..%2Fetc%2Fpasswd", "999999-kulami.sgf", "000001-kulami.sgf%00"):
        status, body, _ = call("GET", front.url + f"api/games/{name}/record")
        assert status == 404, name


def test_an_address_taken_is_one_line(table):
    board, front = table
    other = WebFront(None, Actions(new_game_on, ("kulami",)), host="127.0.0.1",
                     port=front.port)
    with pytest.raises(WebError, match=r"web page: cannot serve on 127\.0\.0\.1:\d+: "):
        other.start()


def test_on_every_address_the_page_answers_on_ipv4_and_ipv6_at_one_port(tmp_path,
                                                                          monkeypatch):
    """``host = "lan"`` (the default): bound once to every address, IPv4 and IPv6 on the
    same port (a free one here), so an address that comes later is served as it comes
    (tests/test_web_network.py watches that from another machine). No address of this
    machine is announced here: the test sends nothing beyond it."""
    monkeypatch.setattr(server, "lan_addresses", lambda: ())
    assert web_address("8080") == ("lan", 8080) == web_address("lan:8080")
    assert web_address("[::1]:80") == ("::1", 80)
    front = WebFront(RecordStore(tmp_path), Actions(new_game_on, ("kulami",)), host="lan",
                     port=0).start()
    try:
        for host in ("127.0.0.1", "[::1]"):
            status, state, _ = call("GET", f"http://{host}:{front.port}/api/state")
            assert status == 200 and state == {}, host
        assert front.url == f"http://{lan_address()}:{front.port}/"
    finally:
        front.close()


def test_a_packet_zeroconf_cannot_send_is_one_line_without_its_traceback():
    """An address that goes in the moment before the page's thread moves python-
    zeroconf's sockets off it makes python-zeroconf log the failed send with a traceback;
    the page's announcer keeps it to its one line."""
    import logging
    import sys
    from app.web.mdns import Announcer
    Announcer(80)
    try:
        raise OSError(101, "Network is unreachable")
    except OSError:
        record = logging.LogRecord("zeroconf", logging.WARNING, __file__, 1,
                                   "Error with socket %s: %s", ("9", "gone"),
                                   sys.exc_info())
    assert logging.getLogger("zeroconf").filter(record)
    assert record.exc_info is None and logging.Formatter().format(record) == \
        "Error with socket 9: gone"


def test_the_simulator_s_page_starts_any_game_as_its_menu_does(tmp_path, monkeypatch):
    """``tabletop simulate --web``: a new game of another game from the page changes the
    simulated board, as the simulator's own menu does."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    from app.cli.simulate import _web_page
    from app.screen.menu import Choice
    from app.screen.simulator import Simulator

    store = RecordStore(tmp_path)
    front = _web_page(("127.0.0.1", 0), store, lambda: simulator)
    try:
        simulator = Simulator(Choice("kulami", {}, {"b": "person", "w": "person"}, 2),
                              clock=Clock(), store=store, thinker=InlineThinker(),
                              remote=front)
        simulator.console.note = front.note
        assert front.note == f"web code {front.pairing.code}"
        token = {TOKEN_HEADER: front.pairing.pair("test", front.pairing.code)}
        status, _, _ = call("POST", front.url + "api/command", headers=token, json={
            "action": "new_game", "game": "conhex", "options": {"pie": False},
            "seats": {"b": "person", "w": "engine"}, "level": 2})
        assert status == 202
        simulator.step()
        assert simulator.session.board.game == "conhex"
        assert simulator.profile.name == "conhex-sim" and simulator.table.remote is front
        status, state, _ = call("GET", front.url + "api/state")
        assert state["game"] == "conhex"
    finally:
        front.close()
        simulator.close()


def test_tabletop_run_serves_its_board_s_page_with_the_configured_code(tmp_path, monkeypatch,
                                                                       capsys):
    """``[web]`` in the configuration: the board's page on the address given, the fixed
    pairing code, a new game only of the board's own game; an address that cannot be
    served stops the board in one line (it warned and played on without its page)."""
    import signal
    import threading
    from app.cli import main
    from app.cli import run as run_command
    from app.table.service import ServiceStop

    seen = {}

    class Screen:  # the loop's screen, here only to look at the page while it runs
        shows_leds, dirty = False, False

        def __init__(self, session, load, board, games):
            self.console = type("Console", (), {"session": session, "note": ""})()
            self.turns = 0

        def pump(self):
            self.turns += 1
            if self.turns == 3:
                remote = run_command_remote()
                if remote is None:
                    raise ServiceStop(signal.SIGTERM)
                seen["note"] = self.console.note
                seen["state"] = call("GET", remote.url + "api/state")[1]
                seen["games"] = call("GET", remote.url + "api/catalogue")[1]
                seen["pair"] = call("POST", remote.url + "api/pair",
                                    json={"code": "246810"})[0]
                raise ServiceStop(signal.SIGTERM)
            return True

        def redraw(self):
            pass

    fronts = []
    real = run_command.web_page

    def recorded(*args, **kwargs):
        fronts.append(real(*args, **kwargs))
        return fronts[-1]

    def run_command_remote():
        return fronts[-1]

    monkeypatch.setattr(run_command, "status_screen", Screen)
    monkeypatch.setattr(run_command, "web_page", recorded)
    import socket
    with socket.socket() as probe:  # a port free just now
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = tmp_path / "tabletop.toml"
    config.write_text(f'data_dir = "{tmp_path / "data"}"\n[web]\nhost = "127.0.0.1"\n'
                      f'port = {port}\npairing_code = "246810"\n')
    assert main(["run", "--profile", "conhex-sim", "--config", str(config)]) == 0
    assert seen["note"] == "web code 246810" and seen["pair"] == 200
    assert seen["state"]["game"] == "conhex"
    assert [g["name"] for g in seen["games"]["games"]] == ["conhex"]
    assert fronts[0]._loop is None  # closed with the board
    assert not [t for t in threading.enumerate() if t.name == "web page"]
    taken = tmp_path / "taken.toml"  # the same port, held by another server
    taken.write_text(f'data_dir = "{tmp_path / "data"}"\n[web]\nhost = "127.0.0.1"\n'
                     f'port = {port}\n')
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", port))
        holder.listen()
        fronts.clear()
        capsys.readouterr()
        assert main(["run", "--profile", "conhex-sim", "--config", str(taken)]) == 1
    # The page is part of the board: a port it cannot have stops the board in one line.
    assert fronts == [] and capsys.readouterr().err.splitlines() == [
        f"tabletop run: web page: cannot serve on 127.0.0.1:{port}: Address already in use"]
    assert len(list((tmp_path / "data" / "games").iterdir())) == 1  # no game started


def command(front, token, **body):
    return call("POST", front.url + "api/command", json=body, headers=token)


def test_a_remote_seat_s_move_is_lit_for_the_table_to_place(table):
    board, front = table
    alice, bob = paired(front), paired(front)
    assert command(front, alice, action="take_seat", colour="w")[0] == 202
    status, body, _ = command(front, bob, action="take_seat", colour="w")
    assert status == 409 and "another browser" in body["error"]
    assert call("GET", front.url + "api/me", headers=alice)[1] == {"paired": True,
                                                                   "seat": "w"}
    board.step()
    assert words_of(board.session.seats) == {"b": "person", "w": "remote"}
    board.place("d4")
    settle(board)
    state = call("GET", front.url + "api/state")[1]
    assert state["seats"]["w"] == "remote" and "d7" in state["legal"]
    assert "comes from the web page" in state["status"]["message"]
    board.place("d7")  # a piece put down for the browser's player is refused
    settle(board)
    assert len(board.session.board.move_stack) == 1
    assert "plays from the web page" in board.session.message
    board.lift("d7")
    settle(board)
    status, body, _ = command(front, bob, action="move", move="d7")
    assert status == 403 and "take a seat first" in body["error"]
    assert command(front, alice, action="move", move="e5")[0] == 202  # not in d4's line
    board.step()
    assert board.session.pending is None and "not a legal move" in board.session.message
    assert command(front, alice, action="move", move="d7")[0] == 202
    board.step()
    assert board.session.board.move_text(board.session.pending) == "d7"
    assert board.hole_leds()["d7"] != (0, 0, 0)
    state = call("GET", front.url + "api/state")[1]
    assert "Black plays d7 from the web page" in state["status"]["message"]
    # Lit and named as the player's own move, not the engine's.
    assert state["lights"]["d7"]["by"] == "w"
    [row] = [row for row in state["legend"] if row["role"] == "suggestion"]
    assert row["meaning"] == "Black's move" and row["player"] == "w"
    board.place("d7")
    settle(board)
    assert [board.session.board.move_text(m) for m in board.session.board.move_stack] == \
        ["d4", "d7"]


def two_moves_with_white_away(board, front) -> str:
    """Alice pairs and takes white from the page; red's d4 is placed, then her d7 is
    lit and placed: the start of every takeback test. Her token."""
    alice = paired(front)
    command(front, alice, action="take_seat", colour="w")
    board.step()
    board.place("d4")
    settle(board)
    command(front, alice, action="move", move="d7")
    board.step()
    board.place("d7")
    settle(board)
    return alice


def test_either_side_offers_a_takeback_and_the_other_accepts(table):
    board, front = table
    alice = two_moves_with_white_away(board, front)
    # The player in the browser offers; the table's Confirm accepts: back to their turn.
    command(front, alice, action="offer_takeback")
    board.step()
    assert board.session.offer == "w"
    board.session.confirm()
    assert [board.session.board.move_text(m) for m in board.session.board.move_stack] == \
        ["d4"]
    board.lift("d7")
    settle(board)
    # The table offers (its takeback button); only the browser's player accepts.
    board.session.undo()
    assert board.session.offer == "table" and len(board.session.board.move_stack) == 1
    board.session.accept_takeback("table")  # the offerer cannot accept its own offer
    assert len(board.session.board.move_stack) == 1
    command(front, alice, action="accept")
    board.step()
    assert board.session.board.move_stack == [] and board.session.offer is None


def test_after_a_restart_a_browser_s_seat_is_the_table_s_until_a_browser_takes_it(
        tmp_path, monkeypatch):
    with served(tmp_path, monkeypatch, CODE) as (board, front):
        command(front, paired(front), action="take_seat", colour="w")
        board.step()
        board.place("d4")
        settle(board)
        assert board.session.message == "black's move comes from the web page"
    with served(tmp_path, monkeypatch, CODE, resume=True) as (board, front):
        board.step()
        state = call("GET", front.url + "api/state")[1]
        assert state["seats"] == {"b": "person", "w": "person"} and state["legal"] == []
        assert "a person at the table plays black now" in state["status"]["message"]
        alice = paired(front)
        command(front, alice, action="undo")  # taken back at once: nobody to ask
        board.step()
        assert board.session.board.move_stack == [] and board.session.offer is None
        assert command(front, alice, action="take_seat", colour="w")[0] == 202
        board.step()
        assert call("GET", front.url + "api/state")[1]["seats"]["w"] == "remote"


def test_a_dropped_browser_keeps_its_seat_and_leaving_gives_it_to_the_table(table):
    board, front = table
    alice = paired(front)
    command(front, alice, action="take_seat", colour="b")
    board.step()
    # The page's connection went away: its token still plays black.
    assert call("GET", front.url + "api/me", headers=alice)[1]["seat"] == "b"
    assert command(front, alice, action="move", move="d4")[0] == 202
    board.step()
    assert board.session.board.move_text(board.session.pending) == "d4"
    command(front, alice, action="leave_seat")
    board.step()
    assert board.session.seats["b"].at_table
    assert call("GET", front.url + "api/me", headers=alice)[1]["seat"] is None


def test_a_seat_taken_while_another_browser_s_hint_is_carried_out_stays_taken(table):
    """The race from outside: Alice takes a seat while the loop carries out Bob's Hint
    (her request answered during the engine's search, before her take reaches the loop),
    so the loop publishes a change with her seat still the table's. Her seat is kept:
    the page says she plays it and the table waits for her move."""
    board, front = table
    alice, bob = paired(front), paired(front)
    session = board.session
    hint, answers = session.hint, []

    def hint_while_alice_takes_a_seat(*args):
        answers.append(command(front, alice, action="take_seat", colour="w")[0])
        hint(*args)

    session.hint = hint_while_alice_takes_a_seat
    assert command(front, bob, action="hint")[0] == 202
    board.step()  # Bob's hint, Alice's take answered meanwhile, then the change published
    board.step()  # Alice's take
    assert answers == [202]
    assert call("GET", front.url + "api/me", headers=alice)[1]["seat"] == "w"
    assert words_of(session.seats) == {"b": "person", "w": "remote"}
    assert call("GET", front.url + "api/state")[1]["seats"]["w"] == "remote"


def test_a_player_away_takes_back_only_with_the_table_s_consent(table):
    """Offering and then sending the table's Confirm, or Undo and then Accept, takes
    nothing back: the page's Confirm and Undo are its player's, who may only offer."""
    board, front = table
    alice = two_moves_with_white_away(board, front)
    moves = board.session.board.move_stack
    command(front, alice, action="offer_takeback")
    command(front, alice, action="confirm")
    board.step()
    assert len(moves) == 2 and board.session.offer == "w"
    message = call("GET", front.url + "api/state")[1]["status"]["message"]
    assert "waits for the other side" in message
    command(front, alice, action="undo")
    command(front, alice, action="accept")
    board.step()
    assert len(moves) == 2 and board.session.offer == "w"
    board.session.confirm()  # the table accepts
    assert len(moves) == 1 and board.session.offer is None


def test_a_takeback_offered_says_who_must_accept_and_how(table):
    board, front = table
    alice = paired(front)
    command(front, alice, action="take_seat", colour="w")
    board.step()
    board.place("d4")
    settle(board)
    board.session.undo()  # the table's Undo, with a player away: an offer
    board.step()
    said = call("GET", front.url + "api/state")[1]["status"]["message"]
    assert said == ("The table asks to take back the last move: waiting for black to "
                    "accept on the web page")
    command(front, alice, action="offer_takeback")
    board.step()
    said = call("GET", front.url + "api/state")[1]["status"]["message"]
    assert said == "Black asks to take back the last move: Confirm accepts, a move declines"
    assert len(board.session.board.move_stack) == 1


def test_a_paired_browser_with_no_seat_accepts_for_the_table(table):
    """The takeback a player away asked for is the table's to accept: from its screen's
    Confirm, or from a paired browser that plays no colour (someone at the table with a
    phone), which cannot accept the table's own offer either."""
    board, front = table
    alice, phone = paired(front), paired(front)
    command(front, alice, action="take_seat", colour="w")
    board.step()
    board.place("d4")
    settle(board)
    board.session.undo()  # the table's own offer: not the phone's to accept
    assert command(front, phone, action="accept")[0] == 202
    board.step()
    assert len(board.session.board.move_stack) == 1 and board.session.offer == "table"
    command(front, alice, action="move", move="d7")
    board.step()
    board.place("d7")
    settle(board)
    command(front, alice, action="offer_takeback")
    assert command(front, phone, action="accept")[0] == 202
    board.step()
    assert [board.session.board.move_text(m) for m in board.session.board.move_stack] == \
        ["d4"] and board.session.offer is None


def test_a_far_board_s_colour_is_named_and_no_browser_can_take_it(table):
    """A colour a board far away plays is its player's: the page names that board and
    offers no seat there, and a browser asking for it anyway is refused in one line, the
    far board left in its seat (the page once showed 'undefined' and put a browser in
    the far player's place)."""
    board, front = table
    alice = paired(front)
    board.session.set_players({"b": Person(), "w": FarBoard(name="Ben")},
                              board.session.level)
    board.step()
    state = call("GET", front.url + "api/state")[1]
    assert state["seating"] == {"b": {"who": "at the table", "open": True},
                                "w": {"who": "Ben's board", "open": False}}
    status, body, _ = command(front, alice, action="take_seat", colour="w")
    assert (status, body["error"]) == (409, "Ben's board plays that colour")
    board.step()
    assert board.session.seats["w"] == FarBoard(name="Ben")
    assert call("GET", front.url + "api/me", headers=alice)[1]["seat"] is None
    # The table's own colour is the page's to take, as ever; its page says who holds it.
    assert command(front, alice, action="take_seat", colour="b")[0] == 202
    board.step()
    state = call("GET", front.url + "api/state")[1]
    assert state["held"] == ["b"] and state["seating"]["b"]["who"] == "the web page"
