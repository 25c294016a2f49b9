"""A class's program, run through the pipeline (app.pipeline.draw) as ``POST /api/graph`` runs
it, with the same limits: a program that would not draw is a 422 before a class has it, and its
layout is then cached for the students' pages. A question's true value is the engine's: the
node's gradient at the end of the backward pass, with the values and iteration on screen."""

from __future__ import annotations

import math
from typing import Any

from app.classroom.model import program_digest
from app.draw.layout import Layout
from app.pipeline import draw
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


def class_program(layout: Layout, source: str, values: dict[str, float]) -> dict[str, Any]:
    """``{"source", "values", "digest", "steps", "iterations"}``: ``steps`` counts each
    phase's steps (a position is checked against it); ``iterations``, a training loop's."""
    drawn = draw(layout, source, values)
    return {
        "source": source,
        "values": drawn.values,
        "digest": program_digest(source, drawn.values),
        "steps": {phase: step_count(drawn.structure, phase) for phase in PHASES},
        "iterations": len(drawn.losses),
    }


def true_gradient(
    layout: Layout, program: dict[str, Any], position: dict[str, Any], node: int
) -> tuple[float, str]:
    """The node's gradient after the backward pass (the true one, for a program's own engine)
    at ``position``'s values and iteration, and how the node's grad is written (``x1.grad``)."""
    values = {**program["values"], **position["values"]}
    drawn = draw(layout, program["source"], values, iteration=position["iteration"])
    nodes = drawn.structure.nodes
    if not 0 <= node < len(nodes):
        raise GradstepError(
            f"node: the class's program has no node {node} (its nodes are 0 to {len(nodes) - 1})",
            "request",
        )
    numbers = drawn.numbers
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
