"""Lists, dicts and sets of a program: their methods (each a ``Builtin`` bound to the container,
its work charged to the budget before it is done), keys (checked hashable, objects of the
program by identity), items and membership. A set is a dict's keys (``kinds.Set``): it
iterates in insertion order, so a graph built by walking one is the same on every run."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.errors import GradstepError
from engine.language.objects.arguments import bind_arguments
from engine.language.objects.equality import equal, key
from engine.language.objects.kinds import (
    MISSING,
    Args,
    Builtin,
    Kwargs,
    Set,
    Site,
    brief,
    describe,
)
from engine.language.objects.operators import collect

if TYPE_CHECKING:
    from engine.language.library.machine import Machine


def make_set(m: Machine, items: object) -> Set:
    return Set({key(x, m.budget): None for x in collect(items, "set()", m.budget)})


def make_dict(m: Machine, items: object, kwargs: Kwargs) -> dict[object, object]:
    out: dict[object, object] = {}
    if isinstance(items, dict):
        m.budget.bulk(len(items))
        out.update(items)
    elif items is not MISSING:
        for pair in collect(items, "dict()", m.budget):
            if not isinstance(pair, tuple | list) or len(pair) != 2:
                raise GradstepError("dict() takes pairs (key, value)", "type")
            out[key(pair[0], m.budget)] = pair[1]
    out.update(kwargs)
    return out


Method = Callable[..., object]
Table = dict[str, tuple[tuple[str, ...], dict[str, object], Method]]


def bound(kind: str, container: object, name: str, table: Table) -> object:
    """The method ``name`` of ``container`` (a list, dict, set or string), or MISSING."""
    if name not in table:
        return MISSING
    params, defaults, f = table[name]

    def run(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> object:
        if params and params[-1] == "*":  # sort(key=..., reverse=...): keywords only
            if args:
                raise GradstepError(f"{kind}.{name}() takes keyword arguments only", "arity")
            values = bind_arguments(f"{kind}.{name}", params[:-1], defaults, [], kwargs)
            return f(m, site, container, *values)
        values = bind_arguments(f"{kind}.{name}", params, defaults, args, kwargs)
        return f(m, site, container, *values)

    return Builtin(f"{kind}.{name}", run)


# Lists ----------------------------------------------------------------------------------------


def _append(m: Machine, site: Site, items: list[object], x: object) -> None:
    m.budget.size(len(items) + 1)
    items.append(x)


def _extend(m: Machine, site: Site, items: list[object], more: object) -> None:
    added = collect(more, "extend()", m.budget)
    m.budget.size(len(items) + len(added))
    items.extend(added)


def _insert(m: Machine, site: Site, items: list[object], i: object, x: object) -> None:
    if isinstance(i, bool) or not isinstance(i, int):
        raise GradstepError(f"insert() takes a whole number, not {describe(i)}", "type")
    m.budget.size(len(items) + 1)
    m.budget.bulk(len(items))
    items.insert(i, x)


def _pop(m: Machine, site: Site, items: list[object], i: object) -> object:
    if isinstance(i, bool) or not isinstance(i, int) or not -len(items) <= i < len(items):
        raise GradstepError(f"pop({brief(i)}) from a list of {len(items)} items", kind="domain")
    m.budget.bulk(len(items) - i if i >= 0 else -i)
    return items.pop(i)


def _find(m: Machine, items: list[object], x: object, what: str) -> int:
    m.budget.bulk(len(items))
    for i, item in enumerate(items):
        if item is x or equal(item, x, m.budget):
            return i
    raise GradstepError(f"{what}: {describe(x)} is not in the list", "domain")


def _index(m: Machine, site: Site, items: list[object], x: object) -> int:
    return _find(m, items, x, "index()")


def _remove(m: Machine, site: Site, items: list[object], x: object) -> None:
    del items[_find(m, items, x, "remove()")]


def _count(m: Machine, site: Site, items: list[object], x: object) -> int:
    m.budget.bulk(len(items))
    return sum(1 for item in items if item is x or equal(item, x, m.budget))


def _reverse(m: Machine, site: Site, items: list[object]) -> None:
    m.budget.bulk(len(items))
    items.reverse()


def _clear(m: Machine, site: Site, items: list[object] | dict[object, object] | Set) -> None:
    (items.items if isinstance(items, Set) else items).clear()


def _copy(m: Machine, site: Site, items: object) -> object:
    if isinstance(items, Set):
        m.budget.bulk(len(items.items))
        return Set(dict(items.items))
    assert isinstance(items, list | dict)
    m.budget.bulk(len(items))
    return items.copy()


def _sort(m: Machine, site: Site, items: list[object], by: object, reverse: object) -> None:
    items[:] = sort(m, site, items, by, reverse)


def sort(m: Machine, site: Site, items: list[object], by: object, reverse: object) -> list[object]:
    """``sorted(items, key=by, reverse=reverse)``: Python's stable sort, comparing with the
    program's own ``<`` (an instance's ``__lt__``) where the keys are not plain."""
    m.budget.bulk(len(items) * max(len(items).bit_length(), 1))
    keys = items if by is None else [m.call(by, [x], {}, site) for x in items]
    pairs = list(zip(keys, range(len(items)), strict=True))
    if all(isinstance(k, int | float | str) for k in keys):
        pairs.sort(key=lambda p: p[0], reverse=bool(reverse))  # type: ignore[arg-type,return-value]
    else:

        def order(p: tuple[object, int], q: tuple[object, int]) -> int:
            if m.less(p[0], q[0], site):
                return -1
            return 1 if m.less(q[0], p[0], site) else 0

        pairs.sort(key=functools.cmp_to_key(order), reverse=bool(reverse))
    return [items[i] for _, i in pairs]


LIST_METHODS: Table = {
    "append": (("x",), {}, _append),
    "extend": (("iterable",), {}, _extend),
    "insert": (("index", "x"), {}, _insert),
    "pop": (("index",), {"index": -1}, _pop),
    "index": (("x",), {}, _index),
    "remove": (("x",), {}, _remove),
    "count": (("x",), {}, _count),
    "reverse": ((), {}, _reverse),
    "sort": (("key", "reverse", "*"), {"key": None, "reverse": False}, _sort),
    "clear": ((), {}, _clear),
    "copy": ((), {}, _copy),
}


# Dicts ----------------------------------------------------------------------------------------


def _get(m: Machine, site: Site, d: dict[object, object], k: object, default: object) -> object:
    return d.get(key(k, m.budget), default)


def _items(m: Machine, site: Site, d: dict[object, object]) -> list[object]:
    m.budget.bulk(len(d))
    return list(d.items())


def _keys(m: Machine, site: Site, d: dict[object, object]) -> list[object]:
    m.budget.bulk(len(d))
    return list(d)


def _values(m: Machine, site: Site, d: dict[object, object]) -> list[object]:
    m.budget.bulk(len(d))
    return list(d.values())


def _setdefault(
    m: Machine, site: Site, d: dict[object, object], k: object, default: object
) -> object:
    if key(k, m.budget) not in d:
        m.budget.size(len(d) + 1, "this dict")
    return d.setdefault(k, default)


def _dict_pop(
    m: Machine, site: Site, d: dict[object, object], k: object, default: object
) -> object:
    if key(k, m.budget) in d:
        return d.pop(k)
    if default is MISSING:
        raise GradstepError(f"pop(): the key {brief(k)} is not in the dict", "domain")
    return default


def _update(m: Machine, site: Site, d: dict[object, object], other: object) -> None:
    more = make_dict(m, other, {})
    m.budget.size(len(d) + len(more), "this dict")
    d.update(more)


DICT_METHODS: Table = {
    "get": (("key", "default"), {"default": None}, _get),
    "items": ((), {}, _items),
    "keys": ((), {}, _keys),
    "values": ((), {}, _values),
    "setdefault": (("key", "default"), {"default": None}, _setdefault),
    "pop": (("key", "default"), {"default": MISSING}, _dict_pop),
    "update": (("other",), {}, _update),
    "clear": ((), {}, _clear),
    "copy": ((), {}, _copy),
}


# Sets -----------------------------------------------------------------------------------------


def _add(m: Machine, site: Site, s: Set, x: object) -> None:
    if key(x, m.budget) not in s.items:
        m.budget.size(len(s.items) + 1, "this set")
        s.items[x] = None


def _set_update(m: Machine, site: Site, s: Set, more: object) -> None:
    for x in collect(more, "update()", m.budget):
        _add(m, site, s, x)


def _discard(m: Machine, site: Site, s: Set, x: object) -> None:
    s.items.pop(key(x, m.budget), None)


def _set_remove(m: Machine, site: Site, s: Set, x: object) -> None:
    if key(x, m.budget) not in s.items:
        raise GradstepError(f"remove(): {describe(x)} is not in the set", "domain")
    del s.items[x]


SET_METHODS: Table = {
    "add": (("x",), {}, _add),
    "update": (("iterable",), {}, _set_update),
    "discard": (("x",), {}, _discard),
    "remove": (("x",), {}, _set_remove),
    "clear": ((), {}, _clear),
    "copy": ((), {}, _copy),
}


def method(obj: object, name: str) -> object:
    """A list's, dict's or set's method ``name`` bound to ``obj``, or MISSING."""
    if type(obj) is list:
        return bound("list", obj, name, LIST_METHODS)
    if type(obj) is dict:
        return bound("dict", obj, name, DICT_METHODS)
    if type(obj) is Set:
        return bound("set", obj, name, SET_METHODS)
    return MISSING
