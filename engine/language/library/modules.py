"""The modules a program can import: random and numpy's np.random (seeded, DEFAULT_SEED unless
the program seeds them, so the same program always builds the same graph), math on plain
numbers, sklearn.datasets.make_moons (engine.datasets.moons as arrays), matplotlib.pyplot and
graphviz (every call ignored, as print is) and micrograd: engine.Value is the builtin Value,
and nn is the prelude at the end of this module, a program run like the user's."""

from __future__ import annotations

import ast
import functools
import math
import random
from collections.abc import Callable

from engine import datasets
from engine.errors import GradstepError, Span
from engine.language.library.builtins import BUILTINS
from engine.language.library.machine import Machine
from engine.language.library.npmodule import NUMPY, functions, random_functions
from engine.language.library.nprandom import LegacyRandom
from engine.language.objects.arguments import bind_arguments
from engine.language.objects.array import Array, from_lists
from engine.language.objects.kinds import (
    Args,
    Builtin,
    Frame,
    Ignored,
    Kwargs,
    ModuleObject,
    Scope,
    Site,
    brief,
    describe,
)
from engine.language.objects.operators import as_float
from engine.language.source import Unit, read_tree, spanner
from engine.limits import DEFAULT_SEED
from engine.value import Value

MODULES = (
    "random, math, numpy (arrays, np.random and the math functions: docs/language.md), "
    "matplotlib.pyplot (ignored), "
    "sklearn.datasets (make_moons), graphviz (ignored) and micrograd (engine.Value, nn)"
)


def _seed(x: object) -> int | float:
    if x is None:
        return DEFAULT_SEED
    if isinstance(x, bool) or not isinstance(x, int | float):
        raise GradstepError(f"a seed is a number, not {describe(x)}", kind="type")
    return x


def _random_module(rng: random.Random) -> ModuleObject:
    def fn(name: str, params: tuple[str, ...], defaults: Kwargs, f: Callable[..., object]) -> None:
        def run(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> object:
            values = bind_arguments(f"random.{name}", params, defaults, args, kwargs)
            out = f(*values)
            if isinstance(out, float) and not math.isfinite(out):  # uniform(-1e308, 1e308)
                raise GradstepError(f"random.{name} gave {out}: use smaller numbers", "overflow")
            return out

        attrs[name] = Builtin(f"random.{name}", run)

    def number(x: object) -> float:
        return as_float(x, "random")

    def seq(x: object) -> list[object] | tuple[object, ...] | range:
        if not isinstance(x, list | tuple | range) or not x:
            raise GradstepError(f"this needs a list that is not empty, not {describe(x)}", "type")
        return x

    attrs: dict[str, object] = {}
    fn("seed", ("a",), {"a": None}, lambda a: rng.seed(_seed(a)))
    fn("random", (), {}, rng.random)
    fn("uniform", ("a", "b"), {}, lambda a, b: rng.uniform(number(a), number(b)))
    fn(
        "gauss",
        ("mu", "sigma"),
        {"mu": 0.0, "sigma": 1.0},
        lambda a, b: rng.gauss(number(a), number(b)),
    )
    fn("randint", ("a", "b"), {}, lambda a, b: rng.randint(int(number(a)), int(number(b))))
    fn("choice", ("seq",), {}, lambda s: rng.choice(seq(s)))
    return ModuleObject(
        "random", attrs, "gradstep's random has seed, random, uniform, gauss, randint and choice"
    )


def _math_module() -> ModuleObject:
    def fn(name: str, f: Callable[[float], float]) -> Builtin:
        def run(m: Machine, args: Args, kwargs: Kwargs, site: Site) -> object:
            (x,) = bind_arguments(f"math.{name}", ("x",), {}, args, kwargs)
            if isinstance(x, Value):
                hint = f": for a value write x.{name}()" if hasattr(Value, name) else ""
                raise GradstepError(f"math.{name}() takes a plain number{hint}", kind="type")
            try:
                return f(as_float(x, f"math.{name}()"))
            except ValueError:
                raise GradstepError(
                    f"math.{name}({brief(x)}) is undefined", kind="domain"
                ) from None
            except OverflowError:
                raise GradstepError(f"math.{name}({brief(x)}) overflows", "overflow") from None

        return Builtin(f"math.{name}", run)

    functions: dict[str, Callable[[float], float]] = {
        "exp": math.exp, "log": math.log, "sqrt": math.sqrt, "tanh": math.tanh,
        "sin": math.sin, "cos": math.cos, "fabs": math.fabs, "floor": math.floor,
        "ceil": math.ceil, "log2": math.log2, "log10": math.log10,
    }  # fmt: skip
    attrs: dict[str, object] = {"pi": math.pi, "e": math.e, "tau": math.tau}
    attrs.update({name: fn(name, f) for name, f in functions.items()})
    return ModuleObject("math", attrs, "gradstep's math has " + ", ".join(attrs))


class Modules:
    """The modules of one run: each made once, when first imported, with its own state."""

    def __init__(self, machine: Machine) -> None:
        self.machine = machine
        self.rng = random.Random(DEFAULT_SEED)
        self.np_rng = random.Random(DEFAULT_SEED)  # make_moons' random_state, as it always was
        self.np_legacy = LegacyRandom(DEFAULT_SEED)  # np.random's draws, as numpy's
        self.modules: dict[str, ModuleObject | Ignored] = {}

    def load(self, name: str, span: Span) -> ModuleObject | Ignored:
        found = self.modules.get(name)
        if found is None:
            make = self._makers().get(name)
            if make is None:
                raise GradstepError(
                    f"import {name} is not supported: gradstep provides {MODULES}",
                    kind="unsupported",
                    span=span,
                )
            found = self.modules[name] = make(span)
        return found

    def _makers(self) -> dict[str, Callable[[Span], ModuleObject | Ignored]]:
        moons = Builtin("make_moons", self._make_moons)
        return {
            "random": lambda _: _random_module(self.rng),
            "math": lambda _: _math_module(),
            "numpy": lambda s: self._package("numpy", ("random",), s, functions()),
            "numpy.random": lambda _: ModuleObject(
                "numpy.random", random_functions(self.np_legacy, self._np_seed), NUMPY
            ),
            "matplotlib": lambda _: ModuleObject(
                "matplotlib", {"pyplot": Ignored("matplotlib.pyplot")}
            ),
            "matplotlib.pyplot": lambda _: Ignored("matplotlib.pyplot"),
            "graphviz": lambda _: ModuleObject(
                "graphviz", {"Digraph": Ignored("graphviz.Digraph")}
            ),
            "sklearn": lambda s: self._package("sklearn", ("datasets",), s),
            "sklearn.datasets": lambda _: ModuleObject(
                "sklearn.datasets", {"make_moons": moons}, _SKLEARN
            ),
            "micrograd": lambda s: self._package("micrograd", ("engine", "nn"), s),
            "micrograd.engine": lambda _: ModuleObject(
                "micrograd.engine", {"Value": BUILTINS["Value"]}
            ),
            "micrograd.nn": self._micrograd_nn,
        }

    def _package(
        self, name: str, parts: tuple[str, ...], span: Span, more: dict[str, object] | None = None
    ) -> ModuleObject:
        attrs = {part: self.load(f"{name}.{part}", span) for part in parts}
        return ModuleObject(name, {**attrs, **(more or {})}, NUMPY if name == "numpy" else None)

    def _micrograd_nn(self, span: Span) -> ModuleObject:
        """The prelude, run once in this run: its spans are the user's import (``span``)."""
        lines = PRELUDE.splitlines()
        unit = Unit("micrograd.nn", lines, spanner(lines))
        names: dict[str, object] = {}
        self.machine.block(_prelude_tree().body, Scope(Frame(unit, None, span), names, None, names))
        return ModuleObject("micrograd.nn", {name: names[name] for name in EXPORTS})

    def _np_seed(self, seed: object) -> None:
        self.np_rng.seed(_seed(seed))

    def _make_moons(
        self, m: Machine, args: Args, kwargs: Kwargs, site: Site
    ) -> tuple[Array, Array]:
        params = ("n_samples", "shuffle", "noise", "random_state")
        defaults: Kwargs = {"n_samples": 100, "shuffle": True, "noise": None, "random_state": None}
        n, shuffle, noise, state = bind_arguments("make_moons", params, defaults, args, kwargs)
        if not isinstance(n, int) or isinstance(n, bool) or n < 2:
            raise GradstepError(f"n_samples is a whole number >= 2, not {brief(n)}", kind="type")
        m.budget.size(n, "this dataset")
        m.budget.bulk(n)
        if shuffle is not True:
            raise GradstepError("gradstep's make_moons always shuffles", kind="unsupported")
        spread = 0.0 if noise is None else as_float(noise, "noise=")
        if not 0.0 <= spread <= 1e6:
            raise GradstepError(f"noise is a number from 0 to 1e6, not {brief(noise)}", "domain")
        seed = self.np_rng.randrange(2**32) if state is None else _seed(state)
        X, y = datasets.moons(n, spread, int(seed))
        return from_lists(X, m.budget), Array(list(y))


_SKLEARN = "gradstep's sklearn.datasets has make_moons"


# micrograd.nn, written in gradstep's language and run like the user's code, so that every
# Neuron, Layer and MLP call is an ordinary call the graph can fold, and every weight is drawn
# from the program's own random. It behaves as micrograd's nn: weights uniform in [−1, 1] and
# bias 0, drawn neuron by neuron in micrograd's order; each neuron sums b + w0·x0 + w1·x1 + ...
# in that order; ReLU on every layer but the last, which is linear; a layer of one neuron
# returns a value, not a list.
PRELUDE = """\
import random
from micrograd.engine import Value


class Module:
    def parameters(self):
        return []

    def zero_grad(self):
        for p in self.parameters():
            p.grad = 0


class Neuron(Module):
    def __init__(self, nin, nonlin=True):
        self.w = [Value(random.uniform(-1, 1)) for _ in range(nin)]
        self.b = Value(0)
        self.nonlin = nonlin  # False: linear, as the output layer is

    def __call__(self, x):
        act = sum((w * x_i for w, x_i in zip(self.w, x)), self.b)  # b + w0*x0 + w1*x1 ...
        if self.nonlin:
            return act.relu()
        return act

    def parameters(self):
        return self.w + [self.b]


class Layer(Module):
    def __init__(self, nin, nout, nonlin=True):
        self.neurons = [Neuron(nin, nonlin) for _ in range(nout)]

    def __call__(self, x):
        outs = [neuron(x) for neuron in self.neurons]
        if len(outs) == 1:
            return outs[0]  # one neuron: its value, so that the next layer can take it
        return outs

    def parameters(self):
        params = []
        for neuron in self.neurons:
            params.extend(neuron.parameters())
        return params


class MLP(Module):
    def __init__(self, nin, nouts):
        sizes = [nin] + list(nouts)
        self.layers = []
        for i in range(len(nouts)):
            hidden = i < len(nouts) - 1
            self.layers.append(Layer(sizes[i], sizes[i + 1], nonlin=hidden))

    def __call__(self, x):
        out = x
        for layer in self.layers:
            out = layer(out)
        return out

    def parameters(self):
        params = []
        for layer in self.layers:
            params.extend(layer.parameters())
        return params
"""

EXPORTS = ("Module", "Neuron", "Layer", "MLP")


@functools.cache
def _prelude_tree() -> ast.Module:
    """The prelude's syntax tree, read once per process."""
    return read_tree(PRELUDE)
