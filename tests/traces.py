"""Reading a trace in tests as a renderer reads it: its steps by phase, their rows as text (the
one number formatter, 4 decimals), and what every node shows at a step (the start with each
step's changes laid over it, engine/steps.py)."""

from __future__ import annotations

from app.numbers import render, row_cells
from engine.steps import NodeState, Phase, position, state_at
from engine.trace import Line, Node, Step, Trace


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
