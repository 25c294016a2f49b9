"""The calls of a program (a Neuron's ``__call__``, ``MLP(...)``), as the trace describes them
for folding: each call's values are one run of ids (creation order), so folded, a call is one
box and one run of steps; stepped over, its run is one step, explained here."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.notation import Num, Parts, becomes
from engine.program import Call
from engine.trace import titles
from engine.trace.data import CallInfo, CallOutline, Edge, Node, NodeOutline
from engine.trace.slots import Slots
from engine.trace.walk import Walk

MAX_LISTED_OUTPUTS = 4  # a folded box lists this many of its values; more are counted
MAX_CALL_TEXT = 16  # a call run again is titled by its text (n(x) #2) up to this length


class Calls:
    """The calls that made traced values: their titles, where each node was made (for step
    titles and for names that others share), their outlines, and the ``CallInfo`` of each."""

    def __init__(
        self,
        calls: Sequence[Call],
        source: str,
        nodes: Sequence[NodeOutline],
        edges: Sequence[Edge] = (),
    ) -> None:
        self.parents = {c.id: c.parent for c in calls}
        self.members: dict[int, list[int]] = {}
        for n in nodes:
            call = n.call
            while call is not None:
                self.members.setdefault(call, []).append(n.id)
                call = self.parents[call]
        self.made = [c for c in calls if c.id in self.members]
        self.nodes = nodes
        self.titles = _titles(self.made, source.splitlines(), self._parameters(edges))
        self.where = _where(nodes, self.titles, self.parents)

    def _parameters(self, edges: Sequence[Edge]) -> dict[int, set[int]]:
        """The leaves made in a call of their own (a constructor's weights) that each call's
        values use: calls that use the same ones are calls of one object (or one function
        reading the same weights), as four points through one model are."""
        used: dict[int, set[int]] = {}
        for e in edges:
            leaf = self.nodes[e.source]
            if leaf.kind == "input" and leaf.call is not None:
                for c in self.around(e.target) - self.around(e.source):
                    used.setdefault(c, set()).add(e.source)
        return used

    def inside(self, node: int) -> str:
        """``in Neuron 3, Layer 1, MLP(3, [4, 4, 1])``: every call around a node, innermost
        first; "" at the top level."""
        return self._chain(self.nodes[node].call)

    def _chain(self, call: int | None) -> str:
        chain = []
        while call is not None:
            chain.append(self.titles[call])
            call = self.parents[call]
        return f"in {', '.join(chain)}" if chain else ""

    def outlines(self, edges: Sequence[Edge], output: int) -> tuple[CallOutline, ...]:
        """Each call's title and run of ids, and the values it hands out and takes in: an edge
        leaves (enters) every call around its source (target) but not around the other end."""
        outs: dict[int, set[int]] = {c.id: set() for c in self.made}
        ins: dict[int, set[int]] = {c.id: set() for c in self.made}
        for e in edges:
            around_source, around_target = self.around(e.source), self.around(e.target)
            for c in around_source - around_target:
                outs[c].add(e.source)
            for c in around_target - around_source:
                ins[c].add(e.source)
        for c in self.around(output):
            outs[c].add(output)
        outlines = []
        for call in self.made:
            first, last = self.members[call.id][0], self.members[call.id][-1]
            parent = call.parent if call.parent in self.members else None
            outlines.append(
                CallOutline(call.id, parent, self.titles[call.id], call.span, first, last,
                            tuple(sorted(outs[call.id])), tuple(sorted(ins[call.id])))
            )  # fmt: skip
        return tuple(outlines)

    def around(self, node: int) -> set[int]:
        """The calls that made ``node``, its innermost and every call around that."""
        out = set()
        call = self.nodes[node].call
        while call is not None:
            out.add(call)
            call = self.parents[call]
        return out

    def infos(
        self,
        outlines: Sequence[CallOutline],
        nodes: Sequence[Node],
        walk: Walk,
        forward_count: int,
        slots: Slots,
        totals: list[tuple[int, ...]],
    ) -> tuple[CallInfo, ...]:
        """Each call's outline with its steps, stepped over as one; ``totals`` receives, for
        each line that sums what a call sends one value, the walk's lines it adds up."""
        sent_at = {node: j for j, node in enumerate(walk.step_nodes) if j > 0}
        leaving: dict[int, dict[int, list[int]]] = {}  # call -> value outside it -> its lines
        for k, line in enumerate(walk.lines):
            senders = self.around(line.node)
            if self.nodes[line.operand].kind != "input":  # a parameter inside is said too
                senders -= self.around(line.operand)
            for c in senders:
                leaving.setdefault(c, {}).setdefault(line.operand, []).append(k)
        infos = []
        for call in outlines:
            first, last = call.first, call.last
            around = self._chain(self.parents[call.id])  # "in n(x) #1": which Layer 1 this is
            computed = [c for i in range(first, last + 1) if (c := nodes[i].computed_at) >= 0]
            sent = [sent_at[i] for i in range(first, last + 1) if i in sent_at]
            count = len(walk.step_nodes)
            infos.append(
                CallInfo(
                    id=call.id,
                    parent=call.parent,
                    title=call.title,
                    span=call.span,
                    first=first,
                    last=last,
                    outputs=call.outputs,
                    inputs=call.inputs,
                    forward=tuple(
                        map(slots.line, _forward([nodes[o] for o in call.outputs], self.where))
                    ),
                    backward=tuple(
                        map(
                            slots.line,
                            _backward(leaving.get(call.id, {}), nodes, self.where, totals),
                        )
                    ),
                    forward_title=_run_title(
                        "forward", computed, forward_count, call.title, around
                    ),
                    backward_title=_run_title("backward", sent, count, call.title, around),
                )
            )
        return tuple(infos)


def _run_title(phase: str, steps: list[int], count: int, title: str, around: str) -> str:
    """The title of a folded call's run of steps, stepped over as one (its steps are one run:
    ids are in creation order)."""
    if not steps:
        return ""
    return titles.step_title(phase, min(steps), max(steps), count, f"{title}, folded", around)


def _titles(calls: list[Call], lines: list[str], parameters: dict[int, set[int]]) -> dict[int, str]:
    """``MLP(3, [4, 4, 1])`` for a call the program writes once; ``n(x) #2`` for the second run
    of a call written once that calls one object again (its runs use the same parameters: four
    points through one model), ``MLP call #2`` when what is written is long
    (``list(map(model, inputs))``); otherwise by what is called, ``Neuron 3`` for the third of
    several objects called by the same caller (``n(x)`` inside a layer says less than
    ``Neuron``)."""

    def text(c: Call) -> str:
        return lines[c.span.line - 1][c.span.column - 1 : c.span.end_column - 1]

    written = Counter((c.parent, text(c)) for c in calls)
    runs: dict[tuple[int | None, str], list[Call]] = {}
    for c in calls:
        runs.setdefault((c.parent, text(c)), []).append(c)
    again = set()  # the sites (caller, text) whose runs call one object again
    for site, cs in runs.items():
        counts = Counter(p for c in cs for p in parameters.get(c.id, ()))
        if len(cs) > 1 and any(n > 1 for n in counts.values()):
            again.add(site)
    repeated = Counter((c.parent, c.name) for c in calls if written[(c.parent, text(c))] > 1)
    seen: Counter[tuple[int | None, str]] = Counter()
    titles = {}
    for c in calls:
        site = (c.parent, text(c))
        if c.parent is None and written[site] == 1 and 0 < len(text(c)) <= 24:
            titles[c.id] = text(c)  # written once in the program: MLP(3, [4, 4, 1])
        elif site in again:
            seen[site] += 1
            short = 0 < len(text(c)) <= MAX_CALL_TEXT
            titles[c.id] = f"{text(c) if short else f'{c.name} call'} #{seen[site]}"
        elif repeated[(c.parent, c.name)] > 1:
            seen[(c.parent, c.name)] += 1
            titles[c.id] = f"{c.name} {seen[(c.parent, c.name)]}"  # n(x) in a layer: Neuron 2
        else:
            titles[c.id] = c.name
    return titles


def _where(
    nodes: Sequence[NodeOutline], titles: dict[int, str], parents: dict[int, int | None]
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


def _forward(outputs: list[Node], where: dict[int, str]) -> tuple[Parts, ...]:
    """What a folded call computed, as one forward step: a line per value it hands back,
    ``out = 0.7612 (Neuron 3, Layer 1)`` when others share its name."""
    if len(outputs) > MAX_LISTED_OUTPUTS:
        return ((f"{len(outputs)} values computed",),)
    return tuple(
        (
            f"{out.name} = ",
            ("data", out.id, "n"),
            f"   ({where[o]})" if (o := out.id) in where else "",
        )
        for out in outputs
    )


def _backward(
    sent: dict[int, list[int]],
    nodes: Sequence[Node],
    where: dict[int, str],
    totals: list[tuple[int, ...]],
) -> tuple[Parts, ...]:
    """``w[0].grad += 0.0123 (w[0] of Neuron 3, Layer 1)``, one line for each value outside
    the call, and each parameter inside it, that its backward steps send gradient to (``sent``:
    each such value's lines of the walk): the sum of those contributions, and the grad before
    and after."""
    out: list[Parts] = []
    for o, lines in sorted(sent.items()):
        totals.append(tuple(lines))
        name = nodes[o].grad_name
        total: Num = ("total", len(totals) - 1, "n")
        before: Num = ("before", lines[0], "n")
        after: Num = ("after", lines[-1], "n")
        out.append((f"{name} += ", total,
                    f" ({nodes[o].name} of {where[o]})" if o in where else "",
                    f",   {name}: ", before, becomes(before, total, after), after))  # fmt: skip
    return tuple(out)
