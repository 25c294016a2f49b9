"""A minimal numpy array for what micrograd's demo does with make_moons' X and y: rows to walk,
len, indexing (X[i], X[i, j], X[:, 0], X[[2, 0]]), X.shape, and arithmetic with numbers
(y*2 - 1). It holds plain numbers only, 1-D or 2-D (a list of 1-D rows)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from engine.errors import GradstepError
from engine.language.budget import Budget


class Array:
    __slots__ = ("items",)

    def __init__(self, items: list[object]) -> None:
        self.items = items  # numbers, or rows (Arrays) of equal length

    @property
    def shape(self) -> tuple[int, ...]:
        if self.items and isinstance(self.items[0], Array):
            return (len(self.items), *self.items[0].shape)
        return (len(self.items),)

    @property
    def size(self) -> int:
        """How many numbers it holds (numpy's ``size``): the work of arithmetic on it."""
        if self.items and isinstance(self.items[0], Array):
            return len(self.items) * len(self.items[0].items)
        return len(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[object]:
        return iter(self.items)

    def map(self, f: Callable[[object], object]) -> Array:
        """``f`` applied to every number (arithmetic with a plain number, y*2 - 1)."""
        return Array([x.map(f) if isinstance(x, Array) else f(x) for x in self.items])

    def zip_map(self, other: Array, f: Callable[[object, object], object]) -> Array:
        if self.shape != other.shape:
            raise GradstepError(
                f"arrays of shapes {self.shape} and {other.shape} cannot be combined", "type"
            )
        return Array(
            [
                a.zip_map(b, f) if isinstance(a, Array) and isinstance(b, Array) else f(a, b)
                for a, b in zip(self.items, other.items, strict=True)
            ]
        )

    def index(self, key: object) -> object:
        if isinstance(key, tuple):
            if not key or len(key) > len(self.shape):
                raise GradstepError(f"this array has {len(self.shape)} dimension(s)", "type")
            first, rest = key[0], key[1:]
            picked = self.index(first)
            if not rest:
                return picked
            if isinstance(first, slice):  # X[:, 0]: the rest applies to every row
                return Array([_row(r).index(rest) for r in _rows(picked)])
            return _row(picked).index(rest)
        if isinstance(key, slice):
            return Array(self.items[key])
        if isinstance(key, list | Array):  # X[[2, 0]]: rows picked by index
            return Array([self.index(i) for i in key])
        if isinstance(key, bool) or not isinstance(key, int):
            raise GradstepError("an array index is a whole number, a slice or a list", "type")
        if not -len(self.items) <= key < len(self.items):
            raise GradstepError(
                f"index {key} is out of range: this array has {len(self.items)} rows", "domain"
            )
        return self.items[key]


def _rows(x: object) -> list[object]:
    return x.items if isinstance(x, Array) else [x]


def _row(x: object) -> Array:
    if not isinstance(x, Array):
        raise GradstepError("too many indices for this array", "type")
    return x


def from_lists(data: object, budget: Budget) -> Array:
    """np.array(...) of numbers or of equal-length rows of numbers, each row copied (a row
    shared n times, [[0] * k] * n, becomes n rows) and charged to ``budget`` before it is."""
    rows = _numbers_or_rows(data)
    budget.size(len(rows), "this array")
    budget.bulk(len(rows))
    if not rows or not isinstance(rows[0], list | tuple | Array):
        if any(isinstance(x, list | tuple | Array) for x in rows):
            raise GradstepError("np.array() needs rows of the same length", "type")
        return Array(_plain(rows))
    width = len(rows[0])
    made: list[object] = []
    for row in rows:
        if not isinstance(row, list | tuple | Array) or len(row) != width:
            raise GradstepError("np.array() needs rows of the same length", "type")
        budget.bulk(width)
        made.append(Array(_plain(_numbers_or_rows(row))))
    return Array(made)


def _numbers_or_rows(data: object) -> list[object]:
    if isinstance(data, Array):
        return data.items
    if not isinstance(data, list | tuple):
        raise GradstepError("np.array() takes a list of numbers or of rows", "type")
    return list(data)


_NUMBERS = {int, float, bool}


def _plain(cells: list[object]) -> list[object]:
    """``cells``, which must be plain numbers (checked by their types at C speed: a row of a
    thousand numbers is checked in microseconds)."""
    if not set(map(type, cells)) <= _NUMBERS:
        if any(isinstance(x, list | tuple | Array) for x in cells):
            raise GradstepError("gradstep's arrays have one or two dimensions", "unsupported")
        raise GradstepError("gradstep's arrays hold plain numbers only", "type")
    return cells
