"""Symbolic differentiation of a program's graph: its output as a SymPy expression in the
program's names, and the derivative with respect to each input built by the rules of calculus,
op by op, from the op table (``RULES``: each op once, its value and each local derivative as
SymPy writes them, beside engine/ops.py's table; a test checks that every op has its rules).
Nothing the user typed is ever parsed: the expressions are made from the graph's ops.

The derivative is what a person differentiating the formula by hand writes before simplifying:
``d(a·b) = b·da + a·db`` applied at every op, each operand's expression written out in full
where it is used. Written out, it grows with every composed layer (expression swell); the
objects are shared as the program shares its values, so building it costs the graph's size
and its size is counted without writing it out (engine.ways.expressions). SymPy's expensive
steps run only under their budgets: ``cse`` up to ``CSE_MAX_OPS`` operations, simplifying
(``simplified``) up to ``SIMPLIFY_MAX_OPS`` for the first ``SIMPLIFY_INPUTS`` inputs; past them
the answer says so.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import sympy  # type: ignore[import-untyped]
from sympy import Expr
from sympy.functions.elementary.piecewise import ExprCondPair  # type: ignore[import-untyped]

from engine.ways import expressions
from engine.ways.replay import Replayed

MAX_WORK = 20_000  # derivative nodes visited, over all inputs (the lecture MLP's 41: 15,662)
CSE_MAX_OPS = 200  # sympy.cse on a derivative of at most this many operations written out
SIMPLIFY_MAX_OPS = 16  # derivatives this small are simplified...
SIMPLIFY_INPUTS = 2  # ...for at most this many inputs
# sympy.simplify rewrites tanh and exp through exponentials: 1.4 s on the lecture neuron's
# 9-operation w1·(1 − tanh²(n)), 0.08 s on the seed's trigonometric one. It is tried on neither;
# factor and factor_terms (milliseconds) on both, and the shortest result kept.
_SLOW_TO_SIMPLIFY = (sympy.tanh, sympy.exp)
Simplifier = Literal["simplify", "factor", "factor_terms"]
TEXT_CHARS = 400  # an expression's text is cut past this many characters
SWELL_POINTS = 24  # depths measured for the swell chart, at most

_ONE, _MINUS_ONE, _ZERO = sympy.Integer(1), sympy.Integer(-1), sympy.Integer(0)


# Every expression is made as it is written, without SymPy's evaluation and without its cache:
# a cached constructor looks its arguments up by equality, and two equal expressions of a deep
# program (the same program asked for twice) compare level by level, past Python's recursion
# limit. Made here, an expression compares by nothing until sympy.cse or simplify (small ones).


def _add(*terms: Expr) -> Expr:
    return sympy.Add._from_args(terms)


def _mul(*factors: Expr) -> Expr:
    return sympy.Mul._from_args(factors)


def _neg(x: Expr) -> Expr:
    return _mul(_MINUS_ONE, x)


def _power(a: Expr, b: Expr | int) -> Expr:
    made = sympy.Basic.__new__(sympy.Pow, a, sympy.Integer(b) if isinstance(b, int) else b)
    made.is_commutative = True  # as Pow's own constructor says of real operands
    return made


def _call(function: type, *args: Expr) -> Expr:
    """``function(*args)`` (sin, tanh, ...) as written."""
    return sympy.Basic.__new__(function, *args)


def _positive(a: Expr) -> Expr:
    return _call(sympy.StrictGreaterThan, a, _ZERO)


def _indicator(a: Expr, then: Expr) -> Expr:
    """``then`` where a > 0, else 0: relu and its derivative."""
    return _call(sympy.Piecewise, _call(ExprCondPair, then, _positive(a)),
                 _call(ExprCondPair, _ZERO, sympy.true))  # fmt: skip


def _pow_da(a: Expr, b: Expr, out: Expr) -> Expr:
    """b·a^(b − 1), written as a person writes it for a constant exponent (3·x², 2·x, 1)."""
    if isinstance(b, sympy.Number):
        if b == 0:
            return _ZERO
        if b == 1:
            return _ONE
        less = b - 1  # numbers: SymPy's arithmetic on two of them is shallow
        return _mul(b, a if less == 1 else _power(a, less))
    return _mul(b, _power(a, _add(b, _MINUS_ONE)))


@dataclass(frozen=True, slots=True)
class Rules:
    """An op as SymPy writes it: its value from its operands, and its local derivative with
    respect to each operand from the operands and the value (``out``), as engine/ops.py's
    templates do."""

    value: Callable[..., Expr]
    derivatives: tuple[Callable[[Expr, Expr, Expr], Expr], ...]


# fmt: off
RULES: dict[str, Rules] = {
    "add":     Rules(_add, (lambda a, b, o: _ONE, lambda a, b, o: _ONE)),
    "sub":     Rules(lambda a, b: _add(a, _neg(b)),
                     (lambda a, b, o: _ONE, lambda a, b, o: _MINUS_ONE)),
    "mul":     Rules(_mul, (lambda a, b, o: b, lambda a, b, o: a)),
    "div":     Rules(lambda a, b: _mul(a, _power(b, -1)),
                     (lambda a, b, o: _power(b, -1), lambda a, b, o: _neg(_mul(a, _power(b, -2))))),
    "pow":     Rules(_power, (_pow_da, lambda a, b, o: _mul(o, _call(sympy.log, a)))),
    "neg":     Rules(_neg, (lambda a, b, o: _MINUS_ONE,)),
    "exp":     Rules(lambda a: _call(sympy.exp, a), (lambda a, b, o: o,)),
    "log":     Rules(lambda a: _call(sympy.log, a), (lambda a, b, o: _power(a, -1),)),
    "tanh":    Rules(lambda a: _call(sympy.tanh, a),
                     (lambda a, b, o: _add(_ONE, _neg(_power(o, 2))),)),
    "relu":    Rules(lambda a: _indicator(a, a), (lambda a, b, o: _indicator(a, _ONE),)),
    "sigmoid": Rules(lambda a: _power(_add(_ONE, _call(sympy.exp, _neg(a))), -1),
                     (lambda a, b, o: _mul(o, _add(_ONE, _neg(o))),)),
    "sin":     Rules(lambda a: _call(sympy.sin, a), (lambda a, b, o: _call(sympy.cos, a),)),
    "cos":     Rules(lambda a: _call(sympy.cos, a), (lambda a, b, o: _neg(_call(sympy.sin, a)),)),
    "sqrt":    Rules(lambda a: _power(a, sympy.Rational(1, 2)),
                     (lambda a, b, o: _power(_mul(sympy.Integer(2), o), -1),)),
}
# fmt: on


@dataclass(frozen=True, slots=True)
class Derivative:
    """∂output/∂input as an expression: its text, its value at the inputs, its size."""

    input: int  # which input (an index into Replayed.inputs)
    text: str  # cut at TEXT_CHARS (``cut``), ending with …
    cut: bool
    value: float  # computed from the expression in 30-digit arithmetic
    written: int  # operations written out
    shared: int  # operations with each repeated subexpression once
    cse: int | None  # operations after sympy.cse (None: past CSE_MAX_OPS)
    simplified: str | None  # the shortest of the tries, when tried (SIMPLIFY_MAX_OPS)
    simplified_ops: int | None
    simplified_by: Simplifier | None


@dataclass(frozen=True, slots=True)
class SwellPoint:
    """One depth of the program: its deepest value there, how many values it is made from
    (the graph's size), and the operations of its expression and of its derivatives (summed
    over the inputs differentiated) written out."""

    depth: int
    node: int  # its position in the replayed graph
    nodes: int
    value_ops: int
    derivative_ops: int


@dataclass(frozen=True, slots=True)
class Symbolic:
    function: str  # the output's expression, cut as a derivative's text
    function_ops: int  # its operations written out
    derivatives: tuple[Derivative, ...]
    left_out: int  # inputs not differentiated: past MAX_WORK
    swell: tuple[SwellPoint, ...]
    notes: tuple[str, ...]

    @property
    def written(self) -> int:
        """The operations of every derivative written out: the symbolic method's size."""
        return sum(d.written for d in self.derivatives)


def differentiate(r: Replayed) -> Symbolic:
    """The symbolic derivatives of ``r``'s output with respect to each of its inputs, while
    MAX_WORK allows, and the swell series."""
    slot = {id(v): k for k, v in enumerate(r.values)}
    operands = [tuple(slot[id(p)] for p in v.parents) for v in r.values]
    symbols = {
        k: sympy.Symbol(name, real=True) for k, name in zip(r.inputs, r.symbols, strict=True)
    }
    exprs: list[Expr] = []
    for k, v in enumerate(r.values):
        if v.op is None:
            exprs.append(symbols.get(k) or _number(v.data))
        else:
            exprs.append(RULES[v.op.name].value(*(exprs[p] for p in operands[k])))
    local: dict[tuple[int, int], Expr] = {}

    def local_of(k: int, i: int) -> Expr:
        if (k, i) not in local:
            ps = operands[k]
            a, b = exprs[ps[0]], exprs[ps[1]] if len(ps) == 2 else _ZERO
            op = r.values[k].op
            assert op is not None
            local[k, i] = RULES[op.name].derivatives[i](a, b, exprs[k])
        return local[k, i]

    memo: dict[int, int] = {}  # operations written out, by expression object
    numbers: dict[int, Any] = {}  # values at the inputs, by expression object
    at = {symbols[k]: r.values[k].data for k in symbols}
    root = len(r.values) - 1
    derivatives: list[Derivative] = []
    tangents: list[dict[int, Expr]] = []
    work = 0
    notes: list[str] = []
    for n, k0 in enumerate(r.inputs):
        work += root - k0 + 1
        if work > MAX_WORK:
            break
        d = _derivatives(k0, operands, local_of)
        tangents.append(d)
        expr = d.get(root, _ZERO)
        derivatives.append(_described(n, expr, at, memo, numbers, len(derivatives)))
    left_out = len(r.inputs) - len(derivatives)
    if left_out:
        notes.append(
            f"{left_out} of {len(r.inputs)} inputs not differentiated symbolically: the "
            f"expressions would take more than {MAX_WORK:,} steps to build"
        )
    big = [d for d in derivatives if d.cse is None]
    if big:
        notes.append(
            f"cse not tried on {len(big)} derivative{'s' * (len(big) > 1)} of more than "
            f"{CSE_MAX_OPS} operations"
        )
    plain = sum(d.simplified is None for d in derivatives)
    if plain:
        notes.append(
            f"not simplified: {plain} derivative{'s' * (plain > 1)} (the first {SIMPLIFY_INPUTS} "
            f"inputs' derivatives of at most {SIMPLIFY_MAX_OPS} operations are)"
        )
    text, _ = expressions.text(exprs[root], TEXT_CHARS)
    return Symbolic(
        function=text,
        function_ops=expressions.written(exprs[root], memo),
        derivatives=tuple(derivatives),
        left_out=left_out,
        swell=_swell(operands, exprs, tangents, memo),
        notes=tuple(notes),
    )


def _number(x: float) -> Expr:
    return sympy.Integer(int(x)) if x.is_integer() and abs(x) < 2**53 else sympy.Float(x)


def _derivatives(
    start: int, operands: list[tuple[int, ...]], local_of: Callable[[int, int], Expr]
) -> dict[int, Expr]:
    """d(node)/d(input at ``start``) for every node that depends on it: the chain rule, op by
    op, in creation order; a node that does not depend on the input is left out (0)."""
    d: dict[int, Expr] = {start: _ONE}
    for k in range(start + 1, len(operands)):
        terms: list[Expr] = []
        for i, p in enumerate(operands[k]):
            dp = d.get(p)
            if dp is None:
                continue
            rule = local_of(k, i)
            if rule is _ZERO:
                continue
            if rule is _ONE:
                terms.append(dp)
            elif dp is _ONE:
                terms.append(rule)
            elif rule is _MINUS_ONE:
                terms.append(_neg(dp))
            else:
                terms.append(_mul(rule, dp))
        if terms:
            d[k] = terms[0] if len(terms) == 1 else _add(*terms)
    return d


def _described(
    n: int,
    expr: Expr,
    at: dict[sympy.Symbol, float],
    memo: dict[int, int],
    numbers: dict[int, Any],
    done: int,
) -> Derivative:
    written = expressions.written(expr, memo)
    text, cut = expressions.text(expr, TEXT_CHARS)
    cse = None
    if written <= CSE_MAX_OPS:
        replacements, reduced = sympy.cse(expr)
        cse = sum(expressions.written(e, {}) for _, e in replacements) + sum(
            expressions.written(e, {}) for e in reduced
        )
    simplified = simplified_ops = simplified_by = None
    if written <= SIMPLIFY_MAX_OPS and done < SIMPLIFY_INPUTS:
        simplified_by, better, simplified_ops = _simplified(expr)
        simplified, _ = expressions.text(better, TEXT_CHARS)
    return Derivative(n, text, cut, expressions.value(expr, at, numbers), written,
                      expressions.shared(expr), cse, simplified, simplified_ops,
                      simplified_by)  # fmt: skip


def _simplified(expr: Expr) -> tuple[Simplifier, Expr, int]:
    """The shortest of sympy.simplify (where it is quick), factor and factor_terms: which, the
    expression, its operations written out."""
    tries: dict[Simplifier, Callable[[Expr], Expr]] = {
        "factor_terms": sympy.factor_terms,
        "factor": sympy.factor,
    }
    if not expr.has(*_SLOW_TO_SIMPLIFY):
        tries = {"simplify": sympy.simplify, **tries}
    found = [(name, way(expr)) for name, way in tries.items()]
    sized = [(expressions.written(e, {}), k, name, e) for k, (name, e) in enumerate(found)]
    ops, _, name, best = min(sized)
    return name, best, ops


def _swell(
    operands: list[tuple[int, ...]],
    exprs: list[Expr],
    tangents: list[dict[int, Expr]],
    memo: dict[int, int],
) -> tuple[SwellPoint, ...]:
    """At each depth (sampled when deeper than SWELL_POINTS), the value there that is made from
    the most values, and its sizes."""
    depth = [0] * len(operands)
    ancestors = [0] * len(operands)  # the values each is made from, as bits
    for k, ps in enumerate(operands):
        depth[k] = 1 + max((depth[p] for p in ps), default=-1)
        bits = 1 << k
        for p in ps:
            bits |= ancestors[p]
        ancestors[k] = bits
    deepest: dict[int, int] = {}
    for k, dk in enumerate(depth):
        made_from = ancestors[k].bit_count()
        if dk and (dk not in deepest or made_from >= ancestors[deepest[dk]].bit_count()):
            deepest[dk] = k
    levels = sorted(deepest)
    if len(levels) > SWELL_POINTS:
        step = (len(levels) - 1) / (SWELL_POINTS - 1)
        levels = sorted({levels[round(j * step)] for j in range(SWELL_POINTS)})
    points = []
    for dk in levels:
        k = deepest[dk]
        points.append(SwellPoint(
            dk, k, ancestors[k].bit_count(), expressions.written(exprs[k], memo),
            sum(expressions.written(t[k], memo) for t in tangents if k in t),
        ))  # fmt: skip
    return tuple(points)
