"""Losses built from the engine's own ops, so every one of them can be stepped through.

Each loss is a mean over samples. The log-based losses are written so that ``log`` only ever
sees a number >= 1 and ``exp`` only ever sees a number <= 0: no domain error and no overflow
however large the scores are.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import GradstepError
from engine.value import Value, exp, log, relu

Score = Value | float


def mean(values: Sequence[Value]) -> Value:
    """The average of ``values`` (at least one)."""
    if not values:
        raise GradstepError("cannot take the mean of no values", kind="arity")
    return total(values) * (1.0 / len(values))


def total(values: Sequence[Value | float]) -> Value:
    """values[0] + values[1] + ...: a sum with no extra 0 node in front."""
    if not values:
        raise GradstepError("cannot add up no values", kind="arity")
    out = values[0] if isinstance(values[0], Value) else Value(values[0])
    for v in values[1:]:
        out = out + v
    return out


def mse(predictions: Sequence[Value], targets: Sequence[float]) -> Value:
    """Mean squared error: mean of (prediction − target)²."""
    _same_length(predictions, targets)
    return mean([(p - t) ** 2 for p, t in zip(predictions, targets, strict=True)])


def hinge(scores: Sequence[Value], labels: Sequence[int]) -> Value:
    """Max-margin (SVM) loss of micrograd's demo: mean of relu(1 − y·score), y in {−1, +1}."""
    _same_length(scores, labels)
    _labels_in(labels, (-1, 1), "hinge loss")
    return mean([relu(1 - y * s) for s, y in zip(scores, labels, strict=True)])


def binary_cross_entropy(logits: Sequence[Value], labels: Sequence[int]) -> Value:
    """Mean of −y·log σ(z) − (1 − y)·log(1 − σ(z)) for logits z and labels y in {0, 1}.

    Uses the identity  loss = softplus(z) − y·z  with softplus(z) = log(1 + exp(z)), written
    for the sign of z as  z + log(1 + exp(−z))  (z >= 0)  or  log(1 + exp(z))  (z < 0):
    the same function, but ``exp`` never overflows and ``log`` never sees less than 1. The
    graph's shape depends on each logit's sign; both shapes give the exact gradient σ(z) − y.
    """
    _same_length(logits, labels)
    _labels_in(labels, (0, 1), "binary cross-entropy")
    return mean([_softplus(z) - y * z for z, y in zip(logits, labels, strict=True)])


def softmax_cross_entropy(logits: Sequence[Sequence[Value]], labels: Sequence[int]) -> Value:
    """Mean of −log softmax(z)[y] over samples; each z is a list of class scores.

    −log softmax(z)[y] = log Σ exp(zᵢ − m) − (z_y − m), with m = max(z) taken as a constant
    (the softmax does not depend on it), so every exp sees a number <= 0 and the sum is >= 1.
    """
    _same_length(logits, labels)
    if not logits:
        raise GradstepError("cannot take the mean of no values", kind="arity")
    classes = len(logits[0])
    if classes < 2 or any(len(z) != classes for z in logits):
        raise GradstepError(
            "softmax cross-entropy needs the same number (at least 2) of scores per sample",
            kind="arity",
        )
    _classes(labels, classes)
    losses = []
    for z, y in zip(logits, labels, strict=True):
        m = max(_data(s) for s in z)
        shifted = [s - m for s in z]
        losses.append(log(total([exp(s) for s in shifted])) - shifted[y])
    return mean(losses)


def l2(parameters: Sequence[Value], alpha: float) -> Value:
    """L2 regularisation: alpha · Σ p²."""
    if not parameters:
        raise GradstepError("L2 regularisation needs at least one parameter", kind="arity")
    return alpha * total([p * p for p in parameters])


def binary_accuracy(scores: Sequence[Score], labels: Sequence[int]) -> float:
    """Share of samples whose score has the label's sign (labels ±1, or 0/1 with 0 negative)."""
    _same_length(scores, labels)
    if not scores:
        return 0.0
    right = sum((_data(s) > 0) == (y > 0) for s, y in zip(scores, labels, strict=True))
    return right / len(scores)


def accuracy(logits: Sequence[Sequence[Score]], labels: Sequence[int]) -> float:
    """Share of samples whose highest score is at the label's class."""
    _same_length(logits, labels)
    if not logits:
        return 0.0
    right = sum(_argmax(z) == y for z, y in zip(logits, labels, strict=True))
    return right / len(logits)


def _softplus(z: Value) -> Value:
    if z.data >= 0.0:
        return z + log(1 + exp(-z))
    return log(1 + exp(z))


def _data(s: Score) -> float:
    return s.data if isinstance(s, Value) else float(s)


def _argmax(z: Sequence[Score]) -> int:
    values = [_data(s) for s in z]
    return values.index(max(values))


def _same_length(a: Sequence[object], b: Sequence[object]) -> None:
    if len(a) != len(b):
        raise GradstepError(f"{len(a)} predictions but {len(b)} labels", kind="arity")


def _labels_in(labels: Sequence[float], allowed: tuple[int, int], loss: str) -> None:
    for i, y in enumerate(labels):
        if isinstance(y, bool) or not isinstance(y, int | float) or y not in allowed:
            raise GradstepError(f"label {i} is {y!r}: {loss} needs {allowed[0]} or {allowed[1]}")


def _classes(labels: Sequence[int], classes: int) -> None:
    for i, y in enumerate(labels):
        if isinstance(y, bool) or not isinstance(y, int) or not 0 <= y < classes:
            raise GradstepError(f"label {i} is {y!r}: it must be a class index 0..{classes - 1}")
