"""The trace: everything the stepper replays, as plain data (DESIGN.md, "The trace is the
contract"). The API serialises it as it is.

Node ids are 0..n-1 in creation order, so the same program structure gets the same ids
whatever its input values. Every name, formula and explanation comes from ``engine.notation``;
every step state from the fields here (``engine.steps`` reads them): no renderer derives either.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from engine import notation
from engine.errors import GradstepError, Span
from engine.gradcheck import check_graph
from engine.graph import topological_order
from engine.language import Program
from engine.limits import MAX_CHECK_EVALUATIONS
from engine.notation import Operand, Parts, Result, Use
from engine.steps import grad_bin
from engine.value import Value

Kind = Literal["input", "constant", "intermediate", "output"]


@dataclass(frozen=True, slots=True)
class Node:
    id: int
    name: str  # printed on the node and used in every explanation: "x1", "c₁", "a·b", "#12"
    grad_name: str  # how its grad is written: "x1.grad", "(a·b).grad"
    kind: Kind
    op: str | None  # op name from the op table ("mul"), None for inputs and constants
    symbol: str | None  # how the op node is drawn ("*")
    data: float
    grad: float | None  # final grad; None for constants, which take no gradient
    span: Span | None  # the source text that made this node
    topo: int  # place in topological order
    formula: str  # "o = tanh(n)"; "" for inputs and constants
    computed_at: int  # the forward step that computes it; -1: known from the start
    grad_from: int  # the backward step of its first gradient; -1: it takes none (a constant)
    grad_final: int  # the backward step from which its grad is final; -1 for constants
    bin: int  # colour bucket of its final grad, -3..3 (engine.steps.grad_bin)
    grad_sum: Parts  # the inspector: its grad as a sum over its uses
    uses: str  # "used twice by b", "used by e and c"; "" when nothing uses it


@dataclass(frozen=True, slots=True)
class Edge:
    source: int  # operand node id
    target: int  # result node id
    position: int  # which operand (0 or 1): `a + a` has two edges from a


@dataclass(frozen=True, slots=True)
class ForwardStep:
    node: int  # the op node computed at this step (inputs and constants are known up front)
    text: Parts  # c = a + b = (−4.0000) + 2.0000 = −2.0000


@dataclass(frozen=True, slots=True)
class Contribution:
    operand: int  # node id receiving gradient
    position: int
    local: float  # ∂(this step's node)/∂operand
    upstream: float  # the grad of this step's node
    contribution: float  # local · upstream
    grad_before: float
    grad_after: float  # grad_before + contribution: accumulation is visible
    bin: int  # colour bucket of grad_after
    sum: Parts  # n.grad += ∂o/∂n · o.grad
    rule: Parts  # ∂o/∂n = (1 − o²)
    value: Parts  # = (1 − 0.7071²) = 0.5000
    product: Parts  # = 0.5000 × 1.0000 = 0.5000
    change: Parts  # n.grad: 0.0000 → 0.5000
    note: str  # "accumulates (a is used twice by b)", or ""


@dataclass(frozen=True, slots=True)
class BackwardStep:
    node: int  # step 0: the output, seeded with grad 1; then one op node per step
    seed: bool
    contributions: tuple[Contribution, ...]  # one per operand that takes gradient
    notes: tuple[Parts, ...]  # the seed's line; "the constant 2 takes no gradient"


@dataclass(frozen=True, slots=True)
class InputCheck:
    node: int
    name: str
    grad: float  # autograd
    numeric: float | None  # central difference; None when a nudge leaves the domain
    abs_error: float | None
    rel_error: float | None
    skipped: bool  # True: not checked, the graph is too large (MAX_CHECK_EVALUATIONS)


@dataclass(frozen=True, slots=True)
class Trace:
    output: int
    nodes: tuple[Node, ...]
    edges: tuple[Edge, ...]
    forward: tuple[ForwardStep, ...]
    backward: tuple[BackwardStep, ...]
    inputs: tuple[InputCheck, ...]  # the numerical check of every input


def trace(program: Program) -> Trace:
    """Both passes over ``program``'s graph as steps; runs ``backward()`` on the graph."""
    root = program.output
    order = topological_order(root)
    ids = {v: i for i, v in enumerate(sorted(order, key=_serial))}
    names = _Names(program, ids, order)
    results = {v: names.result(v) for v in order if v.op is not None}
    walk = _Backward(order, root, ids, names, results, program)
    checks = _input_checks(order, root, ids, names)  # runs backward(): the grads below are its
    forward_at = {v: i for i, v in enumerate(v for v in order if v.op is not None)}
    topo = {v: i for i, v in enumerate(order)}
    scale = max((abs(v.grad) for v in order if not v.constant), default=0.0)
    nodes = tuple(
        Node(
            id=ids[v],
            name=names(v),
            grad_name=notation.grad_of(names(v)),
            kind=_kind(v, root),
            op=v.op.name if v.op else None,
            symbol=v.op.symbol if v.op else None,
            data=v.data,
            grad=None if v.constant else v.grad,
            span=program.spans.get(v),
            topo=topo[v],
            formula=notation.formula(results[v]) if v in results else "",
            computed_at=forward_at.get(v, -1),
            grad_from=walk.first.get(v, -1),
            grad_final=walk.last.get(v, -1),
            bin=0 if v.constant else grad_bin(v.grad, scale),
            grad_sum=walk.grad_sum(v),
            uses=walk.uses_of(v),
        )
        for v in sorted(order, key=ids.__getitem__)
    )
    edges = tuple(
        Edge(ids[p], ids[v], i)
        for v in sorted(order, key=ids.__getitem__)
        for i, p in enumerate(v.parents)
    )
    forward = tuple(ForwardStep(ids[v], notation.forward_text(r)) for v, r in results.items())
    return Trace(ids[root], nodes, edges, forward, walk.steps(scale), checks)


def trace_value(root: Value) -> Trace:
    """The trace of a graph built in Python (a notebook, a test): every value ``root`` depends
    on, named by its label; the leaves that have labels are its inputs."""
    order = topological_order(root)
    inputs = {v.label: v for v in order if v.op is None and not v.constant and v.label}
    empty = Program(
        "", root, inputs, spans={}, labels={}, calls=(), call_of={}, updates=(), notes=()
    )
    return trace(empty)


def _serial(v: Value) -> int:
    return v.serial


def _kind(v: Value, root: Value) -> Kind:
    if v is root:
        return "output"
    if v.constant:
        return "constant"
    return "input" if v.op is None else "intermediate"


class _Names:
    """Each value's one name: the user's (a label, or the name it was assigned to), a constant's
    number, else one made from its op and its operands' names (``notation.made_name``): not
    from the source text, which says ``c`` where the graph, after ``c += 1``, has ``c₁``."""

    def __init__(self, program: Program, ids: dict[Value, int], order: list[Value]) -> None:
        self.names: dict[Value, str] = {}
        for v in order:  # operands first: a made name is written in its operands' names
            user = v.label or program.labels.get(v)
            if user:
                self.names[v] = user
            elif v.constant:
                self.names[v] = notation.constant_name(v.data)
            elif v.op is None:
                self.names[v] = f"#{ids[v]}"
            else:
                self.names[v] = notation.made_name(notation.expression(self._result(v, "")), ids[v])

    def __call__(self, v: Value) -> str:
        return self.names[v]

    def result(self, v: Value) -> Result:
        return self._result(v, self.names[v])

    def _result(self, v: Value, name: str) -> Result:
        assert v.op is not None
        twice = len(v.parents) == 2 and v.parents[0] is v.parents[1]
        markers = notation.position_markers(2) if twice else ("", "")
        operands = tuple(
            Operand(self(p), p.data, markers[i], p.constant) for i, p in enumerate(v.parents)
        )
        return Result(name, v.data, v.op, operands)


@dataclass(slots=True)
class _Line:
    step: int
    node: Value
    operand: Value
    position: int
    local: float
    upstream: float
    before: float
    after: float
    text: notation.ContributionText
    note: str


class _Backward:
    """Exactly what ``graph.backward`` does (seed, then ``grad += local · upstream`` in reverse
    topological order), recorded contribution by contribution, with its explanation."""

    def __init__(
        self,
        order: list[Value],
        root: Value,
        ids: dict[Value, int],
        names: _Names,
        results: dict[Value, Result],
        program: Program,
    ) -> None:
        self.ids = ids
        self.names = names
        self.results = results
        self.root = root
        computed = [v for v in reversed(order) if v.op is not None]
        self.users: dict[Value, list[str]] = {}
        for v in computed:
            for p in v.parents:
                if not p.constant:
                    self.users.setdefault(p, []).append(names(v))
        grad = dict.fromkeys(order, 0.0)
        grad[root] = 1.0
        self.first = {root: 0}
        self.last = {root: 0}
        self.lines: list[_Line] = []
        self.by_operand: dict[Value, list[_Line]] = {}
        self.constants: dict[int, list[Parts]] = {}
        received: dict[Value, int] = {}
        for step, v in enumerate(computed, start=1):
            assert v.op is not None
            upstream = grad[v]
            for i, (p, local) in enumerate(zip(v.parents, v.locals, strict=True)):
                if p.constant:
                    self.constants.setdefault(step, []).append(notation.constant_note(names(p)))
                    continue
                contribution = local * upstream
                before = grad[p]
                grad[p] = after = before + contribution
                if not (math.isfinite(contribution) and math.isfinite(after)):
                    raise _undefined(v, i, local, upstream).at(program.spans.get(v))
                received[p] = received.get(p, 0) + 1
                self.first.setdefault(p, step)
                self.last[p] = step
                text = notation.contribution_text(results[v], i, local, upstream, before, after)
                note = ""
                if received[p] > 1:
                    note = notation.accumulates_note(names(p), self.users[p])
                line = _Line(step, v, p, i, local, upstream, before, after, text, note)
                self.lines.append(line)
                self.by_operand.setdefault(p, []).append(line)
        self.count = len(computed)

    def steps(self, scale: float) -> tuple[BackwardStep, ...]:
        by_step: list[list[Contribution]] = [[] for _ in range(self.count + 1)]
        nodes = [self.root] * (self.count + 1)
        for line in self.lines:
            nodes[line.step] = line.node
            by_step[line.step].append(
                Contribution(
                    operand=self.ids[line.operand],
                    position=line.position,
                    local=line.local,
                    upstream=line.upstream,
                    contribution=line.local * line.upstream,
                    grad_before=line.before,
                    grad_after=line.after,
                    bin=grad_bin(line.after, scale),
                    sum=line.text.sum,
                    rule=line.text.rule,
                    value=line.text.value,
                    product=line.text.product,
                    change=line.text.change,
                    note=line.note,
                )
            )
        seed_text = notation.seed_text(self.names(self.root))
        steps = [BackwardStep(self.ids[self.root], True, (), (seed_text,))]
        for s in range(1, self.count + 1):
            notes = tuple(self.constants.get(s, ()))
            steps.append(BackwardStep(self.ids[nodes[s]], False, tuple(by_step[s]), notes))
        return tuple(steps)

    def uses_of(self, v: Value) -> str:
        users = self.users.get(v)
        return f"used {notation.uses_text(users)}" if users else ""

    def grad_sum(self, v: Value) -> Parts:
        name = self.names(v)
        if v.constant:
            return notation.constant_note(name)
        if v is self.root:
            return notation.output_sum(name)
        uses = [
            Use(
                self.names(line.node),
                notation.partial(self.results[line.node], line.position),
                line.local * line.upstream,
            )
            for line in self.by_operand.get(v, ())
        ]
        return notation.grad_sum(name, uses, v.grad)


def _undefined(v: Value, i: int, local: float, upstream: float) -> GradstepError:
    assert v.op is not None
    operands = ", ".join(f"{n} = {p.data:.6g}" for n, p in zip("ab", v.parents, strict=False))
    if not math.isfinite(local):
        why = f"{v.op.rule(i)} has no finite value at {operands}"
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
        InputCheck(ids[v], names(v), r.autograd, r.numeric, r.abs_error, r.rel_error, False)
        for v, r in zip(checked, rows, strict=True)
    ]
    result += [
        InputCheck(ids[v], names(v), v.grad, None, None, None, True) for v in inputs[affordable:]
    ]
    return tuple(result)
