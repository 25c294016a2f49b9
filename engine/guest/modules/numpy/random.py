"""numpy.random: the legacy RandomState and its global functions, drawing the very numbers
numpy's draw for the same seed.

Both numpy's legacy generator and Python's ``random`` are the Mersenne Twister (MT19937), and
numpy's uniform double is Python's ``random()``: the state numpy's seeding makes is put into a
``random.Random`` and the rest is numpy's algorithms over its 32-bit words: masked rejection
for integers, the polar method (keeping the second value) for normals, Fisher-Yates for
shuffles. gradstep seeds the global state with 0 before each run (``reset``).
"""

import math
import operator
import random as _random

from . import _array, _creation, _shape, _ufuncs
from ._dtypes import kind_of

__name__ = "numpy.random"  # so that reprs and errors name the module the program imported

_MASK32 = 0xFFFFFFFF
_N = 624


def _init_genrand(seed):
    key = [seed & _MASK32]
    for i in range(1, _N):
        previous = key[-1]
        key.append((1812433253 * (previous ^ (previous >> 30)) + i) & _MASK32)
    return key


def _init_by_array(words):
    key = _init_genrand(19650218)
    i, j = 1, 0
    for _ in range(max(_N, len(words))):
        previous = key[i - 1]
        key[i] = ((key[i] ^ ((previous ^ (previous >> 30)) * 1664525)) + words[j] + j) & _MASK32
        i, j = i + 1, j + 1
        if i >= _N:
            key[0], i = key[_N - 1], 1
        if j >= len(words):
            j = 0
    for _ in range(_N - 1):
        previous = key[i - 1]
        key[i] = ((key[i] ^ ((previous ^ (previous >> 30)) * 1566083941)) - i) & _MASK32
        i += 1
        if i >= _N:
            key[0], i = key[_N - 1], 1
    key[0] = 0x80000000
    return key


def _legacy_key(seed):
    """The MT19937 state numpy's legacy seeding makes of a seed: an int seeds the twister
    directly (init_genrand), a sequence of ints through init_by_array."""
    if seed is None:
        return _init_by_array([_random.SystemRandom().getrandbits(32) for _ in range(4)])
    if _shape.is_integer(seed):
        words = [operator.index(seed)]
    else:
        array = _array.asarray(seed)
        if not array._data:
            raise ValueError("Seed must be non-empty")
        if array._dtype.kind not in "bi":
            what = "array data" if array._shape else "scalar"
            raise TypeError(
                f"Cannot cast {what} from {array.dtype!r} to dtype('int64') according to "
                "the rule 'safe'"
            )
        if len(array._shape) != 1:
            raise ValueError("Seed array must be 1-d")
        words = array._data
    if not all(0 <= word <= _MASK32 for word in words):
        raise ValueError("Seed must be between 0 and 2**32 - 1")
    return _init_genrand(words[0]) if _shape.is_integer(seed) else _init_by_array(words)


def _shape_of(size):
    return None if size is None else _shape.as_shape(size)


class RandomState:
    """numpy.random.RandomState: the Mersenne Twister with numpy's legacy distributions."""

    def __init__(self, seed=None):
        self._twister = _random.Random()
        self.seed(seed)

    def seed(self, seed=None):
        self._twister.setstate((3, (*_legacy_key(seed), _N), None))
        self._gauss = None  # the second value of the last polar-method pair, if unused

    # the bit generator

    def _uint32(self):
        return self._twister.getrandbits(32)

    def _uint64(self):
        high = self._twister.getrandbits(32)
        return (high << 32) | self._twister.getrandbits(32)

    def _interval(self, maximum):
        """A uniform integer in [0, maximum]: the smallest covering mask, draws rejected above."""
        if maximum == 0:
            return 0
        mask = (1 << maximum.bit_length()) - 1
        draw = self._uint32 if maximum <= _MASK32 else self._uint64
        while True:
            value = draw() & mask
            if value <= maximum:
                return value

    def _normal(self):
        if self._gauss is not None:
            value, self._gauss = self._gauss, None
            return value
        while True:
            x1 = 2.0 * self._twister.random() - 1.0
            x2 = 2.0 * self._twister.random() - 1.0
            r2 = x1 * x1 + x2 * x2
            if 0.0 < r2 < 1.0:
                break
        f = math.sqrt(-2.0 * math.log(r2) / r2)
        self._gauss = f * x1
        return f * x2

    def _fill(self, size, draw, kind="f"):
        """One draw (a Python number) without a size; else an array of draws in C order."""
        shape = _shape_of(size)
        if shape is None:
            return draw()
        return _array.make([draw() for _ in range(_shape.prod(shape))], shape, kind)

    def _fill_broadcast(self, size, draw, *parameters):
        """Draws with array parameters: ``draw(*values)`` for each element of the broadcast
        shape, or of ``size`` when given."""
        if all(kind_of(p) != "O" for p in parameters):
            values = [float(p) for p in parameters]
            return self._fill(size, lambda: draw(*values))
        arrays = [_array.asarray(p, float) for p in parameters]
        shape = _shape.broadcast_shapes(*(a._shape for a in arrays))
        if size is not None:
            shape = _shape.broadcast_shapes(shape, _shape.as_shape(size))
        columns = [_shape.broadcast_to(a._data, a._shape, shape) for a in arrays]
        return _array.make([draw(*values) for values in zip(*columns, strict=True)], shape, "f")

    # distributions

    def random_sample(self, size=None):
        return self._fill(size, self._twister.random)

    random = ranf = sample = random_sample

    def rand(self, *args):
        return self.random_sample(args or None)

    def standard_normal(self, size=None):
        return self._fill(size, self._normal)

    def randn(self, *args):
        return self.standard_normal(args or None)

    def normal(self, loc=0.0, scale=1.0, size=None):
        if _array.asarray(_ufuncs.less(scale, 0)).any():
            raise ValueError("scale < 0")
        return self._fill_broadcast(size, lambda m, s: m + s * self._normal(), loc, scale)

    def uniform(self, low=0.0, high=1.0, size=None):
        span = _ufuncs.subtract(high, low)
        if not _array.asarray(_ufuncs.isfinite(span)).all():
            raise OverflowError("Range exceeds valid bounds")
        return self._fill_broadcast(
            size, lambda lo, width: lo + width * self._twister.random(), low, span
        )

    def randint(self, low, high=None, size=None, dtype=int):
        """Integers in [low, high), by numpy's masked rejection sampling (always int64)."""
        if high is None:
            low, high = 0, low
            if high <= 0:
                raise ValueError("high <= 0")
        low, high = operator.index(low), operator.index(high)
        if low >= high:
            raise ValueError("low >= high")
        span = high - 1 - low
        if span in (_MASK32, 2**64 - 1):
            word = self._uint32 if span == _MASK32 else self._uint64
            return self._fill(size, lambda: low + word(), "i")
        return self._fill(size, lambda: low + self._interval(span), "i")

    def choice(self, a, size=None, replace=True, p=None):
        """numpy's legacy choice, draw for draw: randint or a cumulative-probability search
        with replacement, a permutation's head (or repeated weighted draws) without."""
        population = None if _shape.is_integer(a) else _array.asarray(a)
        if population is not None and len(population._shape) != 1:
            raise ValueError("a must be 1-dimensional")
        pop_size = operator.index(a) if population is None else len(population._data)
        shape = () if size is None else _shape.as_shape(size)
        count = _shape.prod(shape)
        if pop_size <= 0 and count:
            if population is None:
                raise ValueError("a must be greater than 0 unless no samples are taken")
            raise ValueError("'a' cannot be empty unless no samples are taken")
        weights = None if p is None else _checked_probabilities(p, pop_size)
        if replace:
            if weights is None:
                picks = [self.randint(0, pop_size) for _ in range(count)]
            else:
                cdf = _cdf(weights)
                picks = [_search(cdf, self._twister.random()) for _ in range(count)]
        elif count > pop_size:
            raise ValueError("Cannot take a larger sample than population when 'replace=False'")
        elif weights is None:
            picks = list(self.permutation(pop_size)._data[:count])
        else:
            picks = self._weighted_without_replacement(weights, count)
        if size is None:
            return picks[0] if population is None else population[picks[0]]
        index = _array.make(picks, shape, "i")
        return index if population is None else population[index]

    def _weighted_without_replacement(self, weights, count):
        if sum(1 for w in weights if w > 0) < count:
            raise ValueError("Fewer non-zero entries in p than size")
        weights = list(weights)
        found = []
        while len(found) < count:
            draws = [self._twister.random() for _ in range(count - len(found))]
            for index in found:
                weights[index] = 0.0
            cdf = _cdf(weights)
            new = [_search(cdf, x) for x in draws]
            first = {}
            for position, value in enumerate(new):
                first.setdefault(value, position)
            found += [new[position] for position in sorted(first.values())]
        return found

    def shuffle(self, x):
        """Fisher-Yates in place, from the last item down, as numpy's legacy shuffle goes."""
        if isinstance(x, _array.ndarray):
            if not x._shape:
                raise TypeError("len() of unsized object")
            n = x._shape[0]
            step = len(x._data) // n if n else 0
            data = x._data
            for i in range(n - 1, 0, -1):
                j = self._interval(i)
                if i != j:
                    row_i, row_j = slice(i * step, (i + 1) * step), slice(j * step, (j + 1) * step)
                    data[row_i], data[row_j] = data[row_j], data[row_i]
            return
        for i in range(len(x) - 1, 0, -1):
            j = self._interval(i)
            x[i], x[j] = x[j], x[i]

    def permutation(self, x):
        if _shape.is_integer(x):
            result = _creation.arange(operator.index(x))
            self.shuffle(result)
            return result
        result = _array.array(x)
        if not result._shape:
            raise IndexError("x must be an integer or at least 1-dimensional")
        self.shuffle(result)
        return result


def _checked_probabilities(p, pop_size):
    weights = _array.asarray(p, float)
    if len(weights._shape) != 1:
        raise ValueError("'p' must be 1-dimensional")
    weights = weights._data
    if len(weights) != pop_size:
        raise ValueError("'a' and 'p' must have same size")
    total, carry = weights[0], 0.0  # numpy's Kahan sum
    for w in weights[1:]:
        y = w - carry
        t = total + y
        carry = (t - total) - y
        total = t
    if math.isnan(total):
        raise ValueError("probabilities contain NaN")
    if any(w < 0 for w in weights):
        raise ValueError("probabilities are not non-negative")
    if abs(total - 1.0) > 1.4901161193847656e-08:  # the square root of float64's epsilon
        raise ValueError("probabilities do not sum to 1")
    return weights


def _cdf(weights):
    cdf = []
    total = 0.0
    for w in weights:
        total += w
        cdf.append(total)
    return [value / cdf[-1] for value in cdf]


def _search(cdf, x):
    """searchsorted(cdf, x, side='right'): how many values of cdf are <= x."""
    low, high = 0, len(cdf)
    while low < high:
        middle = (low + high) // 2
        if cdf[middle] <= x:
            low = middle + 1
        else:
            high = middle
    return low


_global = RandomState(0)
seed = _global.seed
random_sample = random = ranf = sample = _global.random_sample
rand = _global.rand
randn = _global.randn
standard_normal = _global.standard_normal
normal = _global.normal
uniform = _global.uniform
randint = _global.randint
choice = _global.choice
shuffle = _global.shuffle
permutation = _global.permutation


_SEEDED = {0: _global._twister.getstate()}  # the state seed 0 makes, made once when imported


def reset(seed: int = 0) -> None:
    """Re-seed the global state, as gradstep does before each run of a program (seed 0's state
    is kept: seeding in pure Python takes most of an empty run's time)."""
    if seed in _SEEDED:
        _global._twister.setstate(_SEEDED[seed])
        _global._gauss = None
    else:
        _global.seed(seed)
