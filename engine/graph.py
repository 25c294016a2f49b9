"""Walking a Value graph: topological order, the backward pass, re-evaluation."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from engine.errors import GradstepError

if TYPE_CHECKING:
    from engine.value import Value


def topological_order(root: Value) -> list[Value]:
    """Every value ``root`` depends on, each after its operands; no recursion, any depth."""
    order: list[Value] = []
    visited: set[Value] = set()
    stack: list[tuple[Value, bool]] = [(root, False)]
    while stack:
        node, operands_done = stack.pop()
        if operands_done:
            order.append(node)
        elif node not in visited:
            visited.add(node)
            stack.append((node, True))
            stack.extend((p, False) for p in reversed(node.parents) if p not in visited)
    return order


def backward(root: Value) -> list[Value]:
    """Reverse mode: root.grad is seeded with 1 and every contribution is added (+=).

    Leaves accumulate across calls, as in PyTorch; values computed by ops hold this pass's
    gradient. Returns the topological order it used.
    """
    order = topological_order(root)
    for node in order:
        if node.op is not None:
            node.grad = 0.0
    root.grad += 1.0
    for node in reversed(order):
        g = node.grad
        for parent, local in zip(node.parents, node.locals, strict=True):
            parent.grad += local * g
    if not all(math.isfinite(node.grad) for node in order):
        raise _undefined_gradient(order)
    return order


def _undefined_gradient(order: list[Value]) -> GradstepError:
    """Name the first contribution, in backward order, that was not a finite number."""
    for node in reversed(order):
        for i, (parent, local) in enumerate(zip(node.parents, node.locals, strict=True)):
            if math.isfinite(node.grad) and not math.isfinite(local * node.grad):
                assert node.op is not None
                operands = ", ".join(
                    f"{name} = {p.data:.6g}" for name, p in zip("ab", node.parents, strict=False)
                )
                if not math.isfinite(local):
                    why = f"{node.op.rules[i]} has no finite value at {operands}"
                    return GradstepError(f"the gradient is undefined: {why}", kind="domain")
                return GradstepError(
                    f"the gradient overflows at {node.op.name} ({operands}) "
                    f"while adding to operand {i + 1}: {local:.6g} · {node.grad:.6g}",
                    kind="overflow",
                )
    raise AssertionError("no non-finite contribution found")  # pragma: no cover
