"""The one number formatter: every number a person reads (graph, explanation, exports) is
written by ``format_number`` here or by its mirror in static/format.js, and both are checked
against one golden table (tests/format_golden.json).

A line's ``Relation`` (the ``=`` between a sum or product written with its numbers and the
result) is decided here too, from the numbers as this formatter writes them (``relation_text``).

Rules: ``decimals`` places with a true minus sign (−); an exponent (``1.234e−5``) when the number
is too large (≥ 1e9) or so small that no digit would show at these decimals; ``-0`` is ``0``; exact
ties round away from zero (as JavaScript's toFixed does, so the two agree to the last digit).
A ``width`` (a box in the graph) takes fewer decimals first, down to 2, then an exponent.

Whole numbers read from text that a client, a command line or the environment wrote are checked
here too (``ascii_digits``).
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal

from engine.notation import Relation
from engine.trace import Line, Row, Trace

DEFAULT_DECIMALS = 4  # as micrograd prints
MAX_DECIMALS = 6
BOX_CHARS = 8  # characters a number may take in a graph node ("−27.7668", "−1234.57", "1.235e8")
LARGE = 1e9
MINUS = "−"


def _fixed(x: float, decimals: int) -> str:
    # Python's own formatting is correctly rounded, so it is exact unless x lies exactly halfway
    # between two results, where it rounds to even and the rule is away from zero. x = p/2^k
    # (p odd) is such a tie exactly when 2^k = 2·2^decimals. (5× faster: a graph has thousands)
    if x.as_integer_ratio()[1] != 2 << decimals:
        return f"{x:.{decimals}f}"
    q = Decimal(x).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
    return f"{q:f}"


def _exponent(x: float, digits: int) -> str:
    d = Decimal(x)
    e = d.copy_abs().adjusted()
    mantissa = d.scaleb(-e).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    if mantissa.copy_abs() >= 10:  # 9.9996 rounds up to 10.000: one more power of ten
        e += 1
        mantissa = d.scaleb(-e).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    return f"{mantissa:f}e{e}"


def format_number(x: float, decimals: int = DEFAULT_DECIMALS, width: int | None = None) -> str:
    """``x`` as a person reads it on the page (see the module's rules)."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "∞" if x > 0 else MINUS + "∞"
    text = _fixed(x, decimals) if abs(x) < LARGE else ""
    exponent = not text or (x != 0 and not any(ch in "123456789" for ch in text))
    digits = max(decimals - 1, 1)
    if exponent:  # too large, or no digit would show
        text = _exponent(x, digits)
    if width is not None and len(text) > width and not exponent:
        for fewer in range(decimals - 1, min(decimals, 2) - 1, -1):
            text = _fixed(x, fewer)
            if len(text) <= width:
                break
        digits = 3
    while width is not None and len(text) > width and digits >= 0:
        text = _exponent(x, digits)
        digits -= 1
    if text.startswith("-") and not any(ch in "123456789" for ch in text):
        text = text[1:]  # no "-0.0000"
    return text.replace("-", MINUS)


def render(line: Line, trace: Trace, decimals: int = DEFAULT_DECIMALS) -> str:
    """A line of an explanation as text: each slot's number written as its kind says (the
    structure's ``slots``): plain, a whole number (relu's 1 or 0), or a factor, bracketed when
    negative or written with an exponent (``(−2.0000)²``, ``(1.000e−6)²``, never ``1.000e−6²``)."""
    kinds, values = trace.structure.slots, trace.numbers.slots
    out = []
    for p in line:
        if isinstance(p, str):
            out.append(p)
            continue
        if isinstance(p, Relation):
            out.append(relation_text(p, kinds, values, decimals))
            continue
        kind, x = kinds[p], values[p]
        if kind == "w":
            out.append(str(int(x)))
        elif kind == "f":
            text = format_number(x, decimals)
            out.append(f"({text})" if text.startswith(MINUS) or "e" in text else text)
        else:
            out.append(format_number(x, decimals))
    return "".join(out)


_COMBINE = {"add": operator.add, "sub": operator.sub, "mul": operator.mul,
            "div": operator.truediv}  # fmt: skip


def relation_text(r: Relation, kinds: str, values: Sequence[float], decimals: int) -> str:
    """``r.exact`` when the operands as shown, combined left to right, round to the result as
    shown; else ``r.inexact`` (static/parts.js relationText: the golden table's relations)."""
    shown = [_shown(values[s], kinds[s], decimals) for s in r.of]  # type: ignore[index]
    combine = _COMBINE[r.op]
    total = shown[0]
    try:
        for x in shown[1:]:
            total = combine(total, x)
    except ZeroDivisionError:
        return r.inexact
    result = format_number(values[r.to], decimals)  # type: ignore[index]
    exact = math.isfinite(total) and format_number(total, decimals) == result
    return r.exact if exact else r.inexact


def _shown(x: float, kind: str, decimals: int) -> float:
    """The number a reader of the line sees: as written, read back."""
    if kind == "w":
        return float(int(x))
    return float(format_number(x, decimals).replace(MINUS, "-"))


def row_cells(row: Row, trace: Trace, decimals: int = DEFAULT_DECIMALS) -> list[str]:
    """A row of an explanation as the texts of its columns: a rule's value (``= 0.5000``)
    continues the rule, in its column."""
    cells: list[str] = []
    for cell in row:
        text = render(cell.parts, trace, decimals)
        if cell.role == "value" and cells:
            cells[-1] += " " + text
        else:
            cells.append(text)
    return cells


def ascii_digits(text: str | bytes) -> bool:
    """Whether ``text`` is digits 0–9 only: ``str.isdigit`` alone also takes ``²`` and ``٣``,
    which ``int`` then refuses (``?hidden=²`` was a 500)."""
    return text.isascii() and text.isdigit()
