"""The one number formatter against its golden table (the browser's mirror is checked against
the same table in tests/browser/test_formatter.py)."""

from __future__ import annotations

import json
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.numbers import MAX_DECIMALS, format_number, relation_text, render
from engine.notation import Relation
from engine.trace import Trace

GOLDEN = json.loads((Path(__file__).parents[1] / "format_golden.json").read_text("utf-8"))


@pytest.mark.parametrize(("x", "decimals", "width", "text"), GOLDEN["cases"])
def test_golden_table(x: float, decimals: int, width: int | None, text: str) -> None:
    assert format_number(x, decimals, width) == text


def test_the_drifts_of_issue_12_are_gone() -> None:
    """123456.789 and 1.234e-5 were written one way in the stepper and another in exports."""
    assert format_number(123456.789, 4) == "123456.7890"
    assert format_number(1.234e-5, 4) == "1.234e−5"  # not 0.0000: it is not zero


def line(*parts: str | tuple[str, float]) -> tuple[tuple[int | str, ...], Trace]:
    """A line whose numbers are slots of a trace made for it: ("f", -3.0) is a factor."""
    kinds, values, out = "", [], []
    for p in parts:
        if isinstance(p, str):
            out.append(p)
        else:
            out.append(len(values))
            kinds += p[0]
            values.append(p[1])
    trace = SimpleNamespace(
        structure=SimpleNamespace(slots=kinds), numbers=SimpleNamespace(slots=values)
    )
    return tuple(out), trace  # type: ignore[return-value]


def test_parts_render_factors_bracketed_when_negative() -> None:
    parts = line("= ", ("f", -3.0), " × ", ("f", 0.5), " = ", ("n", -1.5))
    assert render(*parts) == "= (−3.0000) × 0.5000 = −1.5000"
    assert render(*line("x = ", ("n", 2.0)), decimals=1) == "x = 2.0"
    assert render(*line("= ", ("w", 0.0))) == "= 0"  # relu's local derivative: a whole number


def _half_up(x: float, decimals: int) -> str:
    """The rule itself, on x's exact value: the formatter's slow path for every number."""
    return f"{Decimal(x).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP):f}"


# any finite float below 1e9, and numbers of the form k / 2^j: these include every exact tie
# (0.125 at two decimals, 2.5 at none), where Python's own rounding (to even) is not the rule
_numbers = st.floats(-1e9, 1e9, allow_nan=False, allow_infinity=False, exclude_max=True)
_dyadic = st.builds(lambda k, j: k / 2**j, st.integers(-(10**7), 10**7), st.integers(0, 8))


@settings(max_examples=3000, deadline=None)
@given(st.one_of(_numbers, _dyadic), st.integers(0, MAX_DECIMALS))
def test_fixed_point_rounds_ties_away_from_zero_like_the_rule(x: float, decimals: int) -> None:
    text = format_number(x, decimals)
    if "e" not in text:
        expected = _half_up(x, decimals)
        if expected.startswith("-") and set(expected[1:]) <= set("0."):
            expected = expected[1:]  # no "−0.00"
        assert text == expected.replace("-", "−")


def test_a_factor_written_with_an_exponent_is_bracketed_like_a_negative_one() -> None:
    # "1.000e−6²" reads as 10^−36; tanh's rule at a tiny value squares its output
    assert render(*line("(1 − ", ("f", 1e-6), "²)")) == "(1 − (1.000e−6)²)"
    assert render(*line("= ", ("f", -2.0), "²")) == "= (−2.0000)²"
    assert render(*line("= ", ("f", 0.5), " × ", ("n", 1e-6))) == "= 0.5000 × 1.000e−6"  # factors


@pytest.mark.parametrize(("op", "operands", "kinds", "result", "decimals", "sign"),
                         GOLDEN["relations"])  # fmt: skip
def test_golden_relations(
    op: str, operands: list[float], kinds: str, result: float, decimals: int, sign: str
) -> None:
    relation = Relation(op, tuple(range(len(operands))), len(operands))  # type: ignore[arg-type]
    text = relation_text(relation, kinds + "n", [*operands, result], decimals)
    assert text == (" = " if sign == "exact" else " ≈ ")


def test_a_product_that_does_not_reproduce_says_so() -> None:
    """Issue 28's lines: a student multiplying the shown numbers gets −6.9412, not −6.9417."""
    parts, trace = line("= ", ("f", -14.0), " × ", ("f", 0.495838), ("n", -6.941732))
    mul = Relation("mul", (0, 1), 2)  # the slots of the two factors and of the product
    assert render((*parts[:4], mul, parts[4]), trace) == "= (−14.0000) × 0.4958 ≈ −6.9417"
