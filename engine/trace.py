"""The trace: everything the stepper replays, as plain data (see DESIGN.md, "The trace is the
contract"). The API serialises it as it is, with ``dataclasses.asdict``.

Node ids are 0..n-1 in creation order, so the same program structure gets the same ids
whatever its input values.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from engine.cost import count_ops
from engine.errors import GradstepError, Span
from engine.gradcheck import check_graph
from engine.graph import topological_order
from engine.language import Program
from engine.language.source_text import LINE_BREAK
from engine.limits import MAX_CHECK_EVALUATIONS
from engine.value import Value

Kind = Literal["input", "constant", "intermediate", "output"]


@dataclass(frozen=True, slots=True)
class Node:
    id: int
    label: str | None  # the name it was assigned to ("c", "c₁" when rebound), or None
    kind: Kind
    op: str | None  # op name from the op table ("mul"), None for inputs and constants
    symbol: str | None  # how the op node is drawn ("*")
    data: float
    grad: float | None  # final grad; None for constants, which take no gradient
    span: Span | None  # the source text that made this node
    topo: int  # place in topological order


@dataclass(frozen=True, slots=True)
class Edge:
    source: int  # operand node id
    target: int  # result node id
    position: int  # which operand (0 or 1): `a + a` has two edges from a


@dataclass(frozen=True, slots=True)
class ForwardStep:
    node: int  # the op node computed at this step (inputs and constants are known up front)
    operands: tuple[float, ...]
    result: float
    text: str  # "c = a * b = (−4.0000) * (2.0000) = −8.0000" style, at full precision


@dataclass(frozen=True, slots=True)
class Contribution:
    operand: int  # node id receiving gradient
    position: int
    rule: str  # from the op table: "∂(a·b)/∂a = b"
    local_expr: str  # the local derivative in the operands' labels: "b"
    local: float  # its value
    upstream: float  # ∂L/∂(this step's node)
    contribution: float  # local · upstream
    grad_before: float
    grad_after: float  # grad_before + contribution: accumulation is visible


@dataclass(frozen=True, slots=True)
class BackwardStep:
    node: int  # step 0: the output, seeded with grad 1; then one op node per step
    seed: bool
    contributions: tuple[Contribution, ...]


@dataclass(frozen=True, slots=True)
class InputCheck:
    node: int
    label: str
    grad: float  # autograd
    numeric: float | None  # central difference; None when a nudge leaves the domain
    abs_error: float | None
    rel_error: float | None
    skipped: bool = False  # True: not checked, the graph is too large (MAX_CHECK_EVALUATIONS)


@dataclass(frozen=True, slots=True)
class Counts:
    forward: int
    backward: int
    ratio: float


@dataclass(frozen=True, slots=True)
class Trace:
    output: int
    nodes: tuple[Node, ...]
    edges: tuple[Edge, ...]
    forward: tuple[ForwardStep, ...]
    backward: tuple[BackwardStep, ...]
    inputs: tuple[InputCheck, ...]  # the numerical check of every input
    counts: Counts


def trace(program: Program) -> Trace:
    """Both passes over ``program``'s graph as steps; runs ``backward()`` on the graph."""
    root = program.output
    order = topological_order(root)
    ids = {v: i for i, v in enumerate(sorted(order, key=_serial))}
    names = _Names(program)
    backward = _backward_steps(order, root, ids, names, program)
    checks = _input_checks(order, root, ids, names)  # runs backward(): the grads below are its
    topo = {v: i for i, v in enumerate(order)}
    nodes = tuple(_node(v, ids[v], topo[v], root, program) for v in _by_id(order, ids))
    edges = tuple(
        Edge(ids[p], ids[v], i) for v in _by_id(order, ids) for i, p in enumerate(v.parents)
    )
    forward = tuple(_forward_step(v, ids[v], names) for v in order if v.op is not None)
    counts = count_ops(root)
    return Trace(
        output=ids[root],
        nodes=nodes,
        edges=edges,
        forward=forward,
        backward=backward,
        inputs=checks,
        counts=Counts(counts.forward, counts.backward, counts.ratio),
    )


def _serial(v: Value) -> int:
    return v.serial


def _by_id(order: list[Value], ids: dict[Value, int]) -> list[Value]:
    return sorted(order, key=ids.__getitem__)


def _kind(v: Value, root: Value) -> Kind:
    if v is root:
        return "output"
    if v.constant:
        return "constant"
    return "input" if v.op is None else "intermediate"


def _node(v: Value, id_: int, topo: int, root: Value, program: Program) -> Node:
    return Node(
        id=id_,
        label=v.label,
        kind=_kind(v, root),
        op=v.op.name if v.op else None,
        symbol=v.op.symbol if v.op else None,
        data=v.data,
        grad=None if v.constant else v.grad,
        span=program.spans.get(v),
        topo=topo,
    )


class _Names:
    """How a value is written inside a formula: its name, its number, or its source text."""

    def __init__(self, program: Program) -> None:
        self.labels = program.labels
        self.spans = program.spans
        self.lines = LINE_BREAK.split(program.source)

    def __call__(self, v: Value) -> str:
        if v.label:
            return v.label
        if v.constant:
            return f"{v.data:.6g}".replace("-", "−")
        text = self.labels.get(v) or self._source(v) or _full(v.data)
        return f"({text})" if _has_loose_operator(text) else text

    def _source(self, v: Value) -> str:
        """An unnamed value's source text (program.labels holds only the user's names)."""
        span = self.spans.get(v)
        if span is None or span.line > len(self.lines):
            return ""
        text = self.lines[span.line - 1][span.column - 1 : span.end_column - 1].strip()
        return text if len(text) <= 24 else text[:23] + "…"


def _has_loose_operator(text: str) -> bool:
    """True for `a * b` (it needs parentheses inside a formula), false for `tanh(a * b)`."""
    depth = 0
    for i, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and ch in "+-*/−" and i > 0:  # a leading minus belongs to a number
            return True
    return False


def _full(x: float) -> str:
    """A number at full precision, with a true minus sign."""
    text = repr(x)
    return "−" + text[1:] if text.startswith("-") else text


def _operand_number(x: float) -> str:
    return f"({_full(x)})" if x < 0 else _full(x)


def _forward_step(v: Value, id_: int, names: _Names) -> ForwardStep:
    assert v.op is not None
    operands = tuple(p.data for p in v.parents)
    symbolic = v.op.expr.format(**dict(zip("ab", map(names, v.parents), strict=False)))
    numeric = v.op.expr.format(**dict(zip("ab", map(_operand_number, operands), strict=False)))
    lead = f"{v.label} = " if v.label else ""
    return ForwardStep(id_, operands, v.data, f"{lead}{symbolic} = {numeric} = {_full(v.data)}")


def _backward_steps(
    order: list[Value], root: Value, ids: dict[Value, int], names: _Names, program: Program
) -> tuple[BackwardStep, ...]:
    """Exactly what ``graph.backward`` does (seed, then ``grad += local · upstream`` in reverse
    topological order), recorded contribution by contribution."""
    grad = dict.fromkeys(order, 0.0)
    grad[root] = 1.0
    steps = [BackwardStep(ids[root], True, ())]
    for v in reversed(order):
        if v.op is None:
            continue
        upstream = grad[v]
        slots = {"a": "", "b": "", "out": names(v)}
        slots.update(zip("ab", map(names, v.parents), strict=False))
        contributions = []
        for i, (p, local) in enumerate(zip(v.parents, v.locals, strict=True)):
            if p.constant:
                continue
            contribution = local * upstream
            if not math.isfinite(contribution):
                raise _undefined(v, i, local, upstream).at(program.spans.get(v))
            before = grad[p]
            grad[p] = after = before + contribution
            if not math.isfinite(after):
                raise _undefined(v, i, local, upstream).at(program.spans.get(v))
            contributions.append(
                Contribution(
                    operand=ids[p],
                    position=i,
                    rule=v.op.rules[i],
                    local_expr=v.op.local_exprs[i].format(**slots),
                    local=local,
                    upstream=upstream,
                    contribution=contribution,
                    grad_before=before,
                    grad_after=after,
                )
            )
        steps.append(BackwardStep(ids[v], False, tuple(contributions)))
    return tuple(steps)


def _undefined(v: Value, i: int, local: float, upstream: float) -> GradstepError:
    assert v.op is not None
    operands = ", ".join(f"{n} = {p.data:.6g}" for n, p in zip("ab", v.parents, strict=False))
    if not math.isfinite(local):
        why = f"{v.op.rules[i]} has no finite value at {operands}"
        return GradstepError(f"the gradient is undefined: {why}", kind="domain")
    return GradstepError(
        f"the gradient overflows at {v.op.name} ({operands}): {local:.6g} · {upstream:.6g}",
        kind="overflow",
    )


def _input_checks(
    order: list[Value], root: Value, ids: dict[Value, int], names: _Names
) -> tuple[InputCheck, ...]:
    """Central differences for as many inputs as MAX_CHECK_EVALUATIONS allows: each input costs
    three re-evaluations of every op in the graph."""
    inputs = [v for v in order if v.op is None and not v.constant]
    ops = sum(1 for v in order if v.op is not None)
    affordable = MAX_CHECK_EVALUATIONS // max(3 * ops, 1)
    checked = inputs[:affordable]
    rows = check_graph(root, checked)  # zero grads, backward(), then the nudges
    result = [
        InputCheck(ids[v], names(v), r.autograd, r.numeric, r.abs_error, r.rel_error)
        for v, r in zip(checked, rows, strict=True)
    ]
    result += [
        InputCheck(ids[v], names(v), v.grad, None, None, None, skipped=True)
        for v in inputs[affordable:]
    ]
    return tuple(result)
