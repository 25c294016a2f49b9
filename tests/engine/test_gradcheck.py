"""gradcheck: central differences beside autograd, and a deliberately wrong derivative caught."""

from __future__ import annotations

import math
import sys

import pytest

from engine import Value, topological_order
from engine.gradcheck import check_graph, gradcheck, numerical_gradient
from engine.ops import Op
from engine.value import apply, reevaluate


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


def test_a_nudge_that_overflows_without_raising_is_reported_not_infinite() -> None:
    # x·2 is just under the largest float; x + h makes it inf, which float multiplication
    # returns silently (math.exp would raise): the row says "not checked", never an inf
    x = Value(sys.float_info.max / 2 * (1 - 1e-7), label="x")
    (row,) = check_graph(x * 2.0, [x])
    assert row.numeric is None and row.abs_error is None and not row.ok


def test_numerical_gradient_leaves_the_graph_as_it_was() -> None:
    x = Value(1.5)
    f = x * x + x.exp()
    before = f.data
    assert math.isclose(numerical_gradient(f, x), 2 * 1.5 + math.exp(1.5), rel_tol=1e-8)
    assert (x.data, f.data) == (1.5, before)


def _by_reevaluating(root: Value, leaf: Value, eps: float = 1e-6) -> float:
    """The central difference as gradcheck used to take it: every Value re-evaluated."""
    order = topological_order(root)
    x = leaf.data
    h = eps * max(1.0, abs(x))
    leaf.data = x + h
    reevaluate(order)
    up = root.data
    leaf.data = x - h
    reevaluate(order)
    down = root.data
    leaf.data = x
    reevaluate(order)
    return (up - down) / (2.0 * h)


def test_nudging_only_what_depends_on_a_leaf_gives_the_same_numbers() -> None:
    a, b, c = Value(0.3, label="a"), Value(-1.2, label="b"), Value(2.0, label="c")
    shared = (a * b).tanh()
    f = shared * c + (shared + b).exp() - c.log() * a
    for leaf in (a, b, c):
        assert numerical_gradient(f, leaf) == _by_reevaluating(f, leaf)


def test_a_leaf_changed_after_the_graph_was_built_is_checked_where_it_is_now() -> None:
    x, w = Value(2.0, label="x"), Value(-1.5, label="w")
    f = (x * w).tanh() + x.log()
    x.data = 3.0  # as a program's gradient step does before its last backward()
    expected = [_by_reevaluating(f, leaf) for leaf in (x, w)]
    x.data = 3.0
    f.data = -1.0  # stale again
    rows = check_graph(f, [x, w])
    assert [row.numeric for row in rows] == expected
    assert f.data == math.tanh(-4.5) + math.log(3.0)  # brought up to date, as before
