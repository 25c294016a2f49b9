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


def build_digraph(
    values: Iterable[DrawnValue], edges: Iterable[tuple[int, int, int]], rankdir: Rankdir = "LR"
) -> graphviz.Digraph:
    """The graph of ``values``; ``edges`` are (operand id, result id, operand position)."""
    values = list(values)
    dot = graphviz.Digraph(graph_attr={"rankdir": rankdir}, node_attr={"fontsize": "14"})
    if len(values) > BIG_GRAPH_VALUES:
        # Bound network simplex and crossing minimisation: a 1,500-value graph then lays out in
        # about a second instead of tens, at the price of a few longer edges.
        dot.graph_attr.update(nslimit="2", nslimit1="2", mclimit="0.2")
    for v in values:
        fields = (record_field(short_label(v.label)), v.data_text, v.grad_text)
        dot.node(
            f"n{v.id}",
            label="{ " + " | ".join(fields) + " }",
            shape="record",
            id=f"n{v.id}",
            **{"class": f"value kind-{v.kind}"},
        )
        if v.op is not None:
            dot.node(
                f"op{v.id}",
                label=record_field(v.symbol or v.op),
                shape="ellipse",
                id=f"op{v.id}",
                **{"class": f"op op-{v.op}"},
            )
            dot.edge(f"op{v.id}", f"n{v.id}", id=f"r{v.id}", **{"class": "result"})
    for source, target, position in edges:
        dot.edge(f"n{source}", f"op{target}", id=f"e{target}-{position}", **{"class": "operand"})
    return dot


def trace_digraph(trace: Trace, rankdir: Rankdir = "LR") -> graphviz.Digraph:
    """The DOT the server lays out: structure only, numbers as fixed-width placeholders."""
    if len(trace.nodes) > MAX_DRAWN_VALUES:
        raise GradstepError(
            f"this graph has {len(trace.nodes):,} values; gradstep draws at most "
            f"{MAX_DRAWN_VALUES:,} (the trace was computed, but the drawing would be unreadable)",
            kind="limit",
        )
    values = (
        DrawnValue(n.id, n.label or "", n.kind, n.op, n.symbol, DATA_PLACEHOLDER, GRAD_PLACEHOLDER)
        for n in trace.nodes
    )
    edges = ((e.source, e.target, e.position) for e in trace.edges)
    return build_digraph(values, edges, rankdir)


def draw_dot(root: Value, rankdir: Rankdir = "LR") -> graphviz.Digraph:
    """The graph of every value ``root`` depends on, with its numbers: a notebook shows it
    inline (as in micrograd's trace_graph notebook). Ids follow creation order."""
    order = sorted(topological_order(root), key=lambda v: v.serial)
    ids = {v: i for i, v in enumerate(order)}
    values = []
    for v in order:
        kind = (
            "output"
            if v is root
            else "constant"
            if v.constant
            else "input"
            if v.op is None
            else "intermediate"
        )
        grad = "grad —" if v.constant else f"grad {format_number(v.grad)}"
        values.append(
            DrawnValue(
                ids[v],
                v.label or "",
                kind,
                v.op.name if v.op else None,
                v.op.symbol if v.op else None,
                f"data {format_number(v.data)}",
                grad,
            )
        )
    edges = ((ids[p], ids[v], i) for v in order for i, p in enumerate(v.parents))
    return build_digraph(values, edges, rankdir)
