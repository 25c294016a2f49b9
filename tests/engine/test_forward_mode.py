"""Forward mode: tangents through a built graph give reverse mode's derivatives."""

from __future__ import annotations

import pytest
from engine_oracles import build, close, engine_value_and_grads, evaluate, inputs, trees
from hypothesis import given, settings

from engine import GradstepError, Value
from engine.forward_mode import derivative, tangents
from engine.value import sqrt


@settings(max_examples=80, deadline=None)
@given(trees(3), inputs)
def test_forward_mode_equals_reverse_mode_on_random_graphs(tree: tuple, xs: list[float]) -> None:
    fixed = build(tree, xs)
    _, grads, leaves = engine_value_and_grads(fixed, xs)
    root = evaluate(fixed, leaves)
    for leaf, grad in zip(leaves, grads, strict=True):
        assert close(derivative(root, leaf), grad, rel=1e-12, floor=1e-12)


def test_tangents_along_a_direction_are_the_directional_derivative() -> None:
    a, b = Value(2.0), Value(-1.5)
    f = a * b + a.sin()
    f.backward()
    dot = tangents(f, {a: 0.6, b: 0.8})
    assert dot[f] == pytest.approx(0.6 * a.grad + 0.8 * b.grad, rel=1e-15)


def test_an_undefined_tangent_is_an_error() -> None:
    x = Value(0.0)
    with pytest.raises(GradstepError, match=r"tangent of sqrt .* 0"):
        derivative(sqrt(x), x)
