"""A program that brings its own engine: a learner's ``class Value`` (or ``Node``) whose
``__add__`` builds nodes. What the run knows of its objects besides the ``Watch``: their names,
which are inputs (sliders), the given values and the nudge set into them, and which object is
the output; with ``OwnProgram``, what ``parse`` returns for such a program, and the two
decisions read from the syntax tree before it runs (``value_makers``).

Given values and the nudge are set straight into an instance's data attribute (the first of
``data``, ``value``, ``val`` that holds a number), with no ``Write`` in the watch: they stand
for what the program would have passed to its constructor.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from engine.language.budget import Budget
from engine.language.objects.dunders import BINARY_METHODS, UNARY_METHODS
from engine.language.objects.kinds import Instance
from engine.language.record.recorder import SUBSCRIPTS
from engine.language.record.watch import Watch

# The names the tutorials give a node's number, most common first (engine.own reads them too).
DATA_ATTRIBUTES = ("data", "value", "val", "x", "v")
_OPERATORS = frozenset(
    {name for pair in BINARY_METHODS.values() for name in pair}
    | {name for name, _ in UNARY_METHODS.values()}
)


@dataclass(frozen=True, slots=True, eq=False)
class OwnProgram:
    """A parsed program whose graph is made of its own objects (its own ``class Value``)."""

    source: str
    output: Instance  # the last .backward()'s object, else draw_dot's, else the last value
    watch: Watch  # what its objects did while it ran
    names: dict[Instance, str]  # top-level names first ("a", "c₁"), then attributes ("w[0]")
    inputs: dict[str, Instance]  # the sliders: top-level names of objects made from literals
    console: tuple[tuple[int, str], ...]  # (line, text) of each printed line
    notes: tuple[str, ...]  # what was skipped that the user should know
    given: dict[str, float]  # the values given by name, as set into the inputs


def value_makers(tree: ast.Module) -> tuple[bool, bool]:
    """Two questions of the syntax tree, in one walk. Does the program make values itself
    (calls Value(...), imports micrograd, or the second)? Then its top-level numbers stay
    numbers until one meets a value as an operand; else each top-level number is an input, as
    in gradstep's examples. Does it define operator methods (in a class, or patched onto one):
    its own engine?"""
    makes = own = False
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            own = own or node.name in _OPERATORS
        elif isinstance(node, ast.Attribute):
            own = own or node.attr in _OPERATORS
        elif isinstance(node, ast.Call):
            makes = makes or (isinstance(node.func, ast.Name) and node.func.id == "Value")
        elif isinstance(node, ast.ImportFrom):
            makes = makes or (node.module or "").startswith("micrograd")
        elif isinstance(node, ast.Import):
            makes = makes or any(a.name.startswith("micrograd") for a in node.names)
        if own:
            return True, True
    return makes, own


def data_attribute(instance: Instance) -> str | None:
    for attr in DATA_ATTRIBUTES:
        x = instance.attrs.get(attr)
        if isinstance(x, int | float) and not isinstance(x, bool):
            return attr
    return None


class Learner:
    """The program's own objects, beyond what the watch saw: names, inputs, the output."""

    def __init__(self, budget: Budget, given: dict[str, float], nudge: tuple[int, float] | None):
        self.budget = budget
        self.given = given
        self.nudge = nudge
        self.names: dict[Instance, str] = {}  # top-level names
        self.attributes: dict[Instance, str] = {}  # attribute names: w[0], b
        self.counters: dict[str, int] = {}
        self.inputs: dict[str, Instance] = {}
        self.backwards: list[Instance] = []  # objects .backward() was called on, in order
        self.draws: list[Instance] = []  # draw_dot()'s arguments

    def made(self, index: int, instance: Instance) -> None:
        """The ``index``-th instance's __init__ has returned: the nudge, if it is this one."""
        if self.nudge is not None and self.nudge[0] == index:
            attr = data_attribute(instance)
            if attr is not None:
                instance.attrs[attr] = instance.attrs[attr] + self.nudge[1]  # type: ignore[operator]

    def name(self, instance: Instance, name: str, literal: bool) -> None:
        """``name = instance`` at the program's top level; ``literal``: the statement made it
        from literal numbers (Value(2.0)): an input, set to its given value if there is one."""
        if instance in self.names:
            return
        n = self.counters.get(name, 0)
        self.counters[name] = n + 1
        label = name if n == 0 else f"{name}{str(n).translate(SUBSCRIPTS)}"
        self.names[instance] = label
        if literal:
            self.inputs[label] = instance
            attr = data_attribute(instance)
            if label in self.given and attr is not None:
                instance.attrs[attr] = self.given[label]

    def name_attribute(self, stored: object, attr: str) -> None:
        """``obj.attr = stored``: an instance, or the instances of a list (w[0], w[1], ...)."""
        if type(stored) is Instance:
            self.attributes.setdefault(stored, attr)
        elif isinstance(stored, list | tuple) and attr.count("[") < 2:
            self.budget.bulk(len(stored))
            for i, item in enumerate(stored):
                self.name_attribute(item, f"{attr}[{i}]")

    def all_names(self) -> dict[Instance, str]:
        names = dict(self.names)
        for instance, attr in self.attributes.items():
            names.setdefault(instance, attr)
        return names

    def output(self) -> Instance | None:
        if self.backwards:
            return self.backwards[-1]
        return self.draws[-1] if self.draws else None
