"""Forward mode: push tangents (the ε parts of dual numbers a + bε) through a built graph."""

from __future__ import annotations

import math
from collections.abc import Mapping

from engine.errors import GradstepError
from engine.graph import topological_order
from engine.value import Value


def tangents(root: Value, seeds: Mapping[Value, float]) -> dict[Value, float]:
    """d(node)/d(seed direction) for every node, given a tangent for some inputs (others 0).

    One pass gives the derivative along one direction: seeding a single input with 1 gives
    ∂root/∂input, the same number reverse mode gives, at the cost of one pass per input.
    """
    dot: dict[Value, float] = {}
    for node in topological_order(root):
        if node.op is None:
            dot[node] = float(seeds.get(node, 0.0))
            continue
        t = sum(local * dot[p] for p, local in zip(node.parents, node.locals, strict=True))
        if not math.isfinite(t):
            raise GradstepError(
                f"the tangent of {node.op.name} is undefined at "
                + ", ".join(f"{p.data:.6g}" for p in node.parents),
                kind="domain",
            )
        dot[node] = t
    return dot


def derivative(root: Value, wrt: Value) -> float:
    """∂root/∂wrt by one forward-mode pass."""
    return tangents(root, {wrt: 1.0})[root]
