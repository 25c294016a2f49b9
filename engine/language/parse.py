"""The expression language: a safe Python subset, read with the ``ast`` module, built into a
Value graph through the op table. User text is parsed, never evaluated, compiled or imported.

Three passes, each before the more expensive one: limits on the raw text and ``ast.parse``
(``source_text``), the shape of every statement, which also finds where each name is
read and assigned (``shape``), then the evaluation that builds the graph (here).
"""

from __future__ import annotations

import ast
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engine.errors import GradstepError, Span
from engine.language.shape import BINARY, Checker, Step, describe, lookalike
from engine.language.source_text import LINE_BREAK, check_text, check_values, read_tree
from engine.limits import MAX_NODES
from engine.ops import OPS
from engine.value import Value, apply, constant

_SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


@dataclass(frozen=True, slots=True)
class Program:
    """A parsed program: its graph, its named inputs (the browser's sliders) and where each value
    came from in the source."""

    source: str
    output: Value
    inputs: dict[str, Value]  # input label → leaf, in order of appearance ("a", "c₁", ...)
    spans: dict[Value, Span]  # the source text that made each value
    labels: dict[Value, str]  # each value's display label: its name, number or source text


def parse(source: str, values: Mapping[str, float] | None = None) -> Program:
    """Turn ``source`` into a Value graph; ``values`` replaces or supplies input values by name."""
    if not isinstance(source, str):
        raise GradstepError(f"the source must be text, not {type(source).__name__}", kind="type")
    given = check_values(values or {})
    check_text(source)
    tree = read_tree(source)
    lines = LINE_BREAK.split(source)  # Python's line breaks only, not str.splitlines()'s
    checker = Checker(lines)
    plan = checker.check(tree)
    builder = _Builder(checker, given)
    builder.run(plan, checker.free, checker.assigned)
    return builder.program(source)


_Operand = tuple[Value | float, Span]  # a value, or a number not yet in the graph, and its source


class _Builder:
    def __init__(self, checker: Checker, given: dict[str, float]) -> None:
        self.lines = checker.lines
        self.span = checker.span  # one cache of spans for both passes
        self.checker = checker
        self.given = given
        self.bindings: dict[str, Value] = {}  # a name's current value
        self.rebinds: dict[str, int] = {}
        self.inputs: dict[str, Value] = {}
        self.spans: dict[Value, Span] = {}
        self.labels: dict[Value, str] = {}
        self.nodes = 0
        self.output: Value | None = None
        self.last: Value | float | None = None
        self.last_span: Span | None = None

    def run(self, plan: list[Step], free: dict[str, Span], assigned: Iterable[str]) -> None:
        self.assigned = tuple(assigned)
        missing = [(name, span) for name, span in free.items() if name not in self.given]
        if missing:  # one error listing every name
            names = ", ".join(
                describe(name) + lookalike(name, self.assigned) for name, _ in missing
            )
            plural = "s have" if len(missing) > 1 else " has"
            raise GradstepError(
                f"no value for {names}: the name{plural} never been assigned "
                "(assign a number, as in x = 2.0, or give a value)",
                kind="name",
                span=missing[0][1],
            )
        for step in plan:
            self._step(step)

    def _step(self, step: Step) -> None:
        if step.action == "output":
            result = self._evaluate(step.expr)
            if not isinstance(result, Value):
                raise GradstepError(
                    ".backward() needs a value computed from inputs, not a plain number",
                    kind="type",
                    span=step.span,
                )
            self.output = result
            return
        if step.action == "expression":
            self.last, self.last_span = self._evaluate(step.expr), step.span
            return
        assert step.name is not None
        result = self._evaluate(step.expr)
        if step.action == "augment":
            assert step.op is not None
            current = self.bindings[step.name]
            operands = ((current, step.span), (result, self.span(step.expr)))
            result = self._apply(step.op, operands, step.span)
        self._bind(step.name, result, step.span)
        self.last, self.last_span = self.bindings[step.name], step.span

    def _label(self, name: str) -> str:
        n = self.rebinds.get(name, 0)
        self.rebinds[name] = n + 1
        return name if n == 0 else f"{name}{str(n).translate(_SUBSCRIPTS)}"

    def _bind(self, name: str, result: Value | float, span: Span) -> None:
        if isinstance(result, float):  # a name assigned a number is an input
            label = self._label(name)
            result = self._leaf(self.given.get(label, result), span, label)
        elif result.label is None and not result.constant:
            label = self._label(name)
            result.label = label
            self.labels[result] = label
            if result.op is None:  # Value(2.0): an input, named here
                self.inputs[label] = result
                if label in self.given:
                    result.data = self.given[label]
        self.bindings[name] = result

    def _leaf(self, x: float, span: Span, label: str | None) -> Value:
        self._count(span)
        v = Value(x, label=label)
        self.spans[v] = span
        if label is not None:
            self.inputs[label] = v
            self.labels[v] = label
        return v

    def _count(self, span: Span) -> None:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise GradstepError(
                f"the graph has more than {MAX_NODES:,} values", kind="limit", span=span
            )

    def _text(self, span: Span) -> str:
        text = self.lines[span.line - 1][span.column - 1 : span.end_column - 1].strip()
        return text if len(text) <= 24 else text[:23] + "…"

    def _constant(self, x: Value | float, span: Span) -> Value:
        if isinstance(x, Value):
            return x
        self._count(span)
        v = constant(x)
        self.spans[v] = span
        return v

    def _apply(self, name: str, operands: tuple[_Operand, ...], span: Span) -> Value | float:
        op = OPS[name]
        try:
            if not any(isinstance(x, Value) for x, _ in operands):
                return apply(op, tuple(x for x, _ in operands)).data  # numbers fold, as in Python
            values = tuple(self._constant(x, where) for x, where in operands)
            self._count(span)
            v = apply(op, values)
        except GradstepError as e:
            raise e.at(span) from None
        self.spans[v] = span
        return v

    def _evaluate(self, root: ast.expr) -> Value | float:
        """Post-order over the expression with an explicit stack: no recursion."""
        results: list[_Operand] = []
        stack: list[tuple[ast.expr, int]] = [(root, -1)]
        while stack:
            node, count = stack.pop()
            if count < 0:
                children = self.checker.children(node)
                stack.append((node, len(children)))
                stack.extend((child, -1) for child in reversed(children))
                continue
            operands = results[len(results) - count :]
            del results[len(results) - count :]
            results.append((self._combine(node, operands), self.span(node)))
        return results[0][0]

    def _combine(self, node: ast.expr, operands: list[_Operand]) -> Value | float:
        span = self.span(node)
        if isinstance(node, ast.Constant):
            return _number(node.value, span)
        if isinstance(node, ast.Name):
            return self._lookup(node.id, span)
        if isinstance(node, ast.BinOp):
            return self._apply(BINARY[type(node.op)], tuple(operands), span)
        if isinstance(node, ast.UnaryOp):
            if isinstance(node.op, ast.UAdd):
                return operands[0][0]
            return self._apply("neg", tuple(operands), span)
        assert isinstance(node, ast.Call)
        func = node.func
        if isinstance(func, ast.Name) and func.id == "Value":
            ((x, _),) = operands
            if isinstance(x, Value):
                raise GradstepError(
                    "Value() takes a number, not a value computed from others",
                    kind="type",
                    span=span,
                )
            label = next((kw.value.value for kw in node.keywords), None)  # type: ignore[attr-defined]
            leaf = self._leaf(x, span, None)
            if label:
                self.labels[leaf] = label
            return leaf
        name = func.id if isinstance(func, ast.Name) else func.attr  # type: ignore[attr-defined]
        return self._apply(name, tuple(operands), span)

    def _lookup(self, name: str, span: Span) -> Value:
        if name not in self.bindings:  # a free name: its value was given (checked up front)
            self._bind(name, self.given[name], span)
        return self.bindings[name]

    def program(self, source: str) -> Program:
        output = self.output
        if output is None:
            if self.last is None:
                raise GradstepError(
                    "the program computes nothing: write an expression such as y = a * b + c",
                    kind="syntax",
                    span=Span(1, 1, 2),
                )
            if not isinstance(self.last, Value):
                raise GradstepError(
                    "the program computes only a plain number: assign numbers to names "
                    "(x = 2.0) so that there is something to differentiate",
                    kind="type",
                    span=self.last_span,
                )
            output = self.last
        unknown = [name for name in self.given if name not in self.inputs]
        if unknown:
            names = ", ".join(repr(n) for n in unknown)
            known = ", ".join(self.inputs) or "none"
            raise GradstepError(
                f"values given for {names}, which {'is' if len(unknown) == 1 else 'are'} "
                f"not an input of this program (its inputs: {known})",
                kind="name",
            )
        return Program(source, output, self.inputs, self.spans, self.labels)


def _number(value: object, span: Span) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        found = "a string" if isinstance(value, str) else repr(value)
        raise GradstepError(
            f"{found} is not a number (strings are only for label='...')",
            kind="type" if not isinstance(value, str) else "unsupported",
            span=span,
        )
    try:
        x = float(value)
    except OverflowError:
        raise GradstepError("this number is too large for a float", "overflow", span) from None
    if not math.isfinite(x):
        raise GradstepError("this number is too large for a float", "overflow", span)
    return x
