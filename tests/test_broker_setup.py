"""install.sh --broker's mosquitto for a home (systemd/broker.sh), run into a temporary
folder as this user: the settings it writes start a real mosquitto, as Debian's starts
it (its main file with our file in conf.d), the boards' accounts get in over TLS with the
home's own authority and nobody else does, the [remote] it writes is one the board
reads, and a second run changes nothing the other board relies on."""

from __future__ import annotations

import getpass
import subprocess
import tomllib
from pathlib import Path

import pytest

from app.errors import ConfigError
from app.remote import config as remote_config
from app.remote.broker import Broker, Inbox
from app.remote.config import RemoteConfig
from tests.mosquitto import Mosquitto, free_port
from tests.test_remote import LIMIT_S, connected
from tests.test_layers import ROOT

BROKER_SH = ROOT / "systemd" / "broker.sh"
INSTALL_SH = ROOT / "systemd" / "install.sh"
EXAMPLE = ROOT / "app" / "table" / "tabletop.example.toml"


def broker_sh(*args) -> subprocess.CompletedProcess:
    return subprocess.run(["sh", str(BROKER_SH), *map(str, args)], capture_output=True,
                          text=True, timeout=120)


class Home:
    """broker.sh's files in ``directory``, and mosquitto run on them as Debian runs it:
    a main file like Debian's (persistence, its data folder) that includes conf.d."""

    def __init__(self, directory: Path) -> None:
        self.directory, self.port = directory, free_port()
        self.files = directory / "mosquitto" / "tabletop"
        made = broker_sh("config", self.files, self.port, "localhost", "127.0.0.1")
        assert made.returncode == 0, made.stderr
        conf_d = directory / "mosquitto" / "conf.d"
        conf_d.mkdir()
        (conf_d / "tabletop.conf").write_text((self.files / "tabletop.conf").read_text())
        (directory / "data").mkdir()
        self.conf = directory / "mosquitto" / "mosquitto.conf"
        self.conf.write_text(f"user {getpass.getuser()}\n"
                             f"persistence true\npersistence_location {directory / 'data'}/\n"
                             f"log_dest file {directory / 'mosquitto.log'}\n"
                             f"include_dir {conf_d}\n")
        self.process: subprocess.Popen | None = None

    def password(self, user: str) -> str:
        return dict(line.split() for line in (self.files / "accounts").read_text()
                    .splitlines())[user]

    def config(self, user: str | None = "board1", **settings) -> RemoteConfig:
        values = {"host": "localhost", "port": self.port, "ca": self.files / "tls/ca.pem",
                  "user": user, "password": self.password(user) if user else None}
        return RemoteConfig(**{**values, **settings})

    # Started and stopped as the far boards' tests start theirs: by its own process id,
    # once it listens.
    start, stop = Mosquitto.start, Mosquitto.stop


@pytest.fixture
def home(tmp_path):
    home = Home(tmp_path)
    home.start()
    yield home
    home.stop()


def refused(config: RemoteConfig) -> str:
    """Why the broker would not take ``config``'s connection, as the board says it
    (empty where the connection broke before MQTT spoke); it must not take it."""
    broker = Broker(config, "tabletop-test-refused")
    broker.start()
    try:
        assert not broker.connected.wait(3), "the broker let it in"
        return broker.failure
    finally:
        broker.stop()


def test_each_board_s_account_gets_in_over_tls_and_nobody_else(home):
    for user in ("board1", "board2"):
        connected(home.config(user), f"tabletop-{user}").stop()
    assert refused(home.config(password="not the password")) == \
        f"localhost:{home.port} refused the board: Not authorized"
    assert "Not authorized" in refused(home.config(user=None))  # no anonymous access
    refused(home.config(tls=False))  # TLS only
    # Only the home's authority vouches for the broker's certificate.
    refused(home.config(ca=None))


def received(broker: Broker, inbox: Inbox, count: int) -> set[tuple[str, bytes]]:
    """The next ``count`` messages ``broker`` gets, then anything else within a second."""
    got = set()
    for _ in range(count):
        message = inbox.get(LIMIT_S)
        assert message is not None, f"only {got} came"
        got.add(message)
    while (message := inbox.get(1)) is not None:
        got.add(message)
    return got


def test_a_retained_state_survives_a_broker_restart_and_an_oversized_one_is_dropped(home):
    topic = "tabletop/v1/home/game/test/b/"
    board = Broker(home.config("board1"), "tabletop-board1", limit=10**6)
    inbox = Inbox()
    board.subscribe(topic + "#", inbox.put)
    board.start()
    try:
        board.publish(topic + "state", b"the state", retain=True)
        board.publish(topic + "big", b"x" * (17 * 1024), retain=True)  # over 16 KiB
        board.publish(topic + "after", b"after it", retain=True)
        # Its own messages back: the broker has them, and has dropped the big one.
        assert received(board, inbox, 2) == {(topic + "state", b"the state"),
                                             (topic + "after", b"after it")}
    finally:
        board.stop()
    home.stop()
    home.start()
    other = Broker(home.config("board2"), "tabletop-board2", limit=10**6)
    inbox = Inbox()
    other.subscribe(topic + "#", inbox.put)
    other.start()
    try:
        assert received(other, inbox, 2) == {(topic + "state", b"the state"),
                                             (topic + "after", b"after it")}
    finally:
        other.stop()


def test_the_settings_limit_packets_connections_and_keep_the_socket_unbuffered(tmp_path):
    home = Home(tmp_path)
    settings = dict(line.split(None, 1) for line in
                    (home.files / "tabletop.conf").read_text().splitlines()
                    if line and not line.startswith("#"))
    assert settings["allow_anonymous"] == "false" and settings["set_tcp_nodelay"] == "true"
    assert settings["persistence"] == "true" and settings["max_connections"] == "64"
    assert settings["message_size_limit"] == "16384" and settings["max_packet_size"] == "65536"
    assert settings["listener"] == str(home.port)  # every address: the home's network
    assert settings["password_file"] == str(home.files / "passwd")


def test_a_second_run_keeps_the_accounts_and_the_authority_the_other_board_has(tmp_path):
    home = Home(tmp_path)
    before = {name: (home.files / name).read_bytes()
              for name in ("accounts", "tls/ca.pem", "tls/ca.key", "tabletop.conf")}
    certificate = (home.files / "tls/server.pem").read_bytes()
    again = broker_sh("config", home.files, home.port, "localhost", "127.0.0.1")
    assert again.returncode == 0, again.stderr
    assert {name: (home.files / name).read_bytes() for name in before} == before
    # The broker's own certificate is made again (the board may have a new address).
    assert (home.files / "tls/server.pem").read_bytes() != certificate
    home.start()
    try:
        connected(home.config("board2"), "tabletop-board2").stop()
    finally:
        home.stop()
    assert sorted(p.name for p in home.files.iterdir()) == ["accounts", "passwd",
                                                            "tabletop.conf", "tls"]


def configuration(tmp_path) -> Path:
    file = tmp_path / "tabletop.toml"
    file.write_text(EXAMPLE.read_text())
    return file


def read_remote(file: Path) -> RemoteConfig:
    return remote_config.parse(tomllib.loads(file.read_text())["remote"], str(file))


def test_the_remote_table_written_is_read_by_the_board_and_reaches_the_broker(home,
                                                                             tmp_path):
    file = configuration(tmp_path)
    original = file.read_text()
    ca = home.files / "tls/ca.pem"
    args = ("remote", file, f"localhost:{home.port}", "board1", home.password("board1"), ca)
    assert broker_sh(*args).returncode == 0
    written = file.read_text()
    assert written.startswith(original) and written.count("\n[remote]\n") == 1
    remote = read_remote(file)
    assert (remote.host, remote.port, remote.tls, remote.user, remote.ca) == \
        ("localhost", home.port, True, "board1", ca)
    connected(remote, "tabletop-board1").stop()
    assert broker_sh(*args).returncode == 0 and file.read_text() == written  # once
    assert broker_sh("unremote", file).returncode == 0 and file.read_text() == original
    assert broker_sh("unremote", file).returncode == 0 and file.read_text() == original


def test_a_remote_table_of_the_board_s_own_is_refused_in_one_line_and_kept(tmp_path):
    file = configuration(tmp_path)
    file.write_text(file.read_text() + '\n[remote]\nbroker = "broker.example.org"\n')
    kept = file.read_text()
    for args in (("check", file), ("remote", file, "localhost:8883", "board1", "pw", "ca")):
        result = broker_sh(*args)
        assert result.returncode == 1 and result.stdout == ""
        assert result.stderr == (f"broker.sh: {file} has a [remote] table of its own: take "
                                 f"it out, or leave out --broker\n")
    assert file.read_text() == kept
    assert broker_sh("check", configuration(tmp_path)).returncode == 0


def test_the_other_board_is_told_its_remote_table_and_the_home_s_authority(tmp_path):
    home = Home(tmp_path)
    told = broker_sh("tell", home.files, "kitchen.local:8883")
    assert told.returncode == 0, told.stderr
    assert (home.files / "tls/ca.pem").read_text() in told.stdout
    table = told.stdout[told.stdout.index("\n[remote]\n"):told.stdout.index("then restart")]
    values = tomllib.loads(table)["remote"]
    assert values == {"broker": "kitchen.local:8883", "user": "board2",
                      "password": home.password("board2"),
                      "ca": "/etc/tabletop/home-broker-ca.pem"}
    with pytest.raises(ConfigError, match="no such file: /etc/tabletop/home-broker-ca.pem"):
        remote_config.parse(values, "tabletop.toml")  # on that board, once it is there


def test_install_sh_sets_up_the_broker_only_when_asked_and_takes_it_out_again():
    script = INSTALL_SH.read_text()
    assert subprocess.run(["sh", "-n", str(INSTALL_SH)]).returncode == 0
    # Asked for first, refused before anything changes.
    assert script.index('broker.sh" check "$CONFIG"') < script.index("apt-get update")
    assert 'PACKAGES="$PACKAGES mosquitto openssl"' in script
    assert 'PIP_EXTRAS="$PIP_EXTRAS,remote"' in script
    config = script.index('broker.sh" config "$BROKER_DIR" "$BROKER_PORT"')
    assert script.index('broker.sh" remote "$CONFIG" "localhost:$BROKER_PORT" board1') > config
    # The settings go where Debian's mosquitto.conf includes them from.
    assert "BROKER_CONF=/etc/mosquitto/conf.d/tabletop.conf" in script
    assert 'install -m 0644 "$BROKER_DIR/tabletop.conf" "$BROKER_CONF"' in script
    uninstall = script[script.index('if [ "$ACTION" = uninstall ]'):script.index("== packages")]
    assert 'broker.sh" unremote "$CONFIG"' in uninstall
    assert 'rm -rf "$BROKER_DIR" "$BROKER_CONF" "$BROKER_CA"' in uninstall
    # The other board is told what it needs, last, where it is read.
    assert script.rstrip().endswith('sh "$SOURCE/systemd/broker.sh" tell "$BROKER_DIR" '
                                    '"$(hostname).local:$BROKER_PORT"\nfi')
