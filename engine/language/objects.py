"""The kinds of object a program can hold besides numbers, strings, lists, tuples, None and
Values: its own functions, classes and instances, and what gradstep provides (builtins, modules).
None of them wraps a Python object of the server: a program reaches only what is listed here."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.errors import GradstepError, Span
from engine.language.scopes import MISSING, Scope
from engine.language.source import Unit
from engine.value import Value

if TYPE_CHECKING:
    from engine.language.calls import Calls


class Site:
    """Where a builtin was called: for the spans of the values it makes and of its errors."""

    __slots__ = ("node", "scope")  # made at every call: a plain class is the cheapest

    def __init__(self, node: ast.AST, scope: Scope) -> None:
        self.node = node
        self.scope = scope

    @property
    def span(self) -> Span:
        return self.scope.frame.where(self.node)


@dataclass(eq=False, slots=True)
class Function:
    name: str
    node: ast.FunctionDef
    params: tuple[str, ...]
    defaults: tuple[object, ...]  # for the last len(defaults) params
    unit: Unit
    module: dict[str, object]  # the globals of the unit it was defined in
    closure: Scope | None  # the enclosing function's scope, for a def inside a def


@dataclass(eq=False, slots=True)
class Class:
    name: str
    bases: tuple[Class, ...]
    attrs: dict[str, object]

    def lookup(self, name: str) -> object:
        """``name`` in this class or, depth first, in its bases (enough for single inheritance)."""
        found = self.attrs.get(name, MISSING)
        if found is MISSING:
            for base in self.bases:
                found = base.lookup(name)
                if found is not MISSING:
                    break
        return found


@dataclass(eq=False, slots=True)
class Instance:
    cls: Class
    attrs: dict[str, object] = field(default_factory=dict)


@dataclass(eq=False, slots=True)
class BoundMethod:
    instance: Instance
    function: Function


Run = Callable[["Calls", list[object], dict[str, object], Site], object]


@dataclass(frozen=True, eq=False, slots=True)
class Builtin:
    name: str  # as the user writes it: "len", "random.uniform", "x.tanh"
    run: Run


@dataclass(frozen=True, eq=False, slots=True)
class Ignored:
    """print and matplotlib: called, nothing happens and the arguments are not evaluated."""

    name: str


@dataclass(frozen=True, eq=False, slots=True)
class NotProvided:
    """A real function of a provided library that gradstep does not have (np.arange)."""

    name: str
    provides: str

    def error(self) -> GradstepError:
        return GradstepError(
            f"{self.name} is not provided by gradstep; {self.provides}", kind="unsupported"
        )


@dataclass(eq=False, slots=True)
class ModuleObject:
    name: str  # "numpy", "micrograd.nn"
    attrs: dict[str, object]
    provides: str | None = None  # set: an unknown attribute is a NotProvided saying this

    def attribute(self, attr: str) -> object:
        found = self.attrs.get(attr, MISSING)
        if found is MISSING and self.provides is not None:
            return NotProvided(f"{self.name}.{attr}", self.provides)
        return found


@dataclass(eq=False, slots=True)
class Lazy:
    """An iterator a program holds: zip(), enumerate(), map() or a generator expression. Like
    Python's, it can be walked once."""

    kind: str
    items: Iterator[object]


@dataclass(frozen=True, eq=False, slots=True)
class ValueMethod:
    """``x.tanh`` before it is called: a method of one Value (or an op of a plain number)."""

    value: Value | float
    name: str


def describe(obj: object) -> str:
    """What ``obj`` is, in a few words, for an error message."""
    if isinstance(obj, Value):
        return "a value"
    if isinstance(obj, bool):
        return f"{obj} (a bool)"
    if isinstance(obj, int | float):
        return "a plain number"
    if obj is None:
        return "None"
    if isinstance(obj, Instance):
        return f"an instance of {obj.cls.name}"
    if isinstance(obj, Builtin):
        return f"the function {obj.name}"
    if isinstance(obj, Class):
        return f"the class {obj.name}"
    if isinstance(obj, Function | BoundMethod | Builtin | ValueMethod):
        return "a function"
    if isinstance(obj, ModuleObject):
        return f"the module {obj.name}"
    if isinstance(obj, Lazy):
        return "a generator" if obj.kind == "generator" else f"a {obj.kind}() iterator"
    names: dict[type, str] = {list: "a list", tuple: "a tuple", str: "a string", range: "a range"}
    if type(obj).__name__ == "Array":  # engine.language.array imports this module
        return "an array"
    return names.get(type(obj), f"a {type(obj).__name__}")


def bind_arguments(
    name: str,
    params: tuple[str, ...],
    defaults: dict[str, object],
    args: list[object],
    kwargs: dict[str, object],
    shown: int = 0,
) -> list[object]:
    """Python's binding of a call's arguments to ``params`` (``shown``: how many leading
    parameters, such as ``self``, the user does not pass), with the error a student can act on."""
    if not kwargs and len(args) == len(params):
        return args
    if len(args) > len(params):
        listed = ", ".join(params[shown:])
        raise GradstepError(
            f"{name}() takes {_count(len(params) - shown)} ({listed}), not {len(args) - shown}",
            kind="arity",
        )
    bound: dict[str, object] = dict(zip(params, args, strict=False))
    for key, value in kwargs.items():
        if key not in params or params.index(key) < shown:
            raise GradstepError(f"{name}() has no parameter named {key}", kind="arity")
        if key in bound:
            raise GradstepError(f"{name}() got two values for {key}", kind="arity")
        bound[key] = value
    for param in params:
        if param not in bound:
            if param not in defaults:
                raise GradstepError(f"{name}() needs a value for {param}", kind="arity")
            bound[param] = defaults[param]
    return [bound[p] for p in params]


def _count(n: int) -> str:
    return {0: "no arguments", 1: "one argument"}.get(n, f"{n} arguments")
