"""Three ways to differentiate the program on screen, side by side (issue 43): its symbolic
derivatives and their swell, central differences and their error against h, forward mode's
tangent passes step by step, beside reverse mode's one backward pass, and what each costs
(engine.ways). ``POST /api/three-ways`` takes a graph request's program fields; like
``POST /api/graph``, a JSON answer has no GET (the GET routes are pictures and pages).

The program runs as a graph's does: in one of the pipeline's run slots and within its limits.
The ways take a graph of at most engine.ways.MAX_VALUES values (fewer than a big trace's gate
waits for), and every sympy step is bounded by a budget of operations
(engine.ways.symbolic), never by a clock."""

from __future__ import annotations

import math
from typing import Annotated, Literal

from fastapi import APIRouter, Request, Response
from pydantic import Field

import engine
from app.capacity import Answers
from app.deps import AnswersDep, PipelineDep
from app.pipeline import Pipeline
from app.presets import preset_source
from app.query import parse_values
from app.responses import answered
from app.schemas import ErrorResponse, Strict, Values
from engine.errors import GradstepError
from engine.limits import MAX_ITERATIONS, MAX_SOURCE_CHARS
from engine.runner import Engine
from engine.trace.data import Row
from engine.ways import Missing, Ways, three_ways
from engine.ways.costs import CHEAP_GRADIENT_BOUND
from engine.ways.numerical import SWEEP, H, Numerical
from engine.ways.symbolic import Simplifier

router = APIRouter(
    tags=["three ways"],
    responses={422: {"model": ErrorResponse, "description": "bad input, or nothing to show"}},
)


class ThreeWaysRequest(Strict):
    source: str = Field("", max_length=MAX_SOURCE_CHARS, description="the program, micrograd style")
    preset: str | None = Field(None, max_length=100, description="a preset's id, for no source")
    values: Values = Field(None, description="input values replacing those in the source")
    engine: Literal["auto", "gradstep"] = Field(
        "auto", description="auto: the program's own class Value when it has one; gradstep"
    )
    iteration: int | None = Field(
        None, ge=0, le=MAX_ITERATIONS, description="a training loop's iteration (omit: the first)"
    )


Finite = Annotated[float | None, Field(description="null where it is not a finite number")]


class InputOut(Strict):
    node: int = Field(description="its node id in the graph's trace")
    name: str
    symbol: str = Field(description="as the expressions write it: a shared name is told apart")
    where: str = Field(description="the calls it was made in, when its name is shared")
    value: float
    reverse: float = Field(description="reverse mode's gradient: the one backward pass")


class DerivativeOut(Strict):
    input: int = Field(description="an index into inputs")
    text: str = Field(description="the derivative written out, cut when long (then ends in …)")
    cut: bool
    value: Finite = Field(description="the expression's value at the inputs (30 digits)")
    written: int = Field(description="operations written out (it may pass 2^53)")
    shared: int = Field(description="operations with each repeated subexpression once")
    cse: int | None = Field(description="operations after sympy.cse; null past its budget")
    simplified: str | None = Field(
        description="the shortest of sympy.simplify (where quick), factor and factor_terms; null "
        "past its budget"
    )
    simplified_ops: int | None
    simplified_by: Simplifier | None


class SwellOut(Strict):
    depth: int
    node: int | None = Field(description="the node id of the deepest value at that depth")
    nodes: int = Field(description="the values it is made from")
    value_ops: int = Field(description="its expression's operations written out")
    derivative_ops: int = Field(description="its derivatives' operations, over the inputs")


class SymbolicOut(Strict):
    function: str
    function_ops: int
    derivatives: list[DerivativeOut]
    left_out: int = Field(description="inputs not differentiated symbolically (its budget)")
    swell: list[SwellOut]
    notes: list[str]


class SweepOut(Strict):
    numeric: list[Finite] = Field(description="per h of the answer's sweep")
    error: list[Finite] = Field(description="|numeric − reverse mode's gradient|, per h")
    best: int = Field(description="the sweet spot: the index of the smallest error")


class NumericalOut(Strict):
    input: int
    value: Finite = Field(description="the central difference at h (null: out of the domain)")
    error: Finite
    dominant: Literal["roundoff", "truncation", "balanced"] | None
    sweep: SweepOut | None = Field(description="null: past the budget of evaluations")


class CellOut(Strict):
    role: str
    parts: list[str | int | dict[str, object]] = Field(
        description="text, a slot (an index into a pass's slots), or a relation between slots"
    )


class StepOut(Strict):
    node: int
    rows: list[list[CellOut]]


class PassOut(Strict):
    input: int
    result: float = Field(description="d output / d input: this pass's tangent of the output")
    slots: list[float] | None = Field(description="the steps' numbers; null past the budget")
    tangents: list[float] | None = Field(
        description="each step's node's tangent dv, in the steps' order; null past the budget"
    )


class ForwardModeOut(Strict):
    steps: list[StepOut]
    kinds: str = Field(description="a letter per slot: n number, f factor, w whole number")
    passes: list[PassOut]
    left_out: int = Field(description="inputs whose tangent pass was not run (its budget)")


class CostsOut(Strict):
    inputs: int
    forward: int = Field(description="F: elementary operations of the forward pass")
    backward: int = Field(description="B: of the backward pass")
    tangent_pass: int = Field(description="one tangent pass: F + B")
    forward_mode: int = Field(description="n tangent passes")
    reverse_mode: int = Field(description="one forward and one backward pass: F + B")
    numerical: int = Field(description="2n forward passes")
    symbolic: int | None = Field(description="the derivatives' operations written out")
    ratio: float = Field(description="B / F")
    bound: int = Field(description="the cheap gradient principle's bound on B / F")
    cheap: bool


class ThreeWaysResponse(Strict):
    output: str
    value: float
    inputs: list[InputOut]
    h: float = Field(description="the step the numerical values use")
    sweep: list[float] = Field(description="the steps h of every sweep, 1e-15 … 1")
    numerical_passes: int = Field(description="forward passes of central differences: 2n")
    symbolic: SymbolicOut
    numerical: list[NumericalOut]
    forward_mode: ForwardModeOut
    costs: CostsOut


@router.post("/api/three-ways", response_model=ThreeWaysResponse)
def post_three_ways(
    body: ThreeWaysRequest, request: Request, pipeline: PipelineDep, answers: AnswersDep
) -> Response:
    """The program's derivatives found symbolically, numerically and in forward mode, beside
    reverse mode's, with what each costs."""

    def answer() -> bytes:
        values = parse_values(body.values) if isinstance(body.values, str) else body.values
        source = preset_source(body.source, body.preset)
        return _answer(pipeline, source, values, body.engine, body.iteration)

    key = Answers.key("three-ways", body.model_dump_json())
    return answered(request, answers, key, answer, "application/json")


def _answer(
    pipeline: Pipeline,
    source: str,
    values: dict[str, float] | None,
    engine_choice: Engine,
    iteration: int | None,
) -> bytes:
    with pipeline.runs.slot():  # as app.pipeline.traced: a learner's outline runs it again
        program = engine.run(source, dict(values or {}), engine_choice, iteration, pipeline.limits)
        shape = engine.outline(program)
    if not shape.nodes:
        raise GradstepError("the program made no value to differentiate", "request")
    found = three_ways(program, shape)  # at most engine.ways.MAX_VALUES: about a second
    if isinstance(found, Missing):
        raise GradstepError(
            f"the three ways replay your engine through gradstep's op table, and one of its "
            f"values cannot be: {found.why}; the stepper shows your own backward pass",
            "unsupported",
        )
    return response(found).model_dump_json().encode()


def _finite(x: float | None) -> float | None:
    return x if x is not None and math.isfinite(x) else None


def response(w: Ways) -> ThreeWaysResponse:
    """The answer's model of ``w``."""
    s, f, c = w.symbolic, w.forward_mode, w.costs
    return ThreeWaysResponse(
        output=w.output,
        value=w.value,
        inputs=[
            InputOut(
                node=i.node,
                name=i.name,
                symbol=i.symbol,
                where=i.where,
                value=i.value,
                reverse=i.reverse,
            )
            for i in w.inputs
        ],
        h=H,
        sweep=list(SWEEP),
        numerical_passes=w.numerical_passes,
        symbolic=SymbolicOut(
            function=s.function,
            function_ops=s.function_ops,
            derivatives=[
                DerivativeOut(
                    input=d.input,
                    text=d.text,
                    cut=d.cut,
                    value=_finite(d.value),
                    written=d.written,
                    shared=d.shared,
                    cse=d.cse,
                    simplified=d.simplified,
                    simplified_ops=d.simplified_ops,
                    simplified_by=d.simplified_by,
                )
                for d in s.derivatives
            ],
            left_out=s.left_out,
            swell=[
                SwellOut(
                    depth=p.depth,
                    node=w.nodes[p.node],
                    nodes=p.nodes,
                    value_ops=p.value_ops,
                    derivative_ops=p.derivative_ops,
                )
                for p in s.swell
            ],
            notes=list(s.notes),
        ),
        numerical=[_numerical(n) for n in w.numerical],
        forward_mode=ForwardModeOut(
            steps=[StepOut(node=st.node, rows=_rows(st.rows)) for st in f.steps],
            kinds=f.kinds,
            passes=[
                PassOut(
                    input=p.input,
                    result=p.result,
                    slots=None if p.slots is None else list(p.slots),
                    tangents=None if p.tangents is None else list(p.tangents),
                )
                for p in f.passes
            ],
            left_out=f.left_out,
        ),
        costs=CostsOut(
            inputs=c.inputs,
            forward=c.forward,
            backward=c.backward,
            tangent_pass=c.tangent_pass,
            forward_mode=c.forward_mode,
            reverse_mode=c.reverse_mode,
            numerical=c.numerical,
            symbolic=c.symbolic,
            ratio=c.ratio,
            bound=CHEAP_GRADIENT_BOUND,
            cheap=c.cheap,
        ),
    )


def _numerical(n: Numerical) -> NumericalOut:
    sweep = n.sweep
    return NumericalOut(
        input=n.input,
        value=_finite(n.value),
        error=_finite(n.error),
        dominant=n.dominant,
        sweep=None
        if sweep is None
        else SweepOut(
            numeric=[_finite(x) for x in sweep.numeric],
            error=[_finite(x) for x in sweep.error],
            best=sweep.best,
        ),
    )


def _rows(rows: tuple[Row, ...]) -> list[list[CellOut]]:
    return [
        [CellOut(role=cell.role, parts=[_part(p) for p in cell.parts]) for cell in row]
        for row in rows
    ]


def _part(p: object) -> str | int | dict[str, object]:
    if isinstance(p, str | int):
        return p
    return {"op": p.op, "of": list(p.of), "to": p.to, "exact": p.exact, "inexact": p.inexact}  # type: ignore[attr-defined]
