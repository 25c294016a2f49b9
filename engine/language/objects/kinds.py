"""What a program holds and where it is. The kinds of object it can hold besides numbers,
strings, lists, tuples, None and Values: its own functions, classes and instances, its sets,
and what gradstep provides (builtins, modules, the tiny numpy ``Array``). None of them wraps a
Python object of the server: a program reaches only what is listed here. And where the
evaluator is: which call (a frame) and which names are visible (a scope chain); with
``describe`` (what an object is, for an error).
"""

from __future__ import annotations

import ast
import reprlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from engine.errors import GradstepError, Span
from engine.language.objects.array import Array
from engine.language.source import Unit
from engine.value import Value

MISSING = object()  # a name bound to nothing (None is a value programs use)
BREAK, CONTINUE, RETURN = object(), object(), object()  # how a block ended, when not at its end


class CallRecord:
    """A call in progress; it gets its ``Call`` id only once it (or a call inside it) creates a
    value, so ids follow the order calls started among the calls that matter."""

    __slots__ = ("id", "name", "parent", "span")

    def __init__(self, name: str, span: Span, parent: CallRecord | None) -> None:
        self.name = name
        self.span = span
        self.parent = parent
        self.id: int | None = None


class Frame:
    """One activation: the program's top level, or one call of a function or method."""

    __slots__ = ("anchor", "counters", "loops", "record", "returned", "top", "unit")

    def __init__(
        self, unit: Unit, record: CallRecord | None, anchor: Span | None, top: bool = False
    ) -> None:
        self.unit = unit
        self.record = record
        self.anchor = anchor  # in the prelude: the user's call that led here, for every span
        self.top = top  # the user's top level: names there label values and make inputs
        self.loops = 0  # for loops running in this frame (inside one, a number is no input)
        self.counters: dict[str, int] = {}  # how often each name has labelled a value: c, c₁
        self.returned: object = None

    def where(self, node: ast.AST) -> Span:
        return self.anchor or self.unit.span(node)


class Scope:
    """Names visible at one point: a function's locals (or a comprehension's targets), the
    enclosing scopes, then the unit's globals. ``declared``: the names the function declares
    ``global`` or ``nonlocal``, which assignments bind there instead of in ``vars``."""

    __slots__ = ("declared", "frame", "globals", "outer", "vars")

    def __init__(
        self,
        frame: Frame,
        variables: dict[str, object],
        outer: Scope | None,
        module: dict[str, object],
        declared: dict[str, str] | None = None,
    ) -> None:
        self.frame = frame
        self.vars = variables
        self.outer = outer
        self.globals = module
        self.declared = declared

    def store(self, name: str, value: object) -> None:
        """``name = value`` in this scope, or where ``global``/``nonlocal`` sends it."""
        how = self.declared.get(name) if self.declared is not None else None
        if how is None:
            self.vars[name] = value
        elif how == "global":
            self.globals[name] = value
        else:
            scope = self.outer
            while scope is not None and name not in scope.vars:
                scope = scope.outer
            (scope.vars if scope is not None else self.globals)[name] = value

    def lookup(self, name: str) -> object:
        scope: Scope | None = self
        while scope is not None:
            found = scope.vars.get(name, MISSING)
            if found is not MISSING:
                return found
            scope = scope.outer
        return self.globals.get(name, MISSING)


class Site:
    """Where a builtin was called: for the spans of the values it makes and of its errors."""

    __slots__ = ("node", "scope")  # made at every call: a plain class is the cheapest

    def __init__(self, node: ast.AST, scope: Scope) -> None:
        self.node = node
        self.scope = scope

    @property
    def span(self) -> Span:
        return self.scope.frame.where(self.node)


@dataclass(eq=False, slots=True, repr=False)
class Function:
    """A ``def`` or a ``lambda`` of the program (or of the prelude)."""

    def __repr__(self) -> str:
        return f"<function {self.name} of the program>"

    name: str
    node: ast.FunctionDef | ast.Lambda  # a lambda's body is one expression, its value returned
    params: tuple[str, ...]
    defaults: tuple[object, ...]  # for the last len(defaults) params
    unit: Unit
    module: dict[str, object]  # the globals of the unit it was defined in
    closure: Scope | None  # the enclosing function's scope, for a def inside a def
    extra: Parameters | None = None  # *args, keyword-only parameters, **kwargs, if any
    declared: dict[str, str] | None = None  # name -> "global" or "nonlocal" in its body


@dataclass(frozen=True, slots=True)
class Parameters:
    """What a definition takes besides plain parameters: ``*args``, keyword-only parameters
    (with their defaults) and ``**kwargs``."""

    varargs: str | None
    kwonly: tuple[str, ...]
    kwdefaults: dict[str, object]
    kwargs: str | None


@dataclass(eq=False, slots=True, repr=False)
class Class:
    name: str
    bases: tuple[Class, ...]
    attrs: dict[str, object]
    own: bool = True  # the program's (watched), not the prelude's
    walk: int = 1  # the classes a lookup that finds nothing visits: this one, its bases, theirs

    def __repr__(self) -> str:
        return f"<class {self.name} of the program>"

    def is_subclass(self, other: Class) -> bool:
        return self is other or any(base.is_subclass(other) for base in self.bases)

    def lookup(self, name: str) -> object:
        """``name`` in this class or, depth first, in its bases (enough for single inheritance)."""
        found = self.attrs.get(name, MISSING)
        if found is MISSING:
            for base in self.bases:
                found = base.lookup(name)
                if found is not MISSING:
                    break
        return found


@dataclass(eq=False, slots=True, repr=False)
class Instance:
    cls: Class
    attrs: dict[str, object] = field(default_factory=dict)

    def __repr__(self) -> str:  # short: an object of the program may hold a whole graph
        return f"<{self.cls.name} object of the program>"


class Set:
    """A set of the program: a dict's keys, so that it iterates in insertion order (a graph
    built by walking one is the same on every run); objects of the program hash by identity."""

    __slots__ = ("items",)

    def __init__(self, items: dict[object, None] | None = None) -> None:
        self.items: dict[object, None] = items if items is not None else {}


# the attribute a method was looked up by and the frame it was written in (or None)
LookedUp = tuple[ast.Attribute, Frame] | None


@dataclass(eq=False, slots=True)
class BoundMethod:
    instance: Instance
    function: Function
    looked_up: LookedUp = None  # where: a message about it names it as written (n.forward)


Args = list[object]
Kwargs = dict[str, object]
# (machine, args, kwargs, site) -> result: the machine is a library.machine.Machine, the running
# program as builtins see it (that module defines it, above this one: Any here).
Run = Callable[[Any, Args, Kwargs, Site], object]


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
    looked_up: LookedUp = None  # where: a message about it names it as written (n.tanh)


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
    if isinstance(obj, Array):
        return "an array"
    if isinstance(obj, Set):
        return "a set"
    if obj is NotImplemented:
        return "NotImplemented"
    names[dict] = "a dict"
    return names.get(type(obj), f"a {type(obj).__name__}")


_BRIEF = reprlib.Repr()
_BRIEF.maxlevel, _BRIEF.maxlist, _BRIEF.maxtuple, _BRIEF.maxdict = 2, 4, 4, 4
_BRIEF.maxstring, _BRIEF.maxother, _BRIEF.maxlong = 30, 30, 30


def brief(obj: object) -> str:
    """``obj`` as a message quotes it: its repr, cut short while it is made (``[[0, 0, 0, 0,
    ...], ...]``), never the megabytes a million-item list would write."""
    return _BRIEF.repr(obj)
