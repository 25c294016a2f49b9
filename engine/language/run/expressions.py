"""What each expression evaluates to: one ``on_<node>`` function per kind of node, each taking
``(ev, node, scope)``; ``evaluator.HANDLERS`` maps node types to them. Anything that involves a
Value becomes a node of the graph (``Evaluator.arith`` and ``unary``); the rest is plain Python
on numbers, lists, tuples and arrays (``operators``). Chains of binary and unary operators are
walked with a loop, not recursion: a statement may hold up to MAX_OPERATORS of them. Lists,
tuples, subscripts and comprehensions (lazy, as Python's: sum() of a generator adds each term as
it is made) are here too, with the binding of loop targets that comprehensions and ``for`` share.
"""

from __future__ import annotations

import ast
import math
from typing import TYPE_CHECKING

from engine.errors import GradstepError
from engine.language.check.messages import lookalike, no_value, unknown_function
from engine.language.library.builtins import BUILTINS
from engine.language.objects import dunders
from engine.language.objects.kinds import (
    MISSING,
    Function,
    Ignored,
    Instance,
    Scope,
    Site,
    describe,
)
from engine.language.objects.operators import collect, compare, is_number, negate, truth
from engine.language.run.attributes import attribute
from engine.value import Value

if TYPE_CHECKING:
    from engine.language.run.evaluator import Evaluator


def on_constant(ev: Evaluator, node: ast.Constant, scope: Scope) -> object:
    x = node.value
    if isinstance(x, float) and not math.isfinite(x):  # 1e999
        raise GradstepError(
            "this number is too large for a float", "overflow", scope.frame.where(node)
        )
    if x is None or isinstance(x, int | float | str):
        return x
    found = "a complex number" if isinstance(x, complex) else repr(x)
    kind = "type" if isinstance(x, complex) else "unsupported"
    raise GradstepError(f"{found} is not supported here", kind, scope.frame.where(node))


def on_name(ev: Evaluator, node: ast.Name, scope: Scope, called: bool = False) -> object:
    found = scope.lookup(node.id)
    if found is MISSING:
        found = BUILTINS.get(node.id, MISSING)
        if found is MISSING:
            return missing(ev, node, scope, called)
    return found


def missing(ev: Evaluator, node: ast.Name, scope: Scope, called: bool) -> object:
    """A name with no value: given one (``values``), it is bound as an input; ``called``: it is
    the function of a call, and the error lists the functions."""
    name = node.id
    if name in ev.given and name not in scope.globals:
        v = ev.recorder.leaf(ev.given[name], scope.frame.where(node), None)
        ev.recorder.name(v, name, ev.top)
        scope.globals[name] = v
        return v
    text = no_value([name], scope.globals)
    if called:
        text = unknown_function(name, BUILTINS) + lookalike(name, scope.globals)
    raise GradstepError(text, kind="name", span=scope.frame.where(node))


# Operators ------------------------------------------------------------------------------------


def on_binop(ev: Evaluator, node: ast.BinOp, scope: Scope) -> object:
    spine = []
    left: ast.expr = node
    while type(left) is ast.BinOp:  # a + b + c nests to the left: walk down, then up
        spine.append(left)
        left = left.left
    result = ev.evaluate(left, scope)
    for n in reversed(spine):
        right = ev.evaluate(n.right, scope)
        result = ev.arith(type(n.op), result, right, scope, n, (n.left, n.right))
    return result


def on_unaryop(ev: Evaluator, node: ast.UnaryOp, scope: Scope) -> object:
    chain = []
    operand: ast.expr = node
    while type(operand) is ast.UnaryOp:
        chain.append(operand)
        operand = operand.operand
    x = ev.evaluate(operand, scope)
    for n in reversed(chain):
        if type(x) is Instance and not isinstance(n.op, ast.Not):
            x = dunders.unary(ev, type(n.op), x, Site(n, scope))
        elif isinstance(n.op, ast.Not):
            x = not is_true(x, n, scope)
        elif isinstance(n.op, ast.USub):
            if isinstance(x, Value):
                x = ev.unary("neg", x, n, scope)
            else:
                try:
                    x = negate(x, ev.budget)
                except GradstepError as e:
                    raise e.at(scope.frame.where(n)) from None
        elif not (isinstance(x, Value) or is_number(x)):
            raise GradstepError(
                f"+ takes a number or a value, not {describe(x)}", "type", scope.frame.where(n)
            )
    return x


def is_true(x: object, node: ast.AST, scope: Scope) -> bool:
    """``x`` as a condition (of ``if``, ``and``, ``not``...); an error is located at ``node``."""
    try:
        return truth(x)
    except GradstepError as e:
        raise e.at(scope.frame.where(node)) from None


def on_boolop(ev: Evaluator, node: ast.BoolOp, scope: Scope) -> object:
    want = isinstance(node.op, ast.Or)  # `or` stops at the first true operand
    x: object = None
    for operand in node.values:
        x = ev.evaluate(operand, scope)
        if is_true(x, node, scope) == want:
            return x
    return x


def on_compare(ev: Evaluator, node: ast.Compare, scope: Scope) -> object:
    left = ev.evaluate(node.left, scope)
    for op, comparator in zip(node.ops, node.comparators, strict=True):
        right = ev.evaluate(comparator, scope)
        kind = type(op)
        if (type(left) is Instance or type(right) is Instance) and kind in dunders.COMPARE_METHODS:
            result = dunders.compare(ev, kind, left, right, Site(node, scope))
            if len(node.ops) == 1:
                return result  # what __lt__ returned, as Python gives it
            if not is_true(result, node, scope):
                return False
            left = right
            continue
        try:
            if not compare(op, left, right, ev.budget):
                return False
        except GradstepError as e:
            raise e.at(scope.frame.where(node)) from None
        left = right
    return True


def on_ifexp(ev: Evaluator, node: ast.IfExp, scope: Scope) -> object:
    branch = node.body if is_true(ev.evaluate(node.test, scope), node, scope) else node.orelse
    return ev.evaluate(branch, scope)


# Calls and attributes -------------------------------------------------------------------------


def on_call(ev: Evaluator, node: ast.Call, scope: Scope) -> object:
    f = node.func
    if type(f) is ast.Attribute:
        obj = ev.evaluate(f.value, scope)
        if type(obj) is Instance:
            kept = obj.attrs.get(f.attr, MISSING)
            if type(kept) is Function:  # node._backward(): a function the object keeps
                args, kwargs = arguments(ev, node, scope)
                return ev.kept_call(obj, f.attr, kept, args, kwargs, Site(node, scope))
        func = attribute(obj, f.attr, f, scope, node)
    elif type(f) is ast.Name:
        func = on_name(ev, f, scope, called=True)
    else:
        func = ev.evaluate(f, scope)
    return call_node(ev, func, node, scope)


def call_node(ev: Evaluator, func: object, node: ast.Call, scope: Scope) -> object:
    """``func`` called with the arguments written in ``node``."""
    if type(func) is Ignored:  # plt.plot(...): the arguments are not even evaluated
        ev.skipped_call(node, func)
        return None
    args, kwargs = arguments(ev, node, scope)
    return ev.call(func, args, kwargs, Site(node, scope))


def arguments(
    ev: Evaluator, node: ast.Call, scope: Scope
) -> tuple[list[object], dict[str, object]]:
    """The values of a call's arguments, ``*xs`` and ``**options`` spread out."""
    args: list[object] = []
    for a in node.args:
        if type(a) is ast.Starred:
            args.extend(collect(ev.evaluate(a.value, scope), "*", ev.budget))
        else:
            args.append(ev.evaluate(a, scope))
    if not node.keywords:
        return args, {}
    kwargs: dict[str, object] = {}
    for kw in node.keywords:
        value = ev.evaluate(kw.value, scope)
        if kw.arg is not None:
            kwargs[kw.arg] = value
        elif isinstance(value, dict) and all(isinstance(k, str) for k in value):
            ev.budget.bulk(len(value))
            kwargs.update(value)
        else:
            raise GradstepError(
                f"** takes a dict of names, not {describe(value)}", "type", scope.frame.where(kw)
            )
    return args, kwargs


def on_attribute(ev: Evaluator, node: ast.Attribute, scope: Scope) -> object:
    return attribute(ev.evaluate(node.value, scope), node.attr, node, scope)
