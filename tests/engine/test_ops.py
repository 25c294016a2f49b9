"""Every op in the table: its value and every operand's local derivative, at ordinary points and
at the edges of its domain, against central differences and PyTorch float64."""

from __future__ import annotations

import pytest
from engine_oracles import (
    central_difference,
    close,
    rounding_error,
    step,
    torch_function,
    torch_value_and_grads,
)

from engine import Value
from engine.ops import OPS
from engine.value import apply

# op name -> operand tuples; "kink" marks points where the function is not differentiable
# (the engine's one-sided convention is then checked against PyTorch only).
CASES: dict[str, list[tuple[float, ...]]] = {
    "add": [(-3.5, 2.0), (0.0, 0.0), (1e-8, -1e8)],
    "sub": [(-3.5, 2.0), (0.0, 0.0), (1e8, 1e-8)],
    "mul": [(-3.5, 2.0), (0.0, 7.0), (1e150, 1e-150)],
    "div": [(1.5, -0.25), (0.0, 3.0), (-2.0, 1e-3), (1e-300, 1e10)],
    "pow": [(2.0, 3.0), (0.5, -1.5), (3.0, 0.5), (1.0, 100.0), (7.0, 0.0), (1e-3, 2.5)],
    "neg": [(-1.5,), (0.0,), (2.0,)],
    "exp": [(-30.0,), (0.0,), (1.5,), (700.0,)],
    "log": [(1e-12,), (1.0,), (5.0,), (1e300,)],
    "tanh": [(-20.0,), (-0.5,), (0.0,), (3.0,)],
    "relu": [(-1.0,), (2.0,), (1e-12,), (-1e-12,)],
    "sigmoid": [(-800.0,), (-2.0,), (0.0,), (3.0,), (40.0,)],
    "sin": [(-3.0,), (0.0,), (1.2,), (100.0,)],
    "cos": [(-3.0,), (0.0,), (1.2,), (100.0,)],
    "sqrt": [(1e-10,), (0.25,), (4.0,), (1e300,)],
}
KINKS: dict[str, list[tuple[float, ...]]] = {
    "relu": [(0.0,)],  # micrograd's and PyTorch's convention: relu'(0) = 0
    "pow": [(0.0, 2.0), (0.0, 1.0)],  # at a = 0 the b-derivative is the limit 0
}

EDGE_AT_ZERO = {"log", "sqrt", "relu"}  # domain edge or kink at 0

TABLE = [(name, xs) for name, cases in CASES.items() for xs in cases]


def test_the_table_covers_every_op() -> None:
    assert set(CASES) == set(OPS)


def _engine(name: str, xs: tuple[float, ...]) -> tuple[float, list[float]]:
    operands = [Value(x) for x in xs]
    out = apply(OPS[name], tuple(operands))
    out.backward()
    return out.data, [v.grad for v in operands]


@pytest.mark.parametrize(("name", "xs"), TABLE, ids=[f"{n}{xs}" for n, xs in TABLE])
def test_op_matches_central_differences(name: str, xs: tuple[float, ...]) -> None:
    value, grads = _engine(name, xs)
    assert value == OPS[name].eval(*xs)[0]
    for i, grad in enumerate(grads):
        h = step(xs[i])
        if name in EDGE_AT_ZERO and xs[i] != 0.0:
            h = min(h, abs(xs[i]) * 1e-4)  # stay on this side of the edge
        numeric = central_difference(lambda p: OPS[name].eval(*p)[0], xs, i, h)
        floor = 1e-6 + rounding_error(value, h)
        assert close(grad, numeric, rel=1e-5, floor=floor), (name, xs, i, grad, numeric)


@pytest.mark.parametrize(
    ("name", "xs"),
    TABLE + [(n, xs) for n, cases in KINKS.items() for xs in cases],
    ids=lambda v: str(v),
)
def test_op_matches_pytorch(name: str, xs: tuple[float, ...]) -> None:
    pytest.importorskip("torch")
    value, grads = _engine(name, xs)
    expected, expected_grads = torch_value_and_grads(lambda t: torch_function(name)(*t), xs)
    assert close(value, expected, rel=1e-12, floor=1e-300)
    for i, (grad, want) in enumerate(zip(grads, expected_grads, strict=True)):
        assert close(grad, want, rel=1e-12, floor=1e-300), (name, xs, i, grad, want)


def test_every_op_has_a_derivative_template_per_operand() -> None:
    for op in OPS.values():
        assert len(op.derivatives) == len(op.partial_costs) == op.arity
        rules = [op.rule(i) for i in range(op.arity)]
        assert all(rule.startswith("∂") and " = " in rule and "{" not in rule for rule in rules)
