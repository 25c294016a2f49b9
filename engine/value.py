"""Value: stores a single scalar value and its gradient, and the op that made it."""

from __future__ import annotations

import itertools
import math
from typing import Any, Protocol

from engine import graph
from engine.errors import GradstepError
from engine.ops import OPS, Locals, Op

_serials = itertools.count()  # creation order: stable node ids and stable layouts
# Told of every value made and every backward() run, when set: the sandbox's recorder
# (engine/guest) notes where the program made each value. None everywhere else. ``made`` is
# told how many frames up the code that asked for the value runs (``sys._getframe(depth)``
# from ``made``), so that the frames between are never looked at.
observer: Observer | None = None
_isfinite = math.isfinite
_new = object.__new__
_ADD, _SUB, _MUL, _DIV, _POW, _NEG = (OPS[n] for n in ("add", "sub", "mul", "div", "pow", "neg"))
_MICROGRAD_OPS = {"add": "+", "sub": "-", "mul": "*", "div": "/", "pow": "**", "neg": "-",
                  "relu": "ReLU"}  # fmt: skip


def _as_float(x: object) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise TypeError(f"a Value holds an int or a float, not {type(x).__name__}")
    try:
        f = float(x)
    except OverflowError:
        raise GradstepError(f"{x} is too large for a float", kind="overflow") from None
    if not _isfinite(f):
        raise GradstepError(f"a Value must be a finite number, not {f}", kind="domain")
    return f


class Value:
    """Stores a single scalar value and its gradient."""

    # The operands a, b and the local derivatives da = ∂self/∂a, db = ∂self/∂b (from the op
    # table) are slots, not tuples: a tuple is one more object for the cyclic garbage collector
    # to track, per value, and tracking them was half of a training epoch's time.
    __slots__ = (
        "a", "b", "call", "constant", "da", "data", "db", "grad", "label", "name", "op", "serial",
        "site",
    )  # fmt: skip

    def __init__(self, data: float, label: str | None = None) -> None:
        self.data = _as_float(data)
        self.grad: float = 0  # an int until a pass writes it, as micrograd's (its repr shows 0)
        self.label = label
        self.op: Op | None = None
        self.a: Value | None = None  # the first operand (None: a leaf)
        self.b: Value | None = None  # the second (None: a leaf or a one-operand op)
        self.da = self.db = 0.0
        self.constant = False  # a plain number written into an expression: it gets no gradient
        self.serial = next(_serials)
        # what the sandbox's recorder notes: the place that made it, the call it was made in,
        # the name the program gave it (None outside the sandbox)
        self.site: int | None = None
        self.call: object = None
        self.name: str | None = None
        if observer is not None:
            observer.made(self, 2)  # made <- __init__ <- the caller

    @property
    def parents(self) -> tuple[Value, ...]:
        """The operands: (), (a,) or (a, b)."""
        if self.a is None:
            return ()
        return (self.a,) if self.b is None else (self.a, self.b)

    @property
    def locals(self) -> Locals:
        """∂self/∂operand for each operand, in the order of ``parents``."""
        if self.a is None:
            return ()
        return (self.da,) if self.b is None else (self.da, self.db)

    def __repr__(self) -> str:  # micrograd's
        return f"Value(data={self.data}, grad={self.grad})"

    @property
    def _prev(self) -> set[Value]:
        """micrograd's: the operands, as a set (a program's own draw_dot walks them)."""
        return set(self.parents)

    @property
    def _op(self) -> str:
        """micrograd's: the op, as its own code writes it ("+", "*", "**2", "ReLU")."""
        if self.op is None:
            return ""
        if self.op.name == "pow" and self.b is not None and self.b.constant:
            return f"**{self.b.data:g}"
        return _MICROGRAD_OPS.get(self.op.name, self.op.name)

    def __add__(self, other: Value | float) -> Value:
        return _binary(_ADD, self, other)

    def __radd__(self, other: float) -> Value:  # other + self
        return _binary(_ADD, other, self)

    def __sub__(self, other: Value | float) -> Value:
        return _binary(_SUB, self, other)

    def __rsub__(self, other: float) -> Value:  # other - self
        return _binary(_SUB, other, self)

    def __mul__(self, other: Value | float) -> Value:
        return _binary(_MUL, self, other)

    def __rmul__(self, other: float) -> Value:  # other * self
        return _binary(_MUL, other, self)

    def __truediv__(self, other: Value | float) -> Value:
        return _binary(_DIV, self, other)

    def __rtruediv__(self, other: float) -> Value:  # other / self
        return _binary(_DIV, other, self)

    def __pow__(self, other: Value | float) -> Value:
        return _binary(_POW, self, other)

    def __rpow__(self, other: float) -> Value:  # other ** self
        return _binary(_POW, other, self)

    def __neg__(self) -> Value:
        return _unary(_NEG, self)

    def __pos__(self) -> Value:
        return self

    def backward(self) -> None:
        """Seed this value's grad with 1 and accumulate d(self)/d(node) into every node."""
        order = graph.backward(self)
        if observer is not None:
            observer.backward(self, order)

    def zero_grad(self) -> None:
        """Reset the grad of every value this one was computed from, itself included."""
        for node in graph.topological_order(self):
            node.grad = 0


class Observer(Protocol):
    def made(self, v: Value, depth: int, operand: int = -1) -> None: ...
    def backward(self, v: Value, order: list[Value]) -> None: ...


def exp(x: Value | float) -> Value:
    return _unary(OPS["exp"], x)


def log(x: Value | float) -> Value:
    return _unary(OPS["log"], x)


def tanh(x: Value | float) -> Value:
    return _unary(OPS["tanh"], x)


def relu(x: Value | float) -> Value:
    return _unary(OPS["relu"], x)


def sigmoid(x: Value | float) -> Value:
    return _unary(OPS["sigmoid"], x)


def sin(x: Value | float) -> Value:
    return _unary(OPS["sin"], x)


def cos(x: Value | float) -> Value:
    return _unary(OPS["cos"], x)


def sqrt(x: Value | float) -> Value:
    return _unary(OPS["sqrt"], x)


# The same functions as methods: x.tanh() is tanh(x).
Value.exp = exp  # type: ignore[attr-defined]
Value.log = log  # type: ignore[attr-defined]
Value.tanh = tanh  # type: ignore[attr-defined]
Value.relu = relu  # type: ignore[attr-defined]
Value.sigmoid = sigmoid  # type: ignore[attr-defined]
Value.sin = sin  # type: ignore[attr-defined]
Value.cos = cos  # type: ignore[attr-defined]
Value.sqrt = sqrt  # type: ignore[attr-defined]


def constant(x: float) -> Value:
    """A plain number used in an expression: a leaf that receives no gradient."""
    v = _constant(x)
    if observer is not None:
        observer.made(v, 2)  # made <- constant <- the caller
    return v


def _constant(x: float) -> Value:
    v = _result(None, None, None, _as_float(x), 0.0, 0.0)
    v.constant = True
    return v


def _result(
    op: Op | None, a: Value | None, b: Value | None, out: float, da: float, db: float
) -> Value:
    """A new value, made without ``__init__``'s checks (``out`` is a finite float)."""
    v = _new(Value)
    v.data = out
    v.grad = 0
    v.label = None
    v.op = op
    v.a = a
    v.b = b
    v.da = da
    v.db = db
    v.constant = False
    v.serial = next(_serials)
    v.site = v.call = v.name = None
    return v


def _binary(op: Op, a: Value | float, b: Value | float) -> Value:
    if not isinstance(a, Value):
        a = _constant(a)
        if observer is not None:
            observer.made(a, 3, 0)  # made <- _binary <- __add__ <- the caller; operand 0
    if not isinstance(b, Value):
        b = _constant(b)
        if observer is not None:
            observer.made(b, 3, 1)
    try:
        out, (da, db) = op.eval(a.data, b.data)
    except OverflowError:
        out = math.inf
    if not _isfinite(out):
        raise overflow(op, (a.data, b.data))
    if a.constant:  # constants take no gradient, so theirs may be undefined
        da = 0.0
    if b.constant:
        db = 0.0
    v = _result(op, a, b, out, da, db)
    if observer is not None:
        observer.made(v, 3)
    return v


def _unary(op: Op, a: Value | float) -> Value:
    if not isinstance(a, Value):
        a = _constant(a)
        if observer is not None:
            observer.made(a, 3, 0)  # made <- _unary <- tanh <- the caller
    try:
        out, (da,) = op.eval(a.data)
    except OverflowError:
        out = math.inf
    if not _isfinite(out):
        raise overflow(op, (a.data,))
    if a.constant:  # as in _binary: sqrt(0) of a plain 0 must not fail at backward
        da = 0.0
    v = _result(op, a, None, out, da, 0.0)
    if observer is not None:
        observer.made(v, 3)
    return v


def apply(op: Op, operands: tuple[Value | float, ...]) -> Value:
    """A new value: ``op`` applied to ``operands`` (numbers become constants)."""
    if len(operands) != op.arity:
        raise GradstepError(
            f"{op.name} takes {op.arity} operand{'s' * (op.arity > 1)}, not {len(operands)}",
            kind="arity",
        )
    return _unary(op, operands[0]) if op.arity == 1 else _binary(op, operands[0], operands[1])


def arrays(order: list[Value]) -> dict[str, list[Any]]:
    """The values of ``order`` (a topological order) as plain lists, a node each (``locals``:
    every node's local derivatives in turn, one per operand): what a graph's record holds of
    gradstep's values (engine.program.Graph)."""
    ids = {id(v): i for i, v in enumerate(order)}
    parents: list[list[int]] = []
    ops: list[str | None] = []
    data: list[float] = []
    grad: list[float] = []
    local: list[float] = []
    constant: list[int] = []
    names: list[str | None] = []
    labels: list[str | None] = []
    for i, v in enumerate(order):
        a, b, op = v.a, v.b, v.op
        if a is None:
            parents.append([])
        elif b is None:
            parents.append([ids[id(a)]])
            local.append(v.da)
        else:
            parents.append([ids[id(a)], ids[id(b)]])
            local += (v.da, v.db)
        ops.append(op.name if op is not None else None)
        data.append(v.data)
        grad.append(v.grad)
        if v.constant:
            constant.append(i)
        names.append(None if v.name is None else str(v.name))
        labels.append(v.label if isinstance(v.label, str) else None)
    return {"parents": parents, "ops": ops, "data": data, "grad": grad, "locals": local,
            "constant": constant, "names": names, "labels": labels}  # fmt: skip


def reevaluate(order: list[Value]) -> None:
    """Recompute every op value in ``order`` (a topological order) after leaves changed."""
    for node in order:
        if node.op is not None:
            fresh = apply(node.op, node.parents)
            node.data, node.da, node.db = fresh.data, fresh.da, fresh.db


def overflow(op: Op, operands: tuple[float, ...]) -> GradstepError:
    """The error of an op whose result is too large, written as the user writes the op."""
    a, *b = (f"{x:.6g}" for x in operands)
    written = f"{a} {op.symbol} {b[0]}" if b else f"{op.name}({a})"
    return GradstepError(f"{written} overflows: the result is too large for a float", "overflow")
