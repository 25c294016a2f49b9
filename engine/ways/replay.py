"""A program's traced graph rebuilt as gradstep's values, so that every way of differentiating
reads one graph: the op table's own arithmetic (``engine.value.apply``), forward mode
(``engine.forward_mode``), the operation counts (``engine.cost``) and central differences
(``engine.gradcheck.Nudges``) run on it as they run on a graph built in Python.

A graph of gradstep's values is rebuilt as it was. A learner's own engine is replayed through
the op table where their op strings name ops gradstep knows and their forward computed what
those ops compute, in the operand order the true gradients found (engine.own.truth); one op it
cannot follow and the graph is not rebuilt: ``Replayed.missing`` says which and why.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from engine.notation import Operand, Result, constant_name
from engine.program import Program
from engine.trace.outline import Outline
from engine.value import Value, apply, constant


@dataclass(frozen=True, slots=True)
class Replayed:
    """The rebuilt values in creation order (``values[k]``), each one's node id in the trace
    (None: an exponent their op string wrote, ``**2``, made a constant here), and what the
    notation needs of each result. ``inputs`` are the positions of the leaves that take a
    gradient, ``symbols`` their names as expressions write them (unique: a name that several
    leaves share is told apart by ``₍1₎``, ``₍2₎``, in their order)."""

    values: tuple[Value, ...]
    nodes: tuple[int | None, ...]
    names: tuple[str, ...]
    results: dict[int, Result]  # by position: each op's result as the notation writes it
    inputs: tuple[int, ...]
    symbols: tuple[str, ...]
    where: tuple[str, ...]  # per input, the calls it was made in when its name is shared

    @property
    def root(self) -> Value:
        return self.values[-1]


@dataclass(frozen=True, slots=True)
class Missing:
    """Why a learner's graph is not replayed: the node it could not follow."""

    node: int
    why: str


def rebuild(program: Program, shape: Outline) -> Replayed | Missing:
    """``program``'s graph (outlined as ``shape``) as gradstep's values, or what stops it."""
    g, order = shape.graph, shape.order
    truth = shape.study.truth if shape.study is not None else None
    values: list[Value] = []
    nodes: list[int | None] = []
    names: list[str] = []
    results: dict[int, Result] = {}
    at: dict[int, int] = {}  # graph index -> position
    for k, i in enumerate(order):
        name = shape.nodes[k].name
        op = g.ops[i]
        if op is None:
            v = constant(g.data[i]) if g.constant[i] else Value(g.data[i], label=name)
        else:
            if op.op is None or (truth is not None and not truth.known[i]):
                why = truth.numeric[i] if truth is not None else f"the op {op.text!r}"
                return Missing(k, why or f"gradstep does not know the op {op.text!r}")
            parents = g.parents[i] if truth is None else tuple(p for p, _ in truth.locals[i])
            if len(parents) < op.op.arity and op.exponent is None:
                parents = parents * op.op.arity  # a set of parents keeps one a of a + a
            operands = [values[at[p]] for p in parents]
            marks = ("⁽¹⁾", "⁽²⁾") if len(parents) == 2 and parents[0] == parents[1] else ("", "")
            described = [
                Operand(names[at[p]], ("data", at[p]), marks[n],
                        g.data[p] if values[at[p]].constant else None)
                for n, p in enumerate(parents)
            ]  # fmt: skip
            if op.exponent is not None:  # their **2: the exponent is part of the op's text
                operands.append(constant(op.exponent))
                described.append(Operand(constant_name(op.exponent), ("data", len(values)),
                                         "", op.exponent))  # fmt: skip
                values.append(operands[-1])
                nodes.append(None)
                names.append(constant_name(op.exponent))
            v = apply(op.op, tuple(operands))
            results[len(values)] = Result(name, ("data", len(values)), op.op, tuple(described))
        at[i] = len(values)
        values.append(v)
        nodes.append(k)
        names.append(name)
    inputs = tuple(k for k, v in enumerate(values) if v.op is None and not v.constant)
    shared = Counter(names[k] for k in inputs)
    seen: Counter[str] = Counter()
    symbols = []
    for k in inputs:
        seen[names[k]] += 1
        mark = f"₍{seen[names[k]]}₎".translate(_SUBSCRIPTS) if shared[names[k]] > 1 else ""
        symbols.append(names[k] + mark)
    where = tuple(shape.made_in.where.get(nodes[k], "") for k in inputs)  # type: ignore[arg-type]
    return Replayed(tuple(values), tuple(nodes), tuple(names), results, inputs, tuple(symbols),
                    where)  # fmt: skip


_SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
