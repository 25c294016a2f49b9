"""gradstep's numpy: plain numbers and arrays of them (``array.Array``), no values. np.array,
np.zeros, np.arange, np.mean, np.sum, the functions np.log, np.exp, np.tanh, np.sqrt, np.abs
(a number for a number, an array for an array or a list), and np.random: seed, uniform, rand,
randn, normal, drawn as numpy draws them (``nprandom``), seeded with DEFAULT_SEED unless the
program seeds it. Sizes are checked before an array is made."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.errors import GradstepError
from engine.language.library.nprandom import LegacyRandom
from engine.language.objects.arguments import bind_arguments
from engine.language.objects.array import Array, from_lists
from engine.language.objects.kinds import Args, Builtin, Kwargs, Site, brief, describe
from engine.language.objects.operators import as_float, collect

if TYPE_CHECKING:
    from engine.language.library.machine import Machine

NUMPY = (
    "gradstep's numpy has array, zeros, arange, mean, sum, log, exp, tanh, sqrt, abs and "
    "random (seed, uniform, rand, randn, normal), on plain numbers and arrays of them"
)
_FUNCTIONS: dict[str, Callable[[float], float]] = {
    "log": math.log, "exp": math.exp, "tanh": math.tanh, "sqrt": math.sqrt, "abs": abs,
}  # fmt: skip


def _elementwise(name: str, f: Callable[[float], float]) -> Builtin:
    def each(x: object) -> object:
        if isinstance(x, Array):
            return x.map(each)
        number = as_float(x, f"np.{name}()")  # a value or an object: refused, with its kind
        if name == "abs" and isinstance(x, int):
            return abs(x)  # numpy keeps a whole number whole
        try:
            return f(number)
        except ValueError:
            raise GradstepError(f"np.{name}({brief(number)}) is undefined", "domain") from None
        except OverflowError:
            raise GradstepError(f"np.{name}({brief(number)}) overflows", "overflow") from None

    def run(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> object:
        (x,) = bind_arguments(f"np.{name}", ("x",), {}, args, kwargs)
        if isinstance(x, list | tuple):
            x = _array(m, x)
        if isinstance(x, Array):
            m.budget.bulk(x.size)
        return each(x)

    return Builtin(f"np.{name}", run)


def _array(m: Machine, data: object) -> Array:
    return from_lists(data, m.budget)


def _shape(m: Machine, size: object, what: str) -> tuple[int, ...]:
    dims = size if isinstance(size, tuple | list) else (size,)
    total = 1
    for d in dims:
        if isinstance(d, bool) or not isinstance(d, int) or d < 0:
            raise GradstepError(f"{what}: a size is a whole number >= 0, not {describe(d)}", "type")
        total *= d
        m.budget.size(total, "this array")
    if len(dims) > 2:
        raise GradstepError(f"{what}: gradstep's arrays have one or two dimensions", "unsupported")
    m.budget.bulk(total)
    return tuple(dims)


def _filled(shape: tuple[int, ...], draw: Callable[[], float]) -> Array:
    if len(shape) == 1:
        return Array([draw() for _ in range(shape[0])])
    return Array([Array([draw() for _ in range(shape[1])]) for _ in range(shape[0])])


def _numbers(m: Machine, x: object, what: str) -> list[float]:
    items = collect(x, what, m.budget)
    flat: list[float] = []
    for item in items:
        if isinstance(item, Array):
            flat.extend(_numbers(m, item, what))
        else:
            flat.append(as_float(item, what))
    return flat


def functions() -> dict[str, object]:
    def zeros(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> Array:
        (shape,) = bind_arguments("np.zeros", ("shape",), {}, args, kwargs)
        return _filled(_shape(m, shape, "np.zeros"), lambda: 0.0)

    def arange(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> Array:
        if kwargs or not 1 <= len(args) <= 3:
            raise GradstepError("np.arange takes 1 to 3 numbers: (stop), (start, stop, step)")
        start, stop, step = (0, args[0], 1) if len(args) == 1 else (*args, 1)[:3]
        a, b, s = (as_float(x, "np.arange") for x in (start, stop, step))
        if s == 0:
            raise GradstepError("np.arange with a step of 0 would never end")
        n = max(math.ceil((b - a) / s), 0)
        m.budget.size(n, "this array")
        m.budget.bulk(n)
        whole = all(isinstance(x, int) for x in (start, stop, step))
        return Array([int(a + i * s) if whole else a + i * s for i in range(n)])

    def total(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> float:
        (x,) = bind_arguments("np.sum", ("a",), {}, args, kwargs)
        return math.fsum(_numbers(m, x, "np.sum()")) if x else 0.0

    def mean(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> float:
        (x,) = bind_arguments("np.mean", ("a",), {}, args, kwargs)
        numbers = _numbers(m, x, "np.mean()")
        if not numbers:
            raise GradstepError("np.mean() of nothing is undefined")
        return sum(numbers) / len(numbers)

    def array(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> Array:
        (data,) = bind_arguments("np.array", ("object",), {}, args, kwargs)
        return _array(m, data)

    found: dict[str, object] = {
        "array": Builtin("np.array", array),
        "zeros": Builtin("np.zeros", zeros),
        "arange": Builtin("np.arange", arange),
        "sum": Builtin("np.sum", total),
        "mean": Builtin("np.mean", mean),
        "pi": math.pi,
        "e": math.e,
    }
    found.update({name: _elementwise(name, f) for name, f in _FUNCTIONS.items()})
    return found


def random_functions(rng: LegacyRandom, also: Callable[[object], None]) -> dict[str, object]:
    """np.random's functions drawing from ``rng``; ``also``: what np.random.seed seeds too."""

    def draws(name: str, size: object, m: Machine, draw: Callable[[], float]) -> object:
        if size is None:
            return draw()
        return _filled(_shape(m, size, f"np.random.{name}"), draw)

    def seed(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> None:
        (x,) = bind_arguments("np.random.seed", ("seed",), {"seed": None}, args, kwargs)
        also(x)
        rng.seed(0 if x is None else x)

    def uniform(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> object:
        params = ("low", "high", "size")
        defaults: Kwargs = {"low": 0.0, "high": 1.0, "size": None}
        low, high, size = bind_arguments("np.random.uniform", params, defaults, args, kwargs)
        a, b = as_float(low, "np.random.uniform"), as_float(high, "np.random.uniform")
        return draws("uniform", size, m, lambda: rng.uniform(a, b))

    def normal(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> object:
        params = ("loc", "scale", "size")
        defaults: Kwargs = {"loc": 0.0, "scale": 1.0, "size": None}
        loc, scale, size = bind_arguments("np.random.normal", params, defaults, args, kwargs)
        mu, sigma = as_float(loc, "np.random.normal"), as_float(scale, "np.random.normal")
        return draws("normal", size, m, lambda: mu + sigma * rng.gauss())

    def dims(name: str, draw: Callable[[], float]) -> Builtin:
        def run(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> object:
            if kwargs:
                raise GradstepError(f"np.random.{name} takes sizes only, as in {name}(3, 2)")
            return draws(name, tuple(args) if args else None, m, draw)

        return Builtin(f"np.random.{name}", run)

    return {
        "seed": Builtin("np.random.seed", seed),
        "uniform": Builtin("np.random.uniform", uniform),
        "normal": Builtin("np.random.normal", normal),
        "rand": dims("rand", rng.random),
        "randn": dims("randn", rng.gauss),
    }
