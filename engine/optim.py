"""Stochastic gradient descent with a learning-rate schedule.

A schedule maps the step number k (0, 1, 2, ...) to a factor of the base learning rate, so
``SGD(params, lr=1.0, schedule=linear_decay(100, 0.1))`` steps with micrograd's demo rate
1.0 − 0.9·k/100.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from engine.errors import GradstepError
from engine.value import Value

Schedule = Callable[[int], float]


def constant() -> Schedule:
    """The base rate at every step."""
    return lambda k: 1.0


def linear_decay(steps: int, end_factor: float = 0.1) -> Schedule:
    """From 1 down to ``end_factor`` in a straight line over ``steps`` steps, then held there."""
    _positive_int("steps", steps)
    return lambda k: 1.0 - (1.0 - end_factor) * min(k, steps) / steps


def step_decay(every: int, gamma: float = 0.1) -> Schedule:
    """Multiplied by ``gamma`` after every ``every`` steps."""
    _positive_int("every", every)
    return lambda k: gamma ** (k // every)


def exponential(gamma: float) -> Schedule:
    """Multiplied by ``gamma`` at every step."""
    return lambda k: gamma**k


class SGD:
    """p.data −= lr_k · p.grad for every parameter; lr_k = lr · schedule(k) at step k."""

    def __init__(
        self, params: Sequence[Value], lr: float, schedule: Schedule | None = None
    ) -> None:
        if isinstance(lr, bool) or not isinstance(lr, int | float) or not math.isfinite(lr):
            raise GradstepError(f"the learning rate must be a finite number, not {lr!r}")
        if lr <= 0:
            raise GradstepError(f"the learning rate must be positive, not {lr}")
        self.params = list(params)
        self.base_lr = float(lr)
        self.schedule = schedule or constant()
        self.steps = 0  # k: how many updates have been made

    @property
    def lr(self) -> float:
        """The learning rate the next step() will use."""
        return self.base_lr * self.schedule(self.steps)

    def step(self) -> None:
        lr = self.lr
        updated = [p.data - lr * p.grad for p in self.params]
        bad = next((i for i, x in enumerate(updated) if not math.isfinite(x)), None)
        if bad is not None:  # refuse the whole step: the parameters stay usable
            raise GradstepError(
                f"parameter {bad} overflowed at step {self.steps} (learning rate {lr:.6g}): "
                "try a smaller learning rate",
                kind="overflow",
            )
        for p, x in zip(self.params, updated, strict=True):
            p.data = x
        self.steps += 1

    def zero_grad(self) -> None:
        for p in self.params:
            p.grad = 0.0


def _positive_int(what: str, n: int) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise GradstepError(f"{what} must be a whole number >= 1, not {n!r}")
