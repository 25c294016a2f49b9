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
    order = topological_order(root)  # creation order: a node's id is its place in it ...
    ids = {v: i for i, v in enumerate(order)}
    order, call = _adopted(program, order, ids, innermost_calls(program, ids))  # ... but these
    ids = {v: i for i, v in enumerate(order)}
    names = Names(program, ids, order)
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


def _adopted(
    program: Program, order: list[Value], ids: dict[Value, int], call: list[int | None]
) -> tuple[list[Value], list[int | None]]:
    """The order and the calls, with each parameter made in one call (``Neuron.__init__``) and
    used inside one other call alone (that neuron's ``__call__``) moved into the call that uses
    it, just before its first value: an open neuron is drawn holding its own weights and bias,
    not with the constructor, which may be folded, far off. A value used by several calls (four
    points through one model) stays where it was made; so does one made at the top level, or
    made in a call around its users (a loss function's inputs)."""
    parent = {c.id: c.parent for c in program.calls}

    def chain(c: int | None) -> list[int]:  # c and every call around it, innermost first
        out = []
        while c is not None:
            out.append(c)
            c = parent[c]
        return out

    users: dict[int, set[int | None]] = {}
    for i, v in enumerate(order):
        for p in v.parents:
            if p.op is None and not p.constant and call[ids[p]] is not None:
                users.setdefault(ids[p], set()).add(call[i])
    moved: dict[int, int] = {}  # leaf → the call that adopts it
    for leaf, calls in users.items():
        if None in calls:
            continue
        common = set.intersection(*(set(chain(c)) for c in calls))
        home = max(common, key=lambda c: len(chain(c)), default=None)  # the innermost
        if home is not None and call[leaf] not in chain(home):
            moved[leaf] = home
    if not moved:
        return order, call
    first: dict[int, int] = {}  # each adopting call's first value
    for i in range(len(order)):
        if i not in moved:
            for c in chain(call[i]):
                first.setdefault(c, i)
    before: dict[int, list[int]] = {}  # a value → the adopted leaves that go just before it
    for leaf, home in sorted(moved.items(), key=lambda m: (len(chain(m[1])), m[0])):
        before.setdefault(first[home], []).append(leaf)  # outer calls' first: runs stay whole
    new_order: list[Value] = []
    new_call: list[int | None] = []
    for i, v in enumerate(order):
        for leaf in before.get(i, ()):
            new_order.append(order[leaf])
            new_call.append(moved[leaf])
        if i not in moved:
            new_order.append(v)
            new_call.append(call[i])
    return new_order, new_call


def _kind(v: Value, root: Value) -> Kind:
    if v is root:
        return "output"
    if v.constant:
        return "constant"
    return "input" if v.op is None else "intermediate"
