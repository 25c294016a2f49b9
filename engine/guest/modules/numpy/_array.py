"""ndarray: a flat Python list of values in C order, a shape and a dtype.

The methods that keep the order of the values (reshape, ravel, squeeze, a 1-D ``.T``) return
arrays over the same list, as numpy's views share memory; indexing and slicing copy. Writing
through indexing (``a[i, j] = x``, ``a[:, 0] = x``, ``a[mask] = x``) and the in-place operators
(``a += b``) change the list itself, so every name for the array sees the change.
"""

from . import (
    _indexing,
    _printing,
    _products,
    _reductions,
    _shape,
    _shaping,
    _sorting,
    _ufuncs,
)
from ._dtypes import DTYPES, KINDS, STORE, Operators, kind_of, promote, resolve, wrap

__name__ = "numpy"  # so that reprs and errors name the module the program imported

ZERO = {"f": 0.0, "i": 0, "b": False, "O": None}
_SEQUENCES = (list, tuple, range)


class _UFuncOutputCastingError(TypeError):
    """What ``a /= 2`` raises on an integer array: the result's dtype does not fit in a's."""

    __module__ = "numpy._core._exceptions"


_UFuncOutputCastingError.__name__ = "UFuncTypeError"  # numpy shows it as its base class


def make(data, shape, kind):
    """An array over ``data`` (kept, not copied) without checks: the stand-in's constructor."""
    self = object.__new__(ndarray)
    self._data = data
    self._shape = shape
    self._dtype = DTYPES[kind]
    return self


class ndarray(Operators):
    """numpy.ndarray of float64, int64, bool or object values, of any number of dimensions."""

    __slots__ = ("_data", "_dtype", "_shape")
    __hash__ = None

    def __new__(cls, shape, dtype=float):
        kind = resolve(dtype).kind
        shape = _shape.as_shape(shape)
        return make([ZERO[kind]] * _shape.prod(shape), shape, kind)

    # attributes

    @property
    def shape(self):
        return self._shape

    @shape.setter
    def shape(self, value):
        value = (value,) if _shape.is_integer(value) else tuple(value)
        self._shape = _shape.reshape(len(self._data), value)

    @property
    def ndim(self):
        return len(self._shape)

    @property
    def size(self):
        return len(self._data)

    @property
    def dtype(self):
        return self._dtype

    @property
    def itemsize(self):
        return self._dtype.itemsize

    @property
    def nbytes(self):
        return self._dtype.itemsize * len(self._data)

    @property
    def T(self):
        return self.transpose()

    @property
    def real(self):
        return self

    @property
    def flat(self):
        return flatiter(self)

    @flat.setter
    def flat(self, value):
        flatiter(self)[:] = value

    # conversions

    def _kind(self):
        return self._dtype.kind

    def astype(self, dtype, copy=True):
        kind = resolve(dtype).kind
        if kind == self._dtype.kind:
            return make(list(self._data), self._shape, kind) if copy else self
        store = STORE[kind]
        return make([store(value) for value in self._data], self._shape, kind)

    def tolist(self):
        return _nest(self._data, self._shape)

    def item(self, *args):
        data = self._data
        if not args:
            if len(data) != 1:
                raise ValueError("can only convert an array of size 1 to a Python scalar")
            return data[0]
        if len(args) == 1 and not isinstance(args[0], tuple):
            index = args[0].__index__()
            if not -len(data) <= index < len(data):
                raise IndexError(
                    "index " + str(index) + " is out of bounds for size " + str(len(data))
                )
            return data[index]
        index = args[0] if len(args) == 1 else args
        offsets, _, _ = _indexing.locate(self._shape, tuple(index))
        return data[offsets[0]]

    def copy(self):
        return make(list(self._data), self._shape, self._kind())

    def __copy__(self):
        return self.copy()

    def __reduce__(self):
        return make, (self._data, self._shape, self._kind())

    def fill(self, value):
        self._data[:] = [STORE[self._kind()](value)] * len(self._data)

    def __len__(self):
        if not self._shape:
            raise TypeError("len() of unsized object")
        return self._shape[0]

    def __iter__(self):
        shape = self._shape
        if not shape:
            raise TypeError("iteration over a 0-d array")
        kind = self._kind()
        if len(shape) == 1:
            return (wrap(kind, value) for value in self._data)
        step = _shape.prod(shape[1:])
        data = self._data
        return (make(data[i * step : (i + 1) * step], shape[1:], kind) for i in range(shape[0]))

    def __contains__(self, value):
        return bool(_reductions.any(_ufuncs.equal(self, value)))

    def __bool__(self):
        if len(self._data) == 1:
            return bool(self._data[0])
        if not self._data:
            raise ValueError(
                "The truth value of an empty array is ambiguous. "
                "Use `array.size > 0` to check that an array is not empty."
            )
        raise ValueError(
            "The truth value of an array with more than one element is ambiguous. "
            "Use a.any() or a.all()"
        )

    def _scalar(self):
        if self._shape:
            raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
        return self._data[0]

    def __float__(self):
        return float(self._scalar())

    def __int__(self):
        return int(self._scalar())

    def __index__(self):
        if self._shape or self._kind() != "i":
            raise TypeError("only integer scalar arrays can be converted to a scalar index")
        return self._data[0]

    def __repr__(self):
        return _printing.array_repr(self)

    def __str__(self):
        return _printing.array_str(self)

    def __format__(self, spec):
        if spec:
            raise TypeError("unsupported format string passed to numpy.ndarray.__format__")
        return str(self)

    def __getattr__(self, name):
        raise AttributeError(f"'numpy.ndarray' object has no attribute '{name}'")

    # indexing

    def __getitem__(self, key):
        shape = self._shape
        kind = self._kind()
        if type(key) is int and shape:
            size = shape[0]
            index = key + size if key < 0 else key
            if not 0 <= index < size:
                raise IndexError(f"index {key} is out of bounds for axis 0 with size {size}")
            if len(shape) == 1:
                return wrap(kind, self._data[index])
            step = len(self._data) // size
            return make(self._data[index * step : (index + 1) * step], shape[1:], kind)
        offsets, out_shape, scalar = _indexing.locate(shape, key)
        data = self._data
        if scalar:
            return wrap(kind, data[offsets[0]])
        return make([data[offset] for offset in offsets], out_shape, kind)

    def __setitem__(self, key, value):
        store = STORE[self._kind()]
        data = self._data
        offsets, out_shape, _ = _indexing.locate(self._shape, key)
        if isinstance(value, ndarray):
            values, shape = value._data, value._shape
        elif isinstance(value, _SEQUENCES):
            value = array(value)
            values, shape = value._data, value._shape
        else:
            values, shape = [value], ()
        if shape != out_shape:
            if not out_shape and len(values) != 1:
                raise ValueError("setting an array element with a sequence.")
            if not _shape.fits(shape, out_shape):
                raise ValueError(
                    f"could not broadcast input array from shape {_shape.fmt(shape)} "
                    f"into shape {_shape.fmt(out_shape)}"
                )
            shape = shape[max(len(shape) - len(out_shape), 0) :]  # fits() allows leading 1s
            values = _shape.broadcast_to(values, shape, out_shape)
        for offset, item in zip(offsets, values, strict=True):
            data[offset] = store(item)

    # shape

    def reshape(self, *shape, order="C"):
        if len(shape) == 1 and not _shape.is_integer(shape[0]):
            shape = shape[0]
        return make(self._data, _shape.reshape(len(self._data), shape), self._kind())

    def ravel(self, order="C"):
        return make(self._data, (len(self._data),), self._kind())

    def flatten(self, order="C"):
        return make(list(self._data), (len(self._data),), self._kind())

    def transpose(self, *axes):
        if len(axes) == 1 and not _shape.is_integer(axes[0]):
            axes = axes[0]
        ndim = len(self._shape)
        if not axes:
            axes = range(ndim - 1, -1, -1)
        elif len(axes) != ndim:
            raise ValueError("axes don't match array")
        axes = tuple(_shape.axis_index(axis, ndim) for axis in axes)
        if sorted(axes) != list(range(ndim)):
            raise ValueError("repeated axis in transpose")
        if ndim < 2:
            return make(self._data, self._shape, self._kind())
        data, shape = _shape.transpose(self._data, self._shape, axes)
        return make(data, shape, self._kind())

    def squeeze(self, axis=None):
        shape = self._shape
        if axis is None:
            keep = [n for n in shape if n != 1]
        else:
            axes = axis if isinstance(axis, tuple) else (axis,)
            axes = {_shape.axis_index(a, len(shape)) for a in axes}
            if any(shape[a] != 1 for a in axes):
                raise ValueError(
                    "cannot select an axis to squeeze out which has size not equal to one"
                )
            keep = [n for a, n in enumerate(shape) if a not in axes]
        return make(self._data, tuple(keep), self._kind())

    def swapaxes(self, axis1, axis2):
        axes = list(range(len(self._shape)))
        a, b = _shape.axis_index(axis1, len(axes)), _shape.axis_index(axis2, len(axes))
        axes[a], axes[b] = axes[b], axes[a]
        return self.transpose(axes)

    def take(self, indices, axis=None):
        if axis is None:
            return self.ravel()[indices]
        key = (slice(None),) * _shape.axis_index(axis, len(self._shape)) + (indices,)
        return self[key]

    def repeat(self, repeats, axis=None):
        return _shaping.repeat(self, repeats, axis)

    def nonzero(self):
        return _ufuncs.nonzero(self)

    # maths

    def __iadd__(self, other):
        return self._inplace(_ufuncs.add, other)

    def __isub__(self, other):
        return self._inplace(_ufuncs.subtract, other)

    def __imul__(self, other):
        return self._inplace(_ufuncs.multiply, other)

    def __itruediv__(self, other):
        return self._inplace(_ufuncs.divide, other)

    def __ifloordiv__(self, other):
        return self._inplace(_ufuncs.floor_divide, other)

    def __imod__(self, other):
        return self._inplace(_ufuncs.remainder, other)

    def __ipow__(self, other):
        return self._inplace(_ufuncs.power, other)

    def __iand__(self, other):
        return self._inplace(_ufuncs.bitwise_and, other)

    def __ior__(self, other):
        return self._inplace(_ufuncs.bitwise_or, other)

    def __ixor__(self, other):
        return self._inplace(_ufuncs.bitwise_xor, other)

    def _inplace(self, ufunc, other):
        """``a op= b``: the result written into a's own list, as numpy's ``out=a`` does."""
        result = asarray(ufunc(self, other))
        kind, own = result._kind(), self._kind()
        if result._shape != self._shape:
            raise ValueError(
                f"non-broadcastable output operand with shape {_shape.fmt(self._shape)} "
                f"doesn't match the broadcast shape {_shape.fmt(result._shape)}"
            )
        if KINDS.index(kind) > KINDS.index(own) and own != "O":
            raise _UFuncOutputCastingError(
                f"Cannot cast ufunc '{ufunc.__name__}' output from {DTYPES[kind]!r} to "
                f"{self._dtype!r} with casting rule 'same_kind'"
            )
        store = STORE[own]
        self._data[:] = result._data if kind == own else [store(v) for v in result._data]
        return self

    def dot(self, other):
        return _products.dot(self, other)

    def clip(self, min=None, max=None):
        return _ufuncs.clip(self, min, max)

    def round(self, decimals=0):
        return _ufuncs.around(self, decimals)

    def __round__(self, ndigits=None):
        return _ufuncs.around(self, ndigits or 0)

    def conj(self):
        return self

    conjugate = conj

    def sum(self, axis=None, dtype=None, keepdims=False):
        return _reductions.sum(self, axis, dtype, keepdims=keepdims)

    def prod(self, axis=None, dtype=None, keepdims=False):
        return _reductions.prod(self, axis, dtype, keepdims=keepdims)

    def mean(self, axis=None, dtype=None, keepdims=False):
        return _reductions.mean(self, axis, dtype, keepdims=keepdims)

    def var(self, axis=None, dtype=None, ddof=0, keepdims=False):
        return _reductions.var(self, axis, dtype, ddof=ddof, keepdims=keepdims)

    def std(self, axis=None, dtype=None, ddof=0, keepdims=False):
        return _reductions.std(self, axis, dtype, ddof=ddof, keepdims=keepdims)

    def max(self, axis=None, keepdims=False):
        return _reductions.max(self, axis, keepdims=keepdims)

    def min(self, axis=None, keepdims=False):
        return _reductions.min(self, axis, keepdims=keepdims)

    def argmax(self, axis=None, keepdims=False):
        return _reductions.argmax(self, axis, keepdims=keepdims)

    def argmin(self, axis=None, keepdims=False):
        return _reductions.argmin(self, axis, keepdims=keepdims)

    def any(self, axis=None, keepdims=False):
        return _reductions.any(self, axis, keepdims=keepdims)

    def all(self, axis=None, keepdims=False):
        return _reductions.all(self, axis, keepdims=keepdims)

    def cumsum(self, axis=None, dtype=None):
        return _reductions.cumsum(self, axis, dtype)

    def cumprod(self, axis=None, dtype=None):
        return _reductions.cumprod(self, axis, dtype)

    def sort(self, axis=-1):
        self._data[:] = _sorting.sort(self, axis)._data

    def argsort(self, axis=-1):
        return _sorting.argsort(self, axis)


class flatiter:
    """``a.flat``: the values in C order; indexing it reads and writes the array itself."""

    __slots__ = ("base",)

    def __init__(self, base):
        self.base = base

    def __iter__(self):
        return iter(self.base.ravel())

    def __len__(self):
        return len(self.base._data)

    def __getitem__(self, key):
        return self.base.ravel()[key]

    def __setitem__(self, key, value):
        self.base.ravel()[key] = value


def _nest(data, shape):
    if not shape:
        return data[0]
    if len(shape) == 1:
        return list(data)
    step = _shape.prod(shape[1:])
    return [_nest(data[i * step : (i + 1) * step], shape[1:]) for i in range(shape[0])]


def _items(value):
    """The next level down of a nested sequence (an array's rows, or its stored values)."""
    if isinstance(value, ndarray):
        if len(value._shape) == 1:
            return value._data
        return list(value)
    return value


def _is_scalar_array(value):
    return isinstance(value, ndarray) and not value._shape


def _is_sequence(value):
    return isinstance(value, _SEQUENCES) or (isinstance(value, ndarray) and value._shape)


def discover(obj, kind=None):
    """(flat values, shape, kind) of a nested sequence, as numpy reads it; ragged input is an
    error unless the kind asked for is object, which keeps the ragged parts as elements."""
    level = [obj]
    shape = []
    while True:
        nested = [_is_sequence(item) for item in level]
        if not any(nested):
            break
        size = len(level[0]) if nested[0] else -1
        if not all(nested) or any(len(item) != size for item in level):
            if kind == "O":
                break
            raise ValueError(
                "setting an array element with a sequence. The requested array has an "
                f"inhomogeneous shape after {len(shape)} dimensions. The detected shape was "
                f"{tuple(shape)} + inhomogeneous part."
            )
        shape.append(size)
        level = [value for item in level for value in _items(item)]
    values = [item._data[0] if _is_scalar_array(item) else item for item in level]
    if kind is None:
        kind = promote(*map(kind_of, values)) if values else "f"
    store = STORE[kind]
    return [store(value) for value in values], tuple(shape), kind


def array(obj, dtype=None, copy=True, ndmin=0):
    kind = None if dtype is None else resolve(dtype).kind
    if isinstance(obj, ndarray):
        own = obj._kind()
        if kind is None or kind == own:
            data, kind = (list(obj._data) if copy else obj._data), own
        else:
            data = [STORE[kind](value) for value in obj._data]
        shape = obj._shape
    else:
        data, shape, kind = discover(obj, kind)
    if ndmin > len(shape):
        shape = (1,) * (ndmin - len(shape)) + shape
    return make(data, shape, kind)


def asarray(obj, dtype=None):
    if isinstance(obj, ndarray) and (dtype is None or resolve(dtype) is obj._dtype):
        return obj
    return array(obj, dtype, copy=False)
