"""Losses: values and gradients against PyTorch, stability at extreme scores, label checks."""

from __future__ import annotations

import math

import pytest

from engine import GradstepError, Value, losses


def _values(xs: list[float]) -> list[Value]:
    return [Value(x) for x in xs]


def test_mse_value_and_gradient() -> None:
    preds = _values([1.0, -2.0, 0.5])
    loss = losses.mse(preds, [0.0, -1.0, 0.5])
    loss.backward()
    assert loss.data == pytest.approx((1.0 + 1.0 + 0.0) / 3)
    assert [p.grad for p in preds] == pytest.approx([2 / 3, -2 / 3, 0.0])


def test_hinge_is_micrograds_max_margin_loss() -> None:
    scores = _values([2.0, -0.5, 0.3])
    loss = losses.hinge(scores, [1, 1, -1])
    loss.backward()
    assert loss.data == pytest.approx((0.0 + 1.5 + 1.3) / 3)
    assert [s.grad for s in scores] == pytest.approx([0.0, -1 / 3, 1 / 3])


LOGITS = [-1000.0, -30.0, -1.5, 0.0, 0.7, 30.0, 1000.0]


@pytest.mark.parametrize("label", [0, 1])
def test_binary_cross_entropy_matches_pytorch_and_never_overflows(label: int) -> None:
    torch = pytest.importorskip("torch")
    logits = _values(LOGITS)
    loss = losses.binary_cross_entropy(logits, [label] * len(LOGITS))
    loss.backward()
    t = torch.tensor(LOGITS, dtype=torch.float64, requires_grad=True)
    want = torch.nn.functional.binary_cross_entropy_with_logits(t, torch.full_like(t, float(label)))
    want.backward()
    assert loss.data == pytest.approx(want.item(), rel=1e-12)
    assert [z.grad for z in logits] == pytest.approx(t.grad.tolist(), rel=1e-9, abs=1e-15)


def test_binary_cross_entropy_gradient_at_zero_is_sigmoid_minus_label() -> None:
    z = Value(0.0)
    losses.binary_cross_entropy([z], [1]).backward()
    assert z.grad == pytest.approx(0.5 - 1.0)


def test_softmax_cross_entropy_matches_pytorch_at_extreme_scores() -> None:
    torch = pytest.importorskip("torch")
    rows = [[1000.0, -1000.0, 0.0], [0.1, 0.2, 0.3], [-5.0, 40.0, 39.0], [2.0, 2.0, 2.0]]
    labels = [1, 2, 1, 0]
    logits = [_values(r) for r in rows]
    loss = losses.softmax_cross_entropy(logits, labels)
    loss.backward()
    t = torch.tensor(rows, dtype=torch.float64, requires_grad=True)
    want = torch.nn.functional.cross_entropy(t, torch.tensor(labels))
    want.backward()
    assert math.isfinite(loss.data)
    assert loss.data == pytest.approx(want.item(), rel=1e-12)
    got = [[s.grad for s in row] for row in logits]
    for row, want_row in zip(got, t.grad.tolist(), strict=True):
        assert row == pytest.approx(want_row, rel=1e-9, abs=1e-15)


def test_l2_is_alpha_times_the_sum_of_squares() -> None:
    params = _values([1.0, -2.0, 3.0])
    reg = losses.l2(params, 1e-4)
    reg.backward()
    assert reg.data == pytest.approx(1e-4 * 14.0)
    assert [p.grad for p in params] == pytest.approx([2e-4, -4e-4, 6e-4])


def test_accuracy_helpers() -> None:
    assert losses.binary_accuracy(_values([0.3, -2.0, 0.1, -0.1]), [1, -1, -1, 1]) == 0.5
    assert losses.binary_accuracy([0.3, -2.0], [1, 0]) == 1.0  # 0/1 labels: 0 is negative
    assert losses.accuracy([[0.1, 0.9, 0.0], [3.0, 1.0, 2.0]], [1, 2]) == 0.5


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: losses.hinge(_values([1.0]), [0]),
            "label 0 is 0: hinge loss needs -1 or 1",
        ),
        (lambda: losses.binary_cross_entropy(_values([1.0]), [-1]), "label 0 is -1"),
        (lambda: losses.softmax_cross_entropy([_values([1.0, 2.0])], [2]), "class index 0..1"),
        (lambda: losses.softmax_cross_entropy([_values([1.0])], [0]), "at least 2"),
        (lambda: losses.mse(_values([1.0, 2.0]), [1.0]), "2 predictions but 1 labels"),
        (lambda: losses.mse([], []), "mean of no values"),
        (lambda: losses.l2([], 1e-4), "at least one parameter"),
    ],
)
def test_bad_labels_and_shapes_are_refused(call: object, message: str) -> None:
    with pytest.raises(GradstepError, match=message):
        call()  # type: ignore[operator]
