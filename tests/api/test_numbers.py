"""The one number formatter against its golden table (the browser's mirror is checked against
the same table in tests/browser/test_formatter.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.numbers import format_number, render

GOLDEN = json.loads((Path(__file__).parents[1] / "format_golden.json").read_text("utf-8"))


@pytest.mark.parametrize(("x", "decimals", "width", "text"), GOLDEN["cases"])
def test_golden_table(x: float, decimals: int, width: int | None, text: str) -> None:
    assert format_number(x, decimals, width) == text


def test_the_drifts_of_issue_12_are_gone() -> None:
    """123456.789 and 1.234e-5 were written one way in the stepper and another in exports."""
    assert format_number(123456.789, 4) == "123456.7890"
    assert format_number(1.234e-5, 4) == "1.234e−5"  # not 0.0000: it is not zero


def test_parts_render_factors_bracketed_when_negative() -> None:
    assert render(("= ", (-3.0,), " × ", (0.5,), " = ", -1.5)) == "= (−3.0000) × 0.5000 = −1.5000"
    assert render(("x = ", 2.0), decimals=1) == "x = 2.0"
