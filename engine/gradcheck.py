"""Central differences beside autograd, per input, with the error between them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.errors import GradstepError
from engine.graph import topological_order
from engine.value import Value, reevaluate


@dataclass(frozen=True, slots=True)
class GradCheck:
    label: str
    autograd: float
    numeric: float | None  # None when a nudge leaves the function's domain (log near 0)
    abs_error: float | None
    rel_error: float | None
    ok: bool


def numerical_gradient(root: Value, leaf: Value, eps: float = 1e-6) -> float:
    """(f(x + h) − f(x − h)) / 2h, re-evaluating the built graph; leaves it as it was."""
    order = topological_order(root)
    x = leaf.data
    h = eps * max(1.0, abs(x))
    try:
        leaf.data = x + h
        reevaluate(order)
        up = root.data
        leaf.data = x - h
        reevaluate(order)
        down = root.data
    finally:
        leaf.data = x
        reevaluate(order)
    return (up - down) / (2.0 * h)


def check_graph(
    root: Value,
    wrt: Sequence[Value] | None = None,
    *,
    eps: float = 1e-6,
    rtol: float = 1e-4,
    atol: float = 1e-6,
) -> list[GradCheck]:
    """Run backward from ``root`` and compare each input's grad with central differences."""
    order = topological_order(root)
    inputs = list(wrt) if wrt is not None else [n for n in order if n.op is None and not n.constant]
    root.zero_grad()
    root.backward()
    rows = []
    for i, leaf in enumerate(inputs):
        label = leaf.label or f"input {i}"
        try:
            numeric = numerical_gradient(root, leaf, eps)
        except GradstepError:
            rows.append(GradCheck(label, leaf.grad, None, None, None, False))
            continue
        abs_error = abs(leaf.grad - numeric)
        scale = max(abs(leaf.grad), abs(numeric))
        rel_error = abs_error / scale if scale else 0.0
        ok = abs_error <= atol + rtol * scale
        rows.append(GradCheck(label, leaf.grad, numeric, abs_error, rel_error, ok))
    return rows


def gradcheck(f: Callable[..., Value], xs: Sequence[float], **tolerances: float) -> list[GradCheck]:
    """Check ``f``'s gradient at the point ``xs`` (one Value per argument, labelled x0, x1, ...)."""
    inputs = [Value(x, label=f"x{i}") for i, x in enumerate(xs)]
    return check_graph(f(*inputs), inputs, **tolerances)
