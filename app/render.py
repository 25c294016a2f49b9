"""DOT for a trace, in micrograd's look: a record per value, a small node per op.

Ids and classes follow docs/graph-contract.md. Numbers are not part of the DOT the server lays
out: every value gets the same fixed-width placeholder texts, so the layout depends on the
graph's structure only and can be cached; the real texts are written into the SVG afterwards
(``app.svgtemplate``). ``draw_dot`` draws real numbers, for notebooks.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

import graphviz

from engine import Value
from engine.errors import GradstepError
from engine.graph import topological_order
from engine.trace import Trace

Rankdir = Literal["LR", "TB"]

MAX_DRAWN_VALUES = 2_000  # past this a graph is too big to read, and to lay out promptly
BIG_GRAPH_VALUES = 300  # from here on, network-simplex work is bounded (nslimit, nslimit1)
MAX_LABEL_CHARS = 24  # longer labels are cut: the box should fit the graph, not the label
NUMBER_WIDTH = 10  # characters a formatted number may take ("-1234.5678", "-1.235e+08")
DATA_PLACEHOLDER = "data " + "0" * NUMBER_WIDTH
GRAD_PLACEHOLDER = "grad " + "0" * NUMBER_WIDTH

_RECORD_SPECIALS = frozenset('{}|<>"\\ ')


def format_number(x: float) -> str:
    """4 decimals as micrograd, or scientific notation when that would not fit the box."""
    text = f"{x:.4f}"
    if len(text) > NUMBER_WIDTH:
        text = f"{x:.3e}"
    return "0.0000" if text == "-0.0000" else text


def short_label(label: str | None) -> str:
    """The label as drawn: cut to MAX_LABEL_CHARS, control characters shown as spaces."""
    text = "".join(" " if ch < " " or ch == "\x7f" else ch for ch in label or "")
    if len(text) > MAX_LABEL_CHARS:
        text = text[: MAX_LABEL_CHARS - 1] + "…"
    return text


def record_field(text: str) -> str:
    """``text`` escaped for a field of a DOT record label: nothing in it can open a field,
    a port or a string, and ``&`` is not read as the start of an entity."""
    out = []
    for ch in text:
        if ch in _RECORD_SPECIALS:
            out.append("\\" + ch)
        elif ch == "&":
            out.append("&amp;")
        else:
            out.append(ch)
    return "".join(out) or "\\ "  # an empty field draws no text element at all


@dataclass(frozen=True, slots=True)
class DrawnValue:
    id: int
    label: str
    kind: str  # input, constant, intermediate, output
    op: str | None  # op name ("mul"): the value has an op node
    symbol: str | None  # drawn in the op node ("*")
    data_text: str
    grad_text: str


def dot_lines(values: Iterable[DrawnValue], edges: Iterable[tuple[int, int, int]]) -> list[str]:
    """The DOT statements of ``values`` and ``edges`` (operand id, result id, position).

    Written directly rather than through ``Digraph.node``: for a 1,000-value graph that is
    milliseconds instead of tens of them. Every label goes through ``record_field``, which
    escapes ``"`` and ``\\`` too, so nothing can leave its quoted string.
    """
    lines = []
    for v in values:
        label = f"{record_field(short_label(v.label))} | {v.data_text} | {v.grad_text}"
        lines.append(
            f'\tn{v.id} [label="{{ {label} }}" class="value kind-{v.kind}" id=n{v.id}'
            " shape=record]\n"
        )
        if v.op is not None:
            symbol = record_field(v.symbol or v.op)
            lines.append(
                f'\top{v.id} [label="{symbol}" class="op op-{v.op}" id=op{v.id} shape=ellipse]\n'
            )
            lines.append(f"\top{v.id} -> n{v.id} [class=result id=r{v.id}]\n")
    for source, target, position in edges:
        lines.append(f'\tn{source} -> op{target} [class=operand id="e{target}-{position}"]\n')
    return lines


def build_digraph(
    values: Iterable[DrawnValue], edges: Iterable[tuple[int, int, int]], rankdir: Rankdir = "LR"
) -> graphviz.Digraph:
    """The graph of ``values``; ``edges`` are (operand id, result id, operand position)."""
    values = list(values)
    dot = graphviz.Digraph(
        graph_attr={"rankdir": rankdir},
        node_attr={"fontsize": "14"},
        body=dot_lines(values, edges),
    )
    if len(values) > BIG_GRAPH_VALUES:
        # Bound network simplex and crossing minimisation: a 1,500-value graph then lays out in
        # about a second, at the price of a few longer edges.
        dot.graph_attr.update(nslimit="2", nslimit1="2", mclimit="0.2")
    return dot


def _check_drawable(count: int) -> None:
    if count > MAX_DRAWN_VALUES:
        raise GradstepError(
            f"this graph has {count:,} values; gradstep draws at most "
            f"{MAX_DRAWN_VALUES:,} (the trace was computed, but the drawing would be unreadable)",
            kind="limit",
        )


def trace_digraph(trace: Trace, rankdir: Rankdir = "LR") -> graphviz.Digraph:
    """The DOT the server lays out: structure only, numbers as fixed-width placeholders."""
    _check_drawable(len(trace.nodes))
    values = (
        DrawnValue(n.id, n.label or "", n.kind, n.op, n.symbol, DATA_PLACEHOLDER, GRAD_PLACEHOLDER)
        for n in trace.nodes
    )
    edges = ((e.source, e.target, e.position) for e in trace.edges)
    return build_digraph(values, edges, rankdir)


def _kind(v: Value, root: Value) -> str:
    if v is root:
        return "output"
    if v.constant:
        return "constant"
    return "input" if v.op is None else "intermediate"


def _graph_of(root: Value) -> tuple[list[Value], dict[Value, int]]:
    order = sorted(topological_order(root), key=lambda v: v.serial)
    return order, {v: i for i, v in enumerate(order)}


def structure_digraph(root: Value, rankdir: Rankdir = "LR") -> graphviz.Digraph:
    """``trace_digraph`` of the trace ``root`` will have, read from the Value graph itself, so
    layout can start before the trace is computed. Ids are creation order, as in the trace
    (a test checks the two DOTs are equal)."""
    order, ids = _graph_of(root)
    _check_drawable(len(order))
    values = (
        DrawnValue(
            ids[v],
            v.label or "",
            _kind(v, root),
            v.op.name if v.op else None,
            v.op.symbol if v.op else None,
            DATA_PLACEHOLDER,
            GRAD_PLACEHOLDER,
        )
        for v in order
    )
    edges = ((ids[p], ids[v], i) for v in order for i, p in enumerate(v.parents))
    return build_digraph(values, edges, rankdir)


def draw_dot(root: Value, rankdir: Rankdir = "LR") -> graphviz.Digraph:
    """The graph of every value ``root`` depends on, with its numbers: a notebook shows it
    inline (as in micrograd's trace_graph notebook). Ids follow creation order."""
    order, ids = _graph_of(root)
    values = (
        DrawnValue(
            ids[v],
            v.label or "",
            _kind(v, root),
            v.op.name if v.op else None,
            v.op.symbol if v.op else None,
            f"data {format_number(v.data)}",
            "grad —" if v.constant else f"grad {format_number(v.grad)}",
        )
        for v in order
    )
    edges = ((ids[p], ids[v], i) for v in order for i, p in enumerate(v.parents))
    return build_digraph(values, edges, rankdir)
