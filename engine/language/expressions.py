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
from collections.abc import Iterator
from typing import TYPE_CHECKING

from engine.errors import GradstepError
from engine.language import dunders
from engine.language.attributes import attribute
from engine.language.builtins import BUILTINS
from engine.language.containers import key
from engine.language.messages import lookalike, no_value, unknown_function
from engine.language.objects import (
    MISSING,
    Function,
    Ignored,
    Instance,
    Lazy,
    Scope,
    Set,
    Site,
    describe,
)
from engine.language.operators import collect, compare, index, is_number, negate, truth, walk
from engine.value import Value

if TYPE_CHECKING:
    from engine.language.evaluator import Evaluator


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
                    x = negate(x)
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
    if type(func) is Ignored:
        return None  # plt.plot(...): the arguments are not even evaluated
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


# Lists and tuples -----------------------------------------------------------------------------


def on_subscript(ev: Evaluator, node: ast.Subscript, scope: Scope) -> object:
    obj, key = ev.evaluate(node.value, scope), ev.evaluate(node.slice, scope)
    try:
        return index(obj, key, ev.budget)
    except GradstepError as e:
        raise e.at(scope.frame.where(node)) from None


def on_slice(ev: Evaluator, node: ast.Slice, scope: Scope) -> slice:
    parts = [
        None if p is None else ev.evaluate(p, scope) for p in (node.lower, node.upper, node.step)
    ]
    if not all(p is None or (isinstance(p, int) and not isinstance(p, bool)) for p in parts):
        raise GradstepError("a slice takes whole numbers", "type", scope.frame.where(node))
    if parts[2] == 0:
        raise GradstepError("a slice step cannot be zero", "domain", scope.frame.where(node))
    return slice(*parts)


def on_list(ev: Evaluator, node: ast.List, scope: Scope) -> list[object]:
    return [ev.evaluate(e, scope) for e in node.elts]


def on_tuple(ev: Evaluator, node: ast.Tuple, scope: Scope) -> tuple[object, ...]:
    return tuple(ev.evaluate(e, scope) for e in node.elts)


def on_listcomp(ev: Evaluator, node: ast.ListComp, scope: Scope) -> list[object]:
    return collect(Lazy("list", _generate(ev, node, scope)), "this comprehension", ev.budget)


def on_setcomp(ev: Evaluator, node: ast.SetComp, scope: Scope) -> Set:
    out = Set()
    for x in _generate(ev, node, scope):
        out.items[key(x)] = None
        if len(out.items) > 1000:
            ev.budget.size(len(out.items), "this set")
    return out


def on_dictcomp(ev: Evaluator, node: ast.DictComp, scope: Scope) -> dict[object, object]:
    out: dict[object, object] = {}
    for pair in _generate(ev, node, scope):
        assert isinstance(pair, tuple)
        k, v = pair
        out[key(k)] = v
        if len(out) > 1000:
            ev.budget.size(len(out), "this dict")
    return out


def on_set(ev: Evaluator, node: ast.Set, scope: Scope) -> Set:
    out = Set()
    for e in node.elts:
        x = ev.evaluate(e, scope)
        try:
            out.items[key(x)] = None
        except GradstepError as err:
            raise err.at(scope.frame.where(e)) from None
    return out


def on_dict(ev: Evaluator, node: ast.Dict, scope: Scope) -> dict[object, object]:
    out: dict[object, object] = {}
    for k, v in zip(node.keys, node.values, strict=True):
        value = ev.evaluate(v, scope)
        if k is None:  # {**other}
            if not isinstance(value, dict):
                raise GradstepError(f"** takes a dict, not {describe(value)}", "type")
            ev.budget.bulk(len(value))
            ev.budget.size(len(out) + len(value), "this dict")
            out.update(value)
            continue
        try:
            out[key(ev.evaluate(k, scope))] = value
        except GradstepError as err:
            raise err.at(scope.frame.where(k)) from None
    return out


def on_genexp(ev: Evaluator, node: ast.GeneratorExp, scope: Scope) -> Lazy:
    return Lazy("generator", _generate(ev, node, scope))


Comprehension = ast.ListComp | ast.GeneratorExp | ast.SetComp | ast.DictComp


def _generate(ev: Evaluator, node: Comprehension, scope: Scope) -> Iterator[object]:
    inner = Scope(scope.frame, {}, scope, scope.globals)
    try:
        yield from _comprehend(ev, node, 0, scope, inner)
    except GradstepError as e:
        raise e.at(scope.frame.where(node)) from None


def _comprehend(
    ev: Evaluator,
    node: Comprehension,
    level: int,
    outer: Scope,
    inner: Scope,
) -> Iterator[object]:
    generator = node.generators[level]
    source = ev.evaluate(generator.iter, outer if level == 0 else inner)
    for item in walk(source, "this comprehension", ev.budget):
        bind(ev, generator.target, item, inner)
        if all(is_true(ev.evaluate(c, inner), c, inner) for c in generator.ifs):
            if level + 1 < len(node.generators):
                yield from _comprehend(ev, node, level + 1, outer, inner)
            elif type(node) is ast.DictComp:
                yield ev.evaluate(node.key, inner), ev.evaluate(node.value, inner)
            else:
                yield ev.evaluate(node.elt, inner)  # type: ignore[union-attr]


def bind(ev: Evaluator, target: ast.expr, value: object, scope: Scope) -> None:
    """A for or comprehension target: names only get values, they do not label them."""
    if type(target) is ast.Name:
        scope.vars[target.id] = value
        return
    for t, v in zip(target.elts, unpack(ev, value, len(target.elts)), strict=True):  # type: ignore[attr-defined]
        bind(ev, t, v, scope)


def unpack(ev: Evaluator, value: object, n: int) -> list[object]:
    items = (
        list(walk(value, "unpacking", ev.budget))
        if not isinstance(value, tuple | list)
        else list(value)
    )
    if len(items) != n:
        raise GradstepError(f"{n} names to unpack {len(items)} items into", kind="arity")
    return items
