"""Graphs recorded once from the engine and replayed without building them again: what makes
the training lab fast (``engine.lab.replay`` uses them).

``Tape``: a model's graph for one point, replayed with numpy on a whole batch of points at once.
``engine.nn``'s MLP branches on no number (relu's kink is a value of the relu op, not a choice
between graphs), so ``model(x)`` has the same graph for every point x and every step. Its ops
are grouped by kind and depth (the ops of a group are no operands of each other), and a replay
runs each group as one numpy call with an array per value and an element per point; the
backward pass runs the groups in reverse and adds each contribution as ``engine.graph.backward``
does, in its order: in an MLP all the ops that use a value are in one group, ordered as the
engine reaches them. So each point's numbers are the engine's own, bit for bit, but for numpy's
tanh, which can differ from the C library's in the last digit.

``FloatTape``: any graph (a loss), replayed on plain floats op by op through the op table.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from engine import nn
from engine.graph import topological_order
from engine.value import Value

Array = Any  # a numpy array
VectorOp = Callable[..., tuple[Array, tuple[Array, ...]]]
Overflow = Literal["raise", "ignore"]  # what a number too large for a float does in a replay


def _add(a: Array, b: Array) -> tuple[Array, tuple[Array, ...]]:
    return a + b, (1.0, 1.0)


def _mul(a: Array, b: Array) -> tuple[Array, tuple[Array, ...]]:
    return a * b, (b, a)


def _relu(a: Array) -> tuple[Array, tuple[Array, ...]]:
    on = a > 0.0
    return np.where(on, a, 0.0), (np.where(on, 1.0, 0.0),)


def _tanh(a: Array) -> tuple[Array, tuple[Array, ...]]:
    t = np.tanh(a)
    return t, (1.0 - t * t,)


def _sigmoid(a: Array) -> tuple[Array, tuple[Array, ...]]:
    e = np.exp(-np.abs(a))  # exp(−a) for a >= 0, exp(a) below: as the op table, never overflows
    s = np.where(a >= 0.0, 1.0 / (1.0 + e), e / (1.0 + e))
    return s, (s * (1.0 - s),)


# The op table's arithmetic (engine/ops.py), on arrays, for the ops engine.nn builds a model
# from: the sums of its neurons and every activation in nn.ACTIVATIONS.
VECTOR_OPS: dict[str, VectorOp] = {
    "add": _add,
    "mul": _mul,
    "relu": _relu,
    "tanh": _tanh,
    "sigmoid": _sigmoid,
}


@dataclass(frozen=True, slots=True)
class Group:
    """The ops of one kind at one depth of the graph (none of them an operand of another), run
    as one numpy call: each array below has an entry per op, in the engine's backward order."""

    op: VectorOp
    slots: Array  # where their results go on the tape
    operands: tuple[Array, ...]  # per operand position, the slots the operands come from
    # the contributions to add in the backward pass, per operand position that takes any:
    # (position, rounds of (ops, their operands' slots)), no slot twice in a round
    sends: tuple[tuple[int, tuple[tuple[Array, Array], ...]], ...]


@dataclass(frozen=True, slots=True)
class Run:
    """One replay: every value on the tape (a row per value, a column per point) and each
    group's local derivatives, for the backward pass."""

    values: Array
    locals: list[tuple[Array, ...]]

    def outputs(self, tape: Tape) -> Array:
        """Each output's row: an element per point."""
        return self.values[tape.outputs]


@dataclass(frozen=True, slots=True)
class Tape:
    """``model(x)``'s graph, recorded from the engine with the point's coordinates as inputs."""

    params: list[Value]  # the model's parameters: the tape reads their data at every replay
    groups: list[Group]  # by depth, from the inputs to the outputs
    size: int  # values on the tape
    inputs: Array  # the slots of the point's coordinates
    param_slots: Array
    outputs: Array
    constant_slots: Array  # plain numbers
    constants: Array  # and their values

    def forward(self, points: Array, on_overflow: Overflow = "raise") -> Run:
        """Every value of the graph for each of ``points`` (one row per point), at the model's
        current parameters. A number too large for a float raises ``FloatingPointError``, or
        with ``on_overflow="ignore"`` goes on as inf or NaN."""
        points = np.asarray(points, dtype=float)
        values = np.empty((self.size, len(points)))
        values[self.inputs] = points.T
        values[self.param_slots] = np.array([[p.data] for p in self.params])
        values[self.constant_slots] = self.constants[:, None]
        local = []
        with np.errstate(over=on_overflow, invalid=on_overflow, divide=on_overflow):
            for group in self.groups:
                out, derivatives = group.op(*[values[s] for s in group.operands])
                values[group.slots] = out
                local.append(derivatives)
        return Run(values, local)

    def backward(self, run: Run, output_grads: Array) -> None:
        """Add each point's contribution to every parameter's grad, given each output's grad
        per point: last point first, as the engine's backward reaches them."""
        grads = np.zeros_like(run.values)
        grads[self.outputs] = output_grads
        with np.errstate(over="raise", invalid="raise", divide="raise"):
            for group, derivatives in zip(reversed(self.groups), reversed(run.locals), strict=True):
                g = grads[group.slots]
                for i, rounds in group.sends:
                    contributions = derivatives[i] * g
                    for ops, slots in rounds:
                        grads[slots] += contributions[ops]
            start = np.array([[p.grad] for p in self.params])
            # a running sum from the last point to the first (not numpy's pairwise sum)
            total = np.cumsum(np.hstack([start, grads[self.param_slots, ::-1]]), axis=1)
        for p, grad in zip(self.params, total[:, -1].tolist(), strict=True):
            p.grad = grad


def record(model: nn.MLP) -> Tape:
    """Record ``model``'s graph for one point, its ops grouped by kind and depth."""
    inputs = [Value(0.0) for _ in model.layers[0].neurons[0].w]
    out = model(inputs)
    outputs = out if isinstance(out, list) else [out]
    order: list[Value] = []
    seen: set[Value] = set()
    for root in outputs:  # the outputs in order, as a loss walks them
        for v in topological_order(root):
            if v not in seen:
                seen.add(v)
                order.append(v)
    slot = {v: i for i, v in enumerate(order)}
    params = model.parameters()
    takes_grad = {v for v in order if v.op is not None} | set(params)
    depth: dict[Value, int] = {}
    kinds: dict[tuple[int, str], list[Value]] = {}
    for v in order:
        depth[v] = 1 + max((depth[p] for p in v.parents), default=-1)
        if v.op is not None:
            kinds.setdefault((depth[v], v.op.name), []).append(v)
    groups = []
    for (_, name), ops in sorted(kinds.items(), key=lambda item: item[0][0]):
        ops.reverse()  # the engine's backward order: a slot's contributions add up in its order
        operands = tuple(
            np.array([slot[v.parents[i]] for v in ops]) for i in range(len(ops[0].parents))
        )
        sends = []
        for i in range(len(operands)):
            used = [
                (k, slot[v.parents[i]]) for k, v in enumerate(ops) if v.parents[i] in takes_grad
            ]
            if used:
                sends.append((i, tuple((np.array(k), np.array(t)) for k, t in _rounds(used))))
        groups.append(
            Group(VECTOR_OPS[name], np.array([slot[v] for v in ops]), operands, tuple(sends))
        )
    constants = [v for v in order if v.constant]
    return Tape(
        params=params,
        groups=groups,
        size=len(order),
        inputs=np.array([slot[x] for x in inputs]),
        param_slots=np.array([slot[p] for p in params]),
        outputs=np.array([slot[v] for v in outputs]),
        constant_slots=np.array([slot[v] for v in constants], dtype=int),
        constants=np.array([v.data for v in constants]),
    )


def _rounds(sends: list[tuple[int, int]]) -> list[tuple[list[int], list[int]]]:
    """(op, slot) pairs split into rounds in which every slot appears once, keeping each slot's
    pairs in order: a slot used by several ops takes their contributions one after another."""
    rounds: list[tuple[list[int], list[int]]] = []
    taken: dict[int, int] = {}
    for op, target in sends:
        r = taken.get(target, 0)
        taken[target] = r + 1
        if r == len(rounds):
            rounds.append(([], []))
        rounds[r][0].append(op)
        rounds[r][1].append(target)
    return rounds


class FloatTape:
    """A graph recorded from the engine and replayed on plain floats, op by op through the op
    table: for a loss, thousands of values in chains of sums that numpy could not run side by
    side. Given new numbers for its leaves, it runs both passes as ``engine.graph.backward``
    does: the same operations on the same numbers, in the same order."""

    def __init__(self, root: Value, leaves: Sequence[Value]) -> None:
        order = topological_order(root)
        slot = {v: i for i, v in enumerate(order)}
        self.root = slot[root]
        self.data = [v.data for v in order]  # the constants keep theirs
        self.leaves = [slot.get(v, -1) for v in leaves]  # -1: not in the graph
        self.steps = [
            (
                slot[v],
                v.op.eval,
                [slot[p] for p in v.parents],
                [i for i, p in enumerate(v.parents) if not p.constant],
            )
            for v in order
            if v.op is not None
        ]

    def run(self, leaves: Sequence[float]) -> tuple[float, list[float]]:
        """The root's value and its gradient in each leaf (0 for one not in the graph). A
        number too large for a float raises an ``ArithmeticError``."""
        values = self.data.copy()
        for s, x in zip(self.leaves, leaves, strict=True):
            if s >= 0:
                values[s] = x
        local = []
        for s, op, operands, _ in self.steps:
            values[s], derivatives = op(*[values[p] for p in operands])
            local.append(derivatives)
        grads = [0.0] * len(values)
        grads[self.root] = 1.0
        for (s, _, operands, sends), derivatives in zip(
            reversed(self.steps), reversed(local), strict=True
        ):
            g = grads[s]
            for i in sends:
                grads[operands[i]] += derivatives[i] * g
        if not (all(map(math.isfinite, values)) and all(map(math.isfinite, grads))):
            raise FloatingPointError("a number too large for a float")
        return values[self.root], [grads[s] if s >= 0 else 0.0 for s in self.leaves]
