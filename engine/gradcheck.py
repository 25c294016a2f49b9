"""Central differences beside autograd, per input, with the error between them."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.errors import GradstepError
from engine.graph import topological_order
from engine.ops import Locals
from engine.value import Value, reevaluate

_Step = tuple[int, Callable[..., tuple[float, Locals]], int, int]


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

    def __init__(self, root: int, values: list[float], steps: list[_Step]) -> None:
        """``values`` in a topological order, ``root`` the output's slot, ``steps`` (result
        slot, op, operand slots; -1: none) in that order."""
        self.root = root
        self.steps = steps
        self.users: list[list[int]] = [[] for _ in values]  # the steps that read each value
        for k, (_, _, a, b) in enumerate(self.steps):
            self.users[a].append(k)
            if b >= 0 and b != a:
                self.users[b].append(k)
        self.values = self._replay(list(values), self.steps)  # from the leaves as they are now

    @classmethod
    def of(cls, root: Value, order: list[Value]) -> Nudges:
        slot = {v: i for i, v in enumerate(order)}
        # (result slot, op, operand slots): an op's arity picks its call, with no list per call
        steps: list[_Step] = []
        for i, v in enumerate(order):
            if v.op is not None and v.a is not None:
                b = -1 if v.b is None else slot[v.b]
                steps.append((i, v.op.eval, slot[v.a], b))
        return cls(slot[root], [v.data for v in order], steps)

    def derivative(self, leaf: int, eps: float = 1e-6) -> float:
        """(f(x + h) − f(x − h)) / 2h for the value in slot ``leaf``; GradstepError if an op
        leaves its domain or overflows, as re-evaluating the Values would."""
        x = self.values[leaf]
        h = eps * max(1.0, abs(x))
        after = self._after(leaf)
        return (self._output(leaf, x + h, after) - self._output(leaf, x - h, after)) / (2.0 * h)

    def _output(self, leaf: int, x: float, after: list[_Step]) -> float:
        """The root's value with ``leaf`` at ``x``, recomputing the steps ``after`` it."""
        values = self.values.copy()
        values[leaf] = x
        return self._replay(values, after)[self.root]

    @staticmethod
    def _replay(values: list[float], steps: list[_Step]) -> list[float]:
        isfinite = math.isfinite
        for i, op, a, b in steps:
            out = (op(values[a]) if b < 0 else op(values[a], values[b]))[0]
            if not isfinite(out):
                raise GradstepError("the result is too large for a float", kind="overflow")
            values[i] = out
        return values

    def _after(self, start: int) -> list[_Step]:
        """The steps that depend on value ``start``, in order."""
        seen: set[int] = set()
        frontier = [start]
        while frontier:
            for k in self.users[frontier.pop()]:
                if k not in seen:
                    seen.add(k)
                    frontier.append(self.steps[k][0])
        return [self.steps[k] for k in sorted(seen)]


def numerical_gradient(root: Value, leaf: Value, eps: float = 1e-6) -> float:
    """(f(x + h) − f(x − h)) / 2h, re-evaluating the built graph on floats; leaves it as it
    was."""
    order = topological_order(root)
    return _nudges(root, order).derivative(order.index(leaf), eps)


def _nudges(root: Value, order: list[Value]) -> Nudges:
    try:
        return Nudges.of(root, order)
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
    slot = {v: i for i, v in enumerate(order)}
    rows = []
    for i, leaf in enumerate(inputs):
        label = leaf.label or f"input {i}"
        try:
            numeric = nudges.derivative(slot[leaf], eps)
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
