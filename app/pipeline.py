"""One graph request, in one straight line (``draw``):

    source ──parse──▶ program ──outline──▶ outline ──fold──▶ DOT ──▶ Graphviz (its own process)
    meanwhile: program + outline ──structure (kept per structure) + numbers──▶ trace
    Graphviz's drawing ──▶ SVG template (cached by DOT); template + a step's state ──▶ SVG

Every route that shows a graph (the JSON API, the SVG and PNG images, the exports, the CLI)
goes through ``draw`` and then fills the template for the step it shows. A value-only change
finds its structure kept (``Pipeline.structures``) and its layout cached: it costs the run of the
program and its numbers, and answers the numbers alone when the client holds that structure.

What the drawings of one app share (the gates, each run's limits, the structures and drawings
kept) is one ``Pipeline``, made by whoever draws (the app's lifespan from its settings, the CLI,
a notebook) and passed to ``draw``: this module keeps no state of its own.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from pydantic import TypeAdapter

import engine
from app.bounded import BoundedCache
from app.capacity import RETRY_AFTER_BUSY_S, Gate, default_slots
from app.draw.dot import Direction, Rankdir, choose_rankdir, dot_source
from app.draw.fold import Fold, fold_view, folded_calls, parse_fold
from app.draw.layout import LaidOut, Layout
from app.draw.layout.limits import DEFAULT_CACHE_MB, cache_share
from app.draw.svg import SvgTemplate
from app.draw.texts import slot_texts
from app.settings import Settings
from engine.limits import RunLimits
from engine.runner import Engine
from engine.steps import Phase, position, state_at
from engine.trace import Built, Drawable, Numbers, Structure, Trace, build, key, numbers
from engine.trace.packed import packed

_STRUCTURE = TypeAdapter(Structure)
_NUMBERS = TypeAdapter(Numbers)


@dataclass(frozen=True, slots=True, eq=False)
class Described:
    """A structure as the API sends it: its JSON, and the digest that names it."""

    structure: Structure
    json: bytes
    digest: str


def describe(structure: Structure) -> Described:
    """``structure`` and its JSON, its lines packed as templates (engine.trace.packed): the
    lecture's MLP's 1.9 MB of JSON, most of it the same words said of different values, is
    sent in 0.9 MB."""
    data = _STRUCTURE.dump_json(packed(structure))
    return Described(structure, data, hashlib.blake2b(data, digest_size=8).hexdigest())


@dataclass(frozen=True, slots=True, eq=False)
class Kept:
    built: Built  # what the numbers of each run are made from
    described: Described


MEMORY_PER_JSON_BYTE = 5  # a kept structure's Python objects, for each byte of its JSON


def _cost(kept: Kept) -> int:
    """The memory a kept structure takes, estimated from its JSON (measured with tracemalloc:
    demo.ipynb's 6.5 MB of JSON hold 32 MB, the lecture's MLP 0.6 MB hold 3.2 MB)."""
    return len(kept.described.json) * MEMORY_PER_JSON_BYTE


MAX_STRUCTURES = 64  # structures kept by their key (engine.trace.key), within their share
# A new structure of a program past BIG_TRACE_VALUES values takes a second or more of Python
# (the 3,610-value demo: 1.7 s), holding the interpreter's lock from every other request: one
# is traced at a time and BIG_TRACES_WAITING wait; more are refused (admission by cost: a
# lecture hall's small programs and slider moves are not slowed by several at once)
BIG_TRACE_VALUES = 1000
BIG_TRACES_WAITING = 2
MAX_DRAWINGS = 64  # a drawing's DOT is at most a few hundred KB (MAX_DRAWN_VALUES)


def _structures(cache_mb: int) -> BoundedCache[Kept]:
    """Structures kept: ``MAX_STRUCTURES``, and their share of ``cache_mb`` (half)."""
    return BoundedCache(_cost, cache_share(cache_mb, "structures"), entries=MAX_STRUCTURES)


def _traces() -> Gate:
    return Gate("big-graph trace", 1, BIG_TRACES_WAITING, RETRY_AFTER_BUSY_S)


def _drawings() -> BoundedCache[tuple[Fold, Rankdir, str]]:
    return BoundedCache(lambda drawing: len(drawing[2]), None, MAX_DRAWINGS)


@dataclass(frozen=True, slots=True, eq=False)
class Pipeline:
    """What the drawings of one app (or one CLI run, or one notebook) share: the gate of the
    programs running at once and waiting, the limits of each run, the structures kept, the gate
    of big new traces, and the drawings (DOT) kept. Its defaults are the unset settings'."""

    runs: Gate = field(default_factory=lambda: Gate.for_runs(default_slots()))
    limits: RunLimits = field(default_factory=RunLimits)
    structures: BoundedCache[Kept] = field(default_factory=lambda: _structures(DEFAULT_CACHE_MB))
    traces: Gate = field(default_factory=_traces)
    drawings: BoundedCache[tuple[Fold, Rankdir, str]] = field(default_factory=_drawings)

    @classmethod
    def of(cls, settings: Settings) -> Pipeline:
        """The pipeline the settings describe: GRADSTEP_RUN_SLOTS, _RUN_QUEUE, _RUN_FUEL,
        _RUN_MEMORY_MB and _CACHE_MB."""
        return cls(
            runs=Gate.for_runs(settings.run_slots, settings.run_queue),
            limits=RunLimits(settings.run_fuel, settings.run_memory_mb),
            structures=_structures(settings.cache_mb),
        )

    def run(
        self,
        source: str,
        values: Mapping[str, float] | None = None,
        engine_choice: Engine = "auto",
        iteration: int | None = None,
    ) -> engine.Program:
        """``source`` run as ``draw`` runs it, in one of the gate's slots and within the runs'
        limits, and no further: to check that a program runs (a short link's)."""
        with self.runs.slot():
            return engine.run(source, dict(values or {}), engine_choice, iteration, self.limits)


@dataclass(frozen=True, slots=True)
class Drawn:
    source: str
    values: dict[str, float]  # the input values given, as applied
    described: Described
    numbers: Numbers
    rankdir: Rankdir
    fold: Fold
    template: SvgTemplate
    layout: str  # the DOT's digest: two graphs drawn the same have the same one
    timings: dict[str, float | bool]
    console: tuple[tuple[int, str], ...] = ()  # what the program printed: (line, text)
    engines: tuple[str, ...] = ("gradstep",)  # which engines can build its graph
    own_class: str = ""  # the program's own engine class ("" for none)
    losses: tuple[float, ...] = ()  # a training loop's output at each iteration
    iteration: int | None = None  # the iteration drawn (None: no training loop)
    plots: tuple[dict[str, object], ...] = ()  # what the program plotted (engine.guest's record)

    @property
    def structure(self) -> Structure:
        return self.described.structure

    @property
    def trace(self) -> Trace:
        return Trace(self.structure, self.numbers)

    def svg(self, phase: Phase | None = None, step: int | None = None) -> str:
        """The graph at ``step`` of ``phase`` (None: finished), as SVG text."""
        structure = self.structure
        at = None if phase is None or step is None else position(structure, phase, step)
        state = state_at(structure, at)
        return self.template.fill(slot_texts(structure, self.numbers, state, self.fold))


def _kept(program: engine.Program, outline: engine.Outline) -> Kept:
    built = build(program, outline)
    return Kept(built, describe(built.structure))


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000


def draw(
    pipeline: Pipeline,
    layout: Layout,
    source: str,
    values: Mapping[str, float] | None,
    direction: Direction = "auto",
    aspect: float | None = None,
    folding: str | None = None,
    engine_choice: Engine = "auto",
    iteration: int | None = None,
) -> Drawn:
    """Parse, trace and lay out ``source`` through ``pipeline`` (its gates, limits and caches)
    and ``layout`` (``direction`` auto: the one that fills a view of
    ``aspect``; ``folding``: which calls are boxes, app.draw.fold; ``engine_choice``: auto, the
    program's own class Value when it has one, or gradstep's; ``iteration``: which iteration of
    a training loop, None the first); raises ``GradstepError`` for any bad input. Each iteration
    of a loop has the same structure and layout: moving between them answers numbers alone."""
    request = parse_fold(folding)
    start = time.perf_counter()
    given = dict(values) if values is not None else {}
    # the program's run (an own engine's runs too): a bounded number at once, each within its
    # fuel; the rest of the work is bounded by the graph's size, and waits for a layout
    # without holding a run's slot
    with pipeline.runs.slot():
        program = engine.run(source, given, engine_choice, iteration, pipeline.limits)
        ran = time.perf_counter()
        outline = engine.outline(program)
    shape = key(program, outline)
    structures, traces = pipeline.structures, pipeline.traces
    kept = structures.get(shape)
    new = kept is None
    big = new and len(program.graph.data) > BIG_TRACE_VALUES
    if big:
        traces.check()  # refused before its layout is started for nothing
    drawing = (shape, request, direction, aspect)
    fold, rankdir, dot = _kept_drawing(pipeline.drawings, drawing, outline)
    pending = layout.begin(dot, fold.listed)  # Graphviz lays the DOT out in its own process...
    traced = time.perf_counter()
    try:  # ...while the structure (when new) and the numbers are written
        if kept is None:
            with traces.slot() if big else contextlib.nullcontext():
                kept = structures.get(shape) or _kept(program, outline)
        figures = numbers(program, outline, kept.built)
    except BaseException:  # the program's error comes first; the layout is kept for next time
        with contextlib.suppress(Exception):
            pending.result()
        raise
    timings: dict[str, float | bool] = {
        "run_ms": (ran - start) * 1000,
        "trace_ms": (time.perf_counter() - traced) * 1000,
    }
    laid_out = pending.result()
    if new:  # kept once drawn: a graph that cannot be drawn crowds out no other's structure
        kept = structures.put(shape, kept)
    drawn = _drawn(source, given, kept.described, figures, fold, rankdir, dot, laid_out, start,
                   timings)  # fmt: skip
    return replace(
        drawn,
        console=program.console,
        engines=program.engines,
        own_class=program.own_class,
        losses=program.losses,
        iteration=program.iteration,
        plots=program.plots,
    )


@dataclass(frozen=True, slots=True, eq=False)
class Traced:
    """A program's run and its trace, made without a layout (``traced``)."""

    program: engine.Program
    outline: engine.Outline
    trace: Trace


def traced(
    pipeline: Pipeline,
    source: str,
    values: Mapping[str, float] | None = None,
    engine_choice: Engine = "auto",
    iteration: int | None = None,
) -> Traced:
    """``source`` run and traced as ``draw`` runs and traces it (within ``pipeline``'s gates and
    limits, a structure kept reused), without a layout: for what needs the steps and numbers
    and never a picture (a live class's steps and a question's true gradient). A structure
    made here is not kept: only a graph drawn is."""
    given = dict(values) if values is not None else {}
    with pipeline.runs.slot():
        program = engine.run(source, given, engine_choice, iteration, pipeline.limits)
        outline = engine.outline(program)
    kept = pipeline.structures.get(key(program, outline))
    if kept is None:
        big = len(program.graph.data) > BIG_TRACE_VALUES
        with pipeline.traces.slot() if big else contextlib.nullcontext():
            kept = _kept(program, outline)
    return Traced(
        program, outline, Trace(kept.described.structure, numbers(program, outline, kept.built))
    )


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
    timings: dict[str, float | bool] = {"run_ms": 0.0, "trace_ms": 0.0}
    given = dict(values) if values is not None else {}
    fold, rankdir, dot = _drawing(trace.structure, direction, aspect, request)
    laid_out = layout.template(dot, fold.listed)
    described = describe(trace.structure)
    return _drawn(source, given, described, trace.numbers, fold, rankdir, dot, laid_out, start,
                  timings)  # fmt: skip


def _kept_drawing(
    drawings: BoundedCache[tuple[Fold, Rankdir, str]],
    drawing: tuple[object, ...],
    outline: Drawable,
) -> tuple[Fold, Rankdir, str]:
    """``_drawing`` of a structure with a fold request, a direction and an aspect, kept in
    ``drawings``: a value-only change draws the same DOT again."""
    found = drawings.get(drawing)
    if found is not None:
        return found
    _, request, direction, aspect = drawing
    made = _drawing(outline, direction, aspect, request)  # type: ignore[arg-type]
    return drawings.put(drawing, made)


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
    described: Described,
    numbers: Numbers,
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
    return Drawn(source, given, described, numbers, rankdir, fold, laid_out.template, digest,
                 timings)  # fmt: skip


def graph_json(
    drawn: Drawn, backend: str, shown: str | None = None, held: str | None = None
) -> bytes:
    """``GraphResponse`` as JSON: the structure (null when ``held``, the structure the client
    holds, is this one: a slider moved), its digest, the numbers, and the finished SVG (null
    when ``shown``, the layout the client shows, is this one: the client keeps its SVG and
    restyles it). The engine's dataclasses are serialised by pydantic-core directly."""
    described = drawn.described
    rest = json.dumps(
        {
            "digest": described.digest,
            "svg": None if shown == drawn.layout else drawn.svg(),
            "layout": drawn.layout,
            "source": drawn.source,
            "values": drawn.values,
            "rankdir": drawn.rankdir,
            "fold": drawn.fold.as_json(),
            "backend": backend,
            "timings": drawn.timings,
            "console": drawn.console,
            "engines": drawn.engines,
            "own_class": drawn.own_class,
            "training": {"losses": drawn.losses, "iteration": drawn.iteration}
            if drawn.losses
            else None,
            "plots": drawn.plots,
        },
        allow_nan=False,
    )
    structure = b"null" if held == described.digest else described.json
    numbers = _NUMBERS.dump_json(drawn.numbers)
    return b'{"structure":' + structure + b',"numbers":' + numbers + b"," + rest[1:].encode()
