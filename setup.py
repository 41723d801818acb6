"""The engines' compiled cores, C extensions built by the same ``pip install`` as the rest
of the package (engines/blokus_duo/compiled.py says why C). Everything else about the
package is in pyproject.toml; the extensions are here because pyproject.toml's own
``ext-modules`` table is still experimental in setuptools and warns on every build.
Optional: where no C compiler is found the install goes on and the engines play in
Python, saying so once."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("engines.blokus_duo._playout", ["engines/blokus_duo/_playout.c"],
                             optional=True)])
