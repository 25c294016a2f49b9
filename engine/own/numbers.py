"""The numbers of a learner's engine's trace: every node's number as their forward computed it,
the gradient their code left and the true one, each write of their pass, the colour buckets,
and the findings with their sentences (engine.notation.own)."""

from __future__ import annotations

import math
import re

from engine import notation
from engine.notation import Relation
from engine.notation import own as words
from engine.own import Study
from engine.own.findings import Finding as Found
from engine.own.outline import flat_offsets, result_of
from engine.trace.data import Check, Finding, Numbers, Structure
from engine.trace.numbers import grad_bin
from engine.trace.structure import Built

_NUMBER = re.compile(r"\{(\w+|=)\}")


def numbers(s: Study, built: Built, names: list[str]) -> Numbers:
    g, walk, truth = s.graph, s.walk, s.truth
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
    assert len(flat_offsets(walk.steps)) == len(walk.steps)
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
        findings=tuple(_finding(s, built.structure, names, f) for f in s.findings),
    )


def _errors(theirs: float, true: float | None) -> tuple[float | None, float | None]:
    if true is None:
        return None, None
    error = abs(theirs - true)
    scale = max(abs(theirs), abs(true))
    return error, error / scale if scale else 0.0


def _finding(s: Study, structure: Structure, names: list[str], f: Found) -> Finding:
    """A finding as the API sends it: where (the step of the walk, the span) and its sentence,
    with its numbers in the order the sentence reads them."""
    g = s.graph
    node, user = f.node, f.user
    uses = structure.nodes[node].uses.removeprefix("used ")
    rule = ""
    if user is not None and f.position is not None and g.ops[user].name:
        r = result_of(s, names, user, names[user])
        text = notation.contribution_text(r, f.position, _NO_REFS)
        rule = notation.text_of(text.rule)
    about = names[user] if user is not None else ""
    step = s.walk.steps[f.step] if f.step is not None else None
    attr = step.attr if step is not None and step.kind == "call" else "_backward"
    silent = 0
    if f.kind == "missing" and step is not None and not step.writes and step.function_span:
        silent = step.function_span.line
    output = names[structure.output]
    template = words.finding_text(f.kind, names[node], about, uses, rule, output, attr, silent)
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


_NO_REFS = notation.LineRefs(("", 0), ("", 0), ("", 0), ("", 0), ("", 0))  # rule text only
