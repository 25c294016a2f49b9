"""A learner's graph as a drawing and the structure's key need it: each node's name (their
label, the name the program bound it to, a short expression, a constant's number, else
``t₁₂``), its kind, op and call, the edges as their parent collections hold them, and the key
that tells when two runs have the same structure."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from engine import notation
from engine.notation.lines import Operand, Result
from engine.ops import OPS
from engine.own import Study
from engine.own.backward import Step as OwnStep
from engine.own.graph import calls_of
from engine.trace.calls import Calls
from engine.trace.data import CallOutline, Edge, Kind, NodeOutline


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
        out.append(name or notation.numbered_name(i))
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
        [t is None for t in s.truth.grad],  # which rows show a true or a correct gradient
        [x is None for x in s.expected],
    )
    return hashlib.blake2b(repr(parts).encode(), digest_size=16).hexdigest()


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
