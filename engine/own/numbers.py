"""The numbers of a learner's engine's trace: every node's number as their forward computed it,
the gradient their code left and the true one, each write of their pass, the colour buckets,
and the findings with their sentences (engine.notation.own)."""

from __future__ import annotations

import math
import re

from engine.notation import own as words
from engine.own import Study
from engine.trace.numbers import grad_bin
from engine.trace.data import Check, Finding, Numbers, Structure
from engine.trace.structure import Built

_NUMBER = re.compile(r"\{(\w+)\}")


def numbers(s: Study, built: Built, names: list[str]) -> Numbers:
    g, walk, truth = s.graph, s.walk, s.truth
    writes = [w for st in walk.steps for w in st.writes]
    scale = max((abs(x) for x in (*g.grad, *(t for t in truth.grad if t is not None))),
                default=0.0)  # fmt: skip
    true = [math.nan if t is None else t for t in truth.grad]
    arrays: dict[str, list[float]] = {
        "data": list(g.data),
        "grad": list(g.grad),
        "true": true,
        "start": list(walk.start),
        "sbin": [grad_bin(x, scale) for x in walk.start],
        "before": [w.before for w in writes],
        "after": [w.after for w in writes],
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
        findings=tuple(_finding(s, built.structure, names, f) for f in s.findings),
    )


def _errors(theirs: float, true: float | None) -> tuple[float | None, float | None]:
    if true is None:
        return None, None
    error = abs(theirs - true)
    scale = max(abs(theirs), abs(true))
    return error, error / scale if scale else 0.0


def _finding(s: Study, structure: Structure, names: list[str], f: object) -> Finding:
    """A finding as the API sends it: where (the step of the walk, the span) and its sentence,
    its numbers in order."""
    g = s.graph
    node, user = f.node, f.user  # type: ignore[attr-defined]
    users = [i for i, ps in enumerate(g.parents) if node in ps]
    uses = structure.nodes[node].uses.removeprefix("used ")
    rule = ""
    if user is not None and g.ops[user].name and structure.nodes[user].formula:
        rule = ""  # the rule in names: written by the structure's rows where the step shows it
    template = words.finding_text(f.kind, names[node], names[user] if user is not None else "",  # type: ignore[attr-defined]
                                  uses or f"by {', '.join(names[u] for u in users)}", rule)  # fmt: skip
    values = {
        "got": f.got, "expected": f.expected, "local": f.local, "upstream": f.upstream,  # type: ignore[attr-defined]
        "true_upstream": f.true_upstream, "before": s.walk.start[node],  # type: ignore[attr-defined]
        "added": f.got - _before(s, f), "share": f.local * f.true_upstream,  # type: ignore[attr-defined]
    }  # fmt: skip
    parts: list[str | int] = []
    numbers: list[float] = []
    last = 0
    for m in _NUMBER.finditer(template):
        parts.append(template[last : m.start()])
        parts.append(len(numbers))
        numbers.append(values[m[1]])
        last = m.end()
    parts.append(template[last:])
    forward = sum(1 for st in structure.steps if st.phase == "forward")
    step = None if f.step is None else forward + f.step  # type: ignore[attr-defined]
    return Finding(node, f.kind, step, f.span, tuple(p for p in parts if p != ""), tuple(numbers))  # type: ignore[attr-defined]


def _before(s: Study, f: object) -> float:
    """What the gradient held before the write that made it wrong."""
    if f.step is None or f.write is None:  # type: ignore[attr-defined]
        return 0.0
    return s.walk.steps[f.step].writes[f.write].before  # type: ignore[attr-defined]
