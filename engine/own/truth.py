"""The true gradient of a learner's graph, found without their backward: each node's local
derivatives from gradstep's op table, where their op string names an op it knows and their
forward computed what that op computes; otherwise by central differences through their own
forward (the program run again with one parent's number nudged either way). Then the chain
rule, from the output back, in reverse creation order."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from engine.errors import GradstepError
from engine.limits import MAX_TRUTH_RUNS
from engine.program import Graph
from engine.runner import Exhausted

Rerun = Callable[[int, float], tuple[float, ...]]  # (node, nudge) -> every node's data


Positions = tuple[tuple[int, float], ...]  # (parent, ∂node/∂parent) per operand position


@dataclass(frozen=True, slots=True)
class Truth:
    locals: tuple[Positions, ...]  # per node: its operands' positions; a + a has two, even when
    # a set of parents keeps one a
    grad: tuple[float | None, ...]  # d output / d node; None where it could not be found
    known: tuple[bool, ...]  # whether the op table gave the node's local derivatives
    numeric: tuple[str, ...]  # for a node gradstep could not follow: why ("" otherwise)


def truth(graph: Graph, rerun: Rerun) -> Truth:
    n = len(graph.parents)
    locals_: list[Positions] = [()] * n
    known = [True] * n
    why = [""] * n
    for i, parents in enumerate(graph.parents):
        if not parents:
            continue
        found = _from_table(graph, i)
        if found is None:
            known[i] = False
            why[i] = _why(graph, i)
        else:
            locals_[i] = found
    _numerically(graph, [i for i in range(n) if not known[i]], locals_, rerun)
    grad: list[float | None] = [0.0] * n
    grad[n - 1] = 1.0  # the output is made last: every node it depends on was made before it
    for i in reversed(range(n)):
        g = grad[i]
        if graph.parents[i] and not locals_[i]:
            g = None  # its local derivatives are unknown: so are its parents' gradients
        for p, d in locals_[i] or ((p, math.nan) for p in graph.parents[i]):
            if g is None or grad[p] is None or not math.isfinite(d):
                grad[p] = None
            else:
                grad[p] = grad[p] + d * g  # type: ignore[operator]
    return Truth(tuple(locals_), tuple(grad), tuple(known), tuple(why))


def _from_table(graph: Graph, i: int) -> Positions | None:
    """The local derivatives of node i by the op its op string names, per distinct parent
    (an operand used twice, ``a + a`` with a set of parents, gets both of its derivatives),
    or None when the op is unknown or does not compute what their forward computed."""
    parents = graph.parents[i]
    found = _by_op(graph, i, parents)
    if found is None and len(parents) == 2:  # a set of parents keeps them in no set order:
        found = _by_op(graph, i, parents[::-1])  # x - y may have them as (y, x)
    return found


def _by_op(graph: Graph, i: int, parents: tuple[int, ...]) -> Positions | None:
    op = graph.ops[i]
    if op is None or op.op is None:
        return None
    table = op.op
    xs = [graph.data[p] for p in parents]
    if op.exponent is not None:
        xs.append(op.exponent)
    if len(xs) < table.arity and len(parents) == 1:
        xs = xs * table.arity  # a set of parents keeps one of a + a
    if len(xs) != table.arity:
        return None
    try:
        out, ds = table.eval(*xs)
    except (GradstepError, OverflowError, ValueError, ZeroDivisionError):
        return None
    if not math.isclose(out, graph.data[i], rel_tol=1e-9, abs_tol=1e-12):
        return None  # their forward computes something else than the op its string names
    if op.exponent is not None:
        return ((parents[0], ds[0]),)
    operands = parents * table.arity if len(parents) == 1 else parents
    return tuple(zip(operands, ds, strict=True))


def _why(graph: Graph, i: int) -> str:
    op = graph.ops[i]
    assert op is not None
    if op.op is None:
        return f"gradstep does not know the op {op.text!r}"
    return f"the op {op.text!r} did not compute what {op.op.name} computes"


def _numerically(graph: Graph, nodes: list[int], locals_: list[Positions], rerun: Rerun) -> None:
    """∂node/∂parent by central differences through their own forward, while MAX_TRUTH_RUNS
    allows. A run with parent q's number moved by ±h just after q is made gives the total
    derivative D(x, q) of every later node x (one pair of runs per parent serves every node that
    uses it). The partials of a node u with parents q₁ < … < qₖ (in creation order) follow from
    D(u, qᵢ) = Σⱼ ∂u/∂qⱼ · D(qⱼ, qᵢ), where D(qⱼ, qᵢ) is 0 for j < i (made before qᵢ): from the
    last parent back."""
    wanted = sorted({p for i in nodes for p in graph.parents[i]})
    total: dict[int, tuple[float, ...]] = {}  # q -> D(x, q) for every node x
    for q in wanted[: MAX_TRUTH_RUNS // 2]:
        h = 1e-6 * max(1.0, abs(graph.data[q]))
        try:
            up, down = rerun(q, h), rerun(q, -h)
        except Exhausted:  # the request's work is spent: every later run would be too
            break
        except GradstepError:
            continue
        total[q] = tuple((a - b) / (2 * h) for a, b in zip(up, down, strict=True))
    for i in nodes:
        qs = sorted(set(graph.parents[i]))
        partial: dict[int, float] = {}
        for k in reversed(range(len(qs))):
            q = qs[k]
            if q not in total or any(r not in total for r in qs[k + 1 :]):
                partial[q] = math.nan
                continue
            later = sum(partial[r] * total[q][r] for r in qs[k + 1 :])
            partial[q] = total[q][i] - later
        times = {q: graph.parents[i].count(q) for q in qs}  # a parent kept twice: half each
        locals_[i] = tuple((q, partial[q] / times[q]) for q in graph.parents[i])
