"""bench/pentobi_match.py's timing proxy, which stands between twogtp and our engine:
every line passes through untouched and each genmove's seconds land in the log. (The
matches themselves need Pentobi's binaries and are run by hand.)"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_proxy_passes_gtp_through_and_logs_each_genmove(tmp_path):
    log = tmp_path / "times.txt"
    engine = [sys.executable, "-m", "app.cli", "gtp", "blokus-duo", "level=1", "seed=3"]
    commands = "set_game Blokus Duo\n7 genmove b\nplay w j4,i5,j5,k5,j6\ngenmove b\nquit\n"
    through = subprocess.run(
        [sys.executable, "-m", "bench.pentobi_match", "proxy", "--log", str(log), "--",
         *engine], input=commands, capture_output=True, text=True, cwd=ROOT, timeout=60)
    direct = subprocess.run(engine, input=commands, capture_output=True, text=True,
                            cwd=ROOT, timeout=60)
    assert through.returncode == 0, through.stderr
    assert through.stdout == direct.stdout and through.stdout.startswith("= \n\n=7 ")
    times = [float(line) for line in log.read_text().split()]
    assert len(times) == 2 and all(0 <= t < 30 for t in times)


def test_the_engine_takes_a_policy_change_and_logs_each_searchs_walks(tmp_path):
    log = tmp_path / "walks.txt"
    commands = "genmove b\nplay w j4,i5,j5,k5,j6\ngenmove b\nquit\n"
    done = subprocess.run(
        [sys.executable, "-m", "bench.pentobi_match", "engine", "--policy",
         "max_playouts=32", "--walks", str(log), "--", "level=max", "seed=3"],
        input=commands, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("= ")
    assert log.read_text().split() == ["32", "32"]
