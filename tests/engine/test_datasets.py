"""Datasets: seeded and reproducible, the right shapes and geometry, balanced classes."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable

import pytest

from engine import GradstepError, datasets

MAKERS: dict[str, Callable[..., datasets.Dataset]] = {
    "xor": lambda seed: datasets.xor(100, noise=0.1, seed=seed),
    "moons": lambda seed: datasets.moons(101, noise=0.1, seed=seed),
    "circles": lambda seed: datasets.circles(101, noise=0.05, seed=seed),
    "spiral": lambda seed: datasets.spiral(151, classes=3, seed=seed),
}
SIZES = {"xor": 100, "moons": 101, "circles": 101, "spiral": 151}


@pytest.mark.parametrize("name", MAKERS)
def test_seeded_reproducible_and_the_global_generator_untouched(name: str) -> None:
    state = random.getstate()
    a, b, c = MAKERS[name](3), MAKERS[name](3), MAKERS[name](4)
    assert a == b
    assert a[0] != c[0]
    assert random.getstate() == state


@pytest.mark.parametrize("name", MAKERS)
def test_shapes_and_balanced_classes(name: str) -> None:
    X, y = MAKERS[name](0)
    assert len(X) == len(y) == SIZES[name]
    assert all(len(x) == 2 and all(math.isfinite(v) for v in x) for x in X)
    counts = Counter(y)
    assert sorted(counts) == list(range(len(counts)))
    assert max(counts.values()) - min(counts.values()) <= 1


def test_xor_default_is_the_truth_table() -> None:
    assert datasets.xor() == ([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]], [0, 1, 1, 0])


def test_moons_without_noise_lie_on_two_interleaving_half_circles() -> None:
    X, y = datasets.moons(200, noise=0.0)
    for (x0, x1), label in zip(X, y, strict=True):
        if label == 0:  # upper half circle around (0, 0)
            assert math.isclose(math.hypot(x0, x1), 1.0) and x1 >= -1e-12
        else:  # lower half circle around (1, 0.5)
            assert math.isclose(math.hypot(x0 - 1.0, x1 - 0.5), 1.0) and x1 <= 0.5 + 1e-12
    assert min(x for x, _ in X) == pytest.approx(-1.0) and max(x for x, _ in X) == pytest.approx(
        2.0
    )


def test_circles_without_noise_have_the_two_radii() -> None:
    X, y = datasets.circles(60, noise=0.0, factor=0.4)
    radii = {
        label: {round(math.hypot(*x), 12) for x, lab in zip(X, y, strict=True) if lab == label}
        for label in (0, 1)
    }
    assert radii == {0: {1.0}, 1: {0.4}}


def test_spiral_has_one_arm_per_class_from_the_origin_outwards() -> None:
    X, y = datasets.spiral(40, classes=4, noise=0.0)
    assert sorted(Counter(y).values()) == [10, 10, 10, 10]
    assert max(math.hypot(*x) for x in X) == pytest.approx(1.0)
    assert sum(1 for x in X if math.hypot(*x) == 0.0) == 4  # each arm starts at the centre


def test_signs_turns_0_1_labels_into_minus_one_plus_one() -> None:
    assert datasets.signs([0, 1, 1, 0]) == [-1, 1, 1, -1]


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: datasets.moons(1), GradstepError, "n_samples must be at least 2, not 1"),
        (lambda: datasets.moons(10, noise=-0.1), GradstepError, "noise must be a finite"),
        (lambda: datasets.moons(10, noise=math.nan), GradstepError, "noise must be a finite"),
        (lambda: datasets.moons(10.0), TypeError, "n_samples must be an int, not float"),
        (lambda: datasets.circles(10, factor=1.5), GradstepError, "factor must be between"),
        (lambda: datasets.spiral(10, classes=1), GradstepError, "classes >= 2"),
        (lambda: datasets.xor(3), GradstepError, "at least 4"),
    ],
)
def test_bad_arguments_are_refused(call: object, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        call()  # type: ignore[operator]
