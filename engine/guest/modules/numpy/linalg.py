"""numpy.linalg, as far as tutorials go: norm, for vectors and (Frobenius, 1, inf) matrices."""

import math

from . import _array, _products, _reductions, _shape, _ufuncs

__name__ = "numpy.linalg"  # so that reprs and errors name the module the program imported


def norm(x, ord=None, axis=None, keepdims=False):
    """numpy.linalg.norm, computed the way numpy computes it (sqrt of x.dot(x) by default)."""
    x = _array.asarray(x)
    if x._dtype.kind in "bi":
        x = x.astype("float64")
    ndim = len(x._shape)
    if axis is None and (
        ord is None or (ord in ("f", "fro") and ndim == 2) or (ord == 2 and ndim == 1)
    ):
        flat = x.ravel()
        result = _ufuncs.sqrt(_products.dot(flat, flat))
        return _array.asarray(result).reshape((1,) * ndim) if keepdims else result
    if axis is None:
        axis = tuple(range(ndim))
    axes = axis if isinstance(axis, tuple) else (axis,)
    if len(axes) == 1:
        return _vector_norm(x, ord, axes, keepdims)
    if len(axes) == 2:
        return _matrix_norm(x, ord, axes, keepdims)
    raise ValueError("Improper number of dimensions to norm.")


def _vector_norm(x, ord, axes, keepdims):
    magnitudes = _ufuncs.absolute(x)
    if ord == math.inf:
        return _reductions.max(magnitudes, axes, keepdims=keepdims)
    if ord == -math.inf:
        return _reductions.min(magnitudes, axes, keepdims=keepdims)
    if ord == 0:
        return _reductions.sum(_ufuncs.not_equal(x, 0).astype("float64"), axes, keepdims=keepdims)
    if ord == 1:
        return _reductions.sum(magnitudes, axes, keepdims=keepdims)
    if ord is None or ord == 2:
        squares = _reductions.sum(_ufuncs.multiply(x, x), axes, keepdims=keepdims)
        return _ufuncs.sqrt(squares)
    if isinstance(ord, str):
        raise ValueError(f"Invalid norm order '{ord}' for vectors")
    total = _reductions.sum(_ufuncs.power(magnitudes, ord), axes, keepdims=keepdims)
    return _ufuncs.power(total, 1.0 / ord)


def _matrix_norm(x, ord, axes, keepdims):
    ndim = len(x._shape)
    row_axis, col_axis = (_shape.axis_index(axis, ndim) for axis in axes)
    if row_axis == col_axis:
        raise ValueError("Duplicate axes given.")
    magnitudes = _ufuncs.absolute(x)
    if ord in (None, "fro", "f"):
        result = _ufuncs.sqrt(_reductions.sum(_ufuncs.multiply(x, x), axes))
    elif ord in (1, -1):
        pick = _reductions.max if ord == 1 else _reductions.min
        sums = _reductions.sum(magnitudes, row_axis)
        result = pick(sums, col_axis - (col_axis > row_axis))
    elif ord in (math.inf, -math.inf):
        pick = _reductions.max if ord > 0 else _reductions.min
        sums = _reductions.sum(magnitudes, col_axis)
        result = pick(sums, row_axis - (row_axis > col_axis))
    elif ord in (2, -2, "nuc"):
        raise NotImplementedError(f"norm(ord={ord!r}) of a matrix needs the SVD, not provided")
    else:
        raise ValueError("Invalid norm order for matrices.")
    if keepdims:
        shape = list(x._shape)
        shape[row_axis] = shape[col_axis] = 1
        result = _array.asarray(result).reshape(shape)
    return result
