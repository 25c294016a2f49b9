"""Traces built straight from engine Values, for testing rendering without the parser."""

from __future__ import annotations

from engine import Value
from engine.graph import topological_order
from engine.trace import BackwardStep, Contribution, Counts, Edge, ForwardStep, Node, Trace


def trace_of(root: Value) -> Trace:
    """The trace of ``root``'s graph after ``root.backward()``, ids in creation order."""
    root.backward()
    order = topological_order(root)
    ids = {v: i for i, v in enumerate(sorted(order, key=lambda v: v.serial))}
    topo = {v: i for i, v in enumerate(order)}

    def kind(v: Value) -> str:
        if v is root:
            return "output"
        return "constant" if v.constant else "input" if v.op is None else "intermediate"

    nodes = tuple(
        Node(
            ids[v],
            v.label,
            kind(v),
            v.op.name if v.op else None,
            v.op.symbol if v.op else None,
            v.data,
            None if v.constant else v.grad,
            None,
            topo[v],
        )
        for v in sorted(order, key=lambda v: v.serial)
    )
    edges = tuple(Edge(ids[p], ids[v], i) for v in order for i, p in enumerate(v.parents))
    ops = [v for v in order if v.op is not None]
    forward = tuple(ForwardStep(ids[v], tuple(p.data for p in v.parents), v.data, "") for v in ops)
    grads = dict.fromkeys(order, 0.0)
    grads[root] = 1.0
    backward = [BackwardStep(ids[root], True, ())]
    for v in reversed(ops):
        contributions = []
        for i, (p, local) in enumerate(zip(v.parents, v.locals, strict=True)):
            if p.constant:
                continue
            before = grads[p]
            grads[p] = before + local * grads[v]
            contributions.append(
                Contribution(ids[p], i, "", "", local, grads[v], local * grads[v], before, grads[p])
            )
        backward.append(BackwardStep(ids[v], False, tuple(contributions)))
    return Trace(ids[root], nodes, edges, forward, tuple(backward), (), Counts(0, 0, 1.0))


def readme_graph() -> Value:
    """micrograd's README program."""
    a = Value(-4.0, label="a")
    b = Value(2.0, label="b")
    c = a + b
    d = a * b + b**3
    c += c + 1
    c += 1 + c + (-a)
    d += d * 2 + (b + a).relu()
    d += 3 * d + (b - a).relu()
    e = c - d
    f = e**2
    g = f / 2.0
    g += 10.0 / f
    g.label = "g"
    return g
