"""Equality and hashing of a program's containers, charged to the budget for the work they do.

Python compares nested lists item by item and hashes a tuple by hashing every tuple inside it,
in C, holding the interpreter's lock: ``[A] * n`` shares one row n times, so three levels of
shared rows make n³ comparisons from n items of memory, and a length tells nothing of the work.
Here each pair of containers is compared once (a pair met again is known equal: a difference
ends the walk), each item compared or hashed is charged, and a refusal comes before the work.
"""

from __future__ import annotations

from engine.errors import GradstepError
from engine.language.budget import Budget
from engine.language.objects.array import Array
from engine.language.objects.kinds import Set, describe

MAX_KEY_NESTING = 50  # tuples in tuples as a key: hashing one recurses in C

_ABSENT = object()


def equal(a: object, b: object, budget: Budget) -> bool:
    """``a == b`` as Python decides it for numbers, strings, lists, tuples, dicts and sets (and
    ``is`` for the program's objects), every item walked charged to ``budget``."""
    if not (_container(a) and _container(b)):
        return bool(a == b)
    met: set[tuple[int, int]] = set()
    pairs = [(a, b)]
    while pairs:
        x, y = pairs.pop()
        if x is y:  # as Python: an item is equal to itself (a NaN in a list too)
            continue
        if not (_container(x) and _container(y)):
            if not bool(x == y):
                return False
            continue
        if type(x) is not type(y) or _size(x) != _size(y):
            return False
        if (id(x), id(y)) in met:  # compared already, or being compared: equal so far
            continue
        met.add((id(x), id(y)))
        budget.bulk(_size(x))
        if isinstance(x, list | tuple):
            assert isinstance(y, list | tuple)
            pairs.extend(zip(reversed(x), reversed(y), strict=True))
        elif isinstance(x, dict):
            assert isinstance(y, dict)
            for k, v in x.items():
                budget.bulk(_weight(k))  # hashed again to be found in y
                other = y.get(k, _ABSENT)
                if other is _ABSENT:
                    return False
                pairs.append((v, other))
        else:
            assert isinstance(x, Set) and isinstance(y, Set)
            for k in x.items:
                budget.bulk(_weight(k))
                if k not in y.items:
                    return False
    return True


def contains(items: list[object] | tuple[object, ...], x: object, budget: Budget) -> bool:
    """``x in items`` (a list or a tuple), charged as ``equal`` is."""
    budget.bulk(len(items))
    if not _container(x):  # a number or a string: Python's own walk, a pointer test per item
        return x in items
    return any(item is x or equal(item, x, budget) for item in items)


def _container(x: object) -> bool:
    return isinstance(x, list | tuple | dict | Set)


def _size(x: object) -> int:
    return len(x.items) if isinstance(x, Set) else len(x)  # type: ignore[arg-type]


def key(k: object, budget: Budget) -> object:
    """``k`` as a dict key or set item: numbers, strings, None, tuples of them, and the objects
    of the program (by identity); not lists, dicts or sets (unhashable, as in Python). Hashing
    a tuple hashes every tuple inside it, each time: its items are charged to ``budget``."""
    if isinstance(k, list | dict | Set | Array):
        raise GradstepError(
            f"{describe(k)} cannot be in a set or be a dict key (it can change): use a tuple",
            kind="type",
        )
    budget.bulk(_weight(k))
    return k


def _weight(k: object) -> int:
    """The items Python's hash of ``k`` walks: a tuple's, and those of the tuples in it, every
    time they appear (each distinct tuple is looked through once, to find that number)."""
    if not isinstance(k, tuple):
        return 0
    known: dict[int, tuple[int, int]] = {}  # id -> (items walked by its hash, nesting depth)

    def weigh(t: tuple[object, ...], depth: int) -> tuple[int, int]:
        if depth > MAX_KEY_NESTING:
            raise GradstepError("this tuple nests too deeply to be a key", "limit")
        found = known.get(id(t))
        if found is None:
            items, deepest = len(t), 0
            for x in t:
                if isinstance(x, tuple):
                    inner, below = weigh(x, depth + 1)
                    items, deepest = items + inner, max(deepest, below + 1)
                elif isinstance(x, list | dict | Set | Array):
                    raise GradstepError(f"{describe(x)} cannot be in a set or a dict key", "type")
            found = known[id(t)] = (items, deepest)
        if depth + found[1] > MAX_KEY_NESTING:
            raise GradstepError("this tuple nests too deeply to be a key", "limit")
        return found

    return weigh(k, 0)[0]
