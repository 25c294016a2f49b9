"""Running statements, straight from the syntax tree: gradstep's own interpreter of a Python
subset (expressions, sequences and calls are its base classes). It never hands user text to
eval, exec, compile or an import; the shape check (``shape``) has refused what it cannot run,
and the budget bounds what it runs."""

from __future__ import annotations

import ast
from collections.abc import Callable

from engine.errors import GradstepError
from engine.language.attributes import attribute, set_attribute
from engine.language.budget import Budget
from engine.language.calls import Calls
from engine.language.modules import Modules
from engine.language.objects import (
    BREAK,
    CONTINUE,
    MISSING,
    RETURN,
    Frame,
    Ignored,
    ModuleObject,
    Scope,
    describe,
)
from engine.language.operators import as_float
from engine.language.recorder import Recorder
from engine.language.source import Unit
from engine.ops import FUNCTIONS
from engine.value import Value

NOTHING = object()  # no expression or assignment has run yet
Execute = Callable[["Interpreter", ast.stmt, Scope], object]


class Interpreter(Calls):
    def __init__(self, unit: Unit, given: dict[str, float]) -> None:
        self.budget = Budget()
        self.recorder = Recorder(self.budget, given)
        self.given = given
        self.runtime = Modules(self)
        self.notes: list[str] = []
        self.module: dict[str, object] = {}
        self.top = Frame(unit, None, None, top=True)
        self.last: object = NOTHING  # the value of the last top-level expression or assignment
        self.last_node: ast.expr | None = None
        self.at: tuple[ast.stmt, Scope] | None = None  # the statement running, for a late error

    def run(self, tree: ast.Module) -> None:
        self.block(tree.body, Scope(self.top, self.module, None, self.module))

    # Statements -------------------------------------------------------------------------

    def block(self, body: list[ast.stmt], scope: Scope) -> object:
        for stmt in body:
            signal = self.statement(stmt, scope)
            if signal is not None:
                return signal
        return None

    def statement(self, stmt: ast.stmt, scope: Scope) -> object:
        frame = scope.frame
        self.at = (stmt, scope)
        if frame.top:
            self.recorder.statement_start = self.recorder.last_serial
        try:
            self.budget.statement()
            return _EXECUTE.get(type(stmt), Interpreter._refuse)(self, stmt, scope)
        except GradstepError as e:
            raise e.at(frame.where(stmt)) from None

    def _expr(self, stmt: ast.Expr, scope: Scope) -> None:
        node = stmt.value
        if type(node) is ast.Constant and isinstance(node.value, str):
            return  # a docstring
        if type(node) is ast.Call and type(node.func) is ast.Attribute:
            if node.func.attr in ("backward", "zero_grad"):
                obj = self.evaluate(node.func.value, scope)
                if type(obj) is Value:
                    return self._pass(obj, node)
                func = attribute(obj, node.func.attr, node.func, scope, node)
                return self._remember(
                    self.call_node(func, node, scope), node, scope
                )  # net.zero_grad()
        return self._remember(self.evaluate(node, scope), node, scope)

    def _pass(self, v: Value, node: ast.Call) -> None:
        """``x.backward()`` or ``x.zero_grad()`` on a line of its own."""
        assert isinstance(node.func, ast.Attribute)
        if node.args or node.keywords:
            raise GradstepError(f".{node.func.attr}() takes no arguments", kind="arity")
        if node.func.attr == "backward":
            self.recorder.backward(v)
        else:
            self.recorder.zero_grad(v)

    def _remember(
        self, result: object, node: ast.expr, scope: Scope, assigned: bool = False
    ) -> None:
        """Keep the last top-level value (an expression's, unless None as print's is)."""
        if scope.frame.top and (assigned or result is not None):
            self.last, self.last_node = result, node

    def _assign(self, stmt: ast.Assign, scope: Scope) -> None:
        value = self.evaluate(stmt.value, scope)
        frame = scope.frame
        literal = frame.top and frame.loops == 0 and is_literal(stmt.value)
        target = stmt.targets[0]
        value = self.assign(target, value, scope, stmt, literal)
        if isinstance(target, ast.Name | ast.Tuple | ast.List):  # not o.label = 'o', p.grad = 0
            self._remember(value, stmt.value, scope, assigned=True)

    def assign(
        self, target: ast.expr, value: object, scope: Scope, stmt: ast.stmt, literal: bool = False
    ) -> object:
        """``target = value``, naming the values it binds; returns what was bound (a number
        assigned at the top level, outside loops, by a literal such as 2.0 becomes an input)."""
        kind = type(target)
        frame = scope.frame
        if kind is ast.Name:
            name = target.id  # type: ignore[attr-defined]
            if name == "Value":
                raise GradstepError("Value is the engine's, not a name to assign", "name")
            if literal and type(value) in (int, float):
                x = as_float(value, "a number")
                value = self.recorder.leaf(x, frame.where(stmt), None)
            if type(value) is Value:
                self.recorder.name(value, name, frame)
            scope.vars[name] = value
            return value
        if kind is ast.Tuple or kind is ast.List:
            elts = target.elts  # type: ignore[attr-defined]
            items = self.unpack(value, len(elts))
            return tuple(
                self.assign(t, v, scope, stmt, literal) for t, v in zip(elts, items, strict=True)
            )
        if kind is ast.Attribute:
            obj = self.evaluate(target.value, scope)  # type: ignore[attr-defined]
            set_attribute(self.recorder, obj, target.attr, value, frame.where(stmt))  # type: ignore[attr-defined]
            return value
        assert kind is ast.Subscript
        obj, key = self.evaluate(target.value, scope), self.evaluate(target.slice, scope)  # type: ignore[attr-defined]
        self._store_item(obj, key, value)
        return value

    def _store_item(self, obj: object, key: object, value: object) -> None:
        if not isinstance(obj, list):
            raise GradstepError(
                f"only an item of a list can be set, not of {describe(obj)}", "type"
            )
        self.index(obj, key)  # the checks of reading it: a whole number, in range
        if isinstance(key, slice):
            raise GradstepError(
                "assigning to a slice is not supported: set items one by one", "unsupported"
            )
        assert isinstance(key, int)
        obj[key] = value

    def _augassign(self, stmt: ast.AugAssign, scope: Scope) -> None:
        target = stmt.target
        op = type(stmt.op)
        operands = (target, stmt.value)
        if type(target) is ast.Name:
            current = self.evaluate(target, scope)
            result = self.arith(
                op, current, self.evaluate(stmt.value, scope), scope, stmt, operands
            )
            self._remember(self.assign(target, result, scope, stmt), stmt.value, scope, True)
        elif type(target) is ast.Attribute:
            obj = self.evaluate(target.value, scope)
            current = attribute(obj, target.attr, target, scope)
            result = self.arith(
                op, current, self.evaluate(stmt.value, scope), scope, stmt, operands
            )
            set_attribute(self.recorder, obj, target.attr, result, scope.frame.where(stmt))
        else:
            assert type(target) is ast.Subscript
            obj, key = self.evaluate(target.value, scope), self.evaluate(target.slice, scope)
            current = self.index(obj, key)
            result = self.arith(
                op, current, self.evaluate(stmt.value, scope), scope, stmt, operands
            )
            self._store_item(obj, key, result)

    def _for(self, stmt: ast.For, scope: Scope) -> object:
        items = self.items(self.evaluate(stmt.iter, scope))
        frame = scope.frame
        frame.loops += 1
        try:
            for item in items:
                self.bind(stmt.target, item, scope)
                signal = self.block(stmt.body, scope)
                if signal is BREAK:
                    return None
                if signal is RETURN:
                    return signal
        finally:
            frame.loops -= 1
        return self.block(stmt.orelse, scope)

    def _if(self, stmt: ast.If, scope: Scope) -> object:
        if self.truth(self.evaluate(stmt.test, scope), stmt, scope):
            return self.block(stmt.body, scope)
        return self.block(stmt.orelse, scope)

    def _return(self, stmt: ast.Return, scope: Scope) -> object:
        scope.frame.returned = None if stmt.value is None else self.evaluate(stmt.value, scope)
        return RETURN

    def _import(self, stmt: ast.Import, scope: Scope) -> None:
        span = scope.frame.where(stmt)
        for alias in stmt.names:
            module = self.runtime.load(alias.name, span)
            if alias.asname is None:  # import a.b binds a
                top = alias.name.split(".")[0]
                scope.vars[top] = self.runtime.load(top, span)
            else:
                scope.vars[alias.asname] = module

    def _import_from(self, stmt: ast.ImportFrom, scope: Scope) -> None:
        if stmt.level:
            raise GradstepError(
                "a relative import (from . import ...) is not supported: import micrograd itself",
                kind="unsupported",
            )
        module = self.runtime.load(stmt.module or "", scope.frame.where(stmt))
        for alias in stmt.names:
            if isinstance(module, Ignored):
                found: object = Ignored(f"{module.name}.{alias.name}")
            else:
                found = module.attribute(alias.name)
            if found is MISSING:
                assert isinstance(module, ModuleObject)
                listed = ", ".join(module.attrs)
                raise GradstepError(
                    f"{module.name} has no {alias.name} in gradstep; it has {listed}", "unsupported"
                )
            scope.vars[alias.asname or alias.name] = found


_EXECUTE: dict[type[ast.AST], Execute] = {
    ast.Expr: Interpreter._expr,  # type: ignore[dict-item]
    ast.Assign: Interpreter._assign,  # type: ignore[dict-item]
    ast.AugAssign: Interpreter._augassign,  # type: ignore[dict-item]
    ast.For: Interpreter._for,  # type: ignore[dict-item]
    ast.If: Interpreter._if,  # type: ignore[dict-item]
    ast.Return: Interpreter._return,  # type: ignore[dict-item]
    ast.FunctionDef: Calls.function_def,  # type: ignore[dict-item]
    ast.ClassDef: Calls.class_def,  # type: ignore[dict-item]
    ast.Import: Interpreter._import,  # type: ignore[dict-item]
    ast.ImportFrom: Interpreter._import_from,  # type: ignore[dict-item]
    ast.Pass: lambda self, stmt, scope: None,
    ast.Break: lambda self, stmt, scope: BREAK,
    ast.Continue: lambda self, stmt, scope: CONTINUE,
}


def is_literal(node: ast.expr) -> bool:
    """Numbers and arithmetic on them (2.0, 1/4, -3, math.pi, exp(1), (0.5).tanh(), tuples of
    them): a name assigned one at the top level is an input (a slider), as it always was."""
    for n in ast.walk(node):
        if isinstance(n, ast.Constant):
            if isinstance(n.value, bool) or not isinstance(n.value, int | float):
                return False
        elif isinstance(n, ast.Call):
            f = n.func
            if n.keywords or not ((isinstance(f, ast.Name) and f.id in FUNCTIONS) or _known(f)):
                return False
        elif isinstance(n, ast.Attribute):
            if not _known(n):
                return False
        elif isinstance(n, ast.Name):
            if n.id not in FUNCTIONS and n.id != "math":  # exp in exp(1); never a variable
                return False
        elif not isinstance(
            n, ast.BinOp | ast.UnaryOp | ast.Tuple | ast.operator | ast.unaryop | ast.Load
        ):
            return False
        elif isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not):
            return False
    return True


def _known(node: ast.expr) -> bool:
    """math.pi, math.exp, or an op method of what the walk checks next: (0.5).tanh."""
    if not isinstance(node, ast.Attribute):
        return False
    return node.attr in FUNCTIONS or (isinstance(node.value, ast.Name) and node.value.id == "math")
