"""Walking a graph of values: topological order and the backward pass.

It knows a value only by what the op table gave it (operands, local derivatives, grad), so it
depends on nothing else in the engine: ``engine.value`` builds values and calls in here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from operator import attrgetter
from typing import Protocol, TypeVar

from engine.errors import GradstepError
from engine.ops import Op

_grad = attrgetter("grad")
_serial = attrgetter("serial")


class GraphNode(Protocol):
    """What the walks read of a value (``engine.value.Value`` is one)."""

    grad: float
    data: float
    serial: int  # creation order
    da: float  # ∂node/∂a
    db: float  # ∂node/∂b

    @property
    def op(self) -> Op | None: ...
    @property
    def a(self) -> GraphNode | None: ...  # the first operand (None: a leaf)
    @property
    def b(self) -> GraphNode | None: ...  # the second (None: one operand, or none)
    @property
    def parents(self) -> Sequence[GraphNode]: ...
    @property
    def locals(self) -> Sequence[float]: ...


N = TypeVar("N", bound=GraphNode)


def topological_order(root: N) -> list[N]:
    """Every value ``root`` depends on, in the order they were created: each after its
    operands (it was made from them), the program's lines in the order the student wrote them,
    and every call's values in one unbroken run (so a folded call is one run of steps).
    No recursion, any depth."""
    seen = {root}
    stack = [root]
    while stack:
        node = stack.pop()
        a = node.a
        if a is not None and a not in seen:
            seen.add(a)  # type: ignore[arg-type]
            stack.append(a)  # type: ignore[arg-type]
        b = node.b
        if b is not None and b not in seen:
            seen.add(b)  # type: ignore[arg-type]
            stack.append(b)  # type: ignore[arg-type]
    return sorted(seen, key=_serial)


def backward(root: N) -> list[N]:
    """Reverse mode: root.grad is seeded with 1 and every contribution is added (+=).

    Leaves accumulate across calls, as in PyTorch; values computed by ops hold this pass's
    gradient. Returns the topological order it used.
    """
    order = topological_order(root)
    computed = [node for node in order if node.op is not None]
    for node in computed:
        node.grad = 0
    root.grad += 1  # micrograd's seed is the int 1 too: its repr shows grad=1
    for node in reversed(computed):
        g = node.grad
        # an op has an operand a, and a second one b or not (engine.ops)
        node.a.grad += node.da * g  # type: ignore[union-attr]
        b = node.b
        if b is not None:
            b.grad += node.db * g
    # One sum is non-finite when any grad is (or when finite ones overflow it: look closer).
    if not math.isfinite(sum(map(_grad, order))) and not all(map(_finite_grad, order)):
        raise _undefined_gradient(order)
    return order


def _finite_grad(node: GraphNode) -> bool:
    return math.isfinite(node.grad)


def _undefined_gradient(order: Sequence[GraphNode]) -> GradstepError:
    """Name the first contribution, in backward order, that was not a finite number."""
    for node in reversed(order):
        for i, (_parent, local) in enumerate(zip(node.parents, node.locals, strict=True)):
            if math.isfinite(node.grad) and not math.isfinite(local * node.grad):
                assert node.op is not None
                operands = ", ".join(
                    f"{name} = {p.data:.6g}" for name, p in zip("ab", node.parents, strict=False)
                )
                if not math.isfinite(local):
                    why = f"{node.op.rule(i)} has no finite value at {operands}"
                    return GradstepError(f"the gradient is undefined: {why}", kind="domain")
                return GradstepError(
                    f"the gradient overflows at {node.op.name} ({operands}) "
                    f"while adding to operand {i + 1}: {local:.6g} · {node.grad:.6g}",
                    kind="overflow",
                )
    raise AssertionError("no non-finite contribution found")  # pragma: no cover
