"""What each way costs, in the op table's elementary operations: the forward pass F (one per
op, as engine.cost counts it), the backward pass B (per operand that takes a gradient: the local
derivative's operations, a product and a sum; engine.cost counts a constant's share too, which
no backward pass needs: the stepper says it takes no gradient), a tangent pass (the values and
their tangents together: F + B, the same work per operand as the backward pass), 2n forward
passes of central differences, and the symbolic derivatives' operations written out.
Griewank's cheap gradient principle: B ≤ 5·F."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cost import count_ops
from engine.graph import topological_order
from engine.ways.replay import Replayed

CHEAP_GRADIENT_BOUND = 5  # Griewank (2000): a backward pass costs at most about 5 forward passes


@dataclass(frozen=True, slots=True)
class Costs:
    inputs: int  # n
    forward: int  # F
    backward: int  # B
    tangent_pass: int  # F + B
    forward_mode: int  # n tangent passes
    reverse_mode: int  # F + B: one forward and one backward pass, for every input at once
    numerical: int  # 2n forward passes
    symbolic: int | None  # the derivatives' operations written out (None: not built)

    @property
    def ratio(self) -> float:
        """B / F, which the cheap gradient principle bounds by CHEAP_GRADIENT_BOUND."""
        return self.backward / self.forward if self.forward else 0.0

    @property
    def cheap(self) -> bool:
        return self.ratio <= CHEAP_GRADIENT_BOUND


def counted(r: Replayed, symbolic: int | None) -> Costs:
    f, n = count_ops(r.root).forward, len(r.inputs)
    b = sum(
        cost + 2
        for v in topological_order(r.root) if v.op is not None
        for p, cost in zip(v.parents, v.op.partial_costs, strict=True) if not p.constant
    )  # fmt: skip
    return Costs(n, f, b, f + b, n * (f + b), f + b, 2 * n * f, symbolic)
