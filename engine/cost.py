"""Counting elementary operations, to check the cheap gradient principle on a real graph."""

from __future__ import annotations

from dataclasses import dataclass

from engine.graph import topological_order
from engine.value import Value


@dataclass(frozen=True, slots=True)
class OpCounts:
    forward: int  # one per op applied
    backward: int  # per operand: evaluate the local derivative, multiply by upstream, add

    @property
    def ratio(self) -> float:
        """Backward cost over forward cost; Griewank bounds it by a small constant (about 5)."""
        return self.backward / self.forward if self.forward else 0.0


def count_ops(root: Value) -> OpCounts:
    forward = backward = 0
    for node in topological_order(root):
        if node.op is not None:
            forward += 1
            backward += sum(cost + 2 for cost in node.op.partial_costs)
    return OpCounts(forward, backward)
