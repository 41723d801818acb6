"""The service's lines reach the journal at their priority, so ``journalctl -p warning``
shows the board's warnings and errors; a terminal or a pipe gets plain lines.

systemd tells a service which stream is the journal's in ``JOURNAL_STREAM``
(``DEVICE:INODE``); these tests stand a file in for that stream and run the real
``tabletop`` with it as standard output and standard error.
"""

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import JOURNAL_PRIORITIES, JournalFormatter, writes_to_journal

ROOT = Path(__file__).resolve().parents[1]


def stream_id(path: Path) -> str:
    info = os.stat(path)
    return f"{info.st_dev}:{info.st_ino}"


@pytest.mark.parametrize("level, prefix", [(logging.ERROR, "<3>"), (logging.WARNING, "<4>"),
                                           (logging.INFO, "<6>"), (logging.DEBUG, "<7>"),
                                           (logging.CRITICAL, "<2>")])
def test_each_level_carries_its_syslog_priority(level, prefix):
    record = logging.LogRecord("tabletop", level, __file__, 1, "LEDs off", None, None)
    line = JournalFormatter("%(levelname)s %(name)s: %(message)s").format(record)
    assert line == f"{prefix}{logging.getLevelName(level)} tabletop: LEDs off"
    assert JOURNAL_PRIORITIES[level] == int(prefix[1])


def test_only_the_journals_own_stream_gets_priorities(tmp_path):
    journal, other = tmp_path / "journal", tmp_path / "other"
    journal.touch()
    other.touch()
    with open(journal, "w") as stream, open(other, "w") as elsewhere:
        environ = {"JOURNAL_STREAM": stream_id(journal)}
        assert writes_to_journal(stream, environ)
        assert not writes_to_journal(elsewhere, environ)
        assert not writes_to_journal(stream, {})
        assert not writes_to_journal(stream, {"JOURNAL_STREAM": "nonsense"})


def run_into(path: Path, *args: str, journal: bool) -> tuple[int, list[str]]:
    """Run ``tabletop ARGS`` with stdout and stderr on ``path``, as the service does."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("JOURNAL_STREAM", "BLINKA_OS_AGNOSTIC", "GPIOZERO_PIN_FACTORY")}
    env["SDL_VIDEODRIVER"] = "dummy"
    path.touch()
    if journal:
        env["JOURNAL_STREAM"] = stream_id(path)
    with open(path, "w") as stream:
        status = subprocess.run([sys.executable, "-m", "app.cli", *args], cwd=ROOT, env=env,
                                stdout=stream, stderr=stream, timeout=120).returncode
    return status, path.read_text().splitlines()


def test_a_board_that_cannot_start_says_why_at_error_priority(tmp_path):
    """The last line of a failed start is what `journalctl -p err` shows."""
    config = tmp_path / "tabletop.toml"
    config.write_text(f'data_dir = "{tmp_path / "data"}"\n')
    status, lines = run_into(tmp_path / "journal", "run", "--profile", "kulami", "--config",
                             str(config), journal=True)
    assert status == 1
    assert lines[-1].startswith("<3>tabletop run: profile kulami: LEDs (neopixel_spi on SPI)")
    assert all(line[:3] in ("<3>", "<4>", "<6>") for line in lines), lines
    status, plain = run_into(tmp_path / "terminal", "run", "--profile", "kulami", "--config",
                             str(config), journal=False)
    assert status == 1 and plain[-1] == lines[-1].removeprefix("<3>")
    assert not any(line.startswith("<") for line in plain)
