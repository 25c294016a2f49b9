"""Small seeded 2-D datasets in pure Python, each returning (X, y).

X is a list of [x0, x1] points and y a list of class indices 0..k−1 (use ``signs`` for the
−1/+1 labels of a hinge loss). The same seed always gives the same data; the global ``random``
state is never touched. moons, circles and spiral come shuffled, so any first n points are a
fair sample.
"""

from __future__ import annotations

import math
import random

from engine.errors import GradstepError

Points = list[list[float]]
Dataset = tuple[Points, list[int]]

XOR_CORNERS = ((0.0, 0.0, 0), (0.0, 1.0, 1), (1.0, 0.0, 1), (1.0, 1.0, 0))


def xor(n_samples: int = 4, noise: float = 0.0, seed: int = 0) -> Dataset:
    """The four corners of the unit square, labelled x0 XOR x1, repeated to n_samples.

    With the default arguments this is exactly the truth table, in its usual order.
    """
    _check(n_samples, noise, minimum=4)
    rng = random.Random(seed)
    X, y = [], []
    for i in range(n_samples):
        a, b, label = XOR_CORNERS[i % 4]
        X.append([a + rng.gauss(0.0, noise), b + rng.gauss(0.0, noise)])  # gauss(0, 0) is 0
        y.append(label)
    return X, y


def moons(n_samples: int = 100, noise: float = 0.1, seed: int = 0) -> Dataset:
    """Two interleaving half circles, as scikit-learn's make_moons draws them.

    Class 0 is the upper half circle of radius 1 around (0, 0); class 1 the lower one around
    (1, 0.5); each point then gets Gaussian noise of standard deviation ``noise``.
    """
    _check(n_samples, noise, minimum=2)
    n_outer = n_samples // 2
    n_inner = n_samples - n_outer
    points = [
        (math.cos(t), math.sin(t), 0) for t in _linspace(0.0, math.pi, n_outer, endpoint=True)
    ] + [
        (1.0 - math.cos(t), 0.5 - math.sin(t), 1)
        for t in _linspace(0.0, math.pi, n_inner, endpoint=True)
    ]
    return _noisy_shuffled(points, noise, random.Random(seed))


def circles(
    n_samples: int = 100, noise: float = 0.05, factor: float = 0.5, seed: int = 0
) -> Dataset:
    """A circle of radius 1 (class 0) around a circle of radius ``factor`` (class 1)."""
    _check(n_samples, noise, minimum=2)
    if not 0.0 < factor < 1.0:
        raise GradstepError(f"factor must be between 0 and 1 (exclusive), not {factor!r}")
    n_outer = n_samples // 2
    n_inner = n_samples - n_outer
    points = [
        (math.cos(t), math.sin(t), 0) for t in _linspace(0.0, 2 * math.pi, n_outer, endpoint=False)
    ] + [
        (factor * math.cos(t), factor * math.sin(t), 1)
        for t in _linspace(0.0, 2 * math.pi, n_inner, endpoint=False)
    ]
    return _noisy_shuffled(points, noise, random.Random(seed))


def spiral(n_samples: int = 150, classes: int = 3, noise: float = 0.2, seed: int = 0) -> Dataset:
    """``classes`` arms of a spiral out from the origin (CS231n's), one class per arm.

    Each arm sweeps 4 radians while its radius grows from 0 to 1; ``noise`` jitters the angle.
    Classes differ in size by at most one point.
    """
    _check(n_samples, noise, minimum=classes)
    if isinstance(classes, bool) or not isinstance(classes, int) or classes < 2:
        raise GradstepError(f"a spiral needs a whole number of classes >= 2, not {classes!r}")
    rng = random.Random(seed)
    points = []
    for k in range(classes):
        n = n_samples // classes + (k < n_samples % classes)
        for r, t in zip(
            _linspace(0.0, 1.0, n, endpoint=True),
            _linspace(4.0 * k, 4.0 * (k + 1), n, endpoint=True),
            strict=True,
        ):
            t += rng.gauss(0.0, noise) if noise else 0.0
            points.append((r * math.sin(t), r * math.cos(t), k))
    return _noisy_shuffled(points, 0.0, rng)


def signs(y: list[int]) -> list[int]:
    """0/1 labels as −1/+1, the labels a max-margin (hinge) loss takes."""
    return [2 * label - 1 for label in y]


def _linspace(start: float, stop: float, n: int, *, endpoint: bool) -> list[float]:
    if n == 1:
        return [start]
    step = (stop - start) / (n - 1 if endpoint else n)
    return [start + i * step for i in range(n)]


def _noisy_shuffled(
    points: list[tuple[float, float, int]], noise: float, rng: random.Random
) -> Dataset:
    rng.shuffle(points)
    X = [[x0 + rng.gauss(0.0, noise), x1 + rng.gauss(0.0, noise)] for x0, x1, _ in points]
    return X, [label for _, _, label in points]


def _check(n_samples: int, noise: float, *, minimum: int) -> None:
    if isinstance(n_samples, bool) or not isinstance(n_samples, int):
        raise TypeError(f"n_samples must be an int, not {type(n_samples).__name__}")
    if n_samples < minimum:
        raise GradstepError(f"n_samples must be at least {minimum}, not {n_samples}")
    if isinstance(noise, bool) or not isinstance(noise, int | float):
        raise TypeError(f"noise must be a number, not {type(noise).__name__}")
    if not math.isfinite(noise) or noise < 0:
        raise GradstepError(f"noise must be a finite number >= 0, not {noise}")
