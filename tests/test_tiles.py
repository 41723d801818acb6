"""The board drawing prints at 1:1 on the A3 the wiring guide names: on one page when it
fits, else on A3 pages whose overlap carries crosses that meet when the pages are laid
over each other."""

import pytest

from app.cli import main
from app.drawings.sheet import Polyline, draw
from app.drawings.tiles import A3, A4, OVERLAP, fits, tiles
from app.drawings.wiring import plan
from app.hardware.profile import load_profile

BOARDS = ("kulami", "conhex", "akron", "blokus-duo")


def crosses(page, x0, y0):
    """The alignment crosses' centres on a page, in the whole drawing's coordinates."""
    return {(round(line.points[0][0] + 3 + x0, 2), round(line.points[0][1] + y0, 2))
            for group in page.groups if group.kind == "tile-marks"
            for line in group.shapes if isinstance(line, Polyline)
            and line.points[0][1] == line.points[1][1]
            and 0 <= line.points[0][0] + 3 <= page.width and 0 <= line.points[0][1] <= page.height}


@pytest.mark.parametrize("name", BOARDS)
@pytest.mark.parametrize("paper", [A3, A4])
def test_every_page_of_every_board_fits_the_paper(name, paper):
    sheet = draw(plan(load_profile(name)))
    pages = tiles(sheet, paper)
    assert all(fits(page, paper) for page in pages)
    if fits(sheet, paper):
        assert pages == [sheet]
    else:
        width, height = pages[0].width, pages[0].height
        columns = round((sheet.width - OVERLAP) / (width - OVERLAP) + 0.4999)
        # the pages cover the whole drawing
        rows = len(pages) // columns
        assert columns * (width - OVERLAP) + OVERLAP >= sheet.width
        assert rows * (height - OVERLAP) + OVERLAP >= sheet.height


@pytest.mark.parametrize("name", ["kulami", "conhex"])
def test_kulami_and_conhex_take_two_a3_pages_whose_crosses_meet(name):
    sheet = draw(plan(load_profile(name)))
    assert not fits(sheet, A3)
    first, second = tiles(sheet, A3)
    step = (0.0, first.height - OVERLAP) if first.width > first.height else \
        (first.width - OVERLAP, 0.0)
    shared = crosses(first, 0, 0) & crosses(second, *step)
    assert len(shared) >= 2


def test_tabletop_wiring_writes_the_a3_pages(tmp_path, capsys):
    assert main(["wiring", "--out", str(tmp_path), "kulami"]) == 0
    for n in (1, 2):
        text = (tmp_path / f"kulami-a3-{n}.svg").read_text()
        assert 'width="420mm" height="297mm"' in text
    assert not list(tmp_path.glob("kulami-a3-3.*"))
