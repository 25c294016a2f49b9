"""A learner's backward pass as their code ran it: the writes to their nodes' gradients after
the output was made, from the last seed (the output's gradient set outside any ``_backward``)
on, as steps in the order they happened: the seed, each call of a node's kept function
(``node._backward()``) with the writes made while it ran, and the writes made outside such a
call, a step per statement."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.errors import Span
from engine.program import Graph, Write


@dataclass(frozen=True, slots=True)
class GradWrite:
    node: int
    before: float
    after: float
    span: Span
    augmented: bool  # += (the statement added to what the gradient held)


@dataclass(frozen=True, slots=True)
class Step:
    kind: str  # "seed", "call" (a node's kept function ran), "direct" (a statement outside one)
    node: int  # what the step is about: the output, the call's owner, the first node written
    writes: tuple[GradWrite, ...]
    call_span: Span | None = None  # where the kept function was called ("call" steps)
    function_span: Span | None = None  # where it is written ("call" steps)
    attr: str = ""  # the attribute that held it: "_backward"


@dataclass(frozen=True, slots=True)
class Pass:
    steps: tuple[Step, ...]
    start: tuple[float, ...]  # every node's gradient when the pass began
    seeds: int  # how many seeds were written after the output was made (2: backward() twice)
    began: Span | None  # the program's statement that began it (its top-level backward() call)


def last_pass(graph: Graph) -> Pass:
    """The last pass of their backward, as steps (the graph's writes run from when its output
    was made)."""
    writes, calls, out = graph.writes, graph.kept, graph.output
    made = 0
    while made < len(writes) and writes[made].node == out and writes[made].before is None:
        made += 1  # the output's own __init__: attributes it sets for the first time
    seeds = [k for k in range(made, len(writes)) if _seed(writes[k], out)]
    start = seeds[-1] if seeds else made
    events: list[tuple[int, int, int]] = []  # (write index, 0 call / 1 statement, which)
    for c, call in enumerate(calls):
        if call.parent < 0 and call.first >= start:
            events.append((call.first, 0, c))
    k = start
    while k < len(writes):
        if writes[k].kept < 0:
            events.append((k, 1, k))
            span = writes[k].span
            while k < len(writes) and writes[k].kept < 0 and writes[k].span == span:
                k += 1
        else:
            k += 1
    begun = list(graph.grad)  # as at the end, for a node the pass never writes
    written: set[int] = set()
    steps: list[Step] = []
    for first, kind, which in sorted(events):
        if kind == 0:
            call = calls[which]
            end = call.end if call.end >= 0 else len(writes)
            owner = call.owner
            found = _grad_writes(writes[first:end], begun, written)
            if owner >= 0 and (found or graph.parents[owner]):
                steps.append(Step("call", owner, found, call.span, call.function, call.attr))
            continue
        span, group = writes[first].span, []
        for w in writes[first:]:
            if w.kept >= 0 or w.span != span:
                break
            group.append(w)
        found = _grad_writes(group, begun, written)
        if found:
            steps.append(Step("seed" if first in seeds else "direct", found[0].node, found))
    began = writes[seeds[-1]].top if seeds else None  # where the program called backward()
    return Pass(tuple(steps), tuple(begun), len(seeds), began)


def _seed(w: Write, out: int) -> bool:
    """The output's gradient set outside any kept function: where a backward pass begins."""
    return w.node == out and w.kept < 0


def _grad_writes(
    writes: Iterable[Write], begun: list[float], written: set[int]
) -> tuple[GradWrite, ...]:
    """The writes as steps hold them; the first write of each node tells what its gradient
    held when the pass began."""
    out = []
    for w in writes:
        before = w.before if w.before is not None else 0.0
        if w.node not in written:
            begun[w.node] = before
            written.add(w.node)
        out.append(GradWrite(w.node, before, w.after, w.span, w.augmented))
    return tuple(out)
