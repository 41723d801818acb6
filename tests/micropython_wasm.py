"""Run code under real MicroPython: its WebAssembly port, under node.

The firmware must run on MicroPython, which is not CPython: no dataclasses, fewer
methods on bytes, another ``struct``. The stand-ins run the firmware's logic under
CPython; this runs it under MicroPython itself, from the npm package
``@micropython/micropython-webassembly-pyscript``, which ``make test`` installs into
``.venv/micropython`` on a machine with node and npm (``make micropython``). Tests that
need it are skipped, and say why, only where node is missing; ``MICROPYTHON_MJS`` may
point at another ``micropython.mjs``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

PACKAGE = "@micropython/micropython-webassembly-pyscript"
PLACES = [Path(__file__).resolve().parents[1] / ".venv" / "micropython"]

RUNNER = """
import { loadMicroPython } from %(mjs)s;
import fs from "fs";
const job = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
let out = "";
const text = d => (typeof d === "string" ? d : new TextDecoder().decode(d));
const mp = await loadMicroPython({heapsize: 8 * 1024 * 1024, linebuffer: false,
    stdout: d => { out += text(d); }, stderr: d => { out += text(d); }});
mp.FS.mkdir("/fw");
for (const [name, text] of Object.entries(job.files)) mp.FS.writeFile("/fw/" + name, text);
try {
  mp.runPython("import sys\\nsys.path.insert(0, '/fw')\\nimport os\\nos.chdir('/fw')\\n" + job.code);
} catch (e) { out += "\\nEXCEPTION " + e; }
process.stdout.write(out);
"""


def find() -> Path | None:
    """The ``micropython.mjs`` to run, or ``None`` when node or the package is missing."""
    if shutil.which("node") is None:
        return None
    given = os.environ.get("MICROPYTHON_MJS")
    if given:
        return Path(given) if Path(given).is_file() else None
    for place in PLACES:
        mjs = place / "node_modules" / PACKAGE / "micropython.mjs"
        if mjs.is_file():
            return mjs
    return None


def run(mjs: Path, files: dict[str, str], code: str, timeout: float = 120) -> str:
    """What ``code`` prints under MicroPython with ``files`` beside it (and importable)."""
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "run.mjs"
        script.write_text(RUNNER % {"mjs": json.dumps(mjs.as_uri())})
        job = Path(folder) / "job.json"
        job.write_text(json.dumps({"files": files, "code": code}))
        done = subprocess.run(["node", str(script), str(job)], capture_output=True,
                              text=True, timeout=timeout)
        return done.stdout + done.stderr
