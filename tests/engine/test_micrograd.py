"""micrograd's README program and its own two engine tests (sanity check, more ops), run on
engine.Value with PyTorch float64 as the oracle."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine import Value


def sanity_check(x: Any) -> Any:
    z = 2 * x + 2 + x
    q = z.relu() + z * x
    h = (z * z).relu()
    return h + q + q * x


def more_ops(a: Any, b: Any) -> Any:
    c = a + b
    d = a * b + b**3
    c = c + c + 1
    c = c + 1 + c + (-a)
    d = d + d * 2 + (b + a).relu()
    d = d + 3 * d + (b - a).relu()
    e = c - d
    f = e**2
    g = f / 2.0
    return g + 10.0 / f


def _ours(f: Callable[..., Any], xs: list[float]) -> tuple[float, list[float]]:
    leaves = [Value(x) for x in xs]
    out = f(*leaves)
    out.backward()
    return out.data, [leaf.grad for leaf in leaves]


def _torch(f: Callable[..., Any], xs: list[float]) -> tuple[float, list[float]]:
    torch = pytest.importorskip("torch")
    leaves = [torch.tensor(x, dtype=torch.float64, requires_grad=True) for x in xs]
    out = f(*leaves)
    out.backward()
    return out.item(), [leaf.grad.item() for leaf in leaves]


@pytest.mark.parametrize(("f", "xs"), [(sanity_check, [-4.0]), (more_ops, [-4.0, 2.0])])
def test_micrograd_engine_tests_against_pytorch(f: Callable[..., Any], xs: list[float]) -> None:
    value, grads = _ours(f, xs)
    want, want_grads = _torch(f, xs)
    assert value == pytest.approx(want, rel=1e-12, abs=1e-12)
    assert grads == pytest.approx(want_grads, rel=1e-12, abs=1e-12)


def test_the_micrograd_readme_numbers() -> None:
    g, (a_grad, b_grad) = _ours(more_ops, [-4.0, 2.0])
    assert f"{g:.4f}" == "24.7041"
    assert f"{a_grad:.4f}" == "138.8338"
    assert f"{b_grad:.4f}" == "645.5773"
