# ruff: noqa: E501  (the op table below is one aligned row per op, wider than 100)
"""The op table: every op is defined here once, and nowhere else.

Each op's ``eval`` returns its value and, right beside it, the local derivative with respect to
each operand (micrograd's shape: forward value, local derivative, done). Reverse mode, forward
mode, cost counting, node labels and the stepper's explanations all read this table.

A local derivative that does not exist (``sqrt`` at 0, the exponent of a negative base) is
stored as inf or NaN and only becomes an error if a backward pass actually needs it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from engine.errors import GradstepError

Locals = tuple[float, ...]


@dataclass(frozen=True, slots=True)
class Op:
    name: str  # "mul": the function name users call, and the class in the SVG
    symbol: str  # "*": drawn in the graph's op node
    eval: Callable[..., tuple[float, Locals]]  # (a[, b]) -> (out, ∂out/∂operand per operand)
    rules: tuple[str, ...]  # per operand, as a person writes it: "∂(a·b)/∂a = b"
    local_exprs: tuple[str, ...]  # per operand, in the operands' names: "{b}"
    expr: str  # how a person writes the op: "{a} * {b}"
    partial_costs: tuple[int, ...]  # elementary operations to evaluate each local derivative

    @property
    def arity(self) -> int:
        return len(self.rules)


def _num(x: float) -> str:
    return f"{x:.6g}"


def _add(a: float, b: float) -> tuple[float, Locals]:
    return a + b, (1.0, 1.0)


def _sub(a: float, b: float) -> tuple[float, Locals]:
    return a - b, (1.0, -1.0)


def _mul(a: float, b: float) -> tuple[float, Locals]:
    return a * b, (b, a)


def _div(a: float, b: float) -> tuple[float, Locals]:
    if b == 0.0:
        raise GradstepError(f"division by zero: a / b with a = {_num(a)}, b = {_num(b)}")
    return a / b, (1.0 / b, -(a / b) / b)  # not −a/(b·b): b·b can underflow to 0


def _pow(a: float, b: float) -> tuple[float, Locals]:
    if a == 0.0 and b < 0.0:
        raise GradstepError(f"0 ** {_num(b)} is undefined: it divides by zero")
    if a < 0.0 and not b.is_integer():
        raise GradstepError(
            f"({_num(a)}) ** {_num(b)} is undefined: a negative base needs a whole-number exponent"
        )
    out = a**b
    if a != 0.0 or b >= 1.0:
        da = b * a ** (b - 1.0)
    else:  # 0 ** b with 0 <= b < 1: flat at b = 0, a vertical tangent otherwise
        da = 0.0 if b == 0.0 else math.inf
    if a > 0.0:
        db = out * math.log(a)
    elif a == 0.0 and b > 0.0:
        db = 0.0  # the limit of a**b·ln(a) as a → 0+
    else:
        db = math.nan  # a**b is not differentiable in b for a <= 0
    return out, (da, db)


def _neg(a: float) -> tuple[float, Locals]:
    return -a, (-1.0,)


def _exp(a: float) -> tuple[float, Locals]:
    out = math.exp(a)
    return out, (out,)


def _log(a: float) -> tuple[float, Locals]:
    if a <= 0.0:
        raise GradstepError(f"log(a) is undefined for a = {_num(a)}: log needs a positive number")
    return math.log(a), (1.0 / a,)


def _tanh(a: float) -> tuple[float, Locals]:
    t = math.tanh(a)
    return t, (1.0 - t * t,)


def _relu(a: float) -> tuple[float, Locals]:
    return (a, (1.0,)) if a > 0.0 else (0.0, (0.0,))  # micrograd's relu'(0) = 0


def _sigmoid(a: float) -> tuple[float, Locals]:
    if a >= 0.0:
        s = 1.0 / (1.0 + math.exp(-a))
    else:  # the same function, written so that exp cannot overflow
        e = math.exp(a)
        s = e / (1.0 + e)
    return s, (s * (1.0 - s),)


def _sin(a: float) -> tuple[float, Locals]:
    return math.sin(a), (math.cos(a),)


def _cos(a: float) -> tuple[float, Locals]:
    return math.cos(a), (-math.sin(a),)


def _sqrt(a: float) -> tuple[float, Locals]:
    if a < 0.0:
        raise GradstepError(f"sqrt(a) is undefined for a = {_num(a)}: it needs a number >= 0")
    out = math.sqrt(a)
    return out, (0.5 / out if out > 0.0 else math.inf,)


# fmt: off
_TABLE = (
    #  name       symbol  eval      rules                                          local exprs                       expr              costs
    Op("add",     "+",    _add,     ("∂(a+b)/∂a = 1", "∂(a+b)/∂b = 1"),            ("1", "1"),                       "{a} + {b}",      (0, 0)),
    Op("sub",     "−",    _sub,     ("∂(a−b)/∂a = 1", "∂(a−b)/∂b = −1"),           ("1", "−1"),                      "{a} − {b}",      (0, 0)),
    Op("mul",     "*",    _mul,     ("∂(a·b)/∂a = b", "∂(a·b)/∂b = a"),            ("{b}", "{a}"),                   "{a} * {b}",      (0, 0)),
    Op("div",     "/",    _div,     ("∂(a/b)/∂a = 1/b", "∂(a/b)/∂b = −a/b²"),      ("1/{b}", "−{a}/{b}²"),           "{a} / {b}",      (1, 3)),
    Op("pow",     "**",   _pow,     ("∂(aᵇ)/∂a = b·aᵇ⁻¹", "∂(aᵇ)/∂b = aᵇ·ln(a)"),  ("{b}·{a}^({b}−1)", "{out}·ln({a})"), "{a} ** {b}",   (3, 2)),
    Op("neg",     "−",    _neg,     ("∂(−a)/∂a = −1",),                            ("−1",),                          "−{a}",           (0,)),
    Op("exp",     "exp",  _exp,     ("∂exp(x)/∂x = exp(x)",),                      ("{out}",),                       "exp({a})",       (0,)),
    Op("log",     "log",  _log,     ("∂log(x)/∂x = 1/x",),                         ("1/{a}",),                       "log({a})",       (1,)),
    Op("tanh",    "tanh", _tanh,    ("∂tanh(x)/∂x = 1 − tanh²(x)",),               ("1 − {out}²",),                  "tanh({a})",      (2,)),
    Op("relu",    "ReLU", _relu,    ("∂relu(x)/∂x = 1 if x > 0 else 0",),          ("[{a} > 0]",),                   "relu({a})",      (1,)),
    Op("sigmoid", "σ",    _sigmoid, ("∂σ(x)/∂x = σ(x)·(1 − σ(x))",),               ("{out}·(1 − {out})",),           "sigmoid({a})",   (2,)),
    Op("sin",     "sin",  _sin,     ("∂sin(x)/∂x = cos(x)",),                      ("cos({a})",),                    "sin({a})",       (1,)),
    Op("cos",     "cos",  _cos,     ("∂cos(x)/∂x = −sin(x)",),                     ("−sin({a})",),                   "cos({a})",       (2,)),
    Op("sqrt",    "√",    _sqrt,    ("∂√x/∂x = 1/(2√x)",),                         ("1/(2·{out})",),                 "sqrt({a})",      (2,)),
)
# fmt: on

OPS: dict[str, Op] = {op.name: op for op in _TABLE}
FUNCTIONS: tuple[str, ...] = ("exp", "log", "tanh", "relu", "sigmoid", "sin", "cos", "sqrt")
