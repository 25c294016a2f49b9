"""The program's text made ready to run: notebook commands dropped, the page's conventions
written in as Python, and the text split into the pieces that run one after another.

The conventions, each a rewrite of the syntax tree that keeps every line and column where the
learner wrote it, so that CPython's errors and the recorder's places are theirs:

- A program that makes no values itself (no ``Value(...)``, no micrograd import, no class of
  its own with operator methods) is a typed example (``a = 2.0; b = a * a + a``): each number a
  top-level statement outside loops assigns to a name becomes an input, one value for all its
  uses, and a name it uses but never assigns is an input given by the request's values.
- After every assignment to names, the recorder is told the names and what they hold (names of
  values, inputs); after every assignment to ``x.data``, which value changed (a gradient step).
- Every call of ``draw_dot`` tells the recorder what it draws; a module-level ``backward``
  function is watched like a ``backward`` method.
- With ``engine="gradstep"`` (the page's engine switch) the program's own value class is left
  out and its name bound to gradstep's ``Value``.

Nothing here runs the program: ``prepare`` reads and rewrites, the harness runs the pieces.
"""

from __future__ import annotations

import ast
import base64
import builtins
import marshal
import re
from dataclasses import dataclass, field, fields
from types import CodeType
from typing import Any

LINE_BREAK = re.compile(r"\r\n|\r|\n")  # Python's line breaks (not str.splitlines()'s)
HOOK = "__gradstep__"  # the recorder, as the rewritten program names it
CELL = re.compile(r"^#\s*%%")  # a cell's first line in a notebook pasted as text (# %%)
_COMMAND = re.compile(r"^(\s*)([%!])(.*)$")
# Operator methods: a class that defines one (or has one set on it) is the program's own engine.
OPERATORS = frozenset(
    f"__{name}__"
    for base in ("add", "sub", "mul", "truediv", "pow", "floordiv", "mod", "matmul")
    for name in (base, f"r{base}")
) | {"__neg__"}
OP_FUNCTIONS = ("exp", "log", "tanh", "relu", "sigmoid", "sin", "cos", "sqrt")
MATH_CONSTANTS = ("pi", "e", "tau")
BUILTIN_NAMES = frozenset(dir(builtins)) | {"Value", "draw_dot", "trace", *OP_FUNCTIONS, HOOK}


@dataclass(slots=True)
class Prepared:
    """What the harness runs, and what the reading found."""

    # (first line, code, the names it binds at the top level)
    pieces: list[tuple[int, CodeType, frozenset[str]]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    typed: bool = False  # a typed example: its numbers are inputs
    free: list[tuple[str, int, int, int]] = field(default_factory=list)  # name, line, col, end
    stored: frozenset[str] = frozenset()  # ...and the names it binds (a look-alike's hint)
    engine_classes: list[str] = field(default_factory=list)  # top-level classes with operators
    # the statements that assign attributes, by the place of each target (line, column):
    # the statement's span (line, column, end column) and whether it is augmented (+=)
    statements: dict[tuple[int, int], tuple[tuple[int, int, int], bool]] = field(
        default_factory=dict
    )
    # an operation's span -> the spans of its operands that are numbers written out (a
    # constant's place: the 3 of a**3), None for the others
    operands: dict[tuple[int, int, int], tuple[tuple[int, int, int] | None, ...]] = field(
        default_factory=dict
    )
    switched: str | None = None  # the class gradstep's Value stands in for (engine="gradstep")


def dumps(ready: Prepared) -> str:
    """``ready`` as text the host can keep and send back (marshal: code objects included)."""
    parts = tuple(getattr(ready, f.name) for f in fields(Prepared))
    return base64.b64encode(marshal.dumps(parts)).decode("ascii")


def loads(text: str) -> Prepared:
    return Prepared(*marshal.loads(base64.b64decode(text)))


class ProgramSyntaxError(Exception):
    """The text is not Python: CPython's message and place (1-based, columns in characters)."""

    def __init__(self, message: str, line: int, column: int, end: int) -> None:
        super().__init__(message)
        self.message, self.line, self.column, self.end = message, line, column, end


def prepare(source: str, engine: str, plain: bool = False) -> Prepared:
    out = Prepared()
    text = _without_commands(source, out.notes)
    try:
        tree = ast.parse(text, "<program>")
    except SyntaxError as e:  # IndentationError too
        line = e.lineno or 1
        column = e.offset or 1
        end = e.end_offset if e.end_lineno == e.lineno and e.end_offset else column + 1
        raise ProgramSyntaxError(f"{type(e).__name__}: {e.msg}", line, column, end) from None
    except (ValueError, RecursionError, MemoryError) as e:  # NUL bytes, nesting too deep
        raise ProgramSyntaxError(f"{type(e).__name__}: {e}", 1, 1, 2) from None
    out.engine_classes = _engine_classes(tree)
    if engine == "gradstep" and out.engine_classes:
        out.switched = out.engine_classes[0]
        tree.body = _without_class(tree.body, out.switched)
        out.notes.append(
            f"your class {out.switched} was left out: gradstep's own Value built this graph"
        )
    facts = _Facts(tree)  # one walk of the tree: what every rewrite below needs to know
    out.typed = not plain and not facts.makes_values and out.switched is None
    if out.typed:
        out.free = facts.free()
        out.stored = frozenset(facts.stored)
        _Inputs(facts.counted).visit(tree)
    if not plain:  # a plain run (a benchmark's) is the program as written
        hooks = _Hooks(LINE_BREAK.split(text))
        out.operands = hooks.operands(facts.operations)
        hooks.run(tree, facts.drawings)
        out.statements = hooks.statements
    out.pieces = _pieces(tree, text, facts.bound)
    return out


def library(text: str, filename: str) -> CodeType:
    """A module gradstep runs beside the program (its micrograd.nn), with only the hooks that
    name the values its functions bind (``act`` in a neuron, as in the learner's own code)."""
    tree = ast.parse(text, filename)
    tree.body = _Hooks(LINE_BREAK.split(text))._block(tree.body, top=False, loop=False)
    return compile(tree, filename, "exec")


def _without_commands(source: str, notes: list[str]) -> str:
    """Notebook commands (``%matplotlib inline``, ``!pip install``) are not Python: each becomes
    ``pass`` on its line, so every other line keeps its number."""
    lines = LINE_BREAK.split(source)
    for i, line in enumerate(lines):
        m = _COMMAND.match(line)
        if m is not None:
            lines[i] = f"{m[1]}pass"
            word = (m[2] + m[3]).strip().split(" ")[0][:40]
            notes.append(f"line {i + 1}: {word} is a notebook command: skipped")
    return "\n".join(lines)


def _engine_classes(tree: ast.Module) -> list[str]:
    """Top-level classes that define operator methods, or have one set on them later."""
    names = []
    for stmt in tree.body:
        if isinstance(stmt, ast.ClassDef) and any(
            isinstance(d, ast.FunctionDef) and d.name in OPERATORS for d in stmt.body
        ):
            names.append(stmt.name)
        elif isinstance(stmt, ast.Assign):
            for t in stmt.targets:
                if _patched(t) and t.value.id not in names:  # type: ignore[attr-defined]
                    names.append(t.value.id)  # type: ignore[attr-defined]
    return names


def _patched(target: ast.expr) -> bool:
    return (
        isinstance(target, ast.Attribute)
        and target.attr in OPERATORS
        and isinstance(target.value, ast.Name)
    )


def _without_class(body: list[ast.stmt], name: str) -> list[ast.stmt]:
    """``body`` without ``class name`` and the statements that set attributes on it; the name is
    bound to gradstep's Value where the class was."""
    kept: list[ast.stmt] = []
    for stmt in body:
        if isinstance(stmt, ast.ClassDef) and stmt.name == name:
            at = _At(stmt)
            stand_in = ast.Assign([at.name(name, ast.Store())], at.hook("Value"), **at.where)
            kept.append(stand_in)
        elif isinstance(stmt, ast.Assign) and any(
            isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == name
            for t in stmt.targets
        ):
            continue
        else:
            kept.append(stmt)
    return kept


class _Facts:
    """What the rewrites need to know of the tree, found in one walk of it (walking a tree is
    the costly part of reading a program in the sandbox): whether the program makes values, the
    names it binds and reads, the names it counts with, its operations with numbers written out,
    its calls of draw_dot, and the names each top-level statement binds."""

    def __init__(self, tree: ast.Module) -> None:
        self.makes_values = False
        self.stored: set[str] = set()
        self.loads: list[ast.Name] = []
        self.counted: set[str] = set()  # range(n): a typed example's n stays a whole number
        self.not_numbers: set[str] = set()  # names used as m.attr, f(...) or xs[i]
        self.operations: list[tuple[ast.expr, tuple[ast.expr, ...]]] = []
        self.drawings: list[ast.Call] = []
        self.bound: dict[int, set[str]] = {}  # id(top-level statement) -> the names it binds
        for stmt in tree.body:
            bound = self.bound[id(stmt)] = set()
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                bound.add(stmt.name)
            stack: list[ast.AST] = [stmt]
            while stack:
                node = stack.pop()
                self._see(node, bound)
                for name in node._fields:
                    child = getattr(node, name, None)
                    if isinstance(child, list):
                        stack.extend(c for c in child if isinstance(c, ast.AST))
                    elif isinstance(child, ast.AST):
                        stack.append(child)

    def _see(self, node: ast.AST, bound: set[str]) -> None:
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):
                self.loads.append(node)
            else:
                self.stored.add(node.id)
                bound.add(node.id)
        elif isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Name):
                self.not_numbers.add(f.id)
                if f.id == "Value":
                    self.makes_values = True
                elif f.id == "draw_dot":
                    self.drawings.append(node)
                elif f.id == "range":
                    self.counted.update(a.id for a in node.args if isinstance(a, ast.Name))
            if len(node.args) == 1 and _numeric(node.args[0]):
                self.operations.append((node, (node.args[0],)))
        elif isinstance(node, ast.BinOp):
            if _numeric(node.left) or _numeric(node.right):
                self.operations.append((node, (node.left, node.right)))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            self.stored.add(node.name)
            self.makes_values = self.makes_values or node.name in OPERATORS
        elif isinstance(node, ast.Attribute):
            self.makes_values = self.makes_values or node.attr in OPERATORS
            if isinstance(node.value, ast.Name):
                self.not_numbers.add(node.value.id)
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
            self.not_numbers.add(node.value.id)
        elif isinstance(node, ast.arg):
            self.stored.add(node.arg)
        elif isinstance(node, ast.alias):
            name = (node.asname or node.name).split(".")[0]
            self.stored.add(name)
            bound.add(name)
        elif isinstance(node, ast.ImportFrom):
            self.makes_values = (
                self.makes_values or (node.module or "").split(".")[0] == "micrograd"
            )
        elif isinstance(node, ast.Import):
            self.makes_values = self.makes_values or any(
                a.name.split(".")[0] == "micrograd" for a in node.names
            )
        elif isinstance(node, ast.Global | ast.Nonlocal):
            self.stored.update(node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            self.stored.add(node.name)
        elif isinstance(node, ast.MatchAs | ast.MatchStar) and node.name:
            self.stored.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            self.stored.add(node.rest)

    def free(self) -> list[tuple[str, int, int, int]]:
        """Names a typed example reads but never binds (``y = w * x + b``): the request's
        values give them, in the order they first appear."""
        free: dict[str, tuple[str, int, int, int]] = {}
        loads = sorted(self.loads, key=lambda n: (n.lineno, n.col_offset))
        for n in loads:
            if n.id in self.stored or n.id in BUILTIN_NAMES or n.id in self.not_numbers:
                continue  # bound, Python's, or a module, a function, a list: CPython's NameError
            if n.id not in free:
                free[n.id] = (n.id, n.lineno, n.col_offset, n.end_col_offset or n.col_offset + 1)
        return list(free.values())


def _numeric(e: ast.expr) -> bool:
    """An expression of numbers only: ``2.0``, ``-3``, ``1/4``, ``math.pi``, ``exp(1)``."""
    if isinstance(e, ast.Constant):
        return isinstance(e.value, int | float) and not isinstance(e.value, bool)
    if isinstance(e, ast.UnaryOp):
        return isinstance(e.op, ast.USub | ast.UAdd) and _numeric(e.operand)
    if isinstance(e, ast.BinOp):
        return _numeric(e.left) and _numeric(e.right)
    if isinstance(e, ast.Attribute):
        return isinstance(e.value, ast.Name) and e.value.id == "math" and e.attr in MATH_CONSTANTS
    if isinstance(e, ast.Call) and not e.keywords:
        f = e.func
        known = (isinstance(f, ast.Name) and f.id in OP_FUNCTIONS) or (
            isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "math"
        )
        return known and all(_numeric(a) for a in e.args)
    return False


class _Inputs(ast.NodeTransformer):
    """A typed example's numbers as inputs: ``x = 2.0`` at the top level, outside loops, is
    ``x = __gradstep__.number('x', 2.0)``; ``a, b = 1.0, 2.0`` alike."""

    def __init__(self, counted: set[str]) -> None:
        self.counted = counted

    def visit_Module(self, node: ast.Module) -> ast.Module:
        node.body = [self._top(s) for s in node.body]
        return node

    def _top(self, stmt: ast.stmt) -> ast.stmt:
        if isinstance(stmt, ast.If):
            stmt.body = [self._top(s) for s in stmt.body]
            stmt.orelse = [self._top(s) for s in stmt.orelse]
        elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target, value = stmt.targets[0], stmt.value
            if isinstance(target, ast.Name):
                stmt.value = self._input(target.id, value)
            elif (
                isinstance(target, ast.Tuple)
                and isinstance(value, ast.Tuple)
                and len(target.elts) == len(value.elts)
                and all(isinstance(t, ast.Name) for t in target.elts)
            ):
                value.elts = [
                    self._input(t.id, v)  # type: ignore[attr-defined]
                    for t, v in zip(target.elts, value.elts, strict=True)
                ]
        return stmt

    def _input(self, name: str, value: ast.expr) -> ast.expr:
        if name in self.counted or not _numeric(value):
            return value
        at = _At(value)
        return at.call("number", at.const(name), value)


class _Hooks:
    """The recorder's hooks written into the tree (see the module's docstring)."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.statements: dict[tuple[int, int], tuple[tuple[int, int, int], bool]] = {}

    def chars(self, line: int, byte_column: int) -> int:
        """A 0-based byte column as a 0-based column in characters."""
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        if text.isascii():
            return byte_column
        return len(text.encode()[:byte_column].decode("utf-8", "ignore"))

    def span(self, node: ast.expr) -> tuple[int, int, int]:
        line = node.lineno
        start = self.chars(line, node.col_offset) + 1
        if node.end_lineno == line and node.end_col_offset is not None:
            end = self.chars(line, node.end_col_offset) + 1
        else:
            end = len(self.lines[line - 1].rstrip()) + 1
        return line, start, max(end, start + 1)

    def operands(
        self, operations: list[tuple[ast.expr, tuple[ast.expr, ...]]]
    ) -> dict[tuple[int, int, int], tuple[Any, ...]]:
        return {
            self.span(node): tuple(self.span(p) if _numeric(p) else None for p in parts)
            for node, parts in operations
        }

    def run(self, tree: ast.Module, drawings: list[ast.Call]) -> None:
        tree.body = self._block(tree.body, top=True, loop=False)
        for node in drawings:  # draw_dot(x) -> __gradstep__.drawing(draw_dot)(x)
            node.func = _At(node.func).call("drawing", node.func)

    def _block(self, body: list[ast.stmt], top: bool, loop: bool) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in body:
            if top and not loop:  # a top-level statement begins: __gradstep__.top(line, loop)
                is_loop = isinstance(stmt, ast.For | ast.AsyncFor | ast.While)
                at = _At(stmt)
                out.append(at.expr(at.call("top", at.const(stmt.lineno), at.const(is_loop))))
            out.append(stmt)
            self._inside(stmt, top, loop)
            after = self._after(stmt, top, loop)
            if after is not None:
                out.append(after)
        return out

    def _inside(self, stmt: ast.stmt, top: bool, loop: bool) -> None:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            stmt.body = self._block(stmt.body, top=False, loop=False)
        elif isinstance(stmt, ast.ClassDef):
            for s in stmt.body:  # methods' bodies; the class body's own names are not values
                self._inside(s, top=False, loop=False)
        elif isinstance(stmt, ast.For | ast.AsyncFor | ast.While):
            stmt.body = self._block(stmt.body, top, loop=True)
            stmt.orelse = self._block(stmt.orelse, top, loop)
        elif isinstance(stmt, ast.If):
            stmt.body = self._block(stmt.body, top, loop)
            stmt.orelse = self._block(stmt.orelse, top, loop)
        elif isinstance(stmt, ast.With | ast.AsyncWith):
            stmt.body = self._block(stmt.body, top, loop)
        elif isinstance(stmt, ast.Try | ast.TryStar):
            stmt.body = self._block(stmt.body, top, loop)
            stmt.orelse = self._block(stmt.orelse, top, loop)
            stmt.finalbody = self._block(stmt.finalbody, top, loop)
            for h in stmt.handlers:
                h.body = self._block(h.body, top, loop)
        elif isinstance(stmt, ast.Match):
            for case in stmt.cases:
                case.body = self._block(case.body, top, loop)

    def _after(self, stmt: ast.stmt, top: bool, loop: bool) -> ast.stmt | None:
        """The hook that follows ``stmt``, if it binds names or writes a ``.data``."""
        if isinstance(stmt, ast.Assign):
            targets = stmt.targets
        elif isinstance(stmt, ast.AugAssign | ast.AnnAssign) and stmt.value is not None:
            targets = [stmt.target]
        elif isinstance(stmt, ast.Expr) and top:
            stmt.value = _At(stmt.value).call("shown", stmt.value)
            return None
        elif isinstance(stmt, ast.FunctionDef) and top and stmt.name == "backward":
            at = _At(stmt)
            call = at.call("backward_function", at.name(stmt.name))
            return ast.Assign([at.name(stmt.name, ast.Store())], call, **at.where)
        else:
            return None
        first, last = stmt.lineno, stmt.end_lineno or stmt.lineno
        start = self.chars(first, stmt.col_offset) + 1
        end = self.chars(last, stmt.end_col_offset or 0) + 1
        if last != first:
            end = len(self.lines[first - 1].rstrip()) + 1
        for t in targets:
            for node in ast.walk(t):
                if isinstance(node, ast.Attribute | ast.Subscript):
                    place = (node.lineno, self.chars(node.lineno, node.col_offset) + 1)
                    self.statements[place] = ((first, start, max(end, start + 1)),
                                              isinstance(stmt, ast.AugAssign))  # fmt: skip
        names: list[str] = []
        data: list[ast.expr] = []
        for t in targets:
            for node in ast.walk(t):
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                    names.append(node.id)
                elif isinstance(node, ast.Attribute) and node.attr == "data" and _pure(node.value):
                    data.append(node.value)
        if not names and not data:
            return None
        last_end = self.chars(last, stmt.end_col_offset or 0) + 1
        at = _At(stmt)
        span = at.tuple(*(at.const(x) for x in (first, start, last, last_end)))
        if names:
            strings = at.tuple(*(at.const(n) for n in names))
            loads = at.tuple(*(at.name(n) for n in names))
            call = at.call("bound", strings, loads, at.const(top), at.const(loop), span)
        else:
            call = at.call("wrote_data", at.tuple(*(_load(d, at) for d in data)), span)
        return at.expr(call)


class _At:
    """Nodes the rewrite makes, each made at the place of what it stands beside (``like``), so
    that CPython's errors and positions stay the learner's."""

    def __init__(self, like: ast.AST) -> None:
        self.where = {k: getattr(like, k) for k in ("lineno", "col_offset", "end_lineno",
                                                    "end_col_offset")}  # fmt: skip

    def name(self, name: str, ctx: ast.expr_context | None = None) -> ast.Name:
        return ast.Name(name, ctx or ast.Load(), **self.where)

    def const(self, value: str | int | float | None) -> ast.Constant:
        return ast.Constant(value, **self.where)

    def tuple(self, *items: ast.expr) -> ast.Tuple:
        return ast.Tuple(list(items), ast.Load(), **self.where)

    def hook(self, name: str) -> ast.Attribute:
        return ast.Attribute(self.name(HOOK), name, ast.Load(), **self.where)

    def call(self, hook: str, *args: ast.expr) -> ast.Call:
        return ast.Call(self.hook(hook), list(args), [], **self.where)

    def expr(self, value: ast.expr) -> ast.Expr:
        return ast.Expr(value, **self.where)


def _pure(e: ast.expr) -> bool:
    """An expression that reads without doing anything: ``p``, ``self.w``, ``n.b``."""
    while isinstance(e, ast.Attribute):
        e = e.value
    return isinstance(e, ast.Name)


def _load(e: ast.expr, at: _At) -> ast.expr:
    if isinstance(e, ast.Name):
        return at.name(e.id)
    assert isinstance(e, ast.Attribute)
    return ast.Attribute(_load(e.value, at), e.attr, ast.Load(), **at.where)


def _pieces(
    tree: ast.Module, text: str, bound: dict[int, set[str]]
) -> list[tuple[int, CodeType, frozenset[str]]]:
    """The program as pieces run one after another: a cell each when the text marks its cells
    (``# %%``), else a top-level statement each when it mentions torch, else the whole. A piece
    that needs torch is skipped, and the next runs; any other error stops the program, as in
    CPython."""
    lines = text.split("\n")
    starts = [i + 1 for i, line in enumerate(lines) if CELL.match(line)]
    groups: list[list[ast.stmt]] = []
    if not starts and "torch" not in text:  # one piece: compiling each statement apart is slow
        groups = [tree.body] if tree.body else []
    elif starts:
        bounds = [*starts[1:], len(lines) + 1]
        current: list[ast.stmt] = []
        b = 0
        for stmt in tree.body:
            while b < len(bounds) and stmt.lineno >= bounds[b]:
                if current:
                    groups.append(current)
                current, b = [], b + 1
            current.append(stmt)
        if current:
            groups.append(current)
    else:
        groups = [[s] for s in tree.body]
    # a statement the rewrite added belongs with the learner's it stands beside: top() with the
    # one after it, the others with the one before
    merged: list[list[ast.stmt]] = []
    waiting: list[ast.stmt] = []
    for g in groups:
        if len(g) == 1 and _added(g[0]) and _is_top(g[0]):
            waiting.extend(g)
        elif merged and _added(g[0]) and not waiting:
            merged[-1].extend(g)
        else:
            merged.append([*waiting, *g])
            waiting = []
    if waiting:
        merged.append(waiting)
    flags = 0
    pieces: list[tuple[int, CodeType, frozenset[str]]] = []
    for g in merged:
        module = ast.Module(body=g, type_ignores=[])
        code = compile(module, "<program>", "exec", flags=flags, dont_inherit=True)
        flags |= _future_flags(g)
        names = frozenset(name for stmt in g for name in bound.get(id(stmt), ()))
        pieces.append((g[0].lineno, code, names))
    return pieces


def _added(stmt: ast.stmt) -> bool:
    """A statement the rewrite added after the learner's (its hook call)."""
    value = stmt.value if isinstance(stmt, ast.Expr | ast.Assign) else None
    return (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and isinstance(value.func.value, ast.Name)
        and value.func.value.id == HOOK
    )


def _is_top(stmt: ast.stmt) -> bool:
    value = stmt.value if isinstance(stmt, ast.Expr) else None
    return (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and (value.func.attr == "top")
    )


def _future_flags(stmts: list[ast.stmt]) -> int:
    import __future__

    flags = 0
    for s in stmts:
        if isinstance(s, ast.ImportFrom) and s.module == "__future__":
            for a in s.names:
                feature = getattr(__future__, a.name, None)
                if feature is not None:
                    flags |= feature.compiler_flag
    return flags
