"""Operators on the program's own objects, dispatched as Python does: ``a + b`` calls
``a.__add__(b)``, then, when ``a`` has none or it returns ``NotImplemented``, ``b.__radd__(a)``
(not for two objects of the same class); ``-a`` calls ``__neg__``; ``a < b`` calls ``__lt__``,
then ``b.__gt__(a)``; ``==`` and ``!=`` fall back to identity, as ``__hash__`` always is. An
object of the program never meets one of gradstep's own Values silently: that is an error
saying which is which."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from engine.errors import GradstepError
from engine.language.objects.kinds import MISSING, BoundMethod, Function, Instance, Site, describe
from engine.language.objects.operators import SYMBOLS
from engine.value import Value

if TYPE_CHECKING:
    from engine.language.library.machine import Machine

BINARY_METHODS: dict[type[ast.operator], tuple[str, str]] = {
    ast.Add: ("__add__", "__radd__"),
    ast.Sub: ("__sub__", "__rsub__"),
    ast.Mult: ("__mul__", "__rmul__"),
    ast.Div: ("__truediv__", "__rtruediv__"),
    ast.Pow: ("__pow__", "__rpow__"),
    ast.FloorDiv: ("__floordiv__", "__rfloordiv__"),
    ast.Mod: ("__mod__", "__rmod__"),
}
COMPARE_METHODS: dict[type[ast.cmpop], tuple[str, str, str]] = {
    ast.Lt: ("__lt__", "__gt__", "<"),
    ast.LtE: ("__le__", "__ge__", "<="),
    ast.Gt: ("__gt__", "__lt__", ">"),
    ast.GtE: ("__ge__", "__le__", ">="),
    ast.Eq: ("__eq__", "__eq__", "=="),
    ast.NotEq: ("__ne__", "__ne__", "!="),
}
UNARY_METHODS = {ast.USub: ("__neg__", "-"), ast.UAdd: ("__pos__", "+")}
# The methods a class may define (and a program may name): operators, printing, calling.
OPERATOR_METHODS = frozenset(
    {name for pair in BINARY_METHODS.values() for name in pair}
    | {name for triple in COMPARE_METHODS.values() for name in triple[:2]}
    | {"__neg__", "__pos__", "__abs__", "__init__", "__call__", "__repr__", "__str__"}
    | {"__hash__", "__iadd__", "__isub__", "__imul__", "__itruediv__", "__len__", "__bool__"}
)
NOT_FOUND = object()  # the object has no such method (not the same as NotImplemented)


def mixes(a: object, b: object, symbol: str) -> GradstepError:
    own, engine = (a, b) if type(a) is Instance else (b, a)
    assert isinstance(own, Instance) and isinstance(engine, Value)
    return GradstepError(
        f"{symbol} mixes {describe(own)} (the program's own class) with one of gradstep's "
        f"values (made by gradstep's Value or micrograd.nn): {engine!r}. "
        f"Use one engine: make every value with {own.cls.name}(...)",
        kind="type",
    )


def method_call(m: Machine, obj: object, name: str, args: list[object], site: Site) -> object:
    """``obj.name(*args)`` through the class (as Python looks up operators), or NOT_FOUND."""
    if type(obj) is not Instance:
        return NOT_FOUND
    found = obj.cls.lookup(name)
    if found is MISSING or found is None:
        return NOT_FOUND
    if isinstance(found, Function):
        return m.call(BoundMethod(obj, found), args, {}, site)
    return m.call(found, [obj, *args], {}, site)


def binary(m: Machine, op: type[ast.operator], a: object, b: object, site: Site) -> object:
    """``a op b`` where one of them is an object of the program."""
    symbol = SYMBOLS.get(op, "?")
    if isinstance(a, Value) or isinstance(b, Value):
        raise mixes(a, b, symbol)
    forward, reflected = BINARY_METHODS.get(op, ("", ""))
    if not forward:
        raise GradstepError(f"{symbol} is not supported on {describe(a)}", "unsupported")
    result = method_call(m, a, forward, [b], site)
    if result is NOT_FOUND or result is NotImplemented:
        if type(b) is Instance and not (type(a) is Instance and a.cls is b.cls):
            result = method_call(m, b, reflected, [a], site)
    if result is NOT_FOUND or result is NotImplemented:
        raise GradstepError(_no_operator(symbol, a, b, forward, reflected), kind="type")
    return result


def _no_operator(symbol: str, a: object, b: object, forward: str, reflected: str) -> str:
    text = f"{symbol} is not defined for {describe(a)} and {describe(b)}"
    if type(a) is Instance:
        text += f": {a.cls.name} has no {forward}"
        if type(b) is Instance and b.cls is not a.cls:
            text += f" and {b.cls.name} has no {reflected}"
        elif type(b) is not Instance:
            text += f" that takes {describe(b)}"
    elif type(b) is Instance:
        text += f": {b.cls.name} has no {reflected} (for {describe(a)} {symbol} an object)"
    return text


def compare(m: Machine, op: type[ast.cmpop], a: object, b: object, site: Site) -> object:
    """``a op b`` for ``<``, ``<=``, ``>``, ``>=``, ``==`` and ``!=`` with an object of the
    program: its method, the other's reflected one, then identity for ``==`` and ``!=``."""
    forward, reflected, symbol = COMPARE_METHODS[op]
    if isinstance(a, Value) or isinstance(b, Value):
        if op in (ast.Eq, ast.NotEq):
            return (a is b) == (op is ast.Eq)
        raise mixes(a, b, symbol)
    result = method_call(m, a, forward, [b], site)
    if result is NOT_FOUND or result is NotImplemented:
        result = method_call(m, b, reflected, [a], site)
    if result is NOT_FOUND or result is NotImplemented:
        if op is ast.NotEq:
            equal = compare(m, ast.Eq, a, b, site)
            return not m.truth(equal, site) if equal is not NotImplemented else a is not b
        if op is ast.Eq:
            return a is b
        raise GradstepError(
            f"{symbol} is not defined for {describe(a)} and {describe(b)}: define {forward}",
            kind="type",
        )
    return result


def unary(m: Machine, op: type[ast.unaryop], x: Instance, site: Site) -> object:
    name, symbol = UNARY_METHODS.get(op, ("", "~"))
    result = method_call(m, x, name, [], site) if name else NOT_FOUND
    if result is NOT_FOUND or result is NotImplemented:
        raise GradstepError(
            f"{symbol}{x.cls.name} is not defined: {x.cls.name} has no {name or '__invert__'}",
            kind="type",
        )
    return result
