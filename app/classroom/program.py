"""A class's program, run and traced as ``POST /api/graph`` runs and traces it (through
``app.pipeline.traced``: the pipeline's gate of runs, its runs' limits, its structures kept) and
never laid out. A class needs each phase's steps (a position is checked against them) and, for
a question, a node's true gradient, not a picture: each student's page asks ``POST /api/graph``
for its own. A program is refused as ``POST /api/graph`` refuses it before its layout: its own
errors, the values' limits, a gradient its backward pass cannot take, a graph too large to draw
(``MAX_DRAWN_VALUES``, as the default fold shows it). A graph that Graphviz then fails on within
its time or memory limit is refused to the pages that draw it, not to the class.

A question's true value is the engine's: the node's gradient at the end of the backward pass,
with the values and iteration on screen."""

from __future__ import annotations

import math

from app.classroom.model import program_digest
from app.classroom.state import ClassProgram, Position
from app.draw.dot import check_drawable
from app.draw.fold import fold_view, folded_calls
from app.pipeline import Pipeline, traced
from app.query import MAX_VALUES, parse_values
from engine.errors import GradstepError
from engine.steps import Phase, step_count

PHASES: tuple[Phase, ...] = ("forward", "backward", "update")


def given_values(values: dict[str, float] | str | None) -> dict[str, float]:
    """Input values as a request gives them: an object of numbers, or a URL's ``values`` text."""
    if isinstance(values, str):
        return parse_values(values) or {}
    if values is not None and len(values) > MAX_VALUES:
        raise GradstepError(
            f"values: {len(values):,} values is more than the {MAX_VALUES:,} allowed", "request"
        )
    return dict(values or {})


def class_program(pipeline: Pipeline, source: str, values: dict[str, float]) -> ClassProgram:
    """The program as a class keeps it: ``steps`` counts each phase's steps, ``iterations`` a
    training loop's."""
    ran = traced(pipeline, source, values)
    # the fold POST /api/graph draws by default ("auto") decides how many values are drawn
    check_drawable(len(set(fold_view(ran.outline, folded_calls(ran.outline, "auto")).units)))
    structure = ran.trace.structure
    return {
        "source": source,
        "values": values,
        "digest": program_digest(source, values),
        "steps": {phase: step_count(structure, phase) for phase in PHASES},
        "iterations": len(ran.program.losses),
    }


def true_gradient(
    pipeline: Pipeline, program: ClassProgram, position: Position, node: int
) -> tuple[float, str]:
    """The node's gradient after the backward pass (the true one, for a program's own engine)
    at ``position``'s values and iteration, and how the node's grad is written (``x1.grad``)."""
    values = {**program["values"], **position["values"]}
    trace = traced(pipeline, program["source"], values, iteration=position["iteration"]).trace
    nodes = trace.structure.nodes
    if not 0 <= node < len(nodes):
        raise GradstepError(
            f"node: the class's program has no node {node} (its nodes are 0 to {len(nodes) - 1})",
            "request",
        )
    numbers = trace.numbers
    grad = numbers.true_grad[node] if numbers.true_grad else numbers.grad[node]
    name = nodes[node].grad_name
    if grad is None:
        raise GradstepError(
            f"node: {nodes[node].name} is a constant and takes no gradient: ask about an input or "
            "a value computed from one",
            "request",
        )
    if not math.isfinite(grad):
        raise GradstepError(f"node: {name} is {grad}: ask about a finite gradient", "request")
    return grad, name
