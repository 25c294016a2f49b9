"""The trace as plain data (DESIGN.md, "The trace is the contract"): what the API sends, what
every renderer reads. Built by ``engine.trace``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.errors import Span
from engine.notation import Parts

Kind = Literal["input", "constant", "intermediate", "output"]


@dataclass(frozen=True, slots=True)
class Node:
    id: int
    name: str  # printed on the node and used in every explanation: "x1", "c₁", "a·b", "#12"
    grad_name: str  # how its grad is written: "x1.grad", "(a·b).grad"
    kind: Kind
    op: str | None  # op name from the op table ("mul"), None for inputs and constants
    symbol: str | None  # how the op node is drawn ("*")
    data: float
    grad: float | None  # final grad; None for constants, which take no gradient
    span: Span | None  # the source text that made this node
    formula: str  # "o = tanh(n)"; "" for inputs and constants
    computed_at: int  # the forward step that computes it; -1: known from the start
    grad_from: int  # the backward step of its first gradient; -1: it takes none (a constant)
    grad_final: int  # the backward step from which its grad is final; -1 for constants
    bin: int  # colour bucket of its final grad, -3..3 (engine.steps.grad_bin)
    grad_sum: Parts  # the inspector: its grad as a sum over its uses
    uses: str  # "used twice by b", "used by e and c"; "" when nothing uses it
    call: int | None  # the innermost call that made it (None: the program's top level)


@dataclass(frozen=True, slots=True)
class Edge:
    source: int  # operand node id
    target: int  # result node id
    position: int  # which operand (0 or 1): `a + a` has two edges from a


@dataclass(frozen=True, slots=True)
class ForwardStep:
    node: int  # the op node computed at this step (inputs and constants are known up front)
    text: Parts  # c = a + b = (−4.0000) + 2.0000 = −2.0000
    title: str  # Forward step 3 of 10 · in Neuron 3, Layer 1


@dataclass(frozen=True, slots=True)
class Contribution:
    operand: int  # node id receiving gradient
    position: int
    local: float  # ∂(this step's node)/∂operand
    upstream: float  # the grad of this step's node
    contribution: float  # local · upstream
    grad_before: float
    grad_after: float  # grad_before + contribution: accumulation is visible
    bin: int  # colour bucket of grad_after
    sum: Parts  # n.grad += ∂o/∂n · o.grad
    rule: Parts  # ∂o/∂n = (1 − o²)
    value: Parts  # = (1 − 0.7071²) = 0.5000
    product: Parts  # = 0.5000 × 1.0000 = 0.5000
    change: Parts  # n.grad: 0.0000 → 0.5000
    note: str  # "accumulates (a is used twice by b)", or ""


@dataclass(frozen=True, slots=True)
class BackwardStep:
    node: int  # step 0: the output, seeded with grad 1; then one op node per step
    seed: bool
    contributions: tuple[Contribution, ...]  # one per operand that takes gradient
    notes: tuple[Parts, ...]  # the seed's line; "the constant 2 takes no gradient"
    title: str  # Backward step 3 of 10 · o = tanh(n) · in Neuron 3


@dataclass(frozen=True, slots=True)
class InputCheck:
    node: int
    name: str
    grad: float  # autograd
    numeric: float | None  # central difference; None when a nudge leaves the domain
    abs_error: float | None
    rel_error: float | None
    skipped: bool  # True: not checked, the graph is too large (MAX_CHECK_EVALUATIONS)
    settable: bool  # named at the program's top level: a request's values can set it


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
    forward: tuple[Parts, ...]  # stepped over: "out = 0.7612 (Neuron 3, Layer 1)", a line each
    backward: tuple[Parts, ...]  # stepped over: "x.grad += 0.1 (through Neuron 3), x.grad: …"
    forward_title: str  # its forward steps as one: "Forward steps 4–9 of 40 · Neuron 3, folded"
    backward_title: str  # "" when it has no such steps


@dataclass(frozen=True, slots=True)
class NodeOutline:
    """A node as its drawing needs it (``engine.trace.outline``): ``Node`` without what the
    steps compute."""

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


@dataclass(frozen=True, slots=True)
class Update:
    """A value's data changed by the program after its last backward() (a gradient step):
    shown as the walk's last step, not drawn as graph nodes."""

    node: int
    before: float
    after: float


@dataclass(frozen=True, slots=True)
class Trace:
    output: int
    nodes: tuple[Node, ...]
    edges: tuple[Edge, ...]
    forward: tuple[ForwardStep, ...]
    backward: tuple[BackwardStep, ...]
    inputs: tuple[InputCheck, ...]  # the numerical check of every input
    calls: tuple[CallInfo, ...]  # calls that made values, in the order they started
    updates: tuple[Update, ...]  # what the program changed after backward()
    update_title: str  # that step's title ("" when there is none)
    update_text: tuple[Parts, ...]  # and its explanation
    notes: tuple[str, ...]  # what the language skipped that the user should know
