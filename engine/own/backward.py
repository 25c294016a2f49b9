"""A learner's backward pass as their code ran it: the writes to their nodes' gradients after
the output was made, from the last seed (the output's gradient set outside any ``_backward``)
on, as steps in the order they happened: the seed, each call of a node's kept function
(``node._backward()``) with the writes made while it ran, and the writes made outside such a
call, a step per statement."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from engine.errors import Span
from engine.language.objects.kinds import Function
from engine.language.record.learner import OwnProgram
from engine.language.record.watch import Write
from engine.own.graph import OwnGraph, number


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


def last_pass(program: OwnProgram, graph: OwnGraph, span_of: Callable[[Function], Span]) -> Pass:
    """The last pass, as steps; ``span_of``: where a kept function is written."""
    writes, calls = program.watch.writes, program.watch.calls
    grad, out = graph.fields.grad, program.output
    made = graph.born[graph.ids[out]]
    while made < len(writes) and writes[made].instance is out and writes[made].before is None:
        made += 1  # the output's own __init__: attributes it sets for the first time
    seeds = [k for k in range(made, len(writes)) if _seed(writes[k], out, grad)]
    start = seeds[-1] if seeds else made
    events: list[tuple[int, int, int]] = []  # (write index, 0 call / 1 statement, which)
    for c, call in enumerate(calls):
        if call.parent is None and call.first >= start:
            events.append((call.first, 0, c))
    k = start
    while k < len(writes):
        if writes[k].call is None:
            events.append((k, 1, k))
            span = writes[k].span
            while k < len(writes) and writes[k].call is None and writes[k].span == span:
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
            owner = graph.ids.get(call.owner)
            found = _grad_writes(writes[first:end], graph, begun, written)
            if owner is not None and (found or graph.parents[owner]):
                fspan = span_of(call.function)
                steps.append(Step("call", owner, found, call.span, fspan, call.attr))
            continue
        span, group = writes[first].span, []
        for w in writes[first:]:
            if w.call is not None or w.span != span:
                break
            group.append(w)
        found = _grad_writes(group, graph, begun, written)
        if found:
            steps.append(Step("seed" if first in seeds else "direct", found[0].node, found))
    began = None
    if seeds:
        seed = writes[seeds[-1]]
        began, record = seed.span, seed.record
        while record is not None:  # up to the top level: where the program called backward()
            began, record = record.span, record.parent
    return Pass(tuple(steps), tuple(begun), len(seeds), began)


def _seed(w: Write, out: object, grad: str) -> bool:
    """The output's gradient set outside any kept function: where a backward pass begins."""
    return w.instance is out and w.attr == grad and w.call is None


def _grad_writes(
    writes: Iterable[Write], graph: OwnGraph, begun: list[float], written: set[int]
) -> tuple[GradWrite, ...]:
    """The writes to the graph's gradients among ``writes``; the first write of each node
    tells what its gradient held when the pass began."""
    out = []
    for w in writes:
        i = graph.ids.get(w.instance)
        if i is None or w.attr != graph.fields.grad or not number(w.after):
            continue
        before = float(w.before) if number(w.before) else 0.0  # type: ignore[arg-type]
        if i not in written:
            begun[i] = before
            written.add(i)
        out.append(GradWrite(i, before, float(w.after), w.span, w.augmented))  # type: ignore[arg-type]
    return tuple(out)
