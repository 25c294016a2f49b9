"""Value: operators with numbers on either side, domain errors that name the op and operands,
refused types and non-finite data."""

from __future__ import annotations

import gc
import math

import pytest

import engine
from engine import GradstepError, Value
from engine.nn import MLP

DOMAIN_ERRORS = [
    ("log(0)", lambda: engine.log(Value(0.0)), r"log\(a\) .* a = 0\b", "domain"),
    ("log(-1)", lambda: engine.log(Value(-1.0)), r"log\(a\) .* a = -1\b", "domain"),
    ("1/0", lambda: Value(1.0) / 0, r"division by zero: a / b with a = 1, b = 0", "domain"),
    ("sqrt(-1)", lambda: engine.sqrt(Value(-1.0)), r"sqrt\(a\) .* a = -1\b", "domain"),
    ("0 ** -1", lambda: Value(0.0) ** -1, r"^0 \*\* -1 is undefined", "domain"),
    ("(-8) ** 0.5", lambda: Value(-8.0) ** 0.5, r"^\(-8\) \*\* 0.5 is undefined", "domain"),
    ("exp(1000)", lambda: engine.exp(Value(1000.0)), r"^exp\(1000\) overflows", "overflow"),
    ("1e200 * 1e200", lambda: Value(1e200) * 1e200, r"^1e\+200 \* 1e\+200 overflows", "overflow"),
    ("10 ** 400", lambda: Value(10.0) ** 400, r"^10 \*\* 400 overflows", "overflow"),
    ("1e308 + 1e308", lambda: 1e308 + Value(1e308), r"^1e\+308 \+ 1e\+308 overflows", "overflow"),
]


@pytest.mark.parametrize(("case", "make", "message", "kind"), DOMAIN_ERRORS, ids=lambda v: v)
def test_undefined_operations_raise_naming_the_op_and_operands(
    case: str, make: object, message: str, kind: str
) -> None:
    with pytest.raises(GradstepError, match=message) as error:
        make()  # type: ignore[operator]
    assert isinstance(error.value, ValueError)
    assert error.value.kind == kind


@pytest.mark.parametrize("bad", [True, False, "2.0", None, [1.0], 1j])
def test_values_refuse_bools_and_other_types_naming_the_type(bad: object) -> None:
    with pytest.raises(TypeError, match=type(bad).__name__):
        Value(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=type(bad).__name__):
        Value(1.0) * bad  # type: ignore[operator]
    with pytest.raises(TypeError, match=type(bad).__name__):
        bad - Value(1.0)  # type: ignore[operator]


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_non_finite_data_is_refused(bad: float) -> None:
    with pytest.raises(GradstepError, match="finite"):
        Value(bad)
    with pytest.raises(GradstepError, match="finite"):
        Value(1.0) + bad
    with pytest.raises(GradstepError, match="finite"):
        MLP(2, [1])([bad, 0.0])


def test_an_int_too_large_for_a_float_is_an_overflow_error() -> None:
    with pytest.raises(GradstepError, match="too large") as error:
        Value(10**400)
    assert error.value.kind == "overflow"


def test_numbers_work_on_either_side_and_become_constants() -> None:
    x = Value(3.0, label="x")
    exprs = {
        "x + 2": (x + 2, 5.0),
        "2 + x": (2 + x, 5.0),
        "x - 2": (x - 2, 1.0),
        "2 - x": (2 - x, -1.0),
        "x * 2": (x * 2, 6.0),
        "2 * x": (2 * x, 6.0),
        "x / 2": (x / 2, 1.5),
        "6 / x": (6 / x, 2.0),
        "x ** 2": (x**2, 9.0),
        "2 ** x": (2**x, 8.0),
        "-x": (-x, -3.0),
    }
    for text, (v, expected) in exprs.items():
        assert v.data == expected, text
        assert all(p is x or p.constant for p in v.parents), text


def test_functions_are_methods_too() -> None:
    x = Value(0.3)
    for name in engine.ops.FUNCTIONS:
        assert getattr(x, name)().data == getattr(engine, name)(x).data


def test_a_value_exponent_gets_a_gradient() -> None:
    a, b = Value(2.0), Value(3.0)
    c = a**b
    c.backward()
    assert c.data == 8.0
    assert a.grad == pytest.approx(12.0)
    assert b.grad == pytest.approx(8.0 * math.log(2.0))


def test_a_negative_base_with_a_constant_whole_exponent_is_differentiable() -> None:
    x = Value(-2.0)
    y = x**3
    y.backward()
    assert (y.data, x.grad) == (-8.0, 12.0)


def test_relu_derivative_at_zero_is_zero_as_in_micrograd() -> None:
    x = Value(0.0)
    y = x.relu()
    y.backward()
    assert x.grad == 0.0


def test_parents_are_ordered_and_keep_duplicates() -> None:
    a, b = Value(1.0), Value(2.0)
    assert (a - b).parents == (a, b)
    assert (b - a).parents == (b, a)
    assert (a * a).parents == (a, a)
    assert (a * b).locals == (2.0, 1.0) and a.tanh().parents == (a,) and a.parents == ()


def test_each_value_is_one_object_for_the_garbage_collector() -> None:
    # Half of a training epoch's time was the cyclic collector tracking each value's operand
    # and derivative tuples: a value keeps its operands and derivatives in its own slots.
    x, w = Value(0.5), Value(-1.5)
    gc.collect()
    gc.disable()
    try:
        before = len(gc.get_objects())
        kept = [(x * w + x).tanh() for _ in range(1000)]
        made = len(gc.get_objects()) - before
    finally:
        gc.enable()
    assert made == 3 * len(kept) + 1  # three values per row, and the list that holds them


def test_a_function_of_a_plain_number_is_a_constant_with_no_gradient() -> None:
    x = Value(2.0)
    y = x * engine.sqrt(0.0) + x  # sqrt'(0) is undefined, but the 0 is a constant
    y.backward()
    assert x.grad == 1.0
