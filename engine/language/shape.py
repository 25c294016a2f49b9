"""Pass 1 of the expression language: the shape of every statement. Refuses each construct
outside the language with a located error, and finds where each name is read and assigned."""

from __future__ import annotations

import ast
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from engine.errors import GradstepError, Span
from engine.ops import FUNCTIONS

BINARY = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div", ast.Pow: "pow"}
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
class Step:
    action: str  # "assign", "augment", "output", "expression"
    name: str | None
    op: str | None  # the op of an augmented assignment
    expr: ast.expr
    span: Span


def spanner(lines: list[str]) -> Callable[[ast.AST], Span]:
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


def describe(name: str) -> str:
    """A name as the user should see it: non-ASCII look-alikes are spelled out."""
    odd = [ch for ch in name if not ch.isascii()]
    if not odd:
        return name
    spelled = ", ".join(f"U+{ord(ch):04X} {unicodedata.name(ch, '?')}" for ch in odd[:3])
    return f"{name} (with {spelled})"


def lookalike(name: str, assigned: Iterable[str]) -> str:
    """A hint when an assigned name looks the same as ``name`` (Cyrillic а for Latin a)."""
    skeleton = name.translate(_HOMOGLYPHS)
    for other in assigned:
        if other != name and other.translate(_HOMOGLYPHS) == skeleton:
            return f" (did you mean {describe(other)}, which looks the same?)"
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


class Checker:
    """Refuses every construct outside the language, and finds the names read before any
    assignment (they must come from ``values``)."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.span = spanner(lines)
        self.assigned: dict[str, Span] = {}
        self.free: dict[str, Span] = {}  # read before any assignment, in order of appearance
        self.early: dict[str, Span] = {}  # read first, assigned later

    def check(self, tree: ast.Module) -> list[Step]:
        plan: list[Step] = []
        for stmt in tree.body:
            step = self._statement(stmt)
            if step is not None:
                plan.append(step)
        for name, span in self.early.items():
            raise GradstepError(
                f"{describe(name)} is used on line {span.line} before it is assigned "
                f"on line {self.assigned[name].line}",
                kind="name",
                span=span,
            )
        return plan

    def _statement(self, stmt: ast.stmt) -> Step | None:
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
            op = BINARY.get(type(stmt.op))
            if not isinstance(target, ast.Name) or op is None:
                raise _unsupported(stmt, span, "this augmented assignment")
            self._name(target, self.span(target))
            self._load(target.id, self.span(target))
            self._walk(stmt.value)
            self._store(target.id, span)
            return Step("augment", target.id, op, stmt.value, span)
        raise _unsupported(stmt, span)

    def _expression_statement(self, stmt: ast.Expr, span: Span) -> Step | None:
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
                return Step("output", None, None, call.func.value, span)
        self._walk(call)
        return Step("expression", None, None, call, span)

    def _assignment(self, stmt: ast.Assign, span: Span) -> Step | None:
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
        return Step("assign", target.id, None, stmt.value, span)

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
        if kind is ast.BinOp and type(node.op) in BINARY:  # type: ignore[attr-defined]
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
            if type(node.op) not in BINARY:
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
                    f"unknown function {describe(func.id)}; the functions are "
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
