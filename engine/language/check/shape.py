"""Pass 1 of the language, before anything runs: the shape of the program. Refuses each
construct the interpreter does not run, with a located error that says what works instead, and
finds the names read that nothing assigns (they must come from ``values``). One loop over an
explicit stack, so a deep syntax tree cannot exhaust Python's."""

from __future__ import annotations

import ast
from collections.abc import Iterable

from engine.errors import GradstepError, Span
from engine.language.check.messages import (
    OPERATORS,
    PLAIN_STATEMENTS,
    REFUSED,
    REFUSED_SYMBOLS,
    lookalike,
    no_value,
    raised,
    refusal,
    skipped,
    spelled,
    unknown_function,
)
from engine.language.check.visible import Visible, Where, bound, internal, parameters
from engine.language.library.builtins import BUILTINS
from engine.language.objects.dunders import OPERATOR_METHODS
from engine.language.source import Unit


class Checker:
    """Refuses every construct outside the language; collects the names read that no assignment
    binds (``free``) and refuses a name read before the top-level statement that binds it."""

    def __init__(self, unit: Unit) -> None:
        self.span = unit.span
        self.module: dict[str, tuple[int, int]] = {}  # name → (statement index, line) binding it
        self.free: dict[str, tuple[Span, bool]] = {}  # name → where first read, and if called
        self.ignored: set[str] = set()  # names whose calls are ignored: plt.plot(...)

    def check(self, tree: ast.Module) -> None:
        for i, stmt in enumerate(tree.body):
            for name in bound([stmt]):
                self.module.setdefault(name, (i, stmt.lineno))
            if isinstance(stmt, ast.Import | ast.ImportFrom):
                self._ignored_imports(stmt)
        stack: list[tuple[ast.AST, Where]] = [
            (stmt, Where(None, top=i)) for i, stmt in reversed(list(enumerate(tree.body)))
        ]
        while stack:
            node, where = stack.pop()
            stack.extend(reversed(self._visit(node, where)))

    def require(self, given: Iterable[str]) -> None:
        """Refuse the program if a name it reads is neither assigned nor among ``given``."""
        missing = [name for name in self.free if name not in given]
        called = [name for name in missing if self.free[name][1]]
        if called:
            text = unknown_function(called[0], BUILTINS) + lookalike(called[0], self.module)
            raise GradstepError(text, kind="name", span=self.free[called[0]][0])
        if missing:
            span = self.free[missing[0]][0]
            raise GradstepError(no_value(missing, self.module), kind="name", span=span)

    def _ignored_imports(self, stmt: ast.Import | ast.ImportFrom) -> None:
        for alias in stmt.names:
            module = alias.name if isinstance(stmt, ast.Import) else f"{stmt.module}.{alias.name}"
            if module.split(".")[0] in ("matplotlib", "graphviz"):
                self.ignored.add(alias.asname or alias.name.split(".")[0])

    def _visit(self, node: ast.AST, where: Where) -> list[tuple[ast.AST, Where]]:
        """Checks ``node`` and returns its children to check, in source order."""
        if type(node) in REFUSED:
            raise refusal(self.span(node), *REFUSED[type(node)])
        if isinstance(node, ast.stmt):
            return self._statement(node, where)
        if isinstance(node, ast.Name):
            self._name(node, where)
        elif isinstance(node, ast.Call):
            return self._call(node, where)
        elif isinstance(node, ast.Attribute) and internal(node.attr):
            raise refusal(
                self.span(node), f"the attribute .{node.attr}", "it is Python's internals"
            )
        elif isinstance(node, ast.Starred):
            raise refusal(self.span(node), "a starred expression here", "use it in a call: f(*xs)")
        elif isinstance(node, ast.Lambda):
            return self._lambda(node, where)
        elif isinstance(node, ast.BinOp) and not isinstance(node.op, OPERATORS):
            self._operator(node, node.op)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert):
            self._operator(node, node.op)
        elif isinstance(node, ast.ListComp | ast.GeneratorExp | ast.SetComp | ast.DictComp):
            return self._comprehension(node, where)
        elif not isinstance(node, ast.expr | ast.expr_context | ast.operator | ast.unaryop):
            if not isinstance(node, ast.cmpop | ast.boolop):
                raise refusal(self.span(node), type(node).__name__, "remove it")
        return [(child, where) for child in ast.iter_child_nodes(node)]

    def _operator(self, node: ast.AST, op: ast.AST) -> None:
        symbol = REFUSED_SYMBOLS.get(type(op), type(op).__name__)
        raise refusal(
            self.span(node), f"the operator {symbol}", "the operators are + - * / ** // %"
        )

    def _name(self, node: ast.Name, where: Where, called: bool = False) -> None:
        if internal(node.id):
            raise refusal(self.span(node), f"the dunder name {node.id}", "it is Python's internals")
        if isinstance(node.ctx, ast.Load) and not self._resolves(node, where):
            self.free.setdefault(node.id, (self.span(node), called))

    def _resolves(self, node: ast.Name, where: Where) -> bool:
        visible = where.visible
        while visible is not None:
            if node.id in visible.names:
                return True
            visible = visible.outer
        index, line = self.module.get(node.id, (None, 0))
        if index is None or where.top is None:
            return index is not None or node.id in BUILTINS
        if index > where.top:  # read on a straight line before the statement that binds it
            raise GradstepError(
                f"{spelled(node.id)} is used on line {node.lineno} before it is assigned on "
                f"line {line}",
                kind="name",
                span=self.span(node),
            )
        return index < where.top or node.id in BUILTINS  # x = x + 1 reads x before binding it

    def _call(self, node: ast.Call, where: Where) -> list[tuple[ast.AST, Where]]:
        root = node.func
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(root, ast.Name) and root.id in self.ignored:
            return []  # print(...), plt.plot(...): never evaluated, so never checked
        args = [a.value if isinstance(a, ast.Starred) else a for a in node.args]  # f(*xs)
        children = [*args, *(kw.value for kw in node.keywords)]
        if isinstance(node.func, ast.Name):
            if internal(node.func.id):  # __import__('os'): the whole call is refused
                raise refusal(
                    self.span(node), f"the dunder name {node.func.id}", "it is Python's internals"
                )
            self._name(node.func, where, called=True)
            return [(child, where) for child in children]
        return [(child, where) for child in (node.func, *children)]

    def _comprehension(
        self, node: ast.ListComp | ast.GeneratorExp | ast.SetComp | ast.DictComp, where: Where
    ) -> list[tuple[ast.AST, Where]]:
        targets = [g.target for g in node.generators]
        names = frozenset(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
        inner = Where(Visible(names, where.visible), where.function, where.loop, None, False)
        children: list[tuple[ast.AST, Where]] = []
        for i, generator in enumerate(node.generators):
            if generator.is_async:
                raise refusal(self.span(node), "async code", "write plain loops")
            self._target(generator.target, for_loop=True)
            children.append((generator.iter, where if i == 0 else inner))
            children.extend((condition, inner) for condition in generator.ifs)
        elts = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
        return [*((e, inner) for e in elts), *children]

    def _target(self, target: ast.expr, for_loop: bool = False) -> None:
        """An assignment or loop target: names, tuples of them, attributes, list items."""
        for n in ast.walk(target):
            if isinstance(n, ast.Starred):
                raise refusal(self.span(n), "starred unpacking", "unpack into names one by one")
            if isinstance(n, ast.Name) and internal(n.id):
                raise refusal(self.span(n), f"the dunder name {n.id}", "it is Python's internals")
        allowed: tuple[type[ast.AST], ...] = (ast.Name, ast.Tuple, ast.List)
        if not for_loop:
            allowed += (ast.Attribute, ast.Subscript)
        if not isinstance(target, allowed) or (
            isinstance(target, ast.Tuple | ast.List)
            and not all(isinstance(t, ast.Name | ast.Tuple | ast.List) for t in target.elts)
        ):
            raise refusal(self.span(target), "assigning to this", "assign to names")

    def _statement(self, node: ast.stmt, where: Where) -> list[tuple[ast.AST, Where]]:
        span = self.span(node)
        nested = Where(where.visible, where.function, where.loop, None, where.in_class)
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            if skipped(node, where.visible is None):
                return []  # the lecture's draw_dot and trace: never run
            if node.decorator_list:
                raise refusal(span, "a decorator", "call the function yourself")
            if isinstance(node, ast.ClassDef):
                return self._class(node, where)
            return self._function(node, where, span)
        if isinstance(node, ast.Return) and not where.function:
            raise refusal(span, "return outside a function", "return from inside a def")
        if isinstance(node, ast.Break | ast.Continue) and not where.loop:
            raise refusal(span, f"{type(node).__name__.lower()} outside a loop", "use it in a loop")
        if isinstance(node, ast.Assign):
            if len(node.targets) != 1:
                raise refusal(span, "chained assignment (a = b = ...)", "assign one name per line")
            self._target(node.targets[0])
        elif isinstance(node, ast.AugAssign):
            self._target(node.target)
            if not isinstance(node.op, OPERATORS):
                self._operator(node, node.op)
            target = node.target
            if isinstance(target, ast.Name) and not self._resolves(target, where):
                self.free.setdefault(target.id, (self.span(target), False))  # c += 1 reads c
        elif isinstance(node, ast.While):
            looping = Where(where.visible, where.function, True, None, where.in_class)
            return [
                (node.test, where),
                *((s, looping) for s in node.body),
                *((s, nested) for s in node.orelse),
            ]
        elif isinstance(node, ast.For):
            self._target(node.target, for_loop=True)
            looping = Where(where.visible, where.function, True, None, where.in_class)
            body = [(s, looping) for s in node.body]
            return [
                (node.target, nested),
                (node.iter, where),
                *body,
                *((s, nested) for s in node.orelse),
            ]
        elif isinstance(node, ast.If):
            return [(node.test, where), *((s, nested) for s in (*node.body, *node.orelse))]
        elif isinstance(node, ast.Raise):
            return [(arg, where) for arg in raised(node)[1]]  # its message; the name is told
        elif isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
            raise refusal(span, "from ... import *", "name what you import")
        elif not isinstance(node, PLAIN_STATEMENTS):
            raise refusal(span, type(node).__name__, "remove it")
        return [
            (child, where)
            for child in ast.iter_child_nodes(node)
            if not isinstance(child, ast.alias)
        ]

    def _function(
        self, node: ast.FunctionDef, where: Where, span: Span
    ) -> list[tuple[ast.AST, Where]]:
        if internal(node.name):
            listed = ", ".join(sorted(OPERATOR_METHODS))
            raise refusal(span, f"defining {node.name}", f"a program may define {listed}")
        names = parameters(node.args)
        if any(internal(n) for n in names):
            raise refusal(span, "a dunder parameter name", "name it without leading underscores")
        outer = where.visible
        while outer is not None and outer.is_class:  # methods do not see the class body
            outer = outer.outer
        inside = Where(Visible(frozenset(names) | bound(node.body), outer), function=True)
        defaults = [*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]
        return [*((d, where) for d in defaults), *((s, inside) for s in node.body)]

    def _lambda(self, node: ast.Lambda, where: Where) -> list[tuple[ast.AST, Where]]:
        names = parameters(node.args)
        inside = Where(Visible(frozenset(names), where.visible), function=True)
        defaults = [*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]
        return [*((d, where) for d in defaults), (node.body, inside)]

    def _class(self, node: ast.ClassDef, where: Where) -> list[tuple[ast.AST, Where]]:
        if node.keywords:
            raise refusal(self.span(node), "a class keyword (metaclass=...)", "remove it")
        for item in node.body:
            docstring = isinstance(item, ast.Expr) and isinstance(item.value, ast.Constant)
            if not (isinstance(item, ast.FunctionDef | ast.Assign | ast.Pass) or docstring):
                raise refusal(
                    self.span(item), "this statement in a class body", "move it into a method"
                )
        body = Where(Visible(frozenset(bound(node.body)), where.visible, True), in_class=True)
        return [*((b, where) for b in node.bases), *((s, body) for s in node.body)]
