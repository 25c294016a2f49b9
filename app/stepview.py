"""The state of every drawn element at one step (docs/graph-contract.md, "Step states"), as
the texts and classes that fill an ``SvgTemplate``. The browser computes the same states from
the same trace; the server uses this for the final picture and for standalone step images."""

from __future__ import annotations

import math
from collections import Counter
from typing import Literal

from app.render import format_number, short_label
from engine.errors import GradstepError
from engine.trace import Node, Trace

Phase = Literal["forward", "backward"]


def grad_bin(grad: float, scale: float) -> int:
    """-3..3 by the sign and size of grad / scale (the largest |grad| of the graph)."""
    if grad == 0 or scale == 0:
        return 0
    return int(math.copysign(min(3, math.ceil(3 * abs(grad) / scale - 1e-12)), grad))


def _scale(trace: Trace) -> float:
    return max((abs(n.grad) for n in trace.nodes if n.grad is not None), default=0.0)


def check_step(trace: Trace, phase: Phase, step: int) -> None:
    steps = len(trace.forward if phase == "forward" else trace.backward)
    if not 0 <= step < steps:
        where = f"0 to {steps - 1}" if steps else "none: this graph has no such steps"
        raise GradstepError(f"{phase} step {step} does not exist (steps: {where})", "request")


def slot_texts(trace: Trace, phase: Phase | None = None, step: int | None = None) -> dict[str, str]:
    """Texts and classes at ``step`` of ``phase``; with no phase, the finished picture (every
    data and every final grad)."""
    data_known: set[int] | None = None  # None: all known
    grads: dict[int, tuple[float, str]] = {}  # node -> (grad shown, grad-partial|grad-final)
    current: set[str] = set()
    flow: set[str] = set()
    if phase is None:
        grads = {n.id: (n.grad, "grad-final") for n in trace.nodes if n.grad is not None}
    elif phase == "forward":
        check_step(trace, phase, step or 0)
        i = step or 0
        data_known = {n.id for n in trace.nodes if n.op is None}
        data_known.update(f.node for f in trace.forward[: i + 1])
        node = trace.forward[i].node
        arity = sum(1 for e in trace.edges if e.target == node)
        current = {f"n{node}", f"op{node}", f"r{node}", *(f"e{node}-{p}" for p in range(arity))}
    else:
        check_step(trace, phase, step or 0)
        grads, current, flow = _backward_state(trace, step or 0)
    scale = _scale(trace)
    texts: dict[str, str] = {}
    for n in trace.nodes:
        known = data_known is None or n.id in data_known
        classes = [f"node value kind-{n.kind}", "data-known" if known else "data-pending"]
        texts[f"n{n.id}.label"] = short_label(n.label)
        texts[f"n{n.id}.data"] = f"data {format_number(n.data)}" if known else "data ?"
        texts[f"n{n.id}.grad"] = _grad_text(n, grads, classes, scale)
        if f"n{n.id}" in current:
            classes.append("current")
        texts[f"n{n.id}.class"] = " ".join(classes)
        if n.op is not None:
            here = " current" if f"op{n.id}" in current else ""
            texts[f"op{n.id}.class"] = f"node op op-{n.op}{here}"
            texts[f"r{n.id}.class"] = "edge result" + (" current" if f"r{n.id}" in current else "")
    for e in trace.edges:
        key = f"e{e.target}-{e.position}"
        state = " current" if key in current else " flow" if key in flow else ""
        texts[f"{key}.class"] = "edge operand" + state
    return texts


def _grad_text(
    node: Node, grads: dict[int, tuple[float, str]], classes: list[str], scale: float
) -> str:
    if node.grad is None:
        classes.append("grad-none")
        return "grad —"
    shown = grads.get(node.id)
    if shown is None:
        classes.append("grad-pending")
        return "grad ?"
    value, state = shown
    classes += [state, f"gbin-{grad_bin(value, scale)}"]
    return f"grad {format_number(value)}"


def _backward_state(
    trace: Trace, j: int
) -> tuple[dict[int, tuple[float, str]], set[str], set[str]]:
    expected = Counter(c.operand for s in trace.backward for c in s.contributions)
    received: Counter[int] = Counter()
    shown: dict[int, float] = {}
    for s in trace.backward[: j + 1]:
        if s.seed:
            shown[s.node] = 1.0
        for c in s.contributions:
            received[c.operand] += 1
            shown[c.operand] = c.grad_after
    grads = {
        node: (value, "grad-final" if received[node] >= expected[node] else "grad-partial")
        for node, value in shown.items()
    }
    step = trace.backward[j]
    current = {f"n{step.node}", f"op{step.node}"}
    flow = {f"e{step.node}-{c.position}" for c in step.contributions}
    return grads, current, flow
