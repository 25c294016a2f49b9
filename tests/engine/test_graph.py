"""Topological order and the backward pass: depth, accumulation, zero_grad, random graphs
against PyTorch and central differences, undefined gradients raised at backward."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest
from engine_oracles import (
    build,
    central_difference,
    close,
    engine_value_and_grads,
    evaluate,
    evaluate_torch,
    inputs,
    rounding_error,
    step,
    torch_value_and_grads,
    trees,
)
from hypothesis import given, settings

from engine import GradstepError, Value, topological_order
from engine.value import sqrt


@pytest.fixture
def low_recursion_limit() -> Iterator[None]:
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(200)
    yield
    sys.setrecursionlimit(old)


def test_a_chain_500_times_the_recursion_limit_runs_backward(low_recursion_limit: None) -> None:
    """No recursion at any depth: 100,000 ops under a limit of 200 (a million took 20 s of
    CPU and showed nothing more)."""
    x = Value(1.0, label="x")
    y = x
    for _ in range(100_000):
        y = y + 1.0
    y.backward()
    assert y.data == 100_001.0
    assert x.grad == 1.0


def _recursive_order(root: Value) -> list[Value]:
    """The textbook recursive topological sort (micrograd's), as the reference order."""
    order: list[Value] = []
    seen: set[Value] = set()

    def visit(v: Value) -> None:
        if v not in seen:
            seen.add(v)
            for p in v.parents:
                visit(p)
            order.append(v)

    visit(root)
    return order


@settings(max_examples=60, deadline=None)
@given(trees(3), inputs)
def test_order_is_creation_order_and_topological(tree: tuple, xs: list[float]) -> None:
    fixed = build(tree, xs)
    leaves = [Value(x) for x in xs]
    root = evaluate(fixed, leaves) + leaves[0] * leaves[0]  # shared operands, a repeated one
    order = topological_order(root)
    assert set(order) == set(_recursive_order(root))  # every value root depends on, once
    assert [v.serial for v in order] == sorted(v.serial for v in order)  # as created
    place = {node: i for i, node in enumerate(order)}
    assert all(place[p] < place[node] for node in order for p in node.parents)


def test_a_plus_a_gives_grad_2() -> None:
    a = Value(3.0)
    b = a + a
    b.backward()
    assert len(b.parents) == 2
    assert a.grad == 2.0


def test_leaves_accumulate_across_backward_calls_but_intermediates_hold_one_pass() -> None:
    a, b = Value(2.0), Value(-3.0)
    c = a * b
    d = c + a
    d.backward()
    d.backward()
    assert (a.grad, b.grad) == (2 * (b.data + 1), 2 * a.data)  # PyTorch: leaves accumulate
    assert (c.grad, d.grad) == (1.0, 1.0)  # recomputed each pass


def test_zero_grad_resets_the_whole_graph() -> None:
    a, b = Value(2.0), Value(-3.0)
    d = (a * b).tanh() + a
    d.backward()
    d.zero_grad()
    assert all(node.grad == 0.0 for node in topological_order(d))


def test_sqrt_at_zero_is_fine_forward_and_raises_at_backward() -> None:
    x = Value(0.0, label="x")
    y = sqrt(x)
    assert y.data == 0.0
    with pytest.raises(GradstepError, match=r"∂√a/∂a .*a = 0") as error:
        y.backward()
    assert error.value.kind == "domain"


def test_an_undefined_derivative_times_a_zero_upstream_is_still_undefined() -> None:
    x = Value(0.0)
    y = sqrt(x) * 0.0 + x  # the chain rule meets 0 · ∞ here (PyTorch gives NaN): refuse it
    with pytest.raises(GradstepError, match="∂√a/∂a"):
        y.backward()


def test_a_gradient_overflow_is_named() -> None:
    x = Value(1e-100, label="x")
    w = (1.0 / x) * 1e200  # forward 1e300 is finite; ∂w/∂x = −1e200 · 1e200 is not
    with pytest.raises(GradstepError, match=r"overflows at div .*b = 1e-100") as error:
        w.backward()
    assert error.value.kind == "overflow"


def test_dividing_by_a_tiny_number_has_an_infinite_local_not_a_crash() -> None:
    x = Value(1e-200)
    y = 1.0 / x  # ∂y/∂x = −1/x² = −1e400: b·b underflows to 0, which used to raise
    assert y.data == 1e200
    with pytest.raises(GradstepError, match="∂\\(a/b\\)/∂b"):
        y.backward()


@settings(max_examples=80, deadline=None)
@given(trees(3), inputs)
def test_random_graphs_match_pytorch_float64(tree: tuple, xs: list[float]) -> None:
    pytest.importorskip("torch")
    fixed = build(tree, xs)
    value, grads, _ = engine_value_and_grads(fixed, xs)
    expected, expected_grads = torch_value_and_grads(lambda t: evaluate_torch(fixed, t), xs)
    assert close(value, expected, rel=1e-9, floor=1e-12)
    for grad, want in zip(grads, expected_grads, strict=True):
        assert close(grad, want, rel=1e-9, floor=1e-9), (fixed, xs, grads, expected_grads)


@settings(max_examples=80, deadline=None)
@given(trees(3), inputs)
def test_random_graphs_match_central_differences(tree: tuple, xs: list[float]) -> None:
    fixed = build(tree, xs)
    value, grads, _ = engine_value_and_grads(fixed, xs)
    for i, grad in enumerate(grads):
        if abs(grad) * step(xs[i]) > 1.0 + abs(value):
            # the stencil would move the output by more than its own size: sin of exp(23) turns
            # ~700 times within it, and differences say nothing about the slope
            continue
        try:
            numeric = central_difference(lambda p: evaluate(fixed, p).data, xs, i)
        except GradstepError:
            continue  # a nudge left the domain: nothing to compare
        floor = 1e-5 + rounding_error(value, step(xs[i]))
        assert close(grad, numeric, rel=1e-4, floor=floor), (fixed, xs, i, grad, numeric)
