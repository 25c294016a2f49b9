"""Joining and reshaping arrays: concatenate, stack, vstack, hstack, column_stack, append,
np.c_ and np.r_, tile, repeat, flip, expand_dims, atleast_1d/2d, and the function forms of the
shape methods."""

import itertools

from . import _array, _creation, _shape
from ._dtypes import DTYPES, STORE, promote

__name__ = "numpy"  # so that reprs and errors name the module the program imported


def concatenate(arrays, axis=0):
    arrays = [_array.asarray(a) for a in arrays]
    if not arrays:
        raise ValueError("need at least one array to concatenate")
    if axis is None:
        arrays, axis = [a.ravel() for a in arrays], 0
    first = arrays[0]
    ndim = len(first._shape)
    if ndim == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    axis = _shape.axis_index(axis, ndim)
    for index, a in enumerate(arrays):
        if len(a._shape) != ndim:
            raise ValueError(
                "all the input arrays must have same number of dimensions, but the array at "
                f"index 0 has {ndim} dimension(s) and the array at index {index} has "
                f"{len(a._shape)} dimension(s)"
            )
        for dim in range(ndim):
            if dim != axis and a._shape[dim] != first._shape[dim]:
                raise ValueError(
                    "all the input array dimensions except for the concatenation axis must "
                    f"match exactly, but along dimension {dim}, the array at index 0 has size "
                    f"{first._shape[dim]} and the array at index {index} has size {a._shape[dim]}"
                )
    kind = promote(*(a._dtype.kind for a in arrays))
    store = STORE[kind]
    parts = [a._data if a._dtype.kind == kind else [store(v) for v in a._data] for a in arrays]
    blocks = [_shape.prod(a._shape[axis:]) for a in arrays]
    data = []
    for outer in range(_shape.prod(first._shape[:axis])):
        for part, block in zip(parts, blocks, strict=True):
            data.extend(part[outer * block : (outer + 1) * block])
    size = sum(a._shape[axis] for a in arrays)
    return _array.make(data, (*first._shape[:axis], size, *first._shape[axis + 1 :]), kind)


def expand_dims(a, axis):
    a = _array.asarray(a)
    ndim = len(a._shape) + 1
    shape = list(a._shape)
    shape.insert(_shape.axis_index(axis, ndim), 1)
    return a.reshape(shape)


def stack(arrays, axis=0):
    arrays = [_array.asarray(a) for a in arrays]
    if not arrays:
        raise ValueError("need at least one array to stack")
    if len({a._shape for a in arrays}) > 1:
        raise ValueError("all input arrays must have the same shape")
    axis = _shape.axis_index(axis, len(arrays[0]._shape) + 1)
    return concatenate([expand_dims(a, axis) for a in arrays], axis)


def atleast_1d(a):
    a = _array.asarray(a)
    return a.reshape(1) if not a._shape else a


def atleast_2d(a):
    a = _array.asarray(a)
    return a.reshape(1, -1) if len(a._shape) < 2 else a


def vstack(tup):
    return concatenate([atleast_2d(a) for a in tup], 0)


def hstack(tup):
    arrays = [atleast_1d(a) for a in tup]
    return concatenate(arrays, 0 if arrays and len(arrays[0]._shape) == 1 else 1)


def column_stack(tup):
    arrays = [_array.asarray(a) for a in tup]
    return concatenate([a.reshape(-1, 1) if len(a._shape) < 2 else a for a in arrays], 1)


def append(arr, values, axis=None):
    if axis is None:
        return concatenate([_array.asarray(arr).ravel(), _array.asarray(values).ravel()])
    return concatenate([arr, values], axis)


class _Concatenator:
    """np.r_ and np.c_: ``np.r_[a, b, 1:4]`` joins along the first axis, ``np.c_[x, y]``
    stands 1-D pieces up as columns and joins them side by side."""

    def __init__(self, axis, ndmin, trans1d):
        self.axis, self.ndmin, self.trans1d = axis, ndmin, trans1d

    def __getitem__(self, key):
        items = key if isinstance(key, tuple) else (key,)
        pieces = []
        kinds = []
        for item in items:
            if isinstance(item, slice):
                piece = self._range(item)
            else:
                piece = _array.array(item, ndmin=self.ndmin)
                missing = self.ndmin - len(_array.asarray(item)._shape)
                if self.trans1d != -1 and missing > 0:  # np.c_: 1-D pieces become columns
                    axes = list(range(self.ndmin))
                    piece = piece.transpose(axes[missing:] + axes[:missing])
            pieces.append(piece)
            kinds.append(piece._dtype.kind)
        kind = promote(*kinds) if kinds else "f"
        dtype = DTYPES[kind]
        return concatenate([piece.astype(dtype, copy=False) for piece in pieces], self.axis)

    def _range(self, item):
        start = 0 if item.start is None else item.start
        step = 1 if item.step is None else item.step
        if isinstance(step, complex):
            piece = _creation.linspace(start, item.stop, num=int(abs(step)))
        else:
            piece = _creation.arange(start, item.stop, step)
        if self.ndmin > 1:
            piece = _array.array(piece, ndmin=self.ndmin)
            if self.trans1d != -1:
                piece = piece.swapaxes(-1, self.trans1d)
        return piece


r_ = _Concatenator(0, 1, -1)
c_ = _Concatenator(-1, 2, 0)


def tile(A, reps):
    a = _array.asarray(A)
    reps = (reps,) if _shape.is_integer(reps) else tuple(reps)
    ndim = max(len(a._shape), len(reps))
    a = a.reshape((1,) * (ndim - len(a._shape)) + a._shape).copy()
    reps = (1,) * (ndim - len(reps)) + reps
    for axis, times in enumerate(reps):
        if times != 1:
            a = concatenate([a] * times, axis) if times else _take(a, axis, [])
    return a


def _take(a, axis, index):
    shape = (*a._shape[:axis], len(index), *a._shape[axis + 1 :])
    return _array.make(_shape.gather(a._data, a._shape, axis, index), shape, a._dtype.kind)


def repeat(a, repeats, axis=None):
    a = _array.asarray(a)
    if axis is None:
        a, axis = a.ravel(), 0
    axis = _shape.axis_index(axis, len(a._shape))
    n = a._shape[axis]
    counts = [repeats] * n if _shape.is_integer(repeats) else list(repeats)
    if len(counts) != n:
        raise ValueError(
            f"operands could not be broadcast together with shape ({n},) ({len(counts)},)"
        )
    return _take(a, axis, [i for i in range(n) for _ in range(counts[i])])


def flip(m, axis=None):
    m = _array.asarray(m)
    ndim = len(m._shape)
    axes = range(ndim) if axis is None else (axis if isinstance(axis, tuple) else (axis,))
    axes = {_shape.axis_index(ax, ndim) for ax in axes}
    return m[tuple(slice(None, None, -1) if ax in axes else slice(None) for ax in range(ndim))]


def reshape(a, shape, order="C"):
    return _array.asarray(a).reshape(shape)


def ravel(a, order="C"):
    return _array.asarray(a).ravel()


def transpose(a, axes=None):
    return _array.asarray(a).transpose(axes) if axes is not None else _array.asarray(a).T


def squeeze(a, axis=None):
    return _array.asarray(a).squeeze(axis)


def swapaxes(a, axis1, axis2):
    return _array.asarray(a).swapaxes(axis1, axis2)


def shape(a):
    return _array.asarray(a)._shape


def size(a):
    return len(_array.asarray(a)._data)


def ndim(a):
    return len(_array.asarray(a)._shape)


def copy(a):
    return _array.array(a)


def split(ary, indices_or_sections, axis=0):
    """Pieces along ``axis``: n equal ones, or cut before each index given."""
    a = _array.asarray(ary)
    axis = _shape.axis_index(axis, len(a._shape))
    n = a._shape[axis]
    if _shape.is_integer(indices_or_sections):
        sections = indices_or_sections.__index__()
        if sections <= 0 or n % sections:
            raise ValueError("array split does not result in an equal division")
        cuts = list(range(0, n + 1, n // sections)) if n else [0] * (sections + 1)
    else:
        cuts = [0, *indices_or_sections, n]
    return [
        _take(a, axis, list(range(min(start, n), min(max(stop, start), n))))
        for start, stop in itertools.pairwise(cuts)
    ]
