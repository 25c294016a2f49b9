"""A learner's own engine in the trace: the same structure and numbers as gradstep's engine gives
(so every renderer draws and steps it the same), with ``engine = "program"``. Forward: a step
per node their code computed. Backward: their pass as they ran it (the seed, each call of a
node's kept function, each statement outside one), a row per ``.grad`` write with the line that
made it and what a correct pass would hold there beside it. The numbers add the true gradients
and the findings (engine.own)."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from engine import notation
from engine.notation import Relation
from engine.notation import own as words
from engine.notation.lines import Parts
from engine.own import Study
from engine.own.backward import Step as OwnStep
from engine.own.findings import Finding as Found
from engine.program import Program
from engine.trace import titles
from engine.trace.data import (
    Cell,
    Change,
    Check,
    Finding,
    GradState,
    Input,
    Node,
    Numbers,
    Row,
    Step,
    Structure,
)
from engine.trace.numbers import grad_bin
from engine.trace.outline import Outline
from engine.trace.slots import Slots
from engine.trace.structure import Built
from engine.trace.walk import Walk

_NUMBER = re.compile(r"\{(\w+|=)\}")
NO_PASS = (
    "no backward pass ran on this graph: its gradients are shown as your engine left them, "
    "beside the true ones"
)
_NO_REFS = notation.LineRefs(("", 0), ("", 0), ("", 0), ("", 0), ("", 0))  # rule text only


def build(program: Program, shape: Outline, s: Study) -> Built:
    g, names = shape.graph, shape.names
    slots = Slots()
    made_in = shape.made_in
    lines = program.source.splitlines()
    computed = [i for i in range(len(g.parents)) if g.parents[i]]
    at = {i: k for k, i in enumerate(computed)}
    users: dict[int, list[tuple[int, str]]] = {}  # once per operand position: a + a twice
    for i, ps in enumerate(g.parents):
        for p in [p for p, _ in s.truth.locals[i]] or ps:
            users.setdefault(p, []).append((i, names(i)))
    nodes = tuple(
        Node(
            i,
            names(i),
            notation.grad_of(names(i)),
            n.kind,
            n.op,
            n.symbol,
            g.spans[i],
            _formula(shape, i),
            at.get(i, -1),
            n.call,
            f"used {notation.uses_text(users[i])}" if i in users else "",
            slots.line(
                (
                    f"{notation.grad_of(names(i))}: theirs ",
                    ("grad", i, "n"),
                    ", true ",
                    ("true", i, "n"),
                )
            ),
        )
        for i, n in enumerate(shape.nodes)
    )
    start = tuple(
        Change(i, data=None if g.parents[i] else slots("data", i), grad="pending")
        for i in range(len(g.parents))
    )
    forward = [
        Step(
            "forward",
            i,
            titles.step_title("forward", k, k, len(computed), made_in.inside(i)),
            ((Cell("formula", slots.line(_forward_text(shape, i))),),),
            tuple((i, p) for p in range(len(g.parents[i]))),
            False,
            (Change(i, data=slots("data", i)),),
        )
        for k, i in enumerate(computed)
    ]
    backward = _backward(shape, s, lines, slots)
    inputs = tuple(
        Input(i, names(i), g.inputs.get(names(i)) == i, True)
        for i in range(len(g.parents))
        if not g.parents[i] and not g.constant[i]
    )
    empty = Walk((), (), {}, {})
    structure = Structure(
        engine="program",
        engine_class=g.engine_class,
        output=g.output,
        nodes=nodes,
        edges=shape.edges,
        calls=made_in.infos(shape.calls, nodes, empty, len(forward), slots, []),
        start=start,
        steps=(*forward, *backward),
        slots="".join(slots.kinds),
        inputs=inputs,
        notes=program.notes if s.walk.steps else (*program.notes, NO_PASS),
    )
    return Built(structure, empty, tuple(slots.recipes), (), ())


def _formula(shape: Outline, i: int) -> str:
    g, names = shape.graph, shape.names
    if not g.parents[i]:
        return ""
    op = g.ops[i]
    if op is not None and op.op is not None:
        return notation.formula(names.result(i))
    operands = ", ".join(names(p) for p in g.parents[i])
    return f"{names(i)} = {(op.text if op else '') or 'op'}({operands})"


def _forward_text(shape: Outline, i: int) -> Parts:
    op = shape.graph.ops[i]
    if op is not None and op.op is not None:
        return notation.forward_text(shape.names.result(i))
    return (f"{_formula(shape, i)} = ", ("data", i, "n"))


def flat_offsets(steps: Sequence[OwnStep]) -> list[int]:
    """Where each step's writes begin among all the pass's writes."""
    offsets, total = [], 0
    for st in steps:
        offsets.append(total)
        total += len(st.writes)
    return offsets


def _backward(shape: Outline, s: Study, lines: list[str], slots: Slots) -> list[Step]:
    """Their pass: every node shows what its gradient held when the pass began (their engine's
    state, stale or 0), then each step's writes; a node's last write makes it final."""
    g, names, walk = shape.graph, shape.names, s.walk
    last: dict[int, tuple[int, int]] = {}
    for j, st in enumerate(walk.steps):
        for k, w in enumerate(st.writes):
            last[w.node] = (j, k)
    count = len(walk.steps)
    offsets = flat_offsets(walk.steps)
    steps = []
    for j, st in enumerate(walk.steps):
        rows: list[Row] = []
        changes: list[Change] = []
        if j == 0:  # what each gradient holds as the pass begins
            changes += [
                Change(i, grad="partial" if i in last else "final", value=slots("start", i),
                       bin=slots("sbin", i, "w"))
                for i in range(len(g.parents))
            ]  # fmt: skip
        for k, w in enumerate(st.writes):
            at = offsets[j] + k  # the write's index among all the pass's writes
            true = ("expected", at) if s.expected[at] is not None else None
            grad = notation.grad_of(names(w.node))
            write = words.write_text(grad, ("before", at), ("after", at), true)
            code = words.code_text(w.span.line, lines[w.span.line - 1])
            rows.append((Cell("write", slots.line(write)), Cell("code", slots.line(code))))
            state: GradState = "final" if last[w.node] == (j, k) else "partial"
            changes.append(
                Change(w.node, grad=state, value=slots("after", at), bin=slots("bin", at, "w"))
            )
        if not st.writes:
            rows.append((Cell("note", slots.line(words.silent_note(names(st.node), st.attr))),))
        where = st.function_span or (st.writes[0].span if st.writes else None)
        line = f"line {where.line}" if where else ""
        if st.kind == "direct" and where:
            line = f"line {where.line}: {lines[where.line - 1].strip()}"
        about = words.step_title(st.kind, names(st.node), st.attr, line)
        title = titles.step_title("backward", j, j, count, about)
        edges = (
            tuple((st.node, k) for k in range(len(g.parents[st.node]))) if st.kind == "call" else ()
        )
        steps.append(Step("backward", st.node, title, tuple(rows), edges, True, tuple(changes)))
    return steps


def numbers(shape: Outline, built: Built, s: Study) -> Numbers:
    g, walk, truth = shape.graph, s.walk, s.truth
    writes = [w for st in walk.steps for w in st.writes]
    known = [t for t in truth.grad if t is not None]
    scale = max((abs(x) for x in (*g.grad, *known)), default=0.0)
    arrays: dict[str, list[float]] = {
        "data": list(g.data),
        "grad": list(g.grad),
        "true": [math.nan if t is None else t for t in truth.grad],
        "start": list(walk.start),
        "sbin": [grad_bin(x, scale) for x in walk.start],
        "before": [w.before for w in writes],
        "after": [w.after for w in writes],
        "expected": [math.nan if x is None else x for x in s.expected],
        "bin": [grad_bin(w.after, scale) for w in writes],
    }
    slots = tuple(arrays[a][i] for a, i in built.recipes)
    checks = tuple(
        Check(truth.grad[i.node], *_errors(g.grad[i.node], truth.grad[i.node]))
        for i in built.structure.inputs
    )
    return Numbers(
        data=g.data,
        grad=g.grad,
        bin=tuple(grad_bin(x, scale) for x in g.grad),
        slots=slots,
        checks=checks,
        true_grad=truth.grad,
        findings=tuple(_finding(shape, s, built.structure, f) for f in s.findings),
    )


def _errors(theirs: float, true: float | None) -> tuple[float | None, float | None]:
    if true is None:
        return None, None
    error = abs(theirs - true)
    scale = max(abs(theirs), abs(true))
    return error, error / scale if scale else 0.0


def _finding(shape: Outline, s: Study, structure: Structure, f: Found) -> Finding:
    """A finding as the API sends it: where (the step of the walk, the span) and its sentence,
    with its numbers in the order the sentence reads them."""
    g, names = shape.graph, shape.names
    node, user = f.node, f.user
    uses = structure.nodes[node].uses.removeprefix("used ")
    rule = ""
    op = g.ops[user] if user is not None else None
    if user is not None and f.position is not None and op is not None and op.op is not None:
        text = notation.contribution_text(names.result(user), f.position, _NO_REFS)
        rule = notation.text_of(text.rule)
    about = names(user) if user is not None else ""
    step = s.walk.steps[f.step] if f.step is not None else None
    attr = step.attr if step is not None and step.kind == "call" else "_backward"
    silent = 0
    if f.kind == "missing" and step is not None and not step.writes and step.function_span:
        silent = step.function_span.line
    output = names(g.output)
    template = words.finding_text(f.kind, names(node), about, uses, rule, output, attr, silent)
    before = (
        s.walk.steps[f.step].writes[f.write].before
        if f.write is not None and f.step is not None
        else s.walk.start[node]
    )
    values = {
        "got": f.got,
        "expected": f.expected,
        "local": f.local,
        "upstream": f.upstream,
        "true_upstream": f.true_upstream,
        "before": before,
        "added": f.got - before,
        "share": f.local * f.true_upstream,
        "product": f.local * f.upstream,
    }
    parts: list[str | int | Relation] = []
    figures: list[float] = []
    last = 0
    for m in _NUMBER.finditer(template):
        parts.append(template[last : m.start()])
        last = m.end()
        if m[1] == "=":  # the product of the two numbers before it, and the one after it
            n = len(figures)
            parts.append(Relation("mul", (n - 2, n - 1), n))
            continue
        parts.append(len(figures))
        figures.append(values[m[1]])
    parts.append(template[last:])
    forward = sum(1 for st in structure.steps if st.phase == "forward")
    at = None if f.step is None else forward + f.step
    line = tuple(p for p in parts if p != "")
    return Finding(node, f.kind, at, f.span, line, tuple(figures), f.cause)
