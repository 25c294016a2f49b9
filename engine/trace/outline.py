"""The graph's outline: what a drawing of it needs (each value's id, name, kind, op and call,
the operand edges, each call's title and run of ids), made before any step is written.

The app hands the outline's DOT to Graphviz, a process of its own, and writes the steps
(``engine.trace`` with the outline) while Graphviz lays it out. A trace's structure has the
same fields, so a drawing reads either (``engine.tracing.Drawable``).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.graph import topological_order
from engine.language import Program
from engine.trace.calls import Calls, innermost_calls
from engine.trace.data import CallOutline, Edge, Kind, NodeOutline
from engine.trace.names import Names
from engine.value import Value


@dataclass(frozen=True, slots=True, eq=False)
class Outline:
    nodes: tuple[NodeOutline, ...]
    edges: tuple[Edge, ...]
    calls: tuple[CallOutline, ...]
    # what the trace goes on from: the values in creation order, their ids and names, and the
    # calls they were made in
    order: list[Value]
    ids: dict[Value, int]
    names: Names
    made_in: Calls


def outline(program: Program) -> Outline:
    """The outline of ``program``'s graph (no backward pass is run)."""
    root = program.output
    order = topological_order(root)  # creation order: a node's id is its place in it
    ids = {v: i for i, v in enumerate(order)}
    names = Names(program, ids, order)
    call = innermost_calls(program, ids)
    nodes = tuple(
        NodeOutline(
            ids[v],
            names(v),
            _kind(v, root),
            v.op.name if v.op else None,
            v.op.symbol if v.op else None,
            call[ids[v]],
        )
        for v in order
    )
    edges = tuple(Edge(ids[p], ids[v], i) for v in order for i, p in enumerate(v.parents))
    made_in = Calls(program.calls, program.source, nodes)
    calls = made_in.outlines(edges, ids[root])
    return Outline(nodes, edges, calls, order, ids, names, made_in)


def _kind(v: Value, root: Value) -> Kind:
    if v is root:
        return "output"
    if v.constant:
        return "constant"
    return "input" if v.op is None else "intermediate"
