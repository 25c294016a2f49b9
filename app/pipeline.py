"""Source text to trace to SVG, timing each stage: the work behind every graph request."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass

import engine
from app.layout import LaidOut, Layout
from app.render import Rankdir, trace_digraph
from engine.trace import Trace


@dataclass(frozen=True, slots=True)
class Drawn:
    trace: Trace
    laid_out: LaidOut
    parse_ms: float
    trace_ms: float


def _ms_since(start: float) -> float:
    return (time.perf_counter() - start) * 1000


def draw(
    layout: Layout, source: str, values: Mapping[str, float] | None, rankdir: Rankdir = "LR"
) -> Drawn:
    """Parse, trace and lay out ``source``; raises ``GradstepError`` for any bad input."""
    start = time.perf_counter()
    program = engine.parse(source, dict(values) if values is not None else None)
    parse_ms = _ms_since(start)
    start = time.perf_counter()
    trace = engine.trace(program)
    trace_ms = _ms_since(start)
    laid_out = layout.template(trace_digraph(trace, rankdir).source)
    return Drawn(trace, laid_out, parse_ms, trace_ms)
