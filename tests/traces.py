"""Reading a trace in tests as a renderer reads it: its steps by phase, their rows as text (the
one number formatter, 4 decimals), and what every node shows at a step (the start with each
step's changes laid over it, engine/steps.py); and a program's graph of gradstep's values as
Values again, to run backward() on."""

from __future__ import annotations

from app.numbers import render, row_cells
from engine.program import Graph
from engine.steps import NodeState, Phase, position, state_at
from engine.trace import Line, Node, Step, Trace
from engine.value import Value


def steps(t: Trace, phase: Phase) -> list[Step]:
    return [s for s in t.structure.steps if s.phase == phase]


def node(t: Trace, name: str) -> Node:
    return next(n for n in t.structure.nodes if n.name == name)


def text(t: Trace, line: Line) -> str:
    return render(line, t)


def rows(t: Trace, step: Step) -> list[str]:
    """Each row of a step, its columns joined by `` | ``."""
    return [" | ".join(row_cells(row, t)) for row in step.rows]


def shown(t: Trace, phase: Phase | None = None, step: int | None = None) -> list[NodeState]:
    """What every node shows at ``step`` of ``phase`` (None: the finished picture)."""
    at = None if phase is None or step is None else position(t.structure, phase, step)
    return list(state_at(t.structure, at).nodes)


def grads_shown(t: Trace, phase: Phase | None = None, step: int | None = None) -> dict[int, float]:
    """The grads the nodes show (partial or final) at a step, by node id."""
    slots = t.numbers.slots
    return {
        i: slots[s.value]
        for i, s in enumerate(shown(t, phase, step))
        if s.grad in ("partial", "final") and s.value is not None
    }


def values(graph: Graph) -> list[Value]:
    """gradstep's values rebuilt from a graph of them (engine.program.Graph), a Value a node:
    each holds the number, operands and local derivatives the sandbox recorded, so that
    ``engine.graph.backward`` on the output gives exactly the grads ``backward()`` gave there."""
    out: list[Value] = []
    for i, parents in enumerate(graph.parents):
        v = Value(graph.data[i])
        v.constant = graph.constant[i]
        own = graph.ops[i]
        if own is not None:
            v.op = own.op
            operands = [out[p] for p in parents]
            v.a, v.b = operands[0], operands[1] if len(operands) > 1 else None
            v.da, v.db = (*graph.locals[i], 0.0)[:2]
        out.append(v)
    return out
