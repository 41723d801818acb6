"""``[remote]`` of the configuration file: which broker the board plays through, as whom.

::

    [remote]
    broker = "broker.example.org"   # host or host:port; 8883 with TLS, 1883 without
    user = "anna"
    password = "..."                # or a client certificate:
    certificate = "/etc/tabletop/board.pem"
    key = "/etc/tabletop/board.key"
    ca = "/etc/tabletop/ca.pem"     # the broker's authority; the system's by default
    tls = true                      # false only for a broker in the home network
    club = "riverside"              # the boards that list their games together
    name = "Anna's kitchen"         # what the other board calls this one

Only ``broker`` is needed. Each problem is one line naming the file and the key, as the
rest of the configuration's are (:class:`app.errors.ConfigError`); the table's
configuration hands its ``[remote]`` table to :func:`parse`.
"""

from __future__ import annotations

import re
import socket
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.errors import ConfigError

#: The broker's port when none is given: MQTT's registered ports.
TLS_PORT, PLAIN_PORT = 8883, 1883
#: A club's name is one level of an MQTT topic: no ``/``, ``+`` or ``#``.
CLUB = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
DEFAULT_CLUB = "tabletop"
NAME_CHARS = 40
KEYS = ("broker", "user", "password", "certificate", "key", "ca", "tls", "club", "name")
HOST = re.compile(r"[A-Za-z0-9]([A-Za-z0-9.-]{0,252})|\[[0-9A-Fa-f:.]+\]")


@dataclass(frozen=True)
class RemoteConfig:
    host: str
    port: int
    tls: bool = True
    user: str | None = None
    password: str | None = None
    certificate: Path | None = None
    key: Path | None = None
    ca: Path | None = None
    club: str = DEFAULT_CLUB
    name: str = ""

    @property
    def broker(self) -> str:
        return f"{self.host}:{self.port}"


def parse(table: Any, where: str) -> RemoteConfig:
    """The ``[remote]`` ``table`` of the file ``where``, checked; one line if it is wrong."""

    def fail(key: str, problem: str) -> ConfigError:
        return ConfigError(f"{where}: remote.{key}: {problem}")

    if not isinstance(table, Mapping):
        raise ConfigError(f"{where}: remote must be a table ([remote]), not {_shown(table)}")
    unknown = sorted(set(table) - set(KEYS))
    if unknown:
        raise fail(unknown[0], f"no such setting (there are {', '.join(KEYS)})")
    if "broker" not in table:
        raise ConfigError(f"{where}: remote: broker is needed (the broker's host, "
                          f"or host:port)")

    def text(key: str, limit: int = 256) -> str | None:
        value = table.get(key)
        if value is None:
            return None
        if not isinstance(value, str) or not value or len(value) > limit \
                or not value.isprintable():
            raise fail(key, f"must be text of 1 to {limit} printable characters, "
                            f"not {_shown(value)}")
        return value

    tls = table.get("tls", True)
    if not isinstance(tls, bool):
        raise fail("tls", f"must be true or false, not {_shown(tls)}")
    host, port = _broker(text("broker"), tls, fail)
    club = table.get("club", DEFAULT_CLUB)
    if not isinstance(club, str) or not CLUB.fullmatch(club):
        raise fail("club", f"must be 1 to 32 lower-case letters, digits, - or _, "
                           f"not {_shown(club)}")
    files = {key: _file(text(key, 4096), key, fail) for key in ("certificate", "key", "ca")}
    if (files["certificate"] is None) != (files["key"] is None):
        raise fail("certificate", "a client certificate needs its key, and a key its "
                                  "certificate")
    if files["certificate"] is not None and not tls:
        raise fail("certificate", "a client certificate needs tls = true")
    user, password = text("user"), text("password")
    if password is not None and user is None:
        raise fail("password", "a password needs its user")
    return RemoteConfig(host=host, port=port, tls=tls, user=user, password=password,
                        club=club, name=text("name", NAME_CHARS) or socket.gethostname(),
                        **files)


def _broker(value: str, tls: bool, fail) -> tuple[str, int]:
    host, colon, port = value.rpartition(":") if not value.endswith("]") else ("", "", "")
    host = host if colon else value
    if not HOST.fullmatch(host):
        raise fail("broker", f"must be a host name or address, or host:port, "
                             f"not {_shown(value)}")
    if not colon:
        return host.strip("[]"), TLS_PORT if tls else PLAIN_PORT
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise fail("broker", f"the port must be a number from 1 to 65535, not {_shown(port)}")
    return host.strip("[]"), int(port)


def _file(value: str | None, key: str, fail) -> Path | None:
    if value is None:
        return None
    path = Path(value)
    if not path.is_file():
        raise fail(key, f"no such file: {value}")
    return path


def _shown(value: Any) -> str:
    return repr(value)[:60]
