"""Walks over a derivative's SymPy expression that cost what its graph costs, not what it costs
written out: an expression built from a program shares each subexpression as the program
shares each value, so written out it can hold 2²⁰⁰ operations in a few hundred objects, and
SymPy's own recursive walks (``count_ops``, ``str``, ``evalf``) would take that long or run out
of stack. Each walk here visits each distinct object once, with a stack of its own.

``written``: operations in the expression written out (each +, −, ·, power and function once
per place it is written: what ``sympy.count_ops`` counts, a subtraction as an addition of a
negated term); ``shared``: each distinct subexpression once (what a program that reuses its
values computes); ``text``: the expression as docs/notation.md writes formulas, cut short;
``value``: its number at the inputs, in 30-digit arithmetic.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import mpmath  # type: ignore[import-untyped]
import sympy  # type: ignore[import-untyped]
from sympy.core.relational import Relational  # type: ignore[import-untyped]
from sympy.functions.elementary.piecewise import ExprCondPair  # type: ignore[import-untyped]

_SUPERSCRIPTS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
_FUNCTIONS: dict[type, str] = {  # each function by its name in an mpmath context
    sympy.exp: "exp",
    sympy.log: "log",
    sympy.tanh: "tanh",
    sympy.sin: "sin",
    sympy.cos: "cos",
}


def _own_ops(e: sympy.Basic) -> int:
    """Operations ``e`` applies itself, its arguments' own not counted."""
    if isinstance(e, (sympy.Add, sympy.Mul)):
        return len(e.args) - 1
    if isinstance(e, sympy.Piecewise):  # a Function too: one choice per condition
        return len(e.args) - 1
    if isinstance(e, (sympy.Pow, sympy.Function, Relational)):
        return 1
    return 0


def _children(e: sympy.Basic) -> tuple[sympy.Basic, ...]:
    if isinstance(e, sympy.Piecewise):
        return tuple(x for pair in e.args for x in pair.args if x is not sympy.true)
    return tuple(e.args)


def written(e: sympy.Basic, memo: dict[int, int]) -> int:
    """Operations in ``e`` written out, as a tree; ``memo`` (by object) may be shared between
    calls on expressions that share subexpressions."""
    return int(_post_order(e, memo, lambda top, kids: _own_ops(top) + sum(kids)))


def shared(e: sympy.Basic) -> int:
    """Operations in ``e`` with each distinct subexpression counted once."""
    seen: set[int] = set()
    total = 0
    stack = [e]
    while stack:
        top = stack.pop()
        if id(top) in seen:
            continue
        seen.add(id(top))
        total += _own_ops(top)
        stack.extend(_children(top))
    return total


def value(
    e: sympy.Basic,
    inputs: Mapping[sympy.Symbol, float],
    memo: dict[int, Any] | None = None,
    digits: int = 30,
) -> float:
    """``e``'s number with each symbol at its input, computed with ``digits`` digits and
    rounded once to a float: independent of the engine's float arithmetic. ``memo`` (by
    object) may be shared between calls at the same inputs and digits. The digits are set in a
    context of its own: mpmath's shared one is every thread's (SymPy's too)."""
    memo = {} if memo is None else memo
    ctx = mpmath.MPContext()
    ctx.dps = digits
    return float(_post_order(e, memo, lambda top, kids: _apply(ctx, top, kids, inputs)))


def _post_order(e: sympy.Basic, memo: dict[int, Any], combine: Any) -> Any:
    """``combine(node, its children's results)`` for every node of ``e``, children first, each
    shared subexpression once (``memo``, by object), with a stack of its own: SymPy's recursive
    walks overflow on a deep chain."""
    stack = [e]
    while stack:
        top = stack[-1]
        if id(top) in memo:
            stack.pop()
            continue
        kids = [k for k in _children(top) if id(k) not in memo]
        if kids:
            stack.extend(kids)
            continue
        stack.pop()
        memo[id(top)] = combine(top, [memo[id(k)] for k in _children(top)])
    return memo[id(e)]


def _apply(ctx: Any, e: sympy.Basic, args: list[Any], inputs: Mapping[sympy.Symbol, float]) -> Any:
    if isinstance(e, sympy.Symbol):
        return ctx.mpf(inputs[e])
    if isinstance(e, sympy.Number):
        return ctx.mpf(e.p) / e.q if isinstance(e, sympy.Rational) else ctx.mpf(float(e))
    if isinstance(e, sympy.Add):
        return ctx.fsum(args)
    if isinstance(e, sympy.Mul):
        return ctx.fprod(args)
    if isinstance(e, sympy.Pow):
        return ctx.power(args[0], args[1])
    if isinstance(e, sympy.StrictGreaterThan):
        return args[0] > args[1]
    if isinstance(e, sympy.Piecewise):  # (value, condition) pairs; the last one's is True
        pairs = [args[k : k + 2] for k in range(0, len(args) - 1, 2)]
        return next((v for v, cond in pairs if cond), args[-1])
    return getattr(ctx, _FUNCTIONS[type(e)])(args[0])


def text(e: sympy.Basic, room: int = 400) -> tuple[str, bool]:
    """``e`` as a formula (``2·x·sin(x) + x²·cos(x)``), and whether it was cut at ``room``
    characters (then it ends with ``…``)."""
    out: list[str] = []
    length = 0
    stack: list[sympy.Basic | str] = [e]
    while stack:
        top = stack.pop()
        if isinstance(top, str):
            out.append(top)
            length += len(top)
            if length > room:
                return "".join(out)[:room] + "…", True
            continue
        stack.extend(reversed(_pieces(top)))
    return "".join(out), False


def _bracketed(e: sympy.Basic, loose: tuple[type, ...]) -> list[sympy.Basic | str]:
    if isinstance(e, loose) or (isinstance(e, sympy.Number) and e < 0):
        return ["(", e, ")"]
    return [e]


def _negated(e: sympy.Basic) -> sympy.Basic | None:
    """``t`` when ``e`` is −1·t, else None."""
    if isinstance(e, sympy.Mul) and len(e.args) == 2 and e.args[0] == -1:
        return e.args[1]
    return None


def _pieces(e: sympy.Basic) -> list[sympy.Basic | str]:
    """``e`` one level deep: texts, and the subexpressions written between them."""
    if isinstance(e, sympy.Symbol):
        return [e.name]
    if isinstance(e, sympy.Integer):
        return [str(e).replace("-", "−")]
    if isinstance(e, sympy.Number):
        return [f"{float(e):.6g}".replace("-", "−")]
    if isinstance(e, sympy.Add):
        out: list[sympy.Basic | str] = [e.args[0]]
        for term in e.args[1:]:
            minus = _negated(term)
            out += [" − ", *_bracketed(minus, (sympy.Add,))] if minus is not None else [" + ", term]
        return out
    if isinstance(e, sympy.Mul):
        minus = _negated(e)
        if minus is not None:
            return ["−", *_bracketed(minus, (sympy.Add, sympy.Mul))]
        out = []
        for k, factor in enumerate(e.args):
            out += (["·"] if k else []) + _bracketed(factor, (sympy.Add,))
        return out
    if isinstance(e, sympy.Pow):
        base, exponent = e.args
        if exponent == sympy.Rational(1, 2):
            return ["√(", base, ")"]
        loose = (sympy.Add, sympy.Mul, sympy.Pow)
        if isinstance(exponent, sympy.Integer) and -9 <= exponent <= 9:
            return [*_bracketed(base, loose), str(exponent).translate(_SUPERSCRIPTS)]
        return [*_bracketed(base, loose), "^(", exponent, ")"]
    if isinstance(e, sympy.Piecewise):
        pairs: list[ExprCondPair] = list(e.args)
        return ["(", pairs[0].expr, " if ", pairs[0].cond, " else ", pairs[-1].expr, ")"]
    if isinstance(e, sympy.StrictGreaterThan):
        return [e.args[0], " > ", e.args[1]]
    return [f"{type(e).__name__}(", e.args[0], ")"]
