"""dtypes and numpy's scalar types. An array keeps plain Python values (float, int, bool or any
object) and a kind, one of "b", "i", "f", "O"; indexing and reductions hand the values back as
numpy scalars (float64, int64, bool), which print as numpy 2 does: str 1.5, repr np.float64(1.5).
"""

__name__ = "numpy"  # so that reprs and errors name the module the program imported

KINDS = "bifO"  # numpy's promotion order among the kinds this stand-in has
INT64_MIN = -(2**63)


class Operators:
    """Python's operators, for arrays and numpy scalars alike: each is a ufunc, so promotion,
    broadcasting and division by zero behave the same whichever side holds the array."""

    __slots__ = ()

    def __add__(self, other):
        return _ufuncs.add(self, other)

    def __radd__(self, other):
        return _ufuncs.add(other, self)

    def __sub__(self, other):
        return _ufuncs.subtract(self, other)

    def __rsub__(self, other):
        return _ufuncs.subtract(other, self)

    def __mul__(self, other):
        return _ufuncs.multiply(self, other)

    def __rmul__(self, other):
        return _ufuncs.multiply(other, self)

    def __truediv__(self, other):
        return _ufuncs.divide(self, other)

    def __rtruediv__(self, other):
        return _ufuncs.divide(other, self)

    def __floordiv__(self, other):
        return _ufuncs.floor_divide(self, other)

    def __rfloordiv__(self, other):
        return _ufuncs.floor_divide(other, self)

    def __mod__(self, other):
        return _ufuncs.remainder(self, other)

    def __rmod__(self, other):
        return _ufuncs.remainder(other, self)

    def __divmod__(self, other):
        return _ufuncs.floor_divide(self, other), _ufuncs.remainder(self, other)

    def __rdivmod__(self, other):
        return _ufuncs.floor_divide(other, self), _ufuncs.remainder(other, self)

    def __pow__(self, other, modulo=None):
        return _ufuncs.power(self, other)

    def __rpow__(self, other):
        return _ufuncs.power(other, self)

    def __matmul__(self, other):
        return _products.matmul(self, other)

    def __rmatmul__(self, other):
        return _products.matmul(other, self)

    def __and__(self, other):
        return _ufuncs.bitwise_and(self, other)

    def __rand__(self, other):
        return _ufuncs.bitwise_and(other, self)

    def __or__(self, other):
        return _ufuncs.bitwise_or(self, other)

    def __ror__(self, other):
        return _ufuncs.bitwise_or(other, self)

    def __xor__(self, other):
        return _ufuncs.bitwise_xor(self, other)

    def __rxor__(self, other):
        return _ufuncs.bitwise_xor(other, self)

    def __lt__(self, other):
        return _ufuncs.less(self, other)

    def __le__(self, other):
        return _ufuncs.less_equal(self, other)

    def __gt__(self, other):
        return _ufuncs.greater(self, other)

    def __ge__(self, other):
        return _ufuncs.greater_equal(self, other)

    def __eq__(self, other):
        return _ufuncs.equal(self, other)

    def __ne__(self, other):
        return _ufuncs.not_equal(self, other)

    def __neg__(self):
        return _ufuncs.negative(self)

    def __pos__(self):
        return _ufuncs.positive(self)

    def __abs__(self):
        return _ufuncs.absolute(self)

    def __invert__(self):
        return _ufuncs.invert(self)

    def __lshift__(self, other):
        return _ufuncs.left_shift(self, other)

    def __rlshift__(self, other):
        return _ufuncs.left_shift(other, self)

    def __rshift__(self, other):
        return _ufuncs.right_shift(self, other)

    def __rrshift__(self, other):
        return _ufuncs.right_shift(other, self)


class generic(Operators):
    """The base of numpy's scalar types: 0-d, with a dtype, and ``item()`` for the Python value."""

    __slots__ = ()
    kind = "O"

    @property
    def dtype(self):
        return DTYPES[self.kind]

    shape = ()
    ndim = 0
    size = 1

    def item(self):
        return STORE[self.kind](self)

    tolist = item

    @property
    def real(self):
        return self

    def astype(self, dtype):
        kind = resolve(dtype).kind
        return wrap(kind, STORE[kind](self))

    def __round__(self, ndigits=None):
        if ndigits is None:
            return round(self.item())
        return _ufuncs.around(self, ndigits)

    def __getattr__(self, name):
        raise AttributeError(f"'numpy.{type(self).__name__}' object has no attribute '{name}'")


class number(generic):
    __slots__ = ()


class integer(number):
    __slots__ = ()


class signedinteger(integer):
    __slots__ = ()


class floating(number):
    __slots__ = ()


class float64(floating, float):
    """numpy.float64: a float whose repr says so."""

    __slots__ = ()
    kind = "f"
    __hash__ = float.__hash__

    def __new__(cls, value=0.0):
        return float.__new__(cls, value)

    def __repr__(self):
        return f"np.float64({float.__repr__(self)})"

    def __str__(self):
        return float.__repr__(self)


class int64(signedinteger):
    """numpy.int64: an integer that, as in numpy, is no Python int (so ``2.5 + np.int64(3)`` is
    numpy's addition, giving np.float64), but indexes and converts like one."""

    __slots__ = ("_value",)
    kind = "i"

    def __new__(cls, value=0):
        self = object.__new__(cls)
        self._value = int(value)
        return self

    def __int__(self):
        return self._value

    __index__ = __int__

    def __float__(self):
        return float(self._value)

    def __bool__(self):
        return self._value != 0

    def __hash__(self):
        return hash(self._value)

    def __repr__(self):
        return f"np.int64({self._value})"

    def __str__(self):
        return str(self._value)

    def __format__(self, spec):
        return format(self._value, spec)

    def __reduce__(self):
        return int64, (self._value,)


class bool_(generic):
    """numpy.bool: two instances, np.True_ and np.False_; unlike Python's bool it is no int."""

    __slots__ = ("_value",)
    kind = "b"

    def __new__(cls, value=False):
        return True_ if value else False_

    def __bool__(self):
        return self._value

    def __int__(self):
        return int(self._value)

    def __float__(self):
        return float(self._value)

    def __hash__(self):
        return hash(self._value)

    def __repr__(self):
        return "np.True_" if self._value else "np.False_"

    def __str__(self):
        return str(self._value)

    def __format__(self, spec):
        return format(str(self), spec)

    def __reduce__(self):
        return bool_, (self._value,)


bool_.__name__ = bool_.__qualname__ = "bool"  # numpy 2 calls it numpy.bool
True_ = object.__new__(bool_)
True_._value = True
False_ = object.__new__(bool_)
False_._value = False


class object_(generic):
    """numpy.object_, the type of the object dtype; its values are the objects themselves."""

    __slots__ = ()

    def __new__(cls, value=None):
        return value


class dtype:
    """One of the four dtypes: float64, int64, bool, object. ``dtype(x)`` accepts what numpy's
    does for them (np.float64, float, 'float64', 'f8', ...), and compares equal to all of it."""

    __slots__ = ("char", "itemsize", "kind", "name", "type")

    def __new__(cls, spec=None):
        return resolve(spec)

    @classmethod
    def _make(cls, kind, name, char, itemsize, scalar):
        self = object.__new__(cls)
        self.kind = kind
        self.name = name
        self.char = char
        self.itemsize = itemsize
        self.type = scalar
        return self

    def __eq__(self, other):
        if other is None:
            return False
        try:
            return resolve(other) is self
        except TypeError:
            return False

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(self.name)

    def __str__(self):
        return self.name

    def __repr__(self):
        return f"dtype('{'O' if self.kind == 'O' else self.name}')"

    def __reduce__(self):
        return dtype, (self.name,)


DTYPES = {
    "b": dtype._make("b", "bool", "?", 1, bool_),
    "i": dtype._make("i", "int64", "l", 8, int64),
    "f": dtype._make("f", "float64", "d", 8, float64),
    "O": dtype._make("O", "object", "O", 8, object_),
}
_NAMES = {
    "f": ("float64", "f8", "float", "double", "d", "<f8"),
    "i": ("int64", "i8", "int", "int_", "l", "<i8", "long", "intp"),
    "b": ("bool", "bool_", "?", "b1"),
    "O": ("object", "O", "object_", "|O"),
}
_BY_NAME = {name: DTYPES[kind] for kind, names in _NAMES.items() for name in names}
_BY_TYPE = {
    float: DTYPES["f"],
    float64: DTYPES["f"],
    int: DTYPES["i"],
    int64: DTYPES["i"],
    bool: DTYPES["b"],
    bool_: DTYPES["b"],
    object: DTYPES["O"],
    object_: DTYPES["O"],
}


def resolve(spec):
    """The dtype that ``spec`` names; TypeError for the ones this stand-in does not have."""
    if isinstance(spec, dtype):
        return spec
    if spec is None:
        return DTYPES["f"]
    found = _BY_NAME.get(spec) if isinstance(spec, str) else _BY_TYPE.get(spec)
    if found is None:
        found = getattr(spec, "dtype", None)
        if not isinstance(found, dtype):
            raise TypeError(f"data type {spec!r} not understood")
    return found


_KIND_OF_TYPE = {float: "f", float64: "f", int: "i", int64: "i", bool: "b", bool_: "b"}


def kind_of(value):
    """The kind numpy gives a Python or numpy scalar: anything else is an object."""
    kind = _KIND_OF_TYPE.get(type(value))
    if kind is not None:
        return kind
    if isinstance(value, bool):
        return "b"
    if isinstance(value, int):
        return "i"
    if isinstance(value, float):
        return "f"
    return "O"


def _to_int(value):
    """numpy's float-to-int cast: truncation, and INT64_MIN for what has no integer."""
    try:
        return int(value)
    except (ValueError, OverflowError):
        return INT64_MIN


STORE = {"f": float, "i": _to_int, "b": bool, "O": lambda value: value}


def wrap(kind, value):
    """The numpy scalar for a stored value (objects are handed back as they are)."""
    if kind == "f":
        return float64(value)
    if kind == "i":
        return int64(value)
    if kind == "b":
        return True_ if value else False_
    return value


def promote(*kinds):
    return KINDS[max(KINDS.index(kind) for kind in kinds)]


# The operators call the ufuncs, which are built on the types above: imported last to close
# the loop without either module reading the other's names while it is being made.
from . import _products, _ufuncs  # noqa: E402
