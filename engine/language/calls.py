"""Functions and classes: defining them (a def, a class with its methods and bases) and
calling them, with Python's argument binding. Each call of the program's or the prelude's
functions, methods and classes is recorded, so the graph can fold the values a call made."""

from __future__ import annotations

import ast

from engine.errors import GradstepError
from engine.language.messages import skipped
from engine.language.objects import (
    RETURN,
    BoundMethod,
    Builtin,
    CallRecord,
    Class,
    Frame,
    Function,
    Ignored,
    Instance,
    NotProvided,
    Scope,
    Site,
    ValueMethod,
    bind_arguments,
    describe,
)
from engine.language.sequences import Sequences


class Calls(Sequences):
    notes: list[str]
    module: dict[str, object]  # the user's globals

    def block(self, body: list[ast.stmt], scope: Scope) -> object:
        raise NotImplementedError

    def statement(self, stmt: ast.stmt, scope: Scope) -> object:
        raise NotImplementedError

    def function_def(self, stmt: ast.FunctionDef, scope: Scope) -> None:
        reason = skipped(stmt, scope.frame.top and scope.vars is self.module)
        if reason:
            self.notes.append(f"line {stmt.lineno}: {reason}")
            return
        scope.vars[stmt.name] = self._function(stmt, scope)

    def _function(self, stmt: ast.FunctionDef, scope: Scope) -> Function:
        params = tuple(a.arg for a in stmt.args.args)
        defaults = tuple(self.evaluate(d, scope) for d in stmt.args.defaults)
        closure = scope if scope.vars is not scope.globals else None
        return Function(stmt.name, stmt, params, defaults, scope.frame.unit, scope.globals, closure)

    def class_def(self, stmt: ast.ClassDef, scope: Scope) -> None:
        reason = skipped(stmt, scope.frame.top and scope.vars is self.module)
        if reason:
            self.notes.append(f"line {stmt.lineno}: {reason}")
            return
        bases = tuple(self.evaluate(b, scope) for b in stmt.bases)
        for base in bases:
            if type(base) is not Class:
                raise GradstepError(
                    "a class inherits from a class of the program or of micrograd.nn, "
                    f"not {describe(base)}",
                    kind="unsupported",
                )
        attrs: dict[str, object] = {}
        frame = scope.frame  # a frame of its own: class attributes are neither inputs nor output
        body = Scope(Frame(frame.unit, frame.record, frame.anchor), attrs, scope, scope.globals)
        for item in stmt.body:
            reason = skipped(item, False)
            if reason:
                self.notes.append(f"line {item.lineno}: {stmt.name}.{reason}")
            elif type(item) is ast.FunctionDef:  # methods see the module, not the class body
                attrs[item.name] = self._function(item, scope)
            elif type(item) is ast.Assign:
                self.statement(item, body)
        scope.vars[stmt.name] = Class(stmt.name, bases, attrs)  # type: ignore[arg-type]

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
