"""The decision boundary: the model's class and confidence over a grid around the data.

A 40×40 grid is 1,600 forward passes every few epochs; building a Value graph for each would
cost more than the training itself, so ``scores`` runs the same network on plain floats, with
each activation's forward function taken from the op table.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from engine import nn
from engine.ops import OPS

PADDING = 0.15  # share of the data's extent added on every side
MIN_PADDING = 0.25  # at least this much, so four XOR corners do not sit on the edge


@dataclass(frozen=True, slots=True)
class Bounds:
    x_min: float
    x_max: float
    y_min: float
    y_max: float


@dataclass(frozen=True, slots=True)
class Grid:
    """``classes[row * n + col]``: col runs along x from x_min, row along y down from y_max
    (image order), at the centres of the cells. ``confidence`` is 0 on the boundary, 1 far
    from it."""

    n: int
    bounds: Bounds
    classes: list[int]
    confidence: list[float]


def bounds_of(points: Sequence[Sequence[float]]) -> Bounds:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    pad_x = max((max(xs) - min(xs)) * PADDING, MIN_PADDING)
    pad_y = max((max(ys) - min(ys)) * PADDING, MIN_PADDING)
    return Bounds(min(xs) - pad_x, max(xs) + pad_x, min(ys) - pad_y, max(ys) + pad_y)


def scores(model: nn.MLP, x: Sequence[float]) -> list[float]:
    """model(x) on floats: the same sums in the same order as ``nn.Neuron``, no graph."""
    out = [float(v) for v in x]
    for layer in model.layers:
        weights = [([w.data for w in n.w], n.b.data, n.activation) for n in layer.neurons]
        out = [_neuron(w, b, act, out) for w, b, act in weights]
    return out


def classify(values: Sequence[float], loss: str) -> tuple[int, float]:
    """(class, confidence) from one point's scores."""
    if len(values) == 1:
        s = values[0]
        sure = abs(2.0 * OPS["sigmoid"].eval(s)[0] - 1.0) if loss == "bce" else min(abs(s), 1.0)
        return int(s > 0.0), sure
    top = max(values)
    exps = [math.exp(v - top) for v in values]
    best = exps.index(1.0)
    k = len(values)
    return best, (1.0 / sum(exps) - 1.0 / k) / (1.0 - 1.0 / k)


def decision_grid(model: nn.MLP, loss: str, bounds: Bounds, n: int) -> Grid:
    layers = [
        [([w.data for w in nr.w], nr.b.data, nr.activation) for nr in layer.neurons]
        for layer in model.layers
    ]
    dx = (bounds.x_max - bounds.x_min) / n
    dy = (bounds.y_max - bounds.y_min) / n
    classes: list[int] = []
    confidence: list[float] = []
    for row in range(n):
        y = bounds.y_max - (row + 0.5) * dy
        for col in range(n):
            out = [bounds.x_min + (col + 0.5) * dx, y]
            for neurons in layers:
                out = [_neuron(w, b, act, out) for w, b, act in neurons]
            label, sure = classify(out, loss)
            classes.append(label)
            confidence.append(round(sure, 3))
    return Grid(n, bounds, classes, confidence)


def _neuron(w: list[float], b: float, activation: str, x: list[float]) -> float:
    act = b
    for wi, xi in zip(w, x, strict=True):
        act += wi * xi
    return act if activation == "linear" else OPS[activation].eval(act)[0]
