"""What each statement does: one ``on_<node>`` function per kind of statement, each taking
``(ev, stmt, scope)`` and returning how the block it is in goes on (None: the next statement;
BREAK, CONTINUE or RETURN: the block ends there); ``evaluator.HANDLERS`` maps node types to them.
Assignments name the values they bind, and a number assigned at the top level becomes an input;
``def`` and ``class`` make the program's functions and classes (calling them is the evaluator's).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from engine.errors import GradstepError
from engine.language.attributes import attribute, set_attribute
from engine.language.expressions import bind, call_node, is_true, unpack
from engine.language.messages import is_literal, skipped
from engine.language.objects import (
    BREAK,
    MISSING,
    RETURN,
    Class,
    Frame,
    Function,
    Ignored,
    ModuleObject,
    Scope,
    describe,
)
from engine.language.operators import as_float, index, walk
from engine.value import Value

if TYPE_CHECKING:
    from engine.language.evaluator import Evaluator


def on_expr(ev: Evaluator, stmt: ast.Expr, scope: Scope) -> None:
    node = stmt.value
    if type(node) is ast.Constant and isinstance(node.value, str):
        return  # a docstring
    if type(node) is ast.Call and type(node.func) is ast.Attribute:
        if node.func.attr in ("backward", "zero_grad"):
            obj = ev.evaluate(node.func.value, scope)
            if type(obj) is Value:
                return _graph_pass(ev, obj, node)
            func = attribute(obj, node.func.attr, node.func, scope, node)
            return _remember(ev, call_node(ev, func, node, scope), node, scope)  # net.zero_grad()
    return _remember(ev, ev.evaluate(node, scope), node, scope)


def _graph_pass(ev: Evaluator, v: Value, node: ast.Call) -> None:
    """``x.backward()`` or ``x.zero_grad()`` on a line of its own."""
    assert isinstance(node.func, ast.Attribute)
    if node.args or node.keywords:
        raise GradstepError(f".{node.func.attr}() takes no arguments", kind="arity")
    if node.func.attr == "backward":
        ev.recorder.backward(v)
    else:
        ev.recorder.zero_grad(v)


def _remember(
    ev: Evaluator, result: object, node: ast.expr, scope: Scope, assigned: bool = False
) -> None:
    """Keep the last top-level value (an expression's, unless None as print's is)."""
    if scope.frame.top and (assigned or result is not None):
        ev.last, ev.last_node = result, node


# Assignments ----------------------------------------------------------------------------------


def on_assign(ev: Evaluator, stmt: ast.Assign, scope: Scope) -> None:
    value = ev.evaluate(stmt.value, scope)
    frame = scope.frame
    literal = frame.top and frame.loops == 0 and is_literal(stmt.value)
    target = stmt.targets[0]
    value = assign(ev, target, value, scope, stmt, literal)
    if isinstance(target, ast.Name | ast.Tuple | ast.List):  # not o.label = 'o', p.grad = 0
        _remember(ev, value, stmt.value, scope, assigned=True)


def assign(
    ev: Evaluator,
    target: ast.expr,
    value: object,
    scope: Scope,
    stmt: ast.stmt,
    literal: bool = False,
) -> object:
    """``target = value``, naming the values it binds; returns what was bound (a number assigned
    at the top level, outside loops, by a literal such as 2.0 becomes an input)."""
    kind = type(target)
    frame = scope.frame
    if kind is ast.Name:
        name = target.id  # type: ignore[attr-defined]
        if name == "Value":
            raise GradstepError("Value is the engine's, not a name to assign", "name")
        if literal and type(value) in (int, float):
            x = as_float(value, "a number")
            value = ev.recorder.leaf(x, frame.where(stmt), None)
        if type(value) is Value:
            ev.recorder.name(value, name, frame)
        scope.vars[name] = value
        return value
    if kind is ast.Tuple or kind is ast.List:
        elts = target.elts  # type: ignore[attr-defined]
        items = unpack(ev, value, len(elts))
        return tuple(
            assign(ev, t, v, scope, stmt, literal) for t, v in zip(elts, items, strict=True)
        )
    if kind is ast.Attribute:
        obj = ev.evaluate(target.value, scope)  # type: ignore[attr-defined]
        set_attribute(ev.recorder, obj, target.attr, value, frame.where(stmt))  # type: ignore[attr-defined]
        return value
    assert kind is ast.Subscript
    obj, key = ev.evaluate(target.value, scope), ev.evaluate(target.slice, scope)  # type: ignore[attr-defined]
    _store_item(ev, obj, key, value)
    return value


def _store_item(ev: Evaluator, obj: object, key: object, value: object) -> None:
    if not isinstance(obj, list):
        raise GradstepError(f"only an item of a list can be set, not of {describe(obj)}", "type")
    index(obj, key, ev.budget)  # the checks of reading it: a whole number, in range
    if isinstance(key, slice):
        raise GradstepError(
            "assigning to a slice is not supported: set items one by one", "unsupported"
        )
    assert isinstance(key, int)
    obj[key] = value


def on_augassign(ev: Evaluator, stmt: ast.AugAssign, scope: Scope) -> None:
    target = stmt.target
    op = type(stmt.op)
    operands = (target, stmt.value)
    if type(target) is ast.Name:
        current = ev.evaluate(target, scope)
        result = ev.arith(op, current, ev.evaluate(stmt.value, scope), scope, stmt, operands)
        _remember(ev, assign(ev, target, result, scope, stmt), stmt.value, scope, True)
    elif type(target) is ast.Attribute:
        obj = ev.evaluate(target.value, scope)
        current = attribute(obj, target.attr, target, scope)
        result = ev.arith(op, current, ev.evaluate(stmt.value, scope), scope, stmt, operands)
        set_attribute(ev.recorder, obj, target.attr, result, scope.frame.where(stmt))
    else:
        assert type(target) is ast.Subscript
        obj, key = ev.evaluate(target.value, scope), ev.evaluate(target.slice, scope)
        current = index(obj, key, ev.budget)
        result = ev.arith(op, current, ev.evaluate(stmt.value, scope), scope, stmt, operands)
        _store_item(ev, obj, key, result)


# Control flow ---------------------------------------------------------------------------------


def on_for(ev: Evaluator, stmt: ast.For, scope: Scope) -> object:
    items = walk(ev.evaluate(stmt.iter, scope), "this loop", ev.budget)
    frame = scope.frame
    frame.loops += 1
    try:
        for item in items:
            bind(ev, stmt.target, item, scope)
            signal = ev.block(stmt.body, scope)
            if signal is BREAK:
                return None
            if signal is RETURN:
                return signal
    finally:
        frame.loops -= 1
    return ev.block(stmt.orelse, scope)


def on_if(ev: Evaluator, stmt: ast.If, scope: Scope) -> object:
    if is_true(ev.evaluate(stmt.test, scope), stmt, scope):
        return ev.block(stmt.body, scope)
    return ev.block(stmt.orelse, scope)


def on_return(ev: Evaluator, stmt: ast.Return, scope: Scope) -> object:
    scope.frame.returned = None if stmt.value is None else ev.evaluate(stmt.value, scope)
    return RETURN


# Definitions and imports ----------------------------------------------------------------------


def on_functiondef(ev: Evaluator, stmt: ast.FunctionDef, scope: Scope) -> None:
    reason = skipped(stmt, scope.frame.top and scope.vars is ev.user_globals)
    if reason:
        ev.notes.append(f"line {stmt.lineno}: {reason}")
        return
    scope.vars[stmt.name] = _function(ev, stmt, scope)


def _function(ev: Evaluator, stmt: ast.FunctionDef, scope: Scope) -> Function:
    params = tuple(a.arg for a in stmt.args.args)
    defaults = tuple(ev.evaluate(d, scope) for d in stmt.args.defaults)
    closure = scope if scope.vars is not scope.globals else None
    return Function(stmt.name, stmt, params, defaults, scope.frame.unit, scope.globals, closure)


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
    scope.vars[stmt.name] = Class(stmt.name, bases, attrs)  # type: ignore[arg-type]


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
        else:
            found = module.attribute(alias.name)
        if found is MISSING:
            assert isinstance(module, ModuleObject)
            listed = ", ".join(module.attrs)
            raise GradstepError(
                f"{module.name} has no {alias.name} in gradstep; it has {listed}", "unsupported"
            )
        scope.vars[alias.asname or alias.name] = found
