"""The JSON and SVG API. Handlers that run the engine are plain ``def``: FastAPI runs them in
its threadpool, so a slow layout never blocks the event loop."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable

from fastapi import APIRouter, Request, Response

from app.capacity import Answers
from app.draw.layout import Layout
from app.draw.svg import standalone_svg
from app.pipeline import draw, graph_json
from app.presets import PRESETS, Preset, preset_source
from app.query import Graph, StepAt, download_name, parse_values
from app.schemas import (
    ErrorResponse,
    GraphRequest,
    GraphResponse,
    Health,
    NotebookRequest,
    NotebookResponse,
)
from engine.ipynb import program_of

router = APIRouter(
    tags=["graph"], responses={422: {"model": ErrorResponse, "description": "bad input"}}
)


def layout_of(request: Request) -> Layout:
    layout: Layout = request.app.state.layout
    return layout


def answered(
    request: Request,
    key: str,
    compute: Callable[[], bytes],
    media_type: str,
    headers: dict[str, str] | None = None,
    gzipped: bool = True,
) -> Response:
    """The answer to the request ``key`` names, from app.state.answers or ``compute``'s;
    ``gzipped`` (kept so), sent as kept when the client takes gzip (the gzip middleware leaves an
    encoded body alone)."""
    answers: Answers = request.app.state.answers
    body = answers.get(key, compute, gzipped)
    headers = headers or {}
    if not gzipped:
        return Response(body, media_type=media_type, headers=headers)
    if "gzip" in request.headers.get("accept-encoding", ""):
        encoded = {**headers, "content-encoding": "gzip", "vary": "Accept-Encoding"}
        return Response(body, media_type=media_type, headers=encoded)
    return Response(gzip.decompress(body), media_type=media_type, headers=headers)


@router.post("/api/graph", response_model=GraphResponse)
def post_graph(body: GraphRequest, request: Request) -> Response:
    """The trace of a program (its structure and its numbers), its finished graph as SVG, the
    layout backend and timings."""
    layout = layout_of(request)

    def answer() -> bytes:
        values = parse_values(body.values) if isinstance(body.values, str) else body.values
        source = preset_source(body.source, body.preset)
        drawn = draw(layout, source, values, body.rankdir, body.aspect, body.fold, body.engine,
                     body.iteration)  # fmt: skip
        return graph_json(drawn, layout.backend, body.layout, body.structure)

    key = Answers.key("graph", body.model_dump_json())  # the same request: the same answer
    return answered(request, key, answer, "application/json")


@router.post("/api/notebook", response_model=NotebookResponse)
def post_notebook(body: NotebookRequest) -> NotebookResponse:
    """A Jupyter notebook as one program: its code cells in order, each begun by ``# %%``
    (engine/ipynb.py). The page sends the notebook without its outputs."""
    return NotebookResponse(source=program_of(json.dumps(body.notebook)))


@router.get(
    "/api/graph.svg",
    response_class=Response,
    responses={200: {"content": {"image/svg+xml": {}}, "description": "a standalone SVG"}},
)
def get_graph_svg(request: Request, graph: Graph, at: StepAt) -> Response:
    """One step of a program's graph as a standalone SVG, styled as the stepper shows it."""

    def answer() -> bytes:
        drawn = draw(layout_of(request), graph.source, graph.values, graph.rankdir, None,
                     graph.fold, graph.engine, graph.iteration)  # fmt: skip
        at.check(drawn.structure)
        return standalone_svg(drawn.svg(at.phase, at.step), graph.theme).encode()

    name = download_name(graph, ".svg", at.phase, at.step)
    headers = {"cache-control": "max-age=3600", "content-disposition": f'inline; filename="{name}"'}
    key = Answers.key("svg", repr(graph), repr(at))
    return answered(request, key, answer, "image/svg+xml", headers)


@router.get("/api/presets", response_model=list[Preset], tags=["presets"])
def get_presets() -> tuple[Preset, ...]:
    """The built-in examples, each with a title and a one-line lesson."""
    return PRESETS


@router.get("/healthz", response_model=Health, tags=["health"])
async def healthz(request: Request) -> Health:
    links = "ok" if request.app.state.links.healthy() else "degraded"
    backend = layout_of(request).backend
    classes = request.app.state.classes
    broker = (
        "none" if classes.kind == "memory" else "ok" if await classes.reachable() else "unreachable"
    )
    return Health(status="ok", backend=backend, links=links, broker=broker)  # type: ignore[arg-type]
