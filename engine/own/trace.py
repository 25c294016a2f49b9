"""The trace of a learner's own engine: the structure and numbers of engine.trace.data (so every
renderer draws and steps it as it does gradstep's), with ``engine = "program"``. Forward: a step
per node their code computed. Backward: their pass as they ran it (the seed, each call of a
node's kept function, each statement outside one), a row per ``.grad`` write with the line that
made it and what a correct pass would hold there beside it. The numbers add the true gradients
and the findings."""

from __future__ import annotations

from engine import notation
from engine.notation import own as words
from engine.notation.lines import Parts
from engine.own import Study
from engine.own.graph import calls_of
from engine.own.outline import edges_of, flat_offsets, outline_nodes, result_of
from engine.trace import titles
from engine.trace.calls import Calls
from engine.trace.data import (
    Cell,
    Change,
    GradState,
    Input,
    Node,
    Row,
    Step,
    Structure,
)
from engine.trace.slots import Slots
from engine.trace.structure import Built
from engine.trace.walk import Walk


def build(s: Study, names: list[str]) -> Built:
    g, program = s.graph, s.program
    slots = Slots()
    nodes_out = outline_nodes(s, names)
    calls_list, _ = calls_of(g)
    made_in = Calls(calls_list, program.source, nodes_out)
    edges = edges_of(s)
    lines = program.source.splitlines()
    computed = [i for i in range(len(g.order)) if g.parents[i]]
    users: dict[int, list[tuple[int, str]]] = {}  # once per operand position: a + a twice
    for i, ps in enumerate(g.parents):
        for p in [p for p, _ in s.truth.locals[i]] or ps:
            users.setdefault(p, []).append((i, names[i]))
    nodes = tuple(
        Node(
            i,
            names[i],
            notation.grad_of(names[i]),
            n.kind,
            n.op,
            n.symbol,
            g.spans[i],
            _formula(s, names, i),
            computed.index(i) if i in computed else -1,
            n.call,
            f"used {notation.uses_text(users[i])}" if i in users else "",
            slots.line(
                (
                    f"{notation.grad_of(names[i])}: theirs ",
                    ("grad", i, "n"),
                    ", true ",
                    ("true", i, "n"),
                )
            ),
        )
        for i, n in enumerate(nodes_out)
    )
    start = tuple(
        Change(i, data=None if g.parents[i] else slots("data", i), grad="pending")
        for i in range(len(g.order))
    )
    forward = [
        Step(
            "forward",
            i,
            titles.step_title("forward", k, k, len(computed), made_in.inside(i)),
            ((Cell("formula", slots.line(_forward_text(s, names, i))),),),
            tuple((i, p) for p in range(len(g.parents[i]))),
            False,
            (Change(i, data=slots("data", i)),),
        )
        for k, i in enumerate(computed)
    ]
    backward = _backward(s, names, lines, slots)
    inputs = tuple(
        Input(i, names[i], program.inputs.get(names[i]) is g.order[i], True)
        for i in range(len(g.order))
        if not g.parents[i] and not g.lifted[i]
    )
    structure = Structure(
        engine="program",
        engine_class=program.output.cls.name,
        output=len(g.order) - 1,
        nodes=nodes,
        edges=edges,
        calls=made_in.infos(
            made_in.outlines(edges, len(g.order) - 1),
            nodes,
            Walk((), (), {}, {}),
            len(forward),
            slots,
            [],
        ),
        start=start,
        steps=(*forward, *backward),
        slots="".join(slots.kinds),
        inputs=inputs,
        notes=program.notes,
    )
    return Built(structure, Walk((), (), {}, {}), tuple(slots.recipes), (), ())


def _formula(s: Study, names: list[str], i: int) -> str:
    g = s.graph
    if not g.parents[i]:
        return ""
    if g.ops[i].name:
        return notation.formula(result_of(s, names, i, names[i]))
    operands = ", ".join(names[p] for p in g.parents[i])
    return f"{names[i]} = {g.ops[i].text or 'op'}({operands})"


def _forward_text(s: Study, names: list[str], i: int) -> Parts:
    if s.graph.ops[i].name:
        return notation.forward_text(result_of(s, names, i, names[i]))
    return (f"{_formula(s, names, i)} = ", ("data", i, "n"))


def _backward(s: Study, names: list[str], lines: list[str], slots: Slots) -> list[Step]:
    """Their pass: every node shows what its gradient held when the pass began (their engine's
    state, stale or 0), then each step's writes; a node's last write makes it final."""
    g, walk = s.graph, s.walk
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
                Change(
                    i,
                    grad="partial" if i in last else "final",
                    value=slots("start", i),
                    bin=slots("sbin", i, "w"),
                )
                for i in range(len(g.order))
            ]
        for k, w in enumerate(st.writes):
            at = offsets[j] + k  # the write's index among all the pass's writes
            true = ("expected", at) if s.expected[at] is not None else None
            grad = notation.grad_of(names[w.node])
            write = words.write_text(grad, ("before", at), ("after", at), true)
            code = words.code_text(w.span.line, lines[w.span.line - 1])
            rows.append((Cell("write", slots.line(write)), Cell("code", slots.line(code))))
            state: GradState = "final" if last[w.node] == (j, k) else "partial"
            changes.append(
                Change(w.node, grad=state, value=slots("after", at), bin=slots("bin", at, "w"))
            )
        if not st.writes:
            rows.append((Cell("note", slots.line(words.silent_note(names[st.node], st.attr))),))
        where = st.function_span or (st.writes[0].span if st.writes else None)
        line = f"line {where.line}" if where else ""
        if st.kind == "direct" and where:
            line = f"line {where.line}: {lines[where.line - 1].strip()}"
        about = words.step_title(st.kind, names[st.node], st.attr, line)
        title = titles.step_title("backward", j, j, count, about)
        edges = (
            tuple((st.node, k) for k in range(len(g.parents[st.node]))) if st.kind == "call" else ()
        )
        steps.append(Step("backward", st.node, title, tuple(rows), edges, True, tuple(changes)))
    return steps
