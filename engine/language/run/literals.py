"""Lists, tuples, sets and dicts as expressions: literals, subscripts and slices, and
comprehensions (lazy, as Python's: sum() of a generator adds each term as it is made; a set's
or dict's items checked as keys), with the binding of loop targets that comprehensions and
``for`` share. ``evaluator.HANDLERS`` maps their node types here."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import TYPE_CHECKING

from engine.errors import GradstepError
from engine.language.objects.equality import key
from engine.language.objects.kinds import Lazy, Scope, Set, describe
from engine.language.objects.operators import collect, index, walk
from engine.language.run.expressions import is_true

if TYPE_CHECKING:
    from engine.language.run.evaluator import Evaluator


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
        out.items[key(x, ev.budget)] = None
        if len(out.items) > 1000:
            ev.budget.size(len(out.items), "this set")
    return out


def on_dictcomp(ev: Evaluator, node: ast.DictComp, scope: Scope) -> dict[object, object]:
    out: dict[object, object] = {}
    for pair in _generate(ev, node, scope):
        assert isinstance(pair, tuple)
        k, v = pair
        out[key(k, ev.budget)] = v
        if len(out) > 1000:
            ev.budget.size(len(out), "this dict")
    return out


def on_set(ev: Evaluator, node: ast.Set, scope: Scope) -> Set:
    out = Set()
    for e in node.elts:
        x = ev.evaluate(e, scope)
        try:
            out.items[key(x, ev.budget)] = None
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
            out[key(ev.evaluate(k, scope), ev.budget)] = value
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
