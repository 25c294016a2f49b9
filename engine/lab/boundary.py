"""The decision boundary: the model's class and confidence over a grid around the data (drawn
by ``engine.lab.replay.decision_grid``, which needs numpy: the web app imports this module)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

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
