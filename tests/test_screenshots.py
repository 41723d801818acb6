"""The README's pictures are current: the window and the status screen are made by one
line a game of the Makefile's ``screenshots`` target (``tabletop simulate ...
--screenshot PATH --screen PATH``), and made again here each is the same picture, pixel
for pixel.

The web page's pictures are Chromium's drawing, and Debian updates Chromium, whose text
may move a pixel from one release to the next: the target's last line makes them at a
phone's size and a laptop's, and the browser test compares the page with them within a
tolerance (tests/test_web_browser_layout.py).

Exact equality holds because nothing in a picture is left to chance or to the clock:
the moves and the engine's answers are seeded and its budgets are counted in playouts,
not seconds, and pygame-ce draws text with its own bundled font, the same on every
machine with one pygame-ce version. Another pygame-ce release may draw text a pixel
differently; then ``make screenshots`` makes the pictures again (and the diff shows
whether only the text moved).
"""

import shlex
from pathlib import Path

import pygame
import pytest

from app.cli import main
from app.cli.simulate import PAGE_SIZE

ROOT = Path(__file__).resolve().parents[1]
PICTURES = ROOT / "docs" / "screenshots"
PATH_FLAGS = ("--screenshot", "--screen")
#: The pictures compared pixel for pixel: those pygame-ce draws.
EXACT_FLAGS = ("--screenshot", "--screen")


#: The ``screenshots`` target's last line: the live page's pictures at two sizes, made
#: and compared by the page's browser test (tests/test_web_browser_layout.py).
PAGE_PICTURES_LINE = ("TABLETOP_REMAKE_PAGE_PICTURES=1 $(PY) -m pytest -q "
                      "tests/test_web_browser_layout.py -k committed_picture")


def target_lines() -> list[str]:
    """The ``screenshots`` target's command lines."""
    found, inside = [], False
    for line in (ROOT / "Makefile").read_text(encoding="utf-8").splitlines():
        if line.startswith("screenshots:"):
            inside = True
        elif inside and line.startswith("\t"):
            found.append(line[1:])
        elif inside:
            break
    return found


def scenes() -> list[list[str]]:
    """The ``screenshots`` target's ``tabletop simulate`` lines, each as its arguments
    after ``tabletop``."""
    found = []
    for line in target_lines()[:-1]:
        words = shlex.split(line)
        assert words[0] == "$(VENV)/bin/tabletop", line
        found.append(words[1:])
    return found


def made_by(argv: list[str], flags: tuple[str, ...] = PATH_FLAGS) -> list[Path]:
    """The pictures a command line saves (with ``flags``)."""
    return [ROOT / argv[i + 1] for i, word in enumerate(argv) if word in flags]


def pixels(path: Path) -> tuple[tuple[int, int], bytes]:
    image = pygame.image.load(str(path))
    return image.get_size(), pygame.image.tobytes(image, "RGB")


def test_the_target_makes_every_picture_of_the_readme_and_no_other():
    made = {path for argv in scenes() for path in made_by(argv)}
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = {ROOT / word.split(")")[0] for word in readme.split("](")[1:]
             if word.startswith("docs/screenshots/")}
    games = {argv[1] for argv in scenes()}
    assert games == {"kulami", "conhex", "blokus-duo", "akron"}
    pages = set((PICTURES / "page").glob("*.png"))  # the target's last line makes them
    assert shown and shown <= made | pages
    assert {PICTURES / f"{game}{part}.png" for game in games
            for part in ("", "-screen")} == made == set(PICTURES.glob("*.png"))


def test_the_target_makes_the_page_at_a_phones_size_and_a_laptops():
    """The live page of each game at 390x844 and 1280x900: the pictures the browser test
    compares the page with, made by the target's last line."""
    from tests.test_web_browser_layout import PICKER_PICTURES, POSITIONS, SIZES
    assert target_lines()[-1] == PAGE_PICTURES_LINE
    pictures = set((PICTURES / "page").glob("*.png"))
    assert pictures == {PICTURES / "page" / f"{name}.png" for name in PICKER_PICTURES} | {
        PICTURES / "page" / f"{game}-{size}.png" for game in POSITIONS for size in SIZES}
    for path in pictures:
        assert pixels(path)[0] == SIZES[path.stem.rpartition("-")[2]]


@pytest.mark.parametrize("argv", scenes(), ids=lambda argv: argv[1])
def test_each_picture_is_what_its_line_makes_now(argv, tmp_path, capsys):
    again = [str(tmp_path / Path(word).name) if argv[i - 1] in PATH_FLAGS else word
             for i, word in enumerate(argv)]
    assert main(again) == 0
    for committed in made_by(argv, EXACT_FLAGS):
        size, now = pixels(tmp_path / committed.name)
        committed_size, before = pixels(committed)
        if (size, now) != (committed_size, before):
            differ = "all its" if size != committed_size else sum(
                now[i:i + 3] != before[i:i + 3] for i in range(0, len(now), 3))
            pytest.fail(f"{committed.relative_to(ROOT)} is out of date ({differ} pixels "
                        f"differ): make screenshots")


def test_the_simulator_draws_its_page_as_a_laptop_shows_it(tmp_path, capsys):
    """``tabletop simulate ... --page PATH``: the page of a set-out position drawn by
    Chromium, headless, at a laptop's size (the README's page pictures are made at two
    sizes by the browser test instead)."""
    page = tmp_path / "page.png"
    assert main(["simulate", "kulami", "layout=square-1", "--moves", "5", "--seed", "1",
                 "--page", str(page)]) == 0
    size, drawn = pixels(page)
    assert size == PAGE_SIZE
    assert len(set(drawn[i:i + 3] for i in range(0, len(drawn), 3 * 97))) > 20  # drawn
