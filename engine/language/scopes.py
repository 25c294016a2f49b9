"""Where the interpreter is: which source text (a unit), which call (a frame) and which names
are visible (a scope chain)."""

from __future__ import annotations

import ast

from engine.errors import Span
from engine.language.source import Unit

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
    enclosing scopes, then the unit's globals."""

    __slots__ = ("frame", "globals", "outer", "vars")

    def __init__(
        self,
        frame: Frame,
        variables: dict[str, object],
        outer: Scope | None,
        module: dict[str, object],
    ) -> None:
        self.frame = frame
        self.vars = variables
        self.outer = outer
        self.globals = module

    def lookup(self, name: str) -> object:
        scope: Scope | None = self
        while scope is not None:
            found = scope.vars.get(name, MISSING)
            if found is not MISSING:
                return found
            scope = scope.outer
        return self.globals.get(name, MISSING)
