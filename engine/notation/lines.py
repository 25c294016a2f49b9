"""The lines of the chain rule: a result's formula, a forward step, each contribution of a
backward step (the accumulation, the rule with its value, the product, the grad before and
after), the inspector's sum over uses, and the notes around them (engine.notation)."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from engine.notation.naming import constant_text, grad_of, ref, small_whole, superscript
from engine.ops import Op

Kind = Literal["n", "f", "w"]  # a plain number, a factor, a whole number (relu's 1 or 0)
Ref = tuple[str, int]  # a number of the trace: (its array, its index), e.g. ("data", 3)


Num = tuple[str, int, Kind]  # a number in a line: which one (array, index), how it is written
Arithmetic = Literal["add", "sub", "mul", "div"]  # what a Relation checks: a sum is many adds
ARITHMETIC: tuple[Arithmetic, ...] = ("add", "sub", "mul", "div")


@dataclass(frozen=True, slots=True)
class Relation:
    """The sign between numbers written with an operation and the result written after them:
    ``exact`` when the numbers as shown, combined by ``op`` (in order, left to right), give the
    result as shown at the decimals shown; else ``inexact``. The renderer decides, at its
    decimals (app/numbers.py and static/parts.js, both checked against one golden table): a
    student who multiplies the shown numbers gets the shown product, or is told it is rounded:
    ``= 0.4958 × (−14.0000) ≈ −6.9417`` (docs/notation.md: Numbers that reproduce)."""

    op: Arithmetic
    of: tuple[Num | int, ...]  # the operands (in a trace's lines: their slots)
    to: Num | int  # the result
    exact: str = " = "
    inexact: str = " ≈ "


Part = str | Num | Relation
Parts = tuple[Part, ...]

_SLOT = re.compile(r"\{(a|b|out)(!p|!b)?\}")


@dataclass(frozen=True, slots=True)
class Operand:
    """An operand as a formula names it and the number it stands for."""

    name: str  # the node's name
    data: Ref  # its number
    marker: str = ""  # "⁽¹⁾" / "⁽²⁾" when one op uses the same value twice
    constant: float | None = None  # a constant's number: part of the program's structure


@dataclass(frozen=True, slots=True)
class Result:
    name: str
    data: Ref
    op: Op
    operands: tuple[Operand, ...]


def _templates(r: Result) -> tuple[str, tuple[str, ...]]:
    """The op's expression and derivative templates, specialised for a constant exponent
    (``a ** 3`` is written ``a³`` and its derivative ``3·a²``, as a person writes them)."""
    op = r.op
    n = r.operands[1].constant if op.name == "pow" else None
    if n is None:
        return op.expr, op.derivatives
    if small_whole(n):
        expr = "{a!b}" + superscript(n)
        less = n - 1
        if n == 0:  # not 0·a⁻¹: at a = 0 that is 0·0⁻¹, undefined, where the derivative is 0
            da = "0"
        elif less == 0:
            da = constant_text(n)
        elif less == 1:
            da = f"{constant_text(n)}·{{a}}"
        elif small_whole(less):
            da = f"{constant_text(n)}·{{a!b}}{superscript(less)}"
        else:
            da = f"{constant_text(n)}·{{a!b}}^({constant_text(less)})"
        return expr, (da, op.derivatives[1])
    return "{a!b}^" + constant_text(n), (
        f"{constant_text(n)}·{{a!b}}^({constant_text(n - 1)})",
        op.derivatives[1],
    )


@functools.lru_cache(maxsize=256)
def _pieces(template: str) -> tuple[tuple[str, str, str], ...]:
    """``template`` as (text before, slot, mode) pieces; the last piece's slot is empty."""
    pieces = []
    last = 0
    for m in _SLOT.finditer(template):
        pieces.append((template[last : m.start()], m.group(1), m.group(2) or ""))
        last = m.end()
    return (*pieces, (template[last:], "", ""))


def _fill(template: str, r: Result, numbers: bool, markers: bool = True) -> Parts:
    """``template`` with its slots written as names or as numbers."""
    parts: list[Part] = []
    for text, slot, mode in _pieces(template):
        if text:
            parts.append(text)
        if not slot:
            break
        operand = Operand(r.name, r.data) if slot == "out" else r.operands[0 if slot == "a" else 1]
        if numbers:
            array, index = operand.data
            if mode == "!b":
                parts += ["(", (array, index, "n"), ")"]
            else:
                parts.append((array, index, "n" if mode == "!p" else "f"))
        else:
            name = operand.name if mode == "!p" else ref(operand.name)
            parts.append(name + (operand.marker if markers else ""))
    return joined(parts)


def joined(parts: Sequence[Part]) -> Parts:
    """Adjacent texts merged: fewer, longer parts."""
    out: list[Part] = []
    text = ""  # the run of texts not yet written out
    for p in parts:
        if isinstance(p, str):
            text += p
        else:
            if text:
                out.append(text)
                text = ""
            out.append(p)
    if text:
        out.append(text)
    return tuple(out)


def text_of(parts: Parts) -> str:
    """Parts that hold no number, as text (a name or a formula)."""
    assert all(isinstance(p, str) for p in parts), parts
    return "".join(parts)  # type: ignore[arg-type]


def expression(r: Result) -> str:
    """``tanh(n)``, ``a + b``, ``a³``: the result in its operands' names."""
    return text_of(_fill(_templates(r)[0], r, numbers=False, markers=False))


def formula(r: Result) -> str:
    """``o = tanh(n)``; a result that is named by its own source text is written once (``a·b``
    rather than ``a * b = a·b``)."""
    expr = expression(r)
    return expr if r.name == expr else f"{r.name} = {expr}"


def forward_text(r: Result) -> Parts:
    """``c = a + b = (−4.0000) + 2.0000 = −2.0000``."""
    template = _templates(r)[0]
    lead = "" if r.name == expression(r) else f"{r.name} = "
    names = _fill(template, r, numbers=False, markers=False)
    values = _fill(template, r, numbers=True)
    result: Num = (*r.data, "n")
    if r.op.name in ARITHMETIC:  # a + b, a·b...: the student can check the sum or product shown
        operands = tuple(p for p in values if isinstance(p, tuple))
        sign: Part = Relation(r.op.name, operands, result)
    else:
        sign = " = "
    return joined([lead, *names, " = ", *values, sign, result])


def _tight(expr: str) -> str:
    """``expr`` bracketed unless it is a function call or a root: ``∂(a·a)``, ``∂tanh(n)``."""
    head = re.match(r"[^\W\d]\w*\(", expr)
    if head and _closes_at_end(expr, head.end() - 1):
        return expr
    return expr if expr.startswith("√") and " " not in expr else f"({expr})"


def _closes_at_end(text: str, opening: int) -> bool:
    depth = 0
    for i in range(opening, len(text)):
        depth += (text[i] == "(") - (text[i] == ")")
        if depth == 0:
            return i == len(text) - 1
    return False


def partial(r: Result, i: int) -> str:
    """``∂o/∂n``, ``∂b/∂a⁽¹⁾``: the local derivative of the result with respect to operand i."""
    operand = r.operands[i]
    return f"∂{ref(r.name)}/∂{ref(operand.name)}{operand.marker}"


@dataclass(frozen=True, slots=True)
class ContributionText:
    sum: Parts  # n.grad += ∂o/∂n · o.grad
    rule: Parts  # ∂o/∂n = (1 − o²)
    value: Parts  # = (1 − 0.7071²) = 0.5000
    product: Parts  # = 0.5000 × 1.0000 = 0.5000
    change: Parts  # n.grad: 0.0000 → 0.5000


@dataclass(frozen=True, slots=True)
class LineRefs:
    """The numbers of one contribution: ∂result/∂operand, the result's grad, their product, and
    the operand's grad before and after it is added."""

    local: Ref
    upstream: Ref
    product: Ref
    before: Ref
    after: Ref


def contribution_text(r: Result, i: int, refs: LineRefs) -> ContributionText:
    """One line of a backward step: the accumulation, the rule with its value, the product with
    numbers, and the operand's grad before and after."""
    operand = r.operands[i]
    d = partial(r, i)
    template = _templates(r)[1][i]
    rule: list[Part] = [f"{d} = "]
    if operand.marker and r.name != expression(r):  # which a is which: ∂(a·a)/∂a⁽¹⁾
        rule.append(f"∂{_tight(expression(r))}/∂{ref(operand.name)}{operand.marker} = ")
    rule += _fill(template, r, numbers=False)
    value: list[Part] = []
    if r.op.indicator:  # relu: 1 or 0, a whole number
        value = ["= ", (*refs.local, "w")]
    elif _SLOT.search(template):
        numbers = _fill(template, r, numbers=True)
        value = ["= ", *numbers]
        if not (len(numbers) == 1 and isinstance(numbers[0], tuple) and numbers[0][2] == "f"):
            value += [" = ", (*refs.local, "n")]
    local: Num = (*refs.local, "f")
    upstream: Num = (*refs.upstream, "f")
    product_num: Num = (*refs.product, "n")
    product = joined(["= ", local, " × ", upstream, Relation("mul", (local, upstream), product_num),
                      product_num])  # fmt: skip
    name = grad_of(operand.name)
    return ContributionText(
        sum=(f"{name} += {d} · {grad_of(r.name)}",),
        rule=joined(rule),
        value=joined(value),
        product=product,
        change=change_text(name, refs.before, refs.product, refs.after),
    )


def change_text(name: str, before: Ref, added: Ref, after: Ref) -> Parts:
    """``n.grad: 0.0000 → 0.5000``: ``added`` is said on the line before."""
    shown: tuple[Num, Num, Num] = ((*before, "n"), (*added, "n"), (*after, "n"))
    return (f"{name}: ", shown[0], becomes(*shown), shown[2])


def becomes(before: Num, added: Num, after: Num) -> Relation:
    """The ``→`` of a grad's before → after, ``→ ≈`` when the shown before and the shown
    ``added`` do not add up to the shown after."""
    return Relation("add", (before, added), after, " → ", " → ≈ ")


def seed_text(output: str) -> Parts:
    return (f"{grad_of(output)} = 1 (the output's gradient with respect to itself)",)


def constant_note(name: str) -> Parts:
    return (f"the constant {name} takes no gradient",)


def accumulates_note(name: str, uses: str) -> str:
    """``uses``: who uses the value, as ``uses_text`` writes it."""
    return f"accumulates ({name} is used {uses})"


@dataclass(frozen=True, slots=True)
class Use:
    user: str  # the result's name
    partial: str  # ∂b/∂a⁽¹⁾
    contribution: Ref


def grad_sum(name: str, uses: Sequence[Use], grad: Ref) -> Parts:
    """The inspector's sum over uses: ``a.grad = ∂b/∂a⁽¹⁾·b.grad + ∂b/∂a⁽²⁾·b.grad
    = 3.0000 + 3.0000 = 6.0000``."""
    symbolic = " + ".join(f"{u.partial}·{grad_of(u.user)}" for u in uses)
    parts: list[Part] = [f"{grad_of(name)} = {symbolic} = "]
    total: Num = (*grad, "n")
    if len(uses) > 1:
        shares: list[Num] = [(*u.contribution, "f") for u in uses]
        for k, share in enumerate(shares):
            parts += [" + " if k else "", share]
        parts.append(Relation("add", tuple(shares), total))
    parts.append(total)
    return joined(parts)


def output_sum(name: str) -> Parts:
    return (f"{grad_of(name)} = 1 (the output)",)


def update_text(name: str, where: str, before: Ref, after: Ref) -> Parts:
    """``w[0].data (Neuron 1, Layer 1): 0.2300 → 0.2245``: a value the program changed."""
    return (f"{name}.data{f' ({where})' if where else ''}: ", (*before, "n"), " → ",
            (*after, "n"))  # fmt: skip
