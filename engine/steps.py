"""What every node shows at one step of the walk: the structure's ``start`` with the ``changes``
of each step up to it laid over it. The engine decides every change (engine.trace.structure);
this module and the browser's (static/model.js) only apply them. The server's step images use
this; a gradient's colour bucket (``grad_bin``) is computed here, once, for both.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import GradstepError
from engine.trace.data import GradState, Phase, Structure

__all__ = ["GradState", "NodeState", "Phase", "StepState", "check_count", "check_step", "position",
           "state_at", "step_count"]  # fmt: skip


@dataclass(slots=True)
class NodeState:
    data: int | None  # the slot of the data shown; None: not yet known ("?")
    grad: GradState
    value: int | None  # the slot of the grad shown (partial or final)
    bin: int | None  # the slot of its colour bucket
    updated: bool


@dataclass(frozen=True, slots=True)
class StepState:
    nodes: tuple[NodeState, ...]  # by node id
    current: int | None  # the node this step computes or sends gradient from
    edges: tuple[tuple[int, int], ...]  # lit operand edges (target node, position)
    flow: bool  # True: the lit edges carry gradient (backward); False: data (forward)


def step_count(structure: Structure, phase: Phase) -> int:
    return sum(1 for s in structure.steps if s.phase == phase)


def check_step(structure: Structure, phase: Phase, step: int) -> None:
    check_count(step_count(structure, phase), phase, step)


def check_count(steps: int, phase: Phase, step: int) -> None:
    """``check_step`` for a phase of ``steps`` steps: a live class keeps its program's counts
    alone (app.classroom), not its structure."""
    if not 0 <= step < steps:
        where = f"0 to {steps - 1}" if steps else "none: this graph has no such steps"
        raise GradstepError(f"{phase} step {step} does not exist (steps: {where})", "request")


def position(structure: Structure, phase: Phase, step: int) -> int:
    """Where step ``step`` of ``phase`` is on the walk."""
    check_step(structure, phase, step)
    return next(i for i, s in enumerate(structure.steps) if s.phase == phase) + step


def state_at(structure: Structure, at: int | None = None) -> StepState:
    """What every node shows at position ``at`` of the walk; None: the end of the walk (the
    finished picture, after the program's update when it makes one), with no current node."""
    steps = structure.steps
    end = len(steps) - 1 if at is None else at
    nodes = [NodeState(c.data, c.grad or "pending", c.value, c.bin, False) for c in structure.start]
    for step in steps[: end + 1]:
        for c in step.changes:
            n = nodes[c.node]
            if c.data is not None:
                n.data = c.data
            if c.grad is not None:
                n.grad = c.grad
            if c.value is not None:
                n.value = c.value
            if c.bin is not None:
                n.bin = c.bin
            if c.updated is not None:
                n.updated = c.updated
    if at is None or not steps:
        return StepState(tuple(nodes), None, (), True)
    step = steps[at]
    return StepState(tuple(nodes), step.node, step.edges, step.flow)
