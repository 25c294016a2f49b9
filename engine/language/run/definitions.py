"""Definitions and imports: ``def`` and ``lambda`` make the program's functions (with their
defaults, ``*args``, keyword-only parameters, ``**kwargs`` and the names they declare
``global`` or ``nonlocal``), ``class`` its classes (the program's own are watched: ``Class.own``),
and ``import`` binds gradstep's modules (``from micrograd.engine import Value`` names the
program's own class Value when it defined one above). Calling them is the evaluator's."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from engine.errors import GradstepError
from engine.language.check.messages import declared, skipped
from engine.language.objects.kinds import (
    MISSING,
    Class,
    Frame,
    Function,
    Ignored,
    ModuleObject,
    Parameters,
    Scope,
    describe,
)
from engine.limits import MAX_CLASS_WALK

if TYPE_CHECKING:
    from engine.language.run.evaluator import Evaluator


def on_functiondef(ev: Evaluator, stmt: ast.FunctionDef, scope: Scope) -> None:
    reason = skipped(stmt, scope.frame.top and scope.vars is ev.user_globals)
    if reason:
        ev.notes.append(f"line {stmt.lineno}: {reason}")
        return
    scope.vars[stmt.name] = _function(ev, stmt, scope)


def on_lambda(ev: Evaluator, node: ast.Lambda, scope: Scope) -> Function:
    return _function(ev, node, scope)


def _function(ev: Evaluator, stmt: ast.FunctionDef | ast.Lambda, scope: Scope) -> Function:
    args = stmt.args
    params = tuple(a.arg for a in (*args.posonlyargs, *args.args))
    defaults = tuple(ev.evaluate(d, scope) for d in args.defaults)
    closure = scope if scope.vars is not scope.globals else None
    extra = None
    if args.vararg or args.kwarg or args.kwonlyargs:
        kwdefaults = {
            a.arg: ev.evaluate(d, scope)
            for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)
            if d is not None
        }
        extra = Parameters(
            args.vararg.arg if args.vararg else None,
            tuple(a.arg for a in args.kwonlyargs),
            kwdefaults,
            args.kwarg.arg if args.kwarg else None,
        )
    name = stmt.name if isinstance(stmt, ast.FunctionDef) else "<lambda>"
    body = declared(stmt) if isinstance(stmt, ast.FunctionDef) else None
    unit = scope.frame.unit
    return Function(name, stmt, params, defaults, unit, scope.globals, closure, extra, body)


def on_classdef(ev: Evaluator, stmt: ast.ClassDef, scope: Scope) -> None:
    reason = skipped(stmt, scope.frame.top and scope.vars is ev.user_globals)
    if reason:
        ev.notes.append(f"line {stmt.lineno}: {reason}")
        return
    bases = tuple(ev.evaluate(b, scope) for b in stmt.bases)
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
            ev.notes.append(f"line {item.lineno}: {stmt.name}.{reason}")
        elif type(item) is ast.FunctionDef:  # methods see the module, not the class body
            attrs[item.name] = _function(ev, item, scope)
        elif type(item) is ast.Assign:
            ev.statement(item, body)
    own = scope.frame.unit is ev.top.unit
    walk = 1 + sum(base.walk for base in bases)  # type: ignore[attr-defined]
    if walk > MAX_CLASS_WALK:  # else every attribute lookup would cost that walk, for free
        raise GradstepError(
            f"class {stmt.name}, its bases, theirs and so on are {walk:,} classes to look "
            f"through; the limit is {MAX_CLASS_WALK} (inherit from fewer classes)",
            kind="limit",
        )
    scope.vars[stmt.name] = Class(stmt.name, bases, attrs, own, walk)  # type: ignore[arg-type]


def on_import(ev: Evaluator, stmt: ast.Import, scope: Scope) -> None:
    span = scope.frame.where(stmt)
    for alias in stmt.names:
        module = ev.modules.load(alias.name, span)
        if alias.asname is None:  # import a.b binds a
            top = alias.name.split(".")[0]
            scope.vars[top] = ev.modules.load(top, span)
        else:
            scope.vars[alias.asname] = module


def on_importfrom(ev: Evaluator, stmt: ast.ImportFrom, scope: Scope) -> None:
    if stmt.level:
        raise GradstepError(
            "a relative import (from . import ...) is not supported: import micrograd itself",
            kind="unsupported",
        )
    module = ev.modules.load(stmt.module or "", scope.frame.where(stmt))
    for alias in stmt.names:
        if isinstance(module, Ignored):
            found: object = Ignored(f"{module.name}.{alias.name}")
        elif stmt.module == "micrograd.engine" and alias.name == "Value" and _own_value(ev, scope):
            found = ev.user_globals["Value"]  # engine.py pasted above nn.py: its own Value
        else:
            found = module.attribute(alias.name)
        if found is MISSING:
            assert isinstance(module, ModuleObject)
            listed = ", ".join(module.attrs)
            raise GradstepError(
                f"{module.name} has no {alias.name} in gradstep; it has {listed}", "unsupported"
            )
        scope.vars[alias.asname or alias.name] = found


def _own_value(ev: Evaluator, scope: Scope) -> bool:
    """Is this the program's import, after it defined its own class Value at its top level?"""
    if scope.frame.unit is not ev.top.unit:
        return False  # micrograd.nn's import: gradstep's Value
    found = ev.user_globals.get("Value")
    return type(found) is Class and found.own
