"""The graph's outline: what a drawing of it needs (each value's id, name, kind, op and call,
the operand edges, each call's title and run of ids), made before any step is written, for a
graph of either engine.

The app hands the outline's DOT to Graphviz, a process of its own, and writes the steps
(``engine.trace`` with the outline) while Graphviz lays it out. A trace's structure has the
same fields, so a drawing reads either (``Drawable``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from engine.own import Study, study
from engine.program import Graph, Program
from engine.trace.calls import Calls
from engine.trace.data import CallOutline, Edge, Kind, NodeOutline, Structure
from engine.trace.names import Names


@dataclass(frozen=True, slots=True, eq=False)
class Outline:
    nodes: tuple[NodeOutline, ...]
    edges: tuple[Edge, ...]
    calls: tuple[CallOutline, ...]
    # what the trace goes on from: the graph, each node id's graph index and back, the names,
    # and the calls the nodes were made in
    graph: Graph
    order: list[int]  # node id -> graph index
    ids: list[int]  # graph index -> node id
    names: Names
    made_in: Calls
    study: Study | None = None  # a learner's own engine: their pass, the truth, the findings


Drawable: TypeAlias = Outline | Structure  # what a drawing reads: the fields both share


def outline(program: Program) -> Outline:
    """The outline of ``program``'s graph."""
    g = program.graph
    if not g.parents:  # the program made no value to draw
        return Outline((), (), (), g, [], [], Names(g, [], []), Calls((), "", ()))
    order, call = _adopted(g)
    ids = [0] * len(order)
    for k, i in enumerate(order):
        ids[i] = k
    names = Names(g, ids, order, program.source)
    nodes = tuple(
        NodeOutline(
            k,
            names(i),
            _kind(g, i),
            op.op.name if (op := g.ops[i]) is not None and op.op is not None else None,
            _symbol(g, i),
            call[k],
        )
        for k, i in enumerate(order)
    )
    edges = tuple(
        Edge(ids[p], k, position) for k, i in enumerate(order)
        for position, p in enumerate(g.parents[i])
    )  # fmt: skip
    made_in = Calls(g.call_list, program.source, nodes, edges)
    calls = made_in.outlines(edges, ids[g.output])
    learner = study(program) if g.engine == "program" else None
    return Outline(nodes, edges, calls, g, order, ids, names, made_in, learner)


def _symbol(g: Graph, i: int) -> str | None:
    op = g.ops[i]
    if op is None:
        return None
    if g.engine == "gradstep":
        return op.op.symbol if op.op is not None else None
    return op.text or None


def _kind(g: Graph, i: int) -> Kind:
    if i == g.output:
        return "output"
    if g.constant[i]:
        return "constant"
    return "intermediate" if g.parents[i] else "input"


def _adopted(g: Graph) -> tuple[list[int], list[int | None]]:
    """The order (graph indices by node id) and each node's call, with each parameter made in
    one call (``Neuron.__init__``) and used inside one other call alone (that neuron's
    ``__call__``) moved into the call that uses it, just before its first value: an open neuron
    is drawn holding its own weights and bias, not with the constructor, which may be folded,
    far off. A value used by several calls (four points through one model) stays where it was
    made; so does one made at the top level, or made in a call around its users (a loss
    function's inputs)."""
    n = len(g.parents)
    call = list(g.calls)
    if g.engine == "program":  # a learner's graph keeps the order its objects were made in
        return list(range(n)), call
    parent = {c.id: c.parent for c in g.call_list}

    def chain(c: int | None) -> list[int]:  # c and every call around it, innermost first
        out = []
        while c is not None:
            out.append(c)
            c = parent[c]
        return out

    users: dict[int, set[int | None]] = {}
    for i in range(n):
        for p in g.parents[i]:
            if not g.parents[p] and not g.constant[p] and call[p] is not None:
                users.setdefault(p, set()).add(call[i])
    moved: dict[int, int] = {}  # leaf → the call that adopts it
    for leaf, callers in users.items():
        if None in callers:
            continue
        common = set.intersection(*(set(chain(c)) for c in callers))
        home = max(common, key=lambda c: len(chain(c)), default=None)  # the innermost
        if home is not None and call[leaf] not in chain(home):
            moved[leaf] = home
    if not moved:
        return list(range(n)), call
    first: dict[int, int] = {}  # each adopting call's first value
    for i in range(n):
        if i not in moved:
            for c in chain(call[i]):
                first.setdefault(c, i)
    before: dict[int, list[int]] = {}  # a value → the adopted leaves that go just before it
    for leaf, home in sorted(moved.items(), key=lambda m: (len(chain(m[1])), m[0])):
        before.setdefault(first[home], []).append(leaf)  # outer calls' first: runs stay whole
    order: list[int] = []
    calls: list[int | None] = []
    for i in range(n):
        for leaf in before.get(i, ()):
            order.append(leaf)
            calls.append(moved[leaf])
        if i not in moved:
            order.append(i)
            calls.append(call[i])
    return order, calls
