"""The API's request and response models, so /docs and /openapi.json describe them exactly.

The trace models mirror ``engine.trace``'s dataclasses field for field; responses are
serialised straight from those dataclasses (see ``app.jsonout``), and a test checks that the
JSON validates against these models.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, FiniteFloat

from app.render import Rankdir

MAX_SOURCE_CHARS = 20_000
MAX_VALUES = 1_000


class GraphRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    source: str = Field(max_length=MAX_SOURCE_CHARS, description="the program, micrograd style")
    values: dict[str, FiniteFloat] | None = Field(
        None, max_length=MAX_VALUES, description="input values replacing those in the source"
    )
    rankdir: Rankdir = Field("LR", description="LR: left to right (micrograd's), TB: top down")


class SpanOut(BaseModel):
    line: int
    column: int
    end_column: int


class NodeOut(BaseModel):
    id: int
    label: str | None
    kind: Literal["input", "constant", "intermediate", "output"]
    op: str | None
    symbol: str | None
    data: float
    grad: float | None
    span: SpanOut | None
    topo: int


class EdgeOut(BaseModel):
    source: int
    target: int
    position: int


class ForwardStepOut(BaseModel):
    node: int
    operands: list[float]
    result: float
    text: str


class ContributionOut(BaseModel):
    operand: int
    position: int
    rule: str
    local_expr: str
    local: float
    upstream: float
    contribution: float
    grad_before: float
    grad_after: float


class BackwardStepOut(BaseModel):
    node: int
    seed: bool
    contributions: list[ContributionOut]


class InputCheckOut(BaseModel):
    node: int
    label: str
    grad: float
    numeric: float | None
    abs_error: float | None
    rel_error: float | None


class CountsOut(BaseModel):
    forward: int
    backward: int
    ratio: float


class TraceOut(BaseModel):
    output: int
    nodes: list[NodeOut]
    edges: list[EdgeOut]
    forward: list[ForwardStepOut]
    backward: list[BackwardStepOut]
    inputs: list[InputCheckOut]
    counts: CountsOut


class Timings(BaseModel):
    parse_ms: float
    trace_ms: float
    layout_ms: float = Field(description="0 when the layout came from the cache")
    total_ms: float
    layout_cached: bool


class GraphResponse(BaseModel):
    trace: TraceOut
    svg: str = Field(description="the finished graph; ids and classes per docs/graph-contract.md")
    backend: Literal["dot", "wasm"]
    timings: Timings


class ErrorOut(BaseModel):
    message: str
    kind: str
    line: int | None = None
    column: int | None = None
    end_column: int | None = None


class ErrorResponse(BaseModel):
    error: ErrorOut


class Preset(BaseModel):
    id: str
    title: str
    lesson: str
    source: str


class Health(BaseModel):
    status: Literal["ok"]
    backend: Literal["dot", "wasm"]
