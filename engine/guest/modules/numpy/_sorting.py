"""sort, argsort, unique, searchsorted. Sorting puts nan last, as numpy's does, and is stable,
which numpy's default quicksort is not: argsort may order equal values differently."""

import math

from . import _array, _shape
from ._dtypes import wrap

__name__ = "numpy"  # so that reprs and errors name the module the program imported


def _key(value):
    return (True, 0.0) if isinstance(value, float) and math.isnan(value) else (False, value)


def _by_lane(a, axis, order):
    """(values, shape, kind) of ``a`` with each lane along ``axis`` (all of a flattened, if
    None) replaced by order(lane)."""
    a = _array.asarray(a)
    if axis is None:
        a, axis = a.ravel(), 0
    outer, n, inner = _shape.lanes(a._shape, _shape.axis_index(axis, len(a._shape)))
    data = list(a._data)
    block = n * inner
    for base in range(0, outer * block, block):
        for i in range(inner):
            where = slice(base + i, base + block, inner)
            data[where] = order(data[where])
    return data, a._shape, a._dtype.kind


def sort(a, axis=-1):
    return _array.make(*_by_lane(a, axis, lambda values: sorted(values, key=_key)))


def argsort(a, axis=-1):
    def order(values):
        return sorted(range(len(values)), key=lambda i: _key(values[i]))

    data, shape, _ = _by_lane(a, axis, order)
    return _array.make(data, shape, "i")


def unique(ar, return_index=False, return_inverse=False, return_counts=False):
    """The sorted distinct values, with the first index, the inverse and the counts if asked."""
    a = _array.asarray(ar).ravel()
    values = a._data
    first = {}
    counts = {}
    for i, value in enumerate(values):
        key = _key(value)
        first.setdefault(key, i)
        counts[key] = counts.get(key, 0) + 1
    keys = sorted(first)
    result = _array.make([values[first[key]] for key in keys], (len(keys),), a._dtype.kind)
    if not (return_index or return_inverse or return_counts):
        return result
    out = [result]
    if return_index:
        out.append(_array.make([first[key] for key in keys], (len(keys),), "i"))
    if return_inverse:
        rank = {key: i for i, key in enumerate(keys)}
        shape = _array.asarray(ar)._shape
        out.append(_array.make([rank[_key(value)] for value in values], shape, "i"))
    if return_counts:
        out.append(_array.make([counts[key] for key in keys], (len(keys),), "i"))
    return tuple(out)


def _insertion_point(keys, key, right):
    low, high = 0, len(keys)
    while low < high:
        middle = (low + high) // 2
        if keys[middle] < key or (right and keys[middle] == key):
            low = middle + 1
        else:
            high = middle
    return low


def searchsorted(a, v, side="left"):
    """Where v would go in the sorted a: before equal values ('left') or after them."""
    keys = [_key(value) for value in _array.asarray(a)._data]
    right = side == "right"
    found = _array.asarray(v)
    points = [_insertion_point(keys, _key(value), right) for value in found._data]
    return _array.make(points, found._shape, "i") if found._shape else wrap("i", points[0])
