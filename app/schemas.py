"""The API's request and response models, so /docs and /openapi.json describe them exactly.

Every model is strict (a number is a number: not ``true``, not ``"1"``) and forbids fields it
does not declare. The trace is ``engine.trace``'s dataclasses themselves (its structure and
its numbers): responses are serialised straight from them (``app.pipeline``) and described
from them, so no copy drifts.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, FiniteFloat

from app.draw.dot import Direction, Rankdir
from app.numbers import MAX_DECIMALS
from app.query import MAX_VALUES_CHARS
from engine.lab.config import DATASETS, LOSSES, SCHEDULES
from engine.limits import MAX_ITERATIONS, MAX_NODES, MAX_SOURCE_CHARS
from engine.nn import ACTIVATIONS
from engine.steps import Phase
from engine.trace import Numbers, Structure

# input values as a request may give them: an object of numbers, or a URL's values text
Values = dict[str, FiniteFloat] | Annotated[str, Field(max_length=MAX_VALUES_CHARS)] | None


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class GraphRequest(Strict):
    source: str = Field("", max_length=MAX_SOURCE_CHARS, description="the program, micrograd style")
    preset: str | None = Field(None, max_length=100, description="a preset's id, for no source")
    values: dict[str, FiniteFloat] | str | None = Field(
        None,
        description="input values replacing those in the source: an object of numbers, or the "
        "text of a URL's values parameter ('a=1,b=-2.5' or '{\"a\": 1}')",
    )
    rankdir: Direction = Field(
        "auto", description="LR: left to right, TB: top down, auto: the one that fills the view"
    )
    aspect: FiniteFloat | None = Field(
        None, gt=0, description="the view's width / height, for rankdir auto (default 16:9)"
    )
    fold: str | None = Field(
        None,
        max_length=2_000,
        description="calls drawn as one box: auto (default), none, all, or call ids 3,7,12",
    )
    layout: str | None = Field(
        None,
        pattern=r"^[0-9a-f]{16}$",
        description="the layout of the graph the client shows (an answer's layout): when the new "
        "graph is drawn the same, the answer's svg is null and the client keeps its own",
    )
    engine: Literal["auto", "gradstep"] = Field(
        "auto",
        description="auto: a program that defines its own class Value runs it (its graph, its "
        "backward, checked against the true gradients); gradstep: gradstep's Value instead",
    )
    structure: str | None = Field(
        None,
        pattern=r"^[0-9a-f]{16}$",
        description="the structure the client holds (an answer's digest): when the new program "
        "has the same structure, the answer's structure is null and the client keeps its own",
    )
    iteration: int | None = Field(
        None,
        ge=0,
        le=MAX_ITERATIONS,
        description="which iteration of a training loop to draw, 0-based (omit: the first)",
    )


class Timings(Strict):
    run_ms: float
    trace_ms: float
    layout_ms: float = Field(description="0 when the layout came from the cache")
    total_ms: float
    layout_cached: bool


class FoldOut(Strict):
    folded: list[int] = Field(description="the calls drawn as boxes")
    units: list[str] = Field(description="per node, the element that shows it: n5, or box c3")
    edges: dict[str, str] = Field(description="e5-0 → the edge drawn for it (m2 for a merged one)")


class Training(Strict):
    losses: list[float] = Field(description="the output (the loss) of each iteration, in order")
    iteration: int = Field(description="the iteration drawn, 0-based")


class GraphResponse(Strict):
    structure: Structure | None = Field(
        description="names, formulas, the walk's steps and the state of each node at each step "
        "(null when the request's structure is this one)"
    )
    digest: str = Field(description="the structure's digest: the same for the same structure")
    numbers: Numbers = Field(description="every value's data and grad, and every slot's number")
    svg: str | None = Field(
        description="the finished graph; ids and classes per docs/api.md (null when "
        "the request's layout is this graph's)"
    )
    layout: str = Field(description="this graph's layout: the same for every graph drawn the same")
    source: str = Field(description="the program (a preset's, when the request named one)")
    values: dict[str, float] = Field(description="the input values given, as applied")
    rankdir: Rankdir = Field(description="the direction the graph is drawn in")
    fold: FoldOut
    backend: Literal["dot", "wasm"]
    timings: Timings
    console: list[tuple[int, str]] = Field(description="what the program printed: (line, text)")
    engines: list[Literal["program", "gradstep"]] = Field(
        description="which engines can build this program's graph (the page's engine switch)"
    )
    own_class: str = Field(
        description="the name of the program's own engine class (the first top-level class "
        'with operator methods), whichever engine drew the graph; "" when it has none'
    )
    training: Training | None = Field(
        description="a training loop's iterations (a loop that calls backward() on a new graph "
        "each time); null for a program without one"
    )
    plots: list[dict[str, Any]] = Field(
        description="the figures the program plotted with matplotlib.pyplot, as recorded in the "
        "sandbox (docs/api.md, Plots)"
    )


class NotebookRequest(Strict):
    notebook: dict[str, Any] = Field(
        description="the .ipynb file's JSON (its outputs may be left out: only code cells count)"
    )


class NotebookResponse(Strict):
    source: str = Field(description="the program: the code cells in order, each begun by # %%")


class ErrorOut(Strict):
    message: str
    kind: str
    line: int | None = None
    column: int | None = None
    end_column: int | None = None
    console: list[tuple[int, str]] | None = Field(
        None, description="what the program printed before it stopped: (line, text)"
    )


class ErrorResponse(Strict):
    error: ErrorOut


class Health(Strict):
    status: Literal["ok"]
    backend: Literal["dot", "wasm"]
    links: Literal["ok", "degraded"] = Field(
        description="degraded: the link store cannot be opened; short links answer 503"
    )
    broker: Literal["none", "ok", "unreachable"] = Field(
        description="the live classes' broker (Redis): none when classes live in this process; "
        "unreachable: class requests answer 503 until it is back"
    )


# ── the training lab (/train, /api/train…) ───────────────────────────────────────────────────


class TrainRequest(Strict):
    """A training run. Omitted fields take the preset's value (micrograd's demo by default)."""

    preset: str = Field("micrograd-moons", description="the config the other fields change")
    dataset: str | None = Field(None, json_schema_extra={"enum": list(DATASETS)})
    size: int | None = Field(None, description="number of points")
    noise: FiniteFloat | None = None
    seed: int | None = Field(None, description="the data's seed")
    model_seed: int | None = Field(None, description="the initial weights' seed")
    hidden: list[int] | None = Field(None, max_length=8, description="hidden layer sizes")
    activation: str | None = Field(None, json_schema_extra={"enum": list(ACTIVATIONS)})
    loss: str | None = Field(None, json_schema_extra={"enum": list(LOSSES)})
    l2: FiniteFloat | None = Field(None, description="L2 strength alpha: + alpha · Σ p²")
    lr: FiniteFloat | None = Field(None, description="base learning rate")
    schedule: str | None = Field(
        None,
        description="linear: down to 0.1 × lr over the run; step: halved every quarter",
        json_schema_extra={"enum": list(SCHEDULES)},
    )
    batch_size: int | None = Field(None, description="0: full batch")
    epochs: int | None = None


class TrainConfigOut(Strict):
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


class TrainPresetOut(Strict):
    id: str
    title: str
    config: TrainConfigOut
    parameters: int


class TrainLimitsOut(Strict):
    max_points: int
    max_parameters: int
    max_epochs: int
    max_work: int = Field(description="parameters × epochs × (points + STEP_POINTS a step)")
    max_jobs: int


class TrainParametersOut(Strict):
    parameters: int


class TrainOptionsOut(Strict):
    presets: list[TrainPresetOut]
    limits: TrainLimitsOut


class BoundsOut(Strict):
    x_min: float
    x_max: float
    y_min: float
    y_max: float


class TrainStartEvent(Strict):
    """SSE ``start``: the job and its data, before the first epoch."""

    job: str
    config: TrainConfigOut
    points: list[list[float]]
    labels: list[int]
    classes: int
    parameters: int
    bounds: BoundsOut


class TrainEpochEvent(Strict):
    """SSE ``epoch``: one per epoch, in order."""

    epoch: int
    epochs: int
    loss: float = Field(description="mean over the epoch's batches, data loss + L2")
    accuracy: float
    lr: float
    elapsed: float = Field(description="seconds since training began")
    eta: float = Field(description="seconds left, at the pace so far")


class TrainBoundaryEvent(Strict):
    """SSE ``boundary``: every few epochs; cell row·n + col, rows from the top (y_max) down."""

    epoch: int
    n: int
    classes: list[int]
    confidence: list[float]
    parameters: list[float] = Field(description="the model the boundary was drawn from")


class TrainDoneEvent(Strict):
    """SSE ``done``: the final model, whether it ran to the end or was stopped."""

    epochs_run: int
    stopped: bool
    loss: float = Field(description="the final model on every point, data loss + L2")
    accuracy: float
    elapsed: float
    parameters: list[float]


class TrainJobOut(Strict):
    id: str
    pid: int | None
    alive: bool
    epoch: int
    seconds: float
    cancelled: str | None


class TrainInspectRequest(Strict):
    config: TrainRequest
    parameters: list[FiniteFloat] = Field(description="the model's weights, as the done event gave")
    point: int = Field(ge=0, description="index of the data point")


class TrainInspectResponse(Strict):
    source: str = Field(description="the point's loss as a program; weights are named inputs")
    loss: float = Field(description="the model's data loss for this point (no L2)")
    values: int = Field(description="values in the program's graph")
    url: str = Field(description="the stepper on this program")


# ── short links (/api/links, /s/…) ───────────────────────────────────────────────────────────


class LinkRequest(Strict):
    """A view of the stepper, as its URL writes it (static/url.js); an omitted field is the
    page's default. It is stored as the page's query parameters (app/links/state.py)."""

    source: str | None = Field(None, max_length=MAX_SOURCE_CHARS, description="the program")
    preset: str | None = Field(
        None, max_length=100, description="a preset's id, for no source (its program is stored)"
    )
    values: Values = Field(
        None, description="input values: an object of numbers, or a URL's values text"
    )
    phase: Phase | None = Field(None, description="the step's pass (backward when a step is given)")
    step: int | None = Field(None, ge=0, le=2 * MAX_NODES, description="omit: the finished graph")
    decimals: int | None = Field(None, ge=0, le=MAX_DECIMALS)
    theme: Literal["auto", "light", "dark"] = "auto"
    rankdir: Direction = "auto"
    predict: bool = False
    numeric: bool = Field(False, description="show the numerical gradient")
    topo: bool = Field(False, description="number the nodes in topological order")
    node: int | None = Field(None, ge=0, le=MAX_NODES, description="the node selected")
    fold: str | None = Field(
        None, max_length=2_000, description="folded calls: auto, none, all or call ids 3,7,12"
    )
    over: bool = Field(True, description="step over a folded call in one step")
    engine: Literal["auto", "gradstep"] = Field(
        "auto", description="gradstep: gradstep's Value in place of the program's own class Value"
    )
    iteration: int | None = Field(
        None, ge=0, le=MAX_ITERATIONS, description="a training loop's (omit: the first)"
    )


class LinkResponse(Strict):
    id: str = Field(description="8 or more lowercase base32 characters, from the view's SHA-256")
    url: str = Field(description="the short link, /s/{id} on this server")
