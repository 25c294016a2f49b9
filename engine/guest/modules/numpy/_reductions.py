"""Reductions (sum, mean, std, max, argmax, ...) in numpy's order of operations, which decides
the last bits of a float sum: pairwise summation along the last axis or over the whole array,
row after row along any other axis. Object arrays fold their objects from the first element,
left to right, with the objects' own operators, as numpy does.
"""

import builtins
import functools
import itertools
import operator

from . import _array, _shape, _ufuncs
from ._dtypes import int64, wrap

__name__ = "numpy"  # so that reprs and errors name the module the program imported


def pairwise(values):
    """numpy's pairwise summation of floats (loops_utils.h: blocks of 8 accumulators)."""
    n = len(values)
    if n < 8:
        total = -0.0
        for value in values:
            total += value
        return total
    if n <= 128:
        end = n - n % 8
        r = [functools.reduce(operator.add, values[j:end:8]) for j in range(8)]
        total = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        for value in values[end:]:
            total += value
        return total
    half = n // 2
    half -= half % 8
    return pairwise(values[:half]) + pairwise(values[half:])


def _fold(function, empty):
    """A left fold from the first value, as numpy's reductions without an identity go."""

    def fold(values):
        return functools.reduce(function, values) if values else empty

    return fold


def _rows(function):
    """Fold along a strided axis as numpy's loops do: the first row, then each next row into
    it, value by value."""

    def fold(data, outer, n, inner):
        out = []
        block = n * inner
        for base in range(0, outer * block, block):
            row = data[base : base + inner]
            for start in range(base + inner, base + block, inner):
                row = list(map(function, row, data[start : start + inner]))
            out.extend(row)
        return out

    return fold


def _along(a, axis, keepdims, lane, kind, rows=None):
    """Reduce ``a`` with ``lane(values)`` over each lane of ``axis`` (all values if None), or
    with ``rows`` when numpy goes row by row; the result is a numpy scalar when 0-d."""
    data, shape = a._data, a._shape
    if axis is None:
        value = lane(data)
        if keepdims:
            return _array.make([value], (1,) * len(shape), kind)
        return wrap(kind, value)
    axes = axis if isinstance(axis, tuple) else (axis,)
    axes = sorted({_shape.axis_index(ax, len(shape)) for ax in axes}, reverse=True)
    for ax in axes:
        outer, n, inner = _shape.lanes(shape, ax)
        if inner == 1:
            data = [lane(data[k * n : (k + 1) * n]) for k in range(outer)]
        elif rows is not None and n:
            data = rows(data, outer, n, inner)
        else:
            block = n * inner
            data = [
                lane(data[base + i : base + block : inner])
                for base in range(0, outer * block, block)
                for i in range(inner)
            ]
        shape = (*shape[:ax], 1, *shape[ax + 1 :])
    if not keepdims:
        shape = tuple(n for ax, n in enumerate(shape) if ax not in axes)
    if not shape:
        return wrap(kind, data[0])
    return _array.make(data, shape, kind)


def _prepare(a, dtype=None, bool_as_int=True):
    a = _array.asarray(a)
    if dtype is not None:
        return a.astype(dtype)
    if bool_as_int and a._dtype.kind == "b":
        return a.astype("int64")
    return a


def _output(result, out):
    if out is None:
        return result
    out[...] = result
    return out


_SUM = {
    "f": (lambda values: pairwise(values) if values else 0.0, _rows(operator.add)),
    "i": (builtins.sum, None),
    "O": (_fold(operator.add, 0), _rows(operator.add)),
}
_PROD = {
    "f": (_fold(operator.mul, 1.0), _rows(operator.mul)),
    "i": (_fold(operator.mul, 1), None),
    "O": (_fold(operator.mul, 1), _rows(operator.mul)),
}


def sum(a, axis=None, dtype=None, out=None, keepdims=False):
    a = _prepare(a, dtype)
    kind = a._dtype.kind
    lane, rows = _SUM[kind]
    return _output(_along(a, axis, keepdims, lane, kind, rows), out)


def prod(a, axis=None, dtype=None, out=None, keepdims=False):
    a = _prepare(a, dtype)
    kind = a._dtype.kind
    lane, rows = _PROD[kind]
    return _output(_along(a, axis, keepdims, lane, kind, rows), out)


def _count(a, axis):
    if axis is None:
        return len(a._data)
    axes = axis if isinstance(axis, tuple) else (axis,)
    return _shape.prod(a._shape[_shape.axis_index(ax, len(a._shape))] for ax in axes)


def mean(a, axis=None, dtype=None, out=None, keepdims=False):
    a = _array.asarray(a)
    if dtype is None and a._dtype.kind != "O":
        dtype = "float64"
    total = sum(a, axis, dtype, keepdims=keepdims)
    count = _count(a, axis)
    if not isinstance(total, _array.ndarray) and a._dtype.kind == "O":
        return _output(total / int64(count), out)  # numpy divides the object itself
    return _output(_ufuncs.divide(total, count), out)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    """numpy's two-pass variance: the mean, then the mean square of the deviations."""
    a = _array.asarray(a)
    if dtype is None and a._dtype.kind != "O":
        dtype = "float64"
    count = _count(a, axis)
    centre = _ufuncs.divide(sum(a, axis, dtype, keepdims=True), count)
    deviations = _ufuncs.subtract(a, centre)
    squares = _ufuncs.multiply(deviations, deviations)
    total = sum(squares, axis, dtype, keepdims=keepdims)
    return _output(_ufuncs.divide(total, builtins.max(count - ddof, 0)), out)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    return _output(_ufuncs.sqrt(var(a, axis, dtype, ddof=ddof, keepdims=keepdims)), out)


def _extreme(name, pick, better):
    """max or min: nan wins among floats; objects are compared as numpy's object loop does."""

    def check(values):
        if not values:
            raise ValueError(f"zero-size array to reduction operation {name} which has no identity")

    def lane(values):
        check(values)
        return pick(values)

    def float_lane(values):
        check(values)
        return _ufuncs.nan if builtins.any(value != value for value in values) else pick(values)

    def object_lane(values):
        check(values)
        return functools.reduce(lambda x, y: x if better(x, y) else y, values)

    def reduce(a, axis=None, out=None, keepdims=False):
        a = _prepare(a, bool_as_int=False)
        kind = a._dtype.kind
        function = {"f": float_lane, "O": object_lane}.get(kind, lane)
        return _output(_along(a, axis, keepdims, function, kind), out)

    return reduce


max = _extreme("maximum", builtins.max, operator.ge)
min = _extreme("minimum", builtins.min, operator.le)
amax, amin = max, min


def _arg(name, better):
    """argmax or argmin: the first index of the extreme value (of the first nan, if any)."""

    def lane(values):
        if not values:
            raise ValueError(f"attempt to get {name} of an empty sequence")
        if builtins.any(value != value for value in values if isinstance(value, float)):
            return next(i for i, value in enumerate(values) if value != value)
        best = 0
        for i in range(1, len(values)):
            if better(values[i], values[best]):
                best = i
        return best

    def reduce(a, axis=None, out=None, *, keepdims=False):
        a = _array.asarray(a)
        return _output(_along(a, axis, keepdims, lane, "i"), out)

    return reduce


argmax = _arg("argmax", operator.gt)
argmin = _arg("argmin", operator.lt)


def _any(values):
    return builtins.any(map(bool, values))


def _all(values):
    return builtins.all(map(bool, values))


def any(a, axis=None, out=None, keepdims=False):
    return _output(_along(_array.asarray(a), axis, keepdims, _any, "b"), out)


def all(a, axis=None, out=None, keepdims=False):
    return _output(_along(_array.asarray(a), axis, keepdims, _all, "b"), out)


def _accumulate(function):
    def accumulate(a, axis=None, dtype=None, out=None):
        a = _prepare(a, dtype)
        kind = a._dtype.kind
        if axis is None:
            a = a.ravel()
            axis = 0
        axis = _shape.axis_index(axis, len(a._shape))
        outer, n, inner = _shape.lanes(a._shape, axis)
        data = list(a._data)
        block = n * inner
        for base in range(0, outer * block, block):
            for i in range(inner):
                where = slice(base + i, base + block, inner)
                data[where] = list(itertools.accumulate(data[where], function))
        return _output(_array.make(data, a._shape, kind), out)

    return accumulate


cumsum = _accumulate(operator.add)
cumprod = _accumulate(operator.mul)


def _median(values):
    if builtins.any(value != value for value in values):
        return _ufuncs.nan
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return float(ordered[middle])
    return (float(ordered[middle - 1]) + float(ordered[middle])) / 2.0


def median(a, axis=None, keepdims=False):
    """The middle value, or the mean of the two middle values, of each sorted lane."""
    return _along(_array.asarray(a), axis, keepdims, _median, "f")


def average(a, axis=None, weights=None):
    if weights is None:
        return mean(a, axis)
    a, weights = _array.asarray(a), _array.asarray(weights)
    if axis is not None and weights._shape != a._shape:
        shape = [1] * len(a._shape)
        shape[_shape.axis_index(axis, len(shape))] = len(weights._data)
        weights = weights.reshape(shape)
    if weights._dtype.kind != "O":
        weights = weights.astype("float64")
    return _ufuncs.divide(sum(_ufuncs.multiply(a, weights), axis), sum(weights, axis))
