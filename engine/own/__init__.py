"""A learner's own autograd engine, as their code ran it (docs/design.md, "The learner's own
engine"): the graph their objects form (``graph``), their backward pass as steps (``backward``),
the true gradient found without their backward (``truth``), where their gradients go wrong
(``findings``), and the trace of it all (``trace``): the same structure and numbers as
gradstep's own engine gives, with the truth and the findings beside their numbers.

``study`` gathers what one run of the program shows; the app keeps structures by ``key``."""

from __future__ import annotations

import ast
from dataclasses import dataclass, replace

from engine.errors import Span
from engine.language import parse
from engine.language.objects.kinds import Function
from engine.language.record.learner import OwnProgram
from engine.language.source import LINE_BREAK, read_program, spanner
from engine.own.backward import Pass, last_pass
from engine.own.findings import Finding, find
from engine.own.graph import OwnGraph, build_graph, number
from engine.own.truth import Truth, truth


@dataclass(frozen=True, slots=True, eq=False)
class Study:
    program: OwnProgram
    graph: OwnGraph
    walk: Pass
    truth: Truth
    findings: tuple[Finding, ...]
    expected: tuple[float | None, ...]  # per write of their pass: what a correct one leaves


def study(program: OwnProgram) -> Study:
    """Everything one run of ``program`` shows about the learner's engine."""
    graph = build_graph(program)
    walk = last_pass(program, graph, _span_of)
    found = truth(graph, _rerun(program, graph))
    root = len(graph.order) - 1
    replay = find(walk, graph.grad, found, root, _backward_def(program))
    return Study(program, graph, walk, found, _kept(replay.findings, graph), replay.expected)


def _kept(findings: tuple[Finding, ...], graph: OwnGraph) -> tuple[Finding, ...]:
    """The findings about the program's own nodes (not the constants gradstep lifted into the
    graph), their causes renumbered; a cause left out leaves its consequences standing alone."""
    kept = [i for i, f in enumerate(findings) if not graph.lifted[f.node]]
    at = {i: k for k, i in enumerate(kept)}
    causes = [findings[i].cause for i in kept]
    return tuple(
        replace(findings[i], cause=None if c is None else at.get(c))
        for i, c in zip(kept, causes, strict=True)
    )


def _span_of(function: Function) -> Span:
    return function.unit.span(function.node)


def _rerun(program: OwnProgram, graph: OwnGraph):  # type: ignore[no-untyped-def]
    """The data of every node of ``graph`` when the program runs with node ``p``'s number moved
    by ``h`` just after it is made (the same program makes the same objects in the same order)."""
    serial = {m.instance: k for k, m in enumerate(program.watch.made)}
    serials = [serial[v] for v in graph.order]
    data = graph.fields.data

    def rerun(p: int, h: float) -> tuple[float, ...]:
        again = parse(program.source, program.given, nudge=(serials[p], h))
        made = again.watch.made if isinstance(again, OwnProgram) else []
        values = []
        for k in serials:
            x = made[k].instance.attrs.get(data) if k < len(made) else None
            values.append(float(x) if number(x) else float("nan"))  # type: ignore[arg-type]
        return tuple(values)

    return rerun


def _backward_def(program: OwnProgram) -> Span | None:
    """Where the program's backward is written (a method or a function named backward): the
    place a missing seed belongs."""
    tree, _ = read_program(program.source)  # it ran: its text is read again without error
    span = spanner(LINE_BREAK.split(program.source))
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "backward":
            return span(node)
    return None


__all__ = ["Study", "study"]
