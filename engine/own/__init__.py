"""A learner's own autograd engine, as their code ran it (docs/design.md, "The learner's own
engine"): their backward pass as steps (``backward``), the true gradient found without their
backward (``truth``), and where their gradients go wrong (``findings``). The trace
(engine.trace) draws their graph as it draws gradstep's and writes their pass beside the truth.

``study`` gathers what one run of the program shows."""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.limits import RUN_FUEL
from engine.own.backward import Pass, last_pass
from engine.own.findings import Finding, find
from engine.own.truth import Rerun, Truth, truth
from engine.program import Graph, Program


@dataclass(frozen=True, slots=True, eq=False)
class Study:
    walk: Pass
    truth: Truth
    findings: tuple[Finding, ...]
    expected: tuple[float | None, ...]  # per write of their pass: what a correct one leaves


def study(program: Program) -> Study:
    """Everything one run of ``program`` shows about the learner's engine."""
    g = program.graph
    walk = last_pass(g)
    found = truth(g, _rerun(program))
    if not walk.steps:  # no backward pass ran on this graph: there is nothing to find fault with
        return Study(walk, found, (), ())
    replay = find(walk, g.grad, found, g.output, g.backward_def)
    return Study(walk, found, _kept(replay.findings, g), replay.expected)


def _kept(findings: tuple[Finding, ...], graph: Graph) -> tuple[Finding, ...]:
    """The findings about the program's own nodes (not the constants their methods lifted into
    the graph), their causes renumbered; a cause left out leaves its consequences alone."""
    kept = [i for i, f in enumerate(findings) if not graph.constant[f.node]]
    at = {i: k for k, i in enumerate(kept)}
    causes = [findings[i].cause for i in kept]
    return tuple(
        replace(findings[i], cause=None if c is None else at.get(c))
        for i, c in zip(kept, causes, strict=True)
    )


def _rerun(program: Program) -> Rerun:
    """The number of every node of the graph when the program runs again with node ``p``'s
    number moved by ``h`` just after it is made (the same program makes the same objects in the
    same order, seeds included), in the same iteration. The runs share one budget of work."""
    from engine import runner

    g = program.graph
    limits = program.limits
    left = [max(RUN_FUEL // 4, limits.fuel - program.fuel)]
    watch = program.watched

    def rerun(p: int, h: float) -> tuple[float, ...]:
        record = runner.rerun(program.source, program.given, program.engine_choice,
                              (g.made[p], h), replace(limits, fuel=left[0]), watch)  # fmt: skip
        left[0] -= record.fuel
        if record.error is not None:
            raise record.error
        again = runner.pick(program.source, program.given, program.engine_choice, record,
                            program.iteration, limits).graph  # fmt: skip
        data = dict(zip(again.made, again.data, strict=True))
        return tuple(data.get(k, float("nan")) for k in g.made)

    return rerun


__all__ = ["Study", "study"]
