"""What ``parse`` hands to the trace and the app: the graph, where each value came from, what
it is called, which call made it, and what the program changed after ``backward()``."""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import Span
from engine.value import Value


@dataclass(frozen=True, slots=True)
class Call:
    """One call of a user function, method or class (a Neuron's __call__, MLP(...)'s __init__)
    that created values: the graph can fold it into one box."""

    id: int  # 0.. in the order the calls started
    parent: int | None  # the call it was made in; None: the program's top level
    name: str  # "Neuron" for __call__ and __init__, "Class.method", or the function's name
    span: Span  # where the call is written in the source (the call expression)


@dataclass(frozen=True, slots=True)
class DataChange:
    """A leaf's ``.data`` changed after the output's last ``backward()`` (a gradient step):
    reported, not drawn; the graph keeps ``before``."""

    value: Value
    before: float
    after: float
    span: Span  # the statement that changed it


@dataclass(frozen=True, slots=True)
class Program:
    """A parsed program: its graph, its named inputs (the browser's sliders) and where each value
    came from in the source."""

    source: str
    output: Value
    inputs: dict[str, Value]  # top-level leaves by name, in order of appearance ("a", "c₁")
    spans: dict[Value, Span]  # the source text that made each value
    labels: dict[Value, str]  # the user's name for a value (label=, variable, attribute)
    calls: tuple[Call, ...]  # calls that created at least one value, directly or nested
    call_of: dict[Value, int]  # the innermost call each value was created in
    updates: tuple[DataChange, ...]
    notes: tuple[str, ...]  # what was skipped that the user should know
