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


# ── the training lab (/train, /api/train…) ───────────────────────────────────────────────────


class TrainRequest(BaseModel):
    """A training run. Omitted fields take the preset's value (micrograd's demo by default)."""

    model_config = ConfigDict(extra="forbid")

    preset: str = Field("micrograd-moons", description="the config the other fields change")
    dataset: Literal["xor", "moons", "circles", "spiral"] | None = None
    size: int | None = Field(None, description="number of points")
    noise: FiniteFloat | None = None
    seed: int | None = Field(None, description="the data's seed")
    model_seed: int | None = Field(None, description="the initial weights' seed")
    hidden: list[int] | None = Field(None, max_length=8, description="hidden layer sizes")
    activation: Literal["relu", "tanh", "sigmoid", "linear"] | None = None
    loss: Literal["hinge", "mse", "bce", "softmax"] | None = None
    l2: FiniteFloat | None = Field(None, description="L2 strength alpha: + alpha · Σ p²")
    lr: FiniteFloat | None = Field(None, description="base learning rate")
    schedule: Literal["constant", "linear", "step"] | None = Field(
        None, description="linear: down to 0.1 × lr over the run; step: halved every quarter"
    )
    batch_size: int | None = Field(None, description="0: full batch")
    epochs: int | None = None


class TrainConfigOut(BaseModel):
    dataset: str
    size: int
    noise: float
    seed: int
    model_seed: int
    hidden: list[int]
    activation: str
    loss: str
    l2: float
    lr: float
    schedule: str
    batch_size: int
    epochs: int
    boundary_every: int
    grid: int


class TrainPresetOut(BaseModel):
    id: str
    title: str
    config: TrainConfigOut
    parameters: int


class TrainLimitsOut(BaseModel):
    max_points: int
    max_parameters: int
    max_epochs: int
    max_work: int = Field(description="points × parameters × epochs")
    max_jobs: int
    max_inspect_values: int


class TrainOptionsOut(BaseModel):
    presets: list[TrainPresetOut]
    limits: TrainLimitsOut


class BoundsOut(BaseModel):
    x_min: float
    x_max: float
    y_min: float
    y_max: float


class TrainStartEvent(BaseModel):
    """SSE ``start``: the job and its data, before the first epoch."""

    job: str
    config: TrainConfigOut
    points: list[list[float]]
    labels: list[int]
    classes: int
    parameters: int
    bounds: BoundsOut


class TrainEpochEvent(BaseModel):
    """SSE ``epoch``: one per epoch, in order."""

    epoch: int
    epochs: int
    loss: float = Field(description="mean over the epoch's batches, data loss + L2")
    accuracy: float
    lr: float
    elapsed: float = Field(description="seconds since training began")
    eta: float = Field(description="seconds left, at the pace so far")


class TrainBoundaryEvent(BaseModel):
    """SSE ``boundary``: every few epochs; cell row·n + col, rows from the top (y_max) down."""

    epoch: int
    n: int
    classes: list[int]
    confidence: list[float]


class TrainDoneEvent(BaseModel):
    """SSE ``done``: the final model, whether it ran to the end or was stopped."""

    epochs_run: int
    stopped: bool
    loss: float = Field(description="the final model on every point, data loss + L2")
    accuracy: float
    elapsed: float
    parameters: list[float]


class TrainJobOut(BaseModel):
    id: str
    pid: int | None
    alive: bool
    epoch: int
    seconds: float
    cancelled: str | None


class TrainInspectRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    config: TrainRequest
    parameters: list[FiniteFloat] = Field(description="the model's weights, as the done event gave")
    point: int = Field(ge=0, description="index of the data point")


class TrainInspectResponse(BaseModel):
    source: str = Field(description="the point's loss as a program; weights are named inputs")
    loss: float = Field(description="the model's data loss for this point (no L2)")
    values: int = Field(description="values in the program's graph")
    url: str = Field(description="the stepper on this program")
