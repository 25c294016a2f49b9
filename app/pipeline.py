"""One graph request, in one straight line:

    source ──parse──▶ program ──outline──▶ outline ──fold──▶ DOT ──layout (cached by structure)──▶
    template; program + outline ──trace──▶ trace, written while Graphviz lays the DOT out;
    template + the trace's state at a step ──fill──▶ SVG ──▶ the response

Every route that shows a graph (the JSON API, the SVG and PNG images, the exports, the CLI)
goes through ``draw`` and then fills the template for the step it shows.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass

from pydantic import TypeAdapter

import engine
from app.draw.dot import Direction, Rankdir, choose_rankdir, dot_source
from app.draw.fold import Fold, fold_view, folded_calls, parse_fold
from app.draw.layout import LaidOut, Layout
from app.draw.svg import SvgTemplate
from app.draw.texts import slot_texts, step_state
from engine.steps import Phase
from engine.trace import Drawable, Trace

_TRACE = TypeAdapter(Trace)


@dataclass(frozen=True, slots=True)
class Drawn:
    source: str
    values: dict[str, float]  # the input values given, as applied
    trace: Trace
    rankdir: Rankdir
    fold: Fold
    template: SvgTemplate
    layout: str  # the DOT's digest: two graphs drawn the same have the same one
    timings: dict[str, float | bool]

    def svg(self, phase: Phase | None = None, step: int | None = None) -> str:
        """The graph at ``step`` of ``phase`` (None: finished), as SVG text."""
        state = step_state(self.trace, phase, step)
        return self.template.fill(slot_texts(self.trace, state, self.fold))


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000


def draw(
    layout: Layout,
    source: str,
    values: Mapping[str, float] | None,
    direction: Direction = "auto",
    aspect: float | None = None,
    folding: str | None = None,
) -> Drawn:
    """Parse, trace and lay out ``source`` (``direction`` auto: the one that fills a view of
    ``aspect``; ``folding``: which calls are boxes, app.draw.fold); raises ``GradstepError``
    for any bad input."""
    request = parse_fold(folding)
    start = time.perf_counter()
    given = dict(values) if values is not None else {}
    program = engine.parse(source, given)
    parsed = time.perf_counter()
    outline = engine.outline(program)
    outlined = time.perf_counter()
    fold, rankdir, dot = _drawing(outline, direction, aspect, request)
    steps = _Steps(program, outline)
    try:  # a new layout: Graphviz (its own process) works while the steps are written
        laid_out = layout.template(dot, fold.listed, meanwhile=steps)
    finally:  # the steps' error, about the program, comes before the layout's
        trace = steps.result()
    timings: dict[str, float | bool] = {
        "parse_ms": (parsed - start) * 1000,
        "trace_ms": (outlined - parsed) * 1000 + steps.ms,
    }
    return _drawn(source, given, trace, fold, rankdir, dot, laid_out, start, timings)


class _Steps:
    """``program``'s trace: written while Graphviz lays its outline out when the layout is made
    (``Layout.template``'s ``meanwhile``), else when asked for; its error is kept for the asker
    (never given to the layout, whose result other requests may share)."""

    def __init__(self, program: engine.Program, outline: engine.Outline) -> None:
        self._program = program
        self._outline = outline
        self._trace: Trace | None = None
        self._error: Exception | None = None
        self.ms = 0.0  # with the outline

    def __call__(self) -> None:
        if self._trace is not None or self._error is not None:
            return
        start = time.perf_counter()
        try:
            self._trace = engine.trace(self._program, self._outline)
        except Exception as error:
            self._error = error
        self.ms = (time.perf_counter() - start) * 1000

    def result(self) -> Trace:
        self()
        if self._error is not None:
            raise self._error
        assert self._trace is not None
        return self._trace


def draw_trace(
    layout: Layout,
    trace: Trace,
    direction: Direction = "auto",
    aspect: float | None = None,
    folding: str | None = None,
    source: str = "",
    values: Mapping[str, float] | None = None,
) -> Drawn:
    """Lay out a trace already made: one made without a program text (``engine.trace_value``
    of a graph built in Python: the notebook), or ``source``'s again with other calls folded."""
    request = parse_fold(folding)
    start = time.perf_counter()
    timings: dict[str, float | bool] = {"parse_ms": 0.0, "trace_ms": 0.0}
    given = dict(values) if values is not None else {}
    fold, rankdir, dot = _drawing(trace, direction, aspect, request)
    laid_out = layout.template(dot, fold.listed)
    return _drawn(source, given, trace, fold, rankdir, dot, laid_out, start, timings)


def _drawing(
    graph: Drawable, direction: Direction, aspect: float | None, request: str | frozenset[int]
) -> tuple[Fold, Rankdir, str]:
    """Which calls are boxes, the direction, and the DOT."""
    fold = fold_view(graph, folded_calls(graph, request))
    rankdir = choose_rankdir(graph, aspect, fold) if direction == "auto" else direction
    return fold, rankdir, dot_source(graph, rankdir, fold)


def _drawn(
    source: str,
    given: dict[str, float],
    trace: Trace,
    fold: Fold,
    rankdir: Rankdir,
    dot: str,
    laid_out: LaidOut,
    start: float,
    timings: dict[str, float | bool],
) -> Drawn:
    timings["layout_ms"] = laid_out.layout_ms
    timings["total_ms"] = _ms(start)
    timings["layout_cached"] = laid_out.cached
    digest = hashlib.blake2b(dot.encode(), digest_size=8).hexdigest()
    return Drawn(source, given, trace, rankdir, fold, laid_out.template, digest, timings)


def graph_json(drawn: Drawn, backend: str, shown: str | None = None) -> bytes:
    """``GraphResponse`` as JSON: the trace as the engine made it (pydantic-core serialises its
    dataclasses directly, ~10× faster than ``asdict`` + ``json.dumps``), the finished SVG, or
    null when ``shown``, the layout the client shows, is this one (a slider moved: the client
    keeps its SVG and restyles it from the trace; the MLP's answer is then 1.2 MB lighter)."""
    rest = json.dumps(
        {
            "svg": None if shown == drawn.layout else drawn.svg(),
            "layout": drawn.layout,
            "source": drawn.source,
            "values": drawn.values,
            "rankdir": drawn.rankdir,
            "fold": drawn.fold.as_json(),
            "backend": backend,
            "timings": drawn.timings,
        },
        allow_nan=False,
    )
    return b'{"trace":' + _TRACE.dump_json(drawn.trace) + b"," + rest[1:].encode()
