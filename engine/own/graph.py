"""A learner's own engine, found in what the run watched: which attributes of their class hold
a node's number, its gradient, its parents and its op, and the graph their objects form from
the output back through their own parent links, in the order the objects were made."""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.errors import GradstepError, Span
from engine.language.objects.kinds import CallRecord, Class, Instance
from engine.language.record.learner import DATA_ATTRIBUTES, OwnProgram
from engine.language.record.recorder import Call
from engine.ops import OPS

# The names the tutorials give each part of a node, most common first.
DATA = DATA_ATTRIBUTES
GRAD = ("grad", "gradient", "g")
PARENTS = ("_prev", "prev", "_children", "children", "parents", "_parents", "inputs",
           "_inputs", "operands", "_operands", "src", "_src", "args", "_args")  # fmt: skip
OP = ("_op", "op", "operation", "_operation", "kind", "_kind")
LABEL = ("label", "name", "_label", "_name")
# Their op strings, as gradstep's op table names them (``**2``: pow with the exponent 2).
_OPS = {"+": "add", "-": "sub", "*": "mul", "/": "div", "**": "pow", "neg": "neg",
        "exp": "exp", "log": "log", "tanh": "tanh", "relu": "relu", "sigmoid": "sigmoid",
        "sin": "sin", "cos": "cos", "sqrt": "sqrt", "pow": "pow"}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Fields:
    """The attributes of the learner's class that hold each part of a node."""

    data: str
    grad: str
    parents: str | None  # None: no node of the graph has parents (a single value)
    op: str | None
    label: str | None


@dataclass(frozen=True, slots=True)
class Op:
    """What one node's op string means: an op of gradstep's table (``name``) with, for a
    power written ``**2``, its exponent; ``name`` None when gradstep does not know it."""

    text: str  # as their code wrote it: "*", "**2", "ReLU", ""
    name: str | None
    exponent: float | None = None


@dataclass(frozen=True, slots=True, eq=False)
class OwnGraph:
    cls: Class  # the learner's engine class
    fields: Fields
    order: tuple[Instance, ...]  # the graph's nodes in the order they were made: ids 0..n-1
    ids: dict[Instance, int]
    parents: tuple[tuple[int, ...], ...]  # each node's parents, as their collection holds them
    ops: tuple[Op, ...]
    data: tuple[float, ...]  # what their forward computed, before any later update
    grad: tuple[float, ...]  # what their code left in the grad attribute
    spans: tuple[Span | None, ...]  # where the program made each node (outside the class)
    records: tuple[CallRecord | None, ...]  # the call of the program each was made in
    born: tuple[int, ...]  # each node's first write (its __init__) in watch.writes
    lifted: tuple[bool, ...]  # a leaf made inside the class's own methods: a plain number lifted
    # into a node (``other = Value(other)`` in ``__add__``), a constant to the program


def number(x: object) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)


def members(collection: object) -> list[object]:
    """The items of a list, tuple, set or dict of the program's, in their order."""
    if isinstance(collection, list | tuple):
        return list(collection)
    items = getattr(collection, "items", None)  # the language's sets and dicts keep a dict
    if isinstance(items, dict):
        return list(items)
    return []


def _field(obj: Instance, names: tuple[str, ...], test: object) -> str | None:
    for name in names:
        if name in obj.attrs and test(obj.attrs[name]):  # type: ignore[operator]
            return name
    return None


def find_fields(output: Instance) -> Fields:
    """The attributes of ``output``'s class by the names tutorials use, checked on ``output``."""
    what = f"an instance of your class {output.cls.name}"
    data = _field(output, DATA, number)
    if data is None:
        raise GradstepError(
            f"the program's output is {what}, but gradstep cannot find its number: name the "
            f"attribute one of {', '.join(DATA)}",
            kind="unsupported",
        )
    grad = _field(output, GRAD, number)
    if grad is None:
        raise GradstepError(
            f"the program's output is {what}, but it has no gradient: an attribute named "
            f"{' or '.join(GRAD)} holding a number, set to 0 when the node is made "
            "(self.grad = 0.0 in __init__)",
            kind="unsupported",
        )
    parents = _field(output, PARENTS, lambda x: isinstance(x, list | tuple) or members(x))
    parents = parents or _field(output, PARENTS, lambda x: hasattr(x, "items"))
    op = _field(output, OP, lambda x: isinstance(x, str))
    label = _field(output, LABEL, lambda x: isinstance(x, str))
    return Fields(data, grad, parents, op, label)


def read_op(text: str, arity: int) -> Op:
    """What ``text`` (their op string) means for a node with ``arity`` parents."""
    key = text.strip()
    if key.startswith("**") and key[2:]:
        try:
            return Op(text, "pow", float(key[2:]))
        except ValueError:
            return Op(text, None)
    name = _OPS.get(key.lower())
    if name == "sub" and arity == 1:
        name = "neg"
    if name is not None and OPS[name].arity < arity:
        name = None  # more parents than the op takes: not the op gradstep knows by that name
    return Op(text, name)


def build_graph(program: OwnProgram) -> OwnGraph:
    output, watch = program.output, program.watch
    fields = find_fields(output)
    made = {m.instance: i for i, m in enumerate(watch.made)}
    seen, stack = {output}, [output]
    while stack:  # every node the output is computed from, through their parent links
        node = stack.pop()
        for p in members(node.attrs.get(fields.parents)) if fields.parents else ():
            if isinstance(p, Instance) and p not in seen:
                seen.add(p)
                stack.append(p)
    order = tuple(sorted(seen, key=lambda v: made.get(v, -1)))
    ids = {v: i for i, v in enumerate(order)}
    parents = tuple(
        tuple(ids[p] for p in members(v.attrs.get(fields.parents)) if p in ids)
        if fields.parents
        else ()
        for v in order
    )
    ops = tuple(
        read_op(str(v.attrs.get(fields.op, "")) if fields.op else "", len(parents[i]))
        if parents[i]
        else Op("", None)
        for i, v in enumerate(order)
    )
    born = _first_writes(program, ids)
    data = tuple(_forward_data(program, v, fields, born[ids[v]], ids) for v in order)
    grad = tuple(float(v.attrs.get(fields.grad, 0.0)) for v in order)  # type: ignore[arg-type]
    by = {m.instance: m for m in watch.made}
    spans = tuple(
        _made_at(by[v].span, by[v].record, output.cls) if v in by else None for v in order
    )
    records = tuple(_program_call(by[v].record, output.cls) if v in by else None for v in order)
    lifted = tuple(
        not parents[i]
        and v in by
        and by[v].record is not None
        and _of_class(by[v].record, output.cls)  # type: ignore[arg-type]
        for i, v in enumerate(order)
    )
    return OwnGraph(
        output.cls, fields, order, ids, parents, ops, data, grad, spans, records, born, lifted
    )


def _first_writes(program: OwnProgram, ids: dict[Instance, int]) -> tuple[int, ...]:
    first = [len(program.watch.writes)] * len(ids)
    for k, w in enumerate(program.watch.writes):
        i = ids.get(w.instance)
        if i is not None and first[i] > k:
            first[i] = k
    return tuple(first)


def _forward_data(
    program: OwnProgram, v: Instance, fields: Fields, born: int, ids: dict[Instance, int]
) -> float:
    """The node's number as the forward pass used it: its last write before the output was
    made (a gradient step after backward() changes a leaf for the next pass, not this one)."""
    output_born = next(
        (k for k, w in enumerate(program.watch.writes) if w.instance is program.output), None
    )
    value = v.attrs.get(fields.data)
    if output_born is not None:
        for w in program.watch.writes[born:output_born]:
            if w.instance is v and w.attr == fields.data and number(w.after):
                value = w.after
    return float(value) if number(value) else math.nan  # type: ignore[arg-type]


def _of_class(record: CallRecord, cls: Class) -> bool:
    """Whether ``record`` is a call of one of the engine class's own methods."""
    return record.name == cls.name or record.name.startswith(f"{cls.name}.")


def _made_at(span: Span, record: CallRecord | None, cls: Class) -> Span:
    """Where the program made a node: the line that called the engine's method that made it
    (``c = a + b``, not ``out = Value(...)`` inside ``__add__``)."""
    while record is not None and _of_class(record, cls):
        span, record = record.span, record.parent
    return span


def _program_call(record: CallRecord | None, cls: Class) -> CallRecord | None:
    """The innermost call of the program's own (a Neuron's, not the engine's) a node was made in."""
    while record is not None and _of_class(record, cls):
        record = record.parent
    return record


def calls_of(graph: OwnGraph) -> tuple[tuple[Call, ...], tuple[int | None, ...]]:
    """The calls that made the graph's nodes, numbered outermost first in the order they
    started, and each node's innermost one: for folding (engine.trace.calls)."""
    number_of: dict[int, int] = {}  # id(CallRecord) -> Call id
    calls: list[Call] = []

    def numbered(record: CallRecord) -> int:
        chain = []
        current: CallRecord | None = record
        while current is not None and id(current) not in number_of:
            chain.append(current)
            current = _program_call(current.parent, graph.cls)
        for r in reversed(chain):
            parent = _program_call(r.parent, graph.cls)
            number_of[id(r)] = len(calls)
            calls.append(
                Call(len(calls), number_of[id(parent)] if parent else None, r.name, r.span)
            )
        return number_of[id(record)]

    innermost = tuple(numbered(r) if r is not None else None for r in graph.records)
    return tuple(calls), innermost
