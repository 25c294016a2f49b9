"""ufuncs: numpy's elementwise functions, with broadcasting, numpy's type promotion and numpy's
answers where Python would raise (1/0 is inf, log(0) is -inf, sqrt(-1) is nan).

Each ufunc has loops for some kinds; the inputs are promoted (bool < int64 < float64 < object)
and cast up to the first kind that has a loop. Object loops call the objects' own operators, so
arrays of autograd values build their graphs. Scalars in give numpy scalars out.
"""

import builtins
import math
import operator

from . import _array, _shape
from ._dtypes import KINDS, STORE, kind_of, promote, wrap

__name__ = "numpy"  # so that reprs and errors name the module the program imported

inf = math.inf
nan = math.nan


def operand(value):
    """(flat values, shape, kind) of a ufunc argument. Lists become arrays; Python and numpy
    scalars are 0-d; any other object is a 0-d object array, as numpy makes it."""
    if isinstance(value, _array.ndarray):
        return value._data, value._shape, value._dtype.kind
    kind = kind_of(value)
    if kind != "O":
        return [STORE[kind](value)], (), kind
    if isinstance(value, (list, tuple, range)):
        value = _array.asarray(value)
        return value._data, value._shape, value._dtype.kind
    return [value], (), "O"


class ufunc:
    """An elementwise function: ``loops`` maps an input kind to its function of the values,
    ``out`` the kind of what it returns when that is not the input kind."""

    def __init__(self, name, nin, loops, out=None, refuse=None):
        self.__name__ = name
        self.nin = nin
        self.loops = loops
        self.out = out or {}
        self.refuse = refuse or {}

    def __repr__(self):
        return f"<ufunc '{self.__name__}'>"

    def _loop(self, kind):
        """The loop's input kind and function for inputs promoted to ``kind``."""
        if kind in self.refuse:
            raise TypeError(self.refuse[kind])
        # numbers may be cast up to a wider number, never to objects
        for candidate in KINDS[KINDS.index(kind) : None if kind == "O" else -1]:
            if candidate in self.loops:
                return candidate, self.loops[candidate]
        raise TypeError(
            f"ufunc '{self.__name__}' not supported for the input types, and the inputs could "
            "not be safely coerced to any supported types according to the casting rule ''safe''"
        )

    def __call__(self, *args, out=None):
        if len(args) != self.nin:
            raise TypeError(f"{self.__name__}() takes {self.nin} positional arguments")
        operands = [operand(arg) for arg in args]
        kind, function = self._loop(promote(*(k for _, _, k in operands)))
        shapes = [shape for _, shape, _ in operands]
        shape = shapes[0] if len(set(shapes)) == 1 else _shape.broadcast_shapes(*shapes)
        columns = []
        for data, own_shape, own_kind in operands:
            if own_kind != kind and kind != "O":
                store = STORE[kind]
                data = [store(value) for value in data]
            columns.append(_shape.broadcast_to(data, own_shape, shape))
        return _result(list(map(function, *columns)), shape, self.out.get(kind, kind), out)


def _result(data, shape, kind, out=None):
    """A ufunc's answer: written into ``out`` if given, a numpy scalar if 0-d, else an array."""
    if out is not None:
        out[...] = _array.make(data, shape, kind)
        return out
    if not shape:
        return wrap(kind, data[0])
    return _array.make(data, shape, kind)


def _binary(name, loops, out=None, refuse=None):
    return ufunc(name, 2, loops, out, refuse)


def _unary(name, loops, out=None, refuse=None):
    return ufunc(name, 1, loops, out, refuse)


def _numeric(function, objects=None):
    """The same function for the bool, int and float loops, and the objects' operator."""
    return {"b": function, "i": function, "f": function, "O": objects or function}


# arithmetic


def _divide(x, y):
    try:
        return x / y
    except ZeroDivisionError:
        if x != x or x == 0:
            return nan
        return math.copysign(inf, x) * math.copysign(1.0, y)


def _floor_divide_float(x, y):
    return _divide(x, y) if y == 0 else x // y


def _remainder_float(x, y):
    return nan if y == 0 else x % y


def _is_odd_integer(y):
    return math.isfinite(y) and y == int(y) and int(y) % 2 == 1


def _power_float(x, y):
    try:
        result = x**y
    except ZeroDivisionError:  # 0.0 to a negative power
        return math.copysign(inf, x) if _is_odd_integer(y) else inf
    except OverflowError:
        return -inf if x < 0 and _is_odd_integer(y) else inf
    return nan if isinstance(result, complex) else result


def _power_int(x, y):
    if y < 0:
        raise ValueError("Integers to negative integer powers are not allowed.")
    return x**y


add = _binary("add", {"b": operator.or_, "i": operator.add, "f": operator.add, "O": operator.add})
subtract = _binary(
    "subtract",
    {"i": operator.sub, "f": operator.sub, "O": operator.sub},
    refuse={
        "b": "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, "
        "the `^` operator, or the logical_xor function instead."
    },
)
multiply = _binary(
    "multiply", {"b": operator.and_, "i": operator.mul, "f": operator.mul, "O": operator.mul}
)
divide = _binary("divide", {"f": _divide, "O": operator.truediv})
true_divide = divide
floor_divide = _binary(
    "floor_divide",
    {"i": lambda x, y: x // y if y else 0, "f": _floor_divide_float, "O": operator.floordiv},
)
remainder = _binary(
    "remainder", {"i": lambda x, y: x % y if y else 0, "f": _remainder_float, "O": operator.mod}
)
mod = remainder
power = _binary("power", {"i": _power_int, "f": _power_float, "O": operator.pow})
bitwise_and = _binary("bitwise_and", {"b": operator.and_, "i": operator.and_, "O": operator.and_})
bitwise_or = _binary("bitwise_or", {"b": operator.or_, "i": operator.or_, "O": operator.or_})
bitwise_xor = _binary("bitwise_xor", {"b": operator.xor, "i": operator.xor, "O": operator.xor})
left_shift = _binary("left_shift", {"i": operator.lshift, "O": operator.lshift})
right_shift = _binary("right_shift", {"i": operator.rshift, "O": operator.rshift})
maximum = _binary(
    "maximum",
    {
        "b": max,
        "i": max,
        "f": lambda x, y: x if x >= y or x != x else y,
        "O": lambda x, y: x if x >= y else y,
    },
)
minimum = _binary(
    "minimum",
    {
        "b": min,
        "i": min,
        "f": lambda x, y: x if x <= y or x != x else y,
        "O": lambda x, y: x if x <= y else y,
    },
)
arctan2 = _binary("arctan2", {"f": math.atan2})
hypot = _binary("hypot", {"f": math.hypot})


def _compare(name, function):
    def objects(x, y):
        return bool(function(x, y))

    return _binary(name, _numeric(function, objects), out=dict.fromkeys(KINDS, "b"))


less = _compare("less", operator.lt)
less_equal = _compare("less_equal", operator.le)
greater = _compare("greater", operator.gt)
greater_equal = _compare("greater_equal", operator.ge)
equal = _compare("equal", operator.eq)
not_equal = _compare("not_equal", operator.ne)
logical_and = _compare("logical_and", lambda x, y: bool(x) and bool(y))
logical_or = _compare("logical_or", lambda x, y: bool(x) or bool(y))
logical_xor = _compare("logical_xor", lambda x, y: bool(x) != bool(y))


# one argument


def _method(name):
    """The object loop of a math ufunc: numpy calls the object's method of the same name."""

    def call(value):
        function = getattr(value, name, None)
        if not callable(function):
            raise TypeError(
                f"loop of ufunc does not support argument 0 of type {type(value).__name__} "
                f"which has no callable {name} method"
            )
        return function()

    return call


def _float_ufunc(name, function):
    return _unary(name, {"f": function, "O": _method(name)})


def _log(function, pole=0.0):
    """A logarithm as numpy has it: -inf at its pole, nan below it."""

    def log(x):
        if x > pole:
            return function(x)
        return -inf if x == pole else nan

    return log


def _overflowing(function, odd=False):
    """A function whose overflow is infinity, of the input's sign if the function is odd."""

    def call(x):
        try:
            return function(x)
        except OverflowError:
            return math.copysign(inf, x) if odd else inf

    return call


def _periodic(function):
    def call(x):
        try:
            return function(x)
        except ValueError:  # of infinity
            return nan

    return call


def _bounded(function, low, high):
    def call(x):
        return function(x) if low <= x <= high else nan

    return call


def _sqrt(x):
    return math.sqrt(x) if x >= 0 else nan


def _arctanh(x):
    if -1 < x < 1:
        return math.atanh(x)
    return math.copysign(inf, x) if abs(x) == 1 else nan


def _integral(function):
    """floor, ceil, trunc, rint on floats: the sign of the input survives, as C's does."""

    def call(x):
        return math.copysign(float(function(x)), x) if math.isfinite(x) else x

    return call


def _sign_float(x):
    if x != x:
        return nan
    return float((x > 0) - (x < 0))


exp = _float_ufunc("exp", _overflowing(math.exp))
exp2 = _float_ufunc("exp2", _overflowing(lambda x: 2.0**x))
expm1 = _float_ufunc("expm1", _overflowing(math.expm1))
log = _float_ufunc("log", _log(math.log))
log2 = _float_ufunc("log2", _log(math.log2))
log10 = _float_ufunc("log10", _log(math.log10))
log1p = _float_ufunc("log1p", _log(math.log1p, -1.0))
sqrt = _float_ufunc("sqrt", _sqrt)
sin = _float_ufunc("sin", _periodic(math.sin))
cos = _float_ufunc("cos", _periodic(math.cos))
tan = _float_ufunc("tan", _periodic(math.tan))
arcsin = _float_ufunc("arcsin", _bounded(math.asin, -1, 1))
arccos = _float_ufunc("arccos", _bounded(math.acos, -1, 1))
arctan = _float_ufunc("arctan", math.atan)
sinh = _float_ufunc("sinh", _overflowing(math.sinh, odd=True))
cosh = _float_ufunc("cosh", _overflowing(math.cosh))
tanh = _float_ufunc("tanh", math.tanh)
arcsinh = _float_ufunc("arcsinh", math.asinh)
arccosh = _float_ufunc("arccosh", lambda x: math.acosh(x) if x >= 1 else nan)
arctanh = _float_ufunc("arctanh", _arctanh)
degrees = _float_ufunc("degrees", math.degrees)
radians = _float_ufunc("radians", math.radians)
floor = _unary("floor", {"i": int, "f": _integral(math.floor), "O": _method("floor")})
ceil = _unary("ceil", {"i": int, "f": _integral(math.ceil), "O": _method("ceil")})
trunc = _unary("trunc", {"i": int, "f": _integral(math.trunc), "O": _method("trunc")})
_rint = _integral(builtins.round)
rint = _unary("rint", {"i": int, "f": _rint, "O": _method("rint")})
negative = _unary(
    "negative",
    {"i": operator.neg, "f": operator.neg, "O": operator.neg},
    refuse={
        "b": "The numpy boolean negative, the `-` operator, is not supported, use the `~` "
        "operator or the logical_not function instead."
    },
)
positive = _unary("positive", {"i": operator.pos, "f": operator.pos, "O": operator.pos})
absolute = _unary("absolute", _numeric(abs))
fabs = _unary("fabs", {"f": math.fabs})
square = _unary("square", {"i": lambda x: x * x, "f": lambda x: x * x, "O": lambda x: x * x})
sign = _unary(
    "sign",
    {"i": lambda x: (x > 0) - (x < 0), "f": _sign_float, "O": lambda x: (x > 0) - (x < 0)},
)
reciprocal = _unary("reciprocal", {"f": lambda x: _divide(1.0, x), "O": lambda x: 1 / x})
invert = _unary("invert", {"b": operator.not_, "i": operator.invert, "O": operator.invert})
bitwise_not = invert
logical_not = _unary("logical_not", _numeric(operator.not_), out=dict.fromkeys(KINDS, "b"))
_TESTS = dict.fromkeys(KINDS, "b")
isnan = _unary("isnan", {"i": lambda x: False, "f": math.isnan}, out=_TESTS)
isinf = _unary("isinf", {"i": lambda x: False, "f": math.isinf}, out=_TESTS)
isfinite = _unary("isfinite", {"i": lambda x: True, "f": math.isfinite}, out=_TESTS)
signbit = _unary("signbit", {"f": lambda x: math.copysign(1.0, x) < 0}, out=_TESTS)


# numpy functions built on the ufuncs


def around(a, decimals=0, out=None):
    """numpy's rounding: scale by 10**decimals, round half to even, scale back."""
    decimals = operator.index(decimals)
    data, shape, kind = operand(a)
    if kind == "O":
        kind, result = "O", [builtins.round(value, decimals) for value in data]
    elif kind != "f" and decimals >= 0:
        kind, result = "i", [int(value) for value in data]
    else:
        scale = 10.0 ** abs(decimals)
        if decimals >= 0:
            result = [_rint(value * scale) / scale for value in data]
        else:
            result = [_rint(value / scale) * scale for value in data]
        if kind != "f":
            kind, result = "i", [STORE["i"](value) for value in result]
    return _result(result, shape, kind, out)


def clip(a, a_min=None, a_max=None, out=None):
    """Values below a_min raised to it and above a_max lowered to it; nan stays nan."""
    result = a
    if a_min is not None:
        result = maximum(result, a_min)
    if a_max is not None:
        result = minimum(result, a_max)
    if result is a:
        result = positive(a)
    if out is not None:
        out[...] = result
        return out
    return result


def where(condition, x=None, y=None):
    """Elements of x where the condition holds, of y elsewhere; with the condition alone, the
    indices where it holds."""
    if x is None and y is None:
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    operands = [operand(condition), operand(x), operand(y)]
    kind = promote(operands[1][2], operands[2][2])
    shape = _shape.broadcast_shapes(*(own for _, own, _ in operands))
    flags, xs, ys = (_shape.broadcast_to(data, own, shape) for data, own, _ in operands)
    store = STORE[kind]
    result = [store(x) if flag else store(y) for flag, x, y in zip(flags, xs, ys, strict=True)]
    return _array.make(result, shape, kind)


def nonzero(a):
    a = _array.asarray(a)
    shape = a._shape or (1,)
    hits = [i for i, value in enumerate(a._data) if value]
    steps = _shape.strides(shape)
    return tuple(
        _array.make([(i // step) % n for i in hits], (len(hits),), "i")
        for step, n in zip(steps, shape, strict=True)
    )


def count_nonzero(a, axis=None):
    if axis is None:
        return wrap("i", sum(1 for value in _array.asarray(a)._data if value))
    return _array.asarray(a).astype(bool).sum(axis=axis)


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """|a - b| <= atol + rtol * |b|, and infinities equal to themselves, as numpy tests it."""
    difference = absolute(subtract(a, b))
    close = logical_or(
        logical_and(less_equal(difference, add(atol, multiply(rtol, absolute(b)))), isfinite(b)),
        equal(a, b),
    )
    if equal_nan:
        close = logical_or(close, logical_and(isnan(a), isnan(b)))
    return close


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return bool(_array.asarray(isclose(a, b, rtol, atol, equal_nan)).all())


def array_equal(a1, a2, equal_nan=False):
    a1, a2 = _array.asarray(a1), _array.asarray(a2)
    if a1._shape != a2._shape:
        return False
    same = equal(a1, a2)
    if equal_nan:
        same = logical_or(same, logical_and(isnan(a1), isnan(a2)))
    return bool(_array.asarray(same).all())
