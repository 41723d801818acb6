"""The package as a person installs it: the wheel builds without a warning, installs (not
editable) into a fresh virtual environment with only its base dependencies, and the
installed ``tabletop`` runs a simulated board headless and passes its self-test there,
finding its profiles, layouts and example configuration as package data.

Deselect with ``-m "not package"``: it builds with pip (setuptools from the package index)
and takes some seconds. One wheel and one environment serve the whole module.
"""

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.package

ROOT = Path(__file__).resolve().parents[1]
#: What pip says about this machine's own index configuration, not about the build.
INDEX_NOTE = re.compile(r"^WARNING: Location '[^']*' is ignored: it is neither a file nor "
                        r"a directory\.$")
#: Any warning a build backend, setuptools, wheel or pip prints ("SetuptoolsDeprecation
#: Warning:", "warning: build_py: ...", "WARNING: ...").
WARNING = re.compile(r"warning\b|deprecat", re.IGNORECASE)
#: Tracked sources only: no virtual environment, build output or caches of the work tree.
NOT_SOURCE = shutil.ignore_patterns(".venv", ".git", "build", "dist", "*.egg-info",
                                    "__pycache__", ".pytest_cache", ".hypothesis", ".cache")


def clean_env(**extra):
    """This process's environment without anything that would reach the source tree."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP")}
    return {**env, **extra}


def build_wheel(source: Path, out: Path, cwd: Path) -> tuple[subprocess.CompletedProcess,
                                                               list[str]]:
    """``pip wheel`` with build isolation and the backend's output shown; the warnings in
    it. PYTHONDONTWRITEBYTECODE is left out: with it, setuptools notes that it skips
    byte-compiling, which is this machine's setting and not the package's."""
    env = clean_env()
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--verbose", "--no-deps", "--wheel-dir",
         str(out), str(source)],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=240)
    lines = (result.stdout + result.stderr).splitlines()
    warnings = [line for line in lines
                if WARNING.search(line) and not INDEX_NOTE.match(line.strip())]
    return result, warnings


def copy_source(target: Path) -> Path:
    """The work tree's sources, so a build writes its build/ and egg-info there."""
    shutil.copytree(ROOT, target, ignore=NOT_SOURCE)
    return target


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The wheel, built from a copy of the sources, and what the build printed."""
    base = tmp_path_factory.mktemp("package")
    source = copy_source(base / "src")
    result, warnings = build_wheel(source, base / "dist", base)
    assert result.returncode == 0, result.stdout + result.stderr
    wheels = list((base / "dist").glob("tabletop-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0], warnings


@pytest.fixture(scope="module")
def venv(built, tmp_path_factory):
    """A fresh virtual environment with the wheel and its base dependencies only."""
    wheel, _ = built
    home = tmp_path_factory.mktemp("venv")
    target = home / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(target)], check=True,
                   cwd=home, env=clean_env(), timeout=120)
    python = target / "bin" / "python"
    # This environment's pip installs into the new one; it brings platformdirs, no extra.
    result = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
         str(wheel)], cwd=home, env=clean_env(), capture_output=True, text=True, timeout=240)
    assert result.returncode == 0, result.stdout + result.stderr
    return target


def in_venv(venv, *args, cwd, env=None, timeout=60):
    return subprocess.run([str(venv / "bin" / "python"), *args], cwd=cwd, timeout=timeout,
                          env=env or clean_env(), capture_output=True, text=True)


def test_the_wheel_builds_without_a_warning(built):
    _, warnings = built
    assert warnings == []


def test_a_deprecated_setting_would_be_caught(tmp_path):
    """The check above sees backend warnings: a license table (deprecated) shows one.
    (A table beside ``license-files`` is an error, so the licence file goes too.)"""
    source = copy_source(tmp_path / "src")
    pyproject = source / "pyproject.toml"
    text = pyproject.read_text()
    assert 'license = "MIT"\nlicense-files = ["LICENSE"]\n' in text
    pyproject.write_text(text.replace('license = "MIT"\nlicense-files = ["LICENSE"]\n',
                                      'license = { text = "MIT" }\n'))
    _, warnings = build_wheel(source, tmp_path / "dist", tmp_path)
    assert any("license" in line for line in warnings), warnings


def test_the_installed_package_is_the_wheel_not_the_source_tree(venv, tmp_path):
    result = in_venv(venv, "-c", "import app, engines, sys; print(app.__file__); "
                     "print(engines.__file__); print(sys.prefix)", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    app_file, engines_file, prefix = result.stdout.split("\n")[:3]
    for path in (app_file, engines_file):
        assert Path(path).is_relative_to(venv) and not Path(path).is_relative_to(ROOT)
    assert Path(prefix) == venv


def test_only_the_base_dependencies_are_installed(venv, tmp_path):
    """The engines and a headless table need platformdirs alone: the screen and the
    Pi's libraries are extras, with pygame under [screen] (and pinned under [test], whose
    pictures are compared pixel for pixel)."""
    script = ("import importlib.util as u, importlib.metadata as m\n"
              "print(*[n for n in ('pygame', 'gpiozero', 'board', 'serial', 'pytest')"
              " if u.find_spec(n)])\n"
              "for r in m.requires('tabletop'): print(r)\n")
    result = in_venv(venv, "-c", script, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    importable, *requires = result.stdout.splitlines()
    assert importable == ""
    base = [r for r in requires if "extra ==" not in r]
    assert [re.split(r"[<>=; ]", r)[0] for r in base] == ["platformdirs"]
    extras = {re.search(r'extra == "(\w+)"', r)[1] for r in requires if "extra ==" in r}
    assert extras == {"screen", "pi", "firmware", "web", "remote", "test"}
    assert [r for r in requires if r.startswith("pygame")] == [
        'pygame-ce>=2.5.8; (platform_machine != "armv7l" and platform_machine != "armv6l") '
        'and extra == "screen"',
        'pygame-ce==2.5.8; (platform_machine != "armv7l" and platform_machine != "armv6l") '
        'and extra == "test"']


def test_the_wheel_carries_the_licence_and_says_its_version(built, venv, tmp_path):
    wheel, _ = built
    with zipfile.ZipFile(wheel) as archive:
        licences = [n for n in archive.namelist() if n.endswith("/LICENSE")]
        assert len(licences) == 1 and ".dist-info/" in licences[0]
        assert archive.read(licences[0]).decode() == (ROOT / "LICENSE").read_text()
        assert "License-Expression: MIT" in archive.read(
            next(n for n in archive.namelist() if n.endswith("/METADATA"))).decode()
    result = subprocess.run([str(venv / "bin" / "tabletop"), "--version"], cwd=tmp_path,
                            env=clean_env(), capture_output=True, text=True, timeout=60)
    version = re.search(r'^version = "([^"]+)"', (ROOT / "pyproject.toml").read_text(),
                        re.MULTILINE)[1]
    assert (result.returncode, result.stdout) == (0, f"tabletop {version}\n")


def test_profiles_layouts_and_the_example_config_are_package_data(venv, tmp_path):
    shipped = sorted(p.stem for p in (ROOT / "app" / "hardware" / "profiles").glob("*.toml"))
    script = ("from app.hardware.profile import shipped_profiles\n"
              "print(*shipped_profiles())\n"
              "from app.games import new_game\n"  # layouts and cells are text files
              "print(*[new_game(g).game for g in ('kulami', 'conhex')])\n"
              "from engines.blokus_duo.board import BlokusDuoBoard\n"  # pieces.txt
              "print(BlokusDuoBoard().legal_moves.count())\n"
              "from app.hardware.pi import MODELS\n"  # pi_models.toml
              "print(*MODELS)\n")
    result = in_venv(venv, "-c", script, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [" ".join(shipped), "kulami conhex", "828",
                                          "bcm2835 bcm2836 bcm2837 bcm2711 bcm2712"]
    # install.sh copies the example configuration out of the installed package
    command = re.search(r'"\$PREFIX/venv/bin/python" -c \'([^\']+)\'',
                        (ROOT / "systemd" / "install.sh").read_text())[1]
    result = in_venv(venv, "-c", command, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == (ROOT / "app" / "table" / "tabletop.example.toml").read_text()


def test_the_installed_tabletop_runs_a_simulated_board_headless(venv, tmp_path):
    config = tmp_path / "tabletop.toml"
    config.write_text(f'data_dir = "{tmp_path / "data"}"\n'
                      '[game]\nfirst = "person"\nsecond = "person"\n')
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(tmp_path / "notify"))
    listener.settimeout(60)
    env = clean_env(PYTHONUNBUFFERED="1", NOTIFY_SOCKET=str(tmp_path / "notify"))
    process = subprocess.Popen(
        [str(venv / "bin" / "tabletop"), "run", "--profile", "kulami-sim",
         "--config", str(config)], cwd=tmp_path, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        message = listener.recv(4096).decode()
        while not message.startswith("READY=1"):
            message = listener.recv(4096).decode()
        time.sleep(2)  # the loop turns: scanning, lighting, feeding nobody's watchdog
        assert process.poll() is None, process.communicate()[0]
        process.send_signal(signal.SIGTERM)
        output, _ = process.communicate(timeout=30)
    finally:
        process.kill()
        listener.close()
    assert process.returncode == 0, output
    assert "LEDs off" in output and "Traceback" not in output
    assert [p.name for p in (tmp_path / "data" / "games").iterdir()] == ["000001-kulami.sgf"]


def test_the_installed_selftest_passes_on_a_simulated_profile(venv, tmp_path):
    result = subprocess.run(
        [str(venv / "bin" / "tabletop"), "selftest", "--profile", "kulami-sim",
         "--step", "0", "--hold", "0", "--timeout", "2"],
        cwd=tmp_path, env=clean_env(), capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "all sensors answered" in result.stdout
