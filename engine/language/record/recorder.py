"""The graph side of running a program: every value is made here, so that each is counted
against the budget and noted with where it was made, in which call, and under which name; and
the events that pick the output (backward(), draw_dot()) and the gradient steps after it. What
it records is what ``parse`` hands to the trace and the app: a ``Program``, its ``Call``s and
the ``DataChange``s made after ``backward()``."""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.errors import GradstepError, Span
from engine.graph import backward, topological_order
from engine.language.budget import Budget
from engine.language.objects.kinds import CallRecord, Frame
from engine.ops import OPS
from engine.value import Value, apply, constant

SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


@dataclass(frozen=True, slots=True)
class Call:
    """One call of a user function, method or class (a Neuron's __call__, MLP(...)'s __init__)
    that created values: the graph can fold it into one box."""

    id: int  # 0.. in the order the calls started
    parent: int | None  # the call it was made in; None: the program's top level
    name: str  # "Neuron" for __call__ and __init__, "Class.method", or the function's name
    span: Span  # where the call is written in the source (the call expression)


@dataclass(frozen=True, slots=True)
class DataChange:
    """A leaf's ``.data`` changed after the output's last ``backward()`` (a gradient step):
    reported, not drawn; the graph keeps ``before``."""

    value: Value
    before: float
    after: float
    span: Span  # the statement that changed it


class TaggedFloat(float):
    """A number a top-level statement assigned by a literal (``x1 = 2.0``), in a program that
    makes values itself: a plain number (range, indexing, its own arithmetic), until it is an
    operand of an op with a value; there it is the input named after its variable, one leaf
    however often it is used (``leaf``)."""

    __slots__ = ("leaf", "name", "span")
    name: str
    span: Span
    leaf: Value | None


class TaggedInt(int):
    """The same for a whole number (``n = 3``), which stays an int: range(n) works."""

    name: str
    span: Span
    leaf: Value | None


Tagged = (TaggedFloat, TaggedInt)


def tag(x: int | float, name: str, span: Span) -> TaggedFloat | TaggedInt:
    t = TaggedInt(x) if isinstance(x, int) else TaggedFloat(x)
    t.name, t.span, t.leaf = name, span, None
    return t


Site = tuple[int, int]  # where a backward() call is written: its line and column


@dataclass(slots=True)
class Pass:
    """The ``backward()`` calls on one graph's output, between those on the previous graph's
    and the next's. The passes made by one ``backward()`` call written in a loop are the loop's
    iterations (the lecture's neuron, then its training loop: one pass, then 20 iterations)."""

    site: Site
    index: int  # how many passes this site made before this one: the iteration's number
    loss: float  # the output's data at its first backward()
    first: int  # the number of events (backward(), draw_dot()) once its first backward() ran
    last: int  # ... once its last one ran
    output: Value | None  # kept while it may be drawn: the newest pass, and the one asked for


@dataclass(frozen=True, slots=True)
class Program:
    """A parsed program: its graph, its named inputs (the browser's sliders) and where each value
    came from in the source."""

    source: str
    output: Value
    inputs: dict[str, Value]  # top-level leaves by name, in order of appearance ("a", "c₁")
    spans: dict[Value, Span]  # the source text that made each value
    labels: dict[Value, str]  # the user's name for a value (label=, variable, attribute)
    calls: tuple[Call, ...]  # calls that created at least one value, directly or nested
    call_of: dict[Value, int]  # the innermost call each value was created in
    updates: tuple[DataChange, ...]
    notes: tuple[str, ...]  # what was skipped that the user should know
    console: tuple[tuple[int, str], ...] = ()  # (line, text) of each line the program printed
    losses: tuple[float, ...] = ()  # a training loop's: the output of each iteration (2 or more)
    iteration: int | None = None  # which of them is drawn (None: not a training loop)


class Recorder:
    def __init__(self, budget: Budget, given: dict[str, float], target: int | None = None) -> None:
        self.budget = budget
        self.target = target  # the iteration to draw (None: the last)
        self.given = given
        self.spans: dict[Value, Span] = {}
        self.call_of: dict[Value, int] = {}
        self.calls: list[Call] = []
        self.named: dict[Value, str] = {}  # the first variable or attribute a value was bound to
        self.named_at_top: set[Value] = set()  # ... when that was at the program's top level
        self.user_labels: dict[Value, str] = {}  # label= and x.label = ...
        self.inputs: dict[str, Value] = {}
        self.events = 0  # backward() and draw_dot() calls so far
        self.current: Value | None = None  # the value of the last of them
        self.passes: list[Pass] = []  # one per iteration of a training loop
        self.made_at: dict[Site, int] = {}  # how many passes each backward() call has made
        self.pinned: set[Value] = set()  # the graph of the iteration asked for, once it is past
        self.changes: list[tuple[int, DataChange]] = []  # .data changes, after how many events
        self.last_serial = -1  # the newest value
        self.last_op_serial = -1  # the newest op result: leaves made after it are unused
        self.statement_start = -1  # the newest value before the current top-level statement

    # Making values ----------------------------------------------------------------------

    def _made(self, v: Value, span: Span, record: CallRecord | None) -> Value:
        self.spans[v] = span
        self.last_serial = v.serial
        if record is not None:
            self.call_of[v] = self._number(record)
        return v

    def leaf(self, x: float, span: Span, record: CallRecord | None) -> Value:
        self._count(span)
        return self._made(Value(x), span, record)

    def tagged(self, x: TaggedFloat | TaggedInt) -> Value:
        """The input a tagged number is, made the first time it meets a value."""
        if x.leaf is None:
            v = x.leaf = self.leaf(float(x), x.span, None)
            self.named[v] = v.label = x.name
            self.named_at_top.add(v)
            self.add_input(v, x.name)
        return x.leaf

    def constant(self, x: float, span: Span, record: CallRecord | None) -> Value:
        self._count(span)
        return self._made(constant(x), span, record)

    def op(
        self, name: str, operands: tuple[Value, ...], span: Span, rec: CallRecord | None
    ) -> Value:
        self._count(span)
        try:
            v = apply(OPS[name], operands)
        except GradstepError as e:
            raise e.at(span) from None
        self.last_op_serial = v.serial
        return self._made(v, span, rec)

    def _count(self, span: Span) -> None:
        try:
            self.budget.value()
        except GradstepError as e:
            raise e.at(span) from None

    def _number(self, record: CallRecord) -> int:
        """The record's Call id, numbering it and its unnumbered callers, outermost first."""
        if record.id is not None:
            return record.id
        chain = []
        current: CallRecord | None = record
        while current is not None and current.id is None:
            chain.append(current)
            current = current.parent
        for r in reversed(chain):
            r.id = len(self.calls)
            parent = r.parent.id if r.parent is not None else None
            self.calls.append(Call(r.id, parent, r.name, r.span))
        assert record.id is not None
        return record.id

    # Names ------------------------------------------------------------------------------

    def name(self, v: Value, name: str, frame: Frame) -> None:
        """``name = v``: the value's name if it has none yet (c, c₁, c₂ when a name is reused),
        or if it has one from inside a call and this is the program's top level (``score =
        model(x)`` names what the neuron called ``act``); at the top level a leaf made by this
        statement and not yet used becomes an input."""
        if v.constant or (v in self.named and (not frame.top or v in self.named_at_top)):
            return
        n = frame.counters.get(name, 0)
        frame.counters[name] = n + 1
        label = name if n == 0 else f"{name}{str(n).translate(SUBSCRIPTS)}"
        self.named[v] = label
        if not frame.top:
            return
        self.named_at_top.add(v)
        if v not in self.user_labels:
            v.label = label
        fresh = v.serial > max(self.statement_start, self.last_op_serial)
        if v.op is None and fresh:
            self.add_input(v, self.user_labels.get(v, label))

    def add_input(self, v: Value, key: str) -> None:
        base, n = key, 0
        while key in self.inputs:
            n += 1
            key = f"{base}{str(n).translate(SUBSCRIPTS)}"
        self.inputs[key] = v
        if key in self.given:
            v.data = self.given[key]

    def name_attribute(self, stored: object, attr: str) -> None:
        """``obj.attr = stored``: a value, or the values of a list or tuple (w[0], w[1], ...)."""
        if isinstance(stored, Value):
            if not stored.constant:
                self.named.setdefault(stored, attr)
        elif isinstance(stored, list | tuple) and attr.count("[") < 2:
            self.budget.bulk(len(stored))
            for i, item in enumerate(stored):
                self.name_attribute(item, f"{attr}[{i}]")

    def set_label(self, v: Value, text: str) -> None:
        self.user_labels[v] = text
        v.label = text

    def labels(self) -> dict[Value, str]:
        named = {**self.named, **self.user_labels}
        return {v: named[v] for v in sorted(named, key=_serial)}

    # Events -----------------------------------------------------------------------------

    def backward(self, v: Value, site: Site) -> bool:
        """``v.backward()``, written at ``site``; True when it begins a new pass (a graph other
        than the last backward()'s: a training loop's next iteration)."""
        try:
            order = backward(v)
        except GradstepError as e:
            raise e.at(self._undefined_at(v)) from None
        self.budget.bulk(len(order))
        self.budget.graph(len(order))
        self.events += 1
        self.current = v
        latest = self.passes[-1] if self.passes else None
        if latest is not None and latest.output is v:
            latest.last = self.events
            return False
        index = self.made_at.get(site, 0)
        self.made_at[site] = index + 1
        self.passes.append(Pass(site, index, v.data, self.events, self.events, v))
        if latest is not None:
            if latest.index == self.target and latest.output is not None:
                self.pinned.update(topological_order(latest.output))  # it may be the one drawn
            else:
                latest.output = None
            self._forget(self.pinned.union(order))
        self.budget.next_graph()
        return True

    def _forget(self, keep: set[Value]) -> None:
        """Let go of the values no graph that may still be drawn holds, so that a long training
        loop keeps one iteration's graph in memory, not all of them (a value the program uses
        again later keeps its name, which is its label, and loses where it was made)."""
        for known in (self.spans, self.call_of, self.named, self.user_labels):
            for v in [v for v in known if v not in keep]:
                del known[v]
        self.named_at_top &= keep

    def zero_grad(self, v: Value) -> None:
        order = topological_order(v)
        self.budget.bulk(len(order))
        for node in order:
            node.grad = 0.0

    def draw(self, v: Value) -> None:
        self.events += 1
        self.current = v

    def _undefined_at(self, root: Value) -> Span | None:
        """The span of the first op, in backward order, whose gradient was not finite."""
        for node in reversed(topological_order(root)):
            if math.isfinite(node.grad) and not all(
                math.isfinite(local * node.grad) for local in node.locals
            ):
                return self.spans.get(node)
        return None

    def set_data(self, v: Value, x: float, span: Span) -> None:
        if v.op is not None or v.constant:
            what = "a constant" if v.constant else "computed by an op from its operands"
            raise GradstepError(
                f"only a leaf's .data can be changed; this value is {what} "
                "(change the leaves it comes from)",
                kind="unsupported",
                span=span,
            )
        before, v.data = v.data, x
        self.changes.append((self.events, DataChange(v, before, x, span)))

    def output(self) -> Value | None:
        """The graph to draw: the iteration asked for, else the last backward()'s or
        draw_dot()'s."""
        if self.target is None:
            return self.current
        loop = self._iterations()
        if not 0 <= self.target < len(loop) or len(loop) < 2:
            count = len(loop)
            raise GradstepError(
                f"this program has no iteration {self.target}: "
                + (f"its loop ran {count} (0 to {count - 1})" if count > 1 else
                   "it has no training loop (a loop that calls backward() on a new graph)"),
                kind="name",
            )  # fmt: skip
        return loop[self.target].output

    def _iterations(self) -> list[Pass]:
        """The passes made where the last one's backward() is written: the training loop's."""
        if not self.passes:
            return []
        site = self.passes[-1].site
        return [p for p in self.passes if p.site == site]

    def losses(self, output: Value) -> tuple[tuple[float, ...], int | None]:
        """A training loop's output at each iteration, and which one ``output`` is: ((), None)
        when the program has no loop or draws some other graph."""
        at = self._pass_of(output)
        loop = self._iterations()
        if len(loop) < 2 or at is None or self.passes[at].site != loop[0].site:
            return (), None
        return tuple(p.loss for p in loop), self.passes[at].index

    def _pass_of(self, output: Value) -> int | None:
        return next(
            (i for i in range(len(self.passes) - 1, -1, -1) if self.passes[i].output is output),
            None,
        )

    def updates(self, output: Value) -> tuple[DataChange, ...]:
        """The .data changes after the output's last backward() (up to the next iteration's
        first), and every later change undone, so that the graph's numbers are those of its
        forward pass."""
        at = self._pass_of(output)
        if at is None:
            return ()
        after = self.passes[at].last
        until = self.passes[at + 1].first if at + 1 < len(self.passes) else self.events + 1
        later = [u for seen, u in self.changes if seen >= after]
        for u in reversed(later):
            u.value.data = u.before
        return tuple(u for seen, u in self.changes if after <= seen < until)


def _serial(v: Value) -> int:
    return v.serial
