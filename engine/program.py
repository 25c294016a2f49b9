"""A program's run, as the host reads the sandbox's record (engine.guest.harness): what it
printed and plotted, its notes, and its graphs, one per pass of ``backward()`` (every iteration
of a training loop) or the one its last statements made. A ``Graph`` is the same plain data
whichever engine made it, gradstep's ``Value`` or the program's own class: nodes in the order
they were made, each with its parents, op, number, gradient, place, call and name.
"""

from __future__ import annotations

import base64
import math
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from engine.errors import GradstepError, Span
from engine.limits import DEFAULT_LIMITS, MAX_LABEL_CHARS, MAX_PARENTS, RunLimits, cut_message
from engine.ops import OPS, Op

EngineName = Literal["gradstep", "program"]

# Their op strings, as gradstep's op table names them (``**2``: pow with the exponent 2).
_OPS = {"+": "add", "-": "sub", "*": "mul", "/": "div", "**": "pow", "neg": "neg",
        "exp": "exp", "log": "log", "tanh": "tanh", "relu": "relu", "sigmoid": "sigmoid",
        "sin": "sin", "cos": "cos", "sqrt": "sqrt", "pow": "pow"}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Call:
    """One call of the program's (a Neuron's ``__call__``, ``MLP(...)``) that made values: the
    graph can fold it into one box."""

    id: int  # 0.. in the order the calls began
    parent: int | None  # the call it was made in; None: the program's top level
    name: str  # "Neuron" for __call__ and __init__, "Class.method", or the function's name
    span: Span  # where the call is written (the call expression)


@dataclass(frozen=True, slots=True)
class Update:
    """A leaf's number changed after the graph's last ``backward()`` (a gradient step)."""

    node: int
    before: float
    after: float
    span: Span  # the statement that changed it


@dataclass(frozen=True, slots=True)
class Write:
    """A number the program's own code wrote to a node's gradient (``self.grad += ...``)."""

    node: int
    before: float | None  # None: the attribute held no number
    after: float
    span: Span  # the statement that wrote it
    augmented: bool  # +=, -=, ...: the statement added to what the gradient held
    kept: int  # the kept call it was written in (Graph.kept), -1: none
    top: Span  # the top-level statement running then


@dataclass(frozen=True, slots=True)
class Kept:
    """A call of a function a node keeps (``node._backward()``)."""

    owner: int  # the node whose attribute held it (-1: an object outside the graph)
    attr: str  # "_backward", "backward_fn", ...
    function: Span | None  # where the function is written
    span: Span | None  # where it was called
    parent: int  # the kept call it ran in (-1: none)
    first: int  # the writes made during the call are writes[first:end]
    end: int  # -1: it did not return


@dataclass(frozen=True, slots=True)
class OwnOp:
    """What one node's op string means: an op of the table with, for ``**2``, its exponent."""

    text: str  # as their code wrote it: "*", "**2", "ReLU", ""
    op: Op | None  # None: gradstep does not know it
    exponent: float | None = None


@dataclass(frozen=True, slots=True, eq=False)
class Graph:
    engine: EngineName  # whose code made it
    engine_class: str  # the program's own class ("" for gradstep's Value)
    parents: tuple[tuple[int, ...], ...]  # as their operands (or parent collections) hold them
    ops: tuple[OwnOp | None, ...]  # None for a leaf
    data: tuple[float, ...]  # each node's number in the forward pass
    grad: tuple[float, ...]  # the gradient their code left (the program's own engine)
    locals: tuple[tuple[float, ...], ...]  # gradstep's: ∂node/∂operand, from the op table
    constant: tuple[bool, ...]  # a plain number in an expression (gradstep), or lifted into a
    # node by the class's own methods (other = Value(other)): it takes no gradient
    spans: tuple[Span | None, ...]  # where the program made each node
    calls: tuple[int | None, ...]  # the innermost call each node was made in
    call_list: tuple[Call, ...]  # those calls, numbered 0.. in the order they began
    names: tuple[str | None, ...]  # the name the program bound each to (c, c₁, w[0])
    labels: tuple[str | None, ...]  # its label (Value(2.0, label='x'), n.label = 'n')
    inputs: dict[str, int]  # the sliders: top-level names of leaves, by name
    made: tuple[int, ...] = ()  # their objects: the order each was made in (for a nudge)
    updates: tuple[Update, ...] = ()
    writes: tuple[Write, ...] = ()  # their backward pass, as their code ran it
    kept: tuple[Kept, ...] = ()
    fields: dict[str, str | None] = field(default_factory=dict)  # the attributes read
    backward_def: Span | None = None  # where their backward is written (a missing seed's line)

    @property
    def output(self) -> int:
        return len(self.parents) - 1


EMPTY = Graph("gradstep", "", (), (), (), (), (), (), (), (), (), (), (), {})
NOTHING_DRAWN = (
    "the program made no value to draw: it ran, and what it printed is shown; a graph needs "
    "a value computed from others (y = a * b + c), or a call of backward()"
)


class Pass:
    """The backward() calls on one graph (an iteration of a training loop). Its graph is read
    from the record when first asked for: a loop of 100 iterations draws one."""

    __slots__ = ("_graph", "_raw", "_reader", "_watched", "loss", "site", "size")

    def __init__(
        self,
        site: tuple[int, int],  # where its backward() is called
        loss: float,  # the output's number then
        size: int,  # values in its graph (-1: not counted)
        graph: dict[str, Any] | None,  # its record (None: too large to keep, or not watched)
        watched: bool = True,  # False: a loop's iteration run unwatched (engine.guest.recorder)
        reader: _Reader | None = None,
    ) -> None:
        self.site, self.loss, self.size, self._watched = site, loss, size, watched
        self._raw, self._reader = graph, reader
        self._graph: Graph | None = None

    @property
    def graph(self) -> Graph | None:
        if self._graph is None and self._raw is not None and self._reader is not None:
            self._graph = self._reader.graph(self._raw)
            if self._graph is None:  # numbers alone that were not shaped as they said
                self._raw, self._watched = None, False
        return self._graph

    @property
    def watched(self) -> bool:
        """Whether the run recorded this pass (else it is drawn from a run that watches it)."""
        if self._watched and self._raw is not None and self._raw.get("numbers"):
            return self.graph is not None  # its check is made as it is read
        return self._watched


@dataclass(frozen=True, slots=True, eq=False)
class Run:
    """Everything one run of a program showed: the record read."""

    error: GradstepError | None
    console: tuple[tuple[int, str], ...]
    notes: tuple[str, ...]
    plots: tuple[dict[str, Any], ...]
    passes: tuple[Pass, ...]
    drawn: Pass | None  # the output's graph: a pass, or the graph its last statements made
    drawn_pass: int | None  # which pass that is (None: not a pass)
    engines: tuple[str, ...]
    own_class: str  # the program's own engine class (the switch's other side), "" for none
    inputs: tuple[str, ...]  # every name that became an input, in any graph
    fuel: int = 0  # the work it took, in the sandbox's fuel units


@dataclass(frozen=True, slots=True, eq=False)
class Program:
    """One graph of a run, ready to trace: the output's, or a training loop's iteration."""

    source: str
    graph: Graph
    given: dict[str, float]  # the values given by name, as set into the inputs
    console: tuple[tuple[int, str], ...] = ()  # (line, text) of each printed line
    notes: tuple[str, ...] = ()
    plots: tuple[dict[str, Any], ...] = ()
    losses: tuple[float, ...] = ()  # a training loop's: the output of each iteration (2 or more)
    iteration: int | None = None  # which of them is drawn (None: not a training loop)
    engines: tuple[str, ...] = ("gradstep",)  # which engines can build this graph
    own_class: str = ""  # the program's own engine class, whichever engine drew the graph
    engine_choice: str = "auto"
    fuel: int = 0  # the work its run took (the sandbox's fuel)
    watched: tuple[tuple[int, int], int] | None = None  # the loop's iteration a rerun watched
    limits: RunLimits = DEFAULT_LIMITS  # its run's: a learner's engine's reruns share the rest


def read_op(text: str, arity: int) -> OwnOp:
    """What ``text`` (their op string) means for a node with ``arity`` parents."""
    key = text.strip()
    if key.startswith("**") and key[2:]:
        try:
            return OwnOp(text, OPS["pow"], float(key[2:]))
        except ValueError:
            return OwnOp(text, None)
    name = _OPS.get(key.lower())
    if name == "sub" and arity == 1:
        name = "neg"
    if name is not None and OPS[name].arity < arity:
        name = None  # more parents than the op takes: not the op gradstep knows by that name
    return OwnOp(text, OPS[name] if name else None)


def _shown(text: str) -> str:
    """``text`` with each character that is not printable (a control character, one that hides
    or reorders text: U+202E) written as Python writes it in a string, ``\u202e``."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode() for ch in text)


def _texts(texts: Sequence[Any], what: str, spans: Sequence[Span | None]) -> tuple[Any, ...]:
    """A graph's labels, names or op texts as drawn: at most ``MAX_LABEL_CHARS`` characters
    each (a longer one is refused at the line that made its value), hidden characters shown."""
    out = []
    for i, text in enumerate(texts):
        if isinstance(text, str):
            if len(text) > MAX_LABEL_CHARS:
                raise GradstepError(
                    f"a value's {what} has {len(text):,} characters; gradstep draws at most "
                    f"{MAX_LABEL_CHARS} ({what}s name values in boxes and formulas)",
                    kind="limit",
                    span=spans[i] if i < len(spans) else None,
                )
            text = _shown(text)
        out.append(text)
    return tuple(out)


def read_run(record: dict[str, Any], fuel: int = 0) -> Run:
    """The sandbox's record as plain data (the spans and calls it numbers, resolved)."""
    spans = [Span(*s) for s in record.get("spans", ())]
    calls = {int(k): v for k, v in (record.get("calls") or {}).items()}
    attributes = record.get("attributes") or []
    reader = _Reader(spans, calls, attributes)
    error = None
    if record.get("error"):
        e = record["error"]
        span = spans[e["span"]] if e.get("span") is not None else None
        console = tuple((int(line), str(text)) for line, text in record.get("console") or ())
        error = GradstepError(cut_message(e["message"]), kind=e["kind"], span=span, console=console)
    raw = record.get("passes") or []
    for p in raw:  # a pass whose graph is like an earlier one's but for its numbers
        g = p["graph"]
        if g is not None and "like" in g:
            p["graph"] = {**raw[g["like"]]["graph"], **{k: v for k, v in g.items() if k != "like"}}
    passes = tuple(
        Pass((p["site"][0], p["site"][1]), _num(p["loss"]), p["size"], p["graph"],
             bool(p.get("watched", True)), reader)
        for p in raw
    )  # fmt: skip
    drawn, drawn_pass = None, None
    d = record.get("drawn")
    if d is not None:
        if "pass" in d:
            drawn_pass = d["pass"]
            drawn = passes[drawn_pass]
        else:
            drawn = Pass((0, 0), _num(d.get("loss")), d["size"], d["graph"], True, reader)
    return Run(
        error=error,
        console=tuple((int(line), str(text)) for line, text in record.get("console") or ()),
        notes=tuple(record.get("notes") or ()),
        plots=tuple(record.get("plots") or ()),
        passes=passes,
        drawn=drawn,
        drawn_pass=drawn_pass,
        engines=tuple(record.get("engines") or ("gradstep",)),
        own_class=str(record.get("own_class") or ""),
        inputs=tuple(record.get("inputs") or ()),
        fuel=fuel,
    )


def graph_of(arrays: dict[str, Any], inputs: dict[str, int]) -> Graph:
    """A graph of gradstep's values made in Python, not by a program (engine.value.arrays)."""
    n = len(arrays["parents"])
    graph = _Reader([], {}, []).graph(
        {**arrays, "engine": "gradstep", "spans": [None] * n, "calls": [None] * n,
         "inputs": inputs}
    )  # fmt: skip
    assert graph is not None
    return graph


def unpacked(x: str | list[float]) -> list[float]:
    """Numbers the sandbox packed (engine.guest.snapshot.packed), or a plain list of them."""
    if isinstance(x, list):
        return [_num(v) for v in x]
    numbers = array("d")
    numbers.frombytes(base64.b64decode(x, validate=True))
    return numbers.tolist()


def _recomputed(
    ops: tuple[OwnOp | None, ...],
    parents: tuple[tuple[int, ...], ...],
    data: list[float],
    constant: list[bool],
) -> tuple[tuple[float, ...], ...] | None:
    """The local derivatives of a pass kept as numbers alone (engine.guest.snapshot.numbers),
    computed from its data by the op table on the structure of the pass it is like, as
    engine.value computes them (a constant operand's is 0); None when an op's value is not
    what its operands give (the pass is shaped otherwise)."""
    out: list[tuple[float, ...]] = []
    for i, ps in enumerate(parents):
        op = ops[i]
        if op is None or op.op is None:
            out.append(())
            continue
        try:
            value, ds = op.op.eval(*(data[p] for p in ps))
        except (GradstepError, ArithmeticError, ValueError, TypeError):
            return None
        if not math.isclose(value, data[i], rel_tol=1e-9, abs_tol=1e-12):
            return None
        out.append(tuple(0.0 if constant[p] else d for p, d in zip(ps, ds, strict=True)))
    return tuple(out)


def _locals(
    flat: list[float], parents: tuple[tuple[int, ...], ...]
) -> tuple[tuple[float, ...], ...]:
    out, k = [], 0
    for ps in parents:
        out.append(tuple(flat[k : k + len(ps)]))
        k += len(ps)
    return tuple(out)


def _num(x: object) -> float:
    return float(x) if isinstance(x, int | float) else math.nan


class _Reader:
    def __init__(self, spans: list[Span], calls: dict[int, list[Any]], attributes: list[str]):
        self.spans = spans
        self.calls = calls
        self.attributes = attributes

    def span(self, i: int | None) -> Span | None:
        return self.spans[i] if i is not None and 0 <= i < len(self.spans) else None

    def graph(self, g: dict[str, Any] | None) -> Graph | None:
        if g is None:
            return None
        n = len(g["parents"])
        spans = tuple(self.span(s) for s in g["spans"])
        parents = tuple(tuple(p) for p in g["parents"])
        for i, ps in enumerate(parents):
            if len(ps) > MAX_PARENTS:
                raise GradstepError(
                    f"a value has {len(ps):,} operands in its parents; gradstep draws a value "
                    f"of at most {MAX_PARENTS:,}",
                    kind="limit",
                    span=spans[i],
                )
        labels, names = _texts(g["labels"], "label", spans), _texts(g["names"], "name", spans)
        gradstep = g["engine"] == "gradstep"
        if gradstep:
            ops = tuple(OwnOp(name, OPS[name]) if name else None for name in g["ops"])
            constant = [False] * n
            for i in g["constant"]:
                constant[i] = True
        else:
            ops = tuple(
                read_op(text or "", len(parents[i])) if parents[i] else None
                for i, text in enumerate(_texts(g["ops"], "op", spans))
            )
            constant = [False] * n
            for i in g.get("lifted", ()):
                constant[i] = True
        data = unpacked(g["data"])
        locals_: tuple[tuple[float, ...], ...] = ((),) * n
        if gradstep and g.get("numbers"):
            found = _recomputed(ops, parents, data, constant)
            if found is None:
                return None
            locals_ = found
        elif gradstep:
            locals_ = _locals(unpacked(g["locals"]), parents)
        call_ids, call_list = self._calls(g["calls"])
        return Graph(
            engine="gradstep" if gradstep else "program",
            engine_class=g.get("class", ""),
            parents=parents,
            ops=ops,
            data=tuple(data),
            grad=tuple(unpacked(g["grad"])),
            locals=locals_,
            constant=tuple(constant),
            spans=spans,
            calls=call_ids,
            call_list=call_list,
            names=names,
            labels=labels,
            inputs=dict(g["inputs"]),
            made=tuple(g.get("made") or ()),
            updates=tuple(
                Update(node, before, after, self.spans[span])
                for node, before, after, span in g.get("updates") or ()
            ),
            writes=tuple(
                Write(node, before, after, self.spans[span], augmented, kept, self.spans[top])
                for node, before, after, span, augmented, kept, top in g.get("writes") or ()
            ),
            kept=tuple(
                Kept(
                    owner,
                    self.attributes[attr],
                    self.span(function),
                    self.span(span),
                    parent,
                    first,
                    end,
                )
                for owner, attr, function, span, parent, first, end in g.get("kept") or ()
            ),
            fields=dict(g.get("fields") or {}),
            backward_def=self.span(g.get("backward")),
        )

    def _calls(
        self, innermost: Sequence[int | None]
    ) -> tuple[tuple[int | None, ...], tuple[Call, ...]]:
        """The calls that made the graph (and the calls around them), numbered 0.. in the order
        they began: the same numbers in every iteration of a training loop, whose calls are new
        each time (folding names calls by number)."""
        used: set[int] = set()
        for c in innermost:
            while c is not None and c not in used:
                used.add(c)
                c = self.calls[c][0]
        new = {old: i for i, old in enumerate(sorted(used))}
        call_list = tuple(
            Call(new[c], None if self.calls[c][0] is None else new[self.calls[c][0]],
                 self.calls[c][1], self.spans[self.calls[c][2]])
            for c in sorted(used)
        )  # fmt: skip
        return tuple(None if c is None else new[c] for c in innermost), call_list
