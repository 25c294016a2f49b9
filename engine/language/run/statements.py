"""What each statement does: one ``on_<node>`` function per kind of statement, each taking
``(ev, stmt, scope)`` and returning how the block it is in goes on (None: the next statement;
BREAK, CONTINUE or RETURN: the block ends there); ``evaluator.HANDLERS`` maps node types to them.
Assignments name the values they bind, and a number assigned at the top level becomes an input;
``def`` and ``class`` make the program's functions and classes (calling them is the evaluator's).
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Iterator
from typing import TYPE_CHECKING

from engine.errors import GradstepError
from engine.language.check.messages import is_literal, raised
from engine.language.objects.equality import key
from engine.language.objects.kinds import (
    BREAK,
    RETURN,
    Instance,
    Scope,
    Site,
    describe,
)
from engine.language.objects.operators import as_float, index, walk
from engine.language.objects.text import to_str
from engine.language.record.recorder import tag
from engine.language.run.attributes import attribute, set_attribute
from engine.language.run.expressions import call_node, is_true
from engine.language.run.literals import bind, unpack
from engine.value import Value

if TYPE_CHECKING:
    from engine.language.run.evaluator import Evaluator


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
            if scope.frame.top and type(obj) is Instance and node.func.attr == "backward":
                ev.learner.backwards.append(obj)  # the learner's own backward: the output
            return _remember(ev, call_node(ev, func, node, scope), node, scope)  # net.zero_grad()
    if scope.frame.top and type(node) is ast.Call and type(node.func) is ast.Name:
        arg = node.args[0] if node.args else None
        if "backward" in node.func.id and type(arg) is ast.Name:  # backward(out): its own
            first = scope.lookup(arg.id)
            if type(first) is Instance:
                ev.learner.backwards.append(first)
    return _remember(ev, ev.evaluate(node, scope), node, scope)


def _graph_pass(ev: Evaluator, v: Value, node: ast.Call) -> None:
    """``x.backward()`` or ``x.zero_grad()`` on a line of its own."""
    assert isinstance(node.func, ast.Attribute)
    if node.args or node.keywords:
        raise GradstepError(f".{node.func.attr}() takes no arguments", kind="arity")
    if node.func.attr == "backward":
        if ev.recorder.backward(v, (node.lineno, node.col_offset)):
            # a new graph: the loop's next iteration names its values as this one did
            ev.top.counters = dict(ev.names_before)
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
    made = len(ev.watch.made)
    value = ev.evaluate(stmt.value, scope)
    frame = scope.frame
    literal = frame.top and frame.loops == 0 and is_literal(stmt.value)
    target = stmt.targets[0]
    if frame.top and type(value) is Instance and made < len(ev.watch.made):
        literal = (
            frame.loops == 0
            and _from_literals(stmt.value)
            and ev.watch.made[made].instance is value
        )
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
            if ev.makes_values:  # a number until it meets a value
                value = tag(ev.given.get(name, value), name, frame.where(stmt))  # type: ignore[arg-type]
            else:
                x = as_float(value, "a number")
                value = ev.recorder.leaf(x, frame.where(stmt), None)
        if type(value) is Value:
            ev.recorder.name(value, name, frame)
        elif frame.top and type(value) is Instance and value.cls.own:
            ev.learner.name(value, name, literal)
        if scope.declared is None:
            scope.vars[name] = value
        else:
            scope.store(name, value)
        return value
    if kind is ast.Tuple or kind is ast.List:
        elts = target.elts  # type: ignore[attr-defined]
        items = unpack(ev, value, len(elts))
        return tuple(
            assign(ev, t, v, scope, stmt, literal) for t, v in zip(elts, items, strict=True)
        )
    if kind is ast.Attribute:
        obj = ev.evaluate(target.value, scope)  # type: ignore[attr-defined]
        set_attribute(ev, obj, target.attr, value, frame.where(stmt), record=frame.record)  # type: ignore[attr-defined]
        return value
    assert kind is ast.Subscript
    obj, key = ev.evaluate(target.value, scope), ev.evaluate(target.slice, scope)  # type: ignore[attr-defined]
    _store_item(ev, obj, key, value)
    return value


def _from_literals(node: ast.expr) -> bool:
    """A call of a class with numbers written out: Value(2.0, label='a')."""
    return (
        type(node) is ast.Call
        and type(node.func) is ast.Name
        and bool(node.args)
        and all(is_literal(a) for a in node.args)
        and all(type(kw.value) is ast.Constant for kw in node.keywords)
    )


def _store_item(ev: Evaluator, obj: object, k: object, value: object) -> None:
    if isinstance(obj, dict):
        if key(k, ev.budget) not in obj:
            ev.budget.size(len(obj) + 1, "this dict")
        obj[k] = value
        return
    if not isinstance(obj, list):
        raise GradstepError(
            f"only an item of a list or a dict can be set, not of {describe(obj)}", "type"
        )
    index(obj, k, ev.budget)  # the checks of reading it: a whole number, in range
    if isinstance(k, slice):
        raise GradstepError(
            "assigning to a slice is not supported: set items one by one", "unsupported"
        )
    assert isinstance(k, int)
    obj[k] = value


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
        set_attribute(
            ev, obj, target.attr, result, scope.frame.where(stmt), True, scope.frame.record
        )
    else:
        assert type(target) is ast.Subscript
        obj, key = ev.evaluate(target.value, scope), ev.evaluate(target.slice, scope)
        current = index(obj, key, ev.budget)
        result = ev.arith(op, current, ev.evaluate(stmt.value, scope), scope, stmt, operands)
        _store_item(ev, obj, key, result)


# Control flow ---------------------------------------------------------------------------------


def on_for(ev: Evaluator, stmt: ast.For, scope: Scope) -> object:
    items = walk(ev.evaluate(stmt.iter, scope), "this loop", ev.budget)

    def passes() -> Iterator[None]:
        for item in items:
            bind(ev, stmt.target, item, scope)
            yield None

    return _loop(ev, stmt, scope, passes())


def on_while(ev: Evaluator, stmt: ast.While, scope: Scope) -> object:
    """Every pass counts against the budget, as a for loop's: while True ends at a limit."""

    def passes() -> Iterator[None]:
        for _ in ev.budget.loop(itertools.count(), "this while loop"):
            if not is_true(ev.evaluate(stmt.test, scope), stmt.test, scope):
                return
            yield None

    return _loop(ev, stmt, scope, passes())


def _loop(ev: Evaluator, stmt: ast.For | ast.While, scope: Scope, passes: Iterator[None]) -> object:
    """The body once for each of ``passes`` (which binds the item, or checks the test), then the
    else block unless a break ended it; a return inside ends the loop with its signal."""
    frame = scope.frame
    frame.loops += 1
    try:
        for _ in passes:
            signal = ev.block(stmt.body, scope)
            if signal is BREAK:
                return None
            if signal is RETURN:
                return signal
    finally:
        frame.loops -= 1
    return ev.block(stmt.orelse, scope)


def on_assert(ev: Evaluator, stmt: ast.Assert, scope: Scope) -> None:
    if is_true(ev.evaluate(stmt.test, scope), stmt.test, scope):
        return
    text = "assertion failed"
    if stmt.msg is not None:
        text += ": " + to_str(ev, ev.evaluate(stmt.msg, scope), Site(stmt.msg, scope))
    raise GradstepError(text, kind="assert", span=scope.frame.where(stmt))


def on_raise(ev: Evaluator, stmt: ast.Raise, scope: Scope) -> None:
    name, args = raised(stmt)
    message = ", ".join(to_str(ev, ev.evaluate(a, scope), Site(a, scope)) for a in args)
    text = f"the program raised {name}" + (f": {message}" if message else "")
    raise GradstepError(text, kind="assert", span=scope.frame.where(stmt))


def on_if(ev: Evaluator, stmt: ast.If, scope: Scope) -> object:
    if is_true(ev.evaluate(stmt.test, scope), stmt, scope):
        return ev.block(stmt.body, scope)
    return ev.block(stmt.orelse, scope)


def on_return(ev: Evaluator, stmt: ast.Return, scope: Scope) -> object:
    scope.frame.returned = None if stmt.value is None else ev.evaluate(stmt.value, scope)
    return RETURN
