"""The trace: everything the stepper replays, as plain data (see DESIGN.md, "The trace is the
contract"). The API serialises it as it is, with ``dataclasses.asdict``.

Node ids are 0..n-1 in creation order, so the same program structure gets the same ids
whatever its input values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.errors import Span

Kind = Literal["input", "constant", "intermediate", "output"]


@dataclass(frozen=True, slots=True)
class Node:
    id: int
    label: str | None  # the name it was assigned to ("c", "c₁" when rebound), or None
    kind: Kind
    op: str | None  # op name from the op table ("mul"), None for inputs and constants
    symbol: str | None  # how the op node is drawn ("*")
    data: float
    grad: float | None  # final grad; None for constants, which take no gradient
    span: Span | None  # the source text that made this node
    topo: int  # place in topological order


@dataclass(frozen=True, slots=True)
class Edge:
    source: int  # operand node id
    target: int  # result node id
    position: int  # which operand (0 or 1): `a + a` has two edges from a


@dataclass(frozen=True, slots=True)
class ForwardStep:
    node: int  # the op node computed at this step (inputs and constants are known up front)
    operands: tuple[float, ...]
    result: float
    text: str  # "c = a * b = (−4.0000) * (2.0000) = −8.0000" style, at full precision


@dataclass(frozen=True, slots=True)
class Contribution:
    operand: int  # node id receiving gradient
    position: int
    rule: str  # from the op table: "∂(a·b)/∂a = b"
    local_expr: str  # the local derivative in the operands' labels: "b"
    local: float  # its value
    upstream: float  # ∂L/∂(this step's node)
    contribution: float  # local · upstream
    grad_before: float
    grad_after: float  # grad_before + contribution: accumulation is visible


@dataclass(frozen=True, slots=True)
class BackwardStep:
    node: int  # step 0: the output, seeded with grad 1; then one op node per step
    seed: bool
    contributions: tuple[Contribution, ...]


@dataclass(frozen=True, slots=True)
class InputCheck:
    node: int
    label: str
    grad: float  # autograd
    numeric: float | None  # central difference; None when a nudge leaves the domain
    abs_error: float | None
    rel_error: float | None


@dataclass(frozen=True, slots=True)
class Counts:
    forward: int
    backward: int
    ratio: float


@dataclass(frozen=True, slots=True)
class Trace:
    output: int
    nodes: tuple[Node, ...]
    edges: tuple[Edge, ...]
    forward: tuple[ForwardStep, ...]
    backward: tuple[BackwardStep, ...]
    inputs: tuple[InputCheck, ...]  # the numerical check of every input
    counts: Counts
