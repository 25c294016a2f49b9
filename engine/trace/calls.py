"""The calls of a program (a Neuron's ``__call__``, ``MLP(...)``), as the trace describes them
for folding: each call's values are one run of ids (creation order), so folded, a call is one
box and one run of steps; stepped over, its run is one step, explained here."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.language import Call, Program
from engine.notation import Part, Parts, joined
from engine.trace.data import BackwardStep, CallInfo, Edge, Node
from engine.value import Value

MAX_LISTED_OUTPUTS = 4  # a folded box lists this many of its values; more are counted


def innermost_calls(program: Program, ids: dict[Value, int]) -> list[int | None]:
    """Each node's innermost call (None: made at the program's top level)."""
    innermost: list[int | None] = [None] * len(ids)
    for value, call in program.call_of.items():
        if value in ids:
            innermost[ids[value]] = call
    return innermost


def call_infos(
    program: Program,
    nodes: Sequence[Node],
    edges: Sequence[Edge],
    backward: Sequence[BackwardStep],
) -> tuple[CallInfo, ...]:
    """Every call that made a traced value."""
    innermost = [n.call for n in nodes]
    parents = {c.id: c.parent for c in program.calls}
    members: dict[int, list[int]] = {}
    for node, innermost_call in enumerate(innermost):
        while innermost_call is not None:
            members.setdefault(innermost_call, []).append(node)
            innermost_call = parents[innermost_call]
    made = [c for c in program.calls if c.id in members]
    titles = _titles(made, program.source.splitlines())
    output = next(n.id for n in nodes if n.kind == "output")
    infos = []
    for call in made:
        first, last = members[call.id][0], members[call.id][-1]
        used_outside = {e.source for e in edges if first <= e.source <= last and
                        not first <= e.target <= last}  # fmt: skip
        outputs = tuple(sorted(used_outside | ({output} & set(range(first, last + 1)))))
        inputs = tuple(sorted({e.source for e in edges if first <= e.target <= last and
                               not first <= e.source <= last}))  # fmt: skip
        infos.append(
            CallInfo(
                id=call.id,
                parent=call.parent if call.parent in members else None,
                title=titles[call.id],
                span=call.span,
                first=first,
                last=last,
                outputs=outputs,
                inputs=inputs,
                forward=_forward(titles[call.id], [nodes[o] for o in outputs]),
                backward=_backward(titles[call.id], first, last, nodes, backward),
            )
        )
    return tuple(infos)


def _titles(calls: list[Call], lines: list[str]) -> dict[int, str]:
    """``MLP(3, [4, 4, 1])`` for a call written once; ``Neuron 3`` for the third of several
    among the calls made by the same caller."""
    siblings = Counter((c.parent, c.name) for c in calls)
    seen: Counter[tuple[int | None, str]] = Counter()
    titles = {}
    for c in calls:
        seen[(c.parent, c.name)] += 1
        if siblings[(c.parent, c.name)] == 1:
            text = lines[c.span.line - 1][c.span.column - 1 : c.span.end_column - 1]
            titles[c.id] = text if 0 < len(text) <= 24 else c.name
        else:
            titles[c.id] = f"{c.name} {seen[(c.parent, c.name)]}"
    return titles


def _forward(title: str, outputs: list[Node]) -> Parts:
    """``Neuron 3: out = 0.7612``: what a folded call computed, as one forward step."""
    parts: list[Part] = [f"{title}: "]
    if len(outputs) > MAX_LISTED_OUTPUTS:
        return (f"{title}: {len(outputs)} values computed",)
    for k, out in enumerate(outputs):
        parts += [", " if k else "", f"{out.name} = ", out.data]
    return joined(parts)


def _backward(
    title: str, first: int, last: int, nodes: Sequence[Node], steps: Sequence[BackwardStep]
) -> tuple[Parts, ...]:
    """``w[0].grad += 0.0123 (through Neuron 3)``, one line for each value outside the call
    that its backward steps send gradient to: the sum of those contributions, and the grad
    before and after."""
    totals: dict[int, list[float]] = {}  # operand → [sum, before, after]
    for step in steps:
        if step.seed or not first <= step.node <= last:
            continue
        for c in step.contributions:
            if first <= c.operand <= last:
                continue
            entry = totals.setdefault(c.operand, [0.0, c.grad_before, c.grad_after])
            entry[0] += c.contribution
            entry[2] = c.grad_after
    return tuple(
        (f"{nodes[o].grad_name} += ", total, f" (through {title}),   {nodes[o].grad_name}: ",
         before, " → ", after)
        for o, (total, before, after) in totals.items()
    )  # fmt: skip
