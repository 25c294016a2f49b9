"""Three ways to differentiate a program, side by side (issue 43; seed 002, sections 28.1-28.3
and exercise 28.6): symbolically (``symbolic``: SymPy expressions built from the graph, their
size and its swell with depth), numerically (``numerical``: central differences and their error
against h), in forward mode (``tangents``: a tangent pass per input, step by step) beside
reverse mode's one backward pass, and what each costs (``costs``).

``three_ways`` takes a traced program (its run and outline, as app.pipeline.traced makes them)
and rebuilds its graph as gradstep's values (``replay``), so a learner's own engine is shown
where its ops are the op table's, and says what is not shown otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import GradstepError
from engine.program import Program
from engine.trace.outline import Outline
from engine.ways.costs import Costs, counted
from engine.ways.numerical import Numerical, differences
from engine.ways.replay import Missing, Replayed, rebuild
from engine.ways.symbolic import Symbolic, differentiate
from engine.ways.tangents import ForwardMode, forward_mode

MAX_VALUES = 1_000  # values in a graph shown three ways: each way is shown in full (forward
# mode's steps at every value, a pass per input), about a second of work at this size; the
# lecture's MLP has 402, a 200-layer chain 201, micrograd's demo 3,610


@dataclass(frozen=True, slots=True)
class Input:
    position: int  # in the replayed graph
    node: int  # its node id in the trace
    name: str  # as the graph names it
    symbol: str  # as the expressions write it (a shared name told apart: w[0]₍₃₎)
    where: str  # the calls it was made in, when its name is shared
    value: float
    reverse: float  # reverse mode's gradient: the one backward pass


@dataclass(frozen=True, slots=True)
class Ways:
    output: str
    value: float
    inputs: tuple[Input, ...]
    symbolic: Symbolic
    numerical: tuple[Numerical, ...]
    forward_mode: ForwardMode
    costs: Costs
    numerical_passes: int  # forward passes central differences used at one h: 2n
    nodes: tuple[int | None, ...]  # each replayed position's node id in the trace (swell points)


def three_ways(program: Program, shape: Outline) -> Ways | Missing:
    """Every way of differentiating ``program``'s output by each input, or what stops them;
    GradstepError (limit) for a graph of more than MAX_VALUES values."""
    values = len(program.graph.data)
    if values > MAX_VALUES:
        raise GradstepError(
            f"this graph has {values:,} values; the three ways show a graph of at most "
            f"{MAX_VALUES:,} (each in full: forward mode steps through every value once per input)",
            kind="limit",
        )
    r = rebuild(program, shape)
    if isinstance(r, Missing):
        return r
    return of_replayed(r)


def of_replayed(r: Replayed) -> Ways:
    """The three ways (and reverse mode) on a graph rebuilt as gradstep's values."""
    root = r.root
    root.zero_grad()
    root.backward()
    exact = tuple(float(r.values[k].grad) for k in r.inputs)
    inputs = tuple(
        Input(k, r.nodes[k], r.names[k], symbol, where, r.values[k].data, g)  # type: ignore[arg-type]
        for k, symbol, where, g in zip(r.inputs, r.symbols, r.where, exact, strict=True)
    )
    found = differentiate(r)
    rows, passes = differences(r, exact)
    built = found.written if found.derivatives else None
    return Ways(r.names[-1], root.data, inputs, found, rows, forward_mode(r), counted(r, built),
                passes, r.nodes)  # fmt: skip


__all__ = ["MAX_VALUES", "Missing", "Ways", "three_ways"]
