"""SGD and its learning-rate schedules."""

from __future__ import annotations

import math

import pytest

from engine import GradstepError, Value, optim


def test_linear_decay_is_micrograds_demo_schedule() -> None:
    schedule = optim.linear_decay(100, 0.1)
    for k in (0, 1, 37, 99, 100):
        assert schedule(k) == pytest.approx(1.0 - 0.9 * k / 100, abs=1e-15)
    assert schedule(250) == pytest.approx(0.1)  # held at the end


def test_step_and_exponential_schedules() -> None:
    assert [optim.step_decay(10, 0.5)(k) for k in (0, 9, 10, 25)] == [1.0, 1.0, 0.5, 0.25]
    assert optim.exponential(0.9)(3) == pytest.approx(0.729)
    assert optim.constant()(1000) == 1.0


def test_sgd_steps_against_the_gradient_with_the_scheduled_rate() -> None:
    p, q = Value(1.0), Value(-2.0)
    p.grad, q.grad = 0.5, -1.0
    sgd = optim.SGD([p, q], lr=0.2, schedule=optim.linear_decay(10, 0.5))
    assert sgd.lr == pytest.approx(0.2)
    sgd.step()
    assert (p.data, q.data) == (pytest.approx(0.9), pytest.approx(-1.8))
    assert sgd.lr == pytest.approx(0.2 * 0.95)
    sgd.zero_grad()
    assert (p.grad, q.grad) == (0.0, 0.0)


def test_a_step_that_would_overflow_is_refused_and_changes_nothing() -> None:
    p, q = Value(1.0), Value(1e308)
    p.grad, q.grad = 1.0, -1e308
    sgd = optim.SGD([p, q], lr=10.0)
    with pytest.raises(GradstepError, match="parameter 1 overflowed at step 0") as error:
        sgd.step()
    assert error.value.kind == "overflow"
    assert (p.data, q.data, sgd.steps) == (1.0, 1e308, 0)


@pytest.mark.parametrize("lr", [0.0, -0.1, math.nan, math.inf, True])
def test_a_bad_learning_rate_is_refused(lr: float) -> None:
    with pytest.raises(GradstepError, match="learning rate"):
        optim.SGD([Value(1.0)], lr=lr)


def test_bad_schedule_arguments_are_refused() -> None:
    with pytest.raises(GradstepError, match="steps must be a whole number"):
        optim.linear_decay(0)
    with pytest.raises(GradstepError, match="every must be a whole number"):
        optim.step_decay(2.5)  # type: ignore[arg-type]
