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
    expr: str  # the result written in its operands: "{a} · {b}" (read by engine/notation/lines.py)
    derivatives: tuple[str, ...]  # per operand, ∂out/∂operand in the operands: "{b}"
    partial_costs: tuple[int, ...]  # elementary operations to evaluate each local derivative
    indicator: bool = False  # the derivative is exactly 0 or 1 (relu): written as a whole number

    @property
    def arity(self) -> int:
        return len(self.derivatives)

    def rule(self, i: int) -> str:
        """The rule for operand ``i`` in the letters a, b: "∂(a · b)/∂a = b" (for messages
        that have no user names to hand; the stepper writes rules in the user's names)."""
        expr = _letters(self.expr)
        function = expr.startswith("√") or (expr[0].isalpha() and expr.endswith(")"))
        out = expr if function else f"({expr})"
        return f"∂{out}/∂{'ab'[i]} = {_letters(self.derivatives[i].replace('{out}', out))}"


def fill(template: str, slots: dict[str, str]) -> str:
    """``template`` with every slot ({a}, {b!p}, ...) replaced by plain text."""
    for slot, text in slots.items():
        for mark in ("", "!p", "!b"):
            template = template.replace(f"{{{slot}{mark}}}", text)
    return template


def _letters(template: str) -> str:
    return fill(template, {"a": "a", "b": "b"})


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
# Templates: {a}, {b} are the operands and {out} the result. Written with names, a slot is the
# operand's name, bracketed when compound ("(x1*w1)"); with numbers, a factor bracketed when
# negative. {a!p}: plain (inside a function's brackets), {a!b}: a number always bracketed.
_TABLE = (
    #  name       symbol  eval      expr             derivatives                          costs
    Op("add",     "+",    _add,     "{a} + {b}",     ("1", "1"),                          (0, 0)),
    Op("sub",     "−",    _sub,     "{a} − {b}",     ("1", "−1"),                         (0, 0)),
    Op("mul",     "*",    _mul,     "{a}·{b}",       ("{b}", "{a}"),                      (0, 0)),
    Op("div",     "/",    _div,     "{a}/{b}",       ("1/{b}", "−{a}/{b}²"),              (1, 3)),
    Op("pow",     "**",   _pow,     "{a}^{b}",       ("{b}·{a!b}^({b} − 1)", "{out}·ln({a!p})"), (3, 2)),
    Op("neg",     "−",    _neg,     "−{a}",          ("−1",),                             (0,)),
    Op("exp",     "exp",  _exp,     "exp({a!p})",    ("{out}",),                          (0,)),
    Op("log",     "log",  _log,     "log({a!p})",    ("1/{a}",),                          (1,)),
    Op("tanh",    "tanh", _tanh,    "tanh({a!p})",   ("(1 − {out}²)",),                   (2,)),
    Op("relu",    "ReLU", _relu,    "relu({a!p})",   ("(1 if {a} > 0 else 0)",),          (1,), indicator=True),
    Op("sigmoid", "σ",    _sigmoid, "σ({a!p})",      ("{out}·(1 − {out})",),              (2,)),
    Op("sin",     "sin",  _sin,     "sin({a!p})",    ("cos({a!p})",),                     (1,)),
    Op("cos",     "cos",  _cos,     "cos({a!p})",    ("−sin({a!p})",),                    (2,)),
    Op("sqrt",    "√",    _sqrt,    "√{a}",          ("1/(2·{out})",),                    (2,)),
)
# fmt: on

OPS: dict[str, Op] = {op.name: op for op in _TABLE}
FUNCTIONS: tuple[str, ...] = ("exp", "log", "tanh", "relu", "sigmoid", "sin", "cos", "sqrt")
