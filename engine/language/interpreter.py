"""Running statements and calls, straight from the syntax tree: gradstep's own interpreter of a
Python subset. It never hands user text to eval, exec, compile or an import; the shape check
(``shape``) has refused what it cannot run, and the budget bounds what it runs."""

from __future__ import annotations

import ast
from collections.abc import Callable

from engine.errors import GradstepError, Span
from engine.language import prelude
from engine.language.budget import Budget
from engine.language.conventions import is_literal, skipped
from engine.language.expressions import Expressions
from engine.language.members import attribute, set_attribute
from engine.language.objects import (
    BoundMethod,
    Builtin,
    Class,
    Function,
    Ignored,
    Instance,
    Module,
    NotProvided,
    Site,
    ValueMethod,
    bind_arguments,
    describe,
)
from engine.language.recorder import Recorder
from engine.language.runtime import Runtime
from engine.language.scopes import MISSING, CallRecord, Frame, Scope, Unit
from engine.language.source_text import spanner
from engine.value import Value

BREAK, CONTINUE, RETURN = object(), object(), object()  # how a block ended, when not at its end
NOTHING = object()  # no expression or assignment has run yet
Execute = Callable[["Interpreter", ast.stmt, Scope], object]


class Interpreter(Expressions):
    def __init__(self, unit: Unit, given: dict[str, float]) -> None:
        self.budget = Budget()
        self.recorder = Recorder(self.budget, given)
        self.given = given
        self.runtime = Runtime(self)
        self.notes: list[str] = []
        self.module: dict[str, object] = {}
        self.top = Frame(unit, None, None, top=True)
        self.last: object = NOTHING  # the value of the last top-level expression or assignment
        self.last_node: ast.expr | None = None
        self.at: tuple[ast.stmt, Scope] | None = None  # the statement running, for a late error

    def run(self, tree: ast.Module) -> None:
        self.block(tree.body, Scope(self.top, self.module, None, self.module))

    def run_prelude(self, anchor: Span) -> dict[str, object]:
        lines = prelude.SOURCE.splitlines()
        unit = Unit("micrograd.nn", lines, spanner(lines))
        names: dict[str, object] = {}
        self.block(prelude.tree().body, Scope(Frame(unit, None, anchor), names, None, names))
        return names

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
            return _EXECUTE[type(stmt)](self, stmt, scope)
        except GradstepError as e:
            raise e.at(frame.where(stmt)) from None

    def _expr(self, stmt: ast.Expr, scope: Scope) -> None:
        node = stmt.value
        if type(node) is ast.Constant and isinstance(node.value, str):
            return  # a docstring
        if type(node) is ast.Call and type(node.func) is ast.Attribute:
            if node.func.attr in ("backward", "zero_grad"):
                obj = self.eval(node.func.value, scope)
                if type(obj) is Value:
                    return self._pass(obj, node)
                func = attribute(obj, node.func.attr, node.func, scope, node)
                args = [self.eval(a, scope) for a in node.args]
                kwargs = {kw.arg or "": self.eval(kw.value, scope) for kw in node.keywords}
                result = self.call(func, args, kwargs, Site(node, scope))
                return self._remember(result, node, scope)
        return self._remember(self.eval(node, scope), node, scope)

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
        value = self.eval(stmt.value, scope)
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
                value = self.recorder.leaf(float(value), frame.where(stmt), None)  # type: ignore[arg-type]
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
            obj = self.eval(target.value, scope)  # type: ignore[attr-defined]
            set_attribute(self.recorder, obj, target.attr, value, frame.where(stmt))  # type: ignore[attr-defined]
            return value
        assert kind is ast.Subscript
        obj, key = self.eval(target.value, scope), self.eval(target.slice, scope)  # type: ignore[attr-defined]
        self._store_item(obj, key, value)
        return value

    def _store_item(self, obj: object, key: object, value: object) -> None:
        if not isinstance(obj, list):
            raise GradstepError(
                f"only an item of a list can be set, not of {describe(obj)}", "type"
            )
        self.index(obj, key)  # the checks of reading it: a whole number, in range
        if isinstance(key, slice):
            raise GradstepError("assigning to a slice is not supported: set items one by one")
        assert isinstance(key, int)
        obj[key] = value

    def _augassign(self, stmt: ast.AugAssign, scope: Scope) -> None:
        target = stmt.target
        op = type(stmt.op)
        operands = (target, stmt.value)
        if type(target) is ast.Name:
            current = self.eval(target, scope)
            result = self.arith(op, current, self.eval(stmt.value, scope), scope, stmt, operands)
            self._remember(self.assign(target, result, scope, stmt), stmt.value, scope, True)
        elif type(target) is ast.Attribute:
            obj = self.eval(target.value, scope)
            current = attribute(obj, target.attr, target, scope)
            result = self.arith(op, current, self.eval(stmt.value, scope), scope, stmt, operands)
            set_attribute(self.recorder, obj, target.attr, result, scope.frame.where(stmt))
        else:
            assert type(target) is ast.Subscript
            obj, key = self.eval(target.value, scope), self.eval(target.slice, scope)
            current = self.index(obj, key)
            result = self.arith(op, current, self.eval(stmt.value, scope), scope, stmt, operands)
            self._store_item(obj, key, result)

    def _for(self, stmt: ast.For, scope: Scope) -> object:
        items = self.items(self.eval(stmt.iter, scope))
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
        if self.truth(self.eval(stmt.test, scope), stmt, scope):
            return self.block(stmt.body, scope)
        return self.block(stmt.orelse, scope)

    def _return(self, stmt: ast.Return, scope: Scope) -> object:
        scope.frame.returned = None if stmt.value is None else self.eval(stmt.value, scope)
        return RETURN

    def _function_def(self, stmt: ast.FunctionDef, scope: Scope) -> None:
        reason = skipped(stmt, scope.frame.top and scope.vars is self.module)
        if reason:
            self.notes.append(f"line {stmt.lineno}: {reason}")
            return
        scope.vars[stmt.name] = self._function(stmt, scope)

    def _function(self, stmt: ast.FunctionDef, scope: Scope) -> Function:
        params = tuple(a.arg for a in stmt.args.args)
        defaults = tuple(self.eval(d, scope) for d in stmt.args.defaults)
        closure = scope if scope.vars is not scope.globals else None
        return Function(stmt.name, stmt, params, defaults, scope.frame.unit, scope.globals, closure)

    def _class_def(self, stmt: ast.ClassDef, scope: Scope) -> None:
        reason = skipped(stmt, scope.frame.top and scope.vars is self.module)
        if reason:
            self.notes.append(f"line {stmt.lineno}: {reason}")
            return
        bases = tuple(self.eval(b, scope) for b in stmt.bases)
        for base in bases:
            if type(base) is not Class:
                raise GradstepError(
                    "a class inherits from a class of the program or of micrograd.nn, "
                    f"not {describe(base)}",
                    kind="unsupported",
                )
        attrs: dict[str, object] = {}
        body_scope = Scope(scope.frame, attrs, scope, scope.globals)
        for item in stmt.body:
            if type(item) is ast.FunctionDef:
                reason = skipped(item, False)
                if reason:
                    self.notes.append(f"line {item.lineno}: {stmt.name}.{reason}")
                else:
                    attrs[item.name] = self._function(
                        item, scope
                    )  # methods do not see the class body
            elif type(item) is ast.Assign:
                self.statement(item, body_scope)
        scope.vars[stmt.name] = Class(stmt.name, bases, attrs)  # type: ignore[arg-type]

    def _import(self, stmt: ast.Import, scope: Scope) -> None:
        span = scope.frame.where(stmt)
        for alias in stmt.names:
            module = self.runtime.module(alias.name, span)
            if alias.asname is None:  # import a.b binds a
                top = alias.name.split(".")[0]
                scope.vars[top] = self.runtime.module(top, span)
            else:
                scope.vars[alias.asname] = module

    def _import_from(self, stmt: ast.ImportFrom, scope: Scope) -> None:
        if stmt.level:
            raise GradstepError(
                "a relative import (from . import ...) is not supported: import micrograd itself",
                kind="unsupported",
            )
        module = self.runtime.module(stmt.module or "", scope.frame.where(stmt))
        for alias in stmt.names:
            if isinstance(module, Ignored):
                found: object = Ignored(f"{module.name}.{alias.name}")
            else:
                found = module.attribute(alias.name)
            if found is MISSING:
                assert isinstance(module, Module)
                listed = ", ".join(module.attrs)
                raise GradstepError(
                    f"{module.name} has no {alias.name} in gradstep; it has {listed}", "unsupported"
                )
            scope.vars[alias.asname or alias.name] = found

    # Calls ------------------------------------------------------------------------------

    def call(
        self, func: object, args: list[object], kwargs: dict[str, object], site: Site
    ) -> object:
        if isinstance(func, Function):
            return self.invoke(func, None, args, kwargs, site, func.name)
        if isinstance(func, BoundMethod):
            name, cls = func.function.name, func.instance.cls.name
            shown = cls if name in ("__init__", "__call__") else f"{cls}.{name}"
            return self.invoke(func.function, func.instance, args, kwargs, site, shown)
        if isinstance(func, Class):
            return self._construct(func, args, kwargs, site)
        if isinstance(func, Instance):
            method = func.cls.lookup("__call__")
            if not isinstance(method, Function):
                raise GradstepError(
                    f"{describe(func)} cannot be called: its class has no __call__",
                    kind="type",
                    span=site.span,
                )
            return self.invoke(method, func, args, kwargs, site, func.cls.name)
        try:
            if isinstance(func, Builtin):
                return func.run(self, args, kwargs, site)
            if isinstance(func, ValueMethod):
                return self._value_method(func, args, kwargs, site)
            if isinstance(func, NotProvided):
                raise func.error()
        except GradstepError as e:
            raise e.at(site.span) from None
        if isinstance(func, Ignored):
            return None
        f = site.node.func if isinstance(site.node, ast.Call) else site.node
        where = site.scope.frame.where(f)
        raise GradstepError(f"this is {describe(func)}, not a function", "name", where)

    def _construct(
        self, cls: Class, args: list[object], kwargs: dict[str, object], site: Site
    ) -> Instance:
        instance = Instance(cls)
        init = cls.lookup("__init__")
        if type(init) is Function:
            self.invoke(init, instance, args, kwargs, site, cls.name)
        elif args or kwargs:
            raise GradstepError(
                f"{cls.name}() takes no arguments: it has no __init__", "arity", site.span
            )
        return instance

    def _value_method(
        self, call: ValueMethod, args: list[object], kwargs: dict[str, object], site: Site
    ) -> object:
        if call.name in ("backward", "zero_grad"):
            raise GradstepError(
                f".{call.name}() inside an expression is not supported: call it on a line of "
                "its own",
                kind="unsupported",
            )
        if args or kwargs:
            raise GradstepError(
                f".{call.name}() takes no arguments, not {len(args) + len(kwargs)}", "arity"
            )
        return self.unary(call.name, call.value, site.node, site.scope)

    def invoke(
        self,
        fn: Function,
        instance: Instance | None,
        args: list[object],
        kwargs: dict[str, object],
        site: Site,
        name: str,
    ) -> object:
        caller = site.scope.frame
        span = site.span
        if instance is not None:
            args = [instance, *args]
        defaults = dict(
            zip(fn.params[len(fn.params) - len(fn.defaults) :], fn.defaults, strict=True)
        )
        try:
            values = bind_arguments(
                name, fn.params, defaults, args, kwargs, int(instance is not None)
            )
            self.budget.enter()
        except GradstepError as e:
            raise e.at(span) from None
        try:
            user = fn.unit is self.top.unit
            frame = Frame(fn.unit, CallRecord(name, span, caller.record), None if user else span)
            scope = Scope(frame, dict(zip(fn.params, values, strict=True)), fn.closure, fn.module)
            signal = self.block(fn.node.body, scope)
        finally:
            self.budget.leave()
        return frame.returned if signal is RETURN else None


_EXECUTE: dict[type[ast.AST], Execute] = {
    ast.Expr: Interpreter._expr,  # type: ignore[dict-item]
    ast.Assign: Interpreter._assign,  # type: ignore[dict-item]
    ast.AugAssign: Interpreter._augassign,  # type: ignore[dict-item]
    ast.For: Interpreter._for,  # type: ignore[dict-item]
    ast.If: Interpreter._if,  # type: ignore[dict-item]
    ast.Return: Interpreter._return,  # type: ignore[dict-item]
    ast.FunctionDef: Interpreter._function_def,  # type: ignore[dict-item]
    ast.ClassDef: Interpreter._class_def,  # type: ignore[dict-item]
    ast.Import: Interpreter._import,  # type: ignore[dict-item]
    ast.ImportFrom: Interpreter._import_from,  # type: ignore[dict-item]
    ast.Pass: lambda self, stmt, scope: None,
    ast.Break: lambda self, stmt, scope: BREAK,
    ast.Continue: lambda self, stmt, scope: CONTINUE,
}
