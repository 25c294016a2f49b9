"""One step of a program's graph as a picture, answered and kept in ``Answers``: the standalone
SVG (``/api/graph.svg``) and the PNG (``/api/graph.png``), for their routes and for a short link
too long to redirect to (app/routes/links.py), and what an export's pictures look like: slides
(``app.draw.slide``: the step's explanation under the graph) unless ``aspect=graph``."""

from __future__ import annotations

from collections.abc import Sequence

from fastapi import Request, Response

from app.capacity import Answers
from app.draw.frames import Picture, StepFile
from app.draw.layout import Layout
from app.draw.png import check_room, fit_scale, svg_to_png
from app.draw.slide import Aspect, caption, caption_height, graph_aspect, slide_svg
from app.draw.svg import standalone_svg
from app.pipeline import Drawn, Pipeline, draw
from app.query import GraphQuery, StepQuery, download_name
from app.responses import answered

MAX_PNG_SIDE = 8_192  # pixels, when no scale is given


def drawn_for(pipeline: Pipeline, layout: Layout, graph: GraphQuery, aspect: Aspect) -> Drawn:
    """``graph`` drawn to fill a slide of ``aspect`` (for ``graph``: in any direction)."""
    view = graph_aspect(aspect) if aspect != "graph" else None
    return draw(pipeline, layout, graph.source, graph.values, graph.rankdir, view, graph.fold,
                graph.engine, graph.iteration)  # fmt: skip


def pictures(drawn: Drawn, aspect: Aspect, series: Sequence[StepFile] = ()) -> Picture:
    """What each step looks like in this export: a slide, or the bare graph. The slides of a
    ``series`` (a ZIP's, a GIF's) keep room for the longest caption among them and the
    finished picture's, so that the graph keeps one size from frame to frame."""
    if aspect == "graph":
        return drawn.svg
    trace = drawn.trace
    shown = [(s.phase, s.step) for s in series]
    room = max((caption_height(caption(trace, *at), aspect) for at in shown), default=0.0)
    if shown:
        room = max(room, caption_height(caption(trace, None, None), aspect))
    return lambda phase, step: slide_svg(
        drawn.svg(phase, step), caption(trace, phase, step), aspect, room
    )


def _inline(name: str) -> dict[str, str]:
    return {"cache-control": "max-age=3600", "content-disposition": f'inline; filename="{name}"'}


def svg_answer(
    request: Request,
    pipeline: Pipeline,
    layout: Layout,
    answers: Answers,
    graph: GraphQuery,
    at: StepQuery,
) -> Response:
    """One step as a standalone SVG, styled as the stepper shows it."""

    def answer() -> bytes:
        drawn = draw(pipeline, layout, graph.source, graph.values, graph.rankdir, None,
                     graph.fold, graph.engine, graph.iteration)  # fmt: skip
        at.check(drawn.structure)
        return standalone_svg(drawn.svg(at.phase, at.step), graph.theme).encode()

    headers = _inline(download_name(graph, ".svg", at.phase, at.step))
    key = Answers.key("svg", repr(graph), repr(at))
    return answered(request, answers, key, answer, "image/svg+xml", headers)


def png_answer(
    request: Request,
    pipeline: Pipeline,
    layout: Layout,
    answers: Answers,
    graph: GraphQuery,
    at: StepQuery,
    aspect: Aspect = "16:9",
    scale: float | None = None,
) -> Response:
    """One step as a PNG: a 1920×1080 slide by default, ``scale`` pixels per CSS pixel."""

    def answer() -> bytes:
        check_room()  # before the graph is drawn for nothing
        drawn = drawn_for(pipeline, layout, graph, aspect)
        at.check(drawn.structure)
        svg = pictures(drawn, aspect)(at.phase if at.step is not None else None, at.step)
        default = fit_scale(svg, MAX_PNG_SIDE) if aspect == "graph" else 1.0
        return svg_to_png(svg, graph.theme, scale or default)

    headers = _inline(download_name(graph, ".png", at.phase, at.step))
    key = Answers.key("png", repr(graph), repr(at), repr(aspect), repr(scale))
    return answered(request, answers, key, answer, "image/png", headers, gzipped=False)
