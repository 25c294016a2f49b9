"""The trace: everything the stepper replays, as plain data (docs/design.md, "The trace is the
contract"), in two parts: the structure (``build``: names, formulas, steps, the state each node
takes at each step), made once per program structure, and the numbers (``numbers``), made for
every run. ``trace`` makes both; the app keeps structures by ``key`` so that a value-only
change (a slider) only makes numbers.

Node ids are 0..n-1 in creation order, so the same program structure gets the same ids
whatever its input values. Every name, formula and explanation comes from ``engine.notation``.
"""

from __future__ import annotations

from engine.graph import topological_order
from engine.language import Program
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
from engine.trace.numbers import numbers
from engine.trace.outline import Outline, outline
from engine.trace.structure import Built, build, key
from engine.value import Value

__all__ = [
    "Built",
    "CallInfo",
    "Cell",
    "Change",
    "Check",
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


def trace(program: Program, outlined: Outline | None = None) -> Trace:
    """Both parts of ``program``'s trace; runs ``backward()`` on its graph. ``outlined``: its
    outline, when made already (``outline(program)``). (engine.tracing also traces a program
    that runs its own engine.)"""
    shape = outlined or outline(program)
    built = build(program, shape)
    return Trace(built.structure, numbers(program, shape, built))


def trace_value(root: Value) -> Trace:
    """The trace of a graph built in Python (a notebook, a test): every value ``root`` depends
    on, named by its label; the leaves that have labels are its inputs."""
    order = topological_order(root)
    inputs = {v.label: v for v in order if v.op is None and not v.constant and v.label}
    empty = Program(
        "", root, inputs, spans={}, labels={}, calls=(), call_of={}, updates=(), notes=()
    )
    return trace(empty)
