"""Where the page listens: the LAN address, unless the configuration or the command
line names another (``[HOST:]PORT``). Kept apart from the server so that reading a
command line never loads the web library."""

from __future__ import annotations

import socket


def lan_address() -> str:
    """This machine's address on the home network: the one its traffic to the outside
    would leave from (no packet is sent); ``127.0.0.1`` when it has no network."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed, never sent to
            return probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def web_address(text: str) -> tuple[str, int]:
    """``[HOST:]PORT`` as a command line or the configuration gives it: the host is the
    LAN address unless named (``lan`` names it too)."""
    host, _, port = text.rpartition(":")
    host = host.strip("[]") or "lan"
    try:
        number = int(port)
    except ValueError:
        raise ValueError(f"expected [HOST:]PORT, not {text!r}") from None
    if not 0 <= number <= 65535:
        raise ValueError(f"a port is 0 to 65535, not {number}")
    return (lan_address() if host == "lan" else host), number
