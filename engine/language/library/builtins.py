"""The functions a program can call without importing anything: Python's builtins that make
sense on numbers, lists and values; gradstep's op functions (tanh(x) is x.tanh()); Value;
draw_dot, which marks the output; and, from ``functions``, print and the builtins on every
object a program holds.

Each is a ``Builtin`` whose ``run`` receives a ``Machine`` (``machine``): the little of the
running program that builtins, list methods and modules use, so that none of them depends on
the evaluator."""

from __future__ import annotations

import ast
import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.errors import GradstepError
from engine.language.library.functions import MORE
from engine.language.objects.arguments import bind_arguments
from engine.language.objects.array import Array
from engine.language.objects.kinds import (
    Args,
    Builtin,
    Instance,
    Kwargs,
    Lazy,
    Set,
    Site,
    describe,
)
from engine.language.objects.operators import as_float, collect, is_number, walk
from engine.ops import FUNCTIONS
from engine.value import Value

if TYPE_CHECKING:
    from engine.language.library.machine import Machine


def one_argument(name: str, args: Args, kwargs: Kwargs) -> object:
    if kwargs:
        key = next(iter(kwargs))
        raise GradstepError(f"{name}() takes no keyword arguments ({key}=)", kind="unsupported")
    if len(args) != 1:
        raise GradstepError(f"{name}() takes one argument, not {len(args)}", kind="arity")
    return args[0]


def _value(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> Value:
    for key in kwargs:
        if key != "label":
            raise GradstepError(
                f"the keyword argument {key}= is not supported: Value takes a number and label=",
                kind="unsupported",
            )
    if len(args) != 1:
        raise GradstepError(
            f"Value takes one number, as in Value(2.0), not {len(args)} arguments", kind="arity"
        )
    if isinstance(args[0], Value):
        raise GradstepError("Value() takes a number, not a value computed from others", "type")
    label = kwargs.get("label")
    if label is not None and not isinstance(label, str):
        raise GradstepError("label= takes a string", kind="type")
    v = m.recorder.leaf(as_float(args[0], "Value()"), site.span, site.scope.frame.record)
    if label:  # micrograd's default label is ''
        m.recorder.set_label(v, label)
    return v


def _draw_dot(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> None:
    x = args[0] if args else None
    if type(x) is Instance and x.cls.own:  # the program's own engine: its node is the output
        m.learner.draws.append(x)
        return
    x = one_argument("draw_dot", args, {k: v for k, v in kwargs.items() if k != "rankdir"})
    if not isinstance(x, Value):
        raise GradstepError(f"draw_dot() takes a value, not {describe(x)}", kind="type")
    m.recorder.draw(x)


def _op_function(name: str) -> Builtin:
    def run(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> object:
        return m.unary(name, one_argument(name, args, kwargs), site.node, site.scope)

    return Builtin(name, run)


def _len(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> int:
    x = one_argument("len", args, kwargs)
    if isinstance(x, list | tuple | range | Array | str | dict):
        return len(x)
    if isinstance(x, Set):
        return len(x.items)
    raise GradstepError(
        f"len() takes a list, a tuple, a range or an array, not {describe(x)}", "type"
    )


def _sum(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> object:
    items, total = bind_arguments("sum", ("iterable", "start"), {"start": 0}, args, kwargs)
    for item in walk(items, "sum()", m.budget):
        total = m.arith(ast.Add, total, item, site.scope, site.node)
    return total


def _range(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> range:
    if kwargs or not 1 <= len(args) <= 3:
        raise GradstepError(
            "range() takes 1 to 3 whole numbers: range(n), range(a, b, step)", "arity"
        )
    ints = [x for x in args if isinstance(x, int)]
    if len(ints) < len(args):
        found = ", ".join(describe(x) for x in args if not isinstance(x, int))
        raise GradstepError(f"range() takes whole numbers, not {found}", kind="type")
    if len(ints) == 3 and ints[2] == 0:
        raise GradstepError("range() with a step of 0 would never end")
    numbers = range(*ints)
    try:
        len(numbers)  # more numbers than a C size: len() would fail later, anywhere
    except OverflowError:
        raise GradstepError(
            "this range is too long to count: no loop could walk it", "limit"
        ) from None
    return numbers


def _zip(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> Lazy:
    if kwargs:
        raise GradstepError("zip() takes no keyword arguments here", "unsupported")
    return Lazy("zip", zip(*(walk(x, "zip()", m.budget) for x in args), strict=False))


def _enumerate(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> Lazy:
    items, start = bind_arguments("enumerate", ("iterable", "start"), {"start": 0}, args, kwargs)
    if not isinstance(start, int):
        raise GradstepError("enumerate()'s start is a whole number", kind="type")
    return Lazy("enumerate", enumerate(walk(items, "enumerate()", m.budget), start))


def _map(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> Lazy:
    if kwargs or len(args) < 2:
        raise GradstepError("map() takes a function and at least one list", kind="arity")
    f, columns = args[0], [walk(x, "map()", m.budget) for x in args[1:]]
    return Lazy("map", (m.call(f, list(xs), {}, site) for xs in zip(*columns, strict=False)))


def _collector(name: str, make: Callable[[list[object]], object]) -> Builtin:
    def run(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> object:
        if kwargs or len(args) > 1:
            raise GradstepError(f"{name}() takes one list or iterator", kind="arity")
        return make(collect(args[0] if args else (), f"{name}()", m.budget))

    return Builtin(name, run)


def _plain(name: str, x: object) -> float:
    if isinstance(x, Value):
        raise GradstepError(f"{name}() of a value: use its number, x.data", kind="type")
    if not is_number(x):
        raise GradstepError(f"{name}() takes a plain number, not {describe(x)}", kind="type")
    return x  # type: ignore[return-value]


def _float(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> float:
    (x,) = bind_arguments("float", ("x",), {"x": 0.0}, args, kwargs)
    return as_float(_plain("float", x), "float()")


def _int(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> int:
    (x,) = bind_arguments("int", ("x",), {"x": 0}, args, kwargs)
    x = _plain("int", x)
    return int(x) if isinstance(x, int) else math.trunc(x)


def _round(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> object:
    x, digits = bind_arguments("round", ("number", "ndigits"), {"ndigits": None}, args, kwargs)
    if not is_number(x) or not (digits is None or isinstance(digits, int)):
        raise GradstepError("round() takes a plain number and a whole number of digits", "type")
    if digits is not None and abs(digits) > 400:  # round(x, -10**18) would build 10**10**18
        raise GradstepError("round() keeps at most 400 digits either side of the point", "domain")
    return round(x, digits)  # type: ignore[call-overload]


BUILTINS: dict[str, object] = {
    "Value": Builtin("Value", _value),
    **{name: _op_function(name) for name in FUNCTIONS},
    "len": Builtin("len", _len),
    "sum": Builtin("sum", _sum),
    "range": Builtin("range", _range),
    "zip": Builtin("zip", _zip),
    "enumerate": Builtin("enumerate", _enumerate),
    "map": Builtin("map", _map),
    "list": _collector("list", list),
    "tuple": _collector("tuple", tuple),
    "float": Builtin("float", _float),
    "int": Builtin("int", _int),
    "round": Builtin("round", _round),
    "draw_dot": Builtin("draw_dot", _draw_dot),
}
BUILTINS.update(MORE)
