"""engine.lab, training: the XOR preset gives the tutorial's loss curve and a boundary that
separates the corners, the micrograd preset is the demo's loop step for step, Stop before
every batch, the schedule over minibatches, the final report, loading parameters, and bad
configs refused naming the field."""

from __future__ import annotations

from dataclasses import replace

import pytest
from lab_presets import MOONS, XOR

from engine import datasets, losses, nn, optim
from engine.errors import GradstepError
from engine.lab.config import check, parameter_count
from engine.lab.train import (
    Boundary,
    EpochReport,
    Finished,
    evaluate,
    load_parameters,
    prepare,
    train,
)


def test_xor_preset_reproduces_the_xor_tutorials_loss_curve() -> None:
    # The XOR tutorial it follows prints "Epoch 0: Loss = 1.372289" and "Epoch 199: Loss =
    # 0.003009", with random.seed(42), MLP(2, [8, 1]) tanh, MSE to ±1 targets, lr 0.05, 200
    # full-batch epochs.
    events = list(train(prepare(XOR)))
    epochs = [e for e in events if isinstance(e, EpochReport)]
    assert [e.epoch for e in epochs] == list(range(1, 201))
    assert epochs[0].loss == pytest.approx(1.372289, abs=5e-7)
    assert epochs[-1].loss == pytest.approx(0.003009, abs=5e-7)
    done = events[-1]
    assert isinstance(done, Finished)
    assert (done.epochs_run, done.stopped, done.accuracy) == (200, False, 1.0)
    assert len(done.parameters) == parameter_count(XOR) == 33


def test_xor_boundary_separates_the_corners() -> None:
    events = list(train(prepare(XOR)))
    boundaries = [e for e in events if isinstance(e, Boundary)]
    assert events[0] == boundaries[0] and boundaries[0].epoch == 0  # the untrained model
    assert boundaries[-1].epoch == 200
    assert [b.epoch for b in boundaries] == sorted({b.epoch for b in boundaries})
    grid = boundaries[-1].grid
    assert len(grid.classes) == len(grid.confidence) == grid.n * grid.n == 1600

    def cell(x: float, y: float) -> int:
        b = grid.bounds
        col = int((x - b.x_min) / (b.x_max - b.x_min) * grid.n)
        row = int((b.y_max - y) / (b.y_max - b.y_min) * grid.n)
        return grid.classes[row * grid.n + col]

    assert [cell(0, 0), cell(0, 1), cell(1, 0), cell(1, 1)] == [0, 1, 1, 0]


def test_micrograd_preset_is_the_demo_loop_of_the_nn_test() -> None:
    # tests/engine/test_nn.py shows this exact set-up reaching 100% training accuracy; here the
    # preset is shown to be that set-up, step for step, so the result carries over.
    X, y = datasets.moons(100, noise=0.1, seed=1)
    ys = datasets.signs(y)
    model = nn.MLP(2, [16, 16, 1], seed=0)
    sgd = optim.SGD(model.parameters(), lr=1.0, schedule=optim.linear_decay(100, 0.1))
    expected = []
    for _ in range(3):
        out = [model(x) for x in X]
        loss = losses.hinge(out, ys) + losses.l2(model.parameters(), 1e-4)
        expected.append((loss.data, losses.binary_accuracy(out, ys)))
        model.zero_grad()
        loss.backward()
        sgd.step()
    seen = []
    for event in train(prepare(MOONS)):
        if isinstance(event, EpochReport):
            seen.append((event.loss, event.accuracy))
        if len(seen) == 3:
            break
    assert seen == expected


def test_stop_is_asked_before_every_batch_and_ends_the_run() -> None:
    config = replace(XOR, size=8, batch_size=2, epochs=10)
    asked = 0

    def should_stop() -> bool:
        nonlocal asked
        asked += 1
        return asked > 9  # 4 batches an epoch: two epochs, then one batch of the third

    events = list(train(prepare(config), should_stop))
    assert [e.epoch for e in events if isinstance(e, EpochReport)] == [1, 2]
    done = events[-1]
    assert isinstance(done, Finished) and done.stopped and done.epochs_run == 2
    assert asked == 10
    last = events[-2]  # the boundary of the model as it was stopped
    assert isinstance(last, Boundary) and last.epoch == 2


def test_minibatches_follow_the_schedule_over_every_step() -> None:
    config = replace(MOONS, size=20, hidden=(4,), batch_size=5, epochs=3, schedule="linear")
    reports = [e for e in train(prepare(config)) if isinstance(e, EpochReport)]
    # 4 steps an epoch, 12 in all: the rate falls linearly from 1.0 to 0.1 over them
    assert [r.lr for r in reports] == pytest.approx([1.0 - 0.9 * k / 12 for k in (3, 7, 11)])


def test_done_reports_the_final_model_on_all_points() -> None:
    setup = prepare(replace(MOONS, size=30, hidden=(4,), epochs=4))
    done = list(train(setup))[-1]
    assert isinstance(done, Finished)
    assert (done.loss, done.accuracy) == evaluate(setup)


def test_loaded_parameters_set_the_model() -> None:
    setup = prepare(XOR)
    load_parameters(setup, [0.5] * 33)
    assert all(p.data == 0.5 for p in setup.model.parameters())
    with pytest.raises(GradstepError, match="33, not 2"):
        load_parameters(setup, [1.0, 2.0])


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"dataset": "spiral"}, "spiral has 3 classes"),
        ({"dataset": "rings"}, "dataset: 'rings' is not one of"),
        ({"loss": "l1"}, "loss: 'l1'"),
        ({"activation": "gelu"}, "activation: 'gelu'"),
        ({"dataset": "xor", "size": 3}, "size must be a whole number >= 4"),
        ({"epochs": 0}, "epochs must be"),
        ({"hidden": ()}, "hidden: give at least one"),
        ({"hidden": (4, 0)}, "hidden must be"),
        ({"noise": -0.1}, "noise must be"),
        ({"l2": float("nan")}, "l2 must be"),
        ({"lr": 0.0}, "lr must be a positive"),
        ({"batch_size": -1}, "batch_size must be"),
    ],
)
def test_bad_configs_are_refused_naming_the_field(changes: dict[str, object], message: str) -> None:
    with pytest.raises(GradstepError, match=message):
        check(replace(MOONS, **changes))  # type: ignore[arg-type]
