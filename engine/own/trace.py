"""The trace of a learner's own engine: the structure and numbers of engine.trace.data (so every
renderer draws and steps it as it does gradstep's), with ``engine = "program"``. Forward: a step
per node their code computed. Backward: their pass as they ran it (the seed, each call of a
node's kept function, each statement outside one), a row per ``.grad`` write with the line that
made it and the true gradient beside it. The numbers add the true gradients and the findings."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from engine import notation
from engine.notation import own as words
from engine.notation.lines import Operand, Parts, Result
from engine.notation.naming import SUBSCRIPTS
from engine.ops import OPS
from engine.own import Study
from engine.own.backward import Step as OwnStep
from engine.own.graph import calls_of
from engine.steps import GradState
from engine.trace import titles
from engine.trace.calls import Calls
from engine.trace.data import (
    CallOutline,
    Cell,
    Change,
    Edge,
    Input,
    Kind,
    Node,
    NodeOutline,
    Row,
    Step,
    Structure,
)
from engine.trace.slots import Slots
from engine.trace.structure import Built
from engine.trace.walk import Walk


def names_of(s: Study) -> list[str]:
    """Each node's name: its label, else the name the program bound it to, else one made from
    its op and operands (when short), else ``t`` and its id (``t₁₂``)."""
    g, program = s.graph, s.program
    out: list[str] = []
    for i, v in enumerate(g.order):
        label = v.attrs.get(g.fields.label) if g.fields.label else None
        name = label if isinstance(label, str) and label else program.names.get(v, "")
        if not name and g.lifted[i]:
            name = notation.constant_name(g.data[i])
        if not name and g.ops[i].name and g.parents[i]:
            name = notation.made_name(notation.expression(result_of(s, out, i, "")), i)
            name = "" if name.startswith("#") else name
        out.append(name or f"t{str(i).translate(SUBSCRIPTS)}")
    return out


def result_of(s: Study, names: list[str], i: int, name: str) -> Result:
    """Node i as gradstep's notation writes a result of a known op (its operands in the order
    of the truth's positions: a set that keeps one ``a`` of ``a + a`` gives it twice)."""
    g = s.graph
    op, parents = g.ops[i], g.parents[i]
    assert op.name is not None
    table = OPS[op.name]
    if len(parents) == 1 and op.exponent is None:
        parents = parents * table.arity
    twice = len(parents) == 2 and parents[0] == parents[1]
    markers = notation.position_markers(2) if twice else ("", "")
    operands = [Operand(names[p], ("data", p), markers[k]) for k, p in enumerate(parents)]
    if op.exponent is not None:
        operands.append(Operand(notation.constant_name(op.exponent), ("data", i), "", op.exponent))
    return Result(name, ("data", i), table, tuple(operands))


def outline_nodes(s: Study, names: list[str]) -> tuple[NodeOutline, ...]:
    g = s.graph
    _, innermost = calls_of(g)
    root = len(g.order) - 1
    return tuple(
        NodeOutline(
            i, names[i], _kind(s, i, root), g.ops[i].name, g.ops[i].text or None, innermost[i]
        )
        for i in range(len(g.order))
    )


def _kind(s: Study, i: int, root: int) -> Kind:
    if i == root:
        return "output"
    if s.graph.lifted[i]:
        return "constant"
    return "intermediate" if s.graph.parents[i] else "input"


def edges_of(s: Study) -> tuple[Edge, ...]:
    return tuple(Edge(p, i, k) for i, ps in enumerate(s.graph.parents) for k, p in enumerate(ps))


def key(s: Study, names: list[str]) -> str:
    """A digest of everything the structure is made from: equal keys, equal structures."""
    g = s.graph
    steps = [
        (
            st.kind,
            st.node,
            st.attr,
            st.call_span,
            st.function_span,
            [(w.node, w.span, w.augmented) for w in st.writes],
        )
        for st in s.walk.steps
    ]
    parts = (
        s.program.source,
        names,
        g.parents,
        g.ops,
        g.spans,
        calls_of(g)[0],
        steps,
        sorted(s.program.inputs),
        s.program.notes,
    )
    return hashlib.blake2b(repr(parts).encode(), digest_size=16).hexdigest()


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
            true = ("true", w.node) if s.truth.grad[w.node] is not None else None
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


def flat_offsets(steps: Sequence[OwnStep]) -> list[int]:
    """Where each step's writes begin among all the pass's writes."""
    offsets, total = [], 0
    for st in steps:
        offsets.append(total)
        total += len(st.writes)
    return offsets


@dataclass(frozen=True, slots=True, eq=False)
class OwnOutline:
    """What a drawing of a learner's graph needs (engine.trace.outline's fields), and the study
    the rest of its trace is made from."""

    nodes: tuple[NodeOutline, ...]
    edges: tuple[Edge, ...]
    calls: tuple[CallOutline, ...]
    study: Study
    names: list[str]


def own_outline(study: Study) -> OwnOutline:
    names = names_of(study)
    nodes = outline_nodes(study, names)
    edges = edges_of(study)
    calls_list, _ = calls_of(study.graph)
    made_in = Calls(calls_list, study.program.source, nodes)
    return OwnOutline(nodes, edges, made_in.outlines(edges, len(nodes) - 1), study, names)
