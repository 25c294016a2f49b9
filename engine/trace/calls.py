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
) -> tuple[tuple[CallInfo, ...], dict[int, str]]:
    """Every call that made a traced value, and where the nodes whose names others share were
    made (``Neuron 3, Layer 1``), so that a line about them can say which one it means."""
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
    where = _where(nodes, titles, parents)
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
                backward=_backward(titles[call.id], first, last, nodes, backward, where),
            )
        )
    return tuple(infos), where


def _titles(calls: list[Call], lines: list[str]) -> dict[int, str]:
    """``MLP(3, [4, 4, 1])`` for a call written once; ``Neuron 3`` for the third of several
    among the calls made by the same caller."""

    def text(c: Call) -> str:
        return lines[c.span.line - 1][c.span.column - 1 : c.span.end_column - 1]

    written = Counter((c.parent, text(c)) for c in calls)
    repeated = Counter((c.parent, c.name) for c in calls if written[(c.parent, text(c))] > 1)
    seen: Counter[tuple[int | None, str]] = Counter()
    titles = {}
    for c in calls:
        if written[(c.parent, text(c))] == 1 and 0 < len(text(c)) <= 24:
            titles[c.id] = text(c)  # written once: MLP(3, [4, 4, 1])
        elif repeated[(c.parent, c.name)] > 1:
            seen[(c.parent, c.name)] += 1
            titles[c.id] = f"{c.name} {seen[(c.parent, c.name)]}"  # n(x) in a loop: MLP 2
        else:
            titles[c.id] = c.name
    return titles


def _where(
    nodes: Sequence[Node], titles: dict[int, str], parents: dict[int, int | None]
) -> dict[int, str]:
    """For a node whose name others share (``w[2]`` in every neuron): the calls it was made in,
    innermost first, two deep: ``Neuron 3, Layer 1``."""
    shared = Counter(n.name for n in nodes)
    where = {}
    for n in nodes:
        if shared[n.name] > 1 and n.call is not None:
            chain: list[str] = []
            call: int | None = n.call
            while call is not None and len(chain) < 2:
                if call in titles:
                    chain.append(titles[call])
                call = parents[call]
            where[n.id] = ", ".join(chain)
    return where


def _forward(title: str, outputs: list[Node]) -> Parts:
    """``Neuron 3: out = 0.7612``: what a folded call computed, as one forward step."""
    parts: list[Part] = [f"{title}: "]
    if len(outputs) > MAX_LISTED_OUTPUTS:
        return (f"{title}: {len(outputs)} values computed",)
    for k, out in enumerate(outputs):
        parts += [", " if k else "", f"{out.name} = ", out.data]
    return joined(parts)


def _backward(
    title: str,
    first: int,
    last: int,
    nodes: Sequence[Node],
    steps: Sequence[BackwardStep],
    where: dict[int, str],
) -> tuple[Parts, ...]:
    """``w[0].grad += 0.0123 (w[0] of Neuron 3, Layer 1)``, one line for each value outside
    the call that its backward steps send gradient to: the sum of those contributions, and the
    grad before and after."""
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
    del title  # every line is through this call: the step's title says which
    return tuple(
        (f"{nodes[o].grad_name} += ", total,
         f" ({nodes[o].name} of {where[o]})" if o in where else "",
         f",   {nodes[o].grad_name}: ", before, " → ", after)
        for o, (total, before, after) in sorted(totals.items())
    )  # fmt: skip
