"""The systemd notify protocol against a fake NOTIFY_SOCKET, and the SIGTERM stop."""

import os
import signal
import socket

import pytest

from app.table.service import Notifier, ServiceStop, stop_on_signals


@pytest.fixture
def systemd(tmp_path):
    """A datagram socket standing in for systemd's notify socket."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = tmp_path / "notify"
    listener.bind(str(path))
    listener.settimeout(5)
    yield path, listener
    listener.close()


def received(listener):
    return listener.recv(4096).decode().split("\n")


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_ready_status_and_stopping_reach_the_socket(systemd):
    path, listener = systemd
    notifier = Notifier.from_environ({"NOTIFY_SOCKET": str(path)})
    notifier.ready("playing kulami")
    notifier.status("move 3")
    notifier.stopping()
    assert received(listener) == ["READY=1", "STATUS=playing kulami"]
    assert received(listener) == ["STATUS=move 3"]
    assert received(listener) == ["STOPPING=1"]


def test_the_watchdog_is_fed_every_half_timeout(systemd):
    path, listener = systemd
    clock = Clock()
    notifier = Notifier.from_environ({"NOTIFY_SOCKET": str(path), "WATCHDOG_USEC": "10000000"},
                                     clock=clock)
    notifier.ready()
    received(listener)
    pings = []
    for _ in range(12):  # the loop turns every second for twelve seconds
        clock.now += 1
        pings.append(notifier.watchdog())
    assert pings == [False] * 4 + [True] + [False] * 4 + [True] + [False] * 2
    assert received(listener) == ["WATCHDOG=1"]
    assert received(listener) == ["WATCHDOG=1"]


def test_a_watchdog_meant_for_another_process_is_ignored(systemd):
    path, _ = systemd
    env = {"NOTIFY_SOCKET": str(path), "WATCHDOG_USEC": "1000", "WATCHDOG_PID": "1"}
    assert Notifier.from_environ(env).watchdog_interval is None
    env["WATCHDOG_PID"] = str(os.getpid())
    assert Notifier.from_environ(env).watchdog_interval == 0.0005


def test_abstract_socket_addresses_are_supported():
    name = f"tabletop-test-{os.getpid()}"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind("\0" + name)
    listener.settimeout(5)
    try:
        Notifier.from_environ({"NOTIFY_SOCKET": "@" + name}).ready()
        assert received(listener) == ["READY=1"]
    finally:
        listener.close()


def test_without_systemd_nothing_is_sent_and_nothing_fails():
    notifier = Notifier.from_environ({})
    notifier.ready()
    notifier.stopping()
    assert notifier.watchdog() is False


def test_a_vanished_socket_is_logged_not_fatal(tmp_path, caplog):
    Notifier(str(tmp_path / "gone")).ready()
    assert "cannot notify systemd" in caplog.text


def test_sigterm_raises_service_stop_and_the_old_handler_returns():
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(ServiceStop) as stopped:
        with stop_on_signals():
            os.kill(os.getpid(), signal.SIGTERM)
    assert stopped.value.signum == signal.SIGTERM
    assert signal.getsignal(signal.SIGTERM) is before


def test_a_second_signal_while_stopping_lets_the_clean_up_finish():
    """``timeout -s TERM`` signals the process, then its process group: the second
    SIGTERM arrives while ``finally`` blocks turn things off, and raised there it cut
    them short and ended in a traceback."""
    cleaned = []
    with pytest.raises(ServiceStop) as stopped:
        with stop_on_signals():
            try:
                os.kill(os.getpid(), signal.SIGTERM)
            finally:
                os.kill(os.getpid(), signal.SIGTERM)  # the process group's
                os.kill(os.getpid(), signal.SIGINT)
                cleaned.append("LEDs off")
    assert stopped.value.signum == signal.SIGTERM and cleaned == ["LEDs off"]
