"""A training step without building its graph: the numbers the engine would compute, replayed.

The model's graph is recorded once and replayed with numpy on the whole batch
(``engine.lab.tape.Tape``). The loss's graph, mostly chains of sums, is recorded once and
replayed on floats (``FloatTape``) when every step takes the whole dataset and the loss's graph
depends on the labels alone. Otherwise the engine builds the loss's graph at every step from
the replayed scores, which is cheap next to the model's: a mini-batch's labels change from step
to step, and the other losses branch on the scores themselves (binary cross-entropy on each
one's sign; softmax subtracts the largest). A number too large for a float, or any error, sends
the step back to the engine, which raises the error that names it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from engine.errors import GradstepError
from engine.lab.boundary import Bounds, Grid
from engine.lab.tape import VECTOR_OPS, FloatTape, Tape, record
from engine.lab.train import Setup, batch_loss
from engine.value import Value

LABELS_ONLY = ("hinge", "mse")  # losses whose graph for a batch depends on its labels alone


class Replay:
    """The replayed steps of one training run (its model and data)."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.params = setup.model.parameters()
        self.points = np.array(setup.points, dtype=float)
        self.tape = record(setup.model)
        self.loss_tape: FloatTape | None = None  # the loss of a full batch, when it can be replayed

    def outputs(self, points: Any) -> list[Any] | None:
        """The model's outputs for ``points`` as the engine's values (a Value per point, or a
        list of class scores); None if a number is too large for a float."""
        try:
            scores = self.tape.forward(points).outputs(self.tape).tolist()
        except ArithmeticError:
            return None
        return per_point([[Value(x) for x in column] for column in scores])

    def grid(self, loss: str, bounds: Bounds, n: int) -> Grid:
        """The model's decision boundary now (``decision_grid``)."""
        return decision_grid(self.tape, loss, bounds, n)

    def step(self, chosen: list[int]) -> tuple[float, list[Any]] | None:
        """The loss (data + L2) of the points ``chosen``, with its gradient in every
        parameter's grad, and the model's outputs; None if the engine must take this step."""
        try:
            run = self.tape.forward(self.points[chosen])
            scores = run.outputs(self.tape)
            columns = scores.tolist()  # once: the loss and the answer both read it
            loss, output_grads = self._loss(chosen, scores, columns)
            self.tape.backward(run, output_grads)
        except (ArithmeticError, GradstepError):
            return None
        return loss, per_point(columns)

    def _loss(
        self, chosen: list[int], scores: Any, columns: list[list[float]]
    ) -> tuple[float, Any]:
        """The loss and its gradient in each score (``columns``: the scores as lists), with the
        parameters' grads set to their part of it (L2), as after ``model.zero_grad();
        loss.backward()``."""
        config = self.setup.config
        labels = [self.setup.labels[i] for i in chosen]
        if config.loss not in LABELS_ONLY or len(chosen) < len(self.points):
            leaves = [[Value(x) for x in column] for column in columns]
            loss = batch_loss(config, per_point(leaves), labels, self.params)
            self.setup.model.zero_grad()
            loss.backward()
            return loss.data, np.array([[v.grad for v in column] for column in leaves])
        if self.loss_tape is None:  # every step takes the whole dataset, in the same order
            scores_in = [Value(x) for x in columns[0]]
            loss = batch_loss(config, scores_in, labels, self.params)
            self.loss_tape = FloatTape(loss, [*scores_in, *self.params])
        value, grads = self.loss_tape.run([*columns[0], *(p.data for p in self.params)])
        for p, g in zip(self.params, grads[len(chosen) :], strict=True):
            p.grad = g
        return value, np.array([grads[: len(chosen)]])


def classify(scores: Any, loss: str) -> tuple[Any, Any]:
    """(class, confidence) of each point from its scores: ``scores[k]`` holds output k's score
    for every point. Confidence is |2σ(s) − 1| for binary cross-entropy, min(|s|, 1) for the
    other binary losses, and for softmax how far the top probability is above an even split
    (0) towards 1."""
    if len(scores) == 1:
        s = scores[0]
        if loss == "bce":
            return (s > 0.0).astype(int), np.abs(2.0 * VECTOR_OPS["sigmoid"](s)[0] - 1.0)
        return (s > 0.0).astype(int), np.minimum(np.abs(s), 1.0)
    exps = np.exp(scores - scores.max(axis=0))
    k = len(scores)
    return np.argmax(exps == 1.0, axis=0), (1.0 / exps.sum(axis=0) - 1.0 / k) / (1.0 - 1.0 / k)


def decision_grid(tape: Tape, loss: str, bounds: Bounds, n: int) -> Grid:
    """The class and confidence at the centre of every cell of an n×n grid: the model's graph
    replayed on all the cells at once."""
    dx = (bounds.x_max - bounds.x_min) / n
    dy = (bounds.y_max - bounds.y_min) / n
    xs = bounds.x_min + (np.arange(n) + 0.5) * dx
    ys = bounds.y_max - (np.arange(n) + 0.5) * dy
    cells = np.column_stack([np.tile(xs, n), np.repeat(ys, n)])  # row after row, as an image
    with np.errstate(over="ignore", invalid="ignore"):
        scores = tape.forward(cells, on_overflow="ignore").outputs(tape)
        classes, sure = classify(scores, loss)
    return Grid(n, bounds, classes.tolist(), np.round(sure, 3).tolist())


def per_point(columns: Sequence[list[Any]]) -> list[Any]:
    """Outputs by output (a list per output) as the loss takes them: a score per point, or a
    list of class scores per point."""
    if len(columns) == 1:
        return columns[0]
    return [list(scores) for scores in zip(*columns, strict=True)]
