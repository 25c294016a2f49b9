"""Operators on everything but values: plain numbers (Python's ints stay ints, for range and
indexing, within MAX_INT_BITS), lists, tuples and arrays; indexing, comparisons and truth tests.
The evaluator builds anything that involves a Value into the graph instead (``BINARY`` names
the op of the table each operator becomes; ``Evaluator.arith`` decides which)."""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable, Iterator
from typing import Any

from engine.errors import GradstepError
from engine.language.budget import Budget, check_int_bits
from engine.language.objects.array import Array
from engine.language.objects.equality import contains, equal
from engine.language.objects.equality import key as as_key
from engine.language.objects.kinds import Lazy, NotProvided, Set, describe
from engine.limits import MAX_LIST_SIZE
from engine.ops import OPS
from engine.value import Value, overflow

BINARY: dict[type[ast.operator], str] = {
    ast.Add: "add",
    ast.Sub: "sub",
    ast.Mult: "mul",
    ast.Div: "div",
    ast.Pow: "pow",
}
SYMBOLS: dict[type[ast.AST], str] = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.Pow: "**",
    ast.FloorDiv: "//",
    ast.Mod: "%",
}
_PYTHON: dict[type[ast.operator], Callable[[object, object], object]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Pow: operator.pow,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}


def is_number(x: object) -> bool:
    return isinstance(x, int | float)  # bool is an int, as in Python


def as_float(x: object, what: str) -> float:
    if isinstance(x, bool) or not isinstance(x, int | float):
        raise GradstepError(f"{what} takes a number, not {describe(x)}", kind="type")
    try:
        return float(x)
    except OverflowError:
        raise GradstepError(f"{x} is too large for a float", kind="overflow") from None


def arithmetic(op: type[ast.operator], a: object, b: object, budget: Budget) -> object:
    """``a op b`` where neither is a Value."""
    if is_number(a) and is_number(b):
        return numbers(op, a, b)  # type: ignore[arg-type]
    for x in (a, b):
        if isinstance(x, NotProvided):
            raise x.error()
    if isinstance(a, Array) or isinstance(b, Array):
        budget.bulk(max(x.size for x in (a, b) if isinstance(x, Array)))
        return _array(op, a, b)
    if op is ast.Add and type(a) is type(b) and isinstance(a, list | tuple):
        budget.size(len(a) + len(b))  # type: ignore[arg-type]
        budget.bulk(len(a) + len(b))  # type: ignore[arg-type]
        return a + b  # type: ignore[operator]
    if op is ast.Mult:
        seq, n = (a, b) if isinstance(a, list | tuple) else (b, a)
        if isinstance(seq, list | tuple) and isinstance(n, int):
            budget.size(len(seq) * max(n, 0))
            budget.bulk(len(seq) * max(n, 0))
            return seq * n
    raise GradstepError(
        f"{SYMBOLS.get(op, '?')} cannot combine {describe(a)} and {describe(b)}", kind="type"
    )


def numbers(op: type[ast.operator], a: float, b: float) -> float:
    text = f"{_short(a)} {SYMBOLS.get(op, '?')} {_short(b)}"
    if isinstance(a, int) and isinstance(b, int):
        _check_int_size(op, a, b, text)
    if op in (ast.Div, ast.FloorDiv, ast.Mod) and b == 0:
        raise GradstepError(f"division by zero: {text}", kind="domain")
    if op is ast.Pow and not (isinstance(a, int) and isinstance(b, int) and b >= 0):
        return _power(a, b)
    try:
        result: float = _PYTHON[op](a, b)  # type: ignore[assignment]
    except OverflowError:
        result = math.inf
    if isinstance(result, float) and not math.isfinite(result):
        raise GradstepError(f"{text} overflows: the result is too large for a float", "overflow")
    return result


def _short(x: float) -> str:
    """A number for a message: a whole number of hundreds of digits is cut short."""
    text = repr(x)
    return text if len(text) <= 24 else f"{text[:12]}… ({len(text)} digits)"


def _check_int_size(op: type[ast.operator], a: int, b: int, text: str) -> None:
    """Refuse, from the operands' sizes alone, a whole number past MAX_INT_BITS."""
    bits: float = max(a.bit_length(), b.bit_length()) + 1
    if op is ast.Mult:
        bits = a.bit_length() + b.bit_length()
    elif op is ast.Pow and b > 0 and abs(a) > 1:
        bits = b * math.log2(abs(a))
    check_int_bits(bits, text)


def _power(a: float, b: float) -> float:
    """A float power through the op table, for its messages (a negative base, 0 ** -1)."""
    try:
        out, _ = OPS["pow"].eval(float(a), float(b))
    except OverflowError:
        out = math.inf
    if not math.isfinite(out):
        raise overflow(OPS["pow"], (a, b))
    return float(out)


def _array(op: type[ast.operator], a: object, b: object) -> Array:
    def each(x: object, y: object) -> object:
        if not (is_number(x) and is_number(y)):
            raise GradstepError(
                f"{SYMBOLS.get(op, '?')} with an array takes plain numbers", kind="type"
            )
        return numbers(op, x, y)  # type: ignore[arg-type]

    if isinstance(a, Array) and isinstance(b, Array):
        return a.zip_map(b, each)
    if isinstance(a, Array):
        return a.map(lambda x: each(x, b))
    assert isinstance(b, Array)
    return b.map(lambda y: each(a, y))


def negate(x: object, budget: Budget) -> object:
    if is_number(x):
        return -x  # type: ignore[operator]
    if isinstance(x, Array):
        budget.bulk(x.size)
        return x.map(lambda y: negate(y, budget))
    raise GradstepError(f"- cannot negate {describe(x)}", kind="type")


def index(obj: object, key: object, budget: Budget) -> object:
    """``obj[key]``: an item or a slice of a list, tuple, range or array."""
    if isinstance(obj, Array):
        if isinstance(key, list | Array):
            budget.bulk(len(key))
        return obj.index(key)
    if isinstance(obj, Value):
        raise GradstepError(
            "a subscript of a value is not supported: a value holds one number (index a list)",
            kind="unsupported",
        )
    if type(obj) is dict:
        hashable = not isinstance(key, list | dict | Set)
        found = obj.get(as_key(key, budget), _ABSENT) if hashable else _ABSENT
        if found is _ABSENT:
            raise GradstepError(f"the key {_short_key(key)} is not in this dict", "name")
        return found
    if not isinstance(obj, list | tuple | range | str):
        raise GradstepError(f"{describe(obj)} cannot be indexed", kind="type")
    if isinstance(key, slice):
        picked = obj[key]
        budget.bulk(len(picked))
        return picked
    if isinstance(key, bool) or not isinstance(key, int):
        raise GradstepError(f"an index is a whole number, not {describe(key)}", kind="type")
    if not -len(obj) <= key < len(obj):
        count = f"{len(obj)} item{'s' * (len(obj) != 1)}"
        raise GradstepError(f"index {key} is out of range: {describe(obj)} of {count}")
    return obj[key]


_ABSENT = object()


def _short_key(k: object) -> str:
    text = repr(k) if isinstance(k, int | float | str | None) else describe(k)
    return text if len(text) <= 40 else text[:40] + "…"


_ORDER: dict[type[ast.cmpop], Callable[[Any, Any], bool]] = {
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}


def compare(op: ast.cmpop, a: object, b: object, budget: Budget) -> bool:
    kind = type(op)
    if kind is ast.Is:
        return a is b
    if kind is ast.IsNot:
        return a is not b
    if kind in (ast.In, ast.NotIn):
        if isinstance(b, dict | Set):
            if isinstance(a, list | dict | Set | Array):
                raise GradstepError(f"{describe(a)} cannot be in a set or a dict", "type")
            return (as_key(a, budget) in (b.items if isinstance(b, Set) else b)) == (kind is ast.In)
        if isinstance(b, str):
            if not isinstance(a, str):
                raise GradstepError(f"'in' a string looks for a string, not {describe(a)}", "type")
            return (a in b) == (kind is ast.In)
        if not isinstance(b, list | tuple | range) or isinstance(a, Array):
            raise GradstepError(
                f"'in' looks in a list, a tuple or a range, not in {describe(b)}", "type"
            )
        if isinstance(b, range):  # only a whole number is found without walking the range
            if isinstance(a, float) and a.is_integer():
                a = int(a)
            found = isinstance(a, int) and a in b
        else:
            found = contains(b, a, budget)
        return found == (kind is ast.In)
    if isinstance(a, Value) or isinstance(b, Value):
        raise GradstepError(
            "comparing values is not supported: compare their .data instead, as in "
            "x.data > 0 (a comparison has no gradient)",
            kind="unsupported",
        )
    if isinstance(a, Array) or isinstance(b, Array):
        raise GradstepError("comparing arrays is not supported: compare their items", "type")
    if kind is ast.Eq:
        return equal(a, b, budget)
    if kind is ast.NotEq:
        return not equal(a, b, budget)
    if not (is_number(a) and is_number(b)):
        raise GradstepError(
            f"only plain numbers can be ordered, not {describe(a)} and {describe(b)}", "type"
        )
    return _ORDER[kind](a, b)


def truth(x: object) -> bool:
    if isinstance(x, Value):
        raise GradstepError(
            "a value is neither true nor false: test its .data instead, as in if x.data > 0:",
            kind="unsupported",
        )
    if isinstance(x, Array):
        raise GradstepError("an array is neither true nor false: test its items", "type")
    if isinstance(x, NotProvided):
        raise x.error()
    if isinstance(x, Set):
        return bool(x.items)
    return bool(x)


# Walks ----------------------------------------------------------------------------------------


def walk(obj: object, what: str, budget: Budget) -> Iterator[object]:
    """The items of a list, tuple, range, array or iterator (``what`` walks them: "this loop"),
    each counted by ``budget`` as it is taken."""
    if isinstance(obj, list | tuple | range | Array | str):
        return budget.loop(obj, what)
    if isinstance(obj, dict | Set):
        return budget.loop(_keys(obj.items if isinstance(obj, Set) else obj), what)
    if isinstance(obj, Lazy):
        return budget.loop(obj.items, what)
    if isinstance(obj, NotProvided):
        raise obj.error()
    raise GradstepError(f"{what} needs a list, a tuple, a set or a range: {describe(obj)}", "type")


def _keys(d: dict[object, object] | dict[object, None]) -> Iterator[object]:
    try:
        yield from d
    except RuntimeError:  # Python's own check: the dict changed size during iteration
        raise GradstepError(
            "a set or dict changed size while a loop walked it: walk a copy, list(s)", "domain"
        ) from None


def collect(obj: object, what: str, budget: Budget) -> list[object]:
    """The items of ``obj`` as a new list, its size and the copy charged to ``budget``."""
    out: list[object] = []
    for item in walk(obj, what, budget):
        out.append(item)
        if len(out) >= MAX_LIST_SIZE:
            budget.size(len(out) + 1)
    budget.bulk(len(out))
    return out
