"""The expression language: a safe Python subset, read with the ``ast`` module, built into a
Value graph through the op table. User text is parsed, never evaluated, compiled or imported.

Three passes, each before the more expensive one: limits on the raw text (``engine.limits``),
a check of every statement's shape that also finds where each name is read and assigned, then
the evaluation that builds the graph.
"""

from __future__ import annotations

import ast
import io
import math
import re
import tokenize
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from engine.errors import GradstepError, Span
from engine.limits import MAX_DEPTH, MAX_NODES, MAX_OPERATORS, MAX_SOURCE_CHARS
from engine.ops import FUNCTIONS, OPS
from engine.value import Value, apply, constant

_BINARY = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div", ast.Pow: "pow"}
_OPENING = frozenset("([{")
_CLOSING = frozenset(")]}")
_NOT_OPERATORS = frozenset("( ) [ ] { } , ; : = += -= *= /= **= //= %= @= &= |= ^= >>= <<=".split())
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
# Characters that reorder or hide text ("Trojan Source"): refused even inside comments.
_INVISIBLE = frozenset(
    "\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff"
)
# Cyrillic and Greek letters drawn like Latin ones: a small stand-in for Unicode's confusables.
_HOMOGLYPHS = str.maketrans(
    "аеорсухіјѕԁАВЕКМНОРСТХІЈЅοαικνρτυχΑΒΕΖΗΙΚΜΝΟΡΤΥΧ",
    "aeopcyxijsdABEKMHOPCTXIJSoaikvptuxABEZHIKMNOPTYX",
)
_FOUND = {
    ast.Subscript: "a subscript",
    ast.Lambda: "a lambda",
    ast.ListComp: "a list comprehension",
    ast.SetComp: "a set comprehension",
    ast.DictComp: "a dict comprehension",
    ast.GeneratorExp: "a generator expression",
    ast.Compare: "a comparison",
    ast.BoolOp: "and/or",
    ast.IfExp: "a conditional expression",
    ast.List: "a list",
    ast.Tuple: "a tuple",
    ast.Dict: "a dict",
    ast.Set: "a set",
    ast.JoinedStr: "an f-string",
    ast.NamedExpr: "the := operator",
    ast.Starred: "a starred argument",
    ast.Await: "await",
    ast.Yield: "yield",
    ast.YieldFrom: "yield",
    ast.Slice: "a slice",
    ast.If: "an if statement",
    ast.For: "a for loop",
    ast.While: "a while loop",
    ast.FunctionDef: "a function definition",
    ast.AsyncFunctionDef: "a function definition",
    ast.ClassDef: "a class definition",
    ast.Return: "return",
    ast.Delete: "del",
    ast.With: "a with statement",
    ast.Try: "a try statement",
    ast.Raise: "raise",
    ast.Assert: "assert",
    ast.Global: "global",
    ast.Nonlocal: "nonlocal",
    ast.AnnAssign: "an annotated assignment",
}


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
    given = _check_values(values or {})
    _check_text(source)
    tree = _parse_tree(source)
    lines = _LINE_BREAK.split(source)  # Python's line breaks only, not str.splitlines()'s
    checker = _Checker(lines)
    plan = checker.check(tree)
    builder = _Builder(checker, given)
    builder.run(plan, checker.free, checker.assigned)
    return builder.program(source)


# ── pass 0: the raw text ─────────────────────────────────────────────────────────────────────


def _check_values(values: Mapping[str, float]) -> dict[str, float]:
    if not isinstance(values, Mapping):
        raise GradstepError("values must map input names to numbers", kind="type")
    checked: dict[str, float] = {}
    for name, x in values.items():
        if not isinstance(name, str):
            raise GradstepError(f"an input name must be text, not {name!r}", kind="type")
        if isinstance(x, bool) or not isinstance(x, (int, float)):
            raise GradstepError(f"the value of {name} must be a number, not {x!r}", kind="type")
        try:
            f = float(x)
        except OverflowError:
            raise GradstepError(f"the value of {name} is too large", kind="overflow") from None
        if not math.isfinite(f):
            raise GradstepError(f"the value of {name} must be a finite number, not {f}")
        checked[name] = f
    return checked


def _position(source: str, index: int) -> Span:
    """The span from character ``index`` to the end of its line."""
    line = source.count("\n", 0, index) + 1
    start = source.rfind("\n", 0, index) + 1
    end = source.find("\n", index)
    end = len(source) if end < 0 else end
    return Span(line, index - start + 1, max(end - start, index - start + 1) + 1)


def _check_text(source: str) -> None:
    if len(source) > MAX_SOURCE_CHARS:
        raise GradstepError(
            f"the program has {len(source):,} characters; the limit is {MAX_SOURCE_CHARS:,}",
            kind="limit",
            span=_position(source, MAX_SOURCE_CHARS),
        )
    for i, ch in enumerate(source):
        if ch == "\x00" or ch in _INVISIBLE or (ch >= "\ud800" and ch <= "\udfff"):
            name = unicodedata.name(ch, "a control character")
            span = _position(source, i)
            raise GradstepError(
                f"invisible character U+{ord(ch):04X} ({name}) at line {span.line}, "
                f"column {span.column}: delete it",
                kind="syntax",
                span=Span(span.line, span.column, span.column + 1),
            )
    _check_nesting(source)


def _check_nesting(source: str) -> None:
    """Bracket depth and operators per statement, from the tokens: this bounds the depth of the
    syntax tree before ``ast.parse`` (which recurses) ever sees the text."""
    depth = operators = 0
    statement_start: tuple[int, int] = (1, 0)
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type in (tokenize.NEWLINE, tokenize.ENDMARKER) or tok.string == ";":
                operators = 0
                statement_start = tok.end
                continue
            if tok.type != tokenize.OP:
                continue
            if tok.string in _OPENING:
                depth += 1
                if depth > MAX_DEPTH:
                    line, col = tok.start
                    raise GradstepError(
                        f"brackets nest more than {MAX_DEPTH} deep here",
                        kind="limit",
                        span=Span(line, col + 1, col + 2),
                    )
            elif tok.string in _CLOSING:
                depth = max(depth - 1, 0)
            elif tok.string not in _NOT_OPERATORS:
                operators += 1
                if operators > MAX_OPERATORS:
                    line, col = tok.start
                    first = col + 1 if line != statement_start[0] else statement_start[1] + 1
                    raise GradstepError(
                        f"one statement has more than {MAX_OPERATORS} operators: "
                        "split it into several statements",
                        kind="limit",
                        span=Span(line, first, tok.end[1] + 1),
                    )
    except (tokenize.TokenError, SyntaxError):
        pass  # ast.parse reports the same mistake, with a better message


def _parse_tree(source: str) -> ast.Module:
    try:
        return ast.parse(source, mode="exec")
    except SyntaxError as e:
        raise _syntax_error(e, source) from None
    except (RecursionError, MemoryError):
        raise GradstepError(
            "the program nests too deeply to read", kind="limit", span=_position(source, 0)
        ) from None
    except ValueError:  # an integer literal with more digits than Python converts
        raise _too_many_digits(source) from None


def _too_many_digits(source: str) -> GradstepError:
    digits = re.search(r"\d{1000,}", source)
    start = digits.start() if digits else 0
    line = source.count("\n", 0, start) + 1
    column = start - (source.rfind("\n", 0, start) + 1) + 1
    length = len(digits.group()) if digits else 1
    return GradstepError(
        "this number has too many digits", kind="overflow", span=Span(line, column, column + length)
    )


def _syntax_error(e: SyntaxError, source: str) -> GradstepError:
    if "integer string conversion" in str(e.msg):
        return _too_many_digits(source)
    lines = _LINE_BREAK.split(source)
    line = min(max(e.lineno or 1, 1), len(lines))
    text = lines[line - 1]
    column = min(max(e.offset or 1, 1), len(text) + 1)
    end = e.end_offset if e.end_lineno == e.lineno and e.end_offset else column + 1
    end = min(max(end, column + 1), len(text) + 2)
    message = e.msg
    kind = "limit" if "too many nested" in message else "syntax"
    return GradstepError(f"{message} (line {line})", kind=kind, span=Span(line, column, end))


# ── pass 1: the shape of every statement ─────────────────────────────────────────────────────


@dataclass(frozen=True, slots=True)
class _Step:
    action: str  # "assign", "augment", "output", "expression"
    name: str | None
    op: str | None  # the op of an augmented assignment
    expr: ast.expr
    span: Span


def _spanner(lines: list[str]) -> Callable[[ast.AST], Span]:
    ascii_lines = [line.isascii() for line in lines]
    cache: dict[ast.AST, Span] = {}

    def column(line: int, offset: int) -> int:
        """ast gives UTF-8 byte offsets; spans count characters (the same in an ASCII line)."""
        if ascii_lines[line - 1]:
            return offset + 1
        return len(lines[line - 1].encode()[:offset].decode(errors="replace")) + 1

    def span(node: ast.AST) -> Span:
        found = cache.get(node)
        if found is None:
            line = min(node.lineno, len(lines))  # type: ignore[attr-defined]
            start = column(line, node.col_offset)  # type: ignore[attr-defined]
            if node.end_lineno == node.lineno and node.end_col_offset is not None:  # type: ignore[attr-defined]
                end = column(line, node.end_col_offset)  # type: ignore[attr-defined]
            else:  # a span is one line: to the end of the first
                end = len(lines[line - 1]) + 1
            found = cache[node] = Span(line, start, max(end, start + 1))
        return found

    return span


def _describe(name: str) -> str:
    """A name as the user should see it: non-ASCII look-alikes are spelled out."""
    odd = [ch for ch in name if not ch.isascii()]
    if not odd:
        return name
    spelled = ", ".join(f"U+{ord(ch):04X} {unicodedata.name(ch, '?')}" for ch in odd[:3])
    return f"{name} (with {spelled})"


def _lookalike(name: str, assigned: Iterable[str]) -> str:
    """A hint when an assigned name looks the same as ``name`` (Cyrillic а for Latin a)."""
    skeleton = name.translate(_HOMOGLYPHS)
    for other in assigned:
        if other != name and other.translate(_HOMOGLYPHS) == skeleton:
            return f" (did you mean {_describe(other)}, which looks the same?)"
    return ""


def _unsupported(node: ast.AST, span: Span, what: str | None = None) -> GradstepError:
    found = what or _FOUND.get(type(node), type(node).__name__)
    return GradstepError(
        f"{found} is not supported (line {span.line}); gradstep understands numbers, names, "
        "+ − * / **, function calls such as tanh(x) and x.tanh(), and assignments",
        kind="unsupported",
        span=span,
    )


def _is_dunder(name: str) -> bool:
    return name.startswith("__")


class _Checker:
    """Refuses every construct outside the language, and finds the names read before any
    assignment (they must come from ``values``)."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.span = _spanner(lines)
        self.assigned: dict[str, Span] = {}
        self.free: dict[str, Span] = {}  # read before any assignment, in order of appearance
        self.early: dict[str, Span] = {}  # read first, assigned later

    def check(self, tree: ast.Module) -> list[_Step]:
        plan: list[_Step] = []
        for stmt in tree.body:
            step = self._statement(stmt)
            if step is not None:
                plan.append(step)
        for name, span in self.early.items():
            raise GradstepError(
                f"{_describe(name)} is used on line {span.line} before it is assigned "
                f"on line {self.assigned[name].line}",
                kind="name",
                span=span,
            )
        return plan

    def _statement(self, stmt: ast.stmt) -> _Step | None:
        span = self.span(stmt)
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            modules = [a.name for a in stmt.names] if isinstance(stmt, ast.Import) else []
            if isinstance(stmt, ast.ImportFrom):
                modules = [stmt.module or ""] if stmt.level == 0 else ["."]
            if all(m == "micrograd" or m.startswith("micrograd.") for m in modules):
                return None  # micrograd's own import line: gradstep provides Value
            raise _unsupported(stmt, span, f"import {', '.join(modules)}")
        if isinstance(stmt, ast.Pass):
            return None
        if isinstance(stmt, ast.Expr):
            return self._expression_statement(stmt, span)
        if isinstance(stmt, ast.Assign):
            return self._assignment(stmt, span)
        if isinstance(stmt, ast.AugAssign):
            target = stmt.target
            op = _BINARY.get(type(stmt.op))
            if not isinstance(target, ast.Name) or op is None:
                raise _unsupported(stmt, span, "this augmented assignment")
            self._name(target, self.span(target))
            self._load(target.id, self.span(target))
            self._walk(stmt.value)
            self._store(target.id, span)
            return _Step("augment", target.id, op, stmt.value, span)
        raise _unsupported(stmt, span)

    def _expression_statement(self, stmt: ast.Expr, span: Span) -> _Step | None:
        call = stmt.value
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name):
            if call.func.id == "print":
                return None  # micrograd's print lines: the trace shows every number
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute):
            method = call.func.attr
            if method in ("backward", "zero_grad"):
                if call.args or call.keywords:
                    raise GradstepError(
                        f".{method}() takes no arguments", kind="arity", span=self.span(call)
                    )
                self._walk(call.func.value)
                if method == "zero_grad":
                    return None  # every trace starts from zero grads anyway
                return _Step("output", None, None, call.func.value, span)
        self._walk(call)
        return _Step("expression", None, None, call, span)

    def _assignment(self, stmt: ast.Assign, span: Span) -> _Step | None:
        if len(stmt.targets) != 1:
            raise _unsupported(stmt, span, "chained assignment (a = b = ...)")
        target = stmt.targets[0]
        if (
            isinstance(target, ast.Attribute)
            and target.attr == "label"
            and isinstance(stmt.value, ast.Constant)
            and isinstance(stmt.value.value, str)
        ):
            self._walk(target.value)
            return None  # micrograd's `e.label = 'e'`: gradstep labels values by their names
        if not isinstance(target, ast.Name):
            what = "assigning to an attribute" if isinstance(target, ast.Attribute) else None
            if isinstance(target, ast.Tuple | ast.List):
                what = "unpacking assignment (a, b = ...)"
            raise _unsupported(target, self.span(target), what)
        self._name(target, self.span(target))
        if target.id == "Value":
            raise GradstepError("Value is the engine's, not a name to assign", "name", span)
        self._walk(stmt.value)
        self._store(target.id, span)
        return _Step("assign", target.id, None, stmt.value, span)

    def _name(self, node: ast.Name, span: Span) -> None:
        if _is_dunder(node.id):
            raise _unsupported(node, span, f"the dunder name {node.id}")

    def _load(self, name: str, span: Span) -> None:
        if name in self.assigned:
            return
        self.free.setdefault(name, span)

    def _store(self, name: str, span: Span) -> None:
        self.assigned.setdefault(name, span)
        if name in self.free:
            self.early.setdefault(name, self.free.pop(name))

    def _walk(self, root: ast.expr) -> None:
        stack = [root]
        while stack:
            node = stack.pop()
            stack.extend(reversed(self.children(node)))

    def children(self, node: ast.expr) -> list[ast.expr]:
        """The operands of ``node`` in evaluation order; refuses any other construct."""
        kind = type(node)  # the common cases first, without computing a span
        if kind is ast.BinOp and type(node.op) in _BINARY:  # type: ignore[attr-defined]
            return [node.left, node.right]  # type: ignore[attr-defined]
        if kind is ast.Constant:
            return []
        if kind is ast.Name and node.id in self.assigned:  # type: ignore[attr-defined]
            return []
        return self._checked_children(node, self.span(node))

    def _checked_children(self, node: ast.expr, span: Span) -> list[ast.expr]:
        if isinstance(node, ast.Constant):
            return []
        if isinstance(node, ast.Name):
            self._name(node, span)
            if node.id == "Value":
                raise GradstepError("Value is called, as in Value(2.0)", kind="type", span=span)
            self._load(node.id, span)
            return []
        if isinstance(node, ast.BinOp):
            if type(node.op) not in _BINARY:
                raise _unsupported(node, span, f"the operator {_operator(node.op)}")
            return [node.left, node.right]
        if isinstance(node, ast.UnaryOp):
            if not isinstance(node.op, ast.UAdd | ast.USub):
                raise _unsupported(node, span, f"the operator {_operator(node.op)}")
            return [node.operand]
        if isinstance(node, ast.Call):
            return self._call(node, span)
        if isinstance(node, ast.Attribute):
            what = f"the attribute .{node.attr}"
            raise _unsupported(node, span, f"{what} (only methods such as x.tanh() are)")
        raise _unsupported(node, span)

    def _call(self, node: ast.Call, span: Span) -> list[ast.expr]:
        func = node.func
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                raise _unsupported(arg, self.span(arg))
        if isinstance(func, ast.Name) and func.id == "Value":
            for kw in node.keywords:
                if kw.arg != "label":
                    raise _unsupported(kw, span, f"the keyword argument {kw.arg or '**'}=")
                if not (isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str)):
                    raise GradstepError("label= takes a string", kind="type", span=span)
            if len(node.args) != 1:
                raise GradstepError(
                    f"Value takes one number, as in Value(2.0), not {len(node.args)} arguments",
                    kind="arity",
                    span=span,
                )
            return [node.args[0]]
        if isinstance(func, ast.Name):
            self._name(func, span)
            if func.id not in FUNCTIONS:
                if func.id in ("print", "backward", "zero_grad"):
                    raise _unsupported(node, span, f"{func.id}(...) inside an expression")
                raise GradstepError(
                    f"unknown function {_describe(func.id)}; the functions are "
                    + ", ".join(FUNCTIONS),
                    kind="name",
                    span=self.span(func),
                )
            self._no_keywords(node, span)
            if len(node.args) != 1:
                raise GradstepError(
                    f"{func.id}() takes one argument, not {len(node.args)}",
                    kind="arity",
                    span=span,
                )
            return [node.args[0]]
        if isinstance(func, ast.Attribute):
            if _is_dunder(func.attr) or func.attr not in FUNCTIONS:
                what = f"the method .{func.attr}()"
                if func.attr in ("backward", "zero_grad"):
                    what += " inside an expression"
                raise _unsupported(node, span, what)
            self._no_keywords(node, span)
            if node.args:
                raise GradstepError(
                    f".{func.attr}() takes no arguments, not {len(node.args)}",
                    kind="arity",
                    span=span,
                )
            return [func.value]
        raise _unsupported(node, span, "calling this expression")

    def _no_keywords(self, node: ast.Call, span: Span) -> None:
        if node.keywords:
            kw = node.keywords[0]
            raise _unsupported(kw, span, f"the keyword argument {kw.arg or '**'}=")


def _operator(op: ast.AST) -> str:
    symbols = {
        ast.FloorDiv: "//",
        ast.Mod: "%",
        ast.MatMult: "@",
        ast.BitAnd: "&",
        ast.BitOr: "|",
        ast.BitXor: "^",
        ast.LShift: "<<",
        ast.RShift: ">>",
        ast.Not: "not",
        ast.Invert: "~",
    }
    return symbols.get(type(op), type(op).__name__)


# ── pass 2: build the graph ──────────────────────────────────────────────────────────────────


_Operand = tuple[Value | float, Span]  # a value, or a number not yet in the graph, and its source


class _Builder:
    def __init__(self, checker: _Checker, given: dict[str, float]) -> None:
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

    def run(self, plan: list[_Step], free: dict[str, Span], assigned: Iterable[str]) -> None:
        self.assigned = tuple(assigned)
        missing = [(name, span) for name, span in free.items() if name not in self.given]
        if missing:  # one error listing every name
            names = ", ".join(
                _describe(name) + _lookalike(name, self.assigned) for name, _ in missing
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

    def _step(self, step: _Step) -> None:
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
        else:
            self.labels[v] = self._text(span)
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
        self.labels[v] = f"{x:.6g}"
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
        self.labels[v] = self._text(span)
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
            return self._apply(_BINARY[type(node.op)], tuple(operands), span)
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
