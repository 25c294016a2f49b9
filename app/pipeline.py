"""Source text to trace to SVG, timing each stage: the work behind every graph request.

The layout depends only on the graph's structure, which is known as soon as the program is
parsed, so a layout that is not cached runs (in a Graphviz process) while this thread computes
the trace (its numerical check is the engine's slowest part): on two cores the request then
takes about as long as the layout alone.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import engine
from app.layout import LaidOut, Layout
from app.render import Rankdir, structure_digraph
from engine.trace import Trace

_layouts = ThreadPoolExecutor(max_workers=16, thread_name_prefix="layout")


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
    dot = structure_digraph(program.output, rankdir).source
    parse_ms = _ms_since(start)
    laid_out: LaidOut | Future[LaidOut] | None = layout.cached(dot)
    if laid_out is None:
        layout.refuse_known_slow(dot)  # spares the trace's work (~0.1 s for such a graph)
        laid_out = _layouts.submit(layout.template, dot)
    start = time.perf_counter()
    trace = engine.trace(program)  # if this raises, a pending layout still fills the cache
    trace_ms = _ms_since(start)
    if isinstance(laid_out, Future):
        laid_out = laid_out.result()
    return Drawn(trace, laid_out, parse_ms, trace_ms)
