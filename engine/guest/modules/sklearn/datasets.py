"""sklearn.datasets: the toy data sets of autograd tutorials (``make_moons`` above all), drawn
exactly as scikit-learn draws them: its code ported line by line onto gradstep's numpy stand-in,
whose RandomState is numpy's legacy Mersenne Twister. The same ``random_state`` (or the same
``np.random.seed`` before a call with none) gives the same points, bit for bit, so a learner's
numbers match what they would see outside gradstep.

Ported from scikit-learn 1.9 (BSD-3-Clause): sklearn/datasets/_samples_generator.py,
sklearn/utils/validation.py (check_random_state), sklearn/utils/_indexing.py (shuffle).
"""

from __future__ import annotations

import numbers
from typing import Any

from engine.guest.modules import numpy as _numpy

__name__ = "sklearn.datasets"  # so that reprs and errors name the module the program imported
np: Any = _numpy  # the numpy stand-in is as untyped as the code ported here
__all__ = ["make_blobs", "make_circles", "make_moons"]


def check_random_state(seed: Any) -> Any:
    """None: numpy's global RandomState (the one ``np.random.seed`` seeds); an int: a new
    RandomState(seed); a RandomState: itself."""
    if seed is None or seed is np.random:
        return _global_random_state()
    if isinstance(seed, numbers.Integral):
        return np.random.RandomState(seed)
    if isinstance(seed, np.random.RandomState):
        return seed
    raise ValueError(f"{seed!r} cannot be used to seed a numpy.random.RandomState instance")


def _global_random_state() -> Any:
    """numpy's global RandomState, ``numpy.random.mtrand._rand`` as scikit-learn reads it;
    the numpy stand-in keeps it as ``numpy.random._global``."""
    state = getattr(getattr(np.random, "mtrand", None), "_rand", None)
    return state if state is not None else np.random._global


def _shuffle(*arrays: Any, random_state: Any) -> tuple[Any, ...]:
    """sklearn.utils.shuffle: one permutation of the rows, applied to every array."""
    random_state = check_random_state(random_state)
    n_samples = arrays[0].shape[0]
    indices = np.arange(n_samples)
    random_state.shuffle(indices)
    indices = indices[:n_samples]
    return tuple(a[indices] for a in arrays)


def _split(n_samples: Any) -> tuple[int, int]:
    if isinstance(n_samples, numbers.Integral):
        n_samples_out = int(n_samples) // 2
        return n_samples_out, int(n_samples) - n_samples_out
    try:
        n_samples_out, n_samples_in = n_samples
    except (TypeError, ValueError) as e:
        raise ValueError("`n_samples` can be either an int or a two-element tuple.") from e
    return int(n_samples_out), int(n_samples_in)


def make_moons(
    n_samples: Any = 100,
    *,
    shuffle: bool = True,
    noise: float | None = None,
    random_state: Any = None,
) -> tuple[Any, Any]:
    """Two interleaving half circles: X of shape (n_samples, 2), y the 0/1 labels."""
    n_samples_out, n_samples_in = _split(n_samples)

    generator = check_random_state(random_state)

    outer_circ_x = np.cos(np.linspace(0, np.pi, n_samples_out))
    outer_circ_y = np.sin(np.linspace(0, np.pi, n_samples_out))
    inner_circ_x = 1 - np.cos(np.linspace(0, np.pi, n_samples_in))
    inner_circ_y = 1 - np.sin(np.linspace(0, np.pi, n_samples_in)) - 0.5

    X = np.vstack([np.append(outer_circ_x, inner_circ_x), np.append(outer_circ_y, inner_circ_y)]).T
    y = np.hstack([np.zeros(n_samples_out, dtype=np.intp), np.ones(n_samples_in, dtype=np.intp)])

    if shuffle:
        X, y = _shuffle(X, y, random_state=generator)

    if noise is not None:
        X += generator.normal(scale=noise, size=X.shape)

    return X, y


def make_circles(
    n_samples: Any = 100,
    *,
    shuffle: bool = True,
    noise: float | None = None,
    random_state: Any = None,
    factor: float = 0.8,
) -> tuple[Any, Any]:
    """A large circle holding a smaller one (``factor`` times its radius): X, y."""
    if not 0 <= factor < 1:
        raise ValueError("'factor' has to be between 0 and 1.")
    n_samples_out, n_samples_in = _split(n_samples)

    generator = check_random_state(random_state)
    # so as not to have the first point = last point, we set endpoint=False
    linspace_out = np.linspace(0, 2 * np.pi, n_samples_out, endpoint=False)
    linspace_in = np.linspace(0, 2 * np.pi, n_samples_in, endpoint=False)
    outer_circ_x = np.cos(linspace_out)
    outer_circ_y = np.sin(linspace_out)
    inner_circ_x = np.cos(linspace_in) * factor
    inner_circ_y = np.sin(linspace_in) * factor

    X = np.vstack([np.append(outer_circ_x, inner_circ_x), np.append(outer_circ_y, inner_circ_y)]).T
    y = np.hstack([np.zeros(n_samples_out, dtype=np.intp), np.ones(n_samples_in, dtype=np.intp)])
    if shuffle:
        X, y = _shuffle(X, y, random_state=generator)

    if noise is not None:
        X += generator.normal(scale=noise, size=X.shape)

    return X, y


def make_blobs(
    n_samples: Any = 100,
    n_features: int = 2,
    *,
    centers: Any = None,
    cluster_std: Any = 1.0,
    center_box: tuple[float, float] = (-10.0, 10.0),
    shuffle: bool = True,
    random_state: Any = None,
    return_centers: bool = False,
) -> tuple[Any, ...]:
    """Gaussian blobs around ``centers`` (3 random ones by default): X, y (and centers)."""
    generator = check_random_state(random_state)

    if isinstance(n_samples, numbers.Integral):
        # Set n_centers by looking at centers arg
        if centers is None:
            centers = 3

        if isinstance(centers, numbers.Integral):
            n_centers = int(centers)
            centers = generator.uniform(center_box[0], center_box[1], size=(n_centers, n_features))
        else:
            centers = np.array(_rows(centers), dtype=float)
            n_features = centers.shape[1]
            n_centers = centers.shape[0]
    else:
        # Set n_centers by looking at [n_samples] arg
        n_centers = len(n_samples)
        if centers is None:
            centers = generator.uniform(center_box[0], center_box[1], size=(n_centers, n_features))
        if len(centers) != n_centers:
            raise ValueError(
                "Length of `n_samples` not consistent with number of "
                f"centers. Got n_samples = {n_samples} and centers = {centers}"
            )
        centers = np.array(_rows(centers), dtype=float)
        n_features = centers.shape[1]

    # stds: if cluster_std is given as list, it must be consistent with the n_centers
    if hasattr(cluster_std, "__len__") and len(cluster_std) != n_centers:
        raise ValueError(
            "Length of `clusters_std` not consistent with number of centers. "
            f"Got centers = {centers} and cluster_std = {cluster_std}"
        )
    stds = [float(cluster_std)] * n_centers if _is_real(cluster_std) else _flat(cluster_std)

    if isinstance(n_samples, numbers.Integral):
        n_samples_per_center = [int(n_samples) // n_centers] * n_centers
        for i in range(int(n_samples) % n_centers):
            n_samples_per_center[i] += 1
    else:
        n_samples_per_center = [int(n) for n in n_samples]

    # X[start:end] = generator.normal(loc=centers[i], scale=std, size=(n, n_features)), as
    # rows: each value is loc + scale * gauss, which is what normal(0, 1) then that sum gives
    center_rows = centers.tolist()
    rows: list[list[float]] = []
    labels: list[int] = []
    for i, (n, std) in enumerate(zip(n_samples_per_center, stds, strict=False)):
        gauss = generator.normal(loc=0.0, scale=1.0, size=(n, n_features)).tolist()
        rows.extend(
            [c + std * g for c, g in zip(center_rows[i], row, strict=True)] for row in gauss
        )
        labels.extend([i] * n)
    X = np.array(rows, dtype=float).reshape((len(rows), n_features))
    y = np.array(labels, dtype=np.intp)

    if shuffle:
        X, y = _shuffle(X, y, random_state=generator)

    if return_centers:
        return X, y, centers
    return X, y


def _is_real(value: Any) -> bool:
    return isinstance(value, numbers.Real) or (
        not hasattr(value, "__len__") and hasattr(value, "__float__")
    )


def _rows(value: Any) -> Any:
    return value.tolist() if hasattr(value, "tolist") else [list(row) for row in value]


def _flat(value: Any) -> list[float]:
    items = value.tolist() if hasattr(value, "tolist") else list(value)
    return [float(v) for v in items]
