"""The trace as plain data (docs/design.md, "The trace is the contract"), in two parts:

- ``Structure``, once per program structure: names, kinds, edges, calls, and the walk's steps
  with what each one says (lines of text whose numbers are *slots*) and which state each node
  takes at it;
- ``Numbers``, per run of the program: every value's data and grad, and every slot's number.

A value-only change (a slider) keeps the structure and sends new numbers. Built by
``engine.trace``; the API serialises these dataclasses as they are.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.errors import Span
from engine.notation.lines import Relation

Kind = Literal["input", "constant", "intermediate", "output"]
Phase = Literal["forward", "backward", "update"]  # update: the program's .data changes
GradState = Literal["none", "pending", "partial", "final"]
Part = str | int | Relation  # text, a slot (the index of a number in ``Numbers.slots``), or
# the sign between a computation and its result, its numbers slots (engine.notation.Relation)
Line = tuple[Part, ...]


@dataclass(slots=True)
class Cell:
    """A piece of an explanation line; ``role`` says what it is (and is its CSS class): formula,
    sum, rule, value, product, change, accumulates (a change that adds to a grad), note."""

    role: str
    parts: Line


Row = tuple[Cell, ...]


@dataclass(frozen=True, slots=True)
class Node:
    id: int
    name: str  # printed on the node and used in every explanation: "x1", "c₁", "a·b"
    grad_name: str  # how its grad is written: "x1.grad", "(a·b).grad"
    kind: Kind
    op: str | None  # op name from the op table ("mul"), None for inputs and constants
    symbol: str | None  # how the op node is drawn ("*")
    span: Span | None  # the source text that made this node
    formula: str  # "o = tanh(n)"; "" for inputs and constants
    computed_at: int  # the forward step that computes it; -1: known from the start
    call: int | None  # the innermost call that made it (None: the program's top level)
    uses: str  # "used twice by b", "used by e and c"; "" when nothing uses it
    sum: Line  # the inspector: its grad as a sum over its uses


@dataclass(frozen=True, slots=True)
class Edge:
    source: int  # operand node id
    target: int  # result node id
    position: int  # which operand (0 or 1): `a + a` has two edges from a


@dataclass(slots=True)
class Change:
    """What a node shows, as far as a step changes it; a field left None is unchanged. The
    walk's ``start`` holds one per node, where a None ``data`` means not yet known ("?")."""

    node: int
    data: int | None = None  # the slot of the data it shows
    grad: GradState | None = None
    value: int | None = None  # the slot of the grad it shows (partial or final)
    bin: int | None = None  # the slot of that grad's colour bucket, -3..3
    updated: bool | None = None  # its .data was changed by the program after backward()


@dataclass(slots=True)
class Step:
    """One step of the walk: forward steps, then backward steps (the seed first), then the
    program's update when it makes one."""

    phase: Phase
    node: int | None  # the value it computes or sends gradient from (None: the update)
    title: str  # Backward step 3 of 10 · o = tanh(n) · in Neuron 3
    rows: tuple[Row, ...]  # its explanation
    edges: tuple[tuple[int, int], ...]  # lit operand edges: (target node, position)
    flow: bool  # True: the lit edges carry gradient (backward); False: data (forward)
    changes: tuple[Change, ...]


@dataclass(frozen=True, slots=True)
class CallInfo:
    """A call that made values (``Neuron 3``): folded, its values are one box; stepped over,
    its steps are one step."""

    id: int
    parent: int | None  # the call it was made in (None: the program's top level)
    title: str  # "Neuron 3", "MLP(3, [4, 4, 1])": printed on its box
    span: Span  # where the call is written
    first: int  # the node ids it made (nested calls' too) are first..last
    last: int
    outputs: tuple[int, ...]  # its values used outside it
    inputs: tuple[int, ...]  # the values from outside that it uses
    forward: tuple[Line, ...]  # stepped over: "out = 0.7612 (Neuron 3, Layer 1)", a line each
    backward: tuple[Line, ...]  # stepped over: "x.grad += 0.1 (through Neuron 3), x.grad: …"
    forward_title: str  # its forward steps as one: "Forward steps 4–9 of 40 · Neuron 3, folded"
    backward_title: str  # "" when it has no such steps


@dataclass(frozen=True, slots=True)
class Input:
    node: int
    name: str
    settable: bool  # named at the program's top level: a request's values can set it
    checked: bool  # False: too large a graph to check it numerically (MAX_CHECK_EVALUATIONS)


@dataclass(frozen=True, slots=True)
class Structure:
    engine: Literal["gradstep", "program"]  # whose code built the graph
    engine_class: str  # the program's own class its graph is made of ("" for gradstep's Value)
    output: int
    nodes: tuple[Node, ...]
    edges: tuple[Edge, ...]
    calls: tuple[CallInfo, ...]  # calls that made values, in the order they started
    start: tuple[Change, ...]  # every node's state before the first step
    steps: tuple[Step, ...]
    slots: str  # how each slot is written, a letter each: n number, f factor, w whole number
    inputs: tuple[Input, ...]
    notes: tuple[str, ...]  # what the language skipped that the user should know
    # each distinct line once, when its lines are packed (engine.trace.packed: the API's); ()
    # when every line is written out
    templates: tuple[Line, ...] = ()


@dataclass(frozen=True, slots=True)
class Check:
    """The numerical check of one input (``Structure.inputs``, in the same order)."""

    numeric: float | None  # central difference; None when unchecked or a nudge leaves the domain
    abs_error: float | None
    rel_error: float | None


@dataclass(frozen=True, slots=True)
class Finding:
    """Where a learner's own engine left a gradient that differs from the true one."""

    node: int
    kind: str  # overwrite, local, order, seed, zero, missing, upstream, hand, unreached
    step: int | None  # the step of the walk (Structure.steps) where it went wrong
    span: Span | None  # the line to look at: the write that first made it wrong
    text: Line  # one sentence; its numbers index ``numbers``
    numbers: tuple[float, ...]
    cause: int | None = None  # the finding this one follows from (fix that one: this heals)


@dataclass(frozen=True, slots=True)
class Numbers:
    data: tuple[float, ...]  # by node id
    grad: tuple[float | None, ...]  # final grads (theirs, for their own engine); None: constants
    bin: tuple[int, ...]  # colour bucket of each final grad
    slots: tuple[float, ...]
    checks: tuple[Check, ...]
    true_grad: tuple[float | None, ...] = ()  # their own engine: the true gradients
    findings: tuple[Finding, ...] = ()  # their own engine: the nodes whose grad differs


@dataclass(frozen=True, slots=True)
class Trace:
    structure: Structure
    numbers: Numbers


@dataclass(frozen=True, slots=True)
class NodeOutline:
    """A node as its drawing needs it (``engine.trace.outline``)."""

    id: int
    name: str
    kind: Kind
    op: str | None
    symbol: str | None
    call: int | None


@dataclass(frozen=True, slots=True)
class CallOutline:
    """A call as its drawing needs it: ``CallInfo`` without its steps."""

    id: int
    parent: int | None
    title: str
    span: Span
    first: int
    last: int
    outputs: tuple[int, ...]
    inputs: tuple[int, ...]
