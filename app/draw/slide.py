"""A step as a slide: the graph fitted into a 16:9 (or 4:3) frame, with the step's explanation
as a caption under it, the same parts the page shows (engine/notation.py) written with the one
number formatter. PNG, ZIP and GIF exports draw these; ``aspect=graph`` keeps the bare graph."""

from __future__ import annotations

import re
from typing import Literal
from xml.sax.saxutils import escape

from app.numbers import DEFAULT_DECIMALS, format_number, row_cells
from engine.steps import Phase, position
from engine.trace import Trace

Aspect = Literal["16:9", "4:3", "graph"]
RATIOS = {"16:9": 16 / 9, "4:3": 4 / 3}
SLIDE_HEIGHT = 1080  # pixels; the width follows the aspect
MARGIN = 40
CAPTION_FONT = 30  # pixels at 1080 high: readable from the back of a room
LINE = 1.45
MONO_WIDTH = 0.602  # DejaVu Sans Mono's advance, in ems
PT_PER_PX = 0.75

_ROOT = re.compile(r"<svg\b[^>]*>")
_VIEWBOX = re.compile(r'viewBox="([^"]+)"')


def slide_size(aspect: Aspect) -> tuple[int, int]:
    return round(SLIDE_HEIGHT * RATIOS.get(aspect, 16 / 9)), SLIDE_HEIGHT


def graph_aspect(aspect: Aspect, lines: int = 5) -> float:
    """Width / height of the room the graph gets in a slide (for choosing its direction)."""
    width, height = slide_size(aspect)
    return (width - 2 * MARGIN) / (height - 3 * MARGIN - lines * LINE * CAPTION_FONT)


def caption(trace: Trace, phase: Phase | None, step: int | None) -> list[list[str]]:
    """The explanation of a step as lines of cells: a title, then what the page writes. No
    step: the end of the walk (the program's update, when it makes one)."""
    d = DEFAULT_DECIMALS
    structure = trace.structure
    if phase is None or step is None:
        last = structure.steps[-1] if structure.steps else None
        if last is None or last.phase != "update":
            out = structure.output
            return [[f"{structure.nodes[out].name} = {format_number(trace.numbers.data[out], d)}"
                     ", every grad found"]]  # fmt: skip
        s = last
    else:
        s = structure.steps[position(structure, phase, step)]
    rows = [[s.title]]
    for row in s.rows:
        cells = row_cells(row, trace, d)
        rows.append(["  " + cells[0], *cells[1:]] if row[0].role == "product" else cells)
    return rows


def _caption_font(rows: list[list[str]], aspect: Aspect) -> float:
    """As large as the widest cell allows, in its column."""
    room = slide_size(aspect)[0] - 2 * MARGIN
    return min(
        [CAPTION_FONT]
        + [room / len(r) / (MONO_WIDTH * (len(cell) + 2)) for r in rows for cell in r if cell]
    )


def caption_height(rows: list[list[str]], aspect: Aspect) -> float:
    return len(rows) * LINE * _caption_font(rows, aspect)


def slide_svg(
    graph_svg: str, rows: list[list[str]], aspect: Aspect, caption_room: float = 0.0
) -> str:
    """``graph_svg`` (a filled template) fitted above its caption in a frame of ``aspect``;
    ``caption_room``: the height kept for captions at least (the largest of a series of slides,
    so that the graph keeps one size from frame to frame)."""
    width, height = slide_size(aspect)
    font = _caption_font(rows, aspect)
    caption_top = height - MARGIN - len(rows) * LINE * font
    top = min(caption_top, height - MARGIN - caption_room)  # of the captions' room
    box = (MARGIN, MARGIN, width - 2 * MARGIN, top - 1.5 * MARGIN)
    view_box = _VIEWBOX.search(graph_svg)
    root = _ROOT.search(graph_svg)
    assert view_box is not None and root is not None
    inner = graph_svg[root.end() : graph_svg.rindex("</svg>")]
    texts = []
    for i, row in enumerate(rows):
        y = caption_top + (i + 0.8) * LINE * font
        for j, cell in enumerate(row):
            x = MARGIN + j * (width - 2 * MARGIN) / len(row)
            kind = "title" if i == 0 else "cell"
            texts.append(
                f'<text class="{kind}" x="{x:.0f}" y="{y:.0f}" xml:space="preserve">'
                f"{escape(cell)}</text>"
            )
    return (
        f'<svg class="gradstep-graph gradstep-slide" xmlns="http://www.w3.org/2000/svg" '
        f'width="{width * PT_PER_PX:g}pt" height="{height * PT_PER_PX:g}pt" '
        f'viewBox="0 0 {width} {height}">\n'
        f'<rect class="slide-bg" width="{width}" height="{height}"/>\n'
        f'<svg x="{box[0]}" y="{box[1]}" width="{box[2]}" height="{box[3]:.0f}" '
        f'viewBox="{view_box[1]}" preserveAspectRatio="xMidYMid meet">{inner}</svg>\n'
        f'<g class="slide-caption" font-size="{font:.1f}">{"".join(texts)}</g>\n</svg>\n'
    )
