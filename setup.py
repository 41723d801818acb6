"""The engines' compiled cores, C extensions built by the same ``pip install`` as the rest
of the package (engines/blokus_duo/compiled.py says why C). Everything else about the
package is in pyproject.toml; the extensions are here because pyproject.toml's own
``ext-modules`` table is still experimental in setuptools and warns on every build.

A game's core is found by its place, ``engines/<game>/_<name>.c`` becoming the module
``engines.<game>._<name>``, so a game brings its core through its own door and this file
names none. Optional: where no C compiler is found the install goes on and the engines
play in Python, saying so once."""

from pathlib import Path

from setuptools import Extension, setup

HERE = Path(__file__).parent

setup(ext_modules=[
    Extension(".".join(source.with_suffix("").parts), [source.as_posix()], optional=True)
    for source in sorted(path.relative_to(HERE) for path in HERE.glob("engines/*/_*.c"))
])
