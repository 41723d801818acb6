"""A club's boards in one place, through a real mosquitto (TLS with the test's own
authority, password accounts): three boards publishing their games, a watcher listing
them and following their moves (its page too, and ``tabletop watch`` as a command), a
stranger's malformed and oversized messages dropped and counted, a board that vanishes
shown offline by its last will, one that stops cleanly by its own word, and a table
that changes faster than the feed may send.

Nothing here waits for a time to pass: each wait is for something to happen, with a
generous limit for a busy machine; the one bound on a count (the feed's rate) can only
be met more easily by a slow machine."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from argparse import Namespace

import pytest

from app.errors import ConfigError
from app.games import new_game
from app.hardware.leds import SimulatedStrip
from app.hardware.profile import load_profile
from app.remote.broker import Broker
from app.remote.club import (INTERVAL_S, MAX_LIVE, LiveFeed, Spectator, board_topic,
                             club_filter, encode, live_feed, live_record)
from app.remote.config import RemoteConfig
from app.remote.far_board import moves_of
from app.table.loop import Table
from app.table.session import Session
from app.web.snapshot import board_view
from app.cli import main
from app.cli.watch import FILES, page_server, remote_settings
from tests.mosquitto import USERS
from tests.test_layers import ROOT

CLUB = "riverside"
LIMIT_S = 30.0


def until(condition, what="it"):
    deadline = time.monotonic() + LIMIT_S
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.01)
    raise AssertionError(f"{what} did not happen within {LIMIT_S} s")


def connected(thing):
    """``thing`` (a feed or a spectator) started and connected."""
    thing.start()
    assert thing.broker.connected.wait(LIMIT_S), thing.broker.failure
    return thing


class Board:
    """A board of the club: a session (moves typed) in the real table loop, with its
    feed as one of the loop's front ends."""

    def __init__(self, mosquitto, name, game, user="anna"):
        self.session = Session(new_game(game), seats={"b": "person", "w": "person"},
                               physical=False)
        self.feed = connected(LiveFeed(mosquitto.config(user, club=CLUB, name=name)))
        profile = load_profile("kulami-sim")
        self.table = Table(self.session, profile, SimulatedStrip(profile.led_count),
                           remotes=[self.feed])
        self.t = 0.0
        self.step()

    def step(self):
        self.t += 0.01
        self.table.step(self.t)

    def play(self, count=1):
        for _ in range(count):
            board = self.session.board
            self.session.confirm(board.move_text(next(iter(board.legal_moves))))
            self.step()

    def moves(self):
        return moves_of(self.session.board)


def seen(spectator, feed):
    """The board ``feed`` publishes, as ``spectator`` has it (``None``: not yet)."""
    return spectator.board(feed.topic.rpartition("/")[2])


def follows(spectator, board):
    """Whether ``spectator`` has ``board``'s game as it is now."""
    live = seen(spectator, board.feed)
    return (live is not None and live.record is not None
            and live.record["moves"] == board.moves())


@pytest.fixture
def spectator(mosquitto):
    watcher = connected(Spectator(mosquitto.config("ben", club=CLUB)))
    yield watcher
    watcher.stop()


def get(url):
    with urllib.request.urlopen(url, timeout=LIMIT_S) as answer:
        return json.load(answer)


def test_a_watcher_lists_the_club_s_boards_and_follows_each_move_by_move(mosquitto,
                                                                         spectator):
    boards = [Board(mosquitto, "Anna's kitchen", "kulami"),
              Board(mosquitto, "Table 2", "conhex"),
              Board(mosquitto, "<b>Table 3</b>", "blokus-duo")]
    page = page_server(spectator, "127.0.0.1", 0)
    threading.Thread(target=page.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{page.server_address[1]}"
    try:
        for turn in range(4):
            for board in boards:
                board.play()
                until(lambda: follows(spectator, board), f"{board.feed.name} move {turn}")
                live = seen(spectator, board.feed)
                # The watcher's own engine replayed the moves: the same position.
                assert board_view(live.board) == board_view(board.session.board)
                assert live.online and live.record["turn"] == board.session.board.turn
        club = get(f"{url}/api/club")
        assert [b["name"] for b in club["boards"]] == [
            "<b>Table 3</b>", "Anna's kitchen", "Table 2"]
        assert [(b["game"], b["moves"], b["online"]) for b in club["boards"]] == [
            ("blokus-duo", 4, True), ("kulami", 4, True), ("conhex", 4, True)]
        assert club["boards"][1]["seats"] == {"b": "person", "w": "person"}
        kitchen = get(f"{url}/api/boards/{club['boards'][1]['id']}")
        assert kitchen["move_list"] == boards[0].moves()
        assert kitchen["view"] == board_view(boards[0].session.board)
        assert kitchen["players"]["b"]["title"] == "Red"
        # The list answers at the next change when the page says what it has.
        waited = {}
        asking = threading.Thread(target=lambda: waited.update(
            get(f"{url}/api/club?since={club['revision']}")))
        asking.start()
        boards[1].play()
        asking.join(LIMIT_S)
        assert waited["revision"] > club["revision"]
        with pytest.raises(urllib.error.HTTPError, match="404"):
            get(f"{url}/api/boards/nosuchboard-000000")
    finally:
        page.shutdown()
        page.server_close()
        for board in boards:
            board.feed.close()


def stranger(mosquitto) -> Broker:
    eve = Broker(mosquitto.config("eve"), "eve-in-the-club")
    eve.start()
    assert eve.connected.wait(LIMIT_S), eve.failure
    return eve


def test_malformed_and_oversized_messages_are_dropped_and_counted(mosquitto, spectator):
    board = Board(mosquitto, "Anna's kitchen", "kulami")
    board.play(2)
    until(lambda: follows(spectator, board), "the board listed")
    before = spectator.boards()
    eve = stranger(mosquitto)
    good = live_record("Eve's", board.session)
    live = f"tabletop/v1/{CLUB}/live"
    wrong = [b"not json", b"\xff\xfe", json.dumps([1, 2]).encode(),
             json.dumps({**good, "v": 2}).encode(),
             json.dumps({**good, "game": "chess"}).encode(),
             json.dumps({**good, "moves": ["a1", "a1"]}).encode(),   # illegal
             json.dumps({**good, "options": {"layout": "nonsense"}}).encode(),
             json.dumps({**good, "board": "x" * 500}).encode(),
             json.dumps({**good, "seats": {"b": 1, "w": 2}}).encode(),
             b"[" * 5000 + b"]" * 5000]
    try:
        for number, payload in enumerate(wrong):
            eve.publish(f"{live}/eve-{number}", payload, retain=True)
        eve.publish(f"{live}/Not.A.Board", json.dumps(good).encode())  # not a board's
        # The board's own topic too: its last good record stays.
        eve.publish(board.feed.topic, b"{garbage")
        eve.publish(f"{live}/eve-big", json.dumps(
            {**good, "message": "x" * (MAX_LIVE + 1)}).encode(), retain=True)
        until(lambda: spectator.malformed == len(wrong) + 2 and spectator.oversized == 1,
              "every message dropped")
        assert [b.record for b in spectator.boards()] == [b.record for b in before]
        # A stranger's well-formed record is listed: the club is public by design.
        eve.publish(f"{live}/eve-fine", json.dumps(good).encode(), retain=True)
        until(lambda: len(spectator.boards()) == 2, "a well-formed record listed")
    finally:
        eve.stop()
        board.feed.close()


def test_a_board_that_vanishes_is_shown_offline_by_its_last_will(mosquitto, spectator,
                                                                   tmp_path):
    config = mosquitto.config("anna")
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.club_board_process", config.host, str(config.port),
         "anna", USERS["anna"], str(config.ca), CLUB, "Power cut", "3"],
        cwd=ROOT, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert process.stdout.readline().strip() == "ready"
        topic = board_topic(CLUB, "Power cut").rpartition("/")[2]
        until(lambda: (b := spectator.board(topic)) is not None and b.online
              and len(b.record["moves"]) == 3, "the board listed online")
        process.kill()  # a power cut: no goodbye
        process.wait(LIMIT_S)
        until(lambda: not spectator.board(topic).online, "the board shown offline")
        # What was known of its game stays, marked offline.
        assert len(spectator.board(topic).record["moves"]) == 3
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(LIMIT_S)
        process.stdout.close()
    # A watcher that comes later sees it offline too (the will is retained).
    late = connected(Spectator(mosquitto.config("eve", club=CLUB)))
    try:
        until(lambda: late.board(topic) is not None, "the late watcher hears of it")
        assert not late.board(topic).online and late.board(topic).record is None
    finally:
        late.stop()


def test_a_board_that_stops_says_it_is_offline_with_its_last_game(mosquitto, spectator):
    board = Board(mosquitto, "Closing time", "akron")
    board.play(2)
    until(lambda: follows(spectator, board), "the board listed")
    board.feed.close()
    until(lambda: not seen(spectator, board.feed).online, "the board shown offline")
    late = connected(Spectator(mosquitto.config("eve", club=CLUB)))
    try:
        until(lambda: seen(late, board.feed) is not None, "the late watcher hears of it")
        assert not seen(late, board.feed).online
        assert seen(late, board.feed).record["moves"] == board.moves()
    finally:
        late.stop()


def test_a_table_that_changes_fast_sends_a_few_records_a_second_and_the_newest_last(
        mosquitto, spectator):
    heard = []
    listener = Broker(mosquitto.config("eve"), "eve-counts")
    listener.subscribe(club_filter(CLUB), lambda topic, payload: heard.append(payload))
    listener.start()
    assert listener.connected.wait(LIMIT_S)
    board = Board(mosquitto, "Busy", "kulami")
    try:
        start = time.monotonic()
        for number in range(40):
            board.play()       # each a new revision the loop hands the feed
            board.session.say(f"news {number}")
            board.step()
        until(lambda: follows(spectator, board), "the newest record")
        elapsed = time.monotonic() - start
        # One record at the start, then at most one an interval (a slow machine sends fewer).
        assert board.feed.sent <= 2 + elapsed / INTERVAL_S
        assert board.feed.sent < 40
        until(lambda: heard and json.loads(heard[-1])["moves"] == board.moves(),
              "the newest record heard last")
    finally:
        listener.stop()
        board.feed.close()


def test_a_record_too_long_to_send_goes_without_its_moves_and_is_listed_undrawn(
        mosquitto, spectator):
    session = Session(new_game("kulami"), seats={"b": "person", "w": "person"},
                      physical=False)
    record = {**live_record("Long", session), "moves": ["a1" * 30] * 600}
    payload = encode(record)
    assert len(payload) <= MAX_LIVE and json.loads(payload)["moves"] is None
    eve = stranger(mosquitto)
    try:
        eve.publish(board_topic(CLUB, "Long"), payload, retain=True)
        id = board_topic(CLUB, "Long").rpartition("/")[2]
        until(lambda: spectator.board(id) is not None, "the board listed")
        assert spectator.board(id).board is None and spectator.malformed == 0
    finally:
        eve.stop()


def test_only_a_board_whose_remote_names_a_club_publishes(mosquitto, tmp_path):
    assert live_feed(None, "tabletop.toml") is None
    assert live_feed({"broker": "localhost"}, "tabletop.toml") is None
    with pytest.raises(ConfigError, match="tabletop.toml: remote.club"):
        live_feed({"broker": "localhost", "club": "No Spaces"}, "tabletop.toml")
    config = mosquitto.config("anna")
    feed = live_feed({"broker": f"localhost:{config.port}", "user": "anna",
                      "password": USERS["anna"], "ca": str(config.ca), "club": CLUB,
                      "name": "Configured"}, "tabletop.toml")
    try:
        assert feed.broker.connected.wait(LIMIT_S) and feed.topic == board_topic(
            CLUB, "Configured")
        assert feed.commands() == []  # a spectator can never change anything
    finally:
        feed.close()


def test_every_payload_a_stranger_can_send_is_dropped_without_a_traceback():
    watcher = Spectator(RemoteConfig(host="localhost", port=1, club=CLUB))  # not started
    session = Session(new_game("conhex"), seats={"b": "person", "w": "person"},
                      physical=False)
    good = live_record("Fine", session)
    strange = [None, 1, 1.5, True, "", "x" * 300, [], {}, {"a": {"b": []}}, ["a1"] * 601]
    topic = board_topic(CLUB, "Fine")
    count = 0
    for key in good:
        for value in strange:
            watcher._on_live(topic, json.dumps({**good, key: value}).encode())
            count += 1
    kept = watcher.board(topic.rpartition("/")[2])
    # Only a value that leaves the record a record is kept; nothing raised.
    assert watcher.malformed + (kept.revision if kept else 0) == count
    assert watcher.malformed > count * 3 // 4


def test_the_page_draws_with_the_board_page_s_own_code_and_names_are_text():
    # One drawing, board.js, loaded by both pages and served by watch as it is.
    code = (ROOT / "app/web/static/board.js").read_text()
    assert "function drawBoard(" in code and "DOMContentLoaded" not in code
    for page in ("index.html", "club.html"):
        assert '<script src="/static/board.js"' in (ROOT / "app/web/static" / page).read_text()
    assert FILES["/static/board.js"] == ("board.js", "text/javascript")
    assert "function drawBoard(" not in (ROOT / "app/web/static/app.js").read_text()
    script = (ROOT / "app/web/static/club.js").read_text()
    assert "innerHTML" not in script and "insertAdjacentHTML" not in script


def test_watch_takes_the_broker_from_the_command_line_over_a_config_file(tmp_path):
    ca = tmp_path / "ca.pem"
    ca.write_text("the broker's authority")
    file = tmp_path / "tabletop.toml"
    file.write_text(f'[remote]\nbroker = "example.org"\nuser = "ben"\npassword = "pw"\n'
                    f'ca = "{ca}"\nclub = "{CLUB}"\nname = "Ben\'s"\n')
    args = Namespace(broker="localhost:1234", config=str(file), club=None, user=None,
                     password=None, ca=None, certificate=None, key=None, tls=None)
    settings = remote_settings(args)
    assert (settings.host, settings.port, settings.user, settings.club) == (
        "localhost", 1234, "ben", CLUB)
    with pytest.raises(ConfigError, match="which broker"):
        remote_settings(Namespace(**{**vars(args), "broker": None, "config": None}))


def test_tabletop_watch_serves_the_club_it_watches(mosquitto):
    board = Board(mosquitto, "Anna's kitchen", "kulami")
    board.play(3)
    config = mosquitto.config("ben")
    process = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "watch", f"localhost:{config.port}",
         "--club", CLUB, "--user", "ben", "--password", USERS["ben"],
         "--ca", str(config.ca), "--port", "0"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+/", line).group(0)
        until(lambda: [b["moves"] for b in get(f"{url}api/club")["boards"]] == [3],
              "the board listed by the command")
        with urllib.request.urlopen(url, timeout=LIMIT_S) as page:
            assert b"board.js" in page.read()
    finally:
        process.terminate()
        process.wait(LIMIT_S)
        process.stdout.close()
        process.stderr.close()
        board.feed.close()


def test_after_a_broker_restart_the_board_is_listed_again_with_its_newest_game(
        mosquitto, spectator):
    board = Board(mosquitto, "Through it all", "conhex")
    try:
        board.play(2)
        until(lambda: follows(spectator, board), "the board listed")
        mosquitto.stop()
        until(lambda: not board.feed.broker.connected.is_set(), "the link lost")
        board.play()  # while the broker is away: sent once it is back
        mosquitto.start()
        until(lambda: follows(spectator, board) and seen(spectator, board.feed).online,
              "the newest game listed again")
    finally:
        board.feed.close()


def test_a_page_that_cannot_be_served_is_one_line_and_no_watcher(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status = main(["watch", "localhost", "--no-tls", "--port", str(port)])
    error = capsys.readouterr().err
    assert status == 1 and error.count("\n") == 1
    assert error.startswith(f"tabletop watch: cannot serve the page on 127.0.0.1:{port}:")


def test_tabletop_run_lists_its_game_in_the_club_and_says_offline_when_stopped(
        mosquitto, spectator, tmp_path):
    """The board as its service runs it: ``tabletop run`` with a ``[remote]`` naming a
    club publishes its game from the start, and a stop (systemd's SIGTERM) says it is
    offline with that game."""
    config = tmp_path / "board.toml"
    config.write_text(
        f'data_dir = "{tmp_path / "data"}"\n[web]\nenabled = false\n[remote]\n'
        f'broker = "localhost:{mosquitto.port}"\nuser = "anna"\n'
        f'password = "{USERS["anna"]}"\nca = "{mosquitto.ca}"\nclub = "{CLUB}"\n'
        f'name = "Kitchen table"\n')
    process = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "run", "--profile", "conhex-sim", "--config",
         str(config)], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={**os.environ, "SDL_VIDEODRIVER": "dummy"})
    topic = board_topic(CLUB, "Kitchen table").rpartition("/")[2]
    try:
        until(lambda: (b := spectator.board(topic)) is not None and b.online
              and b.record is not None and b.record["game"] == "conhex",
              "the board's game listed")
        process.terminate()
        assert process.wait(LIMIT_S) == 0
        until(lambda: not spectator.board(topic).online, "the board shown offline")
        assert spectator.board(topic).record["game"] == "conhex"
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(LIMIT_S)
