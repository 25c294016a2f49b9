"""dot, matmul (@) and outer.

numpy hands float products to BLAS (OpenBLAS), whose kernels add with fused multiply-adds, each
in its own order. Two orders are reproduced: one fused multiply-add after another from 0 (what
ddot and dgemm do with fewer than 16 terms, which covers the tutorials' layers), and dgemv's
for a matrix times a vector (four interleaved lanes, then the last terms). Longer sums may differ
from numpy's in the last bit. Integer products are exact. Object products go as numpy's object
loop goes: the first product, then each next product added to the running sum, with the
objects' own operators.
"""

import itertools
import math
import operator

from . import _array, _shape, _ufuncs
from ._dtypes import STORE, promote, wrap

__name__ = "numpy"  # so that reprs and errors name the module the program imported


def _fma_exact(x, y, z):
    """x * y + z rounded once, for Pythons before 3.13: int / int is correctly rounded."""
    try:
        (a, b), (c, d), (e, f) = x.as_integer_ratio(), y.as_integer_ratio(), z.as_integer_ratio()
    except (OverflowError, ValueError):  # an infinity or nan: rounding no longer matters
        return x * y + z
    numerator = a * c * f + e * b * d
    if numerator == 0:
        return x * y + z  # the sign of a zero sum
    try:
        return numerator / (b * d * f)
    except OverflowError:
        return math.copysign(math.inf, numerator)


fma = getattr(math, "fma", _fma_exact)


def _fused_rows(da, rows, k, db, columns):
    """A @ B with each element's terms fused one after another from 0, computed a row of A at
    a time: one fused multiply-add of the row's t-th value with B's t-th row, per t."""
    b_rows = [db[t * columns : (t + 1) * columns] for t in range(k)]
    out = []
    for i in range(rows):
        row = [0.0] * columns
        for value, b_row in zip(da[i * k : (i + 1) * k], b_rows, strict=True):
            row = list(map(fma, itertools.repeat(value, columns), b_row, row))
        out += row
    return out


def _gemv_sum(xs, ys):
    """A row of a matrix times a vector, summed as OpenBLAS's dgemv_t kernel sums it: four
    lanes of fused multiply-adds over the first k - k % 4 terms, the lanes added (0 + 2) +
    (1 + 3), then the last k % 4 terms as the C tail expression compiles."""
    k = len(xs)
    body = k - k % 4
    total = 0.0
    if body:
        lanes = [0.0] * 4
        for i in range(body):
            lanes[i % 4] = fma(xs[i], ys[i], lanes[i % 4])
        total = (lanes[0] + lanes[2]) + (lanes[1] + lanes[3])
    rest = k - body
    if rest == 1:
        return fma(xs[body], ys[body], total)
    if rest:
        pair = fma(xs[body], ys[body], xs[body + 1] * ys[body + 1])
        if rest == 3:
            pair = fma(xs[body + 2], ys[body + 2], pair)
        return total + pair
    return total


def _int_sum(xs, ys):
    return sum(map(operator.mul, xs, ys))


def _object_sum(xs, ys):
    total = None
    for i, (x, y) in enumerate(zip(xs, ys, strict=True)):
        product = x * y
        total = product if i == 0 else total + product
    return 0 if total is None else total


def _bool_sum(xs, ys):
    return any(x and y for x, y in zip(xs, ys, strict=True))


_SUMS = {"i": _int_sum, "O": _object_sum, "b": _bool_sum}


def _operands(a, b):
    a, b = _array.asarray(a), _array.asarray(b)
    kind = promote(a._dtype.kind, b._dtype.kind)
    store = STORE[kind]
    da = a._data if a._dtype.kind == kind or kind == "O" else [store(v) for v in a._data]
    db = b._data if b._dtype.kind == kind or kind == "O" else [store(v) for v in b._data]
    return da, a._shape, db, b._shape, kind


def _matrix_product(da, rows, k, db, columns, kind, batches=1):
    """The (batches, rows, columns) products of (rows, k) matrices and (batches, k, columns)."""
    out = []
    for batch in range(batches):
        right = db[batch * k * columns : (batch + 1) * k * columns]
        if kind == "f" and columns == 1 and rows > 1:  # a matrix times a vector: dgemv
            out += [_gemv_sum(da[i * k : (i + 1) * k], right) for i in range(rows)]
        elif kind == "f":
            out += _fused_rows(da, rows, k, right, columns)
        else:
            total = _SUMS[kind]
            cols = [right[j::columns] for j in range(columns)]
            out += [total(da[i * k : (i + 1) * k], col) for i in range(rows) for col in cols]
    return out


def _finish(data, shape, kind, out):
    result = wrap(kind, data[0]) if not shape else _array.make(data, shape, kind)
    if out is None:
        return result
    out[...] = result
    return out


def dot(a, b, out=None):
    """numpy.dot: sums over the last axis of a and the second-to-last of b."""
    da, sa, db, sb, kind = _operands(a, b)
    if not sa or not sb:
        return _ufuncs.multiply(a, b, out=out)
    k = sa[-1]
    kb = sb[-2] if len(sb) > 1 else sb[0]
    if k != kb:
        raise ValueError(
            f"shapes {_shape.fmt(sa)} and {_shape.fmt(sb)} not aligned: {k} (dim {len(sa) - 1})"
            f" != {kb} (dim {max(len(sb) - 2, 0)})"
        )
    columns = sb[-1] if len(sb) > 1 else 1
    batches = _shape.prod(sb[:-2])
    rows = _shape.prod(sa[:-1])
    data = _matrix_product(da, rows, k, db, columns, kind, batches)
    if batches > 1:  # numpy's order: a's rows first, then b's batches
        data = [
            data[(batch * rows + i) * columns + j]
            for i in range(rows)
            for batch in range(batches)
            for j in range(columns)
        ]
    return _finish(data, sa[:-1] + sb[:-2] + sb[-1:] * (len(sb) > 1), kind, out)


def matmul(a, b, out=None):
    """numpy.matmul (@): matrix products, broadcast over any leading batch axes."""
    da, sa, db, sb, kind = _operands(a, b)
    for index, shape in enumerate((sa, sb)):
        if not shape:
            raise ValueError(
                f"matmul: Input operand {index} does not have enough dimensions (has 0, gufunc "
                "core with signature (n?,k),(k,m?)->(n?,m?) requires 1)"
            )
    ma = (1, *sa) if len(sa) == 1 else sa  # a vector is a one-row matrix on the left,
    mb = (*sb, 1) if len(sb) == 1 else sb  # a one-column matrix on the right
    if ma[-1] != mb[-2]:
        raise ValueError(
            "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
            f"signature (n?,k),(k,m?)->(n?,m?) (size {mb[-2]} is different from {ma[-1]})"
        )
    batch = _shape.broadcast_shapes(ma[:-2], mb[:-2])
    n, k, m = ma[-2], ma[-1], mb[-1]
    da = _shape.broadcast_to(da, ma, batch + ma[-2:])
    db = _shape.broadcast_to(db, mb, batch + mb[-2:])
    data = []
    for i in range(_shape.prod(batch)):
        left, right = da[i * n * k : (i + 1) * n * k], db[i * k * m : (i + 1) * k * m]
        data += _matrix_product(left, n, k, right, m, kind)
    return _finish(data, batch + (n,) * (len(sa) > 1) + (m,) * (len(sb) > 1), kind, out)


def outer(a, b):
    a, b = _array.asarray(a).ravel(), _array.asarray(b).ravel()
    return _ufuncs.multiply(a.reshape(-1, 1), b.reshape(1, -1))
