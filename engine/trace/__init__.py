"""The trace: everything the stepper replays, as plain data (DESIGN.md, "The trace is the
contract"). The API serialises it as it is.

Node ids are 0..n-1 in creation order, so the same program structure gets the same ids
whatever its input values. Every name, formula and explanation comes from ``engine.notation``;
every step state from the fields of ``engine.trace.data`` (``engine.steps`` reads them): no
renderer derives either.
"""

from __future__ import annotations

from engine import notation
from engine.gradcheck import check_graph
from engine.graph import topological_order
from engine.language import Program
from engine.limits import MAX_CHECK_EVALUATIONS
from engine.steps import grad_bin
from engine.trace import titles
from engine.trace.backward import BackwardWalk
from engine.trace.data import (
    BackwardStep,
    CallInfo,
    Contribution,
    Edge,
    ForwardStep,
    InputCheck,
    Kind,
    Node,
    Trace,
    Update,
)
from engine.trace.names import Names
from engine.trace.outline import Drawable, Outline, outline
from engine.value import Value

__all__ = [
    "BackwardStep",
    "CallInfo",
    "Contribution",
    "Drawable",
    "Edge",
    "ForwardStep",
    "InputCheck",
    "Kind",
    "Node",
    "Outline",
    "Trace",
    "Update",
    "outline",
    "trace",
    "trace_value",
]


def trace(program: Program, outlined: Outline | None = None) -> Trace:
    """Both passes over ``program``'s graph as steps; runs ``backward()`` on the graph.
    ``outlined``: its outline, when made already (``outline(program)``)."""
    shape = outlined or outline(program)
    root, order, ids, names = program.output, shape.order, shape.ids, shape.names
    results = {v: names.result(v) for v in order if v.op is not None}
    walk = BackwardWalk(order, root, ids, names, results, program)
    checks = _input_checks(order, root, ids, names, program)  # runs backward(): grads below
    forward_at = {v: i for i, v in enumerate(v for v in order if v.op is not None)}
    scale = max((abs(v.grad) for v in order if not v.constant), default=0.0)
    nodes = tuple(
        Node(
            id=n.id,
            name=n.name,
            grad_name=notation.grad_of(n.name),
            kind=n.kind,
            op=n.op,
            symbol=n.symbol,
            data=v.data,
            grad=None if v.constant else v.grad,
            span=program.spans.get(v),
            formula=notation.formula(results[v]) if v in results else "",
            computed_at=forward_at.get(v, -1),
            grad_from=walk.first.get(v, -1),
            grad_final=walk.last.get(v, -1),
            bin=0 if v.constant else grad_bin(v.grad, scale),
            grad_sum=walk.grad_sum(v),
            uses=walk.uses_of(v),
            call=n.call,
        )
        for v, n in zip(order, shape.nodes, strict=True)
    )
    calls = shape.made_in
    count = len(results)
    forward = tuple(
        ForwardStep(ids[v], notation.forward_text(r),
                    titles.step_title("forward", i, i, count, calls.inside(ids[v])))
        for i, (v, r) in enumerate(results.items())
    )  # fmt: skip

    def backward_title(step: int, node: int) -> str:
        what = nodes[node].formula or nodes[node].name
        return titles.step_title("backward", step, step, count + 1, what, calls.inside(node))

    backward = walk.steps(scale, backward_title)
    kept = [u for u in program.updates if u.value in ids]
    updates = tuple(Update(ids[u.value], u.before, u.after) for u in kept)
    changed = [(nodes[ids[u.value]].name, calls.where.get(ids[u.value], ""), u.before, u.after,
                u.span) for u in kept]  # fmt: skip
    update_title, update_text = titles.update_text(program.source, changed)
    return Trace(ids[root], nodes, shape.edges, forward, backward, checks,
                 calls.infos(shape.calls, nodes, forward, backward), updates, update_title,
                 update_text, program.notes)  # fmt: skip


def trace_value(root: Value) -> Trace:
    """The trace of a graph built in Python (a notebook, a test): every value ``root`` depends
    on, named by its label; the leaves that have labels are its inputs."""
    order = topological_order(root)
    inputs = {v.label: v for v in order if v.op is None and not v.constant and v.label}
    empty = Program(
        "", root, inputs, spans={}, labels={}, calls=(), call_of={}, updates=(), notes=()
    )
    return trace(empty)


def _input_checks(
    order: list[Value], root: Value, ids: dict[Value, int], names: Names, program: Program
) -> tuple[InputCheck, ...]:
    """Central differences for as many inputs as MAX_CHECK_EVALUATIONS allows: each input costs
    three re-evaluations of every op in the graph."""
    inputs = [v for v in order if v.op is None and not v.constant]
    ops = sum(1 for v in order if v.op is not None)
    affordable = MAX_CHECK_EVALUATIONS // max(3 * ops, 1)
    checked = inputs[:affordable]
    rows = check_graph(root, checked)  # zero grads, backward(), then the nudges

    def settable(v: Value) -> bool:  # a top-level name that a request's values can set
        return program.inputs.get(names(v)) is v

    result = [
        InputCheck(
            ids[v], names(v), r.autograd, r.numeric, r.abs_error, r.rel_error, False, settable(v)
        )
        for v, r in zip(checked, rows, strict=True)
    ]
    result += [
        InputCheck(ids[v], names(v), v.grad, None, None, None, True, settable(v))
        for v in inputs[affordable:]
    ]
    return tuple(result)
