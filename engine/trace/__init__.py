"""The trace: everything the stepper replays, as plain data (docs/design.md, "The trace is the
contract"), in two parts: the structure (``build``: names, formulas, steps, the state each node
takes at each step), made once per program structure, and the numbers (``numbers``), made for
every run. ``trace`` makes both; the app keeps structures by ``key`` so that a value-only
change (a slider) only makes numbers.

One pipeline for both engines: the outline (engine.trace.outline) of a graph made of gradstep's
values or of the program's own objects is the same; what differs is how its backward pass is
written, chosen by the graph's ``engine``: the chain rule from the op table
(engine.trace.structure, engine.trace.numbers), or the learner's own pass beside the truth
(engine.trace.theirs).

Node ids are 0..n-1 in creation order, so the same program structure gets the same ids
whatever its input values. Every name, formula and explanation comes from ``engine.notation``.
"""

from __future__ import annotations

import hashlib

from engine.graph import topological_order
from engine.program import Program, graph_of
from engine.trace import structure as chain
from engine.trace import theirs
from engine.trace.data import (
    CallInfo,
    Cell,
    Change,
    Check,
    Edge,
    Input,
    Kind,
    Line,
    Node,
    Numbers,
    Part,
    Row,
    Step,
    Structure,
    Trace,
)
from engine.trace.numbers import numbers as chain_numbers
from engine.trace.outline import Drawable, Outline, outline
from engine.trace.structure import Built
from engine.value import Value, arrays

__all__ = [
    "Built",
    "CallInfo",
    "Cell",
    "Change",
    "Check",
    "Drawable",
    "Edge",
    "Input",
    "Kind",
    "Line",
    "Node",
    "Numbers",
    "Outline",
    "Part",
    "Row",
    "Step",
    "Structure",
    "Trace",
    "build",
    "key",
    "numbers",
    "outline",
    "trace",
    "trace_value",
]


def key(program: Program, shape: Outline) -> str:
    """A digest of everything the structure is made from: equal keys, equal structures."""
    s = shape.study
    if s is None:
        return chain.key(program, shape)
    steps = [
        (st.kind, st.node, st.attr, st.call_span, st.function_span,
         [(w.node, w.span, w.augmented) for w in st.writes])
        for st in s.walk.steps
    ]  # fmt: skip
    g = shape.graph
    parts = (
        program.source,
        [n.name for n in shape.nodes],
        g.parents,
        [op.text if op else None for op in g.ops],
        g.spans,
        g.call_list,
        g.calls,
        steps,
        sorted(g.inputs),
        program.notes,
        [t is None for t in s.truth.grad],  # which rows show a true or a correct gradient
        [x is None for x in s.expected],
    )
    return hashlib.blake2b(repr(parts).encode(), digest_size=16).hexdigest()


def build(program: Program, shape: Outline) -> Built:
    if not shape.nodes:
        return chain.nothing(program)
    if shape.study is None:
        return chain.build(program, shape)
    return theirs.build(program, shape, shape.study)


def numbers(program: Program, shape: Outline, built: Built) -> Numbers:
    if not shape.nodes:
        return Numbers((), (), (), (), ())
    if shape.study is None:
        return chain_numbers(program, shape, built)
    return theirs.numbers(shape, built, shape.study)


def trace(program: Program, outlined: Outline | None = None) -> Trace:
    """Both parts of ``program``'s trace. ``outlined``: its outline, when made already."""
    shape = outlined or outline(program)
    built = build(program, shape)
    return Trace(built.structure, numbers(program, shape, built))


def trace_value(root: Value) -> Trace:
    """The trace of a graph built in Python (a notebook, a test): every value ``root`` depends
    on, named by its label; the leaves that have labels are its inputs."""
    order = topological_order(root)
    inputs = {
        v.label: i for i, v in enumerate(order) if v.op is None and not v.constant and v.label
    }
    return trace(Program("", graph_of(arrays(order), inputs), {}))
