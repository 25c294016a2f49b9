"""Python's builtins on every object a program holds, its own among them: ``print`` (to the
console the Program carries), ``str``, ``repr``, ``isinstance`` (the program's classes and the
builtin type names), ``hasattr``/``getattr`` (its own objects' attributes, never a dunder),
``id`` (a counter of the run, the same on every run), ``sorted``, ``min``/``max`` with
``key=``, ``any``, ``all``, ``reversed``, ``abs``, ``set``, ``dict``, ``bool`` and
``NotImplemented``. ``builtins.BUILTINS`` lists them with the rest."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import GradstepError
from engine.language.objects import dunders
from engine.language.objects.arguments import bind_arguments
from engine.language.objects.array import Array
from engine.language.objects.containers import make_dict, make_set, sort
from engine.language.objects.kinds import (
    MISSING,
    Args,
    BoundMethod,
    Builtin,
    Class,
    Function,
    Instance,
    Kwargs,
    Lazy,
    Set,
    Site,
    describe,
)
from engine.language.objects.operators import collect, is_number, walk
from engine.language.objects.text import to_repr, to_str
from engine.value import Value

if TYPE_CHECKING:
    from engine.language.library.machine import Machine

TYPES: dict[str, type] = {
    "int": int, "float": float, "bool": bool, "str": str,
    "list": list, "tuple": tuple, "dict": dict, "set": Set,
}  # fmt: skip


def _print(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> None:
    sep, end = kwargs.pop("sep", " "), kwargs.pop("end", "\n")
    kwargs.pop("flush", None)
    if kwargs:
        raise GradstepError(f"print() takes sep= and end=, not {next(iter(kwargs))}=", "arity")
    sep = " " if sep is None else sep
    end = "\n" if end is None else end
    if not isinstance(sep, str) or not isinstance(end, str):
        raise GradstepError("print()'s sep= and end= are strings", "type")
    parts = [to_str(m, x, site) for x in args]
    m.budget.chars(sum(len(p) for p in parts) + len(sep) * len(parts) + len(end))
    m.console.write(sep.join(parts) + end, site.span.line)


def _one(name: str, args: Args, kwargs: Kwargs) -> object:
    (x,) = bind_arguments(name, ("object",), {}, args, kwargs)
    return x


def _str(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> str:
    (x,) = bind_arguments("str", ("object",), {"object": ""}, args, kwargs)
    return to_str(m, x, site)


def _repr(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> str:
    return to_repr(m, _one("repr", args, kwargs), site)


def _bool(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> bool:
    (x,) = bind_arguments("bool", ("x",), {"x": False}, args, kwargs)
    return m.truth(x, site)


def _is_a(x: object, kind: object) -> bool:
    if isinstance(kind, tuple):
        return any(_is_a(x, k) for k in kind)
    if isinstance(kind, Class):
        return type(x) is Instance and x.cls.is_subclass(kind)
    if isinstance(kind, Builtin) and kind.name in TYPES:
        return isinstance(x, TYPES[kind.name])
    if isinstance(kind, Builtin) and kind.name == "Value":
        return isinstance(x, Value)
    raise GradstepError(
        f"isinstance() takes a class, a type such as int or float, or a tuple of them, "
        f"not {describe(kind)}",
        kind="type",
    )


def _isinstance(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> bool:
    x, kind = bind_arguments("isinstance", ("obj", "classinfo"), {}, args, kwargs)
    return _is_a(x, kind)


def own_attribute(obj: object, name: str) -> object:
    """``obj.name`` for ``getattr``/``hasattr``: the program's objects only, never a dunder."""
    if not isinstance(name, str):
        raise GradstepError(f"an attribute name is a string, not {describe(name)}", "type")
    if name.startswith("__"):
        raise GradstepError(f"the attribute {name} is Python's internals", "unsupported")
    if type(obj) is Instance:
        found = obj.attrs.get(name, MISSING)
        if found is MISSING:
            found = obj.cls.lookup(name)
            if type(found) is Function:
                found = BoundMethod(obj, found)
        return found
    if type(obj) is Class:
        return obj.lookup(name)
    if type(obj) is Value and name in ("data", "grad"):
        return getattr(obj, name)
    raise GradstepError(
        f"getattr() and hasattr() read the attributes of the program's own objects, "
        f"not of {describe(obj)}",
        kind="unsupported",
    )


def _hasattr(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> bool:
    obj, name = bind_arguments("hasattr", ("obj", "name"), {}, args, kwargs)
    return own_attribute(obj, name) is not MISSING  # type: ignore[arg-type]


def _getattr(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> object:
    params, defaults = ("obj", "name", "default"), {"default": MISSING}
    obj, name, default = bind_arguments("getattr", params, defaults, args, kwargs)
    found = own_attribute(obj, name)  # type: ignore[arg-type]
    if found is MISSING:
        if default is MISSING:
            raise GradstepError(f"{describe(obj)} has no attribute .{name}", "name")
        return default
    return found


def _id(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> int:
    x = _one("id", args, kwargs)
    found = m.ids.get(id(x))
    if found is None:
        found = m.ids[id(x)] = (x, len(m.ids) + 1)  # keeps x alive: its id stays its own
    return found[1]


def _truths(name: str, want: bool) -> Builtin:
    def run(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> bool:
        for x in walk(_one(name, args, kwargs), f"{name}()", m.budget):
            if m.truth(x, site) == want:
                return want
        return not want

    return Builtin(name, run)


def _reversed(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> Lazy:
    x = _one("reversed", args, kwargs)
    if isinstance(x, dict):
        x = list(x)
    if not isinstance(x, list | tuple | range | str | Array):
        raise GradstepError(f"reversed() takes a list, a tuple or a range, not {describe(x)}")
    return Lazy("reversed", walk(list(x)[::-1], "reversed()", m.budget))


def _sorted(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> list[object]:
    params = ("iterable", "key", "reverse")
    defaults: Kwargs = {"key": None, "reverse": False}
    items, key, reverse = bind_arguments("sorted", params, defaults, args, kwargs)
    return sort(m, site, collect(items, "sorted()", m.budget), key, reverse)


def _extreme(name: str, smallest: bool) -> Builtin:
    def run(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> object:
        key, default = kwargs.pop("key", None), kwargs.pop("default", MISSING)
        if kwargs or not args:
            raise GradstepError(f"{name}() takes numbers or one list, with key= and default=")
        items = collect(args[0], f"{name}()", m.budget) if len(args) == 1 else list(args)
        if not items:
            if default is not MISSING:
                return default
            raise GradstepError(f"{name}() of nothing: it needs at least one number")
        keys = items if key is None else [m.call(key, [x], {}, site) for x in items]
        for k in keys:
            if isinstance(k, Value):
                raise GradstepError(
                    f"{name}() compares plain numbers, not values: compare their .data", "type"
                )
        best = 0
        for i in range(1, len(items)):
            a, b = (keys[i], keys[best]) if smallest else (keys[best], keys[i])
            if m.less(a, b, site):
                best = i
        return items[best]

    return Builtin(name, run)


def _abs(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> object:
    x = _one("abs", args, kwargs)
    if is_number(x):
        return abs(x)  # type: ignore[arg-type]
    found = dunders.method_call(m, x, "__abs__", [], site)
    if found is not dunders.NOT_FOUND:
        return found
    raise GradstepError(
        f"abs() takes a plain number, not {describe(x)} (gradstep has no abs op: "
        "x.relu() + (-x).relu() is |x|)",
        kind="type",
    )


def _set(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> Set:
    (items,) = bind_arguments("set", ("iterable",), {"iterable": ()}, args, kwargs)
    return make_set(m, items)


def _dict(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> dict[object, object]:
    if len(args) > 1:
        raise GradstepError("dict() takes one dict or list of pairs, and keywords", "arity")
    return make_dict(m, args[0] if args else MISSING, kwargs)


MORE: dict[str, object] = {
    "print": Builtin("print", _print),
    "str": Builtin("str", _str),
    "repr": Builtin("repr", _repr),
    "bool": Builtin("bool", _bool),
    "isinstance": Builtin("isinstance", _isinstance),
    "hasattr": Builtin("hasattr", _hasattr),
    "getattr": Builtin("getattr", _getattr),
    "id": Builtin("id", _id),
    "any": _truths("any", True),
    "all": _truths("all", False),
    "reversed": Builtin("reversed", _reversed),
    "sorted": Builtin("sorted", _sorted),
    "min": _extreme("min", True),
    "max": _extreme("max", False),
    "abs": Builtin("abs", _abs),
    "set": Builtin("set", _set),
    "dict": Builtin("dict", _dict),
    "NotImplemented": NotImplemented,
}
