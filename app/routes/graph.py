"""The JSON and SVG API. Handlers that run the engine are plain ``def``: FastAPI runs them in
its threadpool, so a slow layout never blocks the event loop."""

from __future__ import annotations

import json

from fastapi import APIRouter, Request, Response

from app.capacity import Answers
from app.deps import AnswersDep, ClassStoreDep, LayoutDep, LinkStoreDep, PipelineDep
from app.pictures import svg_answer
from app.pipeline import draw, graph_json
from app.presets import PRESETS, Preset, preset_source
from app.query import Graph, StepAt, parse_values
from app.responses import answered
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


@router.post("/api/graph", response_model=GraphResponse)
def post_graph(
    body: GraphRequest,
    request: Request,
    pipeline: PipelineDep,
    layout: LayoutDep,
    answers: AnswersDep,
) -> Response:
    """The trace of a program (its structure and its numbers), its finished graph as SVG, the
    layout backend and timings."""

    def answer() -> bytes:
        values = parse_values(body.values) if isinstance(body.values, str) else body.values
        source = preset_source(body.source, body.preset)
        drawn = draw(pipeline, layout, source, values, body.rankdir, body.aspect, body.fold,
                     body.engine, body.iteration)  # fmt: skip
        return graph_json(drawn, layout.backend, body.layout, body.structure)

    key = Answers.key("graph", body.model_dump_json())  # the same request: the same answer
    return answered(request, answers, key, answer, "application/json")


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
def get_graph_svg(
    request: Request,
    graph: Graph,
    at: StepAt,
    pipeline: PipelineDep,
    layout: LayoutDep,
    answers: AnswersDep,
) -> Response:
    """One step of a program's graph as a standalone SVG, styled as the stepper shows it."""
    return svg_answer(request, pipeline, layout, answers, graph, at)


@router.get("/api/presets", response_model=list[Preset], tags=["presets"])
def get_presets() -> tuple[Preset, ...]:
    """The built-in examples, each with a title and a one-line lesson."""
    return PRESETS


@router.get("/healthz", response_model=Health, tags=["health"])
async def healthz(layout: LayoutDep, links: LinkStoreDep, classes: ClassStoreDep) -> Health:
    link_store = "ok" if links.healthy() else "degraded"
    broker = (
        "none" if classes.kind == "memory" else "ok" if await classes.reachable() else "unreachable"
    )
    return Health(status="ok", backend=layout.backend, links=link_store, broker=broker)  # type: ignore[arg-type]
