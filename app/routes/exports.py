"""Exports for slide decks and for offline lectures: a step as PNG, every step as a ZIP, the
backward pass as a GIF, the whole program as one self-contained HTML file, and a QR code of a
link. Pictures are slides (``app.draw.slide``: 16:9 by default, the step's explanation under the
graph) unless ``aspect=graph``. Every handler runs the engine or a renderer, so each is a plain
``def`` (threadpool); the ZIP and the GIF stream, a picture at a time."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import StreamingResponse

from app.capacity import Gate
from app.deps import AnswersDep, LayoutDep, PipelineDep
from app.draw.frames import (
    GIF_LIMIT,
    Picture,
    backward_gif,
    check_export,
    export_scale,
    walk,
    zip_of_steps,
)
from app.draw.layout import Layout
from app.draw.offline import offline_html
from app.draw.png import PICTURE_LIMIT, PNG_PROCESSES, PixelLimit
from app.draw.qr import MAX_QR_CHARS, MAX_QR_SIDE, qr_svg
from app.draw.slide import Aspect
from app.pictures import drawn_for, pictures, png_answer
from app.pipeline import Pipeline, draw
from app.query import Graph, GraphQuery, StepAt, download_name
from app.schemas import ErrorResponse
from engine.steps import Phase
from engine.trace import Structure

router = APIRouter(
    tags=["export"], responses={422: {"model": ErrorResponse, "description": "bad input"}}
)

SVG = "image/svg+xml"
MAX_FRAME_SIDE = 4_096  # pixels of each picture in a ZIP or a GIF, when no scale is given
Scale = Annotated[
    float | None,
    Query(
        ge=0.1,
        le=4,
        description="pixels per CSS pixel (a slide is 1920 × 1080 at 1); a picture has at most "
        "3840 × 2160 pixels (a GIF's frames 2560 × 1440) and a ZIP or GIF 400 million in all, "
        "or the answer is a 422; "
        "omitted: 1 for a slide, 2 for aspect=graph, each lowered to keep within those limits",
    ),
]
AspectQuery = Annotated[
    Aspect,
    Query(description="16:9 or 4:3: a slide, the explanation under the graph; graph: the graph"),
]


# ZIPs and GIFs streaming at once. An export is admitted before its first byte (else a 503 with
# Retry-After); once admitted, its frames wait their turn for the PNG process rather than be
# refused, which cut streams that had answered 200 (4 ZIPs at once: one cut short).
EXPORT_STREAMS = PNG_PROCESSES + 1
RETRY_AFTER_EXPORT_S = 5
_exports = Gate("export", EXPORT_STREAMS, 0, RETRY_AFTER_EXPORT_S)


class Admitted:
    """An export's place among ``EXPORT_STREAMS``, given back when its stream ends, fails, or
    is dropped without being read (a client gone before the first byte)."""

    _held = False  # until entered: a refused one (503) has nothing to give back

    def __init__(self) -> None:
        _exports.enter()  # refused at once (503) when every place is taken
        self._held = True

    def release(self) -> None:
        if self._held:
            self._held = False
            _exports.leave()

    def around(self, chunks: Iterator[bytes]) -> Iterator[bytes]:
        try:
            yield from chunks
        finally:
            self.release()

    def __del__(self) -> None:
        self.release()


FRAMES_HEADER = "x-gradstep-frames"  # how many pictures a ZIP or GIF holds, before any arrives
FRAMES = {
    "headers": {
        FRAMES_HEADER: {
            "description": "the number of pictures drawn, known before the first is sent",
            "schema": {"type": "integer"},
        }
    }
}


def _download(body: bytes, media_type: str, filename: str) -> Response:
    disposition = f'attachment; filename="{filename}"'
    return Response(body, media_type=media_type, headers={"content-disposition": disposition})


def _stream(chunks: Iterator[bytes], media_type: str, name: str, frames: int) -> StreamingResponse:
    headers = {"content-disposition": f'attachment; filename="{name}"', FRAMES_HEADER: str(frames)}
    return StreamingResponse(chunks, media_type=media_type, headers=headers)


def _frames(
    pipeline: Pipeline,
    layout: Layout,
    graph: GraphQuery,
    aspect: Aspect,
    scale: float | None,
    phases: tuple[Phase, ...],
    limit: PixelLimit,
    preferred: float,
) -> tuple[Picture, Structure, float, int, Admitted]:
    """What a ZIP or a GIF draws: each step's picture, at a scale within every limit (checked
    here, before the answer starts), how many pictures, and the export's admission (taken
    first, so that a refused export draws nothing; the stream gives it back)."""
    admitted = Admitted()
    try:
        drawn = drawn_for(pipeline, layout, graph, aspect)
        steps = walk(drawn.structure, phases)
        picture = pictures(drawn, aspect, steps)
        first = picture(None, None)
        if scale is None:
            scale = export_scale(first, len(steps), MAX_FRAME_SIDE, preferred, limit)
        check_export(steps, first, scale, limit)
    except BaseException:
        admitted.release()
        raise
    return picture, drawn.structure, scale, len(steps), admitted


@router.get(
    "/api/graph.png",
    response_class=Response,
    responses={200: {"content": {"image/png": {}}, "description": "one step as PNG"}},
)
def get_graph_png(
    request: Request,
    graph: Graph,
    at: StepAt,
    pipeline: PipelineDep,
    layout: LayoutDep,
    answers: AnswersDep,
    aspect: AspectQuery = "16:9",
    scale: Scale = None,
) -> Response:
    """One step as a PNG, for "insert image by URL" and downloads: a 1920×1080 slide by default."""
    return png_answer(request, pipeline, layout, answers, graph, at, aspect, scale)


@router.get(
    "/api/graph.zip",
    response_class=StreamingResponse,
    responses={200: {"content": {"application/zip": {}}, "description": "every step", **FRAMES}},
)
def get_graph_zip(
    graph: Graph,
    pipeline: PipelineDep,
    layout: LayoutDep,
    aspect: AspectQuery = "16:9",
    scale: Scale = None,
) -> StreamingResponse:
    """Every step, forward then backward, as ``001-forward-001.png`` and ``.svg`` pairs."""
    phases: tuple[Phase, ...] = ("forward", "backward")
    preferred = 2.0 if aspect == "graph" else 1.0
    picture, structure, scale, frames, admitted = _frames(
        pipeline, layout, graph, aspect, scale, phases, PICTURE_LIMIT, preferred
    )
    chunks = admitted.around(zip_of_steps(picture, structure, graph.theme, scale))
    return _stream(chunks, "application/zip", download_name(graph, ".zip"), frames)


@router.get(
    "/api/graph.gif",
    response_class=StreamingResponse,
    responses={200: {"content": {"image/gif": {}}, "description": "the backward pass", **FRAMES}},
)
def get_graph_gif(
    graph: Graph,
    pipeline: PipelineDep,
    layout: LayoutDep,
    delay: Annotated[int, Query(ge=100, le=10_000, description="milliseconds per step")] = 1000,
    aspect: AspectQuery = "16:9",
    scale: Scale = None,
) -> StreamingResponse:
    """The backward pass as a looping animated GIF, ``delay`` ms per step (Slides and
    PowerPoint play GIFs)."""
    backward: tuple[Phase, ...] = ("backward",)
    picture, structure, scale, frames, admitted = _frames(
        pipeline, layout, graph, aspect, scale, backward, GIF_LIMIT, 1.0
    )
    chunks = admitted.around(backward_gif(picture, structure, graph.theme, scale, delay))
    return _stream(chunks, "image/gif", download_name(graph, "-backward.gif"), frames)


@router.get(
    "/api/graph.html",
    response_class=Response,
    responses={200: {"content": {"text/html": {}}, "description": "a self-contained page"}},
)
def get_graph_html(graph: Graph, at: StepAt, pipeline: PipelineDep, layout: LayoutDep) -> Response:
    """One HTML file that steps through the whole program from disk, with no server and no
    network: the trace, the SVG, the styles and the stepper's script are all inside it."""
    drawn = draw(pipeline, layout, graph.source, graph.values, graph.rankdir, None, graph.fold,
                 graph.engine, graph.iteration)  # fmt: skip
    at.check(drawn.structure)
    html = offline_html(drawn, graph.theme, at.phase, at.step)
    return _download(html.encode(), "text/html; charset=utf-8", download_name(graph, ".html"))


@router.get(
    "/api/qr.svg",
    response_class=Response,
    responses={200: {"content": {"image/svg+xml": {}}, "description": "a QR code"}},
)
def get_qr_svg(
    text: Annotated[str, Query(min_length=1, max_length=MAX_QR_CHARS, description="a link")],
    size: Annotated[
        int | None,
        Query(
            ge=64,
            le=MAX_QR_SIDE,
            description="the width in pixels, as whole pixels per module (omitted: 4 per module)",
        ),
    ] = None,
    caption: Annotated[bool, Query(description="print the text under the code")] = False,
) -> Response:
    """A QR code of ``text`` (a link to a view) as SVG, for students' phones; with ``size``
    and ``caption``, large enough for a slide, the link printed under it."""
    return Response(qr_svg(text, size, caption), media_type=SVG)
