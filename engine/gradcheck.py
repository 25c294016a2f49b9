"""Central differences beside autograd, per input, with the error between them."""

from __future__ import annotations

import math
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


class Nudges:
    """The graph's output with one leaf moved, computed on plain floats through the op table:
    the same operations in the same order as re-evaluating the values, but only for the ops
    that depend on that leaf, and without making a Value for each."""

    def __init__(self, root: Value, order: list[Value]) -> None:
        self.slot = {v: i for i, v in enumerate(order)}
        self.root = self.slot[root]
        self.steps = [
            (i, v.op.eval, [self.slot[p] for p in v.parents])
            for i, v in enumerate(order)
            if v.op is not None
        ]
        self.users: list[list[int]] = [[] for _ in order]  # the steps that read each value
        for k, (_, _, operands) in enumerate(self.steps):
            for p in operands:
                self.users[p].append(k)
        self.values = [v.data for v in order]
        for i, op, operands in self.steps:  # from the leaves as they are now
            self.values[i] = _finite(op(*[self.values[p] for p in operands])[0])

    def derivative(self, leaf: Value, eps: float = 1e-6) -> float:
        """(f(x + h) − f(x − h)) / 2h; GradstepError if an op leaves its domain or overflows,
        as re-evaluating the Values would."""
        x = leaf.data
        h = eps * max(1.0, abs(x))
        after = self._after(self.slot[leaf])
        return (self._output(leaf, x + h, after) - self._output(leaf, x - h, after)) / (2.0 * h)

    def _output(self, leaf: Value, x: float, after: list[int]) -> float:
        """The root's value with ``leaf`` at ``x``, recomputing the steps ``after`` it."""
        values = self.values.copy()
        values[self.slot[leaf]] = x
        for k in after:
            i, op, operands = self.steps[k]
            values[i] = _finite(op(*[values[p] for p in operands])[0])
        return values[self.root]

    def _after(self, start: int) -> list[int]:
        """The steps that depend on value ``start``, in order."""
        seen: set[int] = set()
        frontier = [start]
        while frontier:
            for k in self.users[frontier.pop()]:
                if k not in seen:
                    seen.add(k)
                    frontier.append(self.steps[k][0])
        return sorted(seen)


def _finite(out: float) -> float:
    if not math.isfinite(out):
        raise GradstepError("the result is too large for a float", kind="overflow")
    return out


def numerical_gradient(root: Value, leaf: Value, eps: float = 1e-6) -> float:
    """(f(x + h) − f(x − h)) / 2h, re-evaluating the built graph on floats; leaves it as it
    was."""
    return _nudges(root, topological_order(root)).derivative(leaf, eps)


def _nudges(root: Value, order: list[Value]) -> Nudges:
    try:
        return Nudges(root, order)
    except OverflowError:
        raise GradstepError("the result is too large for a float", kind="overflow") from None


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
    nudges = _nudges(root, order)
    rows = []
    for i, leaf in enumerate(inputs):
        label = leaf.label or f"input {i}"
        try:
            numeric = nudges.derivative(leaf, eps)
        except (GradstepError, OverflowError):
            rows.append(GradCheck(label, leaf.grad, None, None, None, False))
            continue
        abs_error = abs(leaf.grad - numeric)
        scale = max(abs(leaf.grad), abs(numeric))
        rel_error = abs_error / scale if scale else 0.0
        ok = abs_error <= atol + rtol * scale
        rows.append(GradCheck(label, leaf.grad, numeric, abs_error, rel_error, ok))
    if any(v.data != x for v, x in zip(order, nudges.values, strict=True)):
        reevaluate(order)  # a leaf changed since the graph was built: bring it up to date
    return rows


def gradcheck(f: Callable[..., Value], xs: Sequence[float], **tolerances: float) -> list[GradCheck]:
    """Check ``f``'s gradient at the point ``xs`` (one Value per argument, labelled x0, x1, ...)."""
    inputs = [Value(x, label=f"x{i}") for i, x in enumerate(xs)]
    return check_graph(f(*inputs), inputs, **tolerances)
