"""gradcheck: central differences beside autograd, and a deliberately wrong derivative caught."""

from __future__ import annotations

import math

import pytest

from engine import Value
from engine.gradcheck import check_graph, gradcheck, numerical_gradient
from engine.ops import Op
from engine.value import apply


def _wrong_tanh(a: float) -> tuple[float, tuple[float, ...]]:
    t = math.tanh(a)
    return t, (1.0 - t,)  # should be 1 − t²


WRONG_TANH = Op(
    "tanh", "tanh", _wrong_tanh, ("∂tanh(x)/∂x = 1 − tanh(x)",), ("1 − {out}",), "tanh({a})", (1,)
)


def test_gradcheck_flags_a_wrong_local_derivative() -> None:
    x, y = Value(0.7, label="x"), Value(-0.4, label="y")
    f = apply(WRONG_TANH, (x * y + x,))
    rows = check_graph(f, [x, y])
    assert [row.label for row in rows] == ["x", "y"]
    assert not any(row.ok for row in rows)
    for row in rows:
        assert row.abs_error is not None and row.abs_error > 1e-3


def test_gradcheck_passes_a_correct_graph_with_small_errors() -> None:
    rows = gradcheck(lambda a, b: (a * b + a.sin()) / (b * b + 1.0), [0.7, -0.4])
    assert [row.label for row in rows] == ["x0", "x1"]
    assert all(row.ok for row in rows)
    assert all(row.rel_error is not None and row.rel_error < 1e-8 for row in rows)


def test_a_nudge_out_of_the_domain_is_reported_not_raised() -> None:
    rows = gradcheck(lambda a: a.log(), [1e-9])  # x − h < 0: log is undefined there
    (row,) = rows
    assert row.autograd == pytest.approx(1e9)
    assert row.numeric is None and not row.ok


def test_numerical_gradient_leaves_the_graph_as_it_was() -> None:
    x = Value(1.5)
    f = x * x + x.exp()
    before = f.data
    assert math.isclose(numerical_gradient(f, x), 2 * 1.5 + math.exp(1.5), rel_tol=1e-8)
    assert (x.data, f.data) == (1.5, before)
