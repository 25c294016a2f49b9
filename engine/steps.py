"""What every node shows at one step, read from the trace's fields (``computed_at``,
``grad_from``, ``grad_final``, each contribution's ``grad_after`` and ``bin``): the server's
step images use this; the browser reads the same fields the same way (static/stepper.js).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from engine.errors import GradstepError

if TYPE_CHECKING:
    from engine.trace import Trace

Phase = Literal["forward", "backward", "update"]  # update: the program's .data changes
GradState = Literal["none", "pending", "partial", "final"]


def grad_bin(grad: float, scale: float) -> int:
    """-3..3 by the sign and size of grad / scale (the largest |final grad| of the graph): the
    colour of a gradient. Never overflows: the ratio is capped before it is scaled."""
    if grad == 0 or scale == 0 or not math.isfinite(grad):
        return 0
    size = math.ceil(min(3.0, 3.0 * min(abs(grad) / scale, 1.0)) - 1e-12)
    return int(math.copysign(max(size, 1), grad))


@dataclass(frozen=True, slots=True)
class NodeState:
    data_known: bool
    data: float  # the data shown: the forward pass's, or after the program's update
    grad: float | None  # the grad shown; None while pending, or for a constant
    grad_state: GradState
    bin: int


@dataclass(frozen=True, slots=True)
class StepState:
    nodes: tuple[NodeState, ...]  # by node id
    current: int | None  # the node this step computes or sends gradient from
    edges: tuple[tuple[int, int], ...]  # lit operand edges (target node, position)
    flow: bool  # True: the lit edges carry gradient (backward); False: data (forward)
    updated: frozenset[int] = frozenset()  # the values whose .data the program changed


def check_step(trace: Trace, phase: Phase, step: int) -> None:
    steps = step_count(trace, phase)
    if not 0 <= step < steps:
        where = f"0 to {steps - 1}" if steps else "none: this graph has no such steps"
        raise GradstepError(f"{phase} step {step} does not exist (steps: {where})", "request")


def step_count(trace: Trace, phase: Phase) -> int:
    if phase == "update":  # one step: every .data change the program makes after backward()
        return 1 if trace.updates else 0
    return len(trace.forward if phase == "forward" else trace.backward)


def finished(trace: Trace) -> StepState:
    """Every data known and every final grad: the picture after the backward pass."""
    nodes = tuple(
        NodeState(True, n.data, n.grad, "none" if n.grad is None else "final", n.bin)
        for n in trace.nodes
    )
    return StepState(nodes, None, (), True)


def updated(trace: Trace) -> StepState:
    """The finished picture with the program's update applied: the changed leaves show their
    new data (their grads stay: micrograd keeps them until zero_grad())."""
    after = {u.node: u.after for u in trace.updates}
    done = finished(trace)
    nodes = tuple(
        NodeState(True, after[i], s.grad, s.grad_state, s.bin) if i in after else s
        for i, s in enumerate(done.nodes)
    )
    return StepState(nodes, None, (), False, frozenset(after))


def state_at(trace: Trace, phase: Phase, step: int) -> StepState:
    check_step(trace, phase, step)
    if phase == "update":
        return updated(trace)
    if phase == "forward":
        node = trace.forward[step].node
        nodes = tuple(
            NodeState(
                n.computed_at <= step, n.data, None, "none" if n.grad is None else "pending", 0
            )
            for n in trace.nodes
        )
        arity = sum(1 for e in trace.edges if e.target == node)
        return StepState(nodes, node, tuple((node, p) for p in range(arity)), False)
    shown: dict[int, tuple[float, int]] = {trace.output: (1.0, trace.nodes[trace.output].bin)}
    for s in trace.backward[1 : step + 1]:
        for c in s.contributions:
            shown[c.operand] = (c.grad_after, c.bin)
    states = []
    for n in trace.nodes:
        if n.grad is None:
            states.append(NodeState(True, n.data, None, "none", 0))
        elif step < n.grad_from:
            states.append(NodeState(True, n.data, None, "pending", 0))
        else:
            grad, bin_ = shown[n.id]
            state: GradState = "final" if step >= n.grad_final else "partial"
            states.append(NodeState(True, n.data, grad, state, bin_))
    current = trace.backward[step]
    edges = tuple((current.node, c.position) for c in current.contributions)
    return StepState(tuple(states), current.node, edges, True)
