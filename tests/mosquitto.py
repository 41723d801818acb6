"""A real mosquitto for the tests, started as a user would start one: Debian's package
(``make system-tools`` installs it), a configuration file of its own, TLS with an
authority the test makes, password accounts, persistence on disk, a free local port;
stopped (and restarted) by its own process id."""

from __future__ import annotations

import datetime
import getpass
import ipaddress
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from app.remote.config import RemoteConfig

#: Debian puts the broker in /usr/sbin, which a user's PATH may lack.
MOSQUITTO = shutil.which("mosquitto", path=os.environ.get("PATH", "") + ":/usr/sbin")
PASSWD = shutil.which("mosquitto_passwd")
USERS = {"anna": "anna's password", "ben": "ben's password", "eve": "eve's password"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _write_key(path: Path, key) -> None:
    path.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                       serialization.PrivateFormat.PKCS8,
                                       serialization.NoEncryption()))


def make_authority(directory: Path, name: str) -> tuple[Path, Path]:
    """A certificate authority ``name`` and a certificate it signs for localhost and
    127.0.0.1: (the authority's certificate, the server's certificate); the server's
    key is beside it as server.key."""
    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name)
          .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
          .not_valid_before(now - datetime.timedelta(hours=1))
          .not_valid_after(now + datetime.timedelta(days=2))
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
          .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    server = (x509.CertificateBuilder()
              .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")]))
              .issuer_name(ca_name).public_key(key.public_key())
              .serial_number(x509.random_serial_number())
              .not_valid_before(now - datetime.timedelta(hours=1))
              .not_valid_after(now + datetime.timedelta(days=2))
              .add_extension(x509.SubjectAlternativeName(
                  [x509.DNSName("localhost"),
                   x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
              .sign(ca_key, hashes.SHA256()))
    directory.mkdir(parents=True, exist_ok=True)
    ca_path, server_path = directory / "ca.pem", directory / "server.pem"
    ca_path.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    server_path.write_bytes(server.public_bytes(serialization.Encoding.PEM))
    _write_key(directory / "server.key", key)
    return ca_path, server_path


class Mosquitto:
    """A broker on 127.0.0.1 at a free port, TLS and passwords, state kept in
    ``directory``."""

    def __init__(self, directory: Path) -> None:
        assert MOSQUITTO and PASSWD, "mosquitto is not installed: run make system-tools"
        self.directory = directory
        self.port = free_port()
        self.ca, server = make_authority(directory / "tls", "Tabletop test CA")
        passwords = directory / "passwd"
        passwords.touch(mode=0o600)
        for user, password in USERS.items():
            subprocess.run([PASSWD, "-b", str(passwords), user, password], check=True,
                           capture_output=True)
        (directory / "data").mkdir()
        self.log = directory / "mosquitto.log"
        self.conf = directory / "mosquitto.conf"
        self.conf.write_text(
            f"user {getpass.getuser()}\n"
            # As a board's own broker is set up: moves are small messages, sent at once.
            f"set_tcp_nodelay true\n"
            f"persistence true\npersistence_location {directory / 'data'}/\n"
            f"log_dest file {self.log}\nlog_type all\n"
            f"listener {self.port} 127.0.0.1\n"
            f"allow_anonymous false\npassword_file {passwords}\n"
            f"cafile {self.ca}\ncertfile {server}\nkeyfile {directory / 'tls/server.key'}\n")
        self.process: subprocess.Popen | None = None

    def config(self, user: str, **settings) -> RemoteConfig:
        """What a board's ``[remote]`` says to reach this broker as ``user``."""
        return RemoteConfig(**{"host": "localhost", "port": self.port, "user": user,
                               "password": USERS[user], "ca": self.ca, **settings})

    def start(self) -> None:
        self.process = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"mosquitto ended at once: "
                                   f"{self.process.stderr.read().decode()[-500:]}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"mosquitto did not listen on {self.port} within 30 s")

    def stop(self) -> None:
        """Stop this broker (by its own process id); it saves its retained messages."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)
        if self.process is not None:
            self.process.stderr.close()
        self.process = None
