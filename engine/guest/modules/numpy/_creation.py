"""Making arrays: zeros, ones, full and their _like forms, arange and linspace with numpy's
exact values, logspace, eye, identity, diag and meshgrid."""

import math
import operator

from . import _array, _shape, _ufuncs
from ._dtypes import STORE, float64, kind_of, promote, resolve

__name__ = "numpy"  # so that reprs and errors name the module the program imported


def full(shape, fill_value, dtype=None):
    kind = kind_of(fill_value) if dtype is None else resolve(dtype).kind
    shape = _shape.as_shape(shape)
    return _array.make([STORE[kind](fill_value)] * _shape.prod(shape), shape, kind)


def zeros(shape, dtype=float):
    return full(shape, 0, dtype)


def ones(shape, dtype=float):
    return full(shape, 1, dtype)


empty = zeros  # numpy leaves the values unset; zeros are as good as any


def full_like(a, fill_value, dtype=None):
    a = _array.asarray(a)
    return full(a._shape, fill_value, a._dtype if dtype is None else dtype)


def zeros_like(a, dtype=None):
    return full_like(a, 0, dtype)


def ones_like(a, dtype=None):
    return full_like(a, 1, dtype)


empty_like = zeros_like


def arange(start, stop=None, step=None, dtype=None):
    """numpy's arange: ceil((stop - start) / step) values; floats are start, start + step and
    then start + i * delta with delta = (start + step) - start, as numpy fills them."""
    if stop is None:
        start, stop = 0, start
    if step is None:
        step = 1
    start, stop, step = (STORE[kind_of(value)](value) for value in (start, stop, step))
    if step == 0:
        raise ZeroDivisionError("division by zero")
    kinds = kind_of(start), kind_of(stop), kind_of(step)
    kind = promote("i", *kinds) if dtype is None else resolve(dtype).kind
    length = max(math.ceil((stop - start) / step), 0)
    if kind == "f" or "f" in (kinds[0], kinds[2]):
        start = float(start)
        data = [start, start + step][:length]
        delta = data[-1] - start if length > 1 else 0.0
        data += [start + i * delta for i in range(2, length)]
    else:
        data = [start + i * step for i in range(length)]
    store = STORE[kind]
    return _array.make([store(value) for value in data], (length,), kind)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None):
    """numpy's linspace: i * step + start with step = (stop - start) / div, the last value set
    to stop."""
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    div = num - 1 if endpoint else num
    start, stop = float(start), float(stop)
    delta = stop - start
    points = [float(i) for i in range(num)]
    if div > 0:
        step = delta / div
        if step == 0:
            points = [point / div * delta for point in points]
        else:
            points = [point * step for point in points]
    else:
        step = math.nan
        points = [point * delta for point in points]
    points = [point + start for point in points]
    if endpoint and num > 1:
        points[-1] = stop
    result = _array.make(points, (num,), "f")
    if dtype is not None:
        if resolve(dtype).kind == "i":
            result = _ufuncs.floor(result)
        result = result.astype(dtype)
    return (result, float64(step)) if retstep else result


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None):
    powers = _ufuncs.power(float(base), linspace(start, stop, num, endpoint))
    return powers if dtype is None else powers.astype(dtype)


def eye(N, M=None, k=0, dtype=float):
    M = N if M is None else M
    kind = resolve(dtype).kind
    one, zero = STORE[kind](1), STORE[kind](0)
    data = [one if j - i == k else zero for i in range(N) for j in range(M)]
    return _array.make(data, (N, M), kind)


def identity(n, dtype=float):
    return eye(n, dtype=dtype)


def diag(v, k=0):
    """The diagonal of a matrix, or the matrix with a vector on its diagonal."""
    v = _array.asarray(v)
    kind = v._dtype.kind
    if len(v._shape) == 1:
        n = v._shape[0] + abs(k)
        data = [STORE[kind](0)] * (n * n)
        for i, value in enumerate(v._data):
            row, column = (i, i + k) if k >= 0 else (i - k, i)
            data[row * n + column] = value
        return _array.make(data, (n, n), kind)
    if len(v._shape) != 2:
        raise ValueError("Input must be 1- or 2-d.")
    rows, columns = v._shape
    picked = [v._data[i * columns + i + k] for i in range(rows) if 0 <= i + k < columns]
    return _array.make(picked, (len(picked),), kind)


def meshgrid(*xi, indexing="xy"):
    """Coordinate grids: with 'xy' indexing the first input varies along the columns."""
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    vectors = [_array.asarray(x).ravel() for x in xi]
    shape = [len(vector._data) for vector in vectors]
    axes = list(range(len(vectors)))
    if indexing == "xy" and len(vectors) > 1:
        shape[0], shape[1] = shape[1], shape[0]
        axes[0], axes[1] = 1, 0
    grids = []
    for vector, axis in zip(vectors, axes, strict=True):
        own = [1] * len(shape)
        own[axis] = len(vector._data)
        data = _shape.broadcast_to(vector._data, tuple(own), tuple(shape))
        grids.append(_array.make(list(data), tuple(shape), vector._dtype.kind))
    return tuple(grids)
