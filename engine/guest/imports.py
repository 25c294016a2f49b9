"""What ``import`` finds inside the sandbox besides CPython's standard library: gradstep's
stand-ins for numpy, scikit-learn's datasets, matplotlib and graphviz (pure Python, registered
under their real names), micrograd (the program's own classes when it defines them, else
gradstep's), and torch, which gradstep cannot run: importing it works, using it stops the piece
of the program that needs it (``TorchMissing``) and the rest runs.
"""

from __future__ import annotations

import builtins
import functools
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import math
import sys
from collections.abc import Callable, Sequence
from types import CodeType, ModuleType
from typing import Any

from engine.guest.places import NN
from engine.guest.source import library
from engine.value import Value, cos, exp, log, sin, sqrt, tanh

# the stand-ins, by the names programs import them by
NAMES = ("numpy", "numpy.random", "numpy.linalg", "sklearn", "sklearn.datasets", "matplotlib",
         "matplotlib.pyplot", "matplotlib.patches", "matplotlib.cm", "matplotlib.colors",
         "graphviz")  # fmt: skip
STAND_INS = {name: importlib.import_module(f"engine.guest.modules.{name}") for name in NAMES}
NN_CLASSES = ("Module", "Neuron", "Layer", "MLP")


def _nn_code() -> CodeType:
    spec = importlib.util.find_spec("engine.guest.modules.micrograd.nn")
    assert spec is not None and spec.origin is not None
    with open(spec.origin, encoding="utf-8") as f:
        return library(f.read(), NN)


NN_CODE = _nn_code()  # read when the component is built: there are no files at run time


def _on_values(op: Callable[[Any], Value], plain: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(plain)
    def either(x: Any, *rest: Any) -> Any:
        if isinstance(x, Value):
            return op(x) if not rest else op(x) / plain(*rest)  # log(x, base)
        return plain(x, *rest)

    return either


def _typed_math() -> ModuleType:
    """math as a typed example sees it (``a = 2.0; y = math.exp(a)``): its functions that are
    ops of gradstep's Value take a value and give one, so they are drawn; the rest are math's."""
    module = ModuleType("math", math.__doc__)
    module.__dict__.update(math.__dict__)
    for op in (exp, log, tanh, sin, cos, sqrt):
        setattr(module, op.__name__, _on_values(op, getattr(math, op.__name__)))
    return module


TYPED_MATH = _typed_math()


def typed_import(name: str, *args: Any, **kwargs: Any) -> Any:
    """``__import__`` for a typed example: ``import math`` and ``from math import exp`` give
    TYPED_MATH; everything else is imported as usual."""
    if name == "math" and (args[3] if len(args) > 3 else kwargs.get("level", 0)) == 0:
        return TYPED_MATH
    return _import(name, *args, **kwargs)


_import = builtins.__import__


class TorchMissing(Exception):
    """The program used torch, which gradstep cannot run."""


class _Torch(ModuleType):
    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        raise TorchMissing(f"{self.__name__}.{name}")


class Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """micrograd and torch, made for the run that imports them (``names``: the program's
    globals, where its own classes are found)."""

    def __init__(self, names: dict[str, Any], classes: set[type]) -> None:
        self.names = names
        self.classes = classes
        self.made: list[str] = []  # the modules made for this run

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        root = fullname.split(".")[0]
        if root in ("micrograd", "torch"):
            package = fullname in ("micrograd", "torch") or root == "torch"
            return importlib.machinery.ModuleSpec(fullname, self, is_package=package)
        return None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        if spec.name.split(".")[0] == "torch":
            return _Torch(spec.name)
        return None

    def exec_module(self, module: ModuleType) -> None:
        name = module.__name__
        self.made.append(name)
        if name == "micrograd.engine":
            mine = self._own("Value")
            module.Value = mine if mine is not None else Value  # type: ignore[attr-defined]
        elif name == "micrograd.nn":
            own = {n: c for n in NN_CLASSES if (c := self._own(n)) is not None}
            if own:
                module.__dict__.update(own)
            else:
                module.__dict__["__gradstep__"] = self.names["__gradstep__"]  # its names' hooks
                exec(NN_CODE, module.__dict__)

    def _own(self, name: str) -> type | None:
        found = self.names.get(name)
        return found if isinstance(found, type) and found in self.classes else None


def install(names: dict[str, Any], classes: set[type]) -> Finder:
    sys.modules.update(STAND_INS)
    finder = Finder(names, classes)
    sys.meta_path.insert(0, finder)
    return finder


def uninstall(finder: Finder) -> None:
    """The run's micrograd and torch are its own: the next run (the warm-up's) makes its own."""
    if finder in sys.meta_path:
        sys.meta_path.remove(finder)
    for name in finder.made:
        sys.modules.pop(name, None)
