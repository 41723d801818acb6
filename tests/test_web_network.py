"""The board's page follows the network, seen from outside the program: boards started
as the service starts them (``tabletop run`` with the default ``[web]``), each in a
network namespace of its own with loopback only, and a phone on the same link that
fetches the page and resolves ``tabletop.local`` over mDNS (tests/home_network.py).

A Pi on Wi-Fi starts the service before the network is up, and DHCP may change the
address later; a second board on the same network must not answer to the first one's
name. Everything is waited for with generous deadlines, nothing timed."""

import os
import shutil

import pytest

from tests.home_network import HomeNetwork, lines, until

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("ip") is None,
    reason="network namespaces need root and iproute2 (make system-tools installs it)")


def start_board(net, board, tmp_path):
    """``tabletop run`` of a ConHex board in ``board``'s namespace, with the default
    web settings (every address, port 80); its log file."""
    config = tmp_path / f"{board}.toml"
    config.write_text(f'data_dir = "{tmp_path / board}"\n')
    log = tmp_path / f"{board}.log"
    net.start(board, ["run", "--profile", "conhex-sim", "--config", str(config)], log)
    return log


def logged(log, text):
    """The board's log lines that hold ``text``."""
    return [line for line in lines(log) if text in line]


def test_the_page_and_tabletop_local_follow_the_board_s_address(tmp_path):
    """A board whose network comes after it started, then changes, goes and comes back.
    The link has no way out (no default route), as a Pi's own hotspot: the page's
    address is still the one it has on the link."""
    with HomeNetwork() as net:
        board = net.board("board")
        log = start_board(net, board, tmp_path)
        started = until("the page served before the network is up",
                        lambda: logged(log, "web page on "))
        assert "http://127.0.0.1:80/" in started[0]

        net.plug(board)
        net.address(board, "add", "10.77.0.2")  # the network comes up after the service
        until("the page at the address the network gave",
              lambda: net.phone_asks("get", "http://10.77.0.2/"), ["conhex"])
        until("tabletop.local at that address",
              lambda: net.phone_asks("resolve", "tabletop.local"), ["10.77.0.2"])
        assert "on no network yet" in started[0]
        assert logged(log, "web page at http://10.77.0.2:80/ (the network changed)")
        until("the name said in the log", lambda: logged(
            log, "web page advertised as http://tabletop.local/ (10.77.0.2)"))

        net.address(board, "add", "10.77.0.3")  # DHCP hands out another address...
        net.address(board, "del", "10.77.0.2")  # ...and takes the old one back
        until("the page at the new address",
              lambda: net.phone_asks("get", "http://10.77.0.3/"), ["conhex"])
        until("tabletop.local at the new address only",
              lambda: net.phone_asks("resolve", "tabletop.local"), ["10.77.0.3"])
        assert logged(log, "web page at http://10.77.0.3:80/ (the network changed)")

        net.address(board, "del", "10.77.0.3")  # the network goes...
        until("the page said to be on no network",
              lambda: logged(log, "web page: on no network now: at http://127.0.0.1:80/"))
        net.address(board, "add", "10.77.0.4")  # ...and comes back
        until("the page when the network is back",
              lambda: net.phone_asks("get", "http://10.77.0.4/"), ["conhex"])
        until("tabletop.local when the network is back",
              lambda: net.phone_asks("resolve", "tabletop.local"), ["10.77.0.4"])
        assert net.stop(net.processes[0]) == 0  # one process all along: never restarted


def test_a_second_board_on_the_network_answers_as_tabletop_2(tmp_path):
    """RFC 6762's probe: the board that comes second finds the name taken and takes the
    next, and says so in one line. Its address sorts before the first board's, so that
    a simultaneous claim would end the same way (the later address keeps the name)."""
    with HomeNetwork() as net:
        first, second = net.board("first"), net.board("second")
        for board, address in ((first, "10.77.0.20"), (second, "10.77.0.10")):
            net.plug(board)
            net.address(board, "add", address, gateway=True)
        first_log = start_board(net, first, tmp_path)
        until("the first board as tabletop.local",
              lambda: net.phone_asks("resolve", "tabletop.local"), ["10.77.0.20"])
        second_log = start_board(net, second, tmp_path)
        until("the second board as tabletop-2.local",
              lambda: net.phone_asks("resolve", "tabletop-2.local"), ["10.77.0.10"])
        until("tabletop.local the first board's alone",
              lambda: net.phone_asks("resolve", "tabletop.local"), ["10.77.0.20"])
        until("the second board saying so", lambda: logged(
            second_log, "web page: another board on this network is tabletop.local: this "
                        "one is advertised as http://tabletop-2.local/ (10.77.0.10)"))
        assert not logged(first_log, "another board")
        for process in net.processes:
            assert net.stop(process) == 0


def test_two_boards_started_together_settle_on_two_names(tmp_path):
    """Neither is there to answer the other's probe: both claim tabletop.local, see the
    other's announcement, and one yields (RFC 6762 sections 8.2 and 9)."""
    with HomeNetwork() as net:
        boards = {net.board("one"): "10.77.0.30", net.board("two"): "10.77.0.40"}
        for board, address in boards.items():
            net.plug(board)
            net.address(board, "add", address, gateway=True)
        for board in boards:
            start_board(net, board, tmp_path)

        def names():
            found = [net.phone_asks("resolve", name)
                     for name in ("tabletop.local", "tabletop-2.local")]
            return sorted(sum(found, [])) if all(len(f) == 1 for f in found) else found

        until("tabletop.local and tabletop-2.local, one board each", names,
              sorted(boards.values()))
        for process in net.processes:
            assert net.stop(process) == 0
