"""The JSON and SVG API. Handlers that run the engine are plain ``def``: FastAPI runs them in
its threadpool, so a slow layout never blocks the event loop."""

from __future__ import annotations

import json
import math
import time
from typing import Annotated

from fastapi import APIRouter, Query, Request, Response

from app.jsonout import graph_json
from app.layout import Layout
from app.pipeline import draw
from app.presets import PRESETS
from app.render import Rankdir
from app.schemas import (
    MAX_SOURCE_CHARS,
    ErrorResponse,
    GraphRequest,
    GraphResponse,
    Health,
    Preset,
)
from app.standalone import Theme, standalone_svg
from app.stepview import Phase, slot_texts
from engine.errors import GradstepError

router = APIRouter(responses={422: {"model": ErrorResponse, "description": "bad input"}})


def _layout(request: Request) -> Layout:
    layout: Layout = request.app.state.layout
    return layout


@router.post("/api/graph", response_model=GraphResponse, tags=["graph"])
def post_graph(body: GraphRequest, request: Request) -> Response:
    """The trace of a program, its finished graph as SVG, the layout backend and timings."""
    start = time.perf_counter()
    layout = _layout(request)
    drawn = draw(layout, body.source, body.values, body.rankdir)
    svg = drawn.laid_out.template.fill(slot_texts(drawn.trace))
    timings = {
        "parse_ms": drawn.parse_ms,
        "trace_ms": drawn.trace_ms,
        "layout_ms": drawn.laid_out.layout_ms,
        "total_ms": (time.perf_counter() - start) * 1000,
        "layout_cached": drawn.laid_out.cached,
    }
    body_json = graph_json(drawn.trace, svg, layout.backend, timings)
    return Response(body_json, media_type="application/json")


def parse_values_query(text: str | None) -> dict[str, float] | None:
    """``values`` in a URL: a JSON object (``{"a": 1}``) or pairs (``a=1,b=-2.5``)."""
    if text is None or not text.strip():
        return None
    if text.lstrip().startswith("{"):
        try:
            parsed = json.loads(text)
        except json.JSONDecodeError:
            raise GradstepError("values: not a valid JSON object", "request") from None
        pairs = list(parsed.items()) if isinstance(parsed, dict) else []
    else:
        pairs = [(name, raw) for name, _, raw in (p.partition("=") for p in text.split(","))]
    values: dict[str, float] = {}
    for name, raw in pairs:
        name = str(name).strip()
        number = _number(raw)
        if not name or number is None:
            raise GradstepError(f"values: expected name=number, not {name}={raw!r}", "request")
        values[name] = number
    return values


def _number(raw: object) -> float | None:
    if isinstance(raw, bool) or not isinstance(raw, int | float | str):
        return None
    try:
        number = float(raw)
    except (ValueError, OverflowError):
        return None
    return number if math.isfinite(number) else None


@router.get(
    "/api/graph.svg",
    response_class=Response,
    responses={200: {"content": {"image/svg+xml": {}}, "description": "a standalone SVG"}},
    tags=["graph"],
)
def get_graph_svg(
    request: Request,
    source: Annotated[str, Query(max_length=MAX_SOURCE_CHARS)],
    values: Annotated[str | None, Query(description='{"a": 1} or a=1,b=2')] = None,
    step: Annotated[int | None, Query(ge=0, description="omit for the finished graph")] = None,
    phase: Phase = "backward",
    theme: Theme = "light",
    rankdir: Rankdir = "LR",
) -> Response:
    """One step of a program's graph as a standalone SVG, styled as the stepper shows it."""
    drawn = draw(_layout(request), source, parse_values_query(values), rankdir)
    texts = slot_texts(drawn.trace, phase if step is not None else None, step)
    svg = standalone_svg(drawn.laid_out.template.fill(texts), theme)
    return Response(svg, media_type="image/svg+xml", headers={"cache-control": "max-age=3600"})


@router.get("/api/presets", response_model=list[Preset], tags=["presets"])
def get_presets() -> tuple[Preset, ...]:
    """The built-in examples, each with a title and a one-line lesson."""
    return PRESETS


@router.get("/healthz", response_model=Health, tags=["health"])
def healthz(request: Request) -> Health:
    return Health(status="ok", backend=_layout(request).backend)  # type: ignore[arg-type]
