"""A board's wiring plan drawn as a sheet to print at 1:1 and lay under the board.

The drawing is a list of plain shapes in millimetres (circles, squares, lines, text),
grouped by what they show, so that one drawing becomes both an SVG (here, with the
standard library's ElementTree) and a PNG (``app/drawings/paper.py``, with pygame): the
two cannot disagree. Every hole and LED is a group carrying its facts as ``data-``
attributes (hole, channel, lines; LED index, what it lights), so a test, or a maker's
script, reads the SVG back instead of looking at it.

On the sheet: the board's outline; every hole at its place with its name, its sensor
channel (``ch``) and its scan lines (``r``, ``c``); every LED numbered in chain order,
the chain as a line from LED 0, which takes the data; the areas with their own LEDs;
and a legend with a 100 mm bar to check the print's scale against.
"""

from __future__ import annotations

import textwrap
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

from app.drawings.wiring import Plan

SVG_NS = "http://www.w3.org/2000/svg"
#: Paper around the board and the legend, and the gap between them, in mm.
MARGIN, GAP = 10.0, 8.0
#: The narrowest sheet, so that the legend reads on a small board.
MIN_WIDTH = 180.0
#: The labels of a hole are this many pitches tall.
LABEL_SIZE = 0.11
LEGEND_SIZE, TITLE_SIZE = 3.2, 4.2
#: A scale bar a maker checks the print against.
SCALE_MM = 100
#: Average width of a character in ems, to wrap the legend's text.
CHAR_WIDTH = 0.55

INK, GREY, BOARD, LED, AREA, WHITE = ("#111111", "#666666", "#f3ede0", "#d35400", "#1f7a8c",
                                      "#ffffff")


@dataclass(frozen=True)
class Circle:
    x: float
    y: float
    r: float
    fill: str | None = None
    stroke: str | None = INK
    width: float = 0.3


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = INK
    width: float = 0.3


@dataclass(frozen=True)
class Polygon:
    points: tuple[tuple[float, float], ...]
    fill: str | None = None
    stroke: str | None = INK
    width: float = 0.3


@dataclass(frozen=True)
class Polyline:
    points: tuple[tuple[float, float], ...]
    stroke: str = INK
    width: float = 0.3


@dataclass(frozen=True)
class Text:
    """Text centred on ``y``; ``anchor`` is where ``x`` is: ``middle``, ``start`` or
    ``end``."""

    x: float
    y: float
    text: str
    size: float
    fill: str = INK
    bold: bool = False
    anchor: str = "middle"


@dataclass(frozen=True)
class Group:
    """Shapes that show one thing: ``kind`` (``hole``, ``led``, ``area-led``, ``chain``,
    ``board``, ``legend``) and its facts, which the SVG keeps as ``data-`` attributes."""

    kind: str
    shapes: tuple
    data: tuple[tuple[str, str], ...] = field(default=())


@dataclass(frozen=True)
class Sheet:
    title: str
    width: float
    height: float
    groups: tuple[Group, ...]


def draw(plan: Plan) -> Sheet:
    """The sheet of ``plan``: the board at its top left, the legend under it."""
    size = LABEL_SIZE * plan.board.pitch_mm

    def on_board(x: float, y: float) -> tuple[float, float]:
        return MARGIN + x, MARGIN + y

    board = Group("board", (Rect(MARGIN, MARGIN, plan.width, plan.height, BOARD, GREY, 0.5),))
    chain = Group("chain", (Polyline(tuple(on_board(led.x, led.y) for led in plan.leds),
                                     LED, 0.5),))
    holes = tuple(_hole(hole.name, *on_board(hole.x, hole.y), f"ch {hole.channel}",
                        _lines(hole.lines), plan, size,
                        (("hole", hole.name), ("channel", str(hole.channel)),
                         ("lines", _lines(hole.lines))))
                  for hole in plan.holes)
    leds = tuple(_led(led.index, *on_board(led.x, led.y), size, led.area, led.lights)
                 for led in plan.leds)
    first = plan.leds[0]
    x, y = on_board(first.x, first.y)
    below = max(plan.board.hole_mm / 2, 2.5 * size) + 1.3 * size
    start = Group("start", (Text(x, y + below, "data in", size, LED, bold=True),))
    width = max(plan.width, MIN_WIDTH) + 2 * MARGIN
    legend, bottom = _legend(plan, MARGIN, MARGIN + plan.height + GAP, width - 2 * MARGIN,
                             size)
    return Sheet(f"Wiring of {_heading(plan)}", width, bottom + MARGIN,
                 (board, chain, *holes, *leds, start, legend))


def _heading(plan: Plan) -> str:
    profile = plan.profile
    return f"{profile.name}: {profile.description}" if profile.description else profile.name


def _lines(lines: tuple[int, int] | None) -> str:
    return "" if lines is None else f"r{lines[0]} c{lines[1]}"


def _hole(name: str, x: float, y: float, channel: str, lines: str, plan: Plan, size: float,
          data: tuple = ()) -> Group:
    """A hole's outline with its name above its centre (where its LED sits) and its
    channel and scan lines below."""
    half = plan.board.hole_mm / 2
    outline = (Circle(x, y, half) if plan.board.shape == "circle"
               else Rect(x - half, y - half, 2 * half, 2 * half))
    texts = [Text(x, y - 1.45 * size, name, size, bold=True),
             Text(x, y + 1.45 * size, channel, size)]
    if lines:
        texts.append(Text(x, y + 2.5 * size, lines, size * 0.9, GREY))
    return Group("hole", (outline, *texts), data)


def _led(index: int, x: float, y: float, size: float, area: bool, lights: str) -> Group:
    """An LED: a dot under a hole, a diamond with the area's name for an area's own."""
    number = Text(x, y, str(index), size * 0.72, WHITE, bold=True)
    data = (("led", str(index)), ("lights", lights))
    if not area:
        return Group("led", (Circle(x, y, 0.85 * size, LED, None), number), data)
    r = 1.25 * size
    diamond = Polygon(((x, y - r), (x + r, y), (x, y + r), (x - r, y)), AREA, None)
    return Group("area-led", (diamond, number, Text(x, y + r + 0.7 * size, f"area {lights}",
                                                     size * 0.9, AREA)), data)


def _legend(plan: Plan, left: float, top: float, width: float, size: float
            ) -> tuple[Group, float]:
    """The legend under the board, and the y where it ends."""
    profile, board = plan.profile, plan.board
    shapes: list = []
    y = top

    def paragraph(text: str, x: float, text_size: float, bold: bool = False) -> None:
        nonlocal y
        chars = max(20, int((left + width - x) / (CHAR_WIDTH * text_size)))
        for line in textwrap.wrap(text, chars):
            shapes.append(Text(x, y + text_size / 2, line, text_size, bold=bold,
                               anchor="start"))
            y += text_size * 1.35

    paragraph(_heading(plan), left, TITLE_SIZE, True)
    hole = "square" if board.shape == "square" else "hole"
    paragraph(f"{plan.title}, board {plan.width:.0f} x {plan.height:.0f} mm, {hole}s "
              f"{board.hole_mm:g} mm across and {board.pitch_mm:g} mm apart (the "
              f"profile's [board] sizes); {len(plan.holes)} sensors, {profile.led_count} LEDs. Seen "
              f"from above: from underneath, where the wires go, left and right swap.",
              left, LEGEND_SIZE)
    samples = [("hole", f"a {hole}: its name, its sensor channel (ch) and, below, "
                        f"{plan.scanner.legend}"),
               ("led", f"an LED under a {hole} and its place in the chain, which runs "
                       f"along the line from LED 0: LED 0 takes the data")]
    if profile.areas:
        samples.append(("area-led", f"an area's own LED, amid the {hole}s of the area"))
    column = max(board.hole_mm, 4 * size)
    for kind, words in samples:
        y += LEGEND_SIZE * 0.6
        sample = column if kind == "hole" else 3 * size
        x, centre = left + column / 2, y + sample / 2
        if kind == "hole":
            shapes.extend(_hole("a1", x, centre, "ch 0", _lines(plan.scanner.lines(0)),
                                plan, size).shapes)
        else:
            shapes.extend(_led(0, x, centre, size, kind == "area-led", "1").shapes)
        text_top = y
        paragraph(words, left + column + 4, LEGEND_SIZE)
        y = max(y, text_top + sample + 1.5 * size)
    y += LEGEND_SIZE
    shapes.append(Rect(left, y, SCALE_MM, 2.5, INK, INK, 0.2))
    for mm in range(10, SCALE_MM, 20):
        shapes.append(Rect(left + mm, y, 10, 2.5, WHITE, INK, 0.2))
    shapes.append(Text(left + SCALE_MM + 3, y + 1.25, f"{SCALE_MM} mm: print at 100 % "
                       f"(actual size) and measure this bar", LEGEND_SIZE, anchor="start"))
    return Group("legend", tuple(shapes)), y + 2.5


def svg(sheet: Sheet) -> str:
    """The sheet as SVG text, sized in millimetres so that it prints at 1:1."""
    root = ET.Element("svg", xmlns=SVG_NS, width=f"{_n(sheet.width)}mm",
                      height=f"{_n(sheet.height)}mm",
                      viewBox=f"0 0 {_n(sheet.width)} {_n(sheet.height)}")
    ET.SubElement(root, "title").text = sheet.title
    ET.SubElement(root, "rect", width="100%", height="100%", fill=WHITE)
    for group in sheet.groups:
        element = ET.SubElement(root, "g", {"class": group.kind,
                                            **{f"data-{k}": v for k, v in group.data}})
        for shape in group.shapes:
            _element(element, shape)
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def _element(parent: ET.Element, shape) -> None:
    if isinstance(shape, Text):
        attributes = {"x": _n(shape.x), "y": _n(shape.y), "font-size": _n(shape.size),
                      "font-family": "sans-serif", "text-anchor": shape.anchor,
                      "dominant-baseline": "central", "fill": shape.fill}
        if shape.bold:
            attributes["font-weight"] = "bold"
        ET.SubElement(parent, "text", attributes).text = shape.text
        return
    paint = {"fill": getattr(shape, "fill", None) or "none",
             "stroke": shape.stroke or "none", "stroke-width": _n(shape.width)}
    if isinstance(shape, Circle):
        ET.SubElement(parent, "circle", cx=_n(shape.x), cy=_n(shape.y), r=_n(shape.r), **paint)
    elif isinstance(shape, Rect):
        ET.SubElement(parent, "rect", x=_n(shape.x), y=_n(shape.y), width=_n(shape.w),
                      height=_n(shape.h), **paint)
    else:
        points = " ".join(f"{_n(x)},{_n(y)}" for x, y in shape.points)
        ET.SubElement(parent, "polygon" if isinstance(shape, Polygon) else "polyline",
                      points=points, **paint)


def _n(value: float) -> str:
    """A length as short text: hundredths of a millimetre are finer than any print."""
    return f"{value:.2f}".rstrip("0").rstrip(".")
