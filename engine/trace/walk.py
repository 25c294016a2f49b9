"""The backward pass's shape: which op sends which operand its gradient, in the order
``graph.backward`` does it (seed the output, then every op in reverse creation order), without
a number. The structure writes a line for each; the numbers compute each one's values."""

from __future__ import annotations

from dataclasses import dataclass

from engine.program import Graph


@dataclass(frozen=True, slots=True)
class WalkLine:
    step: int  # the backward step it belongs to (1..: step 0 is the seed)
    node: int  # the op whose step it is
    operand: int  # the value that receives gradient
    position: int  # which operand of the op (0 or 1)


@dataclass(frozen=True, slots=True)
class Walk:
    step_nodes: tuple[int, ...]  # each backward step's node; step 0: the output
    lines: tuple[WalkLine, ...]
    constants: dict[int, tuple[int, ...]]  # step → the constants among its operands
    users: dict[int, tuple[int, ...]]  # value → the ops that use it, once per use, in walk order


def walk_of_nothing() -> Walk:
    return Walk((), (), {}, {})


def walk(graph: Graph, order: list[int], ids: list[int]) -> Walk:
    """The walk of ``graph`` (``order``: each node id's graph index; ``ids``: back)."""
    step_nodes = [ids[graph.output]]
    lines: list[WalkLine] = []
    constants: dict[int, tuple[int, ...]] = {}
    users: dict[int, list[int]] = {}
    for node in reversed(range(len(order))):
        i = order[node]
        if not graph.parents[i]:
            continue
        step = len(step_nodes)
        step_nodes.append(node)
        for position, p in enumerate(graph.parents[i]):
            operand = ids[p]
            if graph.constant[p]:
                constants[step] = (*constants.get(step, ()), operand)
                continue
            lines.append(WalkLine(step, node, operand, position))
            users.setdefault(operand, []).append(node)
    return Walk(tuple(step_nodes), tuple(lines), constants, {k: tuple(v) for k, v in users.items()})
